"""Bucket King 3D's game core: the game as a lean loop holds it (plain lists, ints and bitmasks),
with the rules applied to it in place: the deal (BK-2), set-up (BK-4), the direction (BK-5), leads
and follows (BK-6 to BK-8, BK-17 to BK-19), losses, falls and splits (BK-9 to BK-12, BK-20), the
round's end and the game's (BK-13 to BK-16, BK-21). These functions are the only copy of those rules:
simulate's `play_core` plays on a Core directly; the public `State` (game.py) is a view of one, and
`step`/`apply` build a Core from a State, play the move here and write the State's tuples back.

Also here: what a Config fixes for every move (`Fixed`), the set-up's offers and the BK-9 loss
options (`lose_mask`), which `legal_actions` reads from either a State or a Core.
"""

from __future__ import annotations

from bisect import insort
from functools import lru_cache
from typing import Any, NamedTuple

from .. import log as _log
from ..chance import Chance
from .cards import (
    DIRECTION, FOLLOW, KEEP, LARGE_GAME, LEAD, LEFT, OVER, ARRANGE, Card, Config, KeepPart, LoseBucket, Place,
    PlayCards, card_value, where_text,
)
from .measures import winners
from .pyramid import Layout, falling_mask, indices_of, layout_of, mask_of, poke_falls, split_parts, standing_of


def seat_name(p: int) -> str:
    """"Player 1" for seat 0."""
    return f"Player {p + 1}"


def active_players(state) -> int:
    """Players still in (BK-16)."""
    return state.config.players - sum(state.out)


def next_seat(state, p: int, d: int) -> int:
    """The next player still in, from seat p in direction d (+1 left, -1 right)."""
    n = state.config.players
    q = (p + d) % n
    while state.out[q]:
        q = (q + d) % n
    return q



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
    offers: dict  # set-up: a builder's supply -> the Place actions open to them (see offer)
    spent: dict  # set-up: (supply, colour placed) -> the supply left
    loses: tuple[dict, ...]  # by flat position: {colour: the LoseBucket action of a bucket of it there}


# id(config) -> its Fixed. The entry holds the config, so while it is there no other
# object can have that id: a hit is always this very config.
FIXED: dict[int, Fixed] = {}


def fixed(cfg: Config) -> Fixed:
    """The Fixed of a Config (hot paths inline its first line: `FIXED.get(id(cfg)) or fixed(cfg)`)."""
    fx = FIXED.get(id(cfg))
    if fx is None:
        if len(FIXED) >= 256:  # many configs (a sweep): start afresh rather than grow
            FIXED.clear()
        rows = cfg.rows
        fx = FIXED[id(cfg)] = Fixed(
            cfg, rows, layout_of(rows), _places(rows, cfg.colours), cfg.buckets_each, cfg.max_cards,
            not cfg.special_one and not cfg.backfiring_discard, cfg.fall_model == "exact", tuple(cfg.deck()),
            (cfg.buckets_each,) * len(cfg.colours), {}, {},
            tuple({c: LoseBucket(at, c) for c in cfg.colours} for at in layout_of(rows).positions),
        )
    return fx


def supply_of(fx: Fixed, pyramid: tuple) -> tuple[int, ...]:
    """Buckets of each colour still to place while building `pyramid` (BK-3)."""
    return tuple(fx.each - pyramid.count(c) for c in fx.config.colours)


def offer(fx: Fixed, supply: tuple[int, ...]) -> tuple[Place, ...]:
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


def spend(fx: Fixed, supply: tuple[int, ...], colour: str) -> tuple[int, ...]:
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


def lose_mask(standing: int, colour_mask: int) -> int:
    """BK-9: the positions a player may lose a bucket from, as a bitmask: their standing buckets of
    the required colour (`colour_mask`: where that colour was placed); any standing bucket if none
    of it is left."""
    return colour_mask & standing or standing


def seat_lose_mask(x, p: int) -> int:
    """lose_mask for seat p now, of a Core (its kept bitmasks) or a State (read from its pyramid)."""
    if type(x) is Core:
        return lose_mask(x.standing[p], x.colour_masks[p].get(x.colour, 0))
    pyr = x.pyramids[p]
    return lose_mask(standing_of(pyr), colour_mask_of(pyr, x.colour))


@lru_cache(maxsize=1 << 14)
def colour_mask_of(pyramid: tuple, colour: str | None) -> int:
    """The positions of a pyramid tuple holding a bucket of `colour`, as a bitmask."""
    return mask_of(k for k, c in enumerate(pyramid) if c is not None and c == colour)


