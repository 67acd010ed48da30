"""Duck, Duck, Bruce (Peter Neugebauer; first published as Kleine Fische): push your luck.

On your turn you flip cards into a row. Each new duck asks: stop and take
the row into your nest, or flip again? A second duck of a suit already in
the row ends the turn and throws away the matching pair and every card
between them; Bruce throws away the whole row but lets you try to steal
from another nest with a die roll. Only the highest duck of each suit in a
nest scores. Rules are numbered as in seeds/duck_duck_bruce.md (DDB-1, ...).
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import Any, Iterable, Mapping, NamedTuple

from . import bots as _bots
from . import log as _log
from .chance import Chance, Chance2, check_seed, roll_in_place, start, stream_key
from .config import Alias, RuleConfig, need, need_range, need_seats, seat_values
from .protocol import MAX_STEPS, check_seat, protocol_state, resolve_config

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
_TURN_CHOICES = (FLIP, STOP)  # legal_actions' list, in its order: what the fast loop's bots choose from


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
def _deck_counts(suits, numbers, bruce_cards) -> Counter:
    return Counter(_deck(suits, numbers, bruce_cards))


@protocol_state("pile", "facts", "events")
@dataclass(slots=True)
class State:
    """The whole game at one moment, the draw pile's order included."""

    config: Config
    chance: Chance
    round: int
    start_player: int
    current_player: int | None
    phase: str  # DECIDE, STEAL or OVER
    # The draw pile (the `pile` property) is the first `_left` cards of `_dealt`, the round's
    # shuffle: a flip counts down instead of copying the rest of the pile into a new tuple.
    _dealt: tuple[Card, ...] = field(compare=False, repr=False)
    _left: int = field(compare=False, repr=False)
    row: tuple[Duck, ...]  # face up, oldest first
    discard: tuple[Card, ...]  # face up, this round
    nests: tuple[tuple[Duck, ...], ...]  # face down, in the order the cards came in
    totals: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]  # points of each finished round
    # Bookkeeping for statistics (game_stats, score_sources); no rule reads it:
    taken: tuple[tuple[int, ...], ...]  # per seat: where in its nest the cards taken from other nests lie
    turns_taken: tuple[int, ...]  # per seat: turns it has finished (DDB-2; game_stats' bust_rate divides by it)
    is_over: bool = False
    # Logs shared with the states before and after this one (see rules/log.py): O(1) appends.
    _events: list | None = field(default_factory=list, compare=False, repr=False)
    _n_events: int = field(default=0, compare=False, repr=False)
    _facts: list = field(default_factory=list, compare=False, repr=False)
    _n_facts: int = field(default=0, compare=False, repr=False)
    # Called with the state at the end of every turn (new_game's `turn_end`; simulate counts turns with it).
    _turn_end: Any = field(default=None, compare=False, repr=False)
    # Observation.unseen_suits, kept current by every flip once an observation has asked for it
    # (bots read it on every decision; no rule reads it); None when it must be counted afresh.
    # A new dict per flip: states and observations share them.
    _unseen: dict | None = field(default=None, compare=False, repr=False)

    events = _log.events_property()

    @property
    def pile(self) -> tuple[Card, ...]:
        """The draw pile, face down; the next card is the last one."""
        return self._dealt[: self._left]

    @pile.setter
    def pile(self, cards) -> None:
        self._dealt = tuple(cards)
        self._left = len(self._dealt)
        self._unseen = None  # a pile set by hand: count the unseen cards afresh when asked

    @property
    def facts(self) -> tuple[tuple[int, str, int], ...]:
        """(seat, one of FACTS, cards), oldest first: statistics bookkeeping no rule reads."""
        return tuple(self._facts[: self._n_facts])

    @facts.setter
    def facts(self, value) -> None:
        self._facts = list(value)
        self._n_facts = len(self._facts)


_new_state = object.__new__


# State.facts notes, for statistics, each (seat, fact, cards): what tallies() counts from it.
FACTS = {
    "double": (("doubles",), "ducks_busted"),  # a second duck of a suit ended the turn (DDB-5); ducks of the row lost
    "bruce": (("bruces",), "ducks_busted"),  # Bruce ended the turn (DDB-6); ducks of the row lost
    "declined": (("steals_declined",), None),  # "no steal" after a Bruce
    "missed": (("steals_tried",), None),  # the die showed less than the claim (DDB-7)
    "stole": (("steals_tried", "steals_succeeded"), "cards_stolen"),  # the die showed the claim or more; cards taken
    "backfire": (("steals_tried", "backfires"), "cards_lost_to_backfires"),  # a -1 (DDB-8); the thief's cards lost
    "robbed": ((), "cards_lost_to_thieves"),  # another seat's steal took cards from this nest
    "taken points": ((), "points_taken"),  # round points the cards taken from other nests added (see score_sources)
}
TALLY = (  # every name FACTS counts, in the order game_stats reports them
    "doubles", "bruces", "ducks_busted", "steals_declined", "steals_tried", "steals_succeeded", "cards_stolen",
    "cards_lost_to_thieves", "backfires", "cards_lost_to_backfires", "points_taken",
)


@dataclass(frozen=True)
class Observation:
    """What one seat may see (DDB-13): everything but the draw pile's order.

    Nests lie face down, but every card in one was seen face up in a row or
    shown when stolen, so a player with perfect memory knows every nest (and
    the order its cards came in, which is how the state keeps them).
    """

    player: int
    config: Config
    round: int
    start_player: int
    current_player: int | None
    phase: str
    pile_size: int
    row: tuple[Duck, ...]
    discard: tuple[Card, ...]
    nests: tuple[tuple[Duck, ...], ...]
    totals: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]

    def unseen(self) -> list[Card]:
        """The cards still in the draw pile, as a sorted list (their order is unknown)."""
        return sorted(_unseen_counts(self).elements(), key=_card_key)

    @cached_property
    def unseen_suits(self) -> Mapping[str, int]:
        """{suit: cards of it still in the draw pile}, "Bruce" counted as a suit (read-only).
        Not a field: observation() fills it from the state's running count, so a bot can
        read it on every decision without recounting every card it has seen."""
        return MappingProxyType(_count_unseen_suits(self.config, self.row, self.discard, self.nests))


def _unseen_counts(obs) -> Counter:
    cfg = obs.config
    left = _deck_counts(cfg.suits, cfg.numbers, cfg.bruce_cards).copy()
    for group in (obs.row, obs.discard, *obs.nests):
        for c in group:
            left[c] -= 1
    return left


@lru_cache(maxsize=64)
def _deck_suits(suits, ducks_per_suit, bruce_cards) -> dict[str, int]:
    """{suit: cards of it in the deck}, "Bruce" too (never changed: callers copy it)."""
    return dict.fromkeys(suits, ducks_per_suit) | {"Bruce": bruce_cards}


