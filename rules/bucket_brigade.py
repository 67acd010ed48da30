"""Bucket Brigade (Reiner Knizia; first published as Honeybears): a card race.

Players play one card a turn to move one of four hedgehogs up a track; the
round ends the moment a hedgehog reaches the last space, and every card
still in hand scores the value of the space its hedgehog stands on.
Rules are numbered as in seeds/bucket_brigade.md (BB-1, ...).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, NamedTuple

from . import bots as _bots
from . import log as _log
from .chance import Chance, check_seed, start
from .config import Alias, RuleConfig, need, need_range, need_seats, player_count_alias, seat_values
from .protocol import MAX_STEPS, check_seat, protocol_state, resolve_config

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


class _CardPlays(dict):
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


class _Box:
    """What the game's box holds for one Config, worked out once rather than on every move:
    the deck (the same Card objects every round), the track and its last space, each
    colour's place, the order a hand is sorted in and the plays each card allows."""

    __slots__ = ("config", "colours", "index", "deck", "track", "end", "order", "plays", "counted")

    def __init__(self, config: Config):
        self.config = config
        self.colours = config.colours
        self.index = _colour_index(config.colours)
        self.deck = tuple(config.deck())
        self.track = config.track
        self.end = len(config.track) - 1
        self.order = _hand_order(config.colours)
        self.plays = _CardPlays(config.colours)
        # counted[ones][twos]: _times_counted for every count of one colour's cards the deck allows
        self.counted = [[_times_counted(o, t, config) for t in range(config.two_step_cards + 1)]
                        for o in range(config.one_step_cards + 1)]

    def __reduce__(self):  # a pickled state carries its Config; the box is remade from it
        return _box, (self.config,)


_BOXES: dict[int, _Box] = {}  # id(config) -> its box (which keeps the config, so the id stays its own)


def _box(config: Config) -> _Box:
    box = _BOXES.get(id(config))
    if box is None or box.config is not config:
        if len(_BOXES) >= 64:  # a long sweep makes many configs: start afresh rather than grow
            _BOXES.clear()
        box = _BOXES[id(config)] = _Box(config)
    return box


@protocol_state("events")
@dataclass(slots=True)
class State:
    """The whole game at one moment, hidden hands included."""

    config: Config
    chance: Chance
    round: int
    start_player: int
    current_player: int | None
    hands: tuple[tuple[Card, ...], ...]
    positions: tuple[int, ...]  # space index of each colour's hedgehog
    played: tuple[Card, ...]  # this round's discard pile, face up
    removed: tuple[Card, ...]  # set aside unseen this round (BB-2)
    totals: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]  # points of each finished round
    enders: tuple[int | None, ...]  # who ended each finished round (None: hands ran out)
    is_over: bool = False
    # The event log, shared with the states before and after this one (rules/log.py): O(1) appends;
    # None in simulate's own states and in sampled worlds, where nobody reads it.
    _events: list | None = field(default_factory=list, compare=False, repr=False)
    _n_events: int = field(default=0, compare=False, repr=False)
    # Called with the state at the end of every turn (new_game's `turn_end`; simulate counts turns with it).
    _turn_end: Any = field(default=None, compare=False, repr=False)
    # The config's _Box (its deck, track end, the plays each card allows), looked up once per state.
    _box: Any = field(default=None, compare=False, repr=False)
    # (hands, config, each seat's legal plays) for the `hands` tuple it was worked out from: step keeps
    # it up to date (a card played changes one seat's plays, or none); any other new `hands` remakes it.
    _plays: Any = field(default=None, compare=False, repr=False)

    events = _log.events_property()


@dataclass(frozen=True)
class Observation:
    """What one seat may see: its own hand and everything on the table."""

    player: int
    config: Config
    round: int
    start_player: int
    current_player: int | None
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    positions: tuple[int, ...]
    played: tuple[Card, ...]
    totals: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]


def _seat(p: int) -> str:
    return f"Player {p + 1}"


