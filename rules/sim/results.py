"""What a run leaves: `Results` (a tidy table, one row per game x seat, and one per game),
its `Summary` (win rates, scores, game length, the game's own figures, each with a 95%
interval), and the names of the measures a table carries (`measures(game)`).

pandas is imported only when a table is made (`load_pandas`), so `meeple.rules` stays
importable with the standard library alone.
"""

from __future__ import annotations

import dataclasses
import json
import math
from itertools import chain
from typing import Any, Sequence

from ..core import resolve_bots
from ..protocol import resolve_config
from ..registry import game_module
from ..stats import mean_ci, wilson
from .design import DESIGN, RUN_LEVEL, duration_spread
from .play import CHECKPOINTS, GameResult, play_game
from .text import Shown, ci_num, ci_pct, html_lines, fmt_table, length_lines, lineup_text, num, pct, seat_name


def load_pandas():
    """The pandas module, imported on first use (a table needs it; `import meeple.rules` does not)."""
    import pandas

    return pandas


# How each kind of result table shows itself: {kind: lines(table)}, filled by the module that makes
# the table (sweep: sim/sweep.py; compare: comparison.py).
SHOWN_AS: dict = {}
_SHOWN_FRAME: list = []  # the ShownFrame class, made once pandas is loaded


def _shown_frame_class():
    """ShownFrame: a DataFrame that shows itself as its kind's lines (a readable table, with its
    intervals, in text and HTML) instead of pandas' columns, which a wide table truncates. Every
    DataFrame call works as before, and what it makes (a slice, a copy) is a plain DataFrame."""
    if not _SHOWN_FRAME:
        pd = load_pandas()

        class ShownFrame(pd.DataFrame):
            @property
            def _constructor(self):
                return pd.DataFrame

            def lines(self) -> list[str]:
                return SHOWN_AS[self.attrs["shown_as"]](self)

            def __repr__(self) -> str:
                return "\n".join(self.lines())

            def _repr_html_(self) -> str:
                return html_lines(self.lines())

        ShownFrame.__module__, ShownFrame.__qualname__ = __name__, "ShownFrame"  # pickle finds it (__getattr__)
        _SHOWN_FRAME.append(ShownFrame)
    return _SHOWN_FRAME[0]


def __getattr__(name):
    if name == "ShownFrame":
        return _shown_frame_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def shown_frame(table, kind: str):
    """`table` (a DataFrame) as a ShownFrame that shows itself as SHOWN_AS[kind] says."""
    out = _shown_frame_class()(table)
    out.attrs.update(table.attrs, shown_as=kind)
    return out


_BASE_COLUMNS = {"game", "seat", "bot", "score", "won", "win_share", "rounds", "turns"}


def own_columns(table) -> list[str]:
    """The game's own numeric columns in a results table (from its game_stats / score_sources hooks)."""
    pd = load_pandas()
    return [
        c for c in table.columns
        if c not in _BASE_COLUMNS and pd.api.types.is_numeric_dtype(table[c]) and not pd.api.types.is_bool_dtype(table[c])
    ]


