"""Duck, Duck, Bruce's cards and actions: the ducks and Bruce, `Turn` (flip or stop) and `Steal`,
`Config` and its PARAMETERS, the deck and its counts by suit, the steals a seat may declare.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from ..config import Alias, RuleConfig, need, need_range, need_seats

NAME = "duck-duck-bruce"
TITLE = "Duck, Duck, Bruce"
MIN_PLAYERS, MAX_PLAYERS = 2, 5

SUITS = ("red", "orange", "yellow", "green", "teal", "blue", "purple", "pink", "brown", "grey")
NUMBERS = (1, 1, 2, 2, 3, 4)  # DDB-1: the ducks of one suit
KLEINE_FISCHE_DIE = (-1, 1, 1, 2, 3, 3)  # RULES-NOTES section 4
PENALTY_FACE = -1  # DDB-8: the face that backfires on the thief
MINUS_ONE_RULES = ("steal-back", "discard")
END_RULES = ("rounds", "target")
NEXT_START_RULES = ("lowest-round", "lowest-total")

# What the player to act must decide.
DECIDE = "flip or stop"
STEAL = "steal"
OVER = "over"


class Duck(NamedTuple):
    """A duck card: its suit (a colour) and its number, 1 to 4 in the base deck."""

    suit: str
    number: int

    def __str__(self) -> str:
        return f"{self.suit} {self.number}"


class Bruce(NamedTuple):
    """The crocodile card (all six are alike). Its `suit` is "Bruce", a name no
    duck suit may take, so code that groups cards by suit can count Bruces too."""

    suit: str = "Bruce"

    def __str__(self) -> str:
        return "Bruce"


BRUCE = Bruce()
Card = Duck | Bruce


class Turn(NamedTuple):
    """Flip the next card onto the row, or stop and take the row."""

    flip: bool

    def __str__(self) -> str:
        return "flip" if self.flip else "stop"


FLIP, STOP = Turn(True), Turn(False)
TURN_CHOICES = (FLIP, STOP)  # legal_actions' list, in its order: what the fast loop's bots choose from


class Steal(NamedTuple):
    """After a Bruce: declare `count` cards from seat `target` and roll; target None declines."""

    target: int | None
    count: int = 0

    def __str__(self) -> str:
        if self.target is None:
            return "no steal"
        return f"steal {self.count} from Player {self.target + 1}"


NO_STEAL = Steal(None, 0)


@dataclass(frozen=True)
class Config(RuleConfig):
    """Every number of Duck, Duck, Bruce; defaults are the source text's (Gamewright) game."""

    players: int = 4
    suits: tuple[str, ...] = SUITS  # DDB-1
    numbers: tuple[int, ...] = NUMBERS  # the ducks in every suit
    bruce_cards: int = 6
    die: tuple[int, ...] = KLEINE_FISCHE_DIE  # DDB-7
    minus_one: str = "steal-back"  # DDB-8: "steal-back" (Gamewright) or "discard" (Kleine Fische)
    min_steal: int = 1  # DDB-6: the thief declares min_steal..max_steal cards
    max_steal: int = 3
    may_decline: bool = True  # DDB-6: "tienes la oportunidad" (a chance, not a duty)
    end: str = "rounds"  # DDB-12: "rounds" or "target"
    rounds: int = 3
    target: int = 77
    next_start: str = "lowest-round"  # DDB-11
    seat_points: tuple[int, ...] = ()  # points each seat starts with, Player 1 first; empty: none (DDB-14)

    def __post_init__(self):
        need_range(self, "players", MIN_PLAYERS, MAX_PLAYERS)
        need(1 <= len(self.suits) <= 20, "suits", self.suits, "1 to 20 suit names (a deck needs a suit)")
        need(
            len(set(self.suits)) == len(self.suits)
            and all(s.isidentifier() and s.lower() != "bruce" for s in self.suits),
            "suits", self.suits, "distinct single-word names other than 'Bruce'",
        )
        need(1 <= len(self.numbers) <= 20, "numbers", self.numbers, "1 to 20 ducks per suit (a suit cannot be empty)")
        need(all(1 <= n <= 99 for n in self.numbers), "numbers", self.numbers, "duck numbers 1 to 99")
        need(0 <= self.bruce_cards <= 50, "bruce_cards", self.bruce_cards, "0 to 50 Bruce cards")
        need(1 <= len(self.die) <= 30, "die", self.die, "1 to 30 faces")
        need(
            all(f == PENALTY_FACE or 0 <= f <= 99 for f in self.die),
            "die", self.die, f"faces {PENALTY_FACE} or 0 to 99",
        )
        need(self.minus_one in MINUS_ONE_RULES, "minus_one", self.minus_one, " or ".join(MINUS_ONE_RULES))
        best = max(self.die)
        need(1 <= self.min_steal <= 99, "min_steal", self.min_steal, "at least 1 card")
        need(
            self.min_steal <= self.max_steal <= best,
            "max_steal", self.max_steal,
            f"from min_steal ({self.min_steal}) to the die's best face ({best}); "
            "a larger claim could never succeed",
        )
        need(self.end in END_RULES, "end", self.end, " or ".join(END_RULES))
        need(1 <= self.rounds <= 100, "rounds", self.rounds, "1 to 100")
        need(1 <= self.target <= 10_000, "target", self.target, "1 to 10000 points")
        need(self.next_start in NEXT_START_RULES, "next_start", self.next_start, " or ".join(NEXT_START_RULES))
        need_seats(self, "seat_points", -99, 99, " points")

    @classmethod
    def presets(cls) -> dict[str, "Config"]:
        return {
            "base": cls(),
            "kleine-fische": cls(minus_one="discard"),
            "short": cls(rounds=1),
            "race-to-77": cls(end="target", target=77),
        }

    @classmethod
    def aliases(cls) -> dict[str, Alias]:
        """Names a designer uses for numbers of the die (DDB-7)."""
        return {
            "best_face": Alias(
                "the die's best face, the most a thief can steal (DDB-6, DDB-7); setting it changes every "
                "face that shows it",
                get=lambda c: max(c.die),
                put=lambda c, v: {"die": tuple(v if f == max(c.die) else f for f in c.die)},
            ),
        }

    def deck(self) -> tuple[Card, ...]:
        """The whole deck, in a fixed order (DDB-1)."""
        return _deck(self.suits, self.numbers, self.bruce_cards)


