"""Tuning three or more numbers at once: the N-Tuple Bandit Evolutionary Algorithm (NTBEA).

Source: S. M. Lucas, J. Liu, D. Perez-Liebana (2018), "The N-Tuple Bandit Evolutionary Algorithm
for Game Agent Optimisation", IEEE CEC 2018 (the method TAG uses to tune many parameters).
A grid of d numbers grows as the product of their ranges; NTBEA spends a fixed budget of noisy
evaluations instead. It keeps, for every 1-tuple (one number at one value), every 2-tuple (two
numbers at two values) and the full d-tuple, the count and mean of the fitness of the settings
evaluated that contain it. Each step it mutates the current setting into `neighbours` candidates
(each number changed with probability 1/d, at least one), scores each by the mean over its
tuples of (tuple mean + k sqrt(ln(N + 1) / (n + eps))) (UCB1; N evaluations so far, n the
tuple's count), evaluates the best candidate once, and moves there. At the end it recommends
the evaluated setting with the best mean over its tuples (no exploration term).

`tune(..., field=(three or more))` evaluates a setting by a small batch of games on fresh seeds
(fitness: minus the distance of the batch's measure from the target), then plays the recommended
setting and the starting one on the same `games` seeds and reports their paired difference.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from typing import Any, Callable, Sequence

from .chance import derive
from .comparison import lineup, paired_difference
from .sim.results import Results
from .sim.runner import Job, run
from .sim.text import show_value

K_EXPLORE = 2.0  # UCB's exploration constant (Lucas et al. use values near 2 for noisy game fitness)
NEIGHBOURS = 50  # candidates scored by the model each step
EPS = 1e-6


def ntbea(spans: Sequence[Sequence], evaluate: Callable[[tuple, int], float], budget: int, rng: random.Random,
          start: tuple | None = None, k: float = K_EXPLORE, neighbours: int = NEIGHBOURS):
    """NTBEA over the grid `spans` (one list of values per number): `evaluate(setting, step)` gives a
    noisy fitness (higher is better). Returns (recommended setting, {setting: evaluations}, steps)."""
    d = len(spans)
    tuples = [(i,) for i in range(d)] + list(itertools.combinations(range(d), 2)) + [tuple(range(d))]
    stats: dict = {}  # (dims, values) -> [count, sum]

    def keys(s):
        return [(dims, tuple(s[i] for i in dims)) for dims in tuples]

    def score(s, explore: float, total: int) -> float:
        out = 0.0
        for key in keys(s):
            n, total_f = stats.get(key, (0, 0.0))
            mean = total_f / n if n else 0.0
            out += mean + explore * math.sqrt(math.log(total + 1) / (n + EPS))
        return out / len(tuples)

    current = tuple(start) if start is not None else tuple(rng.choice(list(v)) for v in spans)
    tried: dict = {}
    for step in range(budget):
        fit = evaluate(current, step)
        tried[current] = tried.get(current, 0) + 1
        for key in keys(current):
            cell = stats.setdefault(key, [0, 0.0])
            cell[0] += 1
            cell[1] += fit
        if step == budget - 1:
            break
        best, best_score = None, -math.inf
        for _ in range(neighbours):
            s = list(current)
            changed = False
            for i in range(d):
                if len(spans[i]) > 1 and rng.random() < 1 / d:
                    s[i] = rng.choice([v for v in spans[i] if v != current[i]])
                    changed = True
            if not changed:
                i = rng.choice([j for j in range(d) if len(spans[j]) > 1])
                s[i] = rng.choice([v for v in spans[i] if v != current[i]])
            got = score(tuple(s), k, step + 1)
            if got > best_score:
                best, best_score = tuple(s), got
        current = best
    recommended = max(tried, key=lambda s: (score(s, 0.0, budget), -list(tried).index(s)))
    return recommended, tried, budget


@dataclasses.dataclass
class ManyTuning:
    """What tune found over three or more numbers (NTBEA): the recommended setting, measured with the
    starting setting on the same seeds, and their paired difference."""

    game: str
    fields: tuple
    measure: str
    target: float
    answer: tuple
    value: float
    low: float
    high: float
    start: tuple
    start_value: tuple  # (value, low, high) of the starting setting
    diff: tuple  # (answer - start, low, high): paired, game by game
    settings_tried: int
    evaluations: int
    batch: int
    games: int
    seed: int
    table: Any  # DataFrame: the fields, evaluations (of `batch` games each) per setting tried

    def _setting(self, s) -> str:
        return ", ".join(f"{f} = {show_value(v)}" for f, v in zip(self.fields, s))

    @property
    def message(self) -> str:
        def f(x):
            return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3g}"

        d = self.diff
        verdict = ("nearer the target" if abs(self.value - self.target) < abs(self.start_value[0] - self.target)
                   else "no nearer the target")
        return "\n".join([
            f"{self._setting(self.answer)} brings {self.measure} to {f(self.value)} (95% CI {f(self.low)} to "
            f"{f(self.high)}; target {f(self.target)}; {self.games} games, seed {self.seed}).",
            f"  Against the start {self._setting(self.start)}: {f(self.start_value[0])} (95% CI "
            f"{f(self.start_value[1])} to {f(self.start_value[2])}); paired difference, game by game on the same "
            f"seeds, {f(d[0])} (95% CI {f(d[1])} to {f(d[2])}): {verdict}.",
            f"  Search: NTBEA (Lucas, Liu & Perez-Liebana 2018) tried {self.settings_tried} settings in "
            f"{self.evaluations} evaluations of {self.batch} games each (fresh seeds per evaluation); the "
            "recommendation is its model's best estimate, not every setting measured.",
        ])

    def __str__(self) -> str:
        return self.message

    def _repr_pretty_(self, p, cycle):
        p.text(str(self))

    def table_text(self) -> str:
        t = self.table.copy()
        for col in self.fields:
            t[col] = [show_value(v) for v in t[col]]
        return t.to_string(index=False)


def tune_many(pd, mod, config, fields: tuple, spans: list, label: str, fn, per_game, target: float, bots,
              games: int, seed: int, executor, progress: bool, workers, rotate: bool, design: bool,
              coupled: Callable[[str], list], budget: int | None = None) -> ManyTuning:
    """tune's three-or-more-numbers search (see the module docstring)."""
    def cfg(s):
        return config.with_values({f: v for field, v in zip(fields, s) for f in coupled(field)})

    start = tuple(config.get(coupled(f)[0]) for f in fields)
    batch = max(10, games // 10)
    budget = budget or min(100, 10 * len(fields) + 20)
    ok: dict = {}

    def allowed(s) -> bool:
        if s not in ok:
            try:
                cfg(s)
                ok[s] = True
            except ValueError:
                ok[s] = False
        return ok[s]

    def results(s, n, game_seed):
        c = cfg(s)
        job = Job(0, mod, c, lineup(mod, bots, c.players), game_seed, n, rotate, "games", design)
        out, interrupted = run([job], executor, workers, progress and n == games, f"{mod.TITLE} tune")
        if interrupted:
            raise KeyboardInterrupt
        return Results(mod, c, job.bots, game_seed, n, rotate, out[0])

    def evaluate(s, step) -> float:
        if not allowed(s):
            return -1e9  # a setting the rules refuse: never recommended
        v = float(fn(results(s, batch, derive(seed, "ntbea", step)))[0])  # fresh seeds: a new noisy sample
        return -abs(v - target) if math.isfinite(v) else -1e9

    first = start if all(v in span for v, span in zip(start, spans)) and allowed(start) else None
    answer, tried, steps = ntbea(spans, evaluate, budget, random.Random(derive(seed, "ntbea")), first)
    answer = answer if allowed(answer) else (first or answer)
    if not allowed(answer):
        raise ValueError("tune found no setting of " + ", ".join(fields) + " the rules allow")
    measured = {}
    for s in dict.fromkeys([answer, start]):
        res = results(s, games, seed)
        measured[s] = (tuple(float(x) for x in fn(res)), per_game(res).astype(float) if per_game else None)
    (value, low, high), series = measured[answer]
    start_value, base = measured[start]
    diff = paired_difference(series, base) if series is not None and base is not None else (math.nan,) * 3
    rows = [{**dict(zip(fields, s)), "evaluations": n, "allowed": ok.get(s, False)} for s, n in tried.items()]
    return ManyTuning(mod.NAME, fields, label, target, answer, value, low, high, start, start_value, diff,
                      len(tried), steps, batch, games, seed, pd.DataFrame(rows))


__all__ = ["ntbea", "tune_many", "ManyTuning", "K_EXPLORE", "NEIGHBOURS"]
