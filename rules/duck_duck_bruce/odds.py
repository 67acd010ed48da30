"""Duck, Duck, Bruce's exact maths (Fractions; the lessons and tests use them): a nest's score (DDB-10),
the chance the next flip busts, a steal's expected cards, the values of stopping and flipping, `best_stop`.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Iterable

from ..config import need
from .cards import PENALTY_FACE, Bruce, Card, Config, Duck, deck_counts


def nest_score(cards: Iterable[Card]) -> int:
    """DDB-10: the highest number of each suit present, summed (Bruce cards score nothing)."""
    best: dict[str, int] = {}
    get = best.get
    for c in cards:
        if type(c) is Duck:
            suit, n = c
            if n > get(suit, 0):
                best[suit] = n
    return sum(best.values())


def nest_points(nest: tuple[Duck, ...], taken: tuple[int, ...]) -> tuple[int, int]:
    """(nest_score of the nest, nest_score of its cards not at the `taken` positions)."""
    if not taken:
        total = sum(best_by_suit(nest).values())  # nest_score: a nest holds only ducks
        return total, total
    skip = set(taken)
    best: dict[str, int] = {}  # best_by_suit of the nest, and of the cards not taken, in one pass
    own: dict[str, int] = {}
    get, get_own = best.get, own.get
    for i, (suit, n) in enumerate(nest):
        if n > get(suit, 0):
            best[suit] = n
        if n > get_own(suit, 0) and i not in skip:
            own[suit] = n
    return sum(best.values()), sum(own.values())


def best_by_suit(nest) -> dict[str, int]:
    """{suit: its highest duck's number}, for ducks only (nest_score without the Bruce check)."""
    best: dict[str, int] = {}
    get = best.get
    for suit, n in nest:
        if n > get(suit, 0):
            best[suit] = n
    return best


def bust_probability(row: Iterable[Duck], remaining: Iterable[Card]) -> Fraction:
    """The exact chance that the next flip ends the turn (DDB-5, DDB-6).

    `remaining` is the multiset of cards still face down (order unknown, so
    each is equally likely to come next); the flip busts on a Bruce or on a
    duck whose suit is already in `row`.
    """
    suits = {c.suit for c in row}
    remaining = list(remaining)
    if not remaining:
        raise ValueError("no cards remain to flip, so there is no next flip")
    busts = sum(1 for c in remaining if type(c) is Bruce or c.suit in suits)
    return Fraction(busts, len(remaining))


def steal_expectation(declared: int, config: Config | None = None) -> Fraction:
    """Expected net cards the thief gains by declaring `declared` (DDB-7, DDB-8).

    Both nests are assumed large enough: a roll >= declared gains `declared`
    cards, a -1 loses one card (to the opponent or the discard pile), any
    other roll changes nothing.
    """
    config = Config() if config is None else config
    need(
        type(declared) is int and config.min_steal <= declared <= config.max_steal,
        "declared", declared, f"{config.min_steal} to {config.max_steal} cards",
    )
    die = config.die
    wins = sum(1 for f in die if f >= declared)
    losses = sum(1 for f in die if f == PENALTY_FACE)
    return Fraction(wins * declared - losses, len(die))


def flip_values(row, remaining, nest=(), depth: int = 1, exact: bool = True):
    """(nest score if the player stops now, expected nest score if they flip),
    exact over the unseen `remaining` cards (each equally likely to come next).

    After the flip the player may flip again up to `depth` flips in all,
    choosing each time whichever is better in expectation, and then stops;
    depth=1 is "one more flip, then stop". A Bruce counts as losing the row
    (the steal attempt after it depends on the other nests and is not
    valued here); a double keeps the cards before the first matching duck
    (DDB-5); a fresh duck as the last card is taken (DDB-9).
    `exact=False` returns floats (same recursion, faster, for bots).
    """
    return expected_values(row, remaining, nest, depth, Fraction if exact else float, 0)


def expected_values(row, remaining, nest, depth, total, tempo):
    need(type(depth) is int and depth >= 1, "depth", depth, "1 or more flips")
    row = tuple(row)
    if len({c.suit for c in row if type(c) is Duck}) != len(row):
        raise ValueError("a row holds ducks of different suits only")
    best = best_by_suit(nest)
    n = bruces = 0
    counts: dict[str, dict[int, int]] = {}  # suit -> {what a duck would add to the nest: cards}
    for c in remaining:
        n += 1
        if type(c) is Bruce:
            bruces += 1
        else:
            groups = counts.setdefault(c.suit, {})
            g = c.number - best.get(c.suit, 0)
            g = g if g > 0 else 0
            groups[g] = groups.get(g, 0) + 1
    if n == 0:
        raise ValueError("no cards remain to flip, so there is no next flip")
    base = sum(best.values())
    gains = [max(0, c.number - best.get(c.suit, 0)) for c in row]
    flip = _flip_value([c.suit for c in row], gains, counts, bruces, n, depth, total, total(tempo))
    return total(base + sum(gains)), base + flip


def _flip_value(suits, gains, counts, bruces, n, depth, total, tempo):
    """Expected gain over the nest of flipping now (see flip_values); `counts`
    maps suit -> {gain: cards left}, and is restored before returning. Every
    flip adds `tempo` (a bot's value for playing a card of the pile itself)."""
    acc = 0  # exact integer sum of count x value for the terminal outcomes
    kept = 0
    prefix = {}
    for s, g in zip(suits, gains):
        prefix[s] = kept
        kept += g
    later = total(0)
    for s, groups in counts.items():
        if s in prefix:  # a double: the cards before the first match are kept
            acc += sum(groups.values()) * prefix[s]
            continue
        for g, k in list(groups.items()):
            if not k:
                continue
            here = kept + g
            if depth == 1 or n == 1:
                acc += k * here  # stop after this flip (or it was the last card: taken)
                continue
            groups[g] = k - 1
            suits.append(s)
            gains.append(g)
            again = _flip_value(suits, gains, counts, bruces, n - 1, depth - 1, total, tempo)
            suits.pop()
            gains.pop()
            groups[g] = k
            later += k * max(total(here), again)
    # bruces add nothing: the row is lost
    return (total(acc) + later) / n + tempo


def best_stop(row, remaining, config: Config | None = None, nest=()) -> bool:
    """True when stopping now is at least as good, in expected nest score, as
    one more flip (then stopping), computed exactly over the unseen cards.

    `config` names the deck the cards must come from (checked); ties favour
    stopping, which carries no risk.
    """
    config = Config() if config is None else config
    remaining = tuple(remaining)
    row, nest = tuple(row), tuple(nest)
    deck = deck_counts(config.suits, config.numbers, config.bruce_cards)
    used = Counter(remaining) + Counter(row) + Counter(nest)
    extra = [str(c) for c, k in used.items() if k > deck[c]]
    if extra:
        raise ValueError(f"cards not in this config's deck (or too many of them): {', '.join(extra)}")
    stop, flip = flip_values(row, remaining, nest)
    return stop >= flip
