"""One Explorer value's numbers from its games, as `sweep` gives them, without pandas.

`cell_rows` is what the Explorer's numbers table, its CSV and its charts read (the browser has
no pandas); a test holds its columns, order and digits equal to `sweep`'s table. Only the
standard library and `meeple.rules` are imported: it runs in the site's Pyodide.
"""

from __future__ import annotations

import math
from itertools import chain

from meeple.rules.sim.design import duration_spread
from meeple.rules.sim.results import rate_row as _rate_row
from meeple.rules.sim.text import show_value as _show_value
from meeple.rules.stats import mean_ci


def number_text(v, spec: str) -> str:
    """A number as the numbers table shows it; "n/a" where there is none (no game counted it)."""
    if not is_number(v) or not math.isfinite(v):
        return "n/a"
    return format(v, spec)


# --- one value's numbers, as sweep gives them (no pandas) ----------------------------

def is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_present(v) -> bool:
    return v is not None and not (isinstance(v, float) and math.isnan(v))


_INTS = frozenset({int})
_NONE = frozenset({type(None)})
_NUMBERS = frozenset({int, float, type(None)})


def nearest(value, stops):
    """The stop nearest `value` (the first of two as near); the first stop for a value that is not
    a number (a switch, a word) or a slider of words."""
    if is_number(value) and all(is_number(v) for v in stops):
        return min(stops, key=lambda v: abs(v - value))
    return stops[0]


def _as_is(part: list) -> list:
    return part


def _not_none_nor_nan(part: list) -> list:  # is_present for plain ints and floats
    return [v for v in part if v is not None and v == v]


def _present(part: list) -> list:
    return [v for v in part if is_present(v)]


def _per_seat(values: list, players: int) -> list[list]:
    """One game column's values per seat (`values`: each game's, a list or tuple of one per seat, or
    one for the game): [[seat 0's in each game], ...]."""
    kinds = set(map(type, values))
    if kinds <= {list, tuple} and set(map(len, values)) == {players}:  # one per seat in every game (the usual)
        return [list(col) for col in zip(*values)]
    return [[(v[s] if isinstance(v, (list, tuple)) else v) for v in values] for s in range(players)]


def cell_rows(point: dict, players: int, records, k: int = 0) -> list[dict]:
    """One row per seat for one value (`point`: {field: value}) from its games, with the
    columns, order and digits of `sweep`'s table (a test holds them equal): the varied
    fields, point, seat, bot, games, win rate and mean score with 95% intervals, then
    turns, rounds and lead changes per game and mean_<column> per seat for the game's
    own numeric columns, each with _low and _high."""
    records = sorted(records, key=lambda g: g.index)
    n, seats = len(records), range(players)
    rows = []
    for s in seats if n else ():
        share = [(1.0 / len(g.winners) if g.winners else 0.0) if s in g.winners else 0.0 for g in records]
        rate, lo, hi = _rate_row(share)
        m, mlo, mhi = mean_ci([g.scores[s] for g in records])
        row = {name: _show_value(v) for name, v in point.items()}
        row |= {"point": k, "seat": s, "bot": ",".join(dict.fromkeys(g.bots[s] for g in records)), "games": n,
                "win_rate": rate, "win_low": lo, "win_high": hi, "score": m, "score_low": mlo, "score_high": mhi}
        rows.append(row)
    if not n:
        return rows
    for col in ("turns", "rounds", "lead_changes"):
        # a swept field of that name keeps its column: the game length is then <col>_played (as sweep)
        name = f"{col}_played" if col in point else col
        got = mean_ci([getattr(g, col) for g in records])
        for row in rows:
            row |= {name: got[0], f"{name}_low": got[1], f"{name}_high": got[2]}
    spread = duration_spread([g.turns for g in records])  # as sweep: the run's spread of game lengths
    for row in rows:
        row |= {"duration_spread": spread[0], "duration_spread_low": spread[1], "duration_spread_high": spread[2]}
    columns: dict[str, list[list]] = {}  # the game's own columns, per seat (a results table's, by seat)
    for key in dict.fromkeys(chain.from_iterable(g.stats for g in records)):
        columns[key] = _per_seat([g.stats.get(key) for g in records], players)
    sources = list(dict.fromkeys(k for g in records if g.sources for d in g.sources for k in d))
    for key in sources:
        columns[f"points_{key}"] = [[g.sources[s].get(key, 0) if g.sources else None for g in records] for s in seats]
    for col, per_seat in columns.items():
        kinds = set()
        for part in per_seat:
            kinds.update(map(type, part))
        if kinds <= _NUMBERS:  # plain ints and floats (the usual column): the checks below, in one pass over types
            if not kinds - _NONE:
                continue  # no game counted it
            present = _as_is if kinds <= _INTS else _not_none_nor_nan
        else:
            values = [v for part in per_seat for v in part if v is not None]
            # a results table's numeric column (not a switch, not text): what sweep averages
            if not values or not all(is_number(v) for v in values):
                continue
            present = _present
        for row, part in zip(rows, per_seat):
            got = mean_ci(present(part))
            row |= {f"mean_{col}": got[0], f"mean_{col}_low": got[1], f"mean_{col}_high": got[2]}
    return rows