def _count_unseen_suits(cfg: Config, row, discard, nests) -> dict[str, int]:
    """The deck's count by suit less every card face up (DDB-13: all but the draw pile)."""
    left = _deck_suits(cfg.suits, len(cfg.numbers), cfg.bruce_cards).copy()
    for group in (row, discard, *nests):
        for c in group:
            left[c.suit] -= 1
    return left


def _card_key(c: Card):
    return ("", 0) if type(c) is Bruce else c


_SEATS = tuple(f"Player {p + 1}" for p in range(MAX_PLAYERS))


def _seat(p: int) -> str:
    return _SEATS[p]


class _Texts(dict):
    """card -> its text, remembered (events name many cards)."""

    def __missing__(self, card):
        text = self[card] = str(card)
        return text


_TEXTS = _Texts()


_text = _TEXTS.__getitem__


def _cards(cards) -> str:
    return ", ".join(map(_text, cards))


# --- exact helpers (lessons and tests use them) --------------------------------

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


def _nest_points(nest: tuple[Duck, ...], taken: tuple[int, ...]) -> tuple[int, int]:
    """(nest_score of the nest, nest_score of its cards not at the `taken` positions)."""
    total = sum(_best_by_suit(nest).values())  # nest_score: a nest holds only ducks
    if not taken:
        return total, total
    skip = set(taken)
    own: dict[str, int] = {}  # _best_by_suit of the cards not taken, without making their list
    get = own.get
    for i, (suit, n) in enumerate(nest):
        if n > get(suit, 0) and i not in skip:
            own[suit] = n
    return total, sum(own.values())


def _best_by_suit(nest) -> dict[str, int]:
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
    return _values(row, remaining, nest, depth, Fraction if exact else float, 0)


def _values(row, remaining, nest, depth, total, tempo):
    need(type(depth) is int and depth >= 1, "depth", depth, "1 or more flips")
    row = tuple(row)
    if len({c.suit for c in row if type(c) is Duck}) != len(row):
        raise ValueError("a row holds ducks of different suits only")
    best = _best_by_suit(nest)
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
    deck = _deck_counts(config.suits, config.numbers, config.bruce_cards)
    used = Counter(remaining) + Counter(row) + Counter(nest)
    extra = [str(c) for c, k in used.items() if k > deck[c]]
    if extra:
        raise ValueError(f"cards not in this config's deck (or too many of them): {', '.join(extra)}")
    stop, flip = flip_values(row, remaining, nest)
    return stop >= flip


# --- playing ---------------------------------------------------------------------

# Event sentences, rendered only when state.events is read (rules/log.py).
def _said_flip(p: int, card) -> str:
    return f"{_SEATS[p]} flips {_TEXTS[card]}."


def _said_bruce(p: int, row, last: bool) -> str:
    if row:
        text = f"{_SEATS[p]} flips Bruce! Bruce and the row ({_cards(row)}) go to the discard pile."
    else:
        text = f"{_SEATS[p]} flips Bruce! Bruce goes to the discard pile."
    return text + " That was the last card." if last else text


def _said_double(p: int, card, lost, kept) -> str:
    text = f"{_SEATS[p]} flips {_TEXTS[card]}, a second {card.suit} duck: {_cards(lost)} go to the discard pile"
    return f"{text}; {_cards(kept)} go to the nest." if kept else f"{text}; nothing goes to the nest."


def _said_last(p: int, card, row) -> str:
    return f"{_SEATS[p]} flips {_TEXTS[card]}, the last card, and takes the row ({_cards(row)}) into the nest."


def _said_stop(p: int, row) -> str:
    return f"{_SEATS[p]} stops and puts {_cards(row)} in the nest."


class Core:
    """The game as a lean loop holds it (issue 21): plain lists and ints, the rules applied in place.

    Every rule below works on a Core. A State is a view of one: new_game, apply and step read
    the State into a Core (`_core_of`), play the rules on it and write it back (`_put`), and
    simulate's fast loop (`play_core`) plays a whole game on one Core with no State until the
    end. The fields are the State's, under the same names (so scores, winners, progress,
    game_stats, score_sources and check_state read either), with lists for what changes:
    `row`, `discard`, `nests` (a list per seat), `totals`, `history`, `taken`, `turns_taken`, `facts`. The
    draw pile is the first `_left` cards of `_dealt` (the round's shuffle); `unseen` counts
    the cards still in it by suit ("Bruce" too), kept by every flip (the bots read it). Chance:
    the seeded stream as (`key`, `counter`), rolled in place, or `chance`, any Chance
    lookalike the State held (a test's script, the OpenSpiel wrapper's). `sink` is the State
    whose event log the rules append to (None: no text); `turn_end(core)` is called at every
    turn's end."""

    __slots__ = ("config", "chance", "seed", "key", "counter", "round", "start_player", "current_player", "phase",
                 "_dealt", "_left", "row", "discard", "nests", "totals", "history", "taken", "turns_taken", "is_over", "facts",
                 "unseen", "sink", "turn_end", "leaders", "leader", "lead", "dice", "at")

    @property
    def pile(self) -> tuple[Card, ...]:
        """The draw pile, face down; the next card is the last one."""
        return self._dealt[: self._left]


_new = object.__new__


def _core_of(s: State) -> Core:
    """A Core holding what State `s` holds (lists copied out of its tuples; the facts list shared)."""
    c = _new(Core)
    c.config = cfg = s.config
    ch = s.chance
    if type(ch) is Chance:  # the seeded stream: drawn in place
        c.chance, c.seed, c.counter, c.key = None, ch.seed, ch.counter, stream_key(ch.seed)
    else:
        c.chance = ch
    c.round, c.start_player, c.current_player, c.phase = s.round, s.start_player, s.current_player, s.phase
    c._dealt, c._left = s._dealt, s._left
    c.row, c.discard = list(s.row), list(s.discard)
    c.nests = [list(n) for n in s.nests]
    c.totals, c.history = list(s.totals), list(s.history)
    c.taken = [list(t) for t in s.taken]
    c.turns_taken = list(s.turns_taken)
    c.is_over = s.is_over
    facts, n = s._facts, s._n_facts
    c.facts = facts if len(facts) == n else facts[:n]  # appends go on in place unless s is an older state
    unseen = s._unseen
    c.unseen = dict(unseen) if unseen is not None else _count_unseen_suits(cfg, s.row, s.discard, s.nests)
    c.sink = s if s._events is not None else None
    c.dice = None
    f = s._turn_end
    c.turn_end = None if f is None else (lambda core: f(_put(core, s)))  # the callback sees the State then
    return c


def _put(c: Core, s: State) -> State:
    """Write Core `c` into State `s` (tuples) and return `s`."""
    s.chance = Chance(c.seed, c.counter) if c.chance is None else c.chance
    s.round, s.start_player, s.current_player, s.phase = c.round, c.start_player, c.current_player, c.phase
    s._dealt, s._left = c._dealt, c._left
    s.row, s.discard = tuple(c.row), tuple(c.discard)
    s.nests = tuple(map(tuple, c.nests))
    s.totals, s.history = tuple(c.totals), tuple(c.history)
    s.taken = tuple(map(tuple, c.taken))
    s.turns_taken = tuple(c.turns_taken)
    s.is_over = c.is_over
    s._facts, s._n_facts = c.facts, len(c.facts)
    s._unseen = dict(c.unseen)  # a new dict: the Core goes on counting in its own
    return s


