"""The lessons' small controls with no Jupyter in them: what each shows, what a change does.

Each control is a plain class (standard library and `meeple.rules` only, so it
also runs in the site's Pyodide). It holds the values of its inputs, asks the
rules what follows from them, and keeps a `view` (plain JSON) that one front
end draws (`static/panel.js`). Two transports carry it:

- in a notebook host (JupyterLab, Notebook 7, marimo, VS Code, Colab),
  `meeple.widgets.panel.Panel(control)` (anywidget) syncs `view` and passes
  the front end's messages to `handle`;
- on the course site, the Pyodide Web Worker rebuilds the control from its
  saved `setup()` (`from_setup`) and answers the same messages
  (`meeple.course.site.runtime.live`).

Messages: {"do": "set", "name": input, "value": v} and {"do": "press", "name":
button}. A refused message leaves the control as it was and sets `error`.

Input kinds (what panel.js draws):
- "select": a drop-down list of `options` ({"value", "label"});
- "toggle": the same choice as a row of buttons (one pressed);
- "range": a slider over `options` (any values, in order: what the slider
  offers is exactly what the control accepts);
- "button": a press.
"""

from __future__ import annotations

import inspect
import math
import random
from collections import Counter
from fractions import Fraction

from meeple.rules import bucket_king as bk, duck_duck_bruce as ddb, exact, piggyback_brigade as pb
from meeple.rules.chance import check_seed
from meeple.rules.core import game_module, resolve_bots
from meeple.rules.files import shown_text
from meeple.rules.sim import CHECKPOINTS, play_game
from meeple.rules.sim.runner import bot_refs as _bot_refs
from meeple.rules.stats import mean_ci, wilson

from . import specs

KINDS: dict[str, type] = {}  # control kind -> class, for the worker to rebuild a saved control


def _kind(cls):
    KINDS[cls.kind] = cls
    return cls


def _options(values, label=str) -> list[dict]:
    return [{"value": v, "label": label(v)} for v in values]


def _pct(x: float) -> str:
    return f"{x:.0%}"


def _whole(value, what: str, low: int, high: int) -> int:
    """A whole number from low to high from a saved setup, or a one-line ValueError stating the bounds."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{what}={shown_text(value, 40)} is not allowed: a whole number from {low:,} to {high:,}")
    return value


def strict(value):
    """`value` with every float that JSON cannot hold (NaN, infinity) as None: a view must pass
    json.dumps(allow_nan=False), which is what a browser's JSON.parse reads."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict(v) for v in value]
    return value


def _echo(value) -> str:
    """A value a check refuses, as its error echoes it: the repr, escapes written out, cut past 40 characters."""
    return shown_text(repr(value) if isinstance(value, str) else value, 40)


MAX_ERROR = 600  # characters of an error text: what a check echoes of user text is cut to fit (issue 33)


