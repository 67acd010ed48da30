"""Bucket Brigade's cards, plays and Config (BB-1 to BB-3, BB-15), which plays a hand allows (BB-6,
BB-7) and what a hand scores at a round's end (BB-9 to BB-11): the part of the rules every other
module of the game reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import NamedTuple

from ..config import Alias, RuleConfig, need, need_range, need_seats, player_count_alias

NAME = "bucket-brigade"
TITLE = "Bucket Brigade"
MIN_PLAYERS, MAX_PLAYERS = 3, 5

# BB-3: Start is worth 0, then six -1 spaces, two 0, two 1, two 2, the 3 at the end.
SOURCE_TRACK = (0, -1, -1, -1, -1, -1, -1, 0, 0, 1, 1, 2, 2, 3)
# Honeybears (one published implementation): Start counts -1 like the six after it.
HONEYBEARS_TRACK = (-1, -1, -1, -1, -1, -1, -1, 0, 0, 1, 1, 2, 2, 3)


class Card(NamedTuple):
    """A card: its colour (None for a rainbow joker) and 1 or 2 steps."""

    colour: str | None
    steps: int

    def __str__(self) -> str:
        return f"{self.colour or 'joker'} +{self.steps}"


class Play(NamedTuple):
    """Play `card` and move the `colour` hedgehog (a joker's colour is chosen)."""

    card: Card
    colour: str

    def __str__(self) -> str:
        if self.card.colour is None:
            return f"joker +{self.card.steps} for {self.colour}"
        return str(self.card)


@dataclass(frozen=True)
class Config(RuleConfig):
    """Every number of Bucket Brigade; defaults are the source text's base game."""

    players: int = 4
    colours: tuple[str, ...] = ("red", "yellow", "green", "blue")
    one_step_cards: int = 6  # per colour (BB-1)
    two_step_cards: int = 5  # per colour
    joker_one_step: int = 6
    joker_two_step: int = 5
    hand_sizes: tuple[int, int, int] = (15, 13, 11)  # for 3, 4, 5 players (BB-2)
    track: tuple[int, ...] = SOURCE_TRACK  # value of each space, index 0 = Start
    bonus: int = 3  # for ending the round (BB-9)
    advanced: bool = False  # BB-10
    pair_multiplier: int = 5
    two_step_multiplier: int = 2
    floor_zero: bool = True  # BB-11
    rounds: int | None = None  # None: as many rounds as players (BB-12)
    seat_points: tuple[int, ...] = ()  # points each seat starts with, Player 1 first; empty: none (BB-15)

    def __post_init__(self):
        need_range(self, "players", MIN_PLAYERS, MAX_PLAYERS)
        need(1 <= len(self.colours) <= 8, "colours", self.colours, "1 to 8 colour names")
        need(
            len(set(self.colours)) == len(self.colours)
            and all(c and c.isidentifier() and c != "joker" for c in self.colours),
            "colours", self.colours, "distinct single-word names other than 'joker'",
        )
        for name in ("one_step_cards", "two_step_cards", "joker_one_step", "joker_two_step"):
            need(0 <= getattr(self, name) <= 50, name, getattr(self, name), "0 to 50 cards")
        need(
            self.one_step_cards + self.two_step_cards > 0,
            "one_step_cards", self.one_step_cards, "at least one coloured card per colour",
        )
        need(len(self.track) >= 2, "track", self.track, "Start plus at least one space")
        need(all(-99 <= v <= 99 for v in self.track), "track", self.track, "space values -99 to 99")
        size = self.deck_size
        if not all(1 <= h and (MIN_PLAYERS + i) * h <= size for i, h in enumerate(self.hand_sizes)):
            need(False, "hand_sizes", self.hand_sizes, self._hands_allowed(size))
        need(0 <= self.bonus <= 99, "bonus", self.bonus, "0 to 99 points")
        need(0 <= self.pair_multiplier <= 99, "pair_multiplier", self.pair_multiplier, "0 to 99")
        need(0 <= self.two_step_multiplier <= 99, "two_step_multiplier", self.two_step_multiplier, "0 to 99")
        need(self.rounds is None or 1 <= self.rounds <= 50, "rounds", self.rounds, "1 to 50, or none (= players)")
        need_seats(self, "seat_points", -99, 99, " points")

    def _hands_allowed(self, size: int) -> str:
        """What hand_sizes this deck can deal, naming the deck's make-up (colours=red shrinks it to
        22 cards) and the hand that does not fit, this game's player count first."""
        per, n = self.one_step_cards + self.two_step_cards, len(self.colours)
        counts = [MIN_PLAYERS + i for i in range(len(self.hand_sizes))]
        bad = [p for p, h in zip(counts, self.hand_sizes) if not (1 <= h and p * h <= size)]
        p = self.players if self.players in bad else bad[0]
        return (f"the deck has {size} cards ({per} per colour x {n} colour{'s' * (n != 1)} + "
                f"{self.joker_one_step + self.joker_two_step} jokers): a hand for {p} players is 1 to {size // p} "
                f"cards, not {self.hand_sizes[p - MIN_PLAYERS]} (for {', '.join(map(str, counts))} players: 1 to "
                f"{', 1 to '.join(str(size // c) for c in counts)}; this game has {self.players} players)")

    @classmethod
    def presets(cls) -> dict[str, "Config"]:
        return {
            "base": cls(),
            "advanced": cls(advanced=True, bonus=6),
            "honeybears": cls(advanced=True, bonus=6, track=HONEYBEARS_TRACK),
        }

    @classmethod
    def aliases(cls) -> dict[str, Alias]:
        """Names a designer uses for numbers inside the tables (see seeds/bucket_brigade.md)."""
        return {
            "hand_size": player_count_alias("hand_sizes", MIN_PLAYERS, "the hand dealt (BB-2)"),
            "start_value": Alias("the value of Start, track[0] (judgement call 2: Honeybears counts it -1)",
                                 path=lambda c: "track[0]"),
            "last_space_value": Alias("the value of the last space, where a hedgehog ends the round (BB-3, BB-8)",
                                      path=lambda c: f"track[{len(c.track) - 1}]"),
        }

    @property
    def deck_size(self) -> int:
        per = self.one_step_cards + self.two_step_cards
        return per * len(self.colours) + self.joker_one_step + self.joker_two_step

    @property
    def hand_size(self) -> int:
        return self.hand_sizes[self.players - MIN_PLAYERS]

    @property
    def total_rounds(self) -> int:
        return self.players if self.rounds is None else self.rounds

    def deck(self) -> list[Card]:
        """The whole deck, in a fixed order (BB-1)."""
        cards = []
        for c in self.colours:
            cards += [Card(c, 1)] * self.one_step_cards + [Card(c, 2)] * self.two_step_cards
        return cards + [Card(None, 1)] * self.joker_one_step + [Card(None, 2)] * self.joker_two_step


# What each Config number means and the rule it comes from (seeds/bucket_brigade.md): one source
# for `meeple rules`, the Explorer and the docs (a test checks every field has one).
PARAMETERS = {
    "players":             ("players at the table, 3 to 5", "BB-2"),
    "colours":             ("the hedgehogs' colours; each colour has its own cards", "BB-1"),
    "one_step_cards":      ("one-step cards of each colour", "BB-1"),
    "two_step_cards":      ("two-step cards of each colour", "BB-1"),
    "joker_one_step":      ("one-step rainbow jokers (move any hedgehog)", "BB-1, BB-7"),
    "joker_two_step":      ("two-step rainbow jokers", "BB-1, BB-7"),
    "hand_sizes":          ("hands for 3, 4, 5 players (the rest is set aside unseen)", "BB-2"),
    "track":               ("value of each space, Start first; the last space ends the round", "BB-3, BB-8"),
    "bonus":               ("points for the player who ends the round", "BB-9"),
    "advanced":            ("advanced scoring: pairs and two-step cards multiply the space value", "BB-10"),
    "pair_multiplier":     ("a pair of one-step cards scores this many times its space (advanced)", "BB-10"),
    "two_step_multiplier": ("a two-step card scores this many times its space (advanced)", "BB-10"),
    "floor_zero":          ("a negative round total counts as 0", "BB-11"),
    "rounds":              ("rounds in a game; none = one per player", "BB-12"),
    "seat_points":         ("points each seat starts the game with, Player 1 first; empty = none", "BB-15"),
}


# --- which plays a hand allows ------------------------------------------------

class CardPlays(dict):
    """Card -> the plays it allows, made on first use: its own colour's hedgehog, or
    for a rainbow joker any colour's, in the colours' order (BB-6, BB-7)."""

    def __init__(self, colours: tuple[str, ...]):
        super().__init__()
        self.colours = colours

    def __missing__(self, card: Card) -> tuple[Play, ...]:
        plays = self[card] = (
            tuple(Play(card, c) for c in self.colours) if card.colour is None else (Play(card, card.colour),)
        )
        return plays


def _card_key(c: Card):
    return (c.colour is None, c.colour or "", c.steps)


_HAND_ORDER: dict[tuple[str, ...], object] = {}


def hand_order(colours: tuple[str, ...]):
    """A sort key giving _card_key's order by one dict lookup (cached per colour set)."""
    key = _HAND_ORDER.get(colours)
    if key is None:
        cards = [Card(c, s) for c in (*colours, None) for s in (1, 2)]
        key = _HAND_ORDER[colours] = {c: i for i, c in enumerate(sorted(cards, key=_card_key))}.__getitem__
    return key


def hand_plays(hand, plays: CardPlays) -> tuple[Play, ...]:
    """The plays a hand allows: each distinct card's, in the hand's order."""
    return tuple(chain.from_iterable(map(plays.__getitem__, dict.fromkeys(hand))))


# --- what a hand scores (BB-9 to BB-11) ----------------------------------------

def round_score(hand, positions: dict[str, int], config: Config, ended_round: bool) -> int:
    """Points a hand scores at round end (BB-9, BB-10, BB-11).

    `positions` maps colour -> space index on `config.track`.
    """
    return hand_score(hand, [positions.get(c) for c in config.colours], config, ended_round)


def hand_score(hand, spaces, config: Config, ended_round: bool, index: dict[str, int] | None = None) -> int:
    """round_score with the hedgehogs' spaces in colour order (`index`: colour_index(config.colours))."""
    track = config.track
    ones, twos = counts_by_colour(hand, config.colours, index)
    card_points = 0
    for k, at in enumerate(spaces):
        if ones[k] or twos[k]:
            card_points += colour_points(ones[k], twos[k], track[at], config)
    return _round_total(card_points, config, ended_round)


def counts_by_colour(hand, colours, index: dict[str, int] | None = None) -> tuple[list[int], list[int]]:
    """(one-step, two-step) coloured cards in `hand`, per colour; jokers score nothing."""
    if index is None:
        index = colour_index(colours)
    ones, twos = [0] * len(colours), [0] * len(colours)
    for colour, steps in hand:
        if colour is not None:
            if steps == 2:
                twos[index[colour]] += 1
            else:
                ones[index[colour]] += 1
    return ones, twos


def colour_points(ones: int, twos: int, value: int, config: Config) -> int:
    """What one colour's cards in a hand score with its hedgehog on a space worth `value`."""
    return times_counted(ones, twos, config) * value


def times_counted(ones: int, twos: int, config: Config) -> int:
    """How many times one colour's cards in a hand count their hedgehog's space."""
    if not config.advanced:
        return ones + twos  # BB-9: every coloured card counts once
    pairs, single = divmod(ones, 2)  # BB-10
    return pairs * config.pair_multiplier + single + twos * config.two_step_multiplier


def _round_total(card_points: int, config: Config, ended_round: bool) -> int:
    """Card points plus the ender's bonus (BB-9), floored at zero (BB-11)."""
    total = card_points + config.bonus if ended_round else card_points
    return total if total > 0 or not config.floor_zero else 0


_COLOUR_INDEX: dict[tuple[str, ...], dict[str, int]] = {}


def colour_index(colours: tuple[str, ...]) -> dict[str, int]:
    """Colour -> its place in `colours` (cached per colour set)."""
    index = _COLOUR_INDEX.get(colours)
    if index is None:
        index = _COLOUR_INDEX[colours] = {c: k for k, c in enumerate(colours)}
    return index