def _draw_from(c: Core):
    """The Chance (or lookalike) the next draw comes from; give its successor to _drawn."""
    return Chance(c.seed, c.counter) if c.chance is None else c.chance


def _drawn(c: Core, nxt) -> None:
    if c.chance is None:
        c.counter = nxt.counter
    else:
        c.chance = nxt


_roll = roll_in_place  # the die, DDB-7: below(n) of the game's chance, drawn in place (one function for both cores)


def _die(c: Core, n: int) -> int:
    """below(n) of the game's chance for a draw during play (the die, a card picked from a nest):
    _roll, or in simulate's fast loop on chance version 2 (`c.dice`, the game's streams, set by
    play_core) the dice stream's value at `c.at` read in place, Chance2.below's value without a
    Chance2 per draw; `c.chance` catches up (_caught_up) before a deal, a sample and the end."""
    dice = c.dice
    if dice is None:
        return _roll(c, n)
    at = c.at
    c.at = at + 1
    vals = dice.dice
    return ((vals[at] if at < len(vals) else dice.more_dice(at)) * n) >> 64


def _caught_up(c: Core):
    """The Core's chance with the dice drawn in place (_die) counted in: `c.chance` made current."""
    if c.dice is not None:
        ch = c.chance
        if ch.dice != c.at:
            c.chance = Chance2(c.dice, ch.deal, c.at)
    return c.chance


def new_game(config: Config | None = None, seed: int = 0, chance: Chance | None = None, events: bool = True,
             turn_end=None) -> State:
    """A new game; `events=False` keeps no event text (simulate's own states, never shown).
    `turn_end(state)` is called at the end of every turn, decision or not (see _turn_over)."""
    config = resolve_config(Config, config)
    c = _start(config, start(check_seed(seed)) if chance is None else chance)
    state = _new_state(State)
    state.config, state._events, state._n_events, state._turn_end = config, [] if events else None, 0, turn_end
    if events:
        c.sink = state
    if turn_end is not None:
        c.turn_end = lambda core: turn_end(_put(core, state))  # the callback sees the State then
    _begin(c)
    return _put(c, state)


def _start(config: Config, chance) -> Core:
    """The game before its first deal: no cards anywhere, no points, no text, no turn hook."""
    c = _new(Core)
    c.config = config
    if type(chance) is Chance:  # the seeded stream: drawn in place
        c.chance, c.seed, c.counter, c.key = None, chance.seed, chance.counter, stream_key(chance.seed)
    else:
        c.chance = chance
    n = config.players
    c.round = c.start_player = c.current_player = 0
    c.phase = DECIDE
    c._dealt, c._left = (), 0
    c.row, c.discard = [], []
    c.nests = [[] for _ in range(n)]
    c.totals, c.history = list(seat_values(config, "seat_points")), []  # DDB-14
    c.taken = [[] for _ in range(n)]
    c.turns_taken = [0] * n
    c.is_over = False
    c.facts = []
    c.unseen = _deck_suits(config.suits, len(config.numbers), config.bruce_cards).copy()
    c.sink = c.turn_end = c.dice = None
    return c


def _begin(c: Core, bots=None) -> int:
    """Deal the first round and flip Player 1's first card (DDB-2, DDB-3); with `bots`
    (play_core), play the whole game (see _run). Returns the decisions _run took."""
    _deal(c, 0, 0, "")
    return _run(c, None, bots)


_DECKS: dict[int, tuple] = {}  # id(config) -> (config, its deck, the deck's cards by suit); an entry keeps its Config alive


def _deck_of(cfg: Config) -> tuple:
    """(cfg, cfg.deck(), the deck's cards by suit), worked out once per Config: a deal reads them every round."""
    known = _DECKS.get(id(cfg))
    if known is None:
        if len(_DECKS) > 256:  # many configs (a sweep): start afresh rather than grow
            _DECKS.clear()
        known = _DECKS[id(cfg)] = (cfg, cfg.deck(), _deck_suits(cfg.suits, len(cfg.numbers), cfg.bruce_cards))
    return known


def _deal(c: Core, round_: int, starter: int, why: str) -> None:
    """DDB-2, DDB-11: shuffle every card into the draw pile; `starter` flips first (the caller flips)."""
    cfg = c.config
    _, deck, by_suit = _deck_of(cfg)
    _caught_up(c)
    pile, nxt = _draw_from(c).shuffled(deck)
    _drawn(c, nxt)
    c._dealt = tuple(pile)
    c._left = len(pile)
    c.unseen = by_suit.copy()  # every card unseen again
    c.row, c.discard = [], []
    c.nests = [[] for _ in range(cfg.players)]
    c.taken = [[] for _ in range(cfg.players)]
    c.round = round_
    c.start_player = starter
    c.current_player = starter
    if c.sink is not None:
        _log.say(c.sink, f"Round {round_ + 1}: {_SEATS[starter]}{why} starts; the draw pile holds {len(pile)} cards.")


def _fact(c: Core, p: int, what: str, cards: int) -> None:
    """Note (seat, one of FACTS, cards) for the statistics."""
    c.facts.append((p, what, cards))