class RunInfo(Shown):
    """What Results and Totals share: which game, rules, bots and seed a run played, and how a
    run shows itself (a cell's value, print): each seat's win rate and mean score and the game's
    length, with 95% intervals, computed without pandas (the site's Python has none)."""

    def __init__(self, mod, config, bots, seed, requested, rotate, partial):
        self.game = mod.NAME
        self.title = mod.TITLE
        self.config = config
        self.bots = tuple(b if isinstance(b, str) else getattr(b, "__name__", "custom") for b in bots)
        self.seed = seed
        self.requested = requested
        self.rotate = rotate
        self.partial = partial

    def seat_figures(self) -> list[tuple]:
        """Per seat: (seat, bots, (win rate, low, high), (mean score, low, high))."""
        raise NotImplementedError

    def length_figures(self) -> dict[str, tuple]:
        """{"rounds": (mean, low, high), "turns": ...} per game."""
        raise NotImplementedError

    def lines(self) -> list[str]:
        lines = [self.describe()]
        if not self.completed:
            return lines + ["No game finished."]
        lines.append("Win rate by seat (95% CI; a shared win counts 1/k), mean score (95% CI):")
        lines.append(fmt_table(
            ["seat", "bot", "win rate", "95% CI", "mean score", "95% CI"],
            [[seat_name(s), bots, pct(w[0]), ci_pct(w[1], w[2]), num(m[0]), f"{ci_num(m[1], m[2])}"]
             for s, bots, w, m in self.seat_figures()]))
        lines.append("Game length (mean per game, 95% CI):")
        lines.append(fmt_table(["", "mean", "95% CI"], [[k, num(v[0]), f"{ci_num(v[1], v[2])}"]
                                                       for k, v in self.length_figures().items()]))
        lines.append(".summary() has more: each bot's figures, the spread of game lengths, the game's own figures.")
        return lines

    def describe(self) -> str:
        """One line: game, games played, seed, bots and rules."""
        part = f" (interrupted: {self.completed} of {self.requested} games)" if self.partial else ""
        rot = ", seats rotated" if self.rotate else ""
        played = f"{self.completed} game" + ("" if self.completed == 1 else "s")
        return (
            f"{self.title}, {played}{part}, seed {self.seed}, bots {lineup_text(self.bots, self.config.players)}{rot}, "
            f"rules: {self.config.describe()}"
        )


class Results(RunInfo):
    """The games of one run.

    `table`: one row per game x seat — game, seat (0-based), bot, score, won
    (a shared win counts for every winner), win_share (1/k for a k-way shared
    win, else 1 or 0), rounds, turns, then the game's own columns
    (`game_stats` hook) and points_<source> columns (`score_sources` hook).
    `games`: one row per game — game, seed, rounds, turns, actions, winners,
    lead_changes, leader_after_round_k and leader_at_<k>pct (the sole leader's
    seat, <NA> on a tie). `partial` is True when the run was interrupted.
    """

    def __init__(self, mod, config, bots, seed, requested, rotate, records: list[GameResult], partial=False):
        super().__init__(mod, config, bots, seed, requested, rotate, partial)
        self.records = records
        self._frames = None  # (table, games), made on first use: without pandas (the site's Python) the records still serve

    def _made_frames(self):
        """(table, games), made from the records on first use."""
        if self._frames is None:
            self._frames = make_tables(self.config.players, self.records)
        return self._frames

    @property
    def table(self):
        return self._made_frames()[0]

    @table.setter
    def table(self, value):  # a reader may replace the table (a checker then sees it disagree with the games)
        self._frames = (value, self.games)

    @property
    def games(self):
        return self._made_frames()[1]

    @games.setter
    def games(self, value):
        self._frames = (self.table, value)

    @property
    def completed(self) -> int:
        return len(self.records)

    def seat_figures(self) -> list[tuple]:
        n = self.config.players
        out = []
        for s in range(n):
            shares = [1.0 / len(g.winners) if s in g.winners else 0.0 for g in self.records]
            bots = ",".join(dict.fromkeys(g.bots[s] for g in self.records))
            out.append((s, bots, rate_row(shares), mean_ci([g.scores[s] for g in self.records])))
        return out

    def length_figures(self) -> dict[str, tuple]:
        return {k: mean_ci([getattr(g, k) for g in self.records]) for k in ("rounds", "turns")}

    def summary(self, measures: Sequence[str] | None = None) -> "Summary":
        """Win rates, scores and game length with 95% intervals; `measures` (names
        from `measures(game)`, e.g. "steals_tried" or "mean_steals_tried", "turns")
        picks which of the game's figures to show, each with its interval."""
        return Summary.of(self, measures)

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": "meeple-simulation/1",
                "game": self.game,
                "config": self.config.to_dict(),
                "bots": list(self.bots),
                "seed": self.seed,
                "games": self.requested,
                "completed": self.completed,
                "rotate": self.rotate,
                "partial": self.partial,
                "rows": json.loads(self.table.to_json(orient="records")),
            },
            indent=1,
        )