class _Core:
    """The game as a lean loop holds it: plain lists and ints, changed in place by the rules below
    (_deal_core, _play_core, _score_core), the only copy of them. simulate plays on one directly
    (play_core); a public State is a view of one: step builds a core from the State, plays the
    move on it and writes the State's tuples back (_core_of, _sync).

    `ones`/`twos`: each seat's one- and two-step cards per colour, kept up to date for the heuristic
    (None when no seat reads them); `plays`: each seat's legal plays (_hand_plays of its hand), kept
    up to date (None: not kept). `say`: the State whose event log the rules write to, or None.
    `turn_end(core)`: called at the end of every turn, or None. `last_round`: the game ends when
    the round being played is scored (a lookahead's rollout: no next deal to shuffle)."""

    __slots__ = ("config", "box", "chance", "round", "start_player", "current_player", "hands", "positions",
                 "played", "removed", "totals", "history", "enders", "is_over", "ones", "twos", "plays", "say", "turn_end",
                 "last_round")


def _deal_core(c: _Core, round_: int) -> None:
    """Start round `round_`: BB-2, BB-4, BB-12."""
    cfg, box = c.config, c.box
    deck, c.chance = c.chance.shuffled(box.deck)
    n, h = cfg.players, cfg.hand_size
    removed = len(deck) - n * h
    c.removed = deck[:removed]
    order = box.order
    c.hands = [sorted(deck[removed + i * h : removed + (i + 1) * h], key=order) for i in range(n)]
    if c.ones is not None:
        counts = [_counts_by_colour(hand, box.colours, box.index) for hand in c.hands]
        c.ones, c.twos = [o for o, _ in counts], [t for _, t in counts]
    if c.plays is not None:
        c.plays = [_hand_plays(hand, box.plays) for hand in c.hands]
    c.positions = [0] * len(cfg.colours)
    c.played = []
    c.round = round_
    c.start_player = c.current_player = round_ % n  # BB-12: the start passes left each round
    if c.say is not None:
        _log.say(c.say, _said_deal, round_, c.start_player, h, removed)


def _play_core(c: _Core, p: int, action: Play) -> None:
    """Seat p plays a legal `action`: BB-5 to BB-8, BB-14; the round is scored when it ends."""
    box = c.box
    card = action.card
    hand = c.hands[p]
    i = hand.index(card)
    del hand[i]
    own = card.colour
    if own is not None and c.ones is not None:
        (c.twos if card.steps == 2 else c.ones)[p][box.index[own]] -= 1
    if c.plays is not None and card not in hand[i : i + 1]:  # its last copy (hands are in order): its plays go
        mine, gone = c.plays[p], box.plays[card]
        j = mine.index(gone[0])
        c.plays[p] = mine[:j] + mine[j + len(gone) :]
    c.played.append(card)
    spaces = c.positions
    k = box.index[action.colour]
    to = spaces[k] + card.steps
    end = box.end
    if to > end:
        to = end  # BB-8: overshoot stops on the last space
    spaces[k] = to
    say = c.say
    if say is not None:
        _log.say(say, _said_play, p, action, to, box.track[to])
    if to == end:
        if say is not None:
            _log.say(say, f"The {action.colour} hedgehog reaches the last space: {_seat(p)} ends the round.")
        _score_core(c, p)
    elif not any(c.hands):
        if say is not None:
            _log.say(say, "Every hand is empty before any hedgehog reached the end: no one gets the bonus.")
        _score_core(c, None)
    else:
        if c.turn_end is not None:
            c.turn_end(c)
        c.current_player = p + 1 if p + 1 < c.config.players else 0  # BB-5: clockwise


def _score_core(c: _Core, ender: int | None) -> None:
    """BB-9 to BB-11 at a round's end; the next round is dealt, or the game is over (BB-12)."""
    cfg = c.config
    spaces, index = c.positions, c.box.index
    points = tuple(_hand_score(h, spaces, cfg, seat == ender, index) for seat, h in enumerate(c.hands))
    c.totals = [t + q for t, q in zip(c.totals, points)]
    c.history = (*c.history, points)  # tuples: a State shares them as they are
    c.enders = (*c.enders, ender)
    if c.say is not None:
        _log.say(c.say, _said_scores, c.round, points)
    if c.turn_end is not None:  # the round's last turn ends with its scoring
        c.turn_end(c)
    if len(c.history) >= cfg.total_rounds or c.last_round:
        c.is_over = True
        c.current_player = None
        if c.say is not None:
            _log.say(c.say, _said_winners, winners(c))
    else:
        _deal_core(c, c.round + 1)


