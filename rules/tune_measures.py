"""What `tune` measures (rules/workbench.py): the named measures (MEASURES, a game's own
mean_<column> figures, or a function of the Results), each as (value, low, high) and, where it
is a mean over games, game by game for paired differences. Moved out of workbench.py to keep
each file under 800 lines (tests/test_house.py)."""

from __future__ import annotations

import math
from typing import Callable

from .core import play
from .registry import game_module
from .sim.design import DESIGN, duration_spread
from .sim.results import Results, measures, rate_row
from .stats import mean_ci, wilson

__all__ = ["MEASURES", "RATES", "READS", "measure_names", "measure_fn", "per_game_fn", "measured_at", "check_read"]

# --- measures -----------------------------------------------------------------

def _ender_rounds(mod, res: Results) -> list[float]:
    """For each round a player ended (Bucket Brigade, BB-8): 1 if the ender scored the most
    that round (1/k when k tied for most), else 0. The games are replayed from their
    seeds (the simulation keeps no per-round detail), so this measure costs a second run."""
    out = []
    for g in res.records:
        state = play(mod, res.config, list(g.bots), g.seed).state
        for points, ender in zip(state.history, state.enders):
            if ender is None:
                continue
            best = max(points)
            top = [s for s, p in enumerate(points) if p == best]
            out.append(1 / len(top) if ender in top else 0.0)
    return out


def _is_series(value) -> bool:
    return type(value).__name__ == "Series" and hasattr(value, "index")