@lru_cache(maxsize=1 << 14)
def colour_masks_of(pyramid: tuple, colours: tuple[str, ...]) -> tuple[int, ...]:
    """colour_mask_of for each of `colours`, in one pass over the pyramid."""
    masks = dict.fromkeys(colours, 0)
    for k, c in enumerate(pyramid):
        if c is not None:
            masks[c] |= 1 << k
    return tuple(masks.values())


def lose_actions(fx: Fixed, pyramid, mask: int) -> tuple[LoseBucket, ...]:
    """The LoseBucket actions of the positions in `mask` (lowest index first) of this pyramid."""
    loses = fx.loses
    return tuple(loses[k][pyramid[k]] for k in indices_of(mask))


# The event sentences. Each step logs (sentence, its values); the text is made only when
# someone reads state.events (rules/log.py), never in simulate's quiet states.

def deals_text(hand_size: int, draw: int, rows: tuple[int, ...]) -> str:
    """The deal's event sentence (new_game logs it)."""
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



class Core:
    """One game as plain lists, ints and bitmasks, changed in place by the functions below.

    The fields mean what State's do (game.py), held mutably: `hands` sorted lists of Cards, `draw`
    (the next card drawn is the last), `discard`, `fronts` (each a list), `pyramids` (a list per seat:
    a colour per flat position, None where no bucket stands), `buckets`, `out`, `history` and `falls`
    lists; `standing` each seat's standing positions as a bitmask (kept with `pyramids`), `colour_masks`
    each seat's {colour: bitmask of where it was placed} (what still stands of it: & standing); `supply` the
    set-up builder's buckets still to place (None: count them). `say`: the object whose event log the
    rules write to (a State), or None; `turn_end(core)`: called at the end of every turn, or None."""

    __slots__ = ("config", "fx", "chance", "phase", "round", "start_player", "current_player", "direction",
                 "hands", "draw", "discard", "fronts", "colour", "to_beat", "attacker", "pyramids", "standing",
                 "colour_masks", "buckets", "out", "parts", "lost_now", "history", "falls", "is_over", "supply", "say",
                 "turn_end")

    @property
    def _supply(self):  # State's name for it: legal_actions and check_state read either
        return self.supply


def new_core(cfg: Config, chance: Chance) -> Core:
    """Shuffle and deal (BK-2); every player starts building (BK-4). No event: new_game logs the deal."""
    fx = FIXED.get(id(cfg)) or fixed(cfg)
    deck, chance = chance.shuffled(fx.deck)
    n, h = cfg.players, cfg.hand_size
    size = sum(fx.rows)
    c = Core()
    c.config, c.fx, c.chance = cfg, fx, chance
    c.phase, c.round, c.start_player, c.current_player, c.direction = ARRANGE, 0, 0, 0, 0
    if cfg.seat_cards:  # BK-22: seat i is dealt h + seat_cards[i], in seat order, from the top
        cut = [0]
        for extra in cfg.seat_cards:
            cut.append(cut[-1] + h + extra)
        c.hands = [sorted(deck[cut[i] : cut[i + 1]]) for i in range(n)]
        c.draw = deck[cut[-1] :]
    else:
        c.hands = [sorted(deck[i * h : (i + 1) * h]) for i in range(n)]
        c.draw = deck[n * h :]
    c.discard = []
    c.fronts = [[] for _ in range(n)]
    c.colour, c.to_beat, c.attacker = None, 0, None
    c.pyramids = [[None] * size for _ in range(n)]
    c.standing = [0] * n
    c.colour_masks = [dict.fromkeys(cfg.colours, 0) for _ in range(n)]
    c.buckets = [size] * n
    c.out = [False] * n
    c.parts, c.lost_now, c.history, c.falls, c.is_over = (), 0, [], [], False
    c.supply = fx.supply
    c.say = c.turn_end = None
    return c


def act(c: Core, action: Any) -> None:
    """Play a legal `action` on core c in place (not checked: `apply` checks it first): the phase's rule
    function below (simulate's play_core calls them directly, and `build` for a whole set-up turn)."""
    phase = c.phase
    p = c.current_player
    if phase == ARRANGE:
        _place(c, p, action)
    elif phase == DIRECTION:
        set_direction(c, p, action.way)
    elif phase == KEEP:
        keep_part(c, p, action)
    elif type(action) is LoseBucket:
        lose_bucket(c, p, action)
    else:
        play_cards(c, p, action)