# What each Config number means and the rule it comes from (seeds/duck_duck_bruce.md): one source
# for `meeple rules`, the Explorer and the docs (a test checks every field has one).
PARAMETERS = {
    "players":     ("players at the table, 2 to 5", "DDB-1"),
    "suits":       ("the duck suits (colours)", "DDB-1"),
    "numbers":     ("the ducks' numbers in every suit", "DDB-1"),
    "bruce_cards": ("Bruce cards in the deck", "DDB-1, DDB-6"),
    "die":         ("the steal die's faces; -1 backfires", "DDB-7, DDB-8"),
    "minus_one":   ("what a -1 does: steal-back (the opponent takes a card) or discard", "DDB-8"),
    "min_steal":   ("fewest cards a thief may declare", "DDB-6"),
    "max_steal":   ("most cards a thief may declare", "DDB-6"),
    "may_decline": ("a thief may decline to steal", "DDB-6"),
    "end":         ("how the game ends: after a number of rounds, or at a target total", "DDB-12"),
    "rounds":      ("rounds in a game (end=rounds)", "DDB-12"),
    "target":      ("total that ends the game (end=target)", "DDB-12"),
    "next_start":  ("who starts the next round: lowest-round or lowest-total", "DDB-11"),
    "seat_points": ("points each seat starts the game with, Player 1 first; empty = none", "DDB-14"),
}


@lru_cache(maxsize=64)
def _deck(suits, numbers, bruce_cards) -> tuple[Card, ...]:
    return tuple(Duck(s, n) for s in suits for n in numbers) + (BRUCE,) * bruce_cards


@lru_cache(maxsize=64)
def deck_counts(suits, numbers, bruce_cards) -> Counter:
    return Counter(_deck(suits, numbers, bruce_cards))


def unseen_counts(obs) -> Counter:
    cfg = obs.config
    left = deck_counts(cfg.suits, cfg.numbers, cfg.bruce_cards).copy()
    for group in (obs.row, obs.discard, *obs.nests):
        for c in group:
            left[c] -= 1
    return left


@lru_cache(maxsize=64)
def deck_suits(suits, ducks_per_suit, bruce_cards) -> dict[str, int]:
    """{suit: cards of it in the deck}, "Bruce" too (never changed: callers copy it)."""
    return dict.fromkeys(suits, ducks_per_suit) | {"Bruce": bruce_cards}


def count_unseen_suits(cfg: Config, row, discard, nests) -> dict[str, int]:
    """The deck's count by suit less every card face up (DDB-13: all but the draw pile)."""
    left = deck_suits(cfg.suits, len(cfg.numbers), cfg.bruce_cards).copy()
    for group in (row, discard, *nests):
        for c in group:
            left[c.suit] -= 1
    return left


def card_key(c: Card):
    return ("", 0) if type(c) is Bruce else c


def steal_actions(cfg: Config, p: int) -> tuple[Steal, ...]:
    return steals_of(cfg.players, cfg.min_steal, cfg.max_steal, cfg.may_decline, p)


@lru_cache(maxsize=1024)  # keyed by numbers: hashing a whole Config costs more than the lookup saves
def steals_of(n: int, low: int, high: int, may_decline: bool, p: int) -> tuple[Steal, ...]:
    out = [NO_STEAL] if may_decline else []
    for k in range(1, n):
        out += [Steal((p + k) % n, d) for d in range(low, high + 1)]
    return tuple(out)
