"""Bucket King 3D (Stefan Dorra): defend a pyramid of buckets with cards.

Each player builds a pyramid of coloured buckets. A round is a bidding
race in one colour: the start player leads 1-3 cards, and each next
player must push their own running total above the last announced sum
(1-3 more cards of that colour) or lose a bucket of that colour, and with
it every bucket resting on it. The loser starts the next round. The game
ends when a player has no buckets left; the most buckets wins.
Rules are numbered as in seeds/bucket_king.md (BK-1, ...).
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections import Counter
from dataclasses import dataclass, field, fields
from operator import attrgetter
from fractions import Fraction
from functools import lru_cache
from math import inf
from itertools import chain, combinations
from typing import Any, NamedTuple

from . import bots as _bots
from . import log as _log
from .chance import Chance, check_seed
from .config import Alias, RuleConfig, need, need_range, player_count_alias
from .core import MAX_STEPS, check_seat, own_config

NAME = "bucket-king"
TITLE = "Bucket King 3D"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
LARGE_GAME = 5  # BK-15: from 5 players an empty pyramid puts a player out instead of ending the game

# phases of a game
ARRANGE, DIRECTION, LEAD, FOLLOW, KEEP, OVER = "arrange", "direction", "lead", "follow", "keep", "over"
LEFT, RIGHT = "left", "right"
END_RULES = ("rulebook", "three-left", "first-out")
FALL_MODELS = ("exact", "poke")


class Card(NamedTuple):
    """A card: one of the colours (animals) and a value."""

    colour: str
    value: int

    def __str__(self) -> str:
        return f"{self.colour} {self.value}"


def _cards_text(cards) -> str:
    """"blue 3+5" for cards of one colour; "red 4, yellow 3" for mixed ones."""
    if len({c.colour for c in cards}) == 1:
        return f"{cards[0].colour} " + "+".join(str(c.value) for c in cards)
    return ", ".join(map(str, cards))


def _where(position) -> str:
    return f"row {position[0] + 1}, slot {position[1] + 1}"


class Place(NamedTuple):
    """Set-up: put a bucket of `colour` at `position` = (row, slot), row 0 the bottom."""

    position: tuple[int, int]
    colour: str

    def __str__(self) -> str:
        return f"put {self.colour} at {_where(self.position)}"


class Direction(NamedTuple):
    """The start player points left (to the next seat, clockwise) or right."""

    way: str

    def __str__(self) -> str:
        return f"play to the {self.way}"


class PlayCards(NamedTuple):
    """Cards of the required colour (sorted); Special One extras; a Backfiring discard."""

    cards: tuple[Card, ...]
    extras: tuple[Card, ...] = ()
    discard: Card | None = None

    def __str__(self) -> str:
        text = _cards_text(self.cards)
        if self.extras:
            text += " with " + ", ".join(map(str, self.extras))
        if self.discard is not None:
            text += f", discarding {self.discard} to reverse"
        return text

    @property
    def total(self) -> int:
        return sum(c.value for c in self.cards) + sum(c.value for c in self.extras)


class LoseBucket(NamedTuple):
    """Give up: take away the `colour` bucket at `position` (and what rests on it)."""

    position: tuple[int, int]
    colour: str

    def __str__(self) -> str:
        return f"lose {self.colour} at {_where(self.position)}"


class KeepPart(NamedTuple):
    """After a split, keep the part holding the bucket at `position` (`size` buckets)."""

    position: tuple[int, int]
    size: int

    def __str__(self) -> str:
        return f"keep the {self.size} bucket{'s' if self.size != 1 else ''} with {_where(self.position)}"


_DIRECTIONS = (Direction(LEFT), Direction(RIGHT))


@dataclass(frozen=True)
class Config(RuleConfig):
    """Every number of Bucket King 3D; defaults are the 3D rulebook's base game."""

    players: int = 4
    colours: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple")  # BK-1
    values: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8)
    copies: int = 2  # of each colour and value
    hand_size: int = 10  # BK-2
    draw_per_turn: int = 1  # BK-8
    max_cards: int = 3  # of the required colour per play (BK-6)
    buckets_per_colour: tuple[int, ...] = (3, 3, 3, 2, 2)  # for 2, 3, 4, 5, 6 players (BK-3)
    pyramid_rows: tuple[tuple[int, ...], ...] = (
        (5, 4, 3, 2, 1), (5, 4, 3, 2, 1), (5, 4, 3, 2, 1), (4, 3, 2, 1), (4, 3, 2, 1),
    )  # bottom row first, for 2..6 players (BK-3)
    fall_model: str = "exact"  # BK-10
    fall_probability: float = 0.5  # poke model only
    end_rule: str = "rulebook"  # BK-15
    special_one: bool = False  # BK-17
    special_one_max: int = 5  # cards in one turn with Special One
    backfiring_discard: bool = False  # BK-18
    multi_card_reverses: bool = False  # BK-19 (Kosmos 3D)

    def __post_init__(self):
        need_range(self, "players", MIN_PLAYERS, MAX_PLAYERS)
        need(1 <= len(self.colours) <= 8, "colours", self.colours, "1 to 8 colour names")
        need(
            len(set(self.colours)) == len(self.colours) and all(c and c.isidentifier() for c in self.colours),
            "colours", self.colours, "distinct single-word names",
        )
        need(
            1 <= len(self.values) <= 20 and all(1 <= v <= 99 for v in self.values)
            and list(self.values) == sorted(set(self.values)),
            "values", self.values, "1 to 20 distinct increasing card values, each 1 to 99",
        )
        need(1 <= self.copies <= 10, "copies", self.copies, "1 to 10 cards of each colour and value")
        size = self.deck_size
        need(
            1 <= self.hand_size and self.hand_size * self.players <= size,
            "hand_size", self.hand_size,
            f"1 to {size // self.players} cards for {self.players} players (the deck has {size} cards)",
        )
        need(0 <= self.draw_per_turn <= 10, "draw_per_turn", self.draw_per_turn, "0 to 10 cards")
        need(1 <= self.max_cards <= 10, "max_cards", self.max_cards, "1 to 10 cards")
        n = MAX_PLAYERS - MIN_PLAYERS + 1
        need(
            len(self.buckets_per_colour) == n and all(1 <= b <= 20 for b in self.buckets_per_colour),
            "buckets_per_colour", self.buckets_per_colour, f"{n} numbers (for 2..6 players), each 1 to 20",
        )
        need(
            len(self.pyramid_rows) == n
            and all(
                rows and 1 <= rows[0] <= 12 and all(b == a - 1 for a, b in zip(rows, rows[1:])) and rows[-1] >= 1
                for rows in self.pyramid_rows
            ),
            "pyramid_rows", self.pyramid_rows,
            f"{n} pyramids (for 2..6 players), each bottom row first, 1 to 12 buckets, "
            "every row one bucket shorter than the row below",
        )
        have = self.buckets_per_colour[self.players - MIN_PLAYERS] * len(self.colours)
        need(
            sum(self.rows) <= have,
            "pyramid_rows", self.pyramid_rows,
            f"a pyramid of at most {have} buckets for {self.players} players "
            f"({self.buckets_per_colour[self.players - MIN_PLAYERS]} per colour x {len(self.colours)} colours); "
            f"rows {'-'.join(map(str, self.rows))} need {sum(self.rows)}",
        )
        need(self.fall_model in FALL_MODELS, "fall_model", self.fall_model, " or ".join(FALL_MODELS))
        need(0.0 <= self.fall_probability <= 1.0, "fall_probability", self.fall_probability, "0 to 1")
        need(self.end_rule in END_RULES, "end_rule", self.end_rule, ", ".join(END_RULES))
        need(1 <= self.special_one_max <= 10, "special_one_max", self.special_one_max, "1 to 10 cards")
        if self.special_one:  # the turn limit only matters with the variant on
            need(
                self.max_cards <= self.special_one_max,
                "max_cards", self.max_cards, f"at most special_one_max ({self.special_one_max}) with Special One on",
            )

    @classmethod
    def presets(cls) -> dict[str, "Config"]:
        return {
            "base": cls(),
            "special-one": cls(special_one=True),
            "backfiring": cls(backfiring_discard=True),
            "both-variants": cls(special_one=True, backfiring_discard=True),
            "poke": cls(fall_model="poke", fall_probability=0.5),
            "kosmos-reverse": cls(multi_card_reverses=True),
            "two-players": cls(players=2),
            "six-players": cls(players=6),
            "six-three-left": cls(players=6, end_rule="three-left"),
        }

    @classmethod
    def aliases(cls) -> dict[str, Alias]:
        """Names a designer uses for numbers inside the per-player-count tables (BK-3)."""
        return {
            "buckets": player_count_alias("buckets_per_colour", MIN_PLAYERS, "buckets of each colour per player (BK-3)"),
            "pyramid_base": Alias(
                "the bottom row of the pyramid for the configured player count (BK-3); setting it builds "
                "a whole pyramid k, k-1, ..., 1",
                get=lambda c: c.pyramid_rows[c.players - MIN_PLAYERS][0],
                put=lambda c, k: {"pyramid_rows": _with_pyramid(c.pyramid_rows, c.players - MIN_PLAYERS, k)},
            ),
        }

    @property
    def deck_size(self) -> int:
        return len(self.colours) * len(self.values) * self.copies

    @property
    def rows(self) -> tuple[int, ...]:
        """Row lengths of each pyramid in this game, bottom row first."""
        return self.pyramid_rows[self.players - MIN_PLAYERS]

    @property
    def buckets_each(self) -> int:
        """Buckets of each colour a player gets (unused ones go back in the box)."""
        return self.buckets_per_colour[self.players - MIN_PLAYERS]

    def deck(self) -> list[Card]:
        """The whole deck, in a fixed order (BK-1)."""
        return [Card(c, v) for c in self.colours for v in self.values for _ in range(self.copies)]


