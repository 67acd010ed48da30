"""Stepper: play or watch one game turn by turn in a notebook.

The widget shows the board, the reader's hand, the last events and the
scores; the reader clicks a card (or "Next" to let the bot whose turn it is
move). Every click is checked by the rules module; the widget holds no rule.

This class is only the JupyterLab transport: what is shown and what a click
does live in `session.StepperSession` (no Jupyter import), which the course
site also runs in the reader's browser; `static/stepper.js` draws both.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from .session import StepperSession

STATIC = Path(__file__).parent / "static"


class Stepper(anywidget.AnyWidget):
    """One game, one step at a time.

    seat: the reader's seat (0-based), or None to watch bots play.
    show_all: show every hand face up (for teaching; off when you play).
    """

    _esm = STATIC / "stepper.js"
    _css = STATIC / "stepper.css"

    view = traitlets.Dict().tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    # what rebuilds this game from its start, saved with the widget: the course site replays it in the browser
    setup = traitlets.Dict().tag(sync=True)

    def __init__(self, game="bucket-brigade", config=None, seed: int = 0, bots="heuristic", seat: int | None = 0,
                 show_all: bool = False, **kwargs):
        super().__init__(**kwargs)
        self._session = StepperSession(game, config, seed, bots, seat, show_all)
        self.setup = self._session.setup()
        self.on_msg(self._on_message)
        self._sync()

    # --- the reader's commands (the session's, then the view synced) ------------

    def new_game(self) -> None:
        """The next deal (seed + 1: reproducible); `restart()` replays this one."""
        self._session.new_game()
        self.setup = self._session.setup()
        self._sync()

    def restart(self, seed: int | None = None) -> None:
        """Deal again: no seed replays this deal; a seed deals that game."""
        self._session.restart(seed)
        self.setup = self._session.setup()
        self._sync()

    @property
    def state(self):
        return self._session.state

    def waiting_for_you(self) -> bool:
        return self._session.waiting_for_you()

    # Like Tally's add/reset on purpose: each widget method asks its plain session, then redraws (_sync).
    def act(self, text: str) -> None:
        """Play the legal action whose text is `text` for the reader."""
        self._session.act(text)
        self._sync()

    def step(self) -> None:
        """Let the bot whose turn it is move once."""
        self._session.step()
        self._sync()

    def play_until_your_turn(self) -> None:
        """Bots move until the reader must choose (or the round or game ends)."""
        self._session.play_until_your_turn()
        self._sync()

    def undo(self) -> None:
        """Take back the last step (and the bot moves after the reader's last choice)."""
        self._session.undo()
        self._sync()

    def record(self):
        """The game so far as a Record (to_json() saves it; meeple.rules.replay loads it)."""
        return self._session.record()

    @classmethod
    def from_record(cls, json_text: str, seat: int | None = None, bots="heuristic") -> "Stepper":
        """Continue a saved game (replayed and checked by the rules)."""
        session = StepperSession.from_record(json_text, seat=seat, bots=bots)
        w = cls(session.mod, session.config, session.seed, bots=bots, seat=seat)
        w._session = session
        w.setup = session.setup()  # the record's chance version, for the course site's rebuild
        w._sync()
        return w

    # what tests and lessons read
    @property
    def _config(self):
        return self._session.config

    @property
    def _actions(self) -> list[str]:
        return self._session.actions

    # --- plumbing --------------------------------------------------------------

    def _on_message(self, _widget, content, _buffers) -> None:
        """Messages from the browser: see StepperSession.handle."""
        answer = self._session.handle(content)
        if isinstance(content, dict) and content.get("do") in ("restart", "new-game"):
            self.setup = self._session.setup()
        self._sync()
        if answer is not None:  # the record, for stepper.js to offer as a download
            self.send(answer)

    def _sync(self) -> None:
        self.error = self._session.error
        self.view = self._session.view