def _new_core(config: Config, chance: Chance, counts: bool = False) -> _Core:
    """A game's core before its first deal."""
    c = _Core()
    c.config, c.box, c.chance = config, _box(config), chance
    c.round = c.start_player = c.current_player = 0
    c.hands, c.positions, c.played, c.removed = [], [], [], []
    c.totals, c.history, c.enders = list(seat_values(config, "seat_points")), (), ()  # BB-15
    c.is_over = False
    c.ones = c.twos = [] if counts else None
    c.plays = []
    c.say = c.turn_end = None
    c.last_round = False
    return c


def _core_of(s: State, mover: int | None = None) -> _Core:
    """A core holding State s, writing its events to s and ending its turns with s brought up to date
    first (what the State's turn_end is shown). What a move changes is copied into lists (the
    mover's hand, the played cards, the spaces); the rest is shared with s as it is."""
    c = _Core()
    c.config, c.box, c.chance = s.config, _box_of(s), s.chance
    c.round, c.start_player, c.current_player = s.round, s.start_player, s.current_player
    c.hands = list(s.hands)
    if mover is not None:
        c.hands[mover] = list(c.hands[mover])
    c.positions, c.played, c.removed = list(s.positions), list(s.played), s.removed
    c.totals, c.history, c.enders = s.totals, s.history, s.enders
    c.is_over = s.is_over
    c.ones = c.twos = None
    memo = s._plays  # each seat's plays, if they were listed from these very hands (then in order)
    c.plays = list(memo[2]) if memo is not None and memo[0] is s.hands and memo[1] is s.config else None
    c.say = s if s._events is not None else None
    c.last_round = False
    hook = s._turn_end
    c.turn_end = None if hook is None else (lambda core: (_sync(core, s), hook(s)))
    return c


def _sync(c: _Core, s: State) -> None:
    """Write core c back into State s as tuples."""
    s.chance, s.round, s.start_player, s.current_player = c.chance, c.round, c.start_player, c.current_player
    s.hands = tuple(map(tuple, c.hands))  # tuple() of a tuple is that tuple: only changed hands are copied
    s.positions, s.played, s.removed = tuple(c.positions), tuple(c.played), tuple(c.removed)
    s.totals, s.history, s.enders = tuple(c.totals), c.history, c.enders
    s.is_over = c.is_over
    if c.plays is not None:
        s._plays = (s.hands, s.config, tuple(c.plays))


def _state_of(c: _Core, turn_end=None) -> State:
    """The public State of core c (no event log)."""
    s = State(config=c.config, chance=c.chance, round=0, start_player=0, current_player=0, hands=(), positions=(),
              played=(), removed=(), totals=(), history=(), enders=(), _events=None, _turn_end=turn_end)
    _sync(c, s)
    return s


def _said_deal(round_: int, start: int, h: int, removed: int) -> str:
    return (f"Round {round_ + 1}: {_seat(start)} starts; each player holds {h} cards"
            + (f" ({removed} set aside unseen)." if removed else "."))


def _card_key(c: Card):
    return (c.colour is None, c.colour or "", c.steps)


_HAND_ORDER: dict[tuple[str, ...], object] = {}


def _hand_order(colours: tuple[str, ...]):
    """A sort key giving _card_key's order by one dict lookup (cached per colour set)."""
    key = _HAND_ORDER.get(colours)
    if key is None:
        cards = [Card(c, s) for c in (*colours, None) for s in (1, 2)]
        key = _HAND_ORDER[colours] = {c: i for i, c in enumerate(sorted(cards, key=_card_key))}.__getitem__
    return key