class Control:
    """What every control shares: its inputs' values, the messages, the view."""

    kind = ""
    title = ""

    def __init__(self):
        self.error = ""
        self.moves = 0  # messages answered: the front end tells a fresh view from a repeat
        self.text = ""
        self.chart: dict | None = None
        self.table: dict | None = None
        self.note = ""  # a line under the output (what a button will do, how long it takes)

    # --- what a subclass says -------------------------------------------------
    def inputs(self) -> list[dict]:
        """The inputs as panel.js draws them, each with its current value."""
        return []

    def args(self) -> dict:
        """The keyword arguments that rebuild this control (JSON)."""
        return {}

    def compute(self) -> None:
        """Ask the rules and set text / chart / table (raise ValueError for a refused input)."""

    def set(self, name: str, value) -> None:
        """Set an input to one of its options (checked here, once, for every control)."""
        spec = self._input(name)
        if spec["kind"] == "button":
            raise ValueError(f"{name} is a button: press it")
        allowed = [o["value"] for o in spec["options"]]
        if value not in allowed or isinstance(value, bool) != any(isinstance(a, bool) for a in allowed):
            raise ValueError(f"{spec['label']}={shown_text(value, 40)} is not allowed: one of "
                             f"{', '.join(map(str, allowed))}")
        before, moves = self.args(), self.moves
        self._assign(name, value)
        try:
            self.compute()
        except ValueError:
            self.__init__(**before)  # the control as it was: a refused input changes nothing
            self.moves = moves
            raise

    def press(self, name: str) -> None:
        spec = self._input(name)
        if spec["kind"] != "button":
            raise ValueError(f"{name} is not a button")
        if spec.get("disabled"):
            raise ValueError(f"{spec['label']} cannot be pressed now")
        self._press(name)

    def _assign(self, name: str, value) -> None:
        raise NotImplementedError

    def _press(self, name: str) -> None:
        raise NotImplementedError

    # --- shared -------------------------------------------------------------------
    def _input(self, name: str) -> dict:
        for spec in self.inputs():
            if spec["name"] == name:
                return spec
        raise ValueError(f"{self.title or self.kind} has no input {shown_text(name, 40)}; "
                         f"it has {', '.join(s['name'] for s in self.inputs())}")

    def setup(self) -> dict:
        """What rebuilds this control elsewhere (the site's worker): {"kind", "args"}."""
        return {"kind": self.kind, "args": self.args()}

    @classmethod
    def from_setup(cls, setup: dict) -> "Control":
        if not isinstance(setup, dict) or not isinstance(setup.get("args"), dict):
            raise ValueError("a control's setup must be an object {kind, args}")
        kind = setup.get("kind")
        if cls is Control:
            if kind not in KINDS:
                raise ValueError(f"unknown control kind {shown_text(kind, 40)}; known: {', '.join(sorted(KINDS))}")
            cls = KINDS[kind]
        elif kind != cls.kind:
            raise ValueError(f"a {cls.kind} setup was expected, got {shown_text(kind, 40)}")
        try:
            return cls(**setup["args"])
        except ValueError as e:  # a saved setup's megabyte (or escape) echoed by a check: cut and printable
            raise ValueError(shown_text(" ".join(str(e).split()), MAX_ERROR)) from None
        except TypeError:  # an argument the control does not take
            raise ValueError(f"a {cls.kind} setup takes {', '.join(inspect.signature(cls).parameters)}; got "
                             f"{shown_text(', '.join(map(str, setup['args'])), 80)}") from None

    def handle(self, msg) -> dict:
        """One message from the front end; answers the view."""
        try:
            if not isinstance(msg, dict):
                raise ValueError("unknown message: an object {do, name, value} was expected")
            do, name = msg.get("do"), msg.get("name")
            if not isinstance(name, str):
                raise ValueError("a message must name an input")
            if do == "set":
                self.set(name, msg.get("value"))
            elif do == "press":
                self.press(name)
            else:
                raise ValueError(f"unknown command {shown_text(do, 40)}; allowed: set, press")
            self.error = ""
        except ValueError as e:
            self.error = shown_text(" ".join(str(e).split()), MAX_ERROR)
        self.moves += 1
        return self.view()

    def view(self) -> dict:
        """The view the front end draws: strict JSON (no NaN: see `strict`)."""
        return strict({"kind": self.kind, "title": self.title, "inputs": self.inputs(), "text": self.text,
                       "chart": self.chart, "table": self.table, "note": self.note, "error": self.error,
                       "moves": self.moves})


# --- lesson 1: counting rounds by hand ---------------------------------------------