def _per_seat(values: list, n: int) -> list:
    """[v[s] if isinstance(v, (list, tuple)) else v for v in values for s in range(n)]: a stat's
    column (a value per seat, or one for every seat), one extend a game rather than a test a seat."""
    out: list = []
    grow = out.extend
    for v in values:
        if isinstance(v, (list, tuple)):
            grow(v if len(v) == n else [v[s] for s in range(n)])
        else:
            grow((v,) * n)
    return out


def make_tables(n: int, records: list[GameResult]):
    """(table, games) DataFrames of a run's GameResults: one row per game x seat, and one per game."""
    pd = load_pandas()
    import numpy as np  # here whenever pandas is (pandas needs it)
    stat_keys = list(dict.fromkeys(chain.from_iterable([g.stats for g in records])))
    source_keys = list(dict.fromkeys(chain.from_iterable([d for g in records if g.sources for d in g.sources])))
    # one comprehension per column (rows: game by game, seat by seat); the columns whose type is known
    # go in as numpy arrays of that type, so pandas need not look at every value to infer it
    seats = range(n)
    # (an empty run's columns keep the types an empty table has always had: float for no values)
    ints = (lambda values: np.array(values, dtype=np.int64)) if records else list
    index, rounds, turns = ints([g.index for g in records]), ints([g.rounds for g in records]), \
        ints([g.turns for g in records])
    shares = [1.0 / len(g.winners) if g.winners else 0.0 for g in records]
    cols: dict[str, Any] = {
        "game": np.repeat(index, n),
        "seat": np.tile(np.arange(n, dtype=np.int64), len(records)),
        "bot": [b for g in records for b in g.bots[:n]],
        "score": [v for g in records for v in g.scores[:n]],
        "won": np.array([s in g.winners for g in records for s in seats], dtype=bool),
        "win_share": [share if s in g.winners else 0.0 for g, share in zip(records, shares) for s in seats],
        "rounds": np.repeat(rounds, n),
        "turns": np.repeat(turns, n),
    }
    extra = {}
    for k in stat_keys:
        extra[k] = _per_seat([g.stats.get(k) for g in records], n)
        if k in DESIGN:  # numbers, or no value (NaN): a number column even when no game has a value
            extra[k] = [math.nan if v is None else v for v in extra[k]]
    points = {f"points_{k}": [g.sources[s].get(k, 0) if g.sources else None for g in records for s in seats]
              for k in source_keys}
    table = pd.DataFrame({**cols, **extra, **points})
    if not records:
        table = table.astype({"game": int, "seat": int, "score": int, "won": bool, "win_share": float})
    max_rounds = max((len(g.round_leaders) for g in records), default=0)
    games = {
        "game": index,
        "seed": [g.seed for g in records],
        "rounds": rounds,
        "turns": turns,
        "actions": ints([g.actions for g in records]),
        "winners": [g.winners for g in records],
        "lead_changes": ints([g.lead_changes for g in records]),
    }
    # the leaders after each round, a row a game padded with None (a shorter game), read a column at a time
    padded = [r if len(r) == max_rounds else r + (None,) * (max_rounds - len(r)) for r in
              [g.round_leaders for g in records]]
    for k, col in enumerate(zip(*padded)):
        games[f"leader_after_round_{k + 1}"] = pd.array(list(col), dtype="Int64")
    for j, at in enumerate(CHECKPOINTS):
        games[f"leader_at_{at}pct"] = pd.array([g.turn_leaders[j] for g in records], dtype="Int64")
    return table, pd.DataFrame(games)


def rate_row(share_per_game: list[float]) -> tuple[float, float, float]:
    """(rate, low, high): Wilson on per-game shares in [0, 1] (conservative for shares)."""
    n = len(share_per_game)
    if n == 0:
        return (math.nan, 0.0, 1.0)
    total = math.fsum(share_per_game)  # exactly rounded: the same on every Python (stats.mean_ci)
    lo, hi = wilson(total, n)
    return (total / n, lo, hi)