def _turn_over(c: Core) -> None:
    """A player's turn is over: building their whole pyramid (BK-4, one turn each, in seat
    order), a lead with its choice of direction (BK-5, BK-6), a play (BK-7), or losing
    buckets with the part kept (BK-9 to BK-12, BK-20); the next turn has not begun.
    A player who is out has no turns (BK-16)."""
    if c.turn_end is not None:
        c.turn_end(c)


def _place(c: Core, p: int, a: Place) -> None:
    """BK-4: the pyramid is built bucket by bucket, bottom-left to top."""
    fx = c.fx
    k = fx.layout.index[a.position]
    pyr = c.pyramids[p]
    supply = c.supply or supply_of(fx, pyr)
    pyr[k] = a.colour
    c.standing[p] |= 1 << k
    c.colour_masks[p][a.colour] |= 1 << k
    if c.say is not None:
        _log.say(c.say, _places_text, p, a)
    if k + 1 < len(pyr):  # built in flat order: the top bucket is the last
        c.supply = fx.spent.get((supply, a.colour)) or spend(fx, supply, a.colour)
        return
    _built(c, p)


def build(c: Core, p: int, colours: list) -> None:
    """BK-4 for a whole turn: seat p, to build and with nothing placed yet, places `colours` (a colour per
    flat position, bottom-left to top, each one their supply still held: not checked), as one _place per
    bucket would, without the moves in between and with no event (simulate's play_core builds so)."""
    pyr = c.pyramids[p]
    masks = c.colour_masks[p]
    for k, colour in enumerate(colours):
        pyr[k] = colour
        masks[colour] |= 1 << k
    c.standing[p] |= (1 << len(colours)) - 1
    _built(c, p)


def _built(c: Core, p: int) -> None:
    """BK-4: seat p's pyramid is built and their turn over; the next seat builds, or the first round starts."""
    _turn_over(c)
    if p + 1 < c.config.players:
        c.current_player = p + 1
        c.supply = c.fx.supply
    else:
        c.supply = None
        _start_round(c, 0)


def _start_round(c: Core, starter: int) -> None:
    """BK-5: the start player points left or right (no choice with two players in)."""
    c.start_player = starter
    c.current_player = starter
    c.colour, c.to_beat, c.attacker, c.lost_now = None, 0, None, 0  # the fronts: emptied as the last round ended
    if c.config.players - sum(c.out) == 2:  # active_players
        c.direction = 1
        c.phase = LEAD
        if c.say is not None:
            _log.say(c.say, _starts_text, c.round, starter, False)
    else:
        c.direction = 0
        c.phase = DIRECTION
        if c.say is not None:
            _log.say(c.say, _starts_text, c.round, starter, True)


def set_direction(c: Core, p: int, way: str) -> None:
    """BK-5: the start player p points `way` (LEFT or RIGHT); the lead follows."""
    c.direction = 1 if way == LEFT else -1
    c.phase = LEAD
    if c.say is not None:
        _log.say(c.say, _points_text, p, way, next_seat(c, p, c.direction))


def _draw(c: Core, hand: list, k: int) -> int:
    """Draw k cards into the sorted `hand` (BK-8), reshuffling the discard pile when the draw pile is out
    (BK-2); with both piles empty nothing is drawn (BK-21). Returns how many were drawn."""
    draw = c.draw
    if k == 1 and draw:  # the usual draw
        insort(hand, draw.pop())
        return 1
    got = 0
    for _ in range(k):
        if not draw:
            if not c.discard:
                break
            draw, c.chance = c.chance.shuffled(c.discard)
            c.draw = draw
            if c.say is not None:
                _log.say(c.say, _reshuffle_text, len(c.discard))
            c.discard = []
        insort(hand, draw.pop())  # hands stay sorted
        got += 1
    return got


def play_cards(c: Core, p: int, a: PlayCards) -> None:
    """BK-6 to BK-8, BK-17 to BK-19: put cards down, announce the total, draw."""
    cfg = c.config
    hand = c.hands[p]
    cards, extras, discard = a
    for card in cards:
        hand.remove(card)
    front = c.fronts[p]
    front += cards
    if extras:
        for card in extras:
            hand.remove(card)
        front += extras
    if discard is not None:
        hand.remove(discard)
        c.discard.append(discard)
    total = sum(map(card_value, front))
    lead = c.phase == LEAD
    if lead:
        c.colour = cards[0].colour
    c.to_beat, c.attacker = total, p
    want = cfg.draw_per_turn + len(extras)
    got = _draw(c, hand, want)
    if c.say is not None:
        _log.say(c.say, _plays_text, p, a, lead, total, c.colour, got, want)
    if not lead and (discard is not None or (cfg.multi_card_reverses and len(cards) + len(extras) >= 2)) \
            and active_players(c) > 2:  # a reverse
        c.direction = -c.direction
        if c.say is not None:
            _log.say(c.say, _reverses_text, c.direction)
    c.phase = FOLLOW
    if c.turn_end is not None:  # _turn_over
        c.turn_end(c)
    c.current_player = next_seat(c, p, c.direction)