@_kind
class TallyCount(Control):
    """Two buttons ("yes", "no") and the running proportion with its 95% Wilson interval."""

    kind = "tally"

    def __init__(self, question: str = "Did it happen?", yes: str = "yes", no: str = "no", yes_count: int = 0,
                 no_count: int = 0):
        super().__init__()
        for what, v in (("question", question), ("yes", yes), ("no", no)):
            if not isinstance(v, str) or not v.strip():
                raise ValueError(f"{what} must be some text, got {_echo(v)}")
        for what, v in (("yes_count", yes_count), ("no_count", no_count)):
            check_seed(v, what)  # a whole number >= 0
        self.title, self.yes, self.no = question, yes, no
        self.yes_count, self.no_count = yes_count, no_count
        self.compute()

    @property
    def games(self) -> int:
        return self.yes_count + self.no_count

    def args(self) -> dict:
        return {"question": self.title, "yes": self.yes, "no": self.no, "yes_count": self.yes_count,
                "no_count": self.no_count}

    def inputs(self) -> list[dict]:
        return [{"name": "yes", "kind": "button", "label": self.yes},
                {"name": "no", "kind": "button", "label": self.no},
                {"name": "reset", "kind": "button", "label": "start again", "disabled": self.games == 0}]

    def add(self, happened: bool) -> None:
        """Count one more game (True: it happened)."""
        if not isinstance(happened, bool):
            raise ValueError(f"add() takes True or False, got {_echo(happened)}")
        if happened:
            self.yes_count += 1
        else:
            self.no_count += 1
        self.compute()

    def reset(self) -> None:
        self.yes_count = self.no_count = 0
        self.compute()

    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the proportion so far ((0, 1) before any game)."""
        return wilson(self.yes_count, self.games)

    def _press(self, name: str) -> None:
        if name == "reset":
            self.reset()
        else:
            self.add(name == "yes")

    def compute(self) -> None:
        n = self.games
        if n == 0:
            self.text = "No games counted yet: the interval is everything from 0% to 100%."
            return
        lo, hi = self.interval()
        self.text = (f"{self.yes_count} of {n} games: {self.yes_count / n:.0%}; "
                     f"95% interval {lo:.0%} to {hi:.0%} (Wilson).")


# --- lessons 2, 3, 4, 6: Piggyback Brigade's die -------------------------------------

@_kind
class DieEditor(Control):
    """Six face drop-downs (1 to 9): the die's exact mean and variance, two thousand sampled
    rolls with a 95% interval, and a whole turn's mean move (lesson 2)."""

    kind = "die-editor"
    title = "Your die"
    FACES = tuple(range(1, 10))
    ROLLS = 2000

    def __init__(self, faces=None, seed: int = 3):
        super().__init__()
        faces = tuple(pb.Config().faces if faces is None else faces)
        if len(faces) != 6 or any(f not in self.FACES or isinstance(f, bool) for f in faces):
            raise ValueError(f"faces={_echo(faces)} is not allowed: six faces, each a whole number from 1 to 9")
        self.faces, self.seed = faces, check_seed(seed)
        self.compute()

    def args(self) -> dict:
        return {"faces": list(self.faces), "seed": self.seed}

    def inputs(self) -> list[dict]:
        return [{"name": f"face{i + 1}", "kind": "select", "label": f"face {i + 1}", "value": v,
                 "options": _options(self.FACES)} for i, v in enumerate(self.faces)]

    def _assign(self, name, value):
        i = int(name[4:]) - 1
        self.faces = self.faces[:i] + (value,) + self.faces[i + 1:]

    def compute(self) -> None:
        faces = self.faces
        d = exact.die(faces)
        rng = random.Random(self.seed)
        m, lo, hi = mean_ci([rng.choice(faces) for _ in range(self.ROLLS)])
        turn = pb.exact_turn_distance(pb.Config(faces=faces), from_last=False).mean()
        self.text = (f"Faces {faces}: mean {exact.mean(d)}, variance {exact.variance(d)}. "
                     f"{self.ROLLS:,} rolls average {m:.2f} ({lo:.2f} to {hi:.2f}). "
                     f"A turn that always rerolls (not last) moves {float(turn):.2f} spaces on average.")
        self.chart = specs.distribution(d, x_title="spaces moved by one roll", title="Your die (exact)")


def _reroll_inputs(rerolls) -> list[dict]:
    base = pb.Config()
    return [{"name": f"face{i + 1}", "kind": "select", "label": f"{c} {v}", "value": r,
             "options": _options(pb.REROLL_RULES)}
            for i, (v, c, r) in enumerate(zip(base.faces, base.face_colours, rerolls))]


def _reroll_rule(rerolls) -> tuple:
    """A reroll rule a control was given (None: the game's own), checked by the rules. Text is
    refused as typed, not split into letters ('zz' was shown as "z,z"); -1 was a TypeError."""
    if rerolls is not None and (isinstance(rerolls, (str, bytes)) or not hasattr(rerolls, "__iter__")):
        raise ValueError(f"rerolls={_echo(rerolls)} is not allowed: one of yes/no/if-last for each of the "
                         f"{len(pb.Config().faces)} faces, e.g. {pb.Config().rerolls}")
    rule = tuple(pb.Config().rerolls if rerolls is None else rerolls)
    pb.Config(rerolls=rule)  # the rules check the rule's shape and names
    return rule