@dataclasses.dataclass(repr=False)
class Summary(Shown):
    """Win rate per seat and per bot (95% Wilson intervals; a k-way shared win
    counts 1/k), mean score with a 95% interval, and game length."""

    heading: str
    games: int
    seats: Any  # DataFrame: seat, bot, games, win_rate, win_low, win_high, score, score_low, score_high
    bots: Any  # DataFrame: bot, seats_per_game, games, win_rate, win_low, win_high, score, score_low, score_high
    length: Any  # DataFrame: measure, mean, low, high, min, p10, median, p90, max
    partial: bool = False
    columns: Any = None  # DataFrame: column, mean, low, high: the game's own columns, per seat and game
    measures: Any = None  # DataFrame: measure, seat (<NA>: per game or all seats), mean, low, high (chosen ones)

    @classmethod
    def of(cls, res: Results, measures: Sequence[str] | None = None) -> "Summary":
        pd = load_pandas()
        t = res.table
        n_games = res.completed
        seat_rows = []
        for s, part in t.groupby("seat", sort=True) if n_games else []:
            rate, lo, hi = rate_row(part["win_share"].tolist())
            m, mlo, mhi = mean_ci(part["score"].tolist())
            bots = part["bot"].unique()
            seat_rows.append([s, ",".join(bots), len(part), rate, lo, hi, m, mlo, mhi])
        cols = ["win_rate", "win_low", "win_high", "score", "score_low", "score_high"]
        seats = pd.DataFrame(seat_rows, columns=["seat", "bot", "games", *cols])
        bot_rows = []
        if n_games:
            per_game = t.groupby(["bot", "game"], sort=True).agg(
                share=("win_share", "sum"), score=("score", "mean"), seats=("seat", "size")
            )
            for b, part in per_game.groupby(level="bot", sort=False):
                k = int(part["seats"].iloc[0])
                rate, lo, hi = rate_row((part["share"] / part["seats"]).tolist())
                m, mlo, mhi = mean_ci(part["score"].tolist())
                bot_rows.append([b, k, len(part), rate, lo, hi, m, mlo, mhi])
        bots = pd.DataFrame(bot_rows, columns=["bot", "seats_per_game", "games", *cols])
        length_rows = []
        for measure in ("rounds", "turns"):
            v = res.games[measure]
            if len(v):
                m, lo, hi = mean_ci(v.tolist())
                q = v.quantile([0.1, 0.5, 0.9]).tolist()
                length_rows.append([measure, m, lo, hi, int(v.min()), q[0], q[1], q[2], int(v.max())])
        length = pd.DataFrame(length_rows, columns=["measure", "mean", "low", "high", "min", "p10", "median", "p90", "max"])
        # a game is the independent unit: average its seats first, then the interval over games
        own = [[c, *mean_ci(t.groupby("game")[c].mean().dropna().tolist())] for c in own_columns(t)] if n_games else []
        columns = pd.DataFrame(own, columns=["column", "mean", "low", "high"])
        chosen = None
        if measures is not None:
            chosen = _chosen_measures(res, seats, [measure_name(_table_measures(t), m) for m in measures] if n_games else [])
        return cls(res.describe(), n_games, seats, bots, length, res.partial, columns, chosen)

    def lines(self) -> list[str]:
        """The summary as text lines (its tables as fmt_table's): what str() joins and the HTML shows."""
        lines = [self.heading]
        if not self.games:
            return lines + ["No game finished."]
        lines.append("Win rate by seat (95% CI; a shared win counts 1/k), mean score (95% CI):")
        lines.append(
            fmt_table(
                ["seat", "bot", "win rate", "95% CI", "mean score", "95% CI"],
                [
                    [seat_name(int(r.seat)), r.bot, pct(r.win_rate), ci_pct(r.win_low, r.win_high),
                     num(r.score), f"{ci_num(r.score_low, r.score_high)}"]
                    for r in self.seats.itertuples()
                ],
            )
        )
        if len(self.bots) > 1:
            lines.append("Win rate by bot (per seat it holds; 95% CI), mean score (95% CI):")
            lines.append(
                fmt_table(
                    ["bot", "seats", "win rate", "95% CI", "mean score", "95% CI"],
                    [
                        [r.bot, str(r.seats_per_game), pct(r.win_rate), ci_pct(r.win_low, r.win_high),
                         num(r.score), f"{ci_num(r.score_low, r.score_high)}"]
                        for r in self.bots.itertuples()
                    ],
                )
            )
        lines += length_lines(self.length)
        if self.measures is not None:
            lines.append("Chosen measures (mean with 95% CI; 'all': per game, or every seat's mean in a game):")
            lines.append(
                fmt_table(
                    ["measure", "seat", "mean", "95% CI"],
                    [[r.measure.removeprefix("mean_"), "all" if load_pandas().isna(r.seat) else seat_name(int(r.seat)),
                      *((pct(r.mean), ci_pct(r.low, r.high)) if r.measure == "win_rate"
                        else (num(r.mean), FIXED if r.low == r.high == r.mean and self.games > 1
                              else f"{ci_num(r.low, r.high)}"))]
                     for r in self.measures.itertuples()],
                )
            )
            if any(r.low == r.high == r.mean for r in self.measures.itertuples()) and self.games > 1:
                lines.append(f"  {FIXED}: the same value in every game (fixed by the rules, e.g. Duck's bruces: every "
                             "Bruce card ends one turn, so their mean over the seats is rounds x Bruce cards / "
                             "players); a design question reads it per seat, or not at all.")
        elif self.columns is not None and len(self.columns):
            lines.append("The game's own figures (mean per seat and game, 95% CI; per seat in results.table):")
            lines.append(
                fmt_table(
                    ["", "mean", "95% CI"],
                    [[r.column, num(r.mean), f"{ci_num(r.low, r.high)}"] for r in self.columns.itertuples()],
                )
            )
        return lines


