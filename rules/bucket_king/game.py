"""Bucket King 3D's state and rules in play: the deal, set-up, leads, follows, losses, splits
and the game's end (BK-2 to BK-16, BK-20, BK-21), with `legal_actions`, `apply` (checked) and
`step` (in place), the events, the observation and `check_state`.
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections import Counter
from dataclasses import dataclass, field, fields
from functools import lru_cache
from itertools import chain
from math import inf
from operator import attrgetter
from typing import Any, NamedTuple

from .. import bots as _bots
from .. import log as _log
from ..chance import Chance, check_seed
from ..protocol import check_seat, resolve_config
from .cards import (
    ARRANGE, DIRECTION, DIRECTIONS, FOLLOW, KEEP, LARGE_GAME, LEAD, LEFT, OVER, RIGHT, Card, Config, Direction,
    KeepPart, LoseBucket, Place, PlayCards, beating, card_value, of_colour, plain_only, plays_in, where_text,
)
from .measures import winners
from .pyramid import (
    Layout, falling_mask, indices_of, layout_of, mask_of, poke_falls, split_parts, standing_of,
)


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


def seat_name(p: int) -> str:
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
    cfg = resolve_config(Config, config)
    deck, chance = (Chance(check_seed(seed)) if chance is None else chance).shuffled(fixed(cfg).deck)
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
        _supply=fixed(cfg).supply,
    )
    _log.say(state, _deals_text, h, len(state.draw), cfg.rows)
    return state


# --- legal actions ----------------------------------------------------------

class Fixed(NamedTuple):
    """What a game's Config fixes, worked out once per Config: the pyramid's
    layout, every Place action by position, and the numbers every move reads."""

    config: Config
    rows: tuple[int, ...]
    layout: Layout
    places: tuple[tuple[Place, ...], ...]  # every Place action, by flat position, in colour order
    each: int  # buckets of each colour a player builds (BK-3)
    most: int  # most cards of the required colour in one play (BK-6)
    plain: bool  # plays are cards of one colour only: neither Special One nor Backfiring Discard
    exact: bool  # the exact fall rule (BK-10), not the poke model
    deck: tuple[Card, ...]  # Config.deck(), in its fixed order
    supply: tuple[int, ...]  # buckets of each colour a player starts to build with
    offers: dict  # set-up: a builder's supply -> the Place actions open to them (see _offer)
    spent: dict  # set-up: (supply, colour placed) -> the supply left


# id(config) -> its Fixed. The entry holds the config, so while it is there no other
# object can have that id: a hit is always this very config.
_FIXED: dict[int, Fixed] = {}


def fixed(cfg: Config) -> Fixed:
    """The Fixed of a Config (hot paths inline its first line: `_FIXED.get(id(cfg)) or fixed(cfg)`)."""
    fx = _FIXED.get(id(cfg))
    if fx is None:
        if len(_FIXED) >= 256:  # many configs (a sweep): start afresh rather than grow
            _FIXED.clear()
        rows = cfg.rows
        fx = _FIXED[id(cfg)] = Fixed(
            cfg, rows, layout_of(rows), _places(rows, cfg.colours), cfg.buckets_each, cfg.max_cards,
            not cfg.special_one and not cfg.backfiring_discard, cfg.fall_model == "exact", tuple(cfg.deck()),
            (cfg.buckets_each,) * len(cfg.colours), {}, {},
        )
    return fx


def _place_options(state: State, p: int) -> list[Place]:
    """Set-up (BK-4): the next empty position, in each colour player p still has buckets of."""
    fx = fixed(state.config)
    return list(_offer(fx, state._supply or _supply_of(fx, state.pyramids[p])))


def _supply_of(fx: Fixed, pyramid: tuple) -> tuple[int, ...]:
    """Buckets of each colour still to place while building `pyramid` (BK-3)."""
    return tuple(fx.each - pyramid.count(c) for c in fx.config.colours)


def _offer(fx: Fixed, supply: tuple[int, ...]) -> tuple[Place, ...]:
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


def _spend(fx: Fixed, supply: tuple[int, ...], colour: str) -> tuple[int, ...]:
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
    return tuple(tuple(Place(at, c) for c in colours) for at in layout_of(rows).positions)


def _lose_options(state: State, p: int) -> tuple[LoseBucket, ...]:
    """BK-9: a bucket of the required colour; any bucket if none of it is left."""
    return lose_choices(fixed(state.config).rows, state.pyramids[p], state.colour)


@lru_cache(maxsize=1 << 14)
def lose_choices(rows: tuple[int, ...], pyramid: tuple, colour: str | None) -> tuple[LoseBucket, ...]:
    positions = layout_of(rows).positions
    mine = [k for k, c in enumerate(pyramid) if c is not None and c == colour]
    if not mine:
        mine = [k for k, c in enumerate(pyramid) if c is not None]
    return tuple(LoseBucket(positions[k], pyramid[k]) for k in mine)


def legal_actions(state: State) -> list:
    if state.is_over:
        return []
    phase = state.phase
    p = state.current_player
    fx = _FIXED.get(id(state.config)) or fixed(state.config)
    if phase == ARRANGE:
        supply = state._supply or _supply_of(fx, state.pyramids[p])
        return list(fx.offers.get(supply) or _offer(fx, supply))
    if phase == DIRECTION:
        return list(DIRECTIONS)
    if phase == KEEP:
        positions = fx.layout.positions
        return [KeepPart(positions[part[0]], len(part)) for part in state.parts]
    hand = state.hands[p]
    if phase == LEAD:
        if not hand:
            return list(lose_choices(fx.rows, state.pyramids[p], state.colour))  # BK-20: nothing to lead with
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
    loses = lose_choices(fx.rows, state.pyramids[p], colour)
    if fx.plain:
        return [*beating(of_colour(hand, colour), fx.most, need_more), *loses]
    cfg = fx.config
    out = []
    backfire = cfg.backfiring_discard and _active(state) > 2
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
    return f"{seat_name(p)} puts a {a.colour} bucket at {where_text(a.position)}."


def _starts_text(round_: int, starter: int, chooses: bool) -> str:
    return f"Round {round_ + 1}: {seat_name(starter)} starts" + (" and chooses the direction." if chooses else ".")


def _points_text(p: int, way: str, next_: int) -> str:
    return f"{seat_name(p)} points {way}: {seat_name(next_)} plays next."


def _reshuffle_text(cards: int) -> str:
    return f"The draw pile is empty: the discard pile ({cards} cards) is shuffled into a new one."


def _plays_text(p: int, a: PlayCards, lead: bool, total: int, colour: str, got: int, want: int) -> str:
    drew = f"draws {got} card{'s' if got != 1 else ''}" + (" (both piles are empty)" if got < want else "")
    verb = f"leads {a}" if lead else f"plays {a}"
    return f"{seat_name(p)} {verb}: {total} in {colour} in front of them; {drew}."


def _reverses_text(direction: int) -> str:
    return f"The direction reverses: play goes {'left' if direction == 1 else 'right'} now."


def _loses_text(p: int, a: LoseBucket, colour: str | None, to_beat: int, more: int) -> str:
    why = f"cannot or will not beat {to_beat} in {colour}" if colour else "has no card to lead with"
    if colour and a.colour != colour:
        why += f" (no {colour} bucket left)"
    return (f"{seat_name(p)} {why} and loses the {a.colour} bucket at {where_text(a.position)}"
            + (f"; {more} more fall{'s' if more == 1 else ''}." if more else "."))


def _splits_text(p: int, parts: tuple) -> str:
    return (f"{seat_name(p)}'s pyramid is split into {len(parts)} parts ("
            + ", ".join(str(len(x)) for x in parts) + " buckets): only one may stay.")


def _keeps_text(p: int, size: int, gone: int) -> str:
    return f"{seat_name(p)} keeps {size} bucket{'s' if size != 1 else ''} and loses {gone} more."


def _round_ends_text(round_: int, loser: int, lost: int, left: int) -> str:
    return f"Round {round_ + 1} ends: {seat_name(loser)} lost {lost} bucket{'s' if lost != 1 else ''} ({left} left)."


def _out_text(p: int) -> str:
    return f"{seat_name(p)} has no buckets left and is out; their cards go to the discard pile."


def _game_over_text(w: list, best: int) -> str:
    return ("Game over: " + " and ".join(seat_name(i) for i in w)
            + (" share the win" if len(w) > 1 else " wins") + f" with {best} bucket{'s' if best != 1 else ''} left.")


def _place(s: State, p: int, a: Place) -> None:
    """BK-4: the pyramid is built bucket by bucket, bottom-left to top."""
    fx = _FIXED.get(id(s.config)) or fixed(s.config)
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
    total = sum(map(card_value, front))
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
    fx = fixed(cfg)
    rows = fx.rows
    lay = fx.layout
    pyr = s.pyramids[p]
    k = lay.index[a.position]
    if fx.exact:
        standing = standing_of(pyr)
        fall_mask = falling_mask(rows, standing, k)
        fall = indices_of(fall_mask)
        standing &= ~fall_mask
    else:
        fall, s.chance = poke_falls([c is not None for c in pyr], k, lay, cfg.fall_probability, s.chance)
        standing = standing_of(pyr) & ~mask_of(fall)
    new = list(pyr)
    for j in fall:
        new[j] = None
    _log.say(s, _loses_text, p, a, s.colour, s.to_beat, len(fall) - 1)
    s.pyramids = s.pyramids[:p] + (tuple(new),) + s.pyramids[p + 1 :]
    s.buckets = s.buckets[:p] + (s.buckets[p] - len(fall),) + s.buckets[p + 1 :]
    s.lost_now = len(fall)
    parts = split_parts(rows, standing)
    if len(parts) > 1:
        s.parts = tuple(map(indices_of, parts))
        s.phase = KEEP
        _log.say(s, _splits_text, p, s.parts)
        return
    _end_round(s, p)


def _keep(s: State, p: int, a: KeepPart) -> None:
    """BK-12: the other parts of a split pyramid are lost."""
    keep = fixed(s.config).layout.index[a.position]
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
        fx = fixed(cfg)
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
                assert len(split_parts(cfg.rows, standing_of(pyr))) == 1, "pyramid in pieces"
        if state.out[p]:
            assert state.buckets[p] == 0 and not state.hands[p] and not state.fronts[p]
    assert sum(state.out) <= cfg.players - 2 or state.is_over
    assert len(state.falls) == len(state.history), "one (fell, split) entry per finished round"
    for lost, (fell, split) in zip(state.history, state.falls):
        assert fell >= 0 and split >= 0 and max(lost) == 1 + fell + split, "a round's loss = chosen + fell + split"