# --- pyramid geometry -------------------------------------------------------
# A set of positions is a bitmask: bit k stands for flat index k (bottom row
# first, left to right). The pure helpers below are cached by (rows, mask,
# position): a game meets the same few hundred pyramids over and over.

# What each Config number means and the rule it comes from (seeds/bucket_king.md): one source
# for `meeple rules`, the Explorer and the docs (a test checks every field has one).
PARAMETERS = {
    "players":             ("players at the table, 2 to 6", "BK-2"),
    "colours":             ("the colours (animals) of cards and buckets", "BK-1"),
    "values":              ("card values in each colour", "BK-1"),
    "copies":              ("copies of each colour and value", "BK-1"),
    "hand_size":           ("cards dealt to each player", "BK-2"),
    "draw_per_turn":       ("cards drawn after each play", "BK-8"),
    "max_cards":           ("most cards of the required colour in one play", "BK-6, BK-7"),
    "buckets_per_colour":  ("buckets of each colour a player builds, for 2, 3, 4, 5, 6 players", "BK-3"),
    "pyramid_rows":        ("pyramid rows, bottom row first, for 2, 3, 4, 5, 6 players", "BK-3"),
    "fall_model":          ("what falls with a bucket taken away: exact (all it supports) or poke (by chance)", "BK-10, BK-11"),
    "fall_probability":    ("chance that a bucket which lost one support falls (poke model)", "BK-11"),
    "end_rule":            ("when the game ends: rulebook, three-left or first-out", "BK-15, BK-16"),
    "special_one":         ("variant Special One: each 1 allows an extra card of another colour", "BK-17"),
    "special_one_max":     ("most cards in one play under Special One", "BK-17"),
    "backfiring_discard":  ("variant Backfiring Discard: one more card discarded reverses the direction", "BK-18"),
    "multi_card_reverses": ("Kosmos 3D rule: beating the sum with two or more cards reverses the direction", "BK-19"),
}


class _Layout(NamedTuple):
    """Positions of a pyramid, flat-indexed bottom row first, left to right."""

    positions: tuple[tuple[int, int], ...]
    index: dict
    below: tuple[tuple[int, ...], ...]  # the (two) buckets each one rests on
    near: tuple[tuple[int, ...], ...]  # touching buckets: same-row neighbours, below, above
    below_mask: tuple[int, ...]  # `below` as bitmasks (0 on the bottom row)
    near_mask: tuple[int, ...]  # `near` as bitmasks
    full: int  # every position


def _mask(indices) -> int:
    m = 0
    for k in indices:
        m |= 1 << k
    return m


@lru_cache(maxsize=1 << 16)
def _indices(mask: int) -> tuple[int, ...]:
    """The flat indices in a bitmask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def _standing(pyramid: tuple) -> int:
    """Bitmask of the positions of a pyramid that still hold a bucket."""
    m = 0
    for k, c in enumerate(pyramid):
        if c is not None:
            m |= 1 << k
    return m


@lru_cache(maxsize=64)
def _layout(rows: tuple[int, ...]) -> _Layout:
    positions = tuple((r, i) for r, n in enumerate(rows) for i in range(n))
    index = {p: k for k, p in enumerate(positions)}
    below = tuple(() if r == 0 else (index[(r - 1, i)], index[(r - 1, i + 1)]) for r, i in positions)
    near = []
    for r, i in positions:
        cand = [(r, i - 1), (r, i + 1), (r - 1, i), (r - 1, i + 1), (r + 1, i - 1), (r + 1, i)]
        near.append(tuple(index[p] for p in cand if p in index))
    return _Layout(
        positions, index, below, tuple(near),
        tuple(map(_mask, below)), tuple(map(_mask, near)), (1 << len(positions)) - 1,
    )


@lru_cache(maxsize=1 << 16)
def _falls(rows: tuple[int, ...], standing: int, k: int) -> int:
    """BK-10 exact rule: bucket k and every bucket resting on a falling one,
    transitively, as a bitmask (`standing`: bitmask of the buckets there)."""
    below = _layout(rows).below_mask
    fall = 1 << k
    for j in range(k + 1, len(below)):
        if standing >> j & 1 and below[j] & fall:
            fall |= 1 << j
    return fall


def _poke_falls(present, k: int, lay: _Layout, p: float, chance: Chance) -> tuple[list[int], Chance]:
    """BK-11 poke model: a bucket that loses one of two supports falls with
    probability p; one with no support left falls for sure. Buckets are
    decided row by row upwards, left to right (so the chance stream is fixed)."""
    fall = {k}
    below = lay.below
    for j in range(k + 1, len(present)):
        b = below[j]
        if not present[j] or not b:
            continue
        lost = (b[0] in fall) + (b[1] in fall)
        if not lost:
            continue
        left = (present[b[0]] and b[0] not in fall) + (present[b[1]] and b[1] not in fall)
        if left == 0:
            fall.add(j)
        else:
            falls, chance = chance.happens(p)
            if falls:
                fall.add(j)
    return sorted(fall), chance


@lru_cache(maxsize=1 << 16)
def _parts(rows: tuple[int, ...], standing: int) -> tuple[int, ...]:
    """Connected parts of what stands (touching buckets) as bitmasks,
    the part holding the lowest index (leftmost-lowest) first."""
    near = _layout(rows).near_mask
    parts = []
    rest = standing
    while rest:
        part = edge = rest & -rest
        while edge:
            grow = 0
            for j in _indices(edge):
                grow |= near[j]
            edge = grow & standing & ~part
            part |= edge
        parts.append(part)
        rest &= ~part
    return tuple(parts)


def _geometry(rows, removed, position) -> tuple[_Layout, list[bool], int]:
    """Check the helpers' arguments; (layout, which positions stand, index of `position`)."""
    rows = tuple(rows)
    if not rows or any(b != a - 1 for a, b in zip(rows, rows[1:])) or rows[-1] < 1:
        raise ValueError(f"rows={rows} is not allowed: row lengths bottom first, each one shorter than the last")
    lay = _layout(rows)
    gone = set(map(tuple, removed))
    bad = gone - set(lay.index)
    if bad:
        raise ValueError(f"removed={sorted(bad)} is not allowed: positions of a {'-'.join(map(str, rows))} pyramid")
    position = tuple(position)
    if position not in lay.index or position in gone:
        raise ValueError(f"position={position} is not allowed: a bucket still standing in the pyramid")
    return lay, [q not in gone for q in lay.positions], lay.index[position]


def falling_buckets(rows, removed, position) -> set[tuple[int, int]]:
    """What leaves a pyramid when the bucket at `position` is taken away (exact rule, BK-10).

    `rows` are row lengths bottom first, e.g. (5, 4, 3, 2, 1); `removed` the
    positions already gone; a position is (row, slot), row 0 the bottom;
    bucket (r, i) rests on (r-1, i) and (r-1, i+1). The result includes
    `position` itself, so its size is the number of buckets lost (before
    any split of what is left, BK-12).
    """
    lay, present, k = _geometry(rows, removed, position)
    standing = _mask(j for j, here in enumerate(present) if here)
    return {lay.positions[j] for j in _indices(_falls(tuple(rows), standing, k))}


def fall_distribution(rows, removed, position, p) -> dict[int, Fraction]:
    """Exact distribution of the number of buckets lost under the poke model
    (BK-11) with probability `p` (a Fraction, or a float taken exactly), the
    bucket itself included, before any split: {count: probability}."""
    lay, present, k0 = _geometry(rows, removed, position)
    p = Fraction(p)
    if not 0 <= p <= 1:
        raise ValueError(f"p={p} is not allowed: a probability from 0 to 1")

    def walk(j, fall, weight, out):
        if not weight:
            return
        if j == len(present):
            out[len(fall)] = out.get(len(fall), 0) + weight
            return
        b = lay.below[j]
        if not present[j] or not b or not ((b[0] in fall) + (b[1] in fall)):
            return walk(j + 1, fall, weight, out)
        left = (present[b[0]] and b[0] not in fall) + (present[b[1]] and b[1] not in fall)
        if left == 0:
            return walk(j + 1, fall | {j}, weight, out)
        walk(j + 1, fall | {j}, weight * p, out)
        walk(j + 1, fall, weight * (1 - p), out)

    out: dict = {}
    walk(k0 + 1, frozenset({k0}), Fraction(1), out)
    return dict(sorted(out.items()))


# --- which plays exist ------------------------------------------------------

@lru_cache(maxsize=1 << 14)
def _plain_plays(same: tuple[Card, ...], most: int) -> tuple[tuple[PlayCards, int], ...]:
    """Each distinct play of 1 to `most` of the cards `same` (all of one colour,
    sorted, so the plays come out sorted; two blue 3s are one play) with its
    total, fewer cards first (BK-6)."""
    out, seen = [], set()
    for k in range(1, min(most, len(same)) + 1):
        for combo in combinations(same, k):
            if combo not in seen:
                seen.add(combo)
                out.append((PlayCards(combo), sum(c.value for c in combo)))
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def _plain_only(same: tuple[Card, ...], most: int) -> tuple[PlayCards, ...]:
    """The plays of _plain_plays without their totals (a lead: any of them, BK-6)."""
    return tuple(play for play, _ in _plain_plays(same, most))