@_kind
class RerollRule(Control):
    """A reroll rule per face (yes, no, if-last): what a turn is worth ahead of the pack
    and four spaces behind (lesson 3)."""

    kind = "reroll-rule"
    title = "Reroll rule of each face"

    def __init__(self, rerolls=None, gap: int = 4):
        super().__init__()
        self.rerolls = _reroll_rule(rerolls)
        self.gap = _whole(gap, "gap", 0, self.MAX_GAP)
        self.compute()

    MAX_GAP = 60  # spaces behind: twice the longest track (TrackLength); the exact chase recurses once a space

    def args(self) -> dict:
        return {"rerolls": list(self.rerolls), "gap": self.gap}

    def inputs(self) -> list[dict]:
        return _reroll_inputs(self.rerolls)

    def _assign(self, name, value):
        i = int(name[4:]) - 1
        self.rerolls = self.rerolls[:i] + (value,) + self.rerolls[i + 1:]

    def compute(self) -> None:
        cfg = pb.Config(rerolls=self.rerolls)
        try:
            worth = exact.turn_mean(cfg)
            chasing = exact.chase_turn_mean(cfg, self.gap)
        except ValueError as e:  # e.g. every face rerolls: shown, and the reader picks again
            self.text = f"{e}"
            return
        self.text = (f"Ahead of the pack a turn moves {worth} ≈ {float(worth):.2f} spaces (what a reroll is "
                     f"worth); {self.gap} spaces behind, {float(chasing):.2f}.")


@_kind
class TrackLength(Control):
    """A slider of track lengths: a lone piglet's turns to finish, exactly (lesson 4)."""

    kind = "track-length"
    title = "Track length"
    SPACES = tuple(range(4, 31))

    def __init__(self, spaces: int | None = None):
        super().__init__()
        spaces = pb.Config().spaces if spaces is None else spaces
        if spaces not in self.SPACES or isinstance(spaces, bool):
            raise ValueError(f"spaces={_echo(spaces)} is not allowed: a whole number from 4 to 30")
        self.spaces = spaces
        self.compute()

    def args(self) -> dict:
        return {"spaces": self.spaces}

    def inputs(self) -> list[dict]:
        return [{"name": "spaces", "kind": "range", "label": "spaces", "value": self.spaces,
                 "options": _options(self.SPACES)}]

    def _assign(self, name, value):
        self.spaces = value

    def compute(self) -> None:
        d = exact.time_trial_turns(pb.Config(), self.spaces)
        self.text = f"{self.spaces} spaces: {float(exact.mean(d)):.3f} turns on average, at most {max(d)} turns."
        self.chart = specs.distribution(d, x_title="turns to cross the finish",
                                        title=f"A lone piglet on {self.spaces} spaces (exact)")


def decisiveness_rows(game: str, config, bots: str, games: int, seed: int) -> list[dict]:
    """How often the sole leader after 25%, 50% and 75% of the turns goes on to win: the
    `decisiveness` rows of `simulate.balance_report` for the same game, bots, games and seed
    (bots rotated through the seats), computed game by game with no pandas, so the site's
    browser gives the same numbers (a test holds them equal)."""
    mod = game_module(game)
    refs = _bot_refs(mod, bots, config.players)
    names, funcs = resolve_bots(mod, refs, config.players)
    records = [play_game(mod, config, names, funcs, seed, i, rotate=True) for i in range(games)]
    out = []
    for j, pct in enumerate(CHECKPOINTS):
        wins = [1 / len(g.winners) if g.turn_leaders[j] in g.winners else 0.0
                for g in records if g.turn_leaders[j] is not None]
        lo, hi = wilson(sum(wins), len(wins))
        out.append({"checkpoint": f"{pct}% of turns", "games": len(wins),
                    "leader_win_rate": sum(wins) / len(wins) if wins else float("nan"), "low": lo, "high": hi,
                    "fair": 1 / config.players})
    return out


def _measured_row(row) -> dict:
    """One row of CatchUpRule's measured rules, checked: a short rule name, and `when`,
    `leader_win_rate`, `low`, `high` shares from 0 to 1 (or null where no game reached the point)."""
    if not isinstance(row, dict):
        raise ValueError("a measured row must be an object {rule, when, leader_win_rate, low, high}")
    missing = {"rule", "when", "leader_win_rate", "low", "high"} - set(row)
    if missing:
        raise ValueError(f"a measured row lacks {', '.join(sorted(missing))}")
    if not isinstance(row["rule"], str) or not 0 < len(row["rule"]) <= 80 or not row["rule"].isprintable():
        raise ValueError(f"a measured row's rule {shown_text(row['rule'], 40)} is not allowed: "
                         "printable text of 1 to 80 characters")
    out = {"rule": row["rule"]}
    for key in ("when", "leader_win_rate", "low", "high"):
        v = row[key]
        if isinstance(v, float) and math.isnan(v):  # no game reached that point (decisiveness_rows): no rate
            v = None
        if v is None and key != "when":
            out[key] = None
            continue
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 1:  # NaN fails too
            raise ValueError(f"a measured row's {key}={shown_text(v, 40)} is not allowed: a share from 0 to 1")
        out[key] = v
    return out