def _run(c: Core, action=None, bots=None) -> int:
    """The rules' one loop: apply the current player's decision `action` (None: no decision, the
    turn's forced first flip, DDB-3), then flip on (DDB-3 to DDB-9) until the next decision or the
    game's end. Returns the decisions the loop took itself (below).

    A turn that ends passes play on, flipping the next player's first card (DDB-2); rounds that
    end are scored and dealt in this same loop (never by recursion: a one-card deck and a high
    target play thousands). Without `bots` (new_game, step) the loop stops at the next decision,
    the Core's phase saying which. simulate's fast loop (play_core) passes `bots` = (decide,
    draws, rngs, checked, seat_names, steals): each seat's bot then chooses inline, on the Core
    (decide[p] None: random_bot's draw, written out, from the seat stream's bound `draws[p]`;
    else the bot's narrow `decide`), and the loop plays the game to its end: a "flip" flips on
    inside the flip loop, any other decision is applied at the top. The Core's lists, the
    pile's count and the phase (`deciding`) are held in locals, the count and the phase written
    back before anything else reads the Core (a turn_end callback, a round's scoring, a bot, the
    return), the lists read again after a round's deal makes new ones."""
    cfg = c.config
    players = cfg.players
    p = c.current_player
    dealt, left, unseen, row, nests, facts, turns_taken = (c._dealt, c._left, c.unseen, c.row, c.nests, c.facts,
                                                           c.turns_taken)
    sink, turn_end = c.sink, c.turn_end
    note = c.leaders.append if turn_end is _note_leader else None  # play_core's turn ends, noted inline
    lead = c.lead if note is not None else None  # and the leader they note (_note_leader keeps it)
    suits = [d.suit for d in row]  # the row's suits, kept beside it (a double is a suit found in it)
    if bots is not None:
        decide, draws, rngs, checked, seat_names, steals = bots
    decisions = 0
    deciding = c.phase != STEAL  # the phase of the last decision point, written back as c.phase when read
    while True:
        if action is None or action is FLIP:  # the commonest decision, answered first
            ended = False
        elif type(action) is Turn:  # DDB-4
            if action.flip:  # a Turn(True) made elsewhere
                ended = False
            else:  # stop: the row goes into the nest
                nests[p] += row
                if sink is not None:  # simulate's quiet games skip even the call
                    _log.say(sink, _said_stop, p, tuple(row))
                row.clear()  # (the Core's own list, emptied: no new list a turn)
                suits.clear()
                ended = True
        else:  # DDB-6 to DDB-8: a steal after a Bruce, or none
            if action.target is None:
                if sink is not None:
                    _log.say(sink, f"{_SEATS[p]} does not try to steal.")
                facts.append((p, "declined", 0))
            else:
                die = cfg.die
                _resolve_steal(c, p, action, die[_die(c, len(die))])  # Chance.choice(die): below(len(die))
            ended = True
        while True:  # the flips, up to a decision other than "flip" (or, without bots, any decision)
            if ended:
                turns_taken[p] += 1  # seat p's turn is over (DDB-2): every turn's end passes here
                if left:
                    if note is not None:  # _note_leader, inlined: the totals (and their leader) change only
                        note(lead)  # at a round's scoring
                    elif turn_end is not None:  # _turn_over, inlined: every turn passes here
                        c._left = left
                        c.phase = DECIDE if deciding else STEAL
                        turn_end(c)
                    p = p + 1 if p + 1 < players else 0  # play passes left (DDB-2)
                    c.current_player = p  # DDB-3: the next turn opens with a forced flip
                else:
                    c._left = left
                    c.phase = DECIDE if deciding else STEAL
                    if not _end_round(c):
                        return decisions  # the game is over
                    p = c.start_player  # the next round is dealt: its starter flips first
                    dealt, left, unseen, row, nests = c._dealt, c._left, c.unseen, c.row, c.nests
                    suits = []
                    if note is not None:
                        lead = c.lead
            ended = True  # unless the flip below leaves a choice
            left -= 1
            card = dealt[left]
            suit = card.suit
            unseen[suit] -= 1
            if suit == "Bruce":  # DDB-6 (no duck suit is called Bruce)
                discard = c.discard
                discard += row
                discard.append(card)
                facts.append((p, "bruce", len(row)))
                if sink is not None:  # simulate's quiet games skip even the call
                    _log.say(sink, _said_bruce, p, tuple(row), not left)
                row.clear()
                suits.clear()
                deciding = False
            elif suit in suits:  # DDB-5: a double ends the turn at once
                i = suits.index(suit)
                lost = row[i:]
                lost.append(card)
                c.discard += lost
                facts.append((p, "double", len(row) - i))
                if i:  # the cards before the first of the two are kept
                    del row[i:]
                    nests[p] += row
                if sink is not None:
                    _log.say(sink, _said_double, p, card, tuple(lost), tuple(row[:i]))
                row.clear()
                suits.clear()
                continue
            else:
                row.append(card)
                suits.append(suit)
                if not left:  # DDB-9: the last card is revealed; the turn finishes by taking the row
                    nests[p] += row
                    if sink is not None:
                        _log.say(sink, _said_last, p, card, tuple(row))
                    row.clear()
                    suits.clear()
                    continue
                if sink is not None:  # the commonest move: skip even the call when no one keeps events
                    _log.say(sink, _said_flip, p, card)
                deciding = True
            if bots is None:  # a decision: new_game and step stop here
                c._left = left
                c.phase = DECIDE if deciding else STEAL
                return decisions
            # simulate's fast loop: the seat's bot chooses here (what play_game's loop would ask it)
            if decisions >= MAX_STEPS:
                raise RuntimeError(f"{NAME} did not end within {MAX_STEPS} actions")
            decisions += 1
            d = decide[p]
            if d is None:  # random_bot's draw, written out (the same getrandbits calls), on purpose:
                # a call into bots.random_bot per decision is measured overhead in the hot loop (BENCHMARKS.md);
                # tests/test_game_cores.py checks this loop plays exactly the protocol loop's games
                draw = draws[p]
                if deciding:  # _TURN_CHOICES: 2 of them, drawn with getrandbits(2)
                    r = draw(2)
                    while r >= 2:
                        r = draw(2)
                    if r == 0:  # FLIP: the loop flips on (DDB-4)
                        ended = False
                        continue
                    action = STOP
                else:
                    legal = steals[p]
                    n = len(legal)
                    k = n.bit_length()
                    r = draw(k)
                    while r >= n:
                        r = draw(k)
                    action = legal[r]
            else:
                c._left = left
                c.phase = phase = DECIDE if deciding else STEAL
                legal = _TURN_CHOICES if deciding else steals[p]
                action = d(phase, p, row, unseen, left, nests, cfg, legal, rngs[p])
                if checked[p] and action not in legal:
                    raise ValueError(f"bot {seat_names[p]!r} chose {action!r}, which is not legal here")
                if action is FLIP:
                    ended = False
                    continue
            break  # the decision is applied above


def _turn_over(c: Core) -> None:
    """DDB-2: a player's turn is over (stopped, a double, Bruce and the steal, or the last
    card), and a round it ended is scored; the next turn has not begun. A turn may hold no
    decision (its forced first flip is the last card, DDB-3, DDB-9), so it can end inside
    another player's action."""
    if c.turn_end is not None:
        c.turn_end(c)


def _end_round(c: Core) -> bool:
    """DDB-10 to DDB-12: score the nests; deal again (True) or end the game (False)."""
    cfg = c.config
    split = [_nest_points(nest, taken) for nest, taken in zip(c.nests, c.taken)]
    points = tuple(total for total, _ in split)
    for p, (total, own) in enumerate(split):
        if total > own:
            _fact(c, p, "taken points", total - own)
    c.totals = [t + x for t, x in zip(c.totals, points)]
    c.history.append(points)
    if c.sink is not None:
        _log.say(c.sink, f"Round {c.round + 1} scores: " + ", ".join(f"{_seat(i)} {x}" for i, x in enumerate(points)) + ".")
    _turn_over(c)  # the round's last turn ends with its scoring
    if (len(c.history) >= cfg.rounds) if cfg.end == "rounds" else (max(c.totals) >= cfg.target):
        c.is_over = True
        c.current_player = None
        c.phase = OVER
        if c.sink is not None:
            w = winners(c)
            _log.say(c.sink, "Game over: " + " and ".join(_seat(i) for i in w) + (" win." if len(w) > 1 else " wins."))
        return False
    key = points if cfg.next_start == "lowest-round" else c.totals
    low = min(key)
    n = cfg.players
    starter = next(q % n for q in range(c.start_player, c.start_player + n) if key[q % n] == low)
    why = " (lowest round score)" if cfg.next_start == "lowest-round" else " (lowest total)"
    _deal(c, c.round + 1, starter, why)
    return True