@lru_cache(maxsize=1 << 15)
def _beating(same: tuple[Card, ...], most: int, need_more: int) -> tuple[PlayCards, ...]:
    """The plays of _plain_plays, in its order, whose total is above `need_more` (BK-7)."""
    return tuple(play for play, total in _plain_plays(same, most) if total > need_more)


def _of_colour(hand: tuple[Card, ...], colour: str) -> tuple[Card, ...]:
    """The cards of `colour` in a sorted hand: one run of it, as cards sort by colour first."""
    return hand[bisect_left(hand, (colour,)) : bisect_left(hand, (colour, inf))]


def _plays(hand, colour: str, cfg: Config, same=None) -> list[tuple[PlayCards, int]] | tuple[tuple[PlayCards, int], ...]:
    """Every distinct play a player may put down in `colour`, with its total (BK-6, BK-17).

    `hand` is sorted; `same`: its cards of `colour`, if the caller has them.
    With Special One, each play holding 1s is followed by the same play with
    each distinct set of extra cards of other colours.
    """
    if same is None:
        same = tuple(c for c in hand if c.colour == colour)
    plain = _plain_plays(same, cfg.max_cards)
    if not cfg.special_one:
        return plain
    out = []
    for play, total in plain:
        out.append((play, total))
        cards = play.cards
        room = min(sum(1 for c in cards if c.value == 1), cfg.special_one_max - len(cards))
        if room > 0:
            others = [c for c in hand if c.colour != colour]
            extra_seen = set()
            for j in range(1, min(room, len(others)) + 1):
                for extra in combinations(others, j):
                    if extra not in extra_seen:
                        extra_seen.add(extra)
                        out.append((PlayCards(cards, extra), total + sum(c.value for c in extra)))
    return out


def can_beat(hand, colour: str, to_beat: int, already_played=(), config: Config | None = None) -> bool:
    """Can a player holding `hand` push their running total above `to_beat` in `colour`?

    `already_played`: the cards already in front of the player this round
    (or their sum). Uses the same play list as the game (BK-6, BK-17).
    """
    cfg = Config() if config is None else config
    base = already_played if isinstance(already_played, int) else sum(c.value for c in already_played)
    hand = tuple(sorted(Card(*c) for c in hand))
    need_more = to_beat - base
    return any(total > need_more for _, total in _plays(hand, colour, cfg))


# --- how many moves a state can offer (the OpenSpiel wrapper's action count) ----

def _sub_multisets(counts: tuple[int, ...], most: int) -> int:
    """Distinct non-empty plays of at most `most` cards from cards with these copies per value."""
    poly = [1] + [0] * most  # poly[k]: sub-multisets of k cards, truncated at `most`
    for c in counts:
        poly = [sum(poly[k - j] for j in range(min(c, k) + 1)) for k in range(most + 1)]
    return sum(poly[1:])


@lru_cache(maxsize=4096)
def _most_plays(values: int, copies: int, n: int, most: int) -> int:
    """The most distinct plays (BK-6) n cards of one colour allow: theirs when spread as evenly as
    possible over the values. Evening out two counts a > b + 1 adds x^(b+1) + ... + x^(a-1) to
    the product of (1 + x + ... + x^count) over the values, so no coefficient ever drops."""
    n = min(n, values * copies)
    q, r = divmod(n, values) if values else (0, 0)
    return _sub_multisets((q + 1,) * r + (q,) * (values - r), most)


def _most_in_hand(colours: int, values: int, copies: int, hand: int, most: int) -> int:
    """The most plays of every colour together (a lead) a hand of at most `hand` cards allows:
    the best split of the hand over the colours (they are alike, but _most_plays need not be
    concave in n, so a knapsack over the colours)."""
    full = values * copies
    if hand >= colours * full:
        return colours * _most_plays(values, copies, full, most)
    best = [0] * (hand + 1)
    for _ in range(colours):
        best = [max(best[h - j] + _most_plays(values, copies, j, most) for j in range(min(h, full) + 1))
                for h in range(hand + 1)]
    return best[hand]


def most_cards_in_hand(config: Config) -> int:
    """The most cards one hand can hold: the deal when a play draws at most one card (every play
    puts down at least one card and draws draw_per_turn, plus one per Special One extra it put
    down: BK-8, BK-17), else the whole deck (a hand grows by draw_per_turn - 1 a play)."""
    return config.hand_size if config.draw_per_turn <= 1 else config.deck_size


def action_bound(config: Config) -> int:
    """The most legal actions any state of a game with this Config can offer.

    Plain rules (neither Special One nor Backfiring Discard): exact over every hand of at most
    most_cards_in_hand cards and every pyramid, i.e. the largest of a lead's plays over all
    colours (BK-6), a follow's plays that beat a sum (a running total above it needs more
    than 0 more, so only a lone 1 can fall short) plus its buckets to lose (BK-9), the set-up's
    colours, the two directions, and a split's parts or a no-card lead's buckets (at most the
    pyramid). With either variant, a sound upper bound: each plain play times its Special One
    extras (any play of other colours' cards within special_one_max) and its Backfiring
    discards (one of each value of the colour)."""
    cfg = own_config(Config, config, NAME)
    colours, values, copies, most = len(cfg.colours), len(cfg.values), cfg.copies, cfg.max_cards
    hand, size, each = most_cards_in_hand(cfg), sum(cfg.rows), cfg.buckets_each
    lead = _most_in_hand(colours, values, copies, hand, most)
    one = _most_plays(values, copies, hand, most)
    if 1 in cfg.values:  # a follow's plays: a lone 1 need not beat the sum; or no 1s held
        one = max(one - 1, _most_plays(values - 1, copies, hand, most) if values > 1 else 0)
    lose = max(min(each, size), min(size, each * (colours - 1)))  # of the colour, or any if none is
    if cfg.special_one:
        extras = 1 + _most_plays(colours * values, copies, hand, cfg.special_one_max - 1)
        lead, one = lead * extras, _most_plays(values, copies, hand, most) * extras
    if cfg.backfiring_discard:
        one *= 1 + values
    return max(colours, len(_DIRECTIONS), size, lead, one + lose)


def _with_pyramid(pyramids: tuple, k: int, base: int) -> tuple:
    """pyramid_rows with the pyramid for player-count index k rebuilt as base, base-1, ..., 1."""
    if isinstance(base, bool) or not isinstance(base, int) or base < 1:
        raise ValueError(f"pyramid_base={base!r} is not allowed: a bottom row of 1 to 12 buckets")
    return pyramids[:k] + (tuple(range(base, 0, -1)),) + pyramids[k + 1:]


# --- state ------------------------------------------------------------------

@dataclass(slots=True)
class State:
    """The whole game at one moment, hidden hands and the draw pile's order included."""

    config: Config
    chance: Chance
    phase: str
    round: int
    start_player: int
    current_player: int | None
    direction: int  # +1: left (next seat), -1: right; 0 before it is chosen
    hands: tuple[tuple[Card, ...], ...]
    draw: tuple[Card, ...]  # the next card drawn is the last
    discard: tuple[Card, ...]
    fronts: tuple[tuple[Card, ...], ...]  # cards in front of each player this round
    colour: str | None  # the required colour of this round
    to_beat: int  # the last announced sum
    attacker: int | None  # who announced it
    pyramids: tuple[tuple[str | None, ...], ...]  # colour per position (None: empty / gone)
    buckets: tuple[int, ...]  # buckets each player has left
    out: tuple[bool, ...]
    parts: tuple[tuple[int, ...], ...]  # KEEP phase: the parts the loser chooses from
    lost_now: int  # buckets the loser has lost so far this round
    history: tuple[tuple[int, ...], ...]  # buckets each seat lost in each finished round
    falls: tuple[tuple[int, int], ...]  # each finished round's loser: (fell with the chosen bucket, lost in a split)
    is_over: bool = False
    # The event log, shared with the states before and after this one (rules/log.py): O(1) appends;
    # None in simulate's own states and in sampled worlds, where nobody reads it.
    _events: list | None = field(default_factory=list, compare=False, repr=False)
    _n_events: int = field(default=0, compare=False, repr=False)
    # Called with the state at the end of every turn (new_game's `turn_end`; simulate counts turns with it).
    _turn_end: Any = field(default=None, compare=False, repr=False)
    # Set-up only: buckets of each colour (Config order) the player building now has still to
    # place (BK-3, BK-4), so that a move need not count their pyramid; None: count it.
    _supply: tuple[int, ...] | None = field(default=None, compare=False, repr=False)

    events = _log.events_property()

    def __eq__(self, other):
        if other.__class__ is not State:
            return NotImplemented
        return _compared(self) == _compared(other) and self.events == other.events

    def _copy(self) -> "State":
        """A shallow copy (every field is immutable); spelled out because it is the hot path."""
        new = State.__new__(State)
        new.config = self.config
        new.chance = self.chance
        new.phase = self.phase
        new.round = self.round
        new.start_player = self.start_player
        new.current_player = self.current_player
        new.direction = self.direction
        new.hands = self.hands
        new.draw = self.draw
        new.discard = self.discard
        new.fronts = self.fronts
        new.colour = self.colour
        new.to_beat = self.to_beat
        new.attacker = self.attacker
        new.pyramids = self.pyramids
        new.buckets = self.buckets
        new.out = self.out
        new.parts = self.parts
        new.lost_now = self.lost_now
        new.history = self.history
        new.falls = self.falls
        new.is_over = self.is_over
        new._events = self._events
        new._n_events = self._n_events
        new._turn_end = self._turn_end
        new._supply = self._supply
        return new


