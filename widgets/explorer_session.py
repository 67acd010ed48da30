"""The Explorer's logic with no Jupyter in it: which values are played, pending and ready, what to draw.

`ExplorerSession` holds one Explorer: a game, one rule number (or two) with the
values the slider offers, the bots, games per value and the seed. It checks
every argument, builds each value's Config one way (`Config.with_values`, so a
field, a path such as `hand_sizes[1]` and an alias such as `hand_size` all work
the same in the kernel and in the browser), plays a value's games when asked,
summarises them (`cell_rows`: the columns and digits of `sweep`, without
pandas), and gives the front end (`static/explorer.js`) its `view()`: the
sliders, the status, the numbers, a rule-usage warning, and the charts as plain
Vega-Lite specs from `specs.py`.

Who plays the games is a runner: `LocalRunner` plays them here, one value after
another (the course site's Pyodide worker, a script); the kernel's Explorer
passes a runner that also plays the neighbouring values in worker processes
(`explorer.PoolRunner`), and the session asks it which values are still
playing (`busy`) and which are done but not yet collected (`ready`).

Only the standard library and `meeple.rules` are imported, so the session runs
in the browser, where altair, pandas and numpy do not exist.
"""

from __future__ import annotations

import csv
import io
import itertools
import math
import re
from types import SimpleNamespace

from meeple.rules.chance import check_seed
from meeple.rules.config import describe_kind as _describe
from meeple.rules.files import shown_path, shown_text
from meeple.rules.core import game_module, resolve_bots, split_bots
from meeple.rules.sim import measure_columns, measures, play_game
from meeple.rules.sim.runner import bot_refs as _bot_refs
from meeple.rules.comparison import games_print, paired_difference, same_games, same_line
from meeple.rules.sim.design import wanted as _design_wanted
from meeple.rules.workbench import changed_numbers, rule_usage, usage_lines

from . import specs
from .explorer_rows import cell_rows, is_number, is_present, nearest as _nearest, number_text

MAX_GAMES = 20_000
MIN_GAMES = 10
COMMANDS = ("move", "games", "measure", "seat", "play", "run-all", "csv")


def label(value) -> str:
    """A slider stop as the reader reads it (None: "none", switches: true/false)."""
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def candidate_values(mod, config, field: str) -> list:
    """Values near the current one that make a valid config (for the slider)."""
    kind = config.kind(field)
    current = config.get(field)
    if kind is bool:
        return [False, True]
    if current is None:  # an optional number left at "none" (e.g. rounds = as many as players)
        raw = [None] + list(range(1, 11))
    else:
        step = 1 if kind is int else max(abs(current) / 5, 0.05)
        raw = [current + step * k for k in range(-5, 6)]
        if kind is float:
            raw = [round(v, 4) for v in raw]
    ok = []
    for v in raw:
        try:
            config.with_values({field: v})
        except ValueError:
            continue
        ok.append(v)
    return ok


def games_from_text(text: str) -> int:
    """The games per value a reader typed in the Explorer's field (the text as typed): a whole
    number from MIN_GAMES to MAX_GAMES, or a ValueError naming what is wrong with the text."""
    allowed = f"a whole number from {MIN_GAMES} to {MAX_GAMES}"
    typed = text.strip()
    if not typed:
        raise ValueError(f"games is empty: type {allowed}")
    if not re.fullmatch(r"[+-]?[0-9]+", typed):
        raise ValueError(f"games={_echo(text)} is not a whole number: type {allowed}")
    if len(typed.lstrip("+-0")) > len(str(MAX_GAMES)):  # far too many (and int() of 5,000 digits fails)
        raise ValueError(f"games={_echo(text)} is not allowed: {allowed}")
    return check_games(int(typed))


def check_games(games) -> int:
    if isinstance(games, bool) or not isinstance(games, int) or not MIN_GAMES <= games <= MAX_GAMES:
        raise ValueError(f"games={_echo(games)} is not allowed: a whole number from {MIN_GAMES} to {MAX_GAMES}")
    return games


# --- who plays the games -------------------------------------------------------------

class LocalRunner:
    """Plays each value's games here, one after another (the browser's worker, a script).
    Nothing runs in the background: busy() and ready() are always empty."""

    def play(self, session: "ExplorerSession", cells: list[tuple]) -> dict[tuple, list]:
        out = {}
        for cell in cells:
            config, refs = session.config_at(cell)
            names, funcs = resolve_bots(session.mod, refs, config.players)
            out[cell] = [play_game(session.mod, config, names, funcs, session.seed, i, False, session.design)
                         for i in range(session.games)]
        return out

    def queue(self, session, cells) -> None:
        pass

    def busy(self) -> list[tuple]:
        return []

    def ready(self) -> list[tuple]:
        return []

    def cancel(self, keep=()) -> None:
        pass

    def reset(self) -> None:
        pass

    def close(self) -> None:
        pass