def legal_actions(state: State) -> list:
    """Flip or stop (DDB-4); after a Bruce, a steal from any opponent or none (DDB-6)."""
    if state.phase == DECIDE:
        return [FLIP, STOP]
    if state.phase == STEAL:
        return list(_steal_actions(state.config, state.current_player))
    return []


def _steal_actions(cfg: Config, p: int) -> tuple[Steal, ...]:
    return _steals(cfg.players, cfg.min_steal, cfg.max_steal, cfg.may_decline, p)


@lru_cache(maxsize=1024)  # keyed by numbers: hashing a whole Config costs more than the lookup saves
def _steals(n: int, low: int, high: int, may_decline: bool, p: int) -> tuple[Steal, ...]:
    out = [NO_STEAL] if may_decline else []
    for k in range(1, n):
        out += [Steal((p + k) % n, d) for d in range(low, high + 1)]
    return tuple(out)


def _illegal(state: State, action) -> ValueError:
    legal = ", ".join(map(str, legal_actions(state)))
    who = _seat(state.current_player) if state.current_player is not None else "anyone"
    return ValueError(f"{action!r} is not legal for {who} now; legal: {legal or 'none (game over)'}")


def apply(state: State, action) -> State:
    """One decision: flip or stop (DDB-4), or a steal after a Bruce (DDB-6 to DDB-8).

    A copy of `state` with `step` done on it; `state` itself never changes."""
    phase = state.phase
    if phase == DECIDE:
        if action is not FLIP and action is not STOP and (type(action) is not Turn or type(action.flip) is not bool):
            raise _illegal(state, action)
    elif phase == OVER:
        raise ValueError("the game is over; no more actions")
    elif type(action) is not Steal or action not in _steal_actions(state.config, state.current_player):
        raise _illegal(state, action)
    s = state._copy()
    step(s, action)
    return s


def step(s: State, action) -> None:
    """Play a legal `action` on `s` in place: apply's work without the copy and
    without checking the action. Everything else holds a state only through apply."""
    c = _core_of(s)
    _act(c, action)
    _put(c, s)


def _act(c: Core, action) -> None:
    """One legal decision on the Core, and the flips that follow it (_run, stopping at the next decision)."""
    _run(c, action)


def _take_random(c: Core, seat: int, k: int) -> list[Duck]:
    """Remove k random cards from seat's nest (face down: picked without looking)."""
    nest = c.nests[seat]
    m = len(nest)
    if c.chance is None or type(c.chance) is Chance2:  # sample(range(m), k), drawn in place: k calls of
        if k == 1:  # below() as Chance.sample and Chance2.sample make them, each swapping its pick forward
            picks = (_die(c, m),)
        else:
            pool = list(range(m))
            for i in range(k):
                j = i + _die(c, m - i)
                pool[i], pool[j] = pool[j], pool[i]
            picks = pool[:k]
    else:  # any other Chance lookalike: its own sample
        picks, c.chance = c.chance.sample(range(m), k)
    if k == 1:
        taken = [nest.pop(picks[0])]
    else:
        chosen = set(picks)
        taken = [nest[i] for i in picks]
        nest[:] = [x for i, x in enumerate(nest) if i not in chosen]
    where = c.taken[seat]
    if where:  # cards this nest took from others: drop the picked ones, close the gaps
        if k == 1:  # one gap (the commonest steal)
            i = picks[0]
            c.taken[seat] = [j - (i < j) for j in where if j != i]
        else:
            c.taken[seat] = [j - sum(1 for i in picks if i < j) for j in where if j not in picks]
    return taken


def _receive(c: Core, p: int, cards: list[Duck]) -> None:
    """Cards taken from another nest go into seat p's nest (and are noted as taken)."""
    n = len(c.nests[p])
    c.taken[p] += range(n, n + len(cards))
    c.nests[p] += cards


def _resolve_steal(c: Core | State, p: int, action: Steal, face: int) -> None:
    """The die showed `face` for `action` by seat p (DDB-7, DDB-8). Given a State (a test's
    hand-built table), plays on its Core and writes the State back."""
    if type(c) is State:
        core = _core_of(c)
        _resolve_steal(core, p, action, face)
        _put(core, c)
        return
    t, d = action
    cards = ()  # the cards that moved
    if face == PENALTY_FACE:
        if not c.nests[p]:
            c.facts.append((p, "backfire", 0))
            what = "backfire, empty"
        elif c.config.minus_one == "steal-back":
            cards = _take_random(c, p, 1)
            _receive(c, t, cards)
            c.facts.append((p, "backfire", 1))
            what = "backfire, stolen back"
        else:
            cards = _take_random(c, p, 1)
            c.discard += cards
            c.facts.append((p, "backfire", 1))
            what = "backfire, discarded"
    elif face >= d:
        k = min(d, len(c.nests[t]))
        c.facts.append((p, "stole", k))
        if k:
            cards = _take_random(c, t, k)
            _receive(c, p, cards)
            c.facts.append((t, "robbed", k))
            what = "stole"
        else:
            what = "stole, empty"
    else:
        c.facts.append((p, "missed", 0))
        what = "missed"
    if c.sink is not None:
        _log.say(c.sink, _said_steal, p, t, d, face, what, tuple(cards))


def _note_leader(c: Core) -> None:
    """play_core's turn_end: note simulate's `leader(progress(c))`, progress being the totals.
    Only a round's scoring changes the totals (DDB-10; _end_round makes a new list and calls
    this then), so the leader is worked out here, kept as `c.lead`, and _run notes it inline
    at every other turn's end."""
    c.lead = lead = c.leader(c.totals)
    c.leaders.append(lead)