@_kind
class CatchUpRule(Control):
    """Reroll rule pickers and "Measure this rule": the rule's decisiveness (300 games)
    drawn beside the lesson's measured rules (lesson 6)."""

    kind = "catch-up-rule"
    title = "Measure a reroll rule"
    GAMES = 300
    MAX_GAMES = 4000  # a press plays them in the browser: seconds, not hours
    MAX_ROWS = 200  # the lesson draws a handful of rules, three points each

    def __init__(self, rerolls=None, measured=(), games: int = GAMES, seed: int = 1, bots: str = "heuristic"):
        super().__init__()
        self.rerolls = _reroll_rule(rerolls)
        if isinstance(measured, (str, bytes, dict)) or not hasattr(measured, "__iter__"):
            raise ValueError("measured must be a list of rows {rule, when, leader_win_rate, low, high}")
        self.measured = [_measured_row(r) for r in list(measured)[:self.MAX_ROWS + 1]]
        if len(self.measured) > self.MAX_ROWS:
            raise ValueError(f"measured holds more than {self.MAX_ROWS} rows: not a lesson's table")
        self.games, self.seed = _whole(games, "games", 1, self.MAX_GAMES), check_seed(seed)
        if bots not in pb.BOTS:
            raise ValueError(f"bots={shown_text(bots, 40)} is not allowed: one of {', '.join(pb.BOTS)}")
        self.bots = bots
        self.picked = None  # the rule last measured
        self.note = f"Measuring plays {self.games} games (a few seconds)."
        self.compute()

    def args(self) -> dict:
        return {"rerolls": list(self.rerolls), "measured": self.measured, "games": self.games, "seed": self.seed,
                "bots": self.bots}

    def inputs(self) -> list[dict]:
        return _reroll_inputs(self.rerolls) + [{"name": "measure", "kind": "button", "label": "Measure this rule"}]

    def _assign(self, name, value):
        i = int(name[4:]) - 1
        self.rerolls = self.rerolls[:i] + (value,) + self.rerolls[i + 1:]

    def compute(self) -> None:
        drawn = [r for r in self.measured if None not in (r["leader_win_rate"], r["low"], r["high"])]  # no games: no point
        self.chart = specs.decisiveness(drawn, "Decisiveness under the reroll rules", self._fair())
        if self.picked is None:
            self.text = "Pick a reroll rule for each face, then press Measure this rule."

    def _fair(self) -> float:
        return 1 / pb.Config().players

    def _press(self, name: str) -> None:
        rule = self.rerolls
        try:
            cfg = pb.Config(rerolls=rule)
            exact.turn_mean(cfg)  # a rule where every face rerolls never ends a turn
        except ValueError as e:
            self.text = f"Not a playable rule: {e}"
            return
        name = "your rule " + ",".join(rule)
        rows = decisiveness_rows(pb.NAME, cfg, self.bots, self.games, self.seed)
        mine = [strict({"rule": name, "when": int(r["checkpoint"].split("%")[0]) / 100,  # no game there: null
                        **{k: r[k] for k in ("leader_win_rate", "low", "high")}}) for r in rows]
        self.measured = [r for r in self.measured if r["rule"] != name] + mine
        self.picked = name
        half = next(r for r in mine if r["when"] == 0.5)
        self.text = (f"{name}: at half-time the leader goes on to win {_pct(half['leader_win_rate'])} "
                     f"({_pct(half['low'])} to {_pct(half['high'])}), {self.games} games, seed {self.seed}.")
        self.compute()


# --- lesson 7: Duck, Duck, Bruce's flips ---------------------------------------------