def new_game(config: Config | None = None, seed: int = 0, chance: Chance | None = None, events: bool = True,
             turn_end=None) -> State:
    """A new game; `events=False` keeps no event text (simulate's own states, never shown).
    `turn_end(state)` is called at the end of every turn: after each card played (BB-5),
    once a round it ended is scored, before the next turn begins."""
    config = resolve_config(Config, config)
    state = State(
        config=config,
        chance=start(check_seed(seed)) if chance is None else chance,
        round=0,
        start_player=0,
        current_player=0,
        hands=(),
        positions=(),
        played=(),
        removed=(),
        totals=seat_values(config, "seat_points"),  # BB-15
        history=(),
        enders=(),
        _events=[] if events else None,
        _turn_end=turn_end,
    )
    c = _core_of(state)
    c.plays = []  # the deal lists each seat's plays
    _deal_core(c, 0)
    _sync(c, state)
    return state


def legal_actions(state: State) -> list[Play]:
    """One play per distinct card in hand, in the hand's order; a joker once per colour (BB-6, BB-7)."""
    if state.is_over:
        return []
    memo = state._plays
    if memo is None or memo[0] is not state.hands or memo[1] is not state.config:
        memo = _list_plays(state)
    return list(memo[2][state.current_player])


def _box_of(s: State) -> _Box:
    """The state's box: looked up once per state (and again if its config was replaced)."""
    box = s._box
    if box is None or box.config is not s.config:
        box = s._box = _box(s.config)
    return box


def _hand_plays(hand, plays: _CardPlays) -> tuple[Play, ...]:
    """The plays a hand allows: each distinct card's, in the hand's order."""
    return tuple(chain.from_iterable(map(plays.__getitem__, dict.fromkeys(hand))))


def _list_plays(s: State) -> tuple:
    """(hands, config, every seat's legal plays), listed afresh. Kept on the state (`_plays`) when
    every hand is in order, as dealt: step can then keep it up to date (a hand built by hand may not be)."""
    box = _box_of(s)
    memo = (s.hands, s.config, tuple(_hand_plays(h, box.plays) for h in s.hands))
    if all(_in_order(h, box.order) for h in s.hands):
        s._plays = memo
    return memo


def _in_order(hand, order) -> bool:
    try:
        keys = list(map(order, hand))
    except KeyError:  # a card no deck of these colours holds (a hand built by hand)
        return False
    return keys == sorted(keys)


def round_score(hand, positions: dict[str, int], config: Config, ended_round: bool) -> int:
    """Points a hand scores at round end (BB-9, BB-10, BB-11).

    `positions` maps colour -> space index on `config.track`.
    """
    return _hand_score(hand, [positions.get(c) for c in config.colours], config, ended_round)


def _hand_score(hand, spaces, config: Config, ended_round: bool, index: dict[str, int] | None = None) -> int:
    """round_score with the hedgehogs' spaces in colour order (`index`: _colour_index(config.colours))."""
    track = config.track
    ones, twos = _counts_by_colour(hand, config.colours, index)
    card_points = 0
    for k, at in enumerate(spaces):
        if ones[k] or twos[k]:
            card_points += _colour_points(ones[k], twos[k], track[at], config)
    return _round_total(card_points, config, ended_round)


def _counts_by_colour(hand, colours, index: dict[str, int] | None = None) -> tuple[list[int], list[int]]:
    """(one-step, two-step) coloured cards in `hand`, per colour; jokers score nothing."""
    if index is None:
        index = _colour_index(colours)
    ones, twos = [0] * len(colours), [0] * len(colours)
    for colour, steps in hand:
        if colour is not None:
            if steps == 2:
                twos[index[colour]] += 1
            else:
                ones[index[colour]] += 1
    return ones, twos


def _colour_points(ones: int, twos: int, value: int, config: Config) -> int:
    """What one colour's cards in a hand score with its hedgehog on a space worth `value`."""
    return _times_counted(ones, twos, config) * value


def _times_counted(ones: int, twos: int, config: Config) -> int:
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