def play_core(config: Config, chance, seat_funcs, rngs, checked, seat_names, leader):
    """simulate's fast loop (play_game's `play_core` hook): the whole game on one Core.

    Returns (the final Core, `leader(totals)` at each turn's end, decisions), exactly what
    play_game's own loop of new_game + legal_actions + bot + step gives: the same deals and
    rolls, the same draws from each seat's stream `rngs[p]`, the same turns. The package's
    bots choose on the Core (_run): `random` draws its index as random_bot does, the heuristic and
    threshold bots read the game through their narrow view (`decide`: the row, the unseen
    counts, the pile's size, the nests; never the pile's order). Any other bot (a user's,
    the exact and lookahead bots): None, before any draw, and play_game plays it."""
    decide = []
    for f in seat_funcs:
        if f is _bots.random_bot:
            decide.append(None)
        else:
            d = getattr(f, "decide", None)
            if d is None:
                return None
            decide.append(d)
    # A random seat's stream, bound once: getrandbits(0) draws nothing and seeds a LazySeatRandom (its
    # first call of any method does), so the bound method is then the seeded stream's own
    draws = [None] * len(rngs)
    for p, d in enumerate(decide):
        if d is None:
            rngs[p].getrandbits(0)
            draws[p] = rngs[p].getrandbits
    c = _start(config, chance)
    c.leaders = []
    c.leader = leader
    c.lead = leader(c.totals)
    c.turn_end = _note_leader
    n = config.players
    steals = [_steals(n, config.min_steal, config.max_steal, config.may_decline, p) for p in range(n)]
    if type(c.chance) is Chance2:  # the dice drawn in place (_die)
        c.dice, c.at = c.chance.streams, c.chance.dice
    actions = _begin(c, (decide, draws, rngs, checked, seat_names, steals))
    _caught_up(c)
    return c, c.leaders, actions


def _said_steal(p: int, t: int, d: int, face: int, what: str, cards) -> str:
    thief, victim = _SEATS[p], _SEATS[t]
    said = f"{thief} tries to steal {d} from {victim} and rolls {face}"
    if what == "backfire, empty":
        return f"{said}: backfire, but {thief}'s nest is empty."
    if what == "backfire, stolen back":
        return f"{said}: backfire! {victim} takes {_TEXTS[cards[0]]} from {thief}'s nest."
    if what == "backfire, discarded":
        return f"{said}: backfire! {_TEXTS[cards[0]]} from {thief}'s nest is discarded."
    if what == "stole":
        return f"{said}: takes {_cards(cards)}." if len(cards) == d else f"{said}: takes {_cards(cards)} (all {victim} had)."
    if what == "stole, empty":
        return f"{said}: success, but {victim}'s nest is empty."
    return f"{said}: too low, nothing happens."


def scores(state: State) -> list[int]:
    return list(state.totals)


def progress(state: State) -> tuple[int, ...]:
    """Who is ahead: the totals, as the tuple the state holds (simulate reads this at
    every turn's end; in this game only a round's scoring changes it, DDB-10)."""
    return state.totals


def round_scores(state: State) -> list[list[int]]:
    return [list(r) for r in state.history]


def winners(state: State) -> list[int]:
    """Highest total; tied players share the win (DDB-12)."""
    if not state.is_over:
        return []
    best = max(state.totals)
    return [i for i, t in enumerate(state.totals) if t == best]


def tallies(state: State) -> list[dict[str, int]]:
    """Per seat, what happened to it so far in the game ({name: count} for every
    name in TALLY), counted from state.facts as FACTS says."""
    columns = _columns(state)
    return [{name: columns[name][p] for name in TALLY} for p in range(state.config.players)]


def _columns(state: State) -> dict[str, list[int]]:
    """{name in TALLY: [count for each seat]}, counted from state.facts as FACTS says: one pass
    counting each (fact, seat) and adding up its cards, then each name's sums of those (simulate
    reads this once per game: a pass of a few list additions per fact, not a loop per fact)."""
    players = state.config.players
    size = _N_FACTS * players
    seen = [0] * size  # per fact and seat (fact * players + seat): how many times
    moved = [0] * size  # and the cards they counted
    at = _FACT_AT
    for p, fact, cards in state.facts:
        j = at[fact] * players + p
        seen[j] += 1
        moved[j] += cards
    columns = {}
    for name, sources in _TALLY_SOURCES:
        (per_card, f), *more = sources
        f *= players
        column = (moved if per_card else seen)[f : f + players]
        for per_card, f in more:
            f *= players
            column = [a + b for a, b in zip(column, (moved if per_card else seen)[f : f + players])]
        columns[name] = column
    return columns


# FACTS read the other way: a fact's place, and for each name in TALLY the (cards?, fact's place)
# whose counts (False) or cards (True) it adds up; what _columns sums once per game
_FACT_AT = {fact: i for i, fact in enumerate(FACTS)}
_N_FACTS = len(FACTS)
_TALLY_SOURCES = tuple(
    (name, tuple((cards, _FACT_AT[fact]) for fact, (once, per_card) in FACTS.items()
                 for cards in (False, True) if (per_card == name if cards else name in once)))
    for name in TALLY)


# What each column of game_stats / score_sources (points_<source>) counts, and the rule it
# follows: `meeple simulate --measure`, the summary and the Explorer show these words.
MEASURES = {
    "doubles":                 "turns this seat lost to a double (DDB-5)",
    "bruces":                  "turns this seat lost to Bruce (DDB-6); per game (all seats' mean) a constant: "
                               "every Bruce card ends one turn, rounds x Bruce cards / players "
                               f"({Config().rounds * Config().bruce_cards / Config().players:.2f} by default); "
                               "the bust rate is bust_rate",
    "ducks_busted":            "ducks of this seat's row lost to doubles and Bruce (DDB-5, DDB-6)",
    "steals_declined":         "steals this seat could have tried and declined (DDB-6)",
    "steals_tried":            "steals this seat tried (DDB-6, DDB-7)",
    "steals_succeeded":        "steals whose roll reached the declared number (DDB-7)",
    "cards_stolen":            "cards this seat took from other nests by stealing (DDB-7)",
    "cards_lost_to_thieves":   "cards other players stole from this seat's nest (DDB-7)",
    "backfires":               "steals of this seat that rolled -1 (DDB-8)",
    "cards_lost_to_backfires": "cards this seat lost by its own -1 rolls (DDB-8)",
    "turns_taken":             "turns this seat took (DDB-2): stopped, busted, or ended by the last card (DDB-9)",
    "bust_rate":               "busts per turn this seat took: (doubles + bruces) / turns_taken (DDB-5, DDB-6); "
                               "per game (all seats' mean) the seats' rates averaged",
    "points_flipped":          "points this seat's own flipped cards would have scored alone (DDB-10)",
    "points_taken":            "points added by cards taken from other nests (DDB-7, DDB-8, DDB-10)",
}


def game_stats(state: State) -> dict:
    """Columns for simulate's table (one list entry per seat): busts by doubles
    and by Bruce and the ducks they threw away, steals declined / tried /
    succeeded, cards stolen and lost to thieves, -1 backfires and the cards
    they cost, the turns each seat took and its bust rate (the simulate hook).

    bust_rate[p] = (doubles[p] + bruces[p]) / turns_taken[p]: a bust is a turn ended by a
    double (DDB-5, even when it kept the cards before the pair) or by Bruce (DDB-6); None for a
    seat that took no turn (no value, left out of the means). Per game, the tables' mean over
    the seats averages the seats' rates (each seat weighs the same), which differs from all
    busts / all turns only as the seats' turn counts differ (at most one turn a round)."""
    columns = _columns(state)
    del columns["points_taken"]  # in score_sources
    turns = state.turns_taken
    columns["turns_taken"] = list(turns)
    columns["bust_rate"] = [(d + b) / t if t else None
                            for d, b, t in zip(columns["doubles"], columns["bruces"], turns)]
    return columns