_compared = attrgetter(*(f.name for f in fields(State) if f.compare))
_value = attrgetter("value")  # of a Card


class Observation(NamedTuple):
    """What one seat may see: its own hand and everything on the table.

    Immutable (a NamedTuple: cheap to build on every step). The discard
    pile is public: every card in it was played face up (or shown when a
    player went out) - we assume players remember it.
    """

    player: int
    config: Config
    phase: str
    round: int
    start_player: int
    current_player: int | None
    direction: int
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    draw_count: int
    discard: tuple[Card, ...]
    fronts: tuple[tuple[Card, ...], ...]
    colour: str | None
    to_beat: int
    attacker: int | None
    pyramids: tuple[tuple[str | None, ...], ...]
    buckets: tuple[int, ...]
    out: tuple[bool, ...]
    parts: tuple[tuple[int, ...], ...]
    lost_now: int
    history: tuple[tuple[int, ...], ...]
    falls: tuple[tuple[int, int], ...]
    is_over: bool


def _seat(p: int) -> str:
    return f"Player {p + 1}"


def _active(state) -> int:
    return state.config.players - sum(state.out)


def _next(state, p: int, d: int) -> int:
    """The next player still in, from seat p in direction d (+1 left, -1 right)."""
    n = state.config.players
    q = (p + d) % n
    while state.out[q]:
        q = (q + d) % n
    return q


def new_game(config: Config | None = None, seed: int = 0, chance: Chance | None = None, events: bool = True,
             turn_end=None) -> State:
    """Shuffle, deal (BK-2) and start the set-up of the pyramids (BK-4); `events=False`
    keeps no event text (simulate's own states, never shown). `turn_end(state)` is
    called at the end of every turn (see _turn_over)."""
    cfg = own_config(Config, config, NAME)
    deck, chance = (Chance(check_seed(seed)) if chance is None else chance).shuffled(_fixed(cfg).deck)
    n, h = cfg.players, cfg.hand_size
    hands = tuple(tuple(sorted(deck[i * h : (i + 1) * h])) for i in range(n))
    size = sum(cfg.rows)
    state = State(
        config=cfg,
        chance=chance,
        phase=ARRANGE,
        round=0,
        start_player=0,
        current_player=0,
        direction=0,
        hands=hands,
        draw=tuple(deck[n * h :]),
        discard=(),
        fronts=((),) * n,
        colour=None,
        to_beat=0,
        attacker=None,
        pyramids=((None,) * size,) * n,
        buckets=(size,) * n,
        out=(False,) * n,
        parts=(),
        lost_now=0,
        history=(),
        falls=(),
        _events=[] if events else None,
        _turn_end=turn_end,
        _supply=_fixed(cfg).supply,
    )
    _log.say(state, _deals_text, h, len(state.draw), cfg.rows)
    return state


# --- legal actions ----------------------------------------------------------

class _Fixed(NamedTuple):
    """What a game's Config fixes, worked out once per Config: the pyramid's
    layout, every Place action by position, and the numbers every move reads."""

    config: Config
    rows: tuple[int, ...]
    layout: _Layout
    places: tuple[tuple[Place, ...], ...]  # every Place action, by flat position, in colour order
    each: int  # buckets of each colour a player builds (BK-3)
    most: int  # most cards of the required colour in one play (BK-6)
    plain: bool  # plays are cards of one colour only: neither Special One nor Backfiring Discard
    exact: bool  # the exact fall rule (BK-10), not the poke model
    deck: tuple[Card, ...]  # Config.deck(), in its fixed order
    supply: tuple[int, ...]  # buckets of each colour a player starts to build with
    offers: dict  # set-up: a builder's supply -> the Place actions open to them (see _offer)
    spent: dict  # set-up: (supply, colour placed) -> the supply left


# id(config) -> its _Fixed. The entry holds the config, so while it is there no other
# object can have that id: a hit is always this very config.
_FIXED: dict[int, _Fixed] = {}


def _fixed(cfg: Config) -> _Fixed:
    """The _Fixed of a Config (hot paths inline its first line: `_FIXED.get(id(cfg)) or _fixed(cfg)`)."""
    fx = _FIXED.get(id(cfg))
    if fx is None:
        if len(_FIXED) >= 256:  # many configs (a sweep): start afresh rather than grow
            _FIXED.clear()
        rows = cfg.rows
        fx = _FIXED[id(cfg)] = _Fixed(
            cfg, rows, _layout(rows), _places(rows, cfg.colours), cfg.buckets_each, cfg.max_cards,
            not cfg.special_one and not cfg.backfiring_discard, cfg.fall_model == "exact", tuple(cfg.deck()),
            (cfg.buckets_each,) * len(cfg.colours), {}, {},
        )
    return fx


def _place_options(state: State, p: int) -> list[Place]:
    """Set-up (BK-4): the next empty position, in each colour player p still has buckets of."""
    fx = _fixed(state.config)
    return list(_offer(fx, state._supply or _supply_of(fx, state.pyramids[p])))


def _supply_of(fx: _Fixed, pyramid: tuple) -> tuple[int, ...]:
    """Buckets of each colour still to place while building `pyramid` (BK-3)."""
    return tuple(fx.each - pyramid.count(c) for c in fx.config.colours)


def _offer(fx: _Fixed, supply: tuple[int, ...]) -> tuple[Place, ...]:
    """The Place actions of a builder with this supply: the next position (the pyramid fills
    in flat order, one bucket per move, so it is the number placed so far), in each colour
    left. Remembered per Config: a game meets a few hundred supplies."""
    offer = fx.offers.get(supply)
    if offer is None:
        if len(fx.offers) >= 4096:
            fx.offers.clear()
        k = sum(fx.supply) - sum(supply)
        offer = fx.offers[supply] = tuple(a for a, left in zip(fx.places[k], supply) if left)
    return offer


def _spend(fx: _Fixed, supply: tuple[int, ...], colour: str) -> tuple[int, ...]:
    """The supply left after placing a bucket of `colour`."""
    left = fx.spent.get((supply, colour))
    if left is None:
        if len(fx.spent) >= 4096:
            fx.spent.clear()
        i = fx.config.colours.index(colour)
        left = fx.spent[supply, colour] = supply[:i] + (supply[i] - 1,) + supply[i + 1 :]
    return left


@lru_cache(maxsize=64)
def _places(rows: tuple[int, ...], colours: tuple[str, ...]) -> tuple[tuple[Place, ...], ...]:
    """Every Place action, by flat position, in colour order."""
    return tuple(tuple(Place(at, c) for c in colours) for at in _layout(rows).positions)


def _lose_options(state: State, p: int) -> tuple[LoseBucket, ...]:
    """BK-9: a bucket of the required colour; any bucket if none of it is left."""
    return _lose_choices(_fixed(state.config).rows, state.pyramids[p], state.colour)


@lru_cache(maxsize=1 << 14)
def _lose_choices(rows: tuple[int, ...], pyramid: tuple, colour: str | None) -> tuple[LoseBucket, ...]:
    positions = _layout(rows).positions
    mine = [k for k, c in enumerate(pyramid) if c is not None and c == colour]
    if not mine:
        mine = [k for k, c in enumerate(pyramid) if c is not None]
    return tuple(LoseBucket(positions[k], pyramid[k]) for k in mine)


def legal_actions(state: State) -> list:
    if state.is_over:
        return []
    phase = state.phase
    p = state.current_player
    fx = _FIXED.get(id(state.config)) or _fixed(state.config)
    if phase == ARRANGE:
        supply = state._supply or _supply_of(fx, state.pyramids[p])
        return list(fx.offers.get(supply) or _offer(fx, supply))
    if phase == DIRECTION:
        return list(_DIRECTIONS)
    if phase == KEEP:
        positions = fx.layout.positions
        return [KeepPart(positions[part[0]], len(part)) for part in state.parts]
    hand = state.hands[p]
    if phase == LEAD:
        if not hand:
            return list(_lose_choices(fx.rows, state.pyramids[p], state.colour))  # BK-20: nothing to lead with
        out = []
        start = 0
        while start < len(hand):  # colour by colour, in the hand's (sorted) order
            colour = hand[start].colour
            stop = bisect_left(hand, (colour, inf), start)
            if fx.plain:
                out += _plain_only(hand[start:stop], fx.most)
            else:
                out += [play for play, _ in _plays(hand, colour, fx.config, hand[start:stop])]
            start = stop
        return out
    # FOLLOW
    colour = state.colour
    need_more = state.to_beat - sum(map(_value, state.fronts[p]))
    loses = _lose_choices(fx.rows, state.pyramids[p], colour)
    if fx.plain:
        return [*_beating(_of_colour(hand, colour), fx.most, need_more), *loses]
    cfg = fx.config
    out = []
    backfire = cfg.backfiring_discard and _active(state) > 2
    for play, total in _plays(hand, colour, cfg):
        if total > need_more:
            out.append(play)
            if backfire:
                rest = list(hand)
                for c in play.cards:
                    rest.remove(c)
                for d in dict.fromkeys(c for c in rest if c.colour == colour):
                    out.append(PlayCards(play.cards, play.extras, d))
    out += loses
    return out