MAX_ERROR = 1000  # characters of an error the view shows (its own text and what it echoes, cut)


def _echo(value) -> str:
    """User text or a value from a saved setup as an error echoes it: its repr, control characters and
    terminal escapes written out, cut in the middle past 60 characters (a 1 MB name was echoed whole)."""
    return shown_text(repr(value) if isinstance(value, str) else value, 60)


def _one_line(error: BaseException) -> str:
    """An error's text, printable and at most MAX_ERROR characters: a rule's own message may echo a value."""
    return shown_path(" ".join(str(error).split()), MAX_ERROR)


# --- the session -----------------------------------------------------------------------

class ExplorerSession:
    """One rule number on a slider (or two, as a map): its values' games and what they show.

    game, field: which game and which number: a field, `field[i]` or an alias
    (`config.parameters(numbers_only=True)` lists them), or a pair of them for a
    heat map. values: the slider's values (a pair of lists, or {field: values},
    for two fields; default: valid values near the current one). config: the
    rules to start from (a Config or a variant file's path): the baseline drawn
    behind the current value. bots: one per seat, one for all, or "A,B" (A in
    seat 1 against B). games: games per value; seed: same seed, same numbers.
    measure: what the second chart (the map, for two fields) shows.
    runner: who plays (default LocalRunner: here). Nothing is played until asked
    (`play_current`, `move`, `show_all` or a message): construction never waits.
    """

    def __init__(self, game="bucket-brigade", field="bonus", values=None, config=None, bots="heuristic,random",
                 games: int = 300, seed: int = 0, measure: str | None = None, runner=None):
        try:
            self._setup(game, field, values, config, bots, games, seed, measure, runner)
        except ValueError as e:  # one printable line, cut: a saved setup may hold a megabyte of a name
            raise ValueError(_one_line(e)) from None

    def _setup(self, game, field, values, config, bots, games, seed, measure, runner) -> None:
        self.mod = mod = game_module(game)
        if isinstance(config, str) or hasattr(config, "__fspath__"):
            config = mod.Config.load(config)
        self.config = mod.Config() if config is None else config
        self._configs: dict[tuple, tuple] = {}  # cell -> config_at(cell), made once
        if not isinstance(self.config, mod.Config):
            raise ValueError(f"config must be a {mod.NAME} Config (or a variant file), got {type(self.config).__name__}")
        self.fields = self._check_fields(field)
        self.bots = self._lineup(bots)
        if "players" in self.fields and len(set(self.bots)) > 1:
            raise ValueError("bots: when players varies, name one bot for every seat (e.g. bots='heuristic')")
        self.stops = self._axes(values)
        self.games = check_games(games)
        self.seed = check_seed(seed)
        self.baseline = tuple(self.config.get(f) for f in self.fields)
        # a measure named like a slider's field (`rounds`) is that field in the table
        self.measures = {k: v for k, v in measures(mod, self.config).items() if k not in self.fields}
        measure = self._measure_key(measure or ("score" if len(self.fields) == 1 else "win_rate"))
        self.measure = measure
        self.design = _design_wanted([measure])  # a design measure: every game keeps its trail (only then)
        self.seat = 0
        self.runner = runner if runner is not None else LocalRunner()
        self.points: dict[tuple, list[dict]] = {}  # cell -> its rows (point 0; see rows())
        self.usage: dict[tuple, dict] = {}  # cell -> rule usage of its games
        self.prints: dict[tuple, str] = {}  # cell -> games_print of its games (identical play is said)
        self.per_game: dict[tuple, dict] = {}  # cell -> {(measure, seat): {game: value}}, made when first paired
        self.pairs: dict[tuple, tuple] = {}  # (cell, measure, seat) -> paired(cell, seat), made once (the chart asks often)
        self.records: dict[tuple, list] = {}  # cell -> its games (the paired column reads them)
        self.saved: dict[tuple, dict] = {}  # cell -> what a saved page carried: its paired column, its print
        self.version = 0  # counts changes to `points`: charts built from the same version only move their ring
        self.error = ""
        self.came_from = None  # the cell shown before (which way the reader moves)
        self.cell = tuple(b if b in s else s[0] for b, s in zip(self.baseline, self.stops))
        # what every value is paired with: the current rules' value, or where the sliders do not
        # offer it, the nearest value they do (a reference nobody can play would leave the paired
        # column and chart empty)
        self.reference = tuple(b if b in s else _nearest(b, s) for b, s in zip(self.baseline, self.stops))
        self._specs: dict = {}
        self._sames: dict = {}  # (cell, reference) -> (their games, the reference's, whether they are the same games)

    # --- checks ------------------------------------------------------------------

    def _check_fields(self, field) -> tuple:
        fields = (field,) if isinstance(field, str) else tuple(field) if isinstance(field, (tuple, list)) else (field,)
        allowed = self.config.parameters(numbers_only=True)
        if not 1 <= len(fields) <= 2 or len(set(fields)) != len(fields):
            raise ValueError(f"field={_echo(field)} is not allowed: one number, or a pair of two different numbers")
        for f in fields:
            if f in allowed:
                continue
            if isinstance(f, str) and f.strip():
                try:  # a path out of range or an unknown name: the config's own message says exactly what
                    kind = self.config.kind(f)
                except (ValueError, TypeError) as e:
                    raise ValueError(f"field={_echo(f)} is not allowed: {e}") from None
                if f.strip() in allowed:
                    raise ValueError(f"field={_echo(f)} is not allowed: write it without spaces, {_echo(f.strip())}")
                hint = (f"put one of its elements on the slider, e.g. {f.strip()}[0]" if f"{f.strip()}[0]" in allowed
                        else "a slider moves numbers and switches only")
                raise ValueError(f"field={_echo(f)} is not allowed: it holds {_describe(kind)}, not one number; {hint}")
            raise ValueError(f"field={_echo(f)} is not allowed: one of {', '.join(allowed)} (numbers and switches)")
        if len(fields) == 2:  # hand_size and hand_sizes[1] are one number: a map of it against itself would lie
            self.config.with_values({f: self.config.get(f) for f in fields})
        return fields

    def _lineup(self, bots) -> list[str]:
        if not isinstance(bots, (str, list, tuple)) or not all(isinstance(b, str) for b in bots):
            raise ValueError(f"bots={_echo(bots)} is not allowed: bot names, e.g. 'heuristic,random' or ['heuristic', 'random']")
        names = split_bots(self.mod, bots) if isinstance(bots, str) else list(bots)
        n = self.config.players
        if len(names) == 2 and n > 2:  # "heuristic,random": the first seat against the rest
            names = [names[0]] + [names[1]] * (n - 1)
        if len(names) == 1:
            names = names * n
        if len(names) != n:
            raise ValueError(f"need {n} bots (one per player), got {len(names)}")
        unknown = [b for b in names if b not in self.mod.BOTS]
        if unknown:
            raise ValueError(f"unknown bot {_echo(unknown[0])} for {self.mod.NAME}; known bots: {', '.join(self.mod.BOTS)}")
        return names

    def _axes(self, values) -> list[list]:
        """The slider stops for each field, each a valid config, held as its typed value ("3" -> 3)."""
        n = len(self.fields)
        if values is None:
            axes = [candidate_values(self.mod, self.config, f) for f in self.fields]
        elif n == 1:
            if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
                raise ValueError(f"values={_echo(values)} is not allowed: a list of values for {self.fields[0]}, e.g. [0, 3, 6]")
            axes = [list(values)]
        elif isinstance(values, dict):
            axes = [list(values.get(f, candidate_values(self.mod, self.config, f))) for f in self.fields]
        elif isinstance(values, (tuple, list)) and len(values) == 2 and all(isinstance(v, (tuple, list, range)) for v in values):
            axes = [list(v) for v in values]
        else:
            raise ValueError(f"values for two fields: a pair of lists or a dict {{field: values}}, got {_echo(values)}")
        typed_axes = []
        for f, vs in zip(self.fields, axes):
            if not vs:
                raise ValueError(f"values for {f} must be a non-empty list")
            typed = []
            for v in vs:
                try:
                    v = self.config.value_for(f, v.item() if hasattr(v, "item") else v)  # numpy scalars too
                    self.config.with_values({f: v})
                except (ValueError, TypeError) as e:
                    raise ValueError(f"value {_echo(v)} for {f} is not allowed: {e}") from None
                if v in typed:
                    raise ValueError(f"values for {f} name {label(v)} twice; give each value once")
                typed.append(v)
            typed_axes.append(typed)
        return typed_axes

    def check_cell(self, value) -> tuple:
        """`value` (a pair for two fields) as a cell on the slider(s), or a ValueError saying what is allowed."""
        cell = (value,) if len(self.fields) == 1 else tuple(value) if isinstance(value, (tuple, list)) else None
        if cell is None or len(cell) != len(self.fields):
            raise ValueError(f"show takes a pair of values, one for {self.fields[0]} and one for {self.fields[1]}")
        out = []
        for f, offered, v in zip(self.fields, self.stops, cell):
            # 1 is not True: a switch's stop is a switch, a number's a number
            same = [o for o in offered if (o is None and v is None) or
                    (o is not None and v is not None and o == v and isinstance(o, bool) == isinstance(v, bool))]
            if not same:
                raise ValueError(f"{f}={_echo(v)} is not on the slider; allowed: {', '.join(map(label, offered))}")
            out.append(same[0])
        return tuple(out)

    # --- rebuilding a session elsewhere (the course site's browser) ----------------

    def setup(self, played: bool = False) -> dict:
        """What rebuilds this Explorer (JSON): the same game, number(s), values, bots, games and seed.
        played: with the numbers of every value played so far (the course site's saved Explorer
        starts from what the page showed before Python started)."""
        out = {"game": self.mod.NAME, "config": self.config.to_dict(), "fields": list(self.fields),
               "values": [list(s) for s in self.stops], "bots": list(self.bots), "games": self.games,
               "seed": self.seed, "measure": self.measure, "cell": list(self.cell)}
        if played:
            # JSON has no NaN or infinity (an interval of one game): null, as the charts' data; the rows
            # as columns and values (a page carries them: the names once, not once a row)
            # the columns once for every value (a value whose columns differ carries its own): 1 kB a
            # value, and a page has 1.5 MB cold
            out["played"], out["columns"] = [], None
            for c in self.played:
                rows = self.rows(c)
                columns = list(rows[0]) if rows else []
                out["columns"] = columns if out["columns"] is None else out["columns"]
                table = {"values": [[specs.clean_value(v) for v in r.values()] for r in rows]}
                if columns != out["columns"]:
                    table["columns"] = columns
                # what the games themselves would give and the page does not carry: identical play, and the
                # paired difference from the reference for the measure shown (issue 36)
                paired = [self.paired(c, seat) for seat in range(len(self.bots))]
                out["played"].append([list(c), table,
                                      self.usage.get(c, {}),
                                      {"print": self._print(c), "measure": self.measure,
                                       "paired": [None if d is None else [specs.clean_value(x) for x in d]
                                                  for d in paired]}])
        return out

    @classmethod
    def from_setup(cls, setup: dict, runner=None) -> "ExplorerSession":
        """The Explorer `setup()` describes, at the value it was at (nothing played yet)."""
        if not isinstance(setup, dict):
            raise ValueError("an Explorer setup must be an object")
        missing = [k for k in ("game", "config", "fields", "values", "bots", "games", "seed") if k not in setup]
        if missing:
            raise ValueError(f"the Explorer setup lacks {', '.join(missing)}")
        mod = game_module(setup["game"])
        fields = list(setup["fields"])
        values = setup["values"]
        s = cls(mod, fields[0] if len(fields) == 1 else tuple(fields), values[0] if len(fields) == 1 else values,
                mod.Config.from_dict(setup["config"]), list(setup["bots"]), setup["games"], setup["seed"],
                setup.get("measure"), runner)
        if setup.get("cell") is not None:
            s.cell = s.check_cell(setup["cell"][0] if len(fields) == 1 else setup["cell"])
        for cell, rows, usage, *kept in setup.get("played") or ():
            cell = s.check_cell(cell[0] if len(fields) == 1 else cell)
            if kept and isinstance(kept[0], dict):
                if kept[0].get("print"):
                    s.prints[cell] = kept[0]["print"]
                s.saved[cell] = kept[0]
            if isinstance(rows, dict):  # values (and the columns once), as setup(played=True) writes them
                rows = [dict(zip(rows.get("columns", setup.get("columns") or []), v)) for v in rows["values"]]
            s.points[cell] = [{**r, "point": 0} for r in rows]  # rows() numbers them again
            s.usage[cell] = dict(usage)
            s.version += 1
        return s

    # --- what is played --------------------------------------------------------------

    def cells(self) -> list[tuple]:
        """Every cell (a tuple of one value per field), in slider order: a cell's `point` is its index here."""
        return list(itertools.product(*self.stops))

    def config_at(self, cell) -> tuple:
        """(Config, bot refs) of a cell: the one way a value becomes rules, kernel and browser alike.
        Made once a cell (with_values checks every field, about 1 ms; the paired column and chart ask
        for every cell's player count each time they are drawn)."""
        cell = tuple(cell)
        made = self._configs.get(cell)
        if made is None:
            config = self.config.with_values(dict(zip(self.fields, cell)))
            # one name for every seat lets the lineup follow a varying player count (as sweep)
            bots = self.bots[0] if len(set(self.bots)) == 1 else self.bots
            made = self._configs[cell] = (config, _bot_refs(self.mod, bots, config.players))
        return made

    @property
    def current(self):
        """The value under the slider (a pair of values for two fields)."""
        return self.cell[0] if len(self.cell) == 1 else self.cell

    @property
    def played(self) -> list[tuple]:
        """The cells whose games are in the table, in slider order."""
        return [c for c in self.cells() if c in self.points]

    def busy(self) -> list[tuple]:
        """The cells playing in the background (the runner's), in the order queued."""
        return [c for c in self.runner.busy() if c not in self.points]

    def ready(self) -> list[tuple]:
        """The cells played in the background and not collected yet."""
        return [c for c in self.runner.ready() if c not in self.points]

    @property
    def pending(self) -> list[tuple]:
        """The cells queued in the background and not in the table yet (playing or ready)."""
        return [c for c in dict.fromkeys(self.runner.busy() + self.runner.ready()) if c not in self.points]

    def add(self, cell: tuple, records) -> None:
        """Put a cell's games into the table (its rows and its rule usage)."""
        config, _refs = self.config_at(cell)
        self.points[cell] = cell_rows(dict(zip(self.fields, cell)), config.players, records)
        self.usage[cell] = rule_usage(self.mod, SimpleNamespace(config=config, records=records))
        self.prints.pop(cell, None)  # made when first asked (_print): a cold move pays only for what it shows
        self.records[cell] = records
        self.per_game.pop(cell, None)
        self.pairs = {} if cell == self.reference else {k: v for k, v in self.pairs.items() if k[0] != cell}
        self.version += 1

    def play(self, cells, wanted: bool = True) -> None:
        """Play the cells not played yet (the runner decides where) and put them into the table.
        wanted: the reader asked for them, so background games that do not play them are cancelled."""
        todo = [c for c in dict.fromkeys(cells) if c not in self.points]
        if not todo:
            return
        if wanted:
            self.runner.cancel(keep=todo)
        for cell, records in self.runner.play(self, todo).items():
            self.add(cell, records)

    def _with_reference(self, cell) -> list[tuple]:
        """`cell`, and the reference it is paired with (the current rules' value) when that is on the
        sliders and not played yet: every value's numbers are paired, whichever is played first."""
        ref = self.reference
        return [cell] + ([ref] if ref != cell and ref not in self.points else [])

    def play_current(self) -> None:
        self.play(self._with_reference(self.cell))

    def move(self, value) -> None:
        """Move the slider(s) to `value` and play it (and the reference) unless played already."""
        cell = self.check_cell(value)
        self.play(self._with_reference(cell))
        self.came_from, self.cell = self.cell, cell

    def show_all(self) -> None:
        """Play every value on the slider (every cell of the map)."""
        self.play(self.cells())

    def collect(self) -> bool:
        """Put the background's finished cells into the table; True if any came."""
        ready = self.ready()
        if ready:
            self.play(ready, wanted=False)
        return bool(ready)

    def set_games(self, games) -> None:
        """Another number of games per value: every value is played again with it (refused: nothing changes)."""
        games = check_games(games)
        if games == self.games:
            return
        self.games = games
        self._forget()

    def _forget(self) -> None:
        """Drop every played value (another count of games, or design measures now wanted)."""
        for kept in (self.points, self.usage, self.prints, self.per_game, self.records, self.saved, self.pairs):
            kept.clear()
        self.version += 1
        self.runner.reset()  # the other games: none of them is wanted now

    def _measure_key(self, measure) -> str:
        """The key of `self.measures` (a sweep table's column: mean_cards_stolen) for a measure named as
        `meeple rules GAME --measures` lists it (cards_stolen: the one name, issue 36) or by that key."""
        if isinstance(measure, str) and measure.strip() in self.measures:
            return measure.strip()
        if isinstance(measure, str) and f"mean_{measure.strip()}" in self.measures:
            return f"mean_{measure.strip()}"
        raise ValueError(f"measure={_echo(measure)} is not allowed: one of "
                         f"{', '.join(k.removeprefix('mean_') for k in self.measures)}")

    def set_measure(self, measure) -> None:
        measure = self._measure_key(measure)
        self.measure = measure
        if _design_wanted([measure]) and not self.design:  # the values played so far kept no trail: again
            self.design = True
            self._forget()

    def set_seat(self, seat) -> None:
        n = len(self.bots)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat={_echo(seat)} is not allowed: a seat from 0 to {n - 1} (Player 1 to Player {n})")
        self.seat = seat

    def neighbours(self, cell: tuple | None = None, came_from=None) -> list[tuple]:
        """The cells one stop away along each slider: the way the reader last moved first."""
        cell = self.cell if cell is None else cell
        axes = list(range(len(cell)))
        moved = [a for a in axes if came_from is not None and came_from[a] != cell[a]]
        out = []
        for a in moved + [a for a in axes if a not in moved]:
            stops = self.stops[a]
            i = stops.index(cell[a])
            back = a in moved and came_from[a] in stops and stops.index(came_from[a]) > i
            for j in ((i - 1, i + 1) if back else (i + 1, i - 1)):
                if 0 <= j < len(stops):
                    out.append(cell[:a] + (stops[j],) + cell[a + 1:])
        return out

    def close(self) -> None:
        self.runner.close()

    # --- the table ------------------------------------------------------------------------

    def rows(self, cell=None) -> list[dict]:
        """The rows of a cell (default: every played cell), each with its `point` (index in cells())."""
        order = {c: i for i, c in enumerate(self.cells())}
        chosen = self.played if cell is None else [cell]
        return [{**r, "point": order[c]} for c in chosen for r in self.points[c]]

    def csv(self) -> str:
        """Every played value's numbers as CSV (what "Numbers as CSV" shows)."""
        rows = self.rows()
        if not rows:
            return ""
        out = io.StringIO()
        w = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        return out.getvalue()

    def cell_text(self, cell=None) -> str:
        cell = self.cell if cell is None else cell
        return ", ".join(f"{f} = {label(v)}" for f, v in zip(self.fields, cell))

    def warnings(self, cell=None) -> list[str]:
        """compare's one-line warning, for this cell: a changed number its games used in under 1% of them."""
        cell = self.cell if cell is None else cell
        if cell not in self.usage or cell == self.baseline:
            return []
        config, _refs = self.config_at(cell)
        usage = self.usage[cell]
        name = self.cell_text(cell)
        attrs = {"usage": {name: usage}, "changed": {name: changed_numbers(self.config, config, usage)},
                 "completed": {name: self.games}, "usage_words": dict(getattr(self.mod, "USAGE", {})),
                 "always_applies": dict(getattr(self.mod, "ALWAYS_APPLIES", {}))}
        lines = usage_lines(SimpleNamespace(attrs=attrs))
        same = [same_line(name, self.cell_text(self.reference))] if cell != self.reference \
            and self._same_play(cell, self.reference) else []
        return same + [line.removeprefix("Warning: ") for line in lines if line.startswith("Warning: ")]

    def _same_play(self, cell, ref) -> bool:
        """Whether `cell` played the games `ref` did (their games_print equal): with both cells' games
        here, game by game (same_games), not hashing all of a value that differs in its first."""
        a, b = self.records.get(cell), self.records.get(ref)
        if a is not None and b is not None:  # (add() drops a saved print when the cell's games come)
            known = self._sames.get((cell, ref))  # made once for these games:
            if known is None or known[0] is not a or known[1] is not b:
                known = self._sames[(cell, ref)] = (a, b, same_games(a, b))
            return known[2]
        return (ref_print := self._print(ref)) is not None and self._print(cell) == ref_print

    def _print(self, cell) -> str | None:
        """games_print of a cell's games (None: not played), made once."""
        if cell not in self.prints and cell in self.records:
            self.prints[cell] = games_print(self.records[cell])
        return self.prints.get(cell)

    def _game_values(self, cell, seat: int) -> dict:
        """{game: the measure in that game} at `cell` for `seat` (per-game measures: the game's value)."""
        key = (self.measure, seat)
        got = self.per_game.setdefault(cell, {})
        if key not in got:
            m, out = self.measure, {}
            for g in self.records[cell]:
                if m == "win_rate":
                    v = (1.0 / len(g.winners)) if seat in g.winners else 0.0
                elif m == "score":
                    v = g.scores[seat]
                elif m in ("turns", "rounds", "lead_changes"):
                    v = getattr(g, m)
                elif m == "duration_spread":
                    v = None  # a figure of the run: no game-by-game value to pair
                else:
                    col = m.removeprefix("mean_")
                    v = g.stats.get(col) if not col.startswith("points_") else (
                        g.sources[seat].get(col.removeprefix("points_"), 0) if g.sources else None)
                    v = v[seat] if isinstance(v, (list, tuple)) else v
                if is_present(v) and is_number(v):
                    out[g.index] = float(v)
            got[key] = out
        return got[key]

    def reference_words(self) -> str:
        """What the reference is, in words: the current rules, or the slider's value nearest them."""
        if self.reference == self.baseline:
            return "the current rules"
        return f"the sliders' value nearest the current rules, {self.cell_text(self.baseline)}"

    def paired(self, cell=None, seat: int = 0) -> tuple[float, float, float] | None:
        """The measure at `cell` minus the reference (the current rules' value), game by game on the same
        seeds, with its 95% interval; None until both are played."""
        cell = self.cell if cell is None else cell
        ref = self.reference
        if seat >= min(self.config_at(cell)[0].players, self.config_at(ref)[0].players):
            return None  # a seat one of the two player counts does not have: nothing to pair
        if cell not in self.records or ref not in self.records:
            got = self.saved.get(cell)  # a saved page's column, for the measure it was saved with
            if got and got.get("measure") == self.measure and seat < len(got.get("paired") or ()):
                d = got["paired"][seat]
                return None if d is None else tuple(math.nan if x is None else x for x in d)
            return None  # the reference is not on the sliders (or not played yet)
        key = (cell, self.measure, seat)
        if key not in self.pairs:
            self.pairs[key] = paired_difference(self._game_values(cell, seat), self._game_values(ref, seat))
        return self.pairs[key]

    def paired_rows(self) -> list[dict]:
        """The paired chart's rows: for every played value and seat, `paired(cell, seat)` as
        {field(s), "point", "seat", "bot", "who", "diff", "diff_low", "diff_high"}; a measure of
        one number per game (turns, margin) gives one row per value ("every seat"). Two fields: the
        chosen seat's, one line per value of the second field (`who`). None where no pair is known."""
        order = {c: i for i, c in enumerate(self.cells())}
        whole = specs.per_game(self.rows(), self.measure)
        out = []
        for c in self.played:
            for r in self.points[c]:
                seat = r["seat"]
                if (whole and seat != 0) or (len(self.fields) == 2 and not whole and seat != self.seat):
                    continue
                d = self.paired(c, seat) or (None, None, None)
                who = "every seat" if whole else f"Player {seat + 1} ({r['bot']})"
                if len(self.fields) == 2:
                    who = f"{self.fields[1]}={label(c[1])}" + ("" if whole else f", {who}")
                out.append({**dict(zip(self.fields, c)), "point": order[c], "seat": seat, "bot": r["bot"], "who": who,
                            **{k: (None if v is None or v != v else float(v))
                               for k, v in zip(("diff", "diff_low", "diff_high"), d)}})
        return out

    def status(self) -> str:
        """How far the reader's Explorer is: values played, and those playing in the background."""
        total = len(self.cells())
        noun = "values" if len(self.fields) == 1 else "cells"
        text = f"{len(self.points)} of {total} {noun} simulated."
        if self.cell not in self.points:
            text = f"Playing {self.games} games of {self.cell_text()}… " + text
        busy = self.busy()
        if busy:
            text += " Simulating in the background: " + "; ".join(self.cell_text(c) for c in busy) + "…"
        return text

    def numbers(self, cell=None) -> dict | None:
        """The current cell's numbers as the front end's table: heading, columns, rows of text."""
        cell = self.cell if cell is None else cell
        if cell not in self.points:
            return None
        extra = self.measure not in ("win_rate", "score")
        value, low, high = measure_columns(self.measure)
        ref = self.cell_text(self.reference)
        shown = self.measure.removeprefix("mean_")  # the name every surface shows (issue 36)
        columns = ["seat", "win rate", "95% CI", "mean score", "95% CI"] + ([shown, "95% CI"] if extra else []) \
            + [f"{shown} vs {ref} (paired, 95% CI)"]
        rows = []
        spec_ = ".1%" if self.measure == "win_rate" else ".2f"
        for r in self.points[cell]:
            row = [f"Player {r['seat'] + 1} ({r['bot']})", number_text(r["win_rate"], ".1%"),
                   f"{number_text(r['win_low'], '.1%')} to {number_text(r['win_high'], '.1%')}", number_text(r["score"], ".2f"),
                   f"{number_text(r['score_low'], '.2f')} to {number_text(r['score_high'], '.2f')}"]
            if extra:
                row += [number_text(r.get(value), ".2f"), f"{number_text(r.get(low), '.2f')} to {number_text(r.get(high), '.2f')}"]
            d = self.paired(cell, r["seat"])
            missing = r["seat"] >= self.config_at(self.reference)[0].players
            row.append("the reference" if cell == self.reference else f"no Player {r['seat'] + 1} at {ref}" if missing
                       else f"play {ref} to compare" if d is None else
                       f"{number_text(d[0], '+' + spec_)} ({number_text(d[1], '+' + spec_)} to {number_text(d[2], '+' + spec_)})")
            rows.append(row)
        return {"heading": f"{self.cell_text(cell)}, {self.games} games, seed {self.seed}; paired against the "
                           f"reference {ref} ({self.reference_words()}), game by game on the same seeds",
                "columns": columns, "rows": rows}

    # --- the charts ---------------------------------------------------------------------

    def specs(self) -> dict[str, dict]:
        """The charts as Vega-Lite specs (plain dicts): {"win", "measure", "paired"} for one field, {"map",
        "paired"} for two ("paired": each value minus the reference, game by game, specs.paired).
        Built again only when the numbers, the measure or the seat change; the ring (or the
        outlined cell) follows the `meeple_current` parameter, set from view()["point"]."""
        if not self.points:
            return {}
        key = (self.version, self.measure, self.seat)
        if self._specs.get("key") != key:
            rows, base, m = self.rows(), self.baseline, self.measure
            label_ = self.measures[m].split(" (")[0]
            point = self.cells().index(self.cell)
            if len(self.fields) == 1:
                f = self.fields[0]
                built = {"win": specs.win_rate(rows, f, baseline=base[0], current=specs.Current(point)),
                         "measure": specs.measure(rows, f, m, label=label_, baseline=base[0],
                                                  current=specs.Current(point))}
            else:
                x, y = self.fields
                built = {"map": specs.heatmap(rows, x, y, m, self.seat, label=label_, current=specs.Current(point),
                                              baseline=base)}
            if m != "duration_spread":  # a figure of the run: nothing to pair game by game
                built["paired"] = specs.paired(self.paired_rows(), self.fields[0], m, label=label_,
                                               reference=self.reference[0],
                                               reference_text=self.cell_text(self.reference), current=specs.Current(point))
            self._specs = {"key": key, "specs": built}
        return self._specs["specs"]

    def chart_text(self, cell=None) -> str:
        """A text alternative for the charts: what they draw and the current value's numbers."""
        cell = self.cell if cell is None else cell
        if cell not in self.points:
            return f"Nothing simulated yet for {self.cell_text(cell)}."
        drawn = ", ".join(self.cell_text(c) for c in self.played)
        value, low, high = measure_columns(self.measure)
        spec = ".1%" if self.measure == "win_rate" else ".2f"
        parts = [f"Player {r['seat'] + 1} ({r['bot']}) wins {number_text(r['win_rate'], '.1%')} (95% CI "
                 f"{number_text(r['win_low'], '.1%')} to {number_text(r['win_high'], '.1%')}), {self.measure.replace('_', ' ')} "
                 f"{number_text(r.get(value), spec)} ({number_text(r.get(low), spec)} to {number_text(r.get(high), spec)})"
                 for r in self.points[cell]]
        return f"Charts of {drawn}. At {self.cell_text(cell)}: " + "; ".join(parts) + "."

    # --- the front end ------------------------------------------------------------------

    def view(self) -> dict:
        """Everything static/explorer.js draws, as {trait: value} (plain JSON)."""
        cells = self.cells()
        sliders = [{"field": f, "labels": [label(v) for v in stops], "index": stops.index(v),
                    "baseline": stops.index(b) if b in stops else None}
                   for f, stops, v, b in zip(self.fields, self.stops, self.cell, self.baseline)]
        view = {
            "title": self.mod.TITLE,
            "fields": list(self.fields),
            "bots": list(self.bots),
            "rules": self.config.describe(),
            "baseline": self.cell_text(self.baseline),
            "sliders": sliders,
            "games": self.games, "min_games": MIN_GAMES, "max_games": MAX_GAMES, "seed": self.seed,
            "measures": [[k, f"{k.removeprefix('mean_')}: {v}"] for k, v in self.measures.items()],  # one name (issue 36)
            "measure": self.measure,
            "seats": [[s, f"Player {s + 1} ({b})"] for s, b in enumerate(self.bots)] if len(self.fields) == 2 else [],
            "seat": self.seat,
            "cell": self.cell_text(),
            "played": len(self.points), "cells": len(cells), "ready": self.cell in self.points,
            "busy": [self.cell_text(c) for c in self.busy()],
            "status": self.status(),
            "warnings": self.warnings(),
            "numbers": self.numbers(),
            "point": cells.index(self.cell),
            "chart_text": self.chart_text(),
        }
        charts = self.specs()
        return {"view": view, "error": self.error, "charts": {"key": list(self._specs.get("key", ())), **charts}}

    def handle(self, msg) -> dict:
        """One message from the front end; the new view. {"do": "move", "index": [i, ...]} (or "value"),
        "games" {"games": n or the text the reader typed}, "measure" {"measure"}, "seat" {"seat"}, "play" (the current value),
        "run-all", "csv" (answers {"csv": text}). A refused message changes nothing and sets `error`."""
        answer = None
        try:
            if not isinstance(msg, dict):
                raise ValueError("unknown message")
            do = msg.get("do")
            self.error = ""
            if do == "move":
                if "index" in msg:
                    index = msg["index"]
                    index = [index] if isinstance(index, int) else index
                    if (not isinstance(index, list) or len(index) != len(self.fields)
                            or not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(s)
                                       for i, s in zip(index, self.stops))):
                        raise ValueError(f"index={_echo(index)} is not allowed: one stop per slider, "
                                         f"from 0 to {', '.join(str(len(s) - 1) for s in self.stops)}")
                    value = tuple(s[i] for s, i in zip(self.stops, index))
                    self.move(value[0] if len(value) == 1 else value)
                else:
                    self.move(msg.get("value"))
            elif do == "games":
                try:
                    games = msg.get("games")
                    self.set_games(games_from_text(games) if isinstance(games, str) else games)
                except ValueError as e:
                    raise ValueError(f"{e}; still {self.games}") from None
                self.play_current()
            elif do == "measure":
                self.set_measure(msg.get("measure"))
            elif do == "seat":
                self.set_seat(msg.get("seat"))
            elif do == "play":
                self.play_current()
            elif do == "run-all":
                self.show_all()
            elif do == "csv":
                answer = {"csv": self.csv()}
            else:
                raise ValueError(f"unknown command {_echo(do)}; allowed: {', '.join(COMMANDS)}")
        except ValueError as e:
            self.error = _one_line(e)
        out = self.view()
        if answer is not None:
            out["answer"] = answer
        return out


__all__ = ["ExplorerSession", "LocalRunner", "candidate_values", "cell_rows", "check_games", "games_from_text", "label"]
