"""A search by hand: the student's runs at each value they tried, and the value they pick.

What `tune` does (lesson 12) written on the standard library, so an exercise runs where pandas
does not (the site's Pyodide): the student plays a run at each value of one whole number
(`Evidence.play(...)` or `simulate(...)`, keyed by the value), measures each from its games,
and answers with the value whose measure comes closest to the target:

    runs = {b: Evidence.play("bucket-brigade", bb.Config(rounds=1, bonus=b), "random", games=150, seed=1)
            for b in range(0, 13)}
    check("12.ender_bonus", (best, runs))

`need_search` checks every run answers the question (its config is the question's at that
value, the bots, enough games) and is genuine (games replayed from their seeds: about 90 over
all the runs together, so 5% forged games are caught with chance over 99%), measures each run
with the exercise's own measure, and says whether the answer is what the runs say.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from .checking import WrongKind
from .evidence import REPLAY, need_evidence


def measured_runs(answer: Any, *, game: str, config_at: Callable, bots, games: int, measure: Callable,
                  example: str) -> "tuple[int, dict[int, tuple[float, float, float]]]":
    """(the value picked, {value: (estimate, low, high)}) from the pair (value, runs) an exercise takes.

    `config_at(value)`: the question's rules at that value; `measure(evidence)`: (estimate, low, high)
    from a run's games. WrongKind for anything that is not such a pair; Refused (from `need_evidence`)
    for a run that answers another question or is not what the engine played."""
    if isinstance(answer, (str, bytes)) or not isinstance(answer, (tuple, list)) or len(answer) != 2:
        raise WrongKind(f"pass the pair {example}; got {answer!r:.80}")
    value, runs = answer
    if isinstance(value, bool) or not isinstance(value, int):
        raise WrongKind(f"pass the pair {example}: the value you pick is a whole number; got {value!r:.40}")
    if not isinstance(runs, dict) or not runs or not all(isinstance(k, int) and not isinstance(k, bool) for k in runs):
        raise WrongKind(f"pass the pair {example}: the runs are a dict {{value: what simulate(...) or "
                        f"Evidence.play(...) returned}}; got {type(runs).__name__}")
    share = max(1, math.ceil(REPLAY / len(runs)))  # ~90 games replayed over all the runs together
    out = {}
    for v in sorted(runs):
        ev = need_evidence(runs[v], game=game, config=config_at(v), bots=bots, games=games, rotate=False, replay=share)
        out[v] = tuple(float(x) for x in measure(ev))
    return value, out


def closest(measured: dict, target: float):
    """The value whose estimate is nearest the target (the lower on a tie), as tune picks it."""
    return min(sorted(measured), key=lambda v: abs(measured[v][0] - target))


def undecided(measured: dict, best, target: float) -> list:
    """The neighbours of `best` (values either side that were measured) whose interval comes as near
    the target as `best`'s own interval reaches from it: the data cannot rule them out (tune's rule)."""
    _, low, high = measured[best]
    far = max(abs(low - target), abs(high - target))
    values = sorted(measured)
    k = values.index(best)
    out = []
    for v in values[max(0, k - 1):k] + values[k + 1:k + 2]:
        _, lo, hi = measured[v]
        gap = 0.0 if lo <= target <= hi else min(abs(lo - target), abs(hi - target))
        if gap <= far:
            out.append(v)
    return out