def _short_repr(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _bot_shares(res: Results, bot: str) -> list[float]:
    t = res.table
    part = t[t["bot"] == bot]
    if not len(part):
        raise ValueError(f"bot {bot!r} is not in the lineup {', '.join(dict.fromkeys(res.bots))}")
    return part.groupby("game")["win_share"].mean().tolist()


MEASURES = {
    "ender_win_rate": "Bucket Brigade: share of the rounds a player ended in which the ender scored the most",
    "win_rate": "seat `seat`'s win rate (a shared win counts 1/k)",
    "seat1_advantage": "seat 1's win rate minus the fair share 1/players, in percentage points (as compare)",
    "bot_win_rate": "bot `bot`'s win rate, averaged over the seats it holds",
    "score": "seat `seat`'s mean final score",
    "turns": "mean game length in turns",
    "rounds": "mean game length in rounds",
}
RATES = ("ender_win_rate", "win_rate", "bot_win_rate")  # shares of games or rounds: a target outside 0..1 is never met
READS = {"seat": ("win_rate", "score"), "bot": ("bot_win_rate",)}  # the measures that read tune's seat= and bot=


def check_read(mod, measure, seat, bot, cli: bool = False) -> None:
    """Refuse a `seat` or `bot` (None: not given) that `measure` does not read, rather than ignore it
    unsaid: `tune(measure="turns", seat=1)` and `meeple tune --measure turns --seat 2` measured game
    length and never said the seat went unused. `cli` words it as `meeple tune`'s options (--seat is
    1-based there), else as tune()'s arguments. A name tune does not know is left to measure_fn."""
    if callable(measure):
        name = None
    elif isinstance(measure, str):
        name = measure.strip()
        known = measure_names(mod)
        if name not in known and f"mean_{name}" in known:
            name = f"mean_{name}"
        if name not in known:
            return
    else:
        return
    for option, given in (("seat", seat), ("bot", bot)):
        if given is None or name in READS[option]:
            continue
        goes = " or ".join(READS[option])
        if cli:
            shown = f"--{option} {given + 1 if option == 'seat' else given}"
            what = "a measure function" if name is None else f"--measure {measure.strip()}"
            raise ValueError(f"{shown} is not read by {what}: --{option} goes with --measure {goes} only; "
                             f"leave --{option} out")
        what = f"the measure function {getattr(measure, '__name__', '')}".rstrip() if name is None else \
            f"measure={measure.strip()!r}"
        raise ValueError(f"{option}={given!r} is not read by {what}: {option}= goes with measure {goes} only; "
                         f"leave {option}= out")


def measure_names(game) -> dict[str, str]:
    """Every measure tune knows for this game: MEASURES plus the game's own columns (mean_<column>)."""
    mod = game_module(game)
    out = {k: v for k, v in MEASURES.items() if k != "ender_win_rate" or mod.NAME == "bucket-brigade"}
    for k, v in measures(mod).items():
        out.setdefault(k, v)
    return out


def measure_fn(mod, measure, seat: int, bot: str | None) -> tuple[str, Callable]:
    """(label, function Results -> (value, low, high))."""
    if callable(measure):
        def custom(res):
            v = measure(res)
            if _is_series(v):  # the measure game by game: its mean and interval over the games
                return mean_ci(v.astype(float).dropna().tolist())
            try:
                v = tuple(float(x) for x in v) if isinstance(v, (tuple, list)) else (float(v),) * 3
            except (TypeError, ValueError):
                v = ()
            if len(v) != 3:
                raise ValueError(f"measure {getattr(measure, '__name__', 'function')} must return a number, "
                                 f"(value, low, high) or a pandas Series by game, got {_short_repr(measure(res))}")
            return v

        custom.raw = measure
        return getattr(measure, "__name__", "custom measure"), custom
    known = measure_names(mod)
    if isinstance(measure, str) and measure.strip() not in known and f"mean_{measure.strip()}" in known:
        measure = f"mean_{measure.strip()}"  # "backfires" as `simulate --measure` takes it
    if not isinstance(measure, str) or measure.strip() not in known:
        raise ValueError(f"measure={measure!r} is not allowed: one of {', '.join(known)}, or a function of the Results")
    measure = measure.strip()
    if measure == "ender_win_rate":
        def ender(res):
            wins = _ender_rounds(mod, res)
            lo, hi = wilson(sum(wins), len(wins))
            return (sum(wins) / len(wins) if wins else math.nan, lo, hi)

        return "the round-ender's win rate", ender
    if measure in ("win_rate", "score"):
        def per_seat(res):
            part = res.table[res.table["seat"] == seat]
            return rate_row(part["win_share"].tolist()) if measure == "win_rate" else mean_ci(part["score"].tolist())

        return f"Player {seat + 1}'s {'win rate' if measure == 'win_rate' else 'mean score'}", per_seat
    if measure == "seat1_advantage":
        def advantage(res):  # percentage points, as compare prints it
            fair = 1 / res.config.players
            v, lo, hi = rate_row(res.table[res.table["seat"] == 0]["win_share"].tolist())
            return (100 * (v - fair), 100 * (lo - fair), 100 * (hi - fair))

        return "seat 1's advantage over the fair share (percentage points)", advantage
    if measure == "bot_win_rate":
        if bot is None:
            raise ValueError("measure='bot_win_rate' needs bot=NAME (the bot whose win rate is tuned)")

        def bot_rate(res):
            return rate_row(_bot_shares(res, bot))

        return f"{bot}'s win rate", bot_rate
    if measure in ("turns", "rounds", "lead_changes"):
        return f"mean {measure} per game", lambda res: mean_ci(res.games[measure].tolist())
    if measure == "duration_spread":  # a figure of the run: its interval, never paired
        return "the spread of game lengths (sd of turns)", lambda res: duration_spread(res.games["turns"].tolist())
    column = measure[len("mean_"):]

    def own(res):  # a game is the independent unit: its seats' mean, then the interval over games
        return mean_ci(res.table.groupby("game")[column].mean().dropna().tolist())

    return f"{column} ({'per game' if column in DESIGN else 'mean per seat and game'})", own


def per_game_fn(mod, measure, seat: int, bot: str | None) -> Callable | None:
    """Results -> the measure game by game (a Series indexed by game), for paired differences;
    None where the measure is not a mean over games (the round-ender's rate pools rounds)."""
    if callable(measure):
        return None  # a function may return a Series itself: see measured_at
    name = measure.strip()
    if name not in measure_names(mod) and f"mean_{name}" in measure_names(mod):
        name = f"mean_{name}"
    if name == "win_rate":
        return lambda res: res.table[res.table["seat"] == seat].set_index("game")["win_share"]
    if name == "score":
        return lambda res: res.table[res.table["seat"] == seat].set_index("game")["score"].astype(float)
    if name == "seat1_advantage":
        return lambda res: 100 * (res.table[res.table["seat"] == 0].set_index("game")["win_share"]
                                  - 1 / res.config.players)
    if name == "bot_win_rate":
        return lambda res: res.table[res.table["bot"] == bot].groupby("game")["win_share"].mean()
    if name in ("turns", "rounds", "lead_changes"):
        return lambda res: res.games.set_index("game")[name].astype(float)
    if name.startswith("mean_"):
        return lambda res: res.table.groupby("game")[name[len("mean_"):]].mean()
    return None


def measured_at(fn, per_game, res):
    """(value, low, high, per-game Series or None) of one setting."""
    if per_game is None:
        got = fn.raw(res) if hasattr(fn, "raw") else None
        if _is_series(got):  # a function gave the measure game by game
            series = got.astype(float)
            return (*mean_ci(series.dropna().tolist()), series)
        return (*(float(x) for x in fn(res)), None)
    return (*(float(x) for x in fn(res)), per_game(res).astype(float))
