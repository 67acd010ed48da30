"""The Piggyback Brigade's public protocol: the immutable `State` (a view of the game core, core.py),
`new_game`, `legal_actions`, `apply` (checked) and `step` (in place), the observation, `determinize`,
`check_state`, and the bridge: `core_of` reads a State into a Core, `sync` writes a Core back into a
State, `state_of` builds a State from a Core.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields
from typing import Any

from .. import log as _log
from ..chance import Chance, check_seed, start, stream_key
from ..protocol import check_seat, protocol_state, resolve_config
from .cards import CHOOSE, EXTEND, MOVES, OVER, REROLL, ROLL, ROLL_AGAIN, STOP, TURN, Action, Config
from .core import Core, begin, new_core, run, seat_name, setup_of

_new = object.__new__  # a State or a Core without __init__: every field is set next


@protocol_state("events")
@dataclass(slots=True)
class State:
    """The whole race at one moment (nothing is hidden but the future rolls)."""

    config: Config
    chance: Chance
    current_player: int | None
    phase: str  # TURN, CHOOSE, REROLL or OVER
    face: int  # index of the face rolled last (-1 before any roll)
    piglet: int  # the piglet now rolling (-1 none)
    rerolls: int  # rerolls that piglet has used this turn
    pending: tuple[int, ...]  # current player's piglets still to roll this turn
    order: tuple[int, ...]  # section ids in track order (PB-12 rotates it)
    stacks: tuple[tuple[int, ...], ...]  # per space along the track: piglets bottom to top
    where: tuple[int, ...]  # per piglet: -1 start, a space index, or len(stacks) = finished
    extensions_left: tuple[int, ...]
    won: tuple[int, ...] = ()  # winning seats, once over
    round: int = 0  # one race: always 0
    is_over: bool = False
    # Bookkeeping for statistics (game_stats); no rule reads it:
    rerolls_taken: tuple[int, ...] = ()  # per seat, rerolls chosen in the whole race
    rerolls_declined: tuple[int, ...] = ()  # per seat, "stop" when a reroll was allowed
    finish_group: tuple[int, ...] = ()  # the piglets that crossed the finish, bottom to top
    # The event log, shared with the states before and after this one (rules/log.py): O(1) appends;
    # None in simulate's own states and in sampled worlds, where nobody reads it.
    _events: list | None = field(default_factory=list, compare=False, repr=False)
    _n_events: int = field(default=0, compare=False, repr=False)
    # Called with the state at the end of every turn (new_game's `turn_end`; simulate counts turns with it).
    _turn_end: Any = field(default=None, compare=False, repr=False)
    # setup_of(config), kept at hand: the engine reads it on every roll (a lookup costs ~3% of a game).
    _setup: Any = field(default=None, compare=False, repr=False)

    events = _log.events_property()


@dataclass(frozen=True, slots=True)
class Observation:
    """What a seat sees: everything on the table (only the future rolls are unknown)."""

    player: int
    config: Config
    current_player: int | None
    phase: str
    face: int
    piglet: int
    rerolls: int
    pending: tuple[int, ...]
    order: tuple[int, ...]
    stacks: tuple[tuple[int, ...], ...]
    where: tuple[int, ...]
    extensions_left: tuple[int, ...]
    won: tuple[int, ...]
    is_over: bool


def core_of(s: State) -> Core:
    """A Core holding what State `s` holds (lists copied out of its tuples)."""
    c = _new(Core)
    c.config = s.config
    c.setup = s._setup or setup_of(s.config)
    ch = s.chance
    if type(ch) is Chance:  # the seeded stream: drawn in place
        c.chance, c.seed, c.counter, c.key = None, ch.seed, ch.counter, stream_key(ch.seed)
    else:
        c.chance = ch
    c.current_player, c.phase, c.face, c.piglet, c.rerolls = s.current_player, s.phase, s.face, s.piglet, s.rerolls
    c.pending, c.order, c.won, c.round, c.is_over = s.pending, s.order, s.won, s.round, s.is_over
    c.stacks = [list(x) for x in s.stacks]
    c.where = list(s.where)
    c.extensions_left = list(s.extensions_left)
    c.rerolls_taken, c.rerolls_declined = list(s.rerolls_taken), list(s.rerolls_declined)
    c.finish_group = s.finish_group
    c.sink = s if s._events is not None else None
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
    s.current_player, s.phase, s.face, s.piglet, s.rerolls = c.current_player, c.phase, c.face, c.piglet, c.rerolls
    s.pending, s.order, s.won, s.round, s.is_over = c.pending, c.order, c.won, c.round, c.is_over
    s.stacks = tuple(map(tuple, c.stacks))
    s.where = tuple(c.where)
    s.extensions_left = tuple(c.extensions_left)
    s.rerolls_taken, s.rerolls_declined = tuple(c.rerolls_taken), tuple(c.rerolls_declined)
    s.finish_group = c.finish_group
    s._setup = c.setup


def state_of(c: Core, turn_end=None) -> State:
    """The public State of Core `c` (no event log; `turn_end` its hook)."""
    s = _new(State)
    s.config = c.config
    s._events, s._n_events, s._turn_end = None, 0, turn_end
    sync(c, s)
    return s


def new_game(config: Config | None = None, seed: int = 0, chance: Chance | None = None, events: bool = True,
             turn_end=None) -> State:
    """A new race; `events=False` keeps no event text (simulate's own states, never shown).
    `turn_end(state)` is called at the end of every turn, decision or not (PB-3, see _turn_over)."""
    config = resolve_config(Config, config)
    c = new_core(config, start(check_seed(seed)) if chance is None else chance)
    state = _new(State)
    state.config, state._events, state._n_events, state._turn_end = config, [] if events else None, 0, turn_end
    sync(c, state)
    if events:
        c.sink = state
        _log.say(
            state,
            f"The race starts: {config.players} players, "
            + (
                "one piglet each"
                if config.piglets_per_player == 1
                else f"{config.piglets_per_player} piglets each"
            )
            + f", {config.spaces} spaces in {len(config.sections)} sections.",
        )
    if turn_end is not None:
        c.turn_end = _turn_hook(turn_end, state)
    begin(c)
    sync(c, state)
    return state


def legal_actions(state: State) -> list[Action]:
    ph = state.phase
    if ph == REROLL:
        return [ROLL_AGAIN, STOP]
    if ph == CHOOSE:
        return [MOVES[q] for q in state.pending]
    if ph == TURN:
        return [ROLL, EXTEND]
    return []


def apply(state: State, action: Action) -> State:
    """One decision; the die rolls that follow it are resolved until the next decision."""
    if state.is_over:
        raise ValueError("the race is over; no more actions")
    if not isinstance(action, Action) or action not in legal_actions(state):
        raise ValueError(
            f"{action!r} is not legal for {seat_name(state.current_player)}; "
            f"legal: {', '.join(map(str, legal_actions(state)))}"
        )
    s = state._copy()
    step(s, action)
    return s


def step(s: State, action: Action) -> None:
    """Play a legal `action` on `s` in place: apply's work without the copy and
    without checking the action. Everything else holds a state only through apply."""
    c = core_of(s)
    run(c, action)
    sync(c, s)


def play_on(s: State, action: Action | None = None) -> None:
    """Play on from a hand-built State (a test's table): `action` if given, then the rolls up to
    the next decision, written back into `s`."""
    c = core_of(s)
    run(c, action)
    sync(c, s)


def observation(state: State, player: int) -> Observation:
    return _observe(state, check_seat(state.config, player))


def _observer():
    """observation()'s builder: Observation(player, state's fields...) with each slot set
    directly. The frozen class's own __init__ goes through object.__setattr__ once per
    field, about three times the cost, and a heuristic bot gets one on every decision.
    The fields are set by name; a test checks every one against the constructor's."""
    put = {f.name: getattr(Observation, f.name).__set__ for f in fields(Observation)}
    new = object.__new__
    player, config, current_player, phase = put["player"], put["config"], put["current_player"], put["phase"]
    face, piglet, rerolls, pending = put["face"], put["piglet"], put["rerolls"], put["pending"]
    order, stacks, where = put["order"], put["stacks"], put["where"]
    extensions_left, won, is_over = put["extensions_left"], put["won"], put["is_over"]
    if len(put) != 14:
        raise AssertionError("Observation gained a field that _observer does not set")

    # each field set by its own line on purpose: written out, a view costs a third of dataclasses.replace's
    def observe(s: State, seat: int) -> Observation:
        obs = new(Observation)
        player(obs, seat)
        config(obs, s.config)
        current_player(obs, s.current_player)
        phase(obs, s.phase)
        face(obs, s.face)
        piglet(obs, s.piglet)
        rerolls(obs, s.rerolls)
        pending(obs, s.pending)
        order(obs, s.order)
        stacks(obs, s.stacks)
        where(obs, s.where)
        extensions_left(obs, s.extensions_left)
        won(obs, s.won)
        is_over(obs, s.is_over)
        return obs

    return observe


_observe = _observer()


# Same shape in every game module (the lookahead's contract): each game rebuilds its own State's fields from what a seat sees.
def determinize(obs: Observation, rng: random.Random) -> State:
    """The table as seen, with the future rolls reseeded from `rng`."""
    return State(
        config=obs.config,
        chance=Chance(rng.getrandbits(63)),
        current_player=obs.current_player,
        phase=obs.phase,
        face=obs.face,
        piglet=obs.piglet,
        rerolls=obs.rerolls,
        pending=obs.pending,
        order=obs.order,
        stacks=obs.stacks,
        where=obs.where,
        extensions_left=obs.extensions_left,
        won=obs.won,
        is_over=obs.is_over,
        rerolls_taken=(0,) * obs.config.players,  # statistics bookkeeping starts afresh in a sampled world
        rerolls_declined=(0,) * obs.config.players,
        finish_group=tuple(q for q, w in enumerate(obs.where) if w == len(obs.stacks)),  # order not kept
        _events=None,  # a sampled world: nobody reads its events
        _setup=setup_of(obs.config),
    )


def check_state(state: State) -> None:
    """Every piglet is in exactly one place; stacks and positions agree; the track is conserved."""
    cfg = state.config
    n = len(state.stacks)
    assert n == cfg.spaces, "the track changed length"
    assert sorted(state.order) == list(range(len(cfg.sections))), "a section went missing"
    used = [cfg.extensions_per_player - e for e in state.extensions_left]
    assert all(0 <= u <= cfg.extensions_per_player for u in used), "extensions out of range"
    k = sum(used) % len(cfg.sections)
    assert state.order == tuple(range(len(cfg.sections)))[k:] + tuple(range(len(cfg.sections)))[:k], (
        "track order does not match the extensions made"
    )
    assert len(state.where) == cfg.players * cfg.piglets_per_player, "wrong number of piglets"
    seen = {}
    for i, stack in enumerate(state.stacks):
        for q in stack:
            assert q not in seen, f"piglet {q} stands twice"
            seen[q] = i
    for q, w in enumerate(state.where):
        assert -1 <= w <= n, "piglet off the track"
        if 0 <= w < n:
            assert seen.get(q) == w, f"piglet {q} is not on its space"
        else:
            assert q not in seen, f"piglet {q} is both on and off the track"
    assert len(seen) == sum(1 for w in state.where if 0 <= w < n)
    finished = [q for q, w in enumerate(state.where) if w == n]
    assert bool(finished) == state.is_over == bool(state.won), "the race ends exactly when a piglet finishes"
    assert len(state.rerolls_taken) == len(state.rerolls_declined) == cfg.players, "statistics have the wrong shape"
    assert min(state.rerolls_taken + state.rerolls_declined) >= 0
    assert sorted(state.finish_group) == finished, "the finish group is not the piglets past the finish"
    if state.is_over:
        assert state.current_player is None and state.phase == OVER
        assert set(state.won) == {cfg.owner(q) for q in finished}
    else:
        assert state.phase in (TURN, CHOOSE, REROLL)
        assert all(cfg.owner(q) == state.current_player for q in state.pending)
