"""Stepper: play or watch one game turn by turn in a notebook.

The widget shows the board, the reader's hand, the last events and the
scores; the reader clicks a card (or "Next" to let the bot whose turn it is
move). Every click is checked by the rules module; the widget holds no rule.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from meeple.rules.chance import check_seed
from meeple.rules.core import _record, apply_text, bot_rng, game_module, replay, resolve_bots

from . import views

STATIC = Path(__file__).parent / "static"
EVENTS_SHOWN = 14


class Stepper(anywidget.AnyWidget):
    """One game, one step at a time.

    seat: the reader's seat (0-based), or None to watch bots play.
    show_all: show every hand face up (for teaching; off when you play).
    """

    _esm = STATIC / "stepper.js"
    _css = STATIC / "stepper.css"

    view = traitlets.Dict().tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)

    def __init__(self, game="bucket-brigade", config=None, seed: int = 0, bots="heuristic", seat: int | None = 0, show_all: bool = False, **kwargs):
        super().__init__(**kwargs)
        self._mod = game_module(game)
        self._config = self._mod.Config() if config is None else config
        if not isinstance(self._config, self._mod.Config):
            raise ValueError(f"config must be a {self._mod.NAME} Config, got {type(self._config).__name__}")
        n = self._config.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"seat={seat!r} is not allowed: a seat from 0 to {n - 1}, or None to watch")
        self._seat = seat
        self._show_all = bool(show_all)
        names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
        if len(names) == 1:
            names = names * n
        if seat is not None and len(names) == n - 1:
            names.insert(seat, "random")  # bots named for the other seats only
        names, self._bots = resolve_bots(self._mod, names, n)
        # the reader's seat never asks its bot
        self._bot_names = tuple("you" if i == seat else b for i, b in enumerate(names))
        self.on_msg(self._on_message)
        self.restart(check_seed(seed))

    # --- the reader's commands (also called from the browser) ----------------

    def restart(self, seed: int | None = None) -> None:
        """A new game (the same seed replays the same deal)."""
        if seed is not None:
            self._seed = check_seed(seed)
        self._rngs = [bot_rng(self._seed, s) for s in range(self._config.players)]
        self._states = [self._mod.new_game(self._config, self._seed)]
        self._actions: list[str] = []
        self._rng_states: list[list] = []  # the bots' streams before each step, so undo rewinds them too
        self.error = ""
        self._refresh(0)

    @property
    def state(self):
        return self._states[-1]

    def waiting_for_you(self) -> bool:
        s = self.state
        return self._seat is not None and not s.is_over and s.current_player == self._seat

    def act(self, text: str) -> None:
        """Play the legal action whose text is `text` for the reader."""
        if not self.waiting_for_you():
            raise ValueError("it is not your turn" if not self.state.is_over else "the game is over")
        self._push(apply_text(self._mod, self.state, text), text)

    def step(self) -> None:
        """Let the bot whose turn it is move once."""
        s = self.state
        if s.is_over:
            raise ValueError("the game is over")
        if self.waiting_for_you():
            raise ValueError("it is your turn: choose a card")
        p = s.current_player
        legal = self._mod.legal_actions(s)
        rngs_before = [r.getstate() for r in self._rngs]
        action = self._bots[p](self._mod.observation(s, p), legal, self._rngs[p])
        self._push(self._mod.apply(s, action), str(action), rngs_before=rngs_before)

    def play_until_your_turn(self) -> None:
        """Bots move until the reader must choose (or the round or game ends)."""
        start_round = self.state.round
        while not self.state.is_over and not self.waiting_for_you() and self.state.round == start_round:
            self.step()

    def undo(self) -> None:
        """Take back the last step (and the bot moves after the reader's last choice)."""
        if len(self._states) == 1:
            raise ValueError("nothing to undo")
        self._pop()
        while self._seat is not None and len(self._states) > 1 and not self.waiting_for_you():
            self._pop()
        self._refresh(0)

    def _pop(self) -> None:
        self._states.pop()
        self._actions.pop()
        for rng, st in zip(self._rngs, self._rng_states.pop()):
            rng.setstate(st)

    def record(self):
        """The game so far as a Record (to_json() saves it; meeple.rules.replay loads it)."""
        return _record(self._mod, self._config, self._seed, self._bot_names, self._actions, self.state)

    @classmethod
    def from_record(cls, json_text: str, seat: int | None = None, bots="heuristic") -> "Stepper":
        """Continue a saved game (replayed and checked by the rules)."""
        rec = replay(json_text)
        w = cls(rec.game, rec.config, rec.seed, bots=bots, seat=seat)
        for text in rec.actions:
            s, p = w.state, w.state.current_player
            rngs_before = [r.getstate() for r in w._rngs]
            if p != seat:  # let the bot think again, so its stream is where it was in the original game
                w._bots[p](w._mod.observation(s, p), w._mod.legal_actions(s), w._rngs[p])
            w._push(apply_text(w._mod, s, text), text, refresh=False, rngs_before=rngs_before)
        w._refresh(0)
        return w

    # --- plumbing --------------------------------------------------------------

    def _push(self, state, text: str, refresh: bool = True, rngs_before=None) -> None:
        self._rng_states.append(rngs_before if rngs_before is not None else [r.getstate() for r in self._rngs])
        before = len(self.state.events)
        self._states.append(state)
        self._actions.append(text)
        self.error = ""
        if refresh:
            self._refresh(len(state.events) - before)

    def _on_message(self, _widget, content, _buffers) -> None:
        """Messages from the browser: {"do": "act"|"step"|"to-my-turn"|"undo"|"restart", ...}."""
        try:
            if not isinstance(content, dict):
                raise ValueError("unknown message")
            do = content.get("do")
            if do == "act":
                action = content.get("action")
                if not isinstance(action, str):
                    raise ValueError("a move must name an action")
                self.act(action)
            elif do == "step":
                self.step()
            elif do == "to-my-turn":
                self.play_until_your_turn()
            elif do == "undo":
                self.undo()
            elif do == "restart":
                seed = content.get("seed")
                self.restart(None if seed is None else check_seed(seed))
            else:
                raise ValueError(f"unknown command {do!r}; allowed: act, step, to-my-turn, undo, restart")
        except ValueError as e:
            self.error = str(e)

    def _refresh(self, new_events: int) -> None:
        mod, s = self._mod, self.state
        viewer = self._seat if self._seat is not None else (s.current_player if s.current_player is not None else 0)
        show_all = self._show_all or self._seat is None
        totals = mod.scores(s)
        winners = mod.winners(s)
        players = [
            {
                "name": f"Player {i + 1}" + (" (you)" if i == self._seat else ""),
                "bot": self._bot_names[i],
                "score": totals[i],
                "current": s.current_player == i,
                "winner": i in winners,
            }
            for i in range(self._config.players)
        ]
        yours = self.waiting_for_you()
        self.view = {
            "title": mod.TITLE,
            "subtitle": f"seed {self._seed} · rules: {self._config.describe()}",
            "round": s.round + 1,
            "step": len(self._actions),
            "over": s.is_over,
            "your_turn": yours,
            "watching": self._seat is None,
            "status": _status(s, self._seat, winners),
            "players": players,
            "board": views.board(mod, s, viewer, show_all),
            "actions": [str(a) for a in mod.legal_actions(s)] if yours else [],
            "events": list(s.events[-EVENTS_SHOWN:]),
            "first_event": max(1, len(s.events) - EVENTS_SHOWN + 1),
            "new_events": min(new_events, EVENTS_SHOWN),
            "can_undo": len(self._states) > 1,
        }


def _status(s, seat, winners) -> str:
    if s.is_over:
        names = " and ".join(f"Player {w + 1}" for w in winners)
        return f"Game over: {names} win{'s' if len(winners) == 1 else ''}."
    if seat is not None and s.current_player == seat:
        return "Your turn: choose what to do."
    return f"Player {s.current_player + 1} to move: press Next."