# Rule usage (issue 25): per game, how often each number of the rules could matter, so a
# comparison can say when a changed number was never used (a die face no steal rolls).
# Counted from game_stats (the hook simulate reads): the games play as before.
ALWAYS_APPLIES = {
    "players": "the seats and the nests (DDB-2)",
    "suits": "the deck every round (DDB-1)",
    "numbers": "the deck every round (DDB-1)",
    "bruce_cards": "the deck every round (DDB-1)",
    "end": "when the game ends (DDB-12)",
    "seat_points": "every seat's total starts from it (DDB-14)",
}
USAGE = {
    "die": "steals tried: each rolls the die (DDB-7)",
    "minus_one": "steals that rolled -1 (DDB-8)",
    "min_steal": "steals tried: each declares a number (DDB-6)",
    "max_steal": "steals tried: each declares a number (DDB-6)",
    "may_decline": "chances to steal, taken or declined (DDB-6)",
    "rounds": "rounds played to a fixed number of rounds (DDB-12)",
    "target": "rounds played to a target score (DDB-12)",
    "next_start": "rounds after the first: each chooses who starts (DDB-11)",
}


# Same shape in every game module (the registry's contract, rules/protocol.py): each game's own rule numbers and counts.
def rule_usage(config: Config, game) -> dict[str, int]:
    """For one simulated game (its game_stats in `game.stats`): how often each USAGE number could matter."""
    stats, rounds = game.stats, game.rounds
    tried = sum(stats["steals_tried"])
    return {
        "die": tried,
        "minus_one": sum(stats["backfires"]),
        "min_steal": tried,
        "max_steal": tried,
        "may_decline": tried + sum(stats["steals_declined"]),
        "rounds": rounds if config.end == "rounds" else 0,
        "target": rounds if config.end == "target" else 0,
        "next_start": max(0, rounds - 1),
    }


def score_sources(state: State) -> list[dict[str, int]]:
    """Per seat, the game's points split into "flipped" (what the player's own
    cards would have scored alone, round by round) and "taken" (what the cards
    taken from other nests, by stealing or by an opponent's -1, added on top).
    Only a suit's highest duck scores (DDB-10), so a card's points depend on
    the rest of the nest: the split counts own cards first, and the parts add
    up to scores(state) (the simulate hook) less the points the seat started with (DDB-14)."""
    taken = [0] * state.config.players
    for p, fact, cards in state.facts:
        if fact == "taken points":
            taken[p] += cards
    start = seat_values(state.config, "seat_points")
    return [{"flipped": total - s - t, "taken": t} for t, s, total in zip(taken, start, state.totals)]


def observation(state: State, player: int) -> Observation:
    if type(player) is not int or not 0 <= player < state.config.players:
        player = check_seat(state.config, player)  # a numpy seat, or one it refuses with its message
    unseen = state._unseen
    if unseen is None:  # count once; every flip then keeps it current
        unseen = state._unseen = _count_unseen_suits(state.config, state.row, state.discard, state.nests)
    # Filled in through __dict__: a frozen dataclass's __init__ sets its 12 fields one
    # object.__setattr__ at a time, and bots ask for an observation on every move.
    obs = _new_observation(Observation)
    attrs = obs.__dict__
    attrs["player"] = player
    attrs["config"] = state.config
    attrs["round"] = state.round
    attrs["start_player"] = state.start_player
    attrs["current_player"] = state.current_player
    attrs["phase"] = state.phase
    attrs["pile_size"] = state._left
    attrs["row"] = state.row
    attrs["discard"] = state.discard
    attrs["nests"] = state.nests
    attrs["totals"] = state.totals
    attrs["history"] = state.history
    attrs["unseen_suits"] = MappingProxyType(unseen)  # the cached_property's value, shared read-only
    return obs


_new_observation = object.__new__


# Same shape in every game module (the lookahead's contract): each game rebuilds its own State's fields from what a seat sees.
def determinize(obs: Observation, rng: random.Random) -> State:
    """A state consistent with `obs`: the unseen cards in a random pile order,
    future chance reseeded from `rng`. Nothing else is hidden (DDB-13)."""
    pile = obs.unseen()
    rng.shuffle(pile)
    return State(
        config=obs.config,
        chance=Chance(rng.getrandbits(63)),
        round=obs.round,
        start_player=obs.start_player,
        current_player=obs.current_player,
        phase=obs.phase,
        _dealt=tuple(pile),
        _left=len(pile),
        row=obs.row,
        discard=obs.discard,
        nests=obs.nests,
        totals=obs.totals,
        history=obs.history,
        taken=((),) * obs.config.players,  # statistics bookkeeping starts afresh in a sampled world
        turns_taken=(0,) * obs.config.players,
        _events=None,  # a sampled world: nobody reads its events
        is_over=obs.phase == OVER,
        _unseen=dict(obs.unseen_suits),
    )


def check_state(state: State) -> None:
    """Cards are conserved (DDB-1) and the row and phase make sense."""
    cfg = state.config
    cards = Counter(state.pile) + Counter(state.row) + Counter(state.discard)
    for nest in state.nests:
        cards += Counter(nest)
        assert all(type(c) is Duck for c in nest), "a Bruce in a nest"
    assert cards == _deck_counts(cfg.suits, cfg.numbers, cfg.bruce_cards), "cards not conserved"
    assert len({c.suit for c in state.row}) == len(state.row), "two ducks of a suit in the row"
    assert all(type(c) is Duck for c in state.row), "a Bruce in the row"
    start = seat_values(cfg, "seat_points")  # DDB-14
    assert sum(state.totals) == sum(start) + sum(map(sum, state.history)), "totals differ from round scores"
    n = cfg.players
    assert len(state.taken) == n, "statistics bookkeeping has the wrong shape"
    for nest, where in zip(state.nests, state.taken):
        assert list(where) == sorted(set(where)) and all(0 <= i < len(nest) for i in where), "taken cards misplaced"
    counts = tallies(state)
    assert all(v >= 0 for c in counts for v in c.values()), "a negative count"
    assert sum(c["cards_stolen"] for c in counts) == sum(c["cards_lost_to_thieves"] for c in counts)
    assert all(c["points_taken"] <= t - s for c, t, s in zip(counts, state.totals, start)), "taken cards scored more than the nest"
    if state.phase == DECIDE:
        assert state.row and state.pile, "a flip-or-stop choice needs a row and a card to flip"
    elif state.phase == STEAL:
        assert not state.row, "a Bruce clears the row"
    else:
        assert state.is_over and state.current_player is None


# --- bots -------------------------------------------------------------------------