def _colour_index(colours: tuple[str, ...]) -> dict[str, int]:
    index = _COLOUR_INDEX.get(colours)
    if index is None:
        index = _COLOUR_INDEX[colours] = {c: k for k, c in enumerate(colours)}
    return index


def _said_scores(round_: int, points: tuple[int, ...]) -> str:
    return f"Round {round_ + 1} scores: " + ", ".join(f"{_seat(i)} {p}" for i, p in enumerate(points)) + "."


def _said_winners(w: list[int]) -> str:
    return "Game over: " + " and ".join(_seat(i) for i in w) + (" win." if len(w) > 1 else " wins.")


def apply(state: State, action: Play) -> State:
    """Play one card (BB-5 to BB-8); score and redeal when the round ends."""
    if state.is_over:
        raise ValueError("the game is over; no more actions")
    cfg = state.config
    p = state.current_player
    hand = state.hands[p]
    if not isinstance(action, Play) or action.card not in hand or action.colour not in cfg.colours or (
        action.card.colour is not None and action.card.colour != action.colour
    ):
        raise ValueError(f"{action!r} is not legal for {_seat(p)}; legal: {', '.join(map(str, legal_actions(state)))}")
    s = state._copy()
    step(s, action)
    return s


def _said_play(p: int, action: Play, to: int, worth: int) -> str:
    return f"{_seat(p)} plays {action.card}: the {action.colour} hedgehog moves to space {to} (worth {worth})."


def step(s: State, action: Play) -> None:
    """Play a legal `action` on `s` in place: apply's work without the copy and
    without checking the action. The rules are the core's: s is read into one,
    the move played on it, and s written back."""
    p = s.current_player
    c = _core_of(s, p)
    _play_core(c, p, action)
    _sync(c, s)


def scores(state: State) -> list[int]:
    return list(state.totals)


def round_scores(state: State) -> list[list[int]]:
    return [list(r) for r in state.history]


def winners(state: State) -> list[int]:
    """Most points; a tie goes to the higher score in the last round; still tied, all share (BB-13)."""
    if not state.is_over:
        return []
    best = max(state.totals)
    tied = [i for i, t in enumerate(state.totals) if t == best]
    last = state.history[-1]
    top = max(last[i] for i in tied)
    return [i for i in tied if last[i] == top]


# What each column of game_stats / score_sources (points_<source>) counts, and the rule it
# follows: `meeple simulate --measure`, the summary and the Explorer show these words.
MEASURES = {
    "rounds_ended":       "rounds this seat ended, taking the bonus (BB-8, BB-9)",
    "rounds_unended":     "rounds that ended with every hand empty, no bonus for anyone (BB-14)",
    "points_hand":        "points from the cards left in hand (BB-9, BB-10)",
    "points_ender_bonus": "points from the bonus for ending a round (BB-9)",
}


def game_stats(state: State) -> dict:
    """Extra columns for simulations: rounds each seat ended (taking the bonus),
    and rounds that ended with every hand empty."""
    return {
        "rounds_ended": [state.enders.count(p) for p in range(state.config.players)],
        "rounds_unended": state.enders.count(None),
    }


# Rule usage (issue 25): per game, how often each number of the rules could matter, so a
# comparison can say when a changed number was never used. Counted from what simulate keeps
# of a game (game_stats, rounds): the records and their game_stats stay as they were. An upper bound
# where the exact occasion is not kept ("could matter" never undercounts).
ALWAYS_APPLIES = {
    "players": "the seats, the hands and the number of rounds (BB-2, BB-12)",
    "colours": "every round's deck and hedgehogs (BB-1)",
    "one_step_cards": "every round's deck is dealt from it (BB-1, BB-2)",
    "two_step_cards": "every round's deck is dealt from it (BB-1, BB-2)",
    "joker_one_step": "every round's deck is dealt from it (BB-1, BB-2)",
    "joker_two_step": "every round's deck is dealt from it (BB-1, BB-2)",
    "track": "every round's points read the track at each hedgehog's space (BB-9)",
    "advanced": "it chooses how every round is scored (BB-9, BB-10)",
    "rounds": "it sets how many rounds are played (BB-12)",
    "seat_points": "every seat's total starts from it (BB-15)",
}
USAGE = {
    "hand_sizes": "rounds dealt with this entry (the one for the player count, BB-2)",
    "bonus": "rounds a player ended, taking the bonus (BB-8, BB-9)",
    "pair_multiplier": "rounds scored by the advanced rules (BB-10; an upper bound)",
    "two_step_multiplier": "rounds scored by the advanced rules (BB-10; an upper bound)",
    "floor_zero": "rounds scored (BB-11: any round's total may come to 0 or less; an upper bound)",
}