# --- apply ------------------------------------------------------------------

def _illegal(state: State, action, why: str = "") -> ValueError:
    shown = ", ".join(map(str, legal_actions(state)[:12]))
    return ValueError(
        f"{action!r} is not legal for {_seat(state.current_player)} now"
        + (f" ({why})" if why else "") + f"; legal: {shown} ..."
    )


def _play_problem(state: State, a: PlayCards) -> str:
    """Why `a` is not a legal play here ('' if it is): BK-5, BK-6, BK-17, BK-18."""
    cfg = state.config
    p = state.current_player
    cards, extras = a.cards, a.extras
    if not isinstance(cards, tuple) or not isinstance(extras, tuple) or not cards:
        return "cards must be a non-empty tuple"
    if not all(type(c) is Card for c in cards + extras) or not (a.discard is None or type(a.discard) is Card):
        return "cards must be Card values"
    if list(cards) != sorted(cards) or list(extras) != sorted(extras):
        return "cards must be listed in sorted order"
    colour = cards[0].colour if state.phase == LEAD else state.colour
    if any(c.colour != colour for c in cards):
        return f"every card must be {colour}"
    if len(cards) > cfg.max_cards:
        return f"at most {cfg.max_cards} cards of the colour"
    if extras:
        if not cfg.special_one:
            return "extra cards need the Special One variant"
        if len(extras) > sum(1 for c in cards if c.value == 1) or len(cards) + len(extras) > cfg.special_one_max:
            return "one extra card per 1 played, within the Special One limit"
        if any(c.colour == colour for c in extras):
            return f"extra cards must be of another colour than {colour}"
    if a.discard is not None:
        if not cfg.backfiring_discard or state.phase == LEAD or _active(state) <= 2:
            return "a backfiring discard needs the variant, an attack and more than two players"
        if a.discard.colour != colour:
            return f"the backfiring discard must be {colour}"
    rest = list(state.hands[p])
    for c in cards + extras + ((a.discard,) if a.discard is not None else ()):
        if c not in rest:
            return "those cards are not in the hand"
        rest.remove(c)
    if state.phase == FOLLOW and sum(c.value for c in state.fronts[p]) + a.total <= state.to_beat:
        return f"the running total must beat {state.to_beat}"
    return ""


def apply(state: State, action) -> State:
    """One decision, checked; a copy of `state` with `step` done on it (`state` never changes)."""
    if state.is_over:
        raise ValueError("the game is over; no more actions")
    phase = state.phase
    p = state.current_player
    if phase == ARRANGE:
        if type(action) is not Place or action not in _place_options(state, p):
            raise _illegal(state, action)
    elif phase == DIRECTION:
        if type(action) is not Direction or action.way not in (LEFT, RIGHT):
            raise _illegal(state, action)
    elif phase == KEEP:
        if type(action) is not KeepPart or action not in legal_actions(state):
            raise _illegal(state, action)
    elif type(action) is LoseBucket:
        if phase == LEAD and state.hands[p]:
            raise _illegal(state, action, "the start player must lead while holding cards")
        if action not in _lose_options(state, p):
            raise _illegal(state, action)
    elif type(action) is PlayCards:
        why = _play_problem(state, action)
        if why:
            raise _illegal(state, action, why)
    else:
        raise _illegal(state, action)
    s = state._copy()
    step(s, action)
    return s


def step(s: State, action) -> None:
    """Play a legal `action` on `s` in place: apply's work without the copy and
    without checking the action (simulate's own states, whose actions come from
    legal_actions). Everything else holds a state only through apply."""
    phase = s.phase
    p = s.current_player
    if phase == ARRANGE:
        _place(s, p, action)
    elif phase == DIRECTION:
        _direction(s, p, action.way)
    elif phase == KEEP:
        _keep(s, p, action)
    elif type(action) is LoseBucket:
        _lose(s, p, action)
    else:
        _play(s, p, action)


def _turn_over(s: State) -> None:
    """A player's turn is over: building their whole pyramid (BK-4, one turn each, in seat
    order), a lead with its choice of direction (BK-5, BK-6), a play (BK-7), or losing
    buckets with the part kept (BK-9 to BK-12, BK-20); the next turn has not begun.
    A player who is out has no turns (BK-16)."""
    if s._turn_end is not None:
        s._turn_end(s)


# The event sentences. Each step logs (sentence, its values); the text is made only when
# someone reads state.events (rules/log.py), never in simulate's quiet states.

def _deals_text(hand_size: int, draw: int, rows: tuple[int, ...]) -> str:
    return (f"Each player is dealt {hand_size} cards ({draw} in the draw pile) and builds a pyramid of "
            f"{sum(rows)} buckets (rows {'-'.join(map(str, rows))}), bottom row first.")


def _places_text(p: int, a: Place) -> str:
    return f"{_seat(p)} puts a {a.colour} bucket at {_where(a.position)}."


def _starts_text(round_: int, starter: int, chooses: bool) -> str:
    return f"Round {round_ + 1}: {_seat(starter)} starts" + (" and chooses the direction." if chooses else ".")


def _points_text(p: int, way: str, next_: int) -> str:
    return f"{_seat(p)} points {way}: {_seat(next_)} plays next."


def _reshuffle_text(cards: int) -> str:
    return f"The draw pile is empty: the discard pile ({cards} cards) is shuffled into a new one."


def _plays_text(p: int, a: PlayCards, lead: bool, total: int, colour: str, got: int, want: int) -> str:
    drew = f"draws {got} card{'s' if got != 1 else ''}" + (" (both piles are empty)" if got < want else "")
    verb = f"leads {a}" if lead else f"plays {a}"
    return f"{_seat(p)} {verb}: {total} in {colour} in front of them; {drew}."


def _reverses_text(direction: int) -> str:
    return f"The direction reverses: play goes {'left' if direction == 1 else 'right'} now."


def _loses_text(p: int, a: LoseBucket, colour: str | None, to_beat: int, more: int) -> str:
    why = f"cannot or will not beat {to_beat} in {colour}" if colour else "has no card to lead with"
    if colour and a.colour != colour:
        why += f" (no {colour} bucket left)"
    return (f"{_seat(p)} {why} and loses the {a.colour} bucket at {_where(a.position)}"
            + (f"; {more} more fall{'s' if more == 1 else ''}." if more else "."))


def _splits_text(p: int, parts: tuple) -> str:
    return (f"{_seat(p)}'s pyramid is split into {len(parts)} parts ("
            + ", ".join(str(len(x)) for x in parts) + " buckets): only one may stay.")


def _keeps_text(p: int, size: int, gone: int) -> str:
    return f"{_seat(p)} keeps {size} bucket{'s' if size != 1 else ''} and loses {gone} more."


def _round_ends_text(round_: int, loser: int, lost: int, left: int) -> str:
    return f"Round {round_ + 1} ends: {_seat(loser)} lost {lost} bucket{'s' if lost != 1 else ''} ({left} left)."


def _out_text(p: int) -> str:
    return f"{_seat(p)} has no buckets left and is out; their cards go to the discard pile."


def _game_over_text(w: list, best: int) -> str:
    return ("Game over: " + " and ".join(_seat(i) for i in w)
            + (" share the win" if len(w) > 1 else " wins") + f" with {best} bucket{'s' if best != 1 else ''} left.")


def _place(s: State, p: int, a: Place) -> None:
    """BK-4: the pyramid is built bucket by bucket, bottom-left to top."""
    fx = _FIXED.get(id(s.config)) or _fixed(s.config)
    k = fx.layout.index[a.position]
    pyr = s.pyramids[p]
    supply = s._supply or _supply_of(fx, pyr)
    pyr = pyr[:k] + (a.colour,) + pyr[k + 1 :]
    s.pyramids = s.pyramids[:p] + (pyr,) + s.pyramids[p + 1 :]
    _log.say(s, _places_text, p, a)
    if k + 1 < len(pyr):  # built in flat order: the top bucket is the last
        s._supply = fx.spent.get((supply, a.colour)) or _spend(fx, supply, a.colour)
        return
    _turn_over(s)
    if p + 1 < s.config.players:
        s.current_player = p + 1
        s._supply = fx.supply
    else:
        s._supply = None
        _start_round(s, 0)


def _start_round(s: State, starter: int) -> None:
    """BK-5: the start player points left or right (no choice with two players in)."""
    s.start_player = starter
    s.current_player = starter
    s.colour, s.to_beat, s.attacker, s.lost_now = None, 0, None, 0
    s.fronts = ((),) * s.config.players
    if _active(s) == 2:
        s.direction = 1
        s.phase = LEAD
        _log.say(s, _starts_text, s.round, starter, False)
    else:
        s.direction = 0
        s.phase = DIRECTION
        _log.say(s, _starts_text, s.round, starter, True)


def _direction(s: State, p: int, way: str) -> None:
    s.direction = 1 if way == LEFT else -1
    s.phase = LEAD
    _log.say(s, _points_text, p, way, _next(s, p, s.direction))


def _draw(s: State, hand: list, k: int) -> int:
    """Draw k cards into the sorted `hand` (BK-8), reshuffling the discard pile when the draw pile is out
    (BK-2); with both piles empty nothing is drawn (BK-21). Returns how many were drawn."""
    got = 0
    draw = s.draw
    for _ in range(k):
        if not draw:
            if not s.discard:
                break
            draw, s.chance = s.chance.shuffled(s.discard)
            draw = tuple(draw)
            _log.say(s, _reshuffle_text, len(s.discard))
            s.discard = ()
        insort(hand, draw[-1])  # hands stay sorted
        draw = draw[:-1]
        got += 1
    s.draw = draw
    return got


