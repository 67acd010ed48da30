"""Bucket Brigade's public protocol: the `State` (a view of the game core, core.py), `new_game`,
`legal_actions`, `apply` (checked) and `step` (in place), the events, the observation, `determinize`
and `check_state`. The rules themselves live once, in core.py: `step` builds a Core from a State,
plays the move there and writes the State's tuples back (`core_of`, `sync`; `state_of` makes a
State of a Core).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .. import bots as _bots
from .. import log as _log
from ..chance import Chance, check_seed, start
from ..config import seat_values
from ..protocol import check_seat, protocol_state, resolve_config
from .cards import Card, Config, Play, hand_plays
from .core import Box, Core, box_for, deal, play_card, seat_name


# --- state ------------------------------------------------------------------

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
    # The config's Box (its deck, track end, the plays each card allows), looked up once per state.
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


# --- the bridge: a State is a view of a Core ----------------------------------

def core_of(s: State, mover: int | None = None) -> Core:
    """A core holding State s, writing its events to s and ending its turns with s brought up to date
    first (what the State's turn_end is shown). What a move changes is copied into lists (the
    mover's hand, the played cards, the spaces); the rest is shared with s as it is."""
    c = Core()
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
    c.turn_end = None if hook is None else (lambda core: (sync(core, s), hook(s)))
    return c


def sync(c: Core, s: State) -> None:
    """Write core c back into State s as tuples."""
    s.chance, s.round, s.start_player, s.current_player = c.chance, c.round, c.start_player, c.current_player
    s.hands = tuple(map(tuple, c.hands))  # tuple() of a tuple is that tuple: only changed hands are copied
    s.positions, s.played, s.removed = tuple(c.positions), tuple(c.played), tuple(c.removed)
    s.totals, s.history, s.enders = tuple(c.totals), c.history, c.enders
    s.is_over = c.is_over
    if c.plays is not None:
        s._plays = (s.hands, s.config, tuple(c.plays))


def state_of(c: Core, turn_end=None) -> State:
    """The public State of core c (no event log)."""
    s = State(config=c.config, chance=c.chance, round=0, start_player=0, current_player=0, hands=(), positions=(),
              played=(), removed=(), totals=(), history=(), enders=(), _events=None, _turn_end=turn_end)
    sync(c, s)
    return s


# --- the protocol ---------------------------------------------------------------

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
    c = core_of(state)
    c.plays = []  # the deal lists each seat's plays
    deal(c, 0)
    sync(c, state)
    return state


def legal_actions(state: State) -> list[Play]:
    """One play per distinct card in hand, in the hand's order; a joker once per colour (BB-6, BB-7)."""
    if state.is_over:
        return []
    memo = state._plays
    if memo is None or memo[0] is not state.hands or memo[1] is not state.config:
        memo = list_plays(state)
    return list(memo[2][state.current_player])


def _box_of(s: State) -> Box:
    """The state's box: looked up once per state (and again if its config was replaced)."""
    box = s._box
    if box is None or box.config is not s.config:
        box = s._box = box_for(s.config)
    return box


def list_plays(s: State) -> tuple:
    """(hands, config, every seat's legal plays), listed afresh. Kept on the state (`_plays`) when
    every hand is in order, as dealt: step can then keep it up to date (a hand built by hand may not be)."""
    box = _box_of(s)
    memo = (s.hands, s.config, tuple(hand_plays(h, box.plays) for h in s.hands))
    if all(_in_order(h, box.order) for h in s.hands):
        s._plays = memo
    return memo


def _in_order(hand, order) -> bool:
    try:
        keys = list(map(order, hand))
    except KeyError:  # a card no deck of these colours holds (a hand built by hand)
        return False
    return keys == sorted(keys)


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
        raise ValueError(f"{action!r} is not legal for {seat_name(p)}; legal: {', '.join(map(str, legal_actions(state)))}")
    s = state._copy()
    step(s, action)
    return s


def step(s: State, action: Play) -> None:
    """Play a legal `action` on `s` in place: apply's work without the copy and
    without checking the action. The rules are the core's: s is read into one,
    the move played on it, and s written back."""
    p = s.current_player
    c = core_of(s, p)
    play_card(c, p, action)
    sync(c, s)


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
                                    key=box_for(cfg).order)
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