# Same shape in every game module (the registry's contract, rules/protocol.py): each game's own rule numbers and counts.
def rule_usage(config: Config, game) -> dict[str, int]:
    """For one simulated game (its game_stats in `game.stats`): how often each USAGE number could matter."""
    stats, rounds = game.stats, game.rounds
    return {
        **{f"hand_sizes[{i}]": rounds if i == config.players - 3 else 0 for i in range(len(config.hand_sizes))},
        "bonus": sum(stats["rounds_ended"]),
        "pair_multiplier": rounds if config.advanced else 0,
        "two_step_multiplier": rounds if config.advanced else 0,
        "floor_zero": rounds,
    }


def score_sources(state: State) -> list[dict[str, int]]:
    """Each seat's points split into cards left in hand and the ender bonus (BB-9).

    A round's points are hand + bonus, floored at zero (BB-11): when that
    leaves the round at 0, neither source counted; otherwise the bonus counted
    in full and the hand gave the rest (which can be negative). Points a seat
    started with (BB-15, `seat_points`) are neither: they are the score less the sources.
    """
    cfg = state.config
    out = [{"hand": 0, "ender_bonus": 0} for _ in range(cfg.players)]
    for points, ender in zip(state.history, state.enders):
        for seat, p in enumerate(points):
            bonus = cfg.bonus if seat == ender and (p > 0 or not cfg.floor_zero) else 0
            out[seat]["ender_bonus"] += bonus
            out[seat]["hand"] += p - bonus
    return out


def observation(state: State, player: int) -> Observation:
    player = check_seat(state.config, player)
    # Its __dict__ given whole: a frozen dataclass's __init__ sets its 11 fields one
    # object.__setattr__ at a time, and the heuristic bot asks for one on every move.
    obs = _new_observation(Observation)
    _set(obs, "__dict__", {
        "player": player,
        "config": state.config,
        "round": state.round,
        "start_player": state.start_player,
        "current_player": state.current_player,
        "hand": state.hands[player],
        "hand_counts": tuple(map(len, state.hands)),
        "positions": state.positions,
        "played": state.played,
        "totals": state.totals,
        "history": state.history,
    })
    return obs


_set = object.__setattr__
_new_observation = object.__new__


# Same shape in every game module (the lookahead's contract): each game rebuilds its own State's fields from what a seat sees.
def determinize(obs: Observation, rng: random.Random) -> State:
    """A full state consistent with `obs`: unseen cards dealt at random to the
    other hands and the set-aside pile; future deals reseeded from `rng`."""
    cfg = obs.config
    hands, rest = _bots.deal_unseen(cfg.deck(), (obs.hand, obs.played), obs.hand_counts, obs.player, obs.hand, rng,
                                    key=_box(cfg).order)
    return State(
        config=cfg,
        chance=Chance(rng.getrandbits(63)),
        round=obs.round,
        start_player=obs.start_player,
        current_player=obs.current_player,
        hands=hands,
        positions=obs.positions,
        played=obs.played,
        removed=tuple(rest),
        totals=obs.totals,
        history=obs.history,
        enders=(None,) * len(obs.history),
        _events=None,  # a sampled world: nobody reads its events
    )


