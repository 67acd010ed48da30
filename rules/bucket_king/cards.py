"""Bucket King 3D's cards, actions and Config (BK-1 to BK-3, BK-17 to BK-19), and which plays a hand
allows (BK-6, BK-7, BK-17): the part of the rules every other module of the game reads.

`action_bound` (the OpenSpiel wrapper's action count) is here too: it counts plays.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import inf
from operator import attrgetter
from typing import NamedTuple

from ..config import Alias, RuleConfig, need, need_range, need_seats, player_count_alias, seat_values
from ..protocol import resolve_config


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


card_value = attrgetter("value")
"""A card's value (the hot paths' `sum(map(card_value, cards))`)."""


def _cards_text(cards) -> str:
    """"blue 3+5" for cards of one colour; "red 4, yellow 3" for mixed ones."""
    if len({c.colour for c in cards}) == 1:
        return f"{cards[0].colour} " + "+".join(str(c.value) for c in cards)
    return ", ".join(map(str, cards))


def where_text(position) -> str:
    return f"row {position[0] + 1}, slot {position[1] + 1}"


class Place(NamedTuple):
    """Set-up: put a bucket of `colour` at `position` = (row, slot), row 0 the bottom."""

    position: tuple[int, int]
    colour: str

    def __str__(self) -> str:
        return f"put {self.colour} at {where_text(self.position)}"


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
        return f"lose {self.colour} at {where_text(self.position)}"


class KeepPart(NamedTuple):
    """After a split, keep the part holding the bucket at `position` (`size` buckets)."""

    position: tuple[int, int]
    size: int

    def __str__(self) -> str:
        return f"keep the {self.size} bucket{'s' if self.size != 1 else ''} with {where_text(self.position)}"


DIRECTIONS = (Direction(LEFT), Direction(RIGHT))


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
    seat_cards: tuple[int, ...] = ()  # cards dealt to each seat beyond hand_size, Player 1 first; empty: none (BK-22)

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
        need_seats(self, "seat_cards", 0, 20, " extra cards")
        extra = sum(self.seat_cards)
        need(self.hand_size * self.players + extra <= size, "seat_cards", self.seat_cards,
             f"at most {size - self.hand_size * self.players} extra cards in all: the deck has {size} cards "
             f"and {self.players} hands of {self.hand_size} take {self.hand_size * self.players}")
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
    "seat_cards":          ("cards dealt to each seat beyond hand_size, Player 1 first; empty = none", "BK-22"),
}


# --- which plays exist ------------------------------------------------------

@lru_cache(maxsize=1 << 14)
def plain_plays(same: tuple[Card, ...], most: int) -> tuple[tuple[PlayCards, int], ...]:
    """Each distinct play of 1 to `most` of the cards `same` (all of one colour,
    sorted, so the plays come out sorted; two blue 3s are one play) with its
    total, fewer cards first (BK-6)."""
    out, seen = [], set()
    for k in range(1, min(most, len(same)) + 1):
        for combo in combinations(same, k):
            if combo not in seen:
                seen.add(combo)
                out.append(_PLAIN.get(combo) or _plain(combo))
    return tuple(out)


# combo -> (PlayCards(combo), its total): one object per distinct play however many cached hands hold it
# (the caches above keep each hand's plays; shared, they are fewer objects for the garbage collector to walk).
_PLAIN: dict[tuple[Card, ...], tuple[PlayCards, int]] = {}


def _plain(combo: tuple[Card, ...]) -> tuple[PlayCards, int]:
    if len(_PLAIN) >= 1 << 16:  # an odd deck with very many plays: start afresh rather than grow
        _PLAIN.clear()
    out = _PLAIN[combo] = (PlayCards(combo), sum(c.value for c in combo))
    return out


@lru_cache(maxsize=1 << 14)
def plain_only(same: tuple[Card, ...], most: int) -> tuple[PlayCards, ...]:
    """The plays of plain_plays without their totals (a lead: any of them, BK-6)."""
    return tuple(play for play, _ in plain_plays(same, most))


@lru_cache(maxsize=1 << 15)
def beating(same: tuple[Card, ...], most: int, need_more: int) -> tuple[PlayCards, ...]:
    """The plays of plain_plays, in its order, whose total is above `need_more` (BK-7)."""
    return tuple(play for play, total in plain_plays(same, most) if total > need_more)


def of_colour(hand: tuple[Card, ...], colour: str) -> tuple[Card, ...]:
    """The cards of `colour` in a sorted hand: one run of it, as cards sort by colour first."""
    return hand[bisect_left(hand, (colour,)) : bisect_left(hand, (colour, inf))]


def plays_in(hand, colour: str, cfg: Config, same=None) -> list[tuple[PlayCards, int]] | tuple[tuple[PlayCards, int], ...]:
    """Every distinct play a player may put down in `colour`, with its total (BK-6, BK-17).

    `hand` is sorted; `same`: its cards of `colour`, if the caller has them.
    With Special One, each play holding 1s is followed by the same play with
    each distinct set of extra cards of other colours.
    """
    if same is None:
        same = tuple(c for c in hand if c.colour == colour)
    plain = plain_plays(same, cfg.max_cards)
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
    return any(total > need_more for _, total in plays_in(hand, colour, cfg))


# --- how many moves a state can offer (the OpenSpiel wrapper's action count) ----

def sub_multisets(counts: tuple[int, ...], most: int) -> int:
    """Distinct non-empty plays of at most `most` cards from cards with these copies per value."""
    poly = [1] + [0] * most  # poly[k]: sub-multisets of k cards, truncated at `most`
    for c in counts:
        poly = [sum(poly[k - j] for j in range(min(c, k) + 1)) for k in range(most + 1)]
    return sum(poly[1:])


@lru_cache(maxsize=4096)
def most_plays(values: int, copies: int, n: int, most: int) -> int:
    """The most distinct plays (BK-6) n cards of one colour allow: theirs when spread as evenly as
    possible over the values. Evening out two counts a > b + 1 adds x^(b+1) + ... + x^(a-1) to
    the product of (1 + x + ... + x^count) over the values, so no coefficient ever drops."""
    n = min(n, values * copies)
    q, r = divmod(n, values) if values else (0, 0)
    return sub_multisets((q + 1,) * r + (q,) * (values - r), most)


def _most_in_hand(colours: int, values: int, copies: int, hand: int, most: int) -> int:
    """The most plays of every colour together (a lead) a hand of at most `hand` cards allows:
    the best split of the hand over the colours (they are alike, but most_plays need not be
    concave in n, so a knapsack over the colours)."""
    full = values * copies
    if hand >= colours * full:
        return colours * most_plays(values, copies, full, most)
    best = [0] * (hand + 1)
    for _ in range(colours):
        best = [max(best[h - j] + most_plays(values, copies, j, most) for j in range(min(h, full) + 1))
                for h in range(hand + 1)]
    return best[hand]


def most_cards_in_hand(config: Config) -> int:
    """The most cards one hand can hold: the deal when a play draws at most one card (every play
    puts down at least one card and draws draw_per_turn, plus one per Special One extra it put
    down: BK-8, BK-17), else the whole deck (a hand grows by draw_per_turn - 1 a play)."""
    return config.hand_size + max(seat_values(config, "seat_cards")) if config.draw_per_turn <= 1 else config.deck_size


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
    cfg = resolve_config(Config, config)
    colours, values, copies, most = len(cfg.colours), len(cfg.values), cfg.copies, cfg.max_cards
    hand, size, each = most_cards_in_hand(cfg), sum(cfg.rows), cfg.buckets_each
    lead = _most_in_hand(colours, values, copies, hand, most)
    one = most_plays(values, copies, hand, most)
    if 1 in cfg.values:  # a follow's plays: a lone 1 need not beat the sum; or no 1s held
        one = max(one - 1, most_plays(values - 1, copies, hand, most) if values > 1 else 0)
    lose = max(min(each, size), min(size, each * (colours - 1)))  # of the colour, or any if none is
    if cfg.special_one:
        extras = 1 + most_plays(colours * values, copies, hand, cfg.special_one_max - 1)
        lead, one = lead * extras, most_plays(values, copies, hand, most) * extras
    if cfg.backfiring_discard:
        one *= 1 + values
    return max(colours, len(DIRECTIONS), size, lead, one + lose)


def _with_pyramid(pyramids: tuple, k: int, base: int) -> tuple:
    """pyramid_rows with the pyramid for player-count index k rebuilt as base, base-1, ..., 1."""
    if isinstance(base, bool) or not isinstance(base, int) or base < 1:
        raise ValueError(f"pyramid_base={base!r} is not allowed: a bottom row of 1 to 12 buckets")
    return pyramids[:k] + (tuple(range(base, 0, -1)),) + pyramids[k + 1:]