@lru_cache(maxsize=64)  # keyed by the die and the claims: hashing a whole Config costs microseconds
def _die_odds(die: tuple[int, ...], min_steal: int, max_steal: int) -> tuple[dict[int, float], float]:
    """({claim: chance the roll is at least it}, chance of the backfire face)."""
    n = len(die)
    wins = {d: sum(1 for f in die if f >= d) / n for d in range(min_steal, max_steal + 1)}
    return wins, sum(1 for f in die if f == PENALTY_FACE) / n


def _removal_loss(nest) -> int:
    """What a nest's owner loses, summed over its cards, if that one card were
    taken: only a suit's unique highest duck costs anything (the gap to the next)."""
    top: dict[str, list[int]] = {}  # suit -> [highest, how many, next highest]
    for suit, n in nest:
        t = top.get(suit)
        if t is None:
            top[suit] = [n, 1, 0]
        elif n > t[0]:
            t[0], t[1], t[2] = n, 1, t[0]
        elif n == t[0]:
            t[1] += 1
        elif n > t[2]:
            t[2] = n
    loss = 0
    for high, k, below in top.values():
        if k == 1:
            loss += high - below
    return loss


def steal_choice(obs: Observation, legal: list, rng: random.Random | None = None) -> Steal:
    """A rule-of-thumb steal: value a random card of each nest by what it adds
    to mine plus what it costs its owner, weigh by the die, decline if nothing pays.
    Equally good steals (two nests alike): `rng` picks (None: the first listed)."""
    return _steal_pick(obs.config, obs.nests, obs.player, legal, rng)


def _steal_pick(cfg: Config, nests, me: int, legal, rng) -> Steal:
    """steal_choice from the narrow view it reads: the nests (face down, but every card
    in one was seen, DDB-13) and whose they are."""
    mine = nests[me]
    my_best = _best_by_suit(mine)
    win, backfire = _die_odds(cfg.die, cfg.min_steal, cfg.max_steal)
    my_loss = _removal_loss(mine) / len(mine) if mine else 0.0
    if cfg.minus_one == "steal-back":
        my_loss *= 2  # the card also helps that opponent
    risk = backfire * my_loss  # what every steal risks
    per_card = {}  # target -> (cards in their nest, value of one random card of it)
    best, best_value = None, 0.0 if cfg.may_decline else None
    for a in legal:
        t, d = a
        if t is None:
            continue
        known = per_card.get(t)
        if known is None:  # the first claim on this nest: value its cards once
            theirs = nests[t]
            size = len(theirs)
            known = per_card[t] = (size, _card_value(theirs, my_best) if size else 0.0)
        size, value = known
        value = (win[d] * min(d, size) * value if size else 0.0) - risk
        if best_value is None or value > best_value:
            best, best_value = [a], value
        elif value == best_value and best is not None:
            best.append(a)
    if best is None:
        return NO_STEAL
    return best[0] if len(best) == 1 or rng is None else best[_bots.below(rng, len(best))]


def _card_value(theirs, my_best: dict[str, int]) -> float:
    """One random card of a nest: what it adds to mine (my best duck of its suit,
    `my_best`) plus what it costs its owner (steal_choice)."""
    gain = 0
    for suit, n in theirs:
        n -= my_best.get(suit, 0)
        if n > 0:
            gain += n
    return (gain + _removal_loss(theirs)) / len(theirs)


def threshold_bot(k: int):
    """Stop once the row holds k ducks (the threshold-k family)."""

    def decide(phase, me, row, unseen, pile_size, nests, cfg, legal, rng):
        """The choice from the narrow view the bot reads (simulate's fast loop passes the Core's own)."""
        if phase == STEAL:
            return _steal_pick(cfg, nests, me, legal, rng)
        return STOP if len(row) >= k else FLIP

    def bot(obs: Observation, legal: list, rng: random.Random):
        return decide(obs.phase, obs.player, obs.row, obs.unseen_suits, obs.pile_size, obs.nests, obs.config, legal, rng)

    bot.__name__ = f"threshold-{k}"
    bot.decide = decide
    return bot


def _bust_chance(obs: Observation) -> float:
    """bust_probability for the observed row, in floats, from the unseen cards by suit:
    a Bruce, or a duck of a suit in the row (one each, DDB-5)."""
    return _bust(obs.unseen_suits, obs.row, obs.pile_size)


def _bust(unseen: Mapping[str, int], row, pile_size: int) -> float:
    """_bust_chance from the narrow view it reads: the unseen cards by suit, the row, the pile's size."""
    busts = unseen["Bruce"]
    for c in row:
        busts += unseen[c.suit]
    return busts / pile_size


def heuristic_bot(level: float = 0.35):
    """Stop when the chance that the next flip ends the turn passes `level`."""

    def decide(phase, me, row, unseen, pile_size, nests, cfg, legal, rng):
        """The choice from the narrow view the bot reads (simulate's fast loop passes the Core's own)."""
        if phase == STEAL:
            return _steal_pick(cfg, nests, me, legal, rng)
        return STOP if _bust(unseen, row, pile_size) > level else FLIP

    def bot(obs: Observation, legal: list, rng: random.Random):
        return decide(obs.phase, obs.player, obs.row, obs.unseen_suits, obs.pile_size, obs.nests, obs.config, legal, rng)

    bot.__name__ = f"heuristic-{level}"
    bot.decide = decide
    return bot


def exact_greedy_bot(obs: Observation, legal: list, rng: random.Random):
    """Flip only when one more flip raises the expected nest score (best_stop)."""
    if obs.phase == STEAL:
        return steal_choice(obs, legal, rng)
    unseen = _unseen_counts(obs).elements()
    return STOP if best_stop(obs.row, unseen, obs.config, obs.nests[obs.player]) else FLIP


def lookahead_bot(depth: int = 2, tempo: float = 0.35):
    """Exact expectimax over the unseen cards, `depth` flips ahead, valuing
    each card it flips at `tempo` on top of the nest score it expects: a card
    flipped in my turn is one no opponent will flip (see the seeds md)."""

    def bot(obs: Observation, legal: list, rng: random.Random):
        if obs.phase == STEAL:
            return steal_choice(obs, legal, rng)
        unseen = _unseen_counts(obs).elements()
        stop, flip = _values(obs.row, unseen, obs.nests[obs.player], depth, float, tempo)
        return FLIP if flip > stop + 1e-9 else STOP

    bot.__name__ = f"lookahead-{depth}"
    return bot


BOTS = {
    "random": _bots.random_bot,
    **{f"threshold-{k}": threshold_bot(k) for k in range(1, 6)},
    "heuristic": heuristic_bot(),
    "exact-greedy": exact_greedy_bot,
    "lookahead": lookahead_bot(),
}
# Determinised Monte Carlo to the end of the round (the shared lookahead):
# kept to show why it is weak here (see seeds/duck_duck_bruce.md, Bot strength).
BOTS["monte-carlo"] = _bots.lookahead(sys.modules[__name__], samples=8, policy=BOTS["heuristic"], name="monte-carlo")