def check_state(state: State) -> None:
    """Cards are conserved: hands + played + set aside = the deck (BB-1, BB-2)."""
    cards = Counter(state.removed) + Counter(state.played)
    for h in state.hands:
        cards += Counter(h)
    assert cards == Counter(state.config.deck()), "cards not conserved"
    assert all(0 <= x < len(state.config.track) for x in state.positions), "hedgehog off the track"
    start = seat_values(state.config, "seat_points")  # BB-15
    assert sum(state.totals) == sum(start) + sum(map(sum, state.history)), "totals differ from round scores"


# --- bots -------------------------------------------------------------------

def heuristic_bot(obs: Observation, legal: list[Play], rng: random.Random) -> Play:
    """The rulebook's tips as a greedy rule.

    Value each play by what the hand left would score if the round ended
    now; end the round when hand + bonus beats that; avoid leaving a
    hedgehog one card from the end (the next player would take the bonus);
    among equals, prefer spending cards of colours that score badly.
    """
    box = _box(obs.config)
    ones, twos = _counts_by_colour(obs.hand, box.colours, box.index)
    return _heuristic_choice(box, ones, twos, obs.positions, legal, rng)


def _heuristic_choice(box: _Box, ones, twos, positions, legal, rng: random.Random) -> Play:
    """heuristic_bot's choice from what the seat sees: its own cards of each colour (one- and
    two-step counts) and the hedgehogs' spaces. simulate's core passes its running counts."""
    cfg = box.config
    track, end, index, counted = box.track, box.end, box.index, box.counted
    # the round_score of the hand left after a play, built colour by colour:
    # a play changes only its own colour's count and hedgehog
    bonus, floor = cfg.bonus, cfg.floor_zero  # _round_total, inlined below: called for every legal play
    now = [counted[o][t] * track[p] for o, t, p in zip(ones, twos, positions)]  # _colour_points of each colour
    card_points = sum(now)
    danger = end - 2  # a hedgehog here can be finished by the next player
    near_end = max(positions) >= danger
    risk = cfg.bonus * 0.75  # someone else can end it next turn
    best, best_value = [], None
    for a in legal:
        card, colour = a
        own, steps = card  # the card's own colour: None for a joker
        k = index[colour]
        left_ones, left_twos = ones[k], twos[k]
        if own is not None:  # the card leaves the hand (a joker scores nothing anyway)
            if steps == 2:
                left_twos -= 1
            else:
                left_ones -= 1
        to = positions[k] + steps
        if to >= end:  # _round_total(points, cfg, True)
            value = card_points - now[k] + counted[left_ones][left_twos] * track[end] + bonus
            if value <= 0 and floor:
                value = 0
        else:  # _round_total(points, cfg, False)
            value = card_points - now[k] + counted[left_ones][left_twos] * track[to]
            if value <= 0 and floor:
                value = 0
            if near_end or to >= danger:
                value -= risk
        if own is None:
            value -= 0.5  # keep jokers: they end rounds on our terms
        if best_value is None or value > best_value:
            best, best_value = [a], value
        elif value == best_value:  # values are multiples of 1/4: exact ties
            best.append(a)
    # Ties are common (early in a round the floor at 0 makes every play worth 0):
    # break them with the bot's own rng, never by the hand's sort order.
    return best[0] if len(best) == 1 else best[_bots.below(rng, len(best))]


def play_core(config, chance, seat_funcs, rngs, checked, seat_names, leader):
    """simulate's engine hook (contract: simulate.play_game): the game on a core, for seats of the
    random and the heuristic bot (the heuristic reads its seat's counts and the spaces only, the random
    bot nothing); None for any other bot."""
    heuristic, random_bot = heuristic_bot, _bots.random_bot
    kinds = []
    for f in seat_funcs:
        if f is not heuristic and f is not random_bot:
            return None
        kinds.append(f is heuristic)
    config = resolve_config(Config, config)
    c = _new_core(config, chance, counts=any(kinds))
    _deal_core(c, 0)
    leaders = []
    note = leaders.append
    shown = [None, None]  # the totals last seen (the same list until a round is scored) and their leader

    def turn_end(core) -> None:  # simulate's progress: scores, the totals
        if core.totals is not shown[0]:
            shown[0], shown[1] = core.totals, leader(core.totals)
        note(shown[1])

    c.turn_end = turn_end
    box = c.box
    actions = 0
    while not c.is_over:
        if actions >= MAX_STEPS:
            raise RuntimeError(f"{NAME} did not end within {MAX_STEPS} actions")
        p = c.current_player
        legal = c.plays[p]
        if kinds[p]:
            action = _heuristic_choice(box, c.ones[p], c.twos[p], c.positions, legal, rngs[p])
        else:
            action = random_bot(None, legal, rngs[p])
        _play_core(c, p, action)
        actions += 1
    return _state_of(c), leaders, actions