@_kind
class FlipSimulator(Control):
    """Flip, Stop, New round: one player's turn, with the exact chance that the next flip
    ends it (lesson 7). Steals are skipped (the lesson is about the row)."""

    kind = "flip-simulator"
    title = "Flip or stop"

    def __init__(self, seed: int = 1, actions=()):
        super().__init__()
        self.config = ddb.Config()
        self.start_seed, self.seed = check_seed(seed), check_seed(seed)
        self.state = ddb.new_game(self.config, self.seed)
        self.since = 0  # the first of the events the last press made (the deal's, at first)
        self.actions: list[str] = []
        for a in actions:  # a saved position: the presses replayed (each checked again)
            self._press(a)
        self.compute()

    def args(self) -> dict:
        return {"seed": self.start_seed, "actions": list(self.actions)}

    def _deciding(self) -> bool:
        s = self.state
        return not s.is_over and s.phase == ddb.DECIDE

    def inputs(self) -> list[dict]:
        live = self._deciding()
        return [{"name": "flip", "kind": "button", "label": "Flip", "disabled": not live},
                {"name": "stop", "kind": "button", "label": "Stop", "disabled": not live},
                {"name": "new", "kind": "button", "label": "New round"}]

    def _press(self, name: str) -> None:
        if name not in ("flip", "stop", "new"):
            raise ValueError(f"unknown button {_echo(name)}: flip, stop or new")
        self.actions.append(name)
        if name == "new" or not self._deciding():  # the round is over (or a steal to decide): deal again
            self.seed += 1
            self.state = ddb.new_game(self.config, self.seed)
            self.since = 0
        else:
            self.since = len(self.state.events)
            self.state = ddb.apply(self.state, ddb.FLIP if name == "flip" else ddb.STOP)
            while not self.state.is_over and self.state.phase == ddb.STEAL:  # no steals here
                legal = ddb.legal_actions(self.state)
                self.state = ddb.apply(self.state, ddb.NO_STEAL if ddb.NO_STEAL in legal else legal[0])
        self.compute()

    def compute(self) -> None:
        s = self.state
        # every event the press made, not only the last: a Flip that busts is followed by the next
        # player's automatic first flip, and the bust itself (what the lesson is about) was hidden
        happened = s.events[self.since:] or s.events[-1:]
        rows = [["Row", ", ".join(str(c) for c in s.row) or "(empty)"], ["Face down", f"{len(s.pile)} cards"]]
        rows += [["What happened" if i == 0 else "then", e] for i, e in enumerate(happened)]
        if s.phase == ddb.DECIDE and s.pile and not s.is_over:
            p = ddb.bust_probability(s.row, s.pile)
            rows.append(["Next flip ends the turn with chance", f"{p} ≈ {float(p):.1%}"])
        self.table = {"columns": None, "rows": rows}
        self.text = f"Deal {self.seed}" + (" · the round is over: New round deals again" if s.is_over else "")


# --- lesson 9: the steal die -----------------------------------------------------------

@_kind
class StealDie(Control):
    """Six face drop-downs (-1 to 4) and what a −1 does (steal-back or discard): each claim's
    chance, expected net cards, their variance and the expected lead change (lesson 9)."""

    kind = "steal-die"
    title = "The steal die"
    FACES = (-1, 0, 1, 2, 3, 4)

    def __init__(self, die=None, minus_one: str | None = None):
        super().__init__()
        base = ddb.Config()
        self.die = tuple(base.die if die is None else die)
        self.minus_one = base.minus_one if minus_one is None else minus_one
        if len(self.die) != 6 or any(f not in self.FACES or isinstance(f, bool) for f in self.die):
            raise ValueError(f"die={_echo(self.die)} is not allowed: six faces, each from -1 to 4")
        self._modes = ("steal-back", "discard")
        if self.minus_one not in self._modes:
            raise ValueError(f"minus_one={_echo(self.minus_one)} is not allowed: steal-back or discard")
        self.compute()

    def args(self) -> dict:
        return {"die": list(self.die), "minus_one": self.minus_one}

    def inputs(self) -> list[dict]:
        faces = [{"name": f"face{i + 1}", "kind": "select", "label": f"face {i + 1}", "value": f,
                  "options": _options(self.FACES)} for i, f in enumerate(self.die)]
        return faces + [{"name": "minus_one", "kind": "toggle", "label": "a −1:", "value": self.minus_one,
                         "options": _options(self._modes)}]

    def _assign(self, name, value):
        if name == "minus_one":
            self.minus_one = value
        else:
            i = int(name[4:]) - 1
            self.die = self.die[:i] + (value,) + self.die[i + 1:]

    def compute(self) -> None:
        die = self.die
        try:
            rules = ddb.Config(die=die, minus_one=self.minus_one, max_steal=min(3, max(die)))
        except ValueError as e:
            self.text, self.table = f"Not a die this game allows: {e}", None
            return
        rows = []
        for c in range(rules.min_steal, rules.max_steal + 1):
            swing = exact.steal_swing(c, rules)
            # the thief's net cards (DDB-7, DDB-8): a win moves c cards (a lead change of 2c),
            # a backfire costs the thief one card (whether the victim gains it or it is discarded)
            net: dict[int, Fraction] = {}
            for change, p in swing.items():
                k = change // 2 if change >= 0 else -1
                net[k] = net.get(k, 0) + p
            rows.append([c, str(Fraction(sum(f >= c for f in die), len(die))), str(ddb.steal_expectation(c, rules)),
                         str(exact.variance(net)), str(exact.mean(swing))])
        self.table = {"columns": ["claim", "P(claim wins)", "expected net cards", "variance of your cards",
                                  "expected lead change"], "rows": rows}
        self.text = f"Die {die}, a −1: {self.minus_one}."


