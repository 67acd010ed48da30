"""Bucket King 3D's public protocol: the immutable `State` (a view of the game core, core.py),
`new_game`, `legal_actions`, `apply` (checked) and `step` (in place), the events, the observation,
`determinize` and `check_state`. The rules themselves live once, in core.py: `step` builds a Core
from a State (or takes the one the State was written from), plays the move there and writes the State's
tuples back (`core_of`, `_core_for`, `sync`).
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass, field, fields
from math import inf
from operator import attrgetter
from typing import Any, NamedTuple

from .. import bots as _bots
from .. import log as _log
from ..chance import Chance, check_seed
from ..protocol import check_seat, protocol_state, resolve_config
from .cards import (
    ARRANGE, DIRECTION, DIRECTIONS, FOLLOW, KEEP, LEAD, LEFT, RIGHT, Card, Config, Direction,
    KeepPart, LoseBucket, Place, PlayCards, beating, card_value, of_colour, plain_only, plays_in,
)
from .core import (
    FIXED, Core, act, active_players, colour_mask_of, colour_masks_of, deals_text, fixed, lose_actions, new_core, offer, seat_lose_mask, seat_name,
    supply_of,
)
from .pyramid import split_parts, standing_of


# --- state ------------------------------------------------------------------

@protocol_state("events")
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



def new_game(config: Config | None = None, seed: int = 0, chance: Chance | None = None, events: bool = True,
             turn_end=None) -> State:
    """Shuffle, deal (BK-2) and start the set-up of the pyramids (BK-4); `events=False`
    keeps no event text (simulate's own states, never shown). `turn_end(state)` is
    called at the end of every turn (core.py's _turn_over)."""
    cfg = resolve_config(Config, config)
    c = new_core(cfg, Chance(check_seed(seed)) if chance is None else chance)
    state = state_of(c, turn_end)
    state._events = [] if events else None
    _log.say(state, deals_text, cfg.hand_size, len(state.draw), cfg.rows)
    if cfg.seat_cards:  # BK-22
        _log.say(state, "Extra cards dealt (BK-22): " + ", ".join(
            f"Player {p + 1} +{k}" for p, k in enumerate(cfg.seat_cards) if k) + ".")
    _keep(c, state)
    return state


def state_of(c: Core, turn_end=None) -> State:
    """The public State of core c (no event log; `turn_end` its hook)."""
    s = State.__new__(State)
    s.config = c.config
    s._events, s._n_events, s._turn_end = None, 0, turn_end
    sync(c, s)
    return s


def sync(c: Core, s: State) -> None:
    """Write core c into State s as tuples."""
    s.chance, s.phase, s.round, s.start_player = c.chance, c.phase, c.round, c.start_player
    s.current_player, s.direction = c.current_player, c.direction
    s.hands = tuple(map(tuple, c.hands))
    s.draw, s.discard = tuple(c.draw), tuple(c.discard)
    s.fronts = tuple(map(tuple, c.fronts))
    s.colour, s.to_beat, s.attacker = c.colour, c.to_beat, c.attacker
    s.pyramids = tuple(map(tuple, c.pyramids))
    s.buckets, s.out, s.parts, s.lost_now = tuple(c.buckets), tuple(c.out), c.parts, c.lost_now
    s.history, s.falls, s.is_over = tuple(c.history), tuple(c.falls), c.is_over
    s._supply = c.supply


def core_of(s: State) -> Core:
    """A core of State s to play on from: every seat's hand, front and pyramid copied into lists, the
    standing and colour bitmasks worked out; it shares nothing that the rules change in place with s.
    No event log and no turn hook (`step` sets them for the State it writes into)."""
    c = Core()
    cfg = s.config
    c.config, c.fx, c.chance = cfg, FIXED.get(id(cfg)) or fixed(cfg), s.chance
    c.phase, c.round, c.start_player, c.current_player = s.phase, s.round, s.start_player, s.current_player
    c.direction = s.direction
    c.hands, c.fronts, c.pyramids = list(map(list, s.hands)), list(map(list, s.fronts)), list(map(list, s.pyramids))
    c.draw, c.discard = list(s.draw), list(s.discard)
    c.colour, c.to_beat, c.attacker = s.colour, s.to_beat, s.attacker
    c.standing = [standing_of(x) for x in s.pyramids]
    colours = cfg.colours
    c.colour_masks = [dict(zip(colours, colour_masks_of(x, colours))) for x in s.pyramids]
    c.buckets, c.out, c.parts, c.lost_now = list(s.buckets), list(s.out), s.parts, s.lost_now
    c.history, c.falls, c.is_over = list(s.history), list(s.falls), s.is_over
    c.supply = s._supply
    c.say = c.turn_end = None
    return c


# The core each of the last few States was written from, so that the next move from that State plays
# on it instead of building a new one (`core_of`): id(State) -> (State, Core, the State's fields when
# written). A move takes its State's entry out (a second move from the same State, a lookahead trying
# another action, builds a core anew), and an entry is used only while every field of the State is
# still the very object it was written (a State's fields replaced by hand make a new core).
_CORES: dict[int, tuple] = {}
_KEPT = 32
_fields = attrgetter(*(f.name for f in fields(State) if f.name not in ("_events", "_n_events", "_turn_end")))


def _core_for(s: State) -> Core:
    """The core s was last written from if it is still s (taken: nobody else will play on it), else a new one."""
    kept = _CORES.pop(id(s), None)
    if kept is not None and kept[0] is s and kept[2] == _fields(s):  # each field the same object: no deep compare
        return kept[1]
    return core_of(s)


def _keep(c: Core, s: State) -> None:
    """Remember core c as State s's (written into s just now)."""
    c.say = c.turn_end = None
    if len(_CORES) >= _KEPT:
        del _CORES[next(iter(_CORES))]  # the oldest
    _CORES[id(s)] = (s, c, _fields(s))


def _move(c: Core, s: State, action) -> None:
    """Play `action` on core c (a core of s's game as it is now), writing its events to s and ending its
    turns with s brought up to date first (what the State's turn hook is shown); then write c into s.

    Only what the move can have changed is written: a move changes only its mover's hand and pyramid
    among the seats' own things (a player who goes out is the mover: they lost the round), the fronts
    when the mover's grew or a round began (the core then has new lists), the piles and the rounds'
    history when their lists are new or their lengths moved (the draw pile is only popped, the discard
    pile and the history only grow, each until replaced); a bucket placed in the set-up that is not a
    builder's last changes only the pyramid and the supply (and the events)."""
    c.say = s if s._events is not None else None
    hook = s._turn_end
    c.turn_end = None if hook is None else (lambda core: (sync(core, s), hook(s)))
    p = c.current_player
    phase = c.phase
    fronts, front, size = c.fronts, c.fronts[p], len(c.fronts[p])
    draw, n_draw, discard, n_discard, n_history = c.draw, len(c.draw), c.discard, len(c.discard), len(c.history)
    act(c, action)
    pyramids = s.pyramids
    s.pyramids = (*pyramids[:p], tuple(c.pyramids[p]), *pyramids[p + 1 :])
    s._supply = c.supply
    if phase == ARRANGE and c.phase == ARRANGE and c.current_player == p:  # a bucket placed, more to come
        s.chance = c.chance  # (the set-up draws nothing: the same Chance; written for the record)
        return _keep(c, s)
    s.chance, s.phase, s.round, s.start_player = c.chance, c.phase, c.round, c.start_player
    s.current_player, s.direction = c.current_player, c.direction
    hands = s.hands
    s.hands = (*hands[:p], tuple(c.hands[p]), *hands[p + 1 :])
    if c.fronts is not fronts:
        s.fronts = tuple(map(tuple, c.fronts))
    elif front is not c.fronts[p] or len(front) != size:
        s.fronts = (*s.fronts[:p], tuple(c.fronts[p]), *s.fronts[p + 1 :])
    if c.draw is not draw or len(draw) != n_draw:  # the draw pile is only popped, or shuffled anew
        s.draw = tuple(c.draw)
    if c.discard is not discard or len(discard) != n_discard:  # the discard pile only grows, or is emptied anew
        s.discard = tuple(c.discard)
    s.colour, s.to_beat, s.attacker = c.colour, c.to_beat, c.attacker
    s.buckets, s.out, s.parts, s.lost_now = tuple(c.buckets), tuple(c.out), c.parts, c.lost_now
    if len(c.history) != n_history:  # one entry more when a round ends
        s.history, s.falls = tuple(c.history), tuple(c.falls)
    s.is_over = c.is_over
    _keep(c, s)


# --- legal actions ----------------------------------------------------------

def _place_options(state: State, p: int) -> list[Place]:
    """Set-up (BK-4): the next empty position, in each colour player p still has buckets of."""
    fx = fixed(state.config)
    return list(offer(fx, state._supply or supply_of(fx, state.pyramids[p])))


def _lose_options(state: State, p: int) -> tuple[LoseBucket, ...]:
    """BK-9: a bucket of the required colour; any bucket if none of it is left."""
    return lose_actions(fixed(state.config), state.pyramids[p], seat_lose_mask(state, p))


def legal_actions(state: State | Core) -> list:
    """Every legal action of the player to move, in a fixed order, for a State or a Core."""
    if state.is_over:
        return []
    phase = state.phase
    p = state.current_player
    fx = FIXED.get(id(state.config)) or fixed(state.config)
    if phase == ARRANGE:
        supply = state._supply or supply_of(fx, state.pyramids[p])
        return list(fx.offers.get(supply) or offer(fx, supply))
    if phase == DIRECTION:
        return list(DIRECTIONS)
    if phase == KEEP:
        positions = fx.layout.positions
        return [KeepPart(positions[part[0]], len(part)) for part in state.parts]
    hand = tuple(state.hands[p])  # a Core's list; a State's tuple (not copied)
    if phase == LEAD:
        if not hand:
            return list(lose_actions(fx, state.pyramids[p], seat_lose_mask(state, p)))  # BK-20: nothing to lead with
        out = []
        start = 0
        while start < len(hand):  # colour by colour, in the hand's (sorted) order
            colour = hand[start].colour
            stop = bisect_left(hand, (colour, inf), start)
            if fx.plain:
                out += plain_only(hand[start:stop], fx.most)
            else:
                out += [play for play, _ in plays_in(hand, colour, fx.config, hand[start:stop])]
            start = stop
        return out
    # FOLLOW
    colour = state.colour
    need_more = state.to_beat - sum(map(card_value, state.fronts[p]))
    loses = lose_actions(fx, state.pyramids[p], seat_lose_mask(state, p))
    if fx.plain:
        return [*beating(of_colour(hand, colour), fx.most, need_more), *loses]
    cfg = fx.config
    out = []
    backfire = cfg.backfiring_discard and active_players(state) > 2
    for play, total in plays_in(hand, colour, cfg):
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
        f"{action!r} is not legal for {seat_name(state.current_player)} now"
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
        if not cfg.backfiring_discard or state.phase == LEAD or active_players(state) <= 2:
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
    c = _core_for(state)
    s = state._copy()
    _move(c, s, action)
    return s




def step(s: State, action) -> None:
    """Play a legal `action` on `s` in place: apply's work without the copy and
    without checking the action. The move is played by the core (core.act) on the
    core `s` was written from (or a new core of `s`), then written back into `s`."""
    _move(_core_for(s), s, action)


def observation(state: State, player: int) -> Observation:
    s, player = state, check_seat(state.config, player)
    return _new_tuple(Observation, (  # in the order of Observation's fields (built on every step)
        player, s.config, s.phase, s.round, s.start_player, s.current_player, s.direction,
        s.hands[player], tuple(map(len, s.hands)), len(s.draw), s.discard, s.fronts,
        s.colour, s.to_beat, s.attacker, s.pyramids, s.buckets, s.out, s.parts,
        s.lost_now, s.history, s.falls, s.is_over,
    ))


_new_tuple = tuple.__new__  # what Observation(...) calls, without its keyword handling


# Same shape in every game module (the lookahead's contract): each game rebuilds its own State's fields from what a seat sees.
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


def check_state(state: State | Core) -> None:
    """Cards are conserved (hands + draw + discard + fronts = the deck) and buckets add up, on a State
    or on the game core (whose standing bitmasks must also be its pyramids')."""
    cfg = state.config
    cards = Counter(state.draw) + Counter(state.discard)
    for h in state.hands:
        cards += Counter(h)
    for f in state.fronts:
        cards += Counter(f)
    assert cards == Counter(cfg.deck()), "cards not conserved"
    assert all(list(h) == sorted(h) for h in state.hands), "hands must stay sorted"
    if state.phase == ARRANGE and state._supply is not None:
        fx = fixed(cfg)
        assert state._supply == supply_of(fx, state.pyramids[state.current_player]), "set-up supply differs from the pyramid"
    size = sum(cfg.rows)
    for p, pyr in enumerate(state.pyramids):
        pyr = tuple(pyr)
        assert len(pyr) == size
        if type(state) is Core:
            assert state.standing[p] == standing_of(pyr), "the core's standing bitmask differs from its pyramid"
            for c in cfg.colours:
                assert state.colour_masks[p][c] & state.standing[p] == colour_mask_of(pyr, c), \
                    "the core's colour bitmask differs from its pyramid"
        for c in cfg.colours:
            assert pyr.count(c) <= cfg.buckets_each, "more buckets of a colour than a player has"
        lost = sum(r[p] for r in state.history) + (state.lost_now if state.phase == KEEP and p == state.current_player else 0)
        assert state.buckets[p] == size - lost, "bucket count differs from the losses"
        if state.phase != ARRANGE:
            assert size - pyr.count(None) == state.buckets[p], "bucket count differs from the pyramid"
            if not state.is_over and state.phase != KEEP and state.buckets[p]:
                assert len(split_parts(cfg.rows, standing_of(pyr))) == 1, "pyramid in pieces"
        if state.out[p]:
            assert state.buckets[p] == 0 and not state.hands[p] and not state.fronts[p]
    assert sum(state.out) <= cfg.players - 2 or state.is_over
    assert len(state.falls) == len(state.history), "one (fell, split) entry per finished round"
    for lost, (fell, split) in zip(state.history, state.falls):
        assert fell >= 0 and split >= 0 and max(lost) == 1 + fell + split, "a round's loss = chosen + fell + split"