def _play(s: State, p: int, a: PlayCards) -> None:
    """BK-6 to BK-8, BK-17 to BK-19: put cards down, announce the total, draw."""
    cfg = s.config
    hand = list(s.hands[p])
    for c in a.cards:
        hand.remove(c)
    for c in a.extras:
        hand.remove(c)
    if a.discard is not None:
        hand.remove(a.discard)
        s.discard = s.discard + (a.discard,)
    front = s.fronts[p] + a.cards + a.extras
    s.fronts = s.fronts[:p] + (front,) + s.fronts[p + 1 :]
    total = sum(map(_value, front))
    lead = s.phase == LEAD
    if lead:
        s.colour = a.cards[0].colour
    s.to_beat, s.attacker = total, p
    want = cfg.draw_per_turn + len(a.extras)
    got = _draw(s, hand, want)
    s.hands = s.hands[:p] + (tuple(hand),) + s.hands[p + 1 :]
    _log.say(s, _plays_text, p, a, lead, total, s.colour, got, want)
    reverse = not lead and (a.discard is not None or (cfg.multi_card_reverses and len(a.cards) + len(a.extras) >= 2))
    if reverse and _active(s) > 2:
        s.direction = -s.direction
        _log.say(s, _reverses_text, s.direction)
    s.phase = FOLLOW
    _turn_over(s)
    s.current_player = _next(s, p, s.direction)


def _lose(s: State, p: int, a: LoseBucket) -> None:
    """BK-9 to BK-12: take the bucket away; what rested on it falls; a split pyramid keeps one part."""
    cfg = s.config
    fx = _fixed(cfg)
    rows = fx.rows
    lay = fx.layout
    pyr = s.pyramids[p]
    k = lay.index[a.position]
    if fx.exact:
        standing = _standing(pyr)
        fall_mask = _falls(rows, standing, k)
        fall = _indices(fall_mask)
        standing &= ~fall_mask
    else:
        fall, s.chance = _poke_falls([c is not None for c in pyr], k, lay, cfg.fall_probability, s.chance)
        standing = _standing(pyr) & ~_mask(fall)
    new = list(pyr)
    for j in fall:
        new[j] = None
    _log.say(s, _loses_text, p, a, s.colour, s.to_beat, len(fall) - 1)
    s.pyramids = s.pyramids[:p] + (tuple(new),) + s.pyramids[p + 1 :]
    s.buckets = s.buckets[:p] + (s.buckets[p] - len(fall),) + s.buckets[p + 1 :]
    s.lost_now = len(fall)
    parts = _parts(rows, standing)
    if len(parts) > 1:
        s.parts = tuple(map(_indices, parts))
        s.phase = KEEP
        _log.say(s, _splits_text, p, s.parts)
        return
    _end_round(s, p)


def _keep(s: State, p: int, a: KeepPart) -> None:
    """BK-12: the other parts of a split pyramid are lost."""
    keep = _fixed(s.config).layout.index[a.position]
    new = list(s.pyramids[p])
    gone = 0
    for part in s.parts:
        if keep not in part:
            for j in part:
                new[j] = None
                gone += 1
    s.pyramids = s.pyramids[:p] + (tuple(new),) + s.pyramids[p + 1 :]
    s.buckets = s.buckets[:p] + (s.buckets[p] - gone,) + s.buckets[p + 1 :]
    s.lost_now = s.lost_now + gone
    s.parts = ()
    _log.say(s, _keeps_text, p, a.size, gone)
    _end_round(s, p, split=gone)


def _end_round(s: State, loser: int, split: int = 0) -> None:
    """BK-13 to BK-16: played cards to the discard pile; the loser starts; eliminations; game end.
    `split`: buckets the loser lost in a split (BK-12); the rest fell with the chosen one."""
    cfg = s.config
    n = cfg.players
    lost = [0] * n
    lost[loser] = s.lost_now
    s.history += (tuple(lost),)
    s.falls += ((s.lost_now - 1 - split, split),)
    s.discard += tuple(chain.from_iterable(s.fronts))
    s.fronts = ((),) * n
    _log.say(s, _round_ends_text, s.round, loser, s.lost_now, s.buckets[loser])
    _turn_over(s)  # losing ends the loser's turn and the round
    s.round += 1
    starter = loser
    if s.buckets[loser] == 0:
        if n < LARGE_GAME or cfg.end_rule == "first-out":
            _game_over(s)
            return
        s.out = s.out[:loser] + (True,) + s.out[loser + 1 :]
        s.discard += s.hands[loser]
        s.hands = s.hands[:loser] + ((),) + s.hands[loser + 1 :]
        _log.say(s, _out_text, loser)
        left = n - sum(s.out)
        if (cfg.end_rule == "rulebook" and sum(s.out) >= 2) or (cfg.end_rule == "three-left" and left <= 3):
            _game_over(s)
            return
        starter = _next(s, loser, s.direction or 1)  # BK-16: beside the loser, not the attacker
    _start_round(s, starter)


def _game_over(s: State) -> None:
    s.is_over = True
    s.phase = OVER
    s.current_player = None
    s.parts = ()
    w = winners(s)
    _log.say(s, _game_over_text, tuple(w), s.buckets[w[0]])


# --- scores -----------------------------------------------------------------

def scores(state: State) -> list[int]:
    """Buckets each player has left (BK-14)."""
    return list(state.buckets)


def round_scores(state: State) -> list[list[int]]:
    """What each finished round did to each score: minus the buckets lost."""
    return [[-x for x in r] for r in state.history]


def winners(state: State) -> list[int]:
    """Most buckets left; ties share the win (BK-14)."""
    if not state.is_over:
        return []
    best = max(state.buckets)
    return [i for i, b in enumerate(state.buckets) if b == best]


# --- simulation hooks (see meeple.rules.simulate) -----------------------------

# What each column of game_stats / score_sources (points_<source>) counts, and the rule it
# follows: `meeple simulate --measure`, the summary and the Explorer show these words.
MEASURES = {
    "splits":              "rounds in which this seat's pyramid split into parts (BK-12)",
    "biggest_loss":        "most buckets this seat lost in one round (BK-9 to BK-12)",
    "emptied":             "1 if this seat's pyramid ended empty (BK-15, BK-16)",
    "players_out":         "players whose pyramid ended empty (BK-16)",
    "lost_per_round":      "buckets lost per round: how hard the fall model hits (BK-10, BK-11)",
    "points_built":        "buckets in the pyramid this seat built (BK-3)",
    "points_lost_chosen":  "buckets this seat chose to take away, one per round lost; negative (BK-9)",
    "points_lost_falling": "buckets that fell with those taken away; negative (BK-10, BK-11)",
    "points_lost_split":   "buckets lost when the pyramid split; negative (BK-12)",
}


def score_sources(state: State) -> list[dict[str, int]]:
    """Each seat's score (buckets left, BK-14) as the pyramid it built minus
    what it lost, by cause: the bucket it chose each round it lost (BK-9), the
    buckets that fell with it (BK-10/BK-11), and the parts lost to a split
    (BK-12). The lost_* parts are negative; all four add up to the score."""
    size = sum(state.config.rows)
    out = [{"built": size, "lost_chosen": 0, "lost_falling": 0, "lost_split": 0} for _ in range(state.config.players)]
    for lost, (fell, split) in zip(state.history, state.falls):
        d = out[lost.index(max(lost))]  # the round's loser
        d["lost_chosen"] -= 1
        d["lost_falling"] -= fell
        d["lost_split"] -= split
    return out


def game_stats(state: State) -> dict:
    """Extra columns for simulations, per seat: how often the pyramid split
    (BK-12), the most buckets lost in one round, 1 if the pyramid ended empty;
    for the game: players with an empty pyramid at the end, and the mean
    buckets lost per round (how hard the fall model hits). Rounds lost and
    buckets lost by cause are the score_sources columns."""
    n = state.config.players
    splits, biggest = [0] * n, [0] * n
    for lost, (_, split) in zip(state.history, state.falls):
        loss = max(lost)
        seat = lost.index(loss)
        splits[seat] += int(split > 0)
        biggest[seat] = max(biggest[seat], loss)
    rounds = len(state.history)
    return {
        "splits": splits,
        "biggest_loss": biggest,
        "emptied": [int(b == 0) for b in state.buckets],
        "players_out": sum(b == 0 for b in state.buckets),
        "lost_per_round": sum(map(max, state.history)) / rounds if rounds else 0.0,
    }


# Rule usage (issue 25): per game, how often each number of the rules could matter, so a
# comparison can say when a changed number was never used. Counted from what simulate
# keeps of a game (game_stats, turns, rounds): the games play as before. An upper bound
# where the exact occasion is not kept ("could matter" never undercounts).
ALWAYS_APPLIES = {
    "players": "the seats, the pyramids and the deal (BK-2, BK-3)",
    "colours": "the deck and the pyramids' buckets (BK-1, BK-3)",
    "values": "the deck (BK-1)",
    "copies": "the deck (BK-1)",
    "hand_size": "the deal (BK-2)",
    "draw_per_turn": "the draw after every play (BK-8)",
    "max_cards": "every play's choice of cards (BK-6)",
    "fall_model": "what falls in every round lost (BK-10, BK-11)",
    "end_rule": "when the game ends (BK-15)",
}
USAGE = {
    "buckets_per_colour": "games dealt with this entry (the one for the player count, BK-3)",
    "pyramid_rows": "games built with this entry (the one for the player count, BK-3)",
    "fall_probability": "rounds lost under the poke fall model (BK-10)",
    "special_one": "turns played (BK-17: any play may hold a 1; an upper bound)",
    "special_one_max": "turns played with Special One on (BK-17; an upper bound)",
    "backfiring_discard": "turns played with three or more players (BK-18: a discard may reverse; an upper bound)",
    "multi_card_reverses": "turns played (BK-19: a play of two or more cards may reverse; an upper bound)",
}