def lose_bucket(c: Core, p: int, a: LoseBucket) -> None:
    """BK-9 to BK-12: take the bucket away; what rested on it falls; a split pyramid keeps one part."""
    fx = c.fx
    pyr = c.pyramids[p]
    k = fx.layout.index[a.position]
    if fx.exact:
        fall, c.standing[p], parts = _exact_loss(fx.rows, c.standing[p], k)
    else:
        fall, c.chance = poke_falls([x is not None for x in pyr], k, fx.layout, c.config.fall_probability, c.chance)
        c.standing[p], parts = _after_loss(fx.rows, c.standing[p] & ~mask_of(fall))
    for j in fall:
        pyr[j] = None
    if c.say is not None:
        _log.say(c.say, _loses_text, p, a, c.colour, c.to_beat, len(fall) - 1)
    c.buckets[p] -= len(fall)
    c.lost_now = len(fall)
    if parts:
        c.parts = parts
        c.phase = KEEP
        if c.say is not None:
            _log.say(c.say, _splits_text, p, c.parts)
        return
    _end_round(c, p)


def _after_loss(rows: tuple[int, ...], standing: int) -> tuple[int, tuple]:
    """(standing, the parts it split into as flat indices, BK-12; () if it did not split)."""
    parts = split_parts(rows, standing)
    return standing, tuple(map(indices_of, parts)) if len(parts) > 1 else ()


@lru_cache(maxsize=1 << 16)
def _exact_loss(rows: tuple[int, ...], standing: int, k: int) -> tuple[tuple[int, ...], int, tuple]:
    """BK-10 exact rule: bucket k taken from the pyramid standing so: (the flat indices that fall, k and all
    resting on it, lowest first; what still stands; its parts if it split, else ()), remembered."""
    fall = falling_mask(rows, standing, k)
    return (indices_of(fall), *_after_loss(rows, standing & ~fall))


def keep_part(c: Core, p: int, a: KeepPart) -> None:
    """BK-12: the other parts of a split pyramid are lost."""
    keep = c.fx.layout.index[a.position]
    pyr = c.pyramids[p]
    gone = 0
    for part in c.parts:
        if keep not in part:
            for j in part:
                pyr[j] = None
                c.standing[p] &= ~(1 << j)
                gone += 1
    c.buckets[p] -= gone
    c.lost_now += gone
    c.parts = ()
    if c.say is not None:
        _log.say(c.say, _keeps_text, p, a.size, gone)
    _end_round(c, p, split=gone)


def _end_round(c: Core, loser: int, split: int = 0) -> None:
    """BK-13 to BK-16: played cards to the discard pile; the loser starts; eliminations; game end.
    `split`: buckets the loser lost in a split (BK-12); the rest fell with the chosen one."""
    cfg = c.config
    n = cfg.players
    lost = [0] * n
    lost[loser] = c.lost_now
    c.history.append(tuple(lost))
    c.falls.append((c.lost_now - 1 - split, split))
    discard = c.discard
    for front in c.fronts:
        discard += front
    c.fronts = [[] for _ in range(n)]
    if c.say is not None:
        _log.say(c.say, _round_ends_text, c.round, loser, c.lost_now, c.buckets[loser])
    if c.turn_end is not None:  # _turn_over: losing ends the loser's turn and the round
        c.turn_end(c)
    c.round += 1
    starter = loser
    if c.buckets[loser] == 0:
        if n < LARGE_GAME or cfg.end_rule == "first-out":
            _game_over(c)
            return
        c.out[loser] = True
        c.discard += c.hands[loser]
        c.hands[loser] = []
        if c.say is not None:
            _log.say(c.say, _out_text, loser)
        left = n - sum(c.out)
        if (cfg.end_rule == "rulebook" and sum(c.out) >= 2) or (cfg.end_rule == "three-left" and left <= 3):
            _game_over(c)
            return
        starter = next_seat(c, loser, c.direction or 1)  # BK-16: beside the loser, not the attacker
    _start_round(c, starter)


def _game_over(c: Core) -> None:
    c.is_over = True
    c.phase = OVER
    c.current_player = None
    c.parts = ()
    if c.say is not None:
        w = winners(c)
        _log.say(c.say, _game_over_text, tuple(w), c.buckets[w[0]])