# --- lesson 10: dealt hands ------------------------------------------------------------

@_kind
class HandDeal(Control):
    """Game toggle, hand-size and deals sliders: red cards in Player 1's dealt hand, exact
    bars against sampled deals with 95% intervals (lesson 10)."""

    kind = "hand-deal"
    title = "Red cards in a dealt hand"
    GAMES = {"Bucket Brigade": "bucket-brigade", "Bucket King": "bucket-king"}
    SIZES = tuple(range(3, 17))
    DEALS = tuple(range(100, 4001, 100))

    def __init__(self, game: str = "Bucket Brigade", size: int | None = None, deals: int = 1000, seed: int = 0,
                 colour: str = "red"):
        super().__init__()
        if isinstance(game, str):  # 'bucket-brigade', as every other call names the game, was refused
            game = {name: title for title, name in self.GAMES.items()}.get(game, game)
        if not isinstance(game, str) or game not in self.GAMES:
            raise ValueError(f"game={_echo(game)} is not allowed: "
                             + " or ".join(f"{title!r} ({name!r})" for title, name in self.GAMES.items()))
        self.game, self.seed, self.colour = game, check_seed(seed), colour
        self.size = self._config(game, None).hand_size if size is None else size
        if self.size not in self.SIZES or isinstance(self.size, bool):
            raise ValueError(f"size={_echo(self.size)} is not allowed: a whole number from 3 to 16")
        if deals not in self.DEALS or isinstance(deals, bool):
            raise ValueError(f"deals={_echo(deals)} is not allowed: 100 to 4000 in steps of 100")
        self.deals = deals
        self.compute()

    def _mod(self, game):
        return game_module(self.GAMES[game])

    def _config(self, game, size):
        """The game's four-player config dealing `size` cards (None: its own hand size)."""
        mod = self._mod(game)
        config = mod.Config()
        if size is None:
            return config
        d = config.to_dict()
        if "hand_sizes" in d:  # Bucket Brigade's hand size depends on the player count
            sizes = list(config.hand_sizes)
            sizes[config.players - 3] = size
            d["hand_sizes"] = sizes
        else:
            d["hand_size"] = size
        return mod.Config.from_dict(d)

    def args(self) -> dict:
        return {"game": self.game, "size": self.size, "deals": self.deals, "seed": self.seed, "colour": self.colour}

    def inputs(self) -> list[dict]:
        return [{"name": "game", "kind": "toggle", "label": "game", "value": self.game,
                 "options": _options(self.GAMES)},
                {"name": "size", "kind": "range", "label": "hand size", "value": self.size,
                 "options": _options(self.SIZES)},
                {"name": "deals", "kind": "range", "label": "deals", "value": self.deals,
                 "options": _options(self.DEALS)}]

    def _assign(self, name, value):
        setattr(self, name, value)

    def compute(self) -> None:
        mod = self._mod(self.game)
        try:
            config = self._config(self.game, self.size)
        except ValueError as e:
            self.text, self.chart = f"Not allowed: {e}", None
            return
        exact_dist = exact.colour_in_hand(config, self.colour)
        # the engine deals (BB-2, BK-2); Player 1 looks at their own cards (observation)
        seen = Counter(sum(c.colour == self.colour for c in mod.observation(mod.new_game(config, self.seed + i), 0).hand)
                       for i in range(self.deals))
        rows = []
        for k in sorted(set(exact_dist) | set(seen)):
            low, high = wilson(seen[k], self.deals)
            rows.append({f"{self.colour} cards": k, "exact": float(exact_dist.get(k, 0)),
                         "fraction": str(exact_dist.get(k, 0)), "sampled": seen[k] / self.deals,
                         "low": low, "high": high})
        title = f"{mod.TITLE}, hands of {self.size}, {self.deals} deals"
        self.chart = specs.dealt_vs_exact(rows, title, f"{self.colour} cards")
        self.rows = rows
        top = max(rows, key=lambda r: r["exact"])
        self.text = (f"{title}: most likely {top[f'{self.colour} cards']} {self.colour} cards, exactly "
                     f"{top['fraction']} ≈ {top['exact']:.1%}; sampled {top['sampled']:.1%} "
                     f"({top['low']:.1%} to {top['high']:.1%}).")