def measures(game, config=None) -> dict[str, str]:
    """{column: what it means} for every measure a sweep table carries with a
    95% interval (`column`, `column_low`, `column_high`): win rate and mean
    score per seat, game length and lead changes per game, and mean_<name>
    for each of the game's own game_stats / score_sources columns. The
    Explorer, compare and tune let the reader pick any of them."""
    mod = game_module(game)
    config = resolve_config(mod, config, "config must be", files=True)
    out = {
        "win_rate": "win rate per seat (a shared win counts 1/k)",
        "score": "mean final score per seat",
        "turns": "turns per game",
        "rounds": "rounds per game",
        "lead_changes": "lead changes per game (turn by turn)",
        **RUN_LEVEL,  # duration_spread: a figure of the run (rules/sim/design.py), not paired
    }
    names, funcs = resolve_bots(mod, "random", config.players)
    one = play_game(mod, config, names, funcs, 0, 0)  # one quick game names the game's own columns
    said = getattr(mod, "MEASURES", {})  # the game module's own words for its columns
    for k, v in one.stats.items():
        if isinstance(v, (int, float)) or (isinstance(v, (list, tuple)) and all(isinstance(x, (int, float)) for x in v)):
            out[f"mean_{k}"] = said.get(k) or f"{k}: the game's own figure (game_stats), mean per seat" + (
                "" if isinstance(v, (list, tuple)) else " (one value per game)")
    for k in dict.fromkeys(k for d in one.sources or () for k in d):
        out[f"mean_points_{k}"] = said.get(f"points_{k}") or f"points from {k} per seat (score_sources)"
    for k, v in DESIGN.items():  # computed only when asked for (rules/sim/design.py)
        out[f"mean_{k}"] = f"{v} (design measure: played only when asked for)"
    return out


