"""Duck, Duck, Bruce's public protocol: the immutable `State` (a view of the game core, core.py),
`new_game`, `legal_actions`, `apply` (checked) and `step` (in place), the observation, `determinize`,
`check_state`, and the bridge: `core_of` reads a State into a Core, `sync` writes a Core back into a
State, `state_of` builds a State from a Core.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Mapping

from .. import log as _log
from ..chance import Chance, check_seed, start, stream_key
from ..config import seat_values
from ..protocol import check_seat, protocol_state, resolve_config
from .cards import (
    DECIDE, FLIP, OVER, STEAL, STOP, Card, Config, Duck, Steal, Turn, card_key, count_unseen_suits, deck_counts,
    steal_actions, unseen_counts,
)
from .core import Core, act, begin, new_core, seat_name
from .measures import tallies


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


_new = object.__new__  # a State or a Core without __init__: every field is set next


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
        return sorted(unseen_counts(self).elements(), key=card_key)

    @cached_property
    def unseen_suits(self) -> Mapping[str, int]:
        """{suit: cards of it still in the draw pile}, "Bruce" counted as a suit (read-only).
        Not a field: observation() fills it from the state's running count, so a bot can
        read it on every decision without recounting every card it has seen."""
        return MappingProxyType(count_unseen_suits(self.config, self.row, self.discard, self.nests))


def core_of(s: State) -> Core:
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
    c.unseen = dict(unseen) if unseen is not None else count_unseen_suits(cfg, s.row, s.discard, s.nests)
    c.sink = s if s._events is not None else None
    c.dice = None
    f = s._turn_end
    c.turn_end = None if f is None else _turn_hook(f, s)
    return c


def _turn_hook(f, s: State):
    """The Core's turn_end for State s's hook f: the callback sees the State then (c written into s first)."""

    def turn_end(c: Core) -> None:
        sync(c, s)
        f(s)

    return turn_end


def sync(c: Core, s: State) -> None:
    """Write Core `c` into State `s` (tuples)."""
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


def state_of(c: Core, turn_end=None) -> State:
    """The public State of Core `c` (no event log; `turn_end` its hook)."""
    s = _new(State)
    s.config = c.config
    s._events, s._n_events, s._turn_end = None, 0, turn_end
    sync(c, s)
    return s


def new_game(config: Config | None = None, seed: int = 0, chance: Chance | None = None, events: bool = True,
             turn_end=None) -> State:
    """A new game; `events=False` keeps no event text (simulate's own states, never shown).
    `turn_end(state)` is called at the end of every turn, decision or not (see _turn_over)."""
    config = resolve_config(Config, config)
    c = new_core(config, start(check_seed(seed)) if chance is None else chance)
    state = _new(State)
    state.config, state._events, state._n_events, state._turn_end = config, [] if events else None, 0, turn_end
    if events:
        c.sink = state
    if turn_end is not None:
        c.turn_end = _turn_hook(turn_end, state)
    begin(c)
    sync(c, state)
    return state


def legal_actions(state: State) -> list:
    """Flip or stop (DDB-4); after a Bruce, a steal from any opponent or none (DDB-6)."""
    if state.phase == DECIDE:
        return [FLIP, STOP]
    if state.phase == STEAL:
        return list(steal_actions(state.config, state.current_player))
    return []


def _illegal(state: State, action) -> ValueError:
    legal = ", ".join(map(str, legal_actions(state)))
    who = seat_name(state.current_player) if state.current_player is not None else "anyone"
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
    elif type(action) is not Steal or action not in steal_actions(state.config, state.current_player):
        raise _illegal(state, action)
    s = state._copy()
    step(s, action)
    return s


def step(s: State, action) -> None:
    """Play a legal `action` on `s` in place: apply's work without the copy and
    without checking the action. Everything else holds a state only through apply."""
    c = core_of(s)
    act(c, action)
    sync(c, s)


def observation(state: State, player: int) -> Observation:
    if type(player) is not int or not 0 <= player < state.config.players:
        player = check_seat(state.config, player)  # a numpy seat, or one it refuses with its message
    unseen = state._unseen
    if unseen is None:  # count once; every flip then keeps it current
        unseen = state._unseen = count_unseen_suits(state.config, state.row, state.discard, state.nests)
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
    assert cards == deck_counts(cfg.suits, cfg.numbers, cfg.bruce_cards), "cards not conserved"
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
