"""The Stepper's logic with no Jupyter in it: what to show, what a click does.

`StepperSession` holds one game being played (or watched) turn by turn. Two
transports carry it to the same front end (`static/stepper.js`):

- in JupyterLab, `meeple.widgets.Stepper` (anywidget) syncs `view`/`error`
  and passes the browser's messages to `handle`;
- on the course site, a Web Worker running Pyodide rebuilds the session from
  its saved `setup()` (`StepperSession.from_setup`) and answers the same
  messages (`lessons/site/runtime/static/meeple-worker.js`).

Only the standard library and `meeple.rules` are imported here, so the
session runs in the browser, where altair, pandas and numpy do not exist.
"""

from __future__ import annotations

from meeple.rules.chance import CHANCE, check_seed, check_version, start
from meeple.rules.core import apply_text, bot_rng, game_module, make_record, replay, resolve_bots

from . import views

EVENTS_SHOWN = 14
COMMANDS = ("act", "step", "to-my-turn", "undo", "new-game", "restart", "record")


class StepperSession:
    """One game, one step at a time.

    seat: the reader's seat (0-based), or None to watch bots play.
    show_all: show every hand face up (for teaching; off when you play).
    chance: the chance version every deal of this session comes from (a game continued from
    an older record deals from that record's version, restarts and new games too).
    After every command `view` (plain JSON for stepper.js) and `error` are current.
    """

    def __init__(self, game="bucket-brigade", config=None, seed: int = 0, bots="heuristic", seat: int | None = 0,
                 show_all: bool = False, chance: int = CHANCE):
        self.mod = game_module(game)
        self.chance = check_version(chance)
        if isinstance(config, str) or hasattr(config, "__fspath__"):  # a variant file (meeple variant save)
            config = self.mod.Config.load(config)
        self.config = self.mod.Config() if config is None else config
        if not isinstance(self.config, self.mod.Config):
            raise ValueError(f"config must be a {self.mod.NAME} Config, got {type(self.config).__name__}")
        n = self.config.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"seat={seat!r} is not allowed: a seat from 0 to {n - 1} (Player 1 to Player {n}), or None "
                             "to watch")
        self.seat = seat
        self.show_all = bool(show_all)
        names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
        if len(names) == 1:
            names = names * n
        if seat is not None and len(names) == n - 1:
            names.insert(seat, "random")  # bots named for the other seats only
        names, self.bots = resolve_bots(self.mod, names, n)
        self.bot_lineup = names  # what the seats' bots are called (the reader's seat's is never asked)
        # the reader's seat never asks its bot
        self.bot_names = tuple("you" if i == seat else b for i, b in enumerate(names))
        self.view: dict = {}
        self.error = ""
        self.restart(check_seed(seed))

    # --- rebuilding a session elsewhere (the course site's browser) ------------

    def setup(self) -> dict:
        """What rebuilds this game from its start (JSON): game, config, seed, bots, seat, show_all
        (and chance, when it is not the current version: a game continued from an older record).
        `portable` is False when a bot is a Python function the browser cannot have."""
        portable = all(name in self.mod.BOTS for name in self.bot_lineup)
        return {
            "game": self.mod.NAME,
            "config": self.config.to_dict(),
            "seed": self.seed,
            "bots": list(self.bot_lineup),
            "seat": self.seat,
            "show_all": self.show_all,
            "portable": portable,
            # the current version is left out: the setups saved before this key existed stay as they were
            **({"chance": self.chance} if self.chance != CHANCE else {}),
        }

    @classmethod
    def from_setup(cls, setup: dict) -> "StepperSession":
        """The game `setup()` describes, at its first step (same seed, same game)."""
        if not isinstance(setup, dict):
            raise ValueError("a Stepper setup must be an object")
        missing = [k for k in ("game", "config", "seed", "bots", "seat") if k not in setup]
        if missing:
            raise ValueError(f"the Stepper setup lacks {', '.join(missing)}")
        mod = game_module(setup["game"])
        return cls(mod, mod.Config.from_dict(setup["config"]), setup["seed"], list(setup["bots"]), setup["seat"],
                   bool(setup.get("show_all", False)), setup.get("chance", CHANCE))

    def text(self) -> str:
        """The game as plain text (where no widget can draw it, e.g. a cell run on the course
        site): whose turn, the scores, the reader's moves and the last events, from `view`."""
        v = self.view
        lines = [f"{v['title']} · {v['subtitle']}", f"Round {v['round']}, step {v['step']}. {v['status']}"]
        for p in v["players"]:
            bot = "" if p["bot"] == "you" else f" ({p['bot']})"
            mark = " ← to move" if p["current"] and not v["over"] else " ← wins" if p["winner"] else ""
            lines.append(f"  {p['name']}{bot}: {p['score']}{mark}")
        if v["actions"]:
            lines.append("Your moves: " + ", ".join(v["actions"]))
        if v["events"]:
            lines.append("Last events:")
            lines += [f"  {e}" for e in v["events"][-5:]]
        return "\n".join(lines)

    # --- the reader's commands ---------------------------------------------------

    def new_game(self) -> None:
        """The next deal: seed + 1, so a run of new games is as reproducible as the first
        (seed 11, then 12, 13, ...). `restart()` replays the current deal."""
        self.restart(self.seed + 1)

    def restart(self, seed: int | None = None) -> None:
        """Deal again: no seed replays this deal; a seed deals that game."""
        seed = self.seed if seed is None else check_seed(seed)
        # everything made before anything is replaced: a seed the game refuses leaves the game as it was
        rngs = [bot_rng(seed, s, self.chance) for s in range(self.config.players)]
        first = self.mod.new_game(self.config, seed, chance=start(seed, self.chance))
        self.seed, self._rngs, self._states = seed, rngs, [first]
        self.actions: list[str] = []
        self._rng_states: list[list] = []  # the bots' streams before each step, so undo rewinds them too
        self.error = ""
        self._refresh(0)

    @property
    def state(self):
        return self._states[-1]

    def waiting_for_you(self) -> bool:
        s = self.state
        return self.seat is not None and not s.is_over and s.current_player == self.seat

    def act(self, text: str) -> None:
        """Play the legal action whose text is `text` for the reader."""
        if not self.waiting_for_you():
            raise ValueError("it is not your turn" if not self.state.is_over else "the game is over")
        self._push(apply_text(self.mod, self.state, text), text)

    def step(self) -> None:
        """Let the bot whose turn it is move once."""
        s = self.state
        if s.is_over:
            raise ValueError("the game is over")
        if self.waiting_for_you():
            raise ValueError("it is your turn: choose a card")
        p = s.current_player
        legal = self.mod.legal_actions(s)
        rngs_before = [r.getstate() for r in self._rngs]
        action = self.bots[p](self.mod.observation(s, p), legal, self._rngs[p])
        self._push(self.mod.apply(s, action), str(action), rngs_before=rngs_before)

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
        while self.seat is not None and len(self._states) > 1 and not self.waiting_for_you():
            self._pop()
        self._refresh(0)

    def record(self):
        """The game so far as a Record (to_json() saves it; meeple.rules.replay loads it)."""
        return make_record(self.mod, self.config, self.seed, self.bot_names, self.actions, self.state)

    def handle(self, content) -> dict | None:
        """One message from the front end: {"do": "act"|"step"|"to-my-turn"|"undo"|"new-game"|"restart"|"record", ...}.
        "new-game" deals the next seed; "restart" replays this deal (or deals {"seed": n}).
        A refused command leaves the game as it was and sets `error`. "record" answers
        {"record": <JSON text>, "name": <file name>} for the front end to save."""
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
            elif do == "new-game":
                self.new_game()
            elif do == "restart":
                seed = content.get("seed")
                self.restart(None if seed is None else check_seed(seed))
            elif do == "record":
                self.error = ""
                return {"record": self.record().to_json(), "name": f"{self.mod.NAME}-seed{self.seed}-step{len(self.actions)}.json"}
            else:
                raise ValueError(f"unknown command {do!r}; allowed: {', '.join(COMMANDS)}")
        except ValueError as e:
            self.error = str(e)
        return None

    @classmethod
    def from_record(cls, json_text: str, seat: int | None = None, bots="heuristic") -> "StepperSession":
        """Continue a saved game (replayed and checked by the rules), dealt from the record's
        chance version (an older record's too), as `replay` deals it."""
        rec = replay(json_text)
        w = cls(rec.game, rec.config, rec.seed, bots=bots, seat=seat, chance=rec.chance)
        w.replay_actions(rec.actions)
        return w

    def replay_actions(self, actions) -> None:
        """Play `actions` (texts) from the current state, each checked by the rules; bots think
        again on their turns so their streams are where they were in the original game."""
        for text in actions:
            s, p = self.state, self.state.current_player
            rngs_before = [r.getstate() for r in self._rngs]
            if p != self.seat:
                self.bots[p](self.mod.observation(s, p), self.mod.legal_actions(s), self._rngs[p])
            self._push(apply_text(self.mod, s, text), text, refresh=False, rngs_before=rngs_before)
        self._refresh(0)

    # --- plumbing --------------------------------------------------------------

    def _pop(self) -> None:
        self._states.pop()
        self.actions.pop()
        for rng, st in zip(self._rngs, self._rng_states.pop()):
            rng.setstate(st)

    def _push(self, state, text: str, refresh: bool = True, rngs_before=None) -> None:
        self._rng_states.append(rngs_before if rngs_before is not None else [r.getstate() for r in self._rngs])
        before = len(self.state.events)
        self._states.append(state)
        self.actions.append(text)
        self.error = ""
        if refresh:
            self._refresh(len(state.events) - before)

    def _refresh(self, new_events: int) -> None:
        mod, s = self.mod, self.state
        viewer = self.seat if self.seat is not None else (s.current_player if s.current_player is not None else 0)
        show_all = self.show_all or self.seat is None
        totals = mod.scores(s)
        winners = mod.winners(s)
        players = [
            {
                "name": f"Player {i + 1}" + (" (you)" if i == self.seat else ""),
                "bot": self.bot_names[i],
                "score": totals[i],
                "current": s.current_player == i,
                "winner": i in winners,
            }
            for i in range(self.config.players)
        ]
        yours = self.waiting_for_you()
        self.view = {
            "title": mod.TITLE,
            "subtitle": f"seed {self.seed} · rules: {self.config.describe()}",
            "round": s.round + 1,
            "step": len(self.actions),
            "over": s.is_over,
            "your_turn": yours,
            "watching": self.seat is None,
            "status": _status(s, self.seat, winners),
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


__all__ = ["StepperSession"]
