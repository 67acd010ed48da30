"""The Piggyback Brigade's exact dice maths (Fractions; the lessons and tests use them): how far one
piglet moves in a turn (`exact_turn_distance`), a turn's mean, the chance one roll crosses a distance.
"""

from __future__ import annotations

from fractions import Fraction

from .cards import IF_LAST, YES, Config

EXACT_REROLL_BOUND = 20  # exact_turn_distance's cap when the rules set none


class TurnDistance(dict):
    """{distance: Fraction} with `max_rerolls` (the cap used) and `capped`
    (the probability that the piglet was stopped by the cap, not by the die)."""

    max_rerolls: int
    capped: Fraction

    def mean(self) -> Fraction:
        return sum((d * p for d, p in self.items()), Fraction(0))


def exact_turn_distance(config: Config, from_last: bool, max_rerolls: int | None = None) -> TurnDistance:
    """Exact distribution of how far one piglet moves in a turn when it rerolls
    whenever allowed, ignoring other piglets and the finish.

    `from_last` says whether the piglet counts as last before every roll
    (so "if-last" faces allow a reroll) or never. The number of rerolls is
    bounded so the answer is finite: by `max_rerolls` if given, else by the
    config's `max_rerolls`, else by EXACT_REROLL_BOUND (20); the smaller
    bound wins when both are set. The distribution is truncated there: the
    piglet stops after that many rerolls, exactly as in a game with that
    `max_rerolls`; `.capped` is the probability that the cap stopped it.
    """
    bounds = [b for b in (max_rerolls, config.max_rerolls) if b is not None]
    bound = min(bounds) if bounds else EXACT_REROLL_BOUND
    if type(bound) is not int or bound < 0:
        raise ValueError(f"max_rerolls must be a whole number >= 0, got {max_rerolls!r}")
    n = len(config.faces)
    each = Fraction(1, n)
    goes_on = [r == YES or (r == IF_LAST and from_last) for r in config.rerolls]
    dist = {0: Fraction(1)}  # rerolls left 0: the last roll, then stop
    for _ in range(bound + 1):  # build from the last allowed roll backwards
        nxt: dict[int, Fraction] = {}
        for v, more in zip(config.faces, goes_on):
            if more:
                for d, p in dist.items():
                    nxt[v + d] = nxt.get(v + d, 0) + each * p
            else:
                nxt[v] = nxt.get(v, 0) + each
        dist = nxt
    out = TurnDistance(sorted(dist.items()))
    out.max_rerolls = bound
    out.capped = Fraction(sum(goes_on), n) ** (bound + 1)
    return out


_MEANS: dict[Config, float] = {}


def turn_mean_of(cfg: Config) -> float:
    """Expected distance of a turn that always rerolls (piglet not last): what a reroll is worth."""
    m = _MEANS.get(cfg)
    if m is None:
        m = _MEANS[cfg] = float(exact_turn_distance(cfg, False, 12).mean())
    return m


def finish_chance(cfg: Config, distance: int) -> float:
    """Chance that one roll moves at least `distance` spaces."""
    return sum(1 for v in cfg.faces if v >= distance) / len(cfg.faces)