def rule_usage(config: Config, game) -> dict[str, int]:
    """For one simulated game (`game.stats`, `game.turns`, `game.rounds`): how often each USAGE number could matter."""
    here, turns = config.players - MIN_PLAYERS, game.turns
    return {
        **{f"buckets_per_colour[{i}]": int(i == here) for i in range(len(config.buckets_per_colour))},
        **{f"pyramid_rows[{i}]": int(i == here) for i in range(len(config.pyramid_rows))},
        "fall_probability": game.rounds if config.fall_model == "poke" else 0,
        "special_one": turns,
        "special_one_max": turns if config.special_one else 0,
        "backfiring_discard": turns if config.players > 2 else 0,
        "multi_card_reverses": turns,
    }


def observation(state: State, player: int) -> Observation:
    s, player = state, check_seat(state.config, player)
    return _new_tuple(Observation, (  # in the order of Observation's fields (built on every step)
        player, s.config, s.phase, s.round, s.start_player, s.current_player, s.direction,
        s.hands[player], tuple(map(len, s.hands)), len(s.draw), s.discard, s.fronts,
        s.colour, s.to_beat, s.attacker, s.pyramids, s.buckets, s.out, s.parts,
        s.lost_now, s.history, s.falls, s.is_over,
    ))


_new_tuple = tuple.__new__  # what Observation(...) calls, without its keyword handling


def determinize(obs: Observation, rng: random.Random) -> State:
    """A full state consistent with `obs`: the unseen cards dealt at random to
    the other hands and the draw pile; future chance reseeded from `rng`."""
    cfg = obs.config
    hands, rest = _bots.deal_unseen(cfg.deck(), (obs.hand, obs.discard, *obs.fronts), obs.hand_counts, obs.player,
                                    obs.hand, rng)
    return State(
        config=cfg,
        chance=Chance(rng.getrandbits(63)),
        phase=obs.phase,
        round=obs.round,
        start_player=obs.start_player,
        current_player=obs.current_player,
        direction=obs.direction,
        hands=hands,
        draw=tuple(rest),
        discard=obs.discard,
        fronts=obs.fronts,
        colour=obs.colour,
        to_beat=obs.to_beat,
        attacker=obs.attacker,
        pyramids=obs.pyramids,
        buckets=obs.buckets,
        out=obs.out,
        parts=obs.parts,
        lost_now=obs.lost_now,
        history=obs.history,
        falls=obs.falls,
        is_over=obs.is_over,
        _events=None,  # a sampled world: nobody reads its events
    )


def check_state(state: State) -> None:
    """Cards are conserved (hands + draw + discard + fronts = the deck) and buckets add up."""
    cfg = state.config
    cards = Counter(state.draw) + Counter(state.discard)
    for h in state.hands:
        cards += Counter(h)
    for f in state.fronts:
        cards += Counter(f)
    assert cards == Counter(cfg.deck()), "cards not conserved"
    assert all(h == tuple(sorted(h)) for h in state.hands), "hands must stay sorted"
    if state.phase == ARRANGE and state._supply is not None:
        fx = _fixed(cfg)
        assert state._supply == _supply_of(fx, state.pyramids[state.current_player]), "set-up supply differs from the pyramid"
    size = sum(cfg.rows)
    for p, pyr in enumerate(state.pyramids):
        assert len(pyr) == size
        for c in cfg.colours:
            assert pyr.count(c) <= cfg.buckets_each, "more buckets of a colour than a player has"
        lost = sum(r[p] for r in state.history) + (state.lost_now if state.phase == KEEP and p == state.current_player else 0)
        assert state.buckets[p] == size - lost, "bucket count differs from the losses"
        if state.phase != ARRANGE:
            assert size - pyr.count(None) == state.buckets[p], "bucket count differs from the pyramid"
            if not state.is_over and state.phase != KEEP and state.buckets[p]:
                assert len(_parts(cfg.rows, _standing(pyr))) == 1, "pyramid in pieces"
        if state.out[p]:
            assert state.buckets[p] == 0 and not state.hands[p] and not state.fronts[p]
    assert sum(state.out) <= cfg.players - 2 or state.is_over
    assert len(state.falls) == len(state.history), "one (fell, split) entry per finished round"
    for lost, (fell, split) in zip(state.history, state.falls):
        assert fell >= 0 and split >= 0 and max(lost) == 1 + fell + split, "a round's loss = chosen + fell + split"


# --- bots -------------------------------------------------------------------

CARD_WORTH = 3.0  # what holding a card is worth beyond its value
BUCKET_WORTH = 12.0  # a bucket against card worth: give up a top bucket rather than spend a strong hand


@lru_cache(maxsize=1 << 16)
def _damage(rows: tuple[int, ...], standing: int, k: int) -> int:
    """Buckets lost by taking away bucket k (exact rule, keeping the larger part)."""
    fall = _falls(rows, standing, k)
    parts = _parts(rows, standing & ~fall)
    lost = fall.bit_count()
    if len(parts) > 1:
        sizes = [part.bit_count() for part in parts]
        lost += sum(sizes) - max(sizes)
    return lost


@lru_cache(maxsize=64)
def _setup_order(rows: tuple[int, ...]) -> tuple[int, ...]:
    """Positions from the costliest loss in a full pyramid to the cheapest (ties: lower index first)."""
    full = _layout(rows).full
    return tuple(sorted(range(full.bit_length()), key=lambda k: (-_damage(rows, full, k), k)))


def _strengths(hand) -> dict[str, float]:
    """How strong the hand is in each colour it holds, Σ(value + CARD_WORTH),
    colours in the order they first appear in the hand."""
    out: dict[str, float] = {}
    for colour, value in hand:
        out[colour] = out.get(colour, 0) + (value + CARD_WORTH)
    return out