# --- the lookahead on the core ----------------------------------------------------------

def _rollout_value(base: _Core, me: int, action: Play, rng: random.Random) -> int:
    """bots.rollout(apply(world, action), to="round") on a copy of the world's core: `action` for
    me, then the random bot for everyone (legal[rng.randrange(n)] of the same legal lists in
    the same order: the same draws) until the round is scored; my total minus the best other."""
    c = _Core()
    c.config, c.box, c.chance = base.config, base.box, base.chance
    c.round, c.start_player, c.current_player = base.round, base.start_player, base.current_player
    c.hands = [list(h) for h in base.hands]
    c.positions, c.played, c.removed = list(base.positions), list(base.played), base.removed
    c.totals, c.history, c.enders = base.totals, base.history, base.enders
    c.is_over, c.ones, c.twos, c.plays = False, None, None, list(base.plays)
    c.say = c.turn_end = None
    c.last_round = True  # the rollout stops when this round is scored: no next deal
    _play_core(c, me, action)
    bits = rng.getrandbits
    plays = c.plays
    while not c.is_over:
        p = c.current_player
        legal = plays[p]
        n = len(legal)
        k = n.bit_length()  # rng.randrange(n) written out, as random_bot does
        r = bits(k)
        while r >= n:
            r = bits(k)
        _play_core(c, p, legal[r])
        plays = c.plays
    totals = c.totals
    return totals[me] - max(t for i, t in enumerate(totals) if i != me)


def lookahead_on_core(samples: int = 8, race_from: int = 3, z: float = 2.0, name: str = "lookahead"):
    """The lookahead (bots.lookahead: determinised Monte Carlo, the round as horizon, the random bot
    playing on) with its rollouts on the core, and racing: every candidate move is played out in the
    same sampled world with the same rollout stream (common random numbers), and from sample
    `race_from` on a candidate is dropped once it is clearly behind the best: the mean of its
    paired differences from the best, plus `z` standard errors, is below zero. Up to `samples`
    worlds; stops early when one candidate is left. The best mean wins (first on a tie)."""

    def bot(observation, legal, rng: random.Random):
        n = len(legal)
        if n == 1:
            return legal[0]
        me = observation.player
        alive = list(range(n))
        values = [[] for _ in range(n)]
        for k in range(1, samples + 1):
            world = determinize(observation, rng)
            roll_seed = rng.getrandbits(63)
            base = _core_of(world)
            base.plays = list(_list_plays(world)[2])
            for i in alive:
                values[i].append(_rollout_value(base, me, legal[i], random.Random(roll_seed)))
            if k >= race_from and len(alive) > 1:
                sums = {i: sum(values[i]) for i in alive}
                lead = max(alive, key=sums.__getitem__)
                lv = values[lead]
                keep = []
                for i in alive:
                    if i != lead:
                        d = [a - b for a, b in zip(values[i], lv)]
                        mean = sum(d) / k
                        var = sum((x - mean) ** 2 for x in d) / (k - 1)
                        if mean + z * (var / k) ** 0.5 < 0:
                            continue
                    keep.append(i)
                alive = keep
                if len(alive) == 1:
                    break
        best = max(alive, key=lambda i: (sum(values[i]) / len(values[i]), -i))
        return legal[best]

    bot.__name__ = name
    return bot


BOTS = {
    "random": _bots.random_bot,
    "heuristic": heuristic_bot,
    "lookahead": lookahead_on_core(),
}