# --- lesson 12: the knock's chance ------------------------------------------------------

def _pyramid(rows, most: int) -> tuple:
    """A pyramid's rows, bottom first, each one bucket shorter than the row below, the bottom
    1 to `most` buckets; else a one-line ValueError stating that."""
    allowed = (f"rows={{}} is not allowed: a pyramid's rows, bottom first, each one bucket shorter than the row "
               f"below, the bottom row 1 to {most} buckets")
    if isinstance(rows, (str, bytes, dict)) or not hasattr(rows, "__iter__"):
        raise ValueError(allowed.format(shown_text(rows, 40)))
    rows = tuple(list(rows)[:most + 1])
    if (not rows or len(rows) > most or not all(type(r) is int for r in rows) or not 1 <= rows[0] <= most
            or any(b != a - 1 for a, b in zip(rows, rows[1:]))):
        raise ValueError(allowed.format(shown_text(list(rows), 40)))
    return rows


@_kind
class KnockChance(Control):
    """A slider of the fall chance p (0 to 1 in twentieths): buckets lost by one knock,
    exactly (lesson 12)."""

    kind = "knock-chance"
    title = "Knock with fall chance p"
    STEPS = 20
    MAX_ROWS = 8  # the exact fall grows exponentially with the rows: 8 take 0.03 s, 12 took 10 s

    def __init__(self, p: str = "1/2", rows=None, position=None):
        super().__init__()
        self.rows = _pyramid(bk.Config().rows if rows is None else rows, self.MAX_ROWS)
        self.position = tuple((0, self.rows[0] // 2) if position is None else position)  # the bottom-middle bucket
        if (len(self.position) != 2 or not all(type(x) is int for x in self.position)
                or not 0 <= self.position[0] < len(self.rows) or not 0 <= self.position[1] < self.rows[self.position[0]]):
            raise ValueError(f"position={shown_text(position, 40)} is not allowed: [row, bucket] inside the pyramid, "
                             "counted from 0 at the bottom left")
        self.options = [str(Fraction(k, self.STEPS)) for k in range(self.STEPS + 1)]
        if p not in self.options:
            raise ValueError(f"p={shown_text(p, 40)} is not allowed: one of {', '.join(self.options)}")
        self.p = p
        self.compute()

    def args(self) -> dict:
        return {"p": self.p, "rows": list(self.rows), "position": list(self.position)}

    def inputs(self) -> list[dict]:
        return [{"name": "p", "kind": "range", "label": "p", "value": self.p, "options": _options(self.options)}]

    def _assign(self, name, value):
        self.p = value

    def compute(self) -> None:
        dist = bk.fall_distribution(self.rows, (), self.position, Fraction(self.p))
        self.dist = dist
        self.text = f"p = {self.p}: a knock loses {float(exact.mean(dist)):.2f} buckets on average."
        self.chart = specs.distribution(
            dist, x_title="buckets lost (before a split)",
            title=f"Bottom-middle knock, p = {self.p}: mean {float(exact.mean(dist)):.2f}")


__all__ = ["KINDS", "CatchUpRule", "Control", "DieEditor", "FlipSimulator", "HandDeal", "KnockChance",
           "RerollRule", "StealDie", "TallyCount", "TrackLength", "decisiveness_rows"]