@lru_cache(maxsize=1 << 12)
def _setup_plan(rows: tuple[int, ...], colours: tuple[str, ...], each: int, hand) -> tuple[frozenset[str], ...]:
    """Heuristic set-up: strong colours where a loss would hurt most (BK-4 tips).
    For each flat position, the colour planned there and every colour as strong
    (the plan ranks ties by colour order; any of them fills the same block of
    positions). A player's hand does not change while they build."""
    strength = _strengths(hand)
    ranked = sorted(colours, key=lambda c: -strength.get(c, 0))  # stable: ties keep the colour order
    plan = [""] * len(_layout(rows).positions)
    for rank, k in enumerate(_setup_order(rows)):  # the costliest position to lose first
        plan[k] = ranked[rank // each]  # each colour fills `each` positions in turn
    return tuple(frozenset(c for c in colours if strength.get(c, 0) == strength.get(want, 0)) for want in plan)


def _play_cost(a: PlayCards, draws: int) -> float:
    spent = a.cards + a.extras + ((a.discard,) if a.discard is not None else ())
    return sum(c.value + CARD_WORTH for c in spent) - draws * (4.5 + CARD_WORTH)


@lru_cache(maxsize=1 << 14)
def _play_key(a: PlayCards, draws: int) -> tuple[float, int]:
    """The heuristic's order of plays: the cheapest (drawing `draws` cards after it), then the lowest total."""
    return _play_cost(a, draws + len(a.extras)), a.total


def _best_loss(obs: Observation, legal, rng: random.Random | None = None) -> tuple[LoseBucket | None, int]:
    """The bucket whose loss costs fewest buckets, the highest row among equals;
    still tied, `rng` picks (None: the first)."""
    losses = tuple(a for a in legal if type(a) is LoseBucket)
    if not losses:
        return None, 0
    best, damage = _least_damage(_fixed(obs.config).rows, obs.pyramids[obs.player], losses)
    return _pick(best, rng), damage


@lru_cache(maxsize=1 << 14)
def _least_damage(rows: tuple[int, ...], pyramid: tuple, losses: tuple[LoseBucket, ...]) -> tuple[tuple, int]:
    """Of `losses` (not none), those costing fewest buckets, the highest row among equals; and that cost."""
    index = _layout(rows).index
    standing = _standing(pyramid)
    best, key = [], None
    for a in losses:
        k = (_damage(rows, standing, index[a.position]), -a.position[0])
        if key is None or k < key:
            best, key = [a], k
        elif k == key:
            best.append(a)
    return tuple(best), key[0]


def _neighbour(out: tuple[bool, ...], me: int, d: int, n: int) -> int:
    """The next seat still in from `me` in direction d (+1 or -1)."""
    q = (me + d) % n
    while out[q]:
        q = (q + d) % n
    return q


_LAST_PLAN: list = [None, None, ()]  # (_Fixed, hand, its _setup_plan) of the last set-up move


def _plan_for(fx: _Fixed, hand: tuple) -> tuple[frozenset[str], ...]:
    """_setup_plan for this hand: a player places all their buckets from one hand (the very
    same tuple), so the last plan is kept by identity rather than hashed again each move."""
    last = _LAST_PLAN
    if last[1] is hand and last[0] is fx:
        return last[2]
    plan = _setup_plan(fx.rows, fx.config.colours, fx.each, hand)
    last[:] = fx, hand, plan
    return plan


def _pick(tied: list, rng: random.Random | None):
    """One of equally good actions: the bot's rng decides, never the listing order."""
    if len(tied) == 1 or rng is None:
        return tied[0]
    return tied[rng.randrange(len(tied))]


def heuristic_bot(obs: Observation, legal: list, rng: random.Random):
    """The rulebook's tips as greedy rules: strong colours low in the pyramid,
    defend with the cheapest play, give up a top bucket rather than spend a
    strong hand, lead the highest card of the strongest colour towards the
    neighbour with more buckets, keep the larger part."""
    first = legal[0]
    if type(first) is Place or type(first) is Direction or type(first) is KeepPart:
        return _arrange_point_keep(obs, obs.player, obs.hand, legal, rng)
    if obs.phase == LEAD and obs.hand:
        return _lead(obs.hand, rng)
    plays = [a for a in legal if type(a) is PlayCards and a.discard is None]
    losses = tuple(a for a in legal if type(a) is LoseBucket)
    chosen = _defend(_fixed(obs.config), obs.pyramids[obs.player], obs.buckets[obs.player], losses,
                     plays, None, rng)
    return legal[0] if chosen is None else chosen


# The heuristic's parts. Each reads only what its seat may see: its own hand, and the table
# (`view`: an Observation, or simulate's own State read for seat `me` by play_core).

def _arrange_point_keep(view, me: int, hand: tuple, legal: list, rng: random.Random):
    """Set-up (BK-4 tips), the direction (BK-5) and the part kept (BK-12)."""
    first = legal[0]
    if type(first) is Place:
        fx = _fixed(view.config)
        fits = _plan_for(fx, hand)[fx.layout.index[first.position]]
        return _pick([a for a in legal if a.colour in fits] or [first], rng)
    if type(first) is Direction:
        n, out = view.config.players, view.out
        right, left = view.buckets[_neighbour(out, me, 1, n)], view.buckets[_neighbour(out, me, -1, n)]
        return _pick(list(legal), rng) if right == left else legal[0] if right > left else legal[1]
    most = max(a.size for a in legal)
    return _pick([a for a in legal if a.size == most], rng)


def _lead(hand: tuple, rng: random.Random) -> PlayCards:
    """The highest card of the strongest colour: always a legal lead (BK-6)."""
    strength = _strengths(hand)
    top = max(strength.values())
    colour = _pick([c for c, v in strength.items() if v == top], rng)
    return PlayCards((_of_colour(hand, colour)[-1],))


def _defend(fx: _Fixed, pyramid: tuple, mine: int, losses: tuple, plays, cheapest, rng: random.Random):
    """Beat the sum with the cheapest play, or lose the bucket that costs fewest buckets, whichever
    costs less (a play if a loss would empty the pyramid). `plays`: the plays without a discard, in
    legal order; `cheapest`: _cheapest(plays, draws) if the caller has it. None: neither is legal."""
    if losses:
        best, dmg = _least_damage(fx.rows, pyramid, losses)
        loss = _pick(best, rng)
    else:
        loss, dmg = None, 0
    if not plays:
        return loss
    tied, cost = cheapest or _cheapest(plays, fx.config.draw_per_turn)
    chosen = _pick(tied, rng)
    if dmg >= mine or cost < BUCKET_WORTH * dmg:
        return chosen
    return loss


def _cheapest(plays, draws: int) -> tuple[list, float]:
    """The plays of lowest _play_key, in their order, and that cost."""
    keys = [_play_key(a, draws) for a in plays]
    low = min(keys)
    return [a for a, k in zip(plays, keys) if k == low], low[0]


@lru_cache(maxsize=1 << 15)
def _cheapest_beating(same: tuple[Card, ...], most: int, need_more: int, draws: int) -> tuple[list, float] | None:
    """_cheapest of _beating(same, most, need_more) (a plain follow's plays), remembered."""
    plays = _beating(same, most, need_more)
    return _cheapest(plays, draws) if plays else None


def play_core(config, game_seed: int, seat_funcs, rngs, checked, seat_names, leader):
    """simulate's engine hook (contract: simulate.play_game) for seats of the random and the heuristic
    bot: the game in place on one State, no observation built, and no list of legal moves where the
    heuristic does not need one (its lead; a plain follow reads the cached plays of its colour).
    None for any other bot."""
    heuristic, random_bot = heuristic_bot, _bots.random_bot
    kinds = []
    for f in seat_funcs:
        if f is not heuristic and f is not random_bot:
            return None
        kinds.append(f is heuristic)
    leaders = []
    note = leaders.append
    shown = [None, None]  # the buckets last seen (the same tuple until someone loses) and their leader

    def turn_end(st) -> None:  # simulate's progress: scores, the buckets left
        if st.buckets is not shown[0]:
            shown[0], shown[1] = st.buckets, leader(list(st.buckets))
        note(shown[1])

    s = new_game(config, game_seed, events=False, turn_end=turn_end)
    fx = _fixed(s.config)
    plain, most, draws, rows = fx.plain, fx.most, s.config.draw_per_turn, fx.rows
    actions = 0
    while not s.is_over:
        if actions >= MAX_STEPS:
            raise RuntimeError(f"{NAME} did not end within {MAX_STEPS} actions")
        p = s.current_player
        phase = s.phase
        if not kinds[p]:
            action = random_bot(None, legal_actions(s), rngs[p])
        elif phase == LEAD and s.hands[p]:
            action = _lead(s.hands[p], rngs[p])
        elif phase == FOLLOW and plain:
            same = _of_colour(s.hands[p], s.colour)
            need_more = s.to_beat - sum(map(_value, s.fronts[p]))
            cheapest = _cheapest_beating(same, most, need_more, draws)
            action = _defend(fx, s.pyramids[p], s.buckets[p], _lose_choices(rows, s.pyramids[p], s.colour),
                             cheapest and cheapest[0], cheapest, rngs[p])
        else:
            legal = legal_actions(s)
            if phase == LEAD or phase == FOLLOW:
                action = heuristic_bot(observation(s, p), legal, rngs[p])
            else:
                action = _arrange_point_keep(s, p, s.hands[p], legal, rngs[p])
        step(s, action)
        actions += 1
    return s, leaders, actions


def _hand_worth(hand) -> float:
    return sum(c.value + CARD_WORTH for c in hand)


def _candidates(obs: Observation, legal: list, width: int) -> list:
    """A few sensible actions to compare: the heuristic's, the best loss, the cheapest plays."""
    plays = [a for a in legal if type(a) is PlayCards]
    draws = obs.config.draw_per_turn
    plays.sort(key=lambda a: (_play_cost(a, draws + len(a.extras)) - (a.total if obs.phase == LEAD else 0), a.total))
    out = plays[:width]
    loss, _ = _best_loss(obs, legal)
    if loss is not None:
        out.append(loss)
    h = heuristic_bot(obs, legal, random.Random(0))
    if h not in out:
        out.append(h)
    if obs.config.backfiring_discard:
        back = [a for a in legal if type(a) is PlayCards and a.discard is not None]
        back.sort(key=lambda a: _play_cost(a, draws + len(a.extras)))
        out += back[:2]
    return out


def _evaluate(state: State, me: int) -> float:
    """Bucket lead over the best other player, plus a little for the cards in hand."""
    b = state.buckets
    best_other = max(v for i, v in enumerate(b) if i != me)
    hands = state.hands
    others = [_hand_worth(h) for i, h in enumerate(hands) if i != me and not state.out[i]]
    mean_other = sum(others) / len(others) if others else 0.0
    return (b[me] - best_other) + (_hand_worth(hands[me]) - mean_other) / BUCKET_WORTH


def make_lookahead(samples: int = 12, width: int = 4, rounds: int = 1, name: str = "lookahead"):
    """Determinised Monte Carlo over a few candidate actions: each sampled
    world (unseen cards dealt at random) is played on by heuristic bots to
    the end of `rounds` rounds and scored by `_evaluate`; the same worlds
    and rollout randomness serve every candidate (common random numbers).
    Set-up, direction and split choices are left to the heuristic."""

    def bot(obs: Observation, legal: list, rng: random.Random):
        if len(legal) == 1 or type(legal[0]) in (Place, Direction, KeepPart):
            return heuristic_bot(obs, legal, rng)
        cands = _candidates(obs, legal, width)
        if len(cands) == 1:
            return cands[0]
        totals = [0.0] * len(cands)
        me = obs.player
        for _ in range(samples):
            world = determinize(obs, rng)
            roll_seed = rng.getrandbits(63)
            for i, a in enumerate(cands):
                s = apply(world, a)
                r = random.Random(roll_seed)
                stop = world.round + rounds  # from the round before the trial move: a move that ends it is judged there too
                while not s.is_over and s.round < stop:
                    p = s.current_player
                    s = apply(s, heuristic_bot(observation(s, p), legal_actions(s), r))
                totals[i] += _evaluate(s, me)
        return cands[totals.index(max(totals))]

    bot.__name__ = name
    return bot


BOTS = {
    "random": _bots.random_bot,
    "heuristic": heuristic_bot,
    "lookahead": make_lookahead(),
}