FIXED = "every game alike"  # a measure whose value no game moves (its interval has width 0)


def measure_listing(game, config=None) -> dict[str, str]:
    """{name: what it means}: every measure by the one name every surface shows and `--measure` takes
    (`meeple rules GAME --measures`): the game's own columns without the `mean_` of the sweep
    table's columns (cards_stolen, not mean_cards_stolen). The decision (issue 36): the unprefixed
    name is the name; the `mean_` spelling stays accepted as input everywhere (measure_name) and is
    the column of a sweep table (measure_columns), never the name a surface shows."""
    return {k.removeprefix("mean_"): v for k, v in measures(game, config).items()}


PER_GAME = {
    "turns": "turns per game",
    "rounds": "rounds per game",
    "lead_changes": "lead changes per game (turn by turn)",
}
"""The per-game measures (one value per game, not per seat), with what each means."""


def measure_name(known: Sequence[str], name: str) -> str:
    """The name `measures()` uses for `name` ("steals_tried" -> "mean_steals_tried"),
    or a ValueError listing the known ones."""
    if not isinstance(name, str):
        raise ValueError(f"a measure is a name such as 'turns', got {name!r}")
    name = name.strip()
    if name in known:
        return name
    if f"mean_{name}" in known:
        return f"mean_{name}"
    if name.removeprefix("mean_") in DESIGN:
        raise ValueError(f"{name.removeprefix('mean_')} is a design measure, computed only when the run asks for it: "
                         f"simulate(..., measures=[{name.removeprefix('mean_')!r}]) or --measure "
                         f"{name.removeprefix('mean_')}")
    shown = dict.fromkeys(k.removeprefix("mean_") for k in known)  # the one name each (issue 36)
    raise ValueError(f"unknown measure {name!r}; known: {', '.join(shown)}")


def _table_measures(table) -> list[str]:
    """What measures() would list, read from a results table (no game played)."""
    return ["win_rate", "score", *PER_GAME, *RUN_LEVEL, *(f"mean_{c}" for c in own_columns(table))]


def _chosen_measures(res: Results, seats, names: list[str]):
    """One row per chosen measure and seat (or one for a per-game figure), each with a 95% CI.
    A game is the independent unit: 'all' averages a game's seats first."""
    pd = load_pandas()
    rows = []
    t, g = res.table, res.games
    for name in dict.fromkeys(names):
        if name in ("win_rate", "score"):
            low, high = ("win_low", "win_high") if name == "win_rate" else ("score_low", "score_high")
            rows += [[name, int(r["seat"]), r[name], r[low], r[high]] for _, r in seats.iterrows()]
        elif name in PER_GAME:
            rows.append([name, None, *mean_ci(g[name].tolist())])
        elif name in RUN_LEVEL:  # the run's spread of game lengths (its interval: design.duration_spread)
            rows.append([name, None, *duration_spread(g["turns"].tolist())])
        else:
            col = name[len("mean_"):]
            per_seat = col.startswith("points_") or any(
                isinstance(r.stats.get(col), (list, tuple)) for r in res.records[:1])
            if per_seat:
                for s, part in t.groupby("seat", sort=True)[col]:
                    rows.append([name, int(s), *mean_ci(part.dropna().tolist())])
            rows.append([name, None, *mean_ci(t.groupby("game")[col].mean().dropna().tolist())])
    out = pd.DataFrame(rows, columns=["measure", "seat", "mean", "low", "high"])
    out["seat"] = out["seat"].astype("Int64")
    return out


def measure_columns(measure: str) -> tuple[str, str, str]:
    """The sweep table's (value, low, high) columns for a measure from `measures()`."""
    if measure == "win_rate":
        return ("win_rate", "win_low", "win_high")
    return (measure, f"{measure}_low", f"{measure}_high")


__all__ = ["Results", "Summary", "RunInfo", "make_tables", "rate_row", "own_columns", "measures", "measure_name",
           "measure_listing",
           "measure_columns", "PER_GAME", "load_pandas"]
