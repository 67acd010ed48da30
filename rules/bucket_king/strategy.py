"""Bucket King 3D's bots: the random bot, the heuristic (the rulebook's tips as greedy rules), a
determinised lookahead, and `play_core`, simulate's engine hook for the random and heuristic bots.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from functools import lru_cache
from math import inf

from .. import bots as _bots
from ..protocol import MAX_STEPS, resolve_config
from .cards import (
    ARRANGE, DIRECTION, DIRECTIONS, FOLLOW, KEEP, LEAD, LEFT, NAME, RIGHT, Card, Config, Direction, KeepPart, LoseBucket,
    Place, PlayCards, beating, card_value, plain_only,
)
from .core import (
    FIXED, Core, Fixed, build, fixed, keep_part, lose_bucket, lose_mask, new_core, offer, play_cards, set_direction, supply_of,
)
from .core import act as _act
from .game import Observation, State, core_of, determinize, legal_actions, observation, state_of
from .pyramid import indices_of, layout_of, loss_damage, mask_of, standing_of


# --- bots -------------------------------------------------------------------

CARD_WORTH = 3.0  # what holding a card is worth beyond its value
BUCKET_WORTH = 12.0  # a bucket against card worth: give up a top bucket rather than spend a strong hand



@lru_cache(maxsize=64)
def _setup_order(rows: tuple[int, ...]) -> tuple[int, ...]:
    """Positions from the costliest loss in a full pyramid to the cheapest (ties: lower index first)."""
    full = layout_of(rows).full
    return tuple(sorted(range(full.bit_length()), key=lambda k: (-loss_damage(rows, full, k), k)))


def _strengths(hand) -> dict[str, float]:
    """How strong the hand is in each colour it holds, Σ(value + CARD_WORTH),
    colours in the order they first appear in the hand."""
    out: dict[str, float] = {}
    for colour, value in hand:
        out[colour] = out.get(colour, 0) + (value + CARD_WORTH)
    return out


@lru_cache(maxsize=1 << 12)
def _setup_plan(rows: tuple[int, ...], colours: tuple[str, ...], each: int, hand) -> tuple[tuple[str, ...], ...]:
    """Heuristic set-up: strong colours where a loss would hurt most (BK-4 tips).
    For each flat position, the colour planned there and every colour as strong, in
    Config order (the plan ranks ties by colour order; any of them fills the same block
    of positions). A player's hand does not change while they build."""
    strength = _strengths(hand)
    ranked = sorted(colours, key=lambda c: -strength.get(c, 0))  # stable: ties keep the colour order
    alike: dict[float, list[str]] = {}  # strength -> the colours that strong
    for c in colours:
        alike.setdefault(strength.get(c, 0), []).append(c)
    fits = {c: tuple(alike[strength.get(c, 0)]) for c in colours}
    plan = [None] * len(layout_of(rows).positions)
    for rank, k in enumerate(_setup_order(rows)):  # the costliest position to lose first
        plan[k] = fits[ranked[rank // each]]  # each colour fills `each` positions in turn
    return tuple(plan)


def _play_cost(a: PlayCards, draws: int) -> float:
    spent = a.cards + a.extras + ((a.discard,) if a.discard is not None else ())
    return sum(c.value + CARD_WORTH for c in spent) - draws * (4.5 + CARD_WORTH)


@lru_cache(maxsize=1 << 14)
def _play_key(a: PlayCards, draws: int) -> tuple[float, int]:
    """The heuristic's order of plays: the cheapest (drawing `draws` cards after it), then the lowest total."""
    return _play_cost(a, draws + len(a.extras)), a.total


def _best_loss(obs: Observation, legal, rng: random.Random | None = None) -> tuple[LoseBucket | None, int]:
    """The bucket whose loss costs fewest buckets, the highest row among equals;
    still tied, `rng` picks (None: the first)."""
    fx = fixed(obs.config)
    pyramid = obs.pyramids[obs.player]
    options = _options(fx, legal)
    if not options:
        return None, 0
    best, damage = _least_damage(fx.rows, standing_of(pyramid), options)
    k = _pick(best, rng)
    return fx.loses[k][pyramid[k]], damage


def _options(fx: Fixed, legal) -> int:
    """The positions of the LoseBucket actions in `legal`, as a bitmask."""
    index = fx.layout.index
    return mask_of(index[a.position] for a in legal if type(a) is LoseBucket)


@lru_cache(maxsize=1 << 16)
def _least_damage(rows: tuple[int, ...], standing: int, options: int) -> tuple[tuple[int, ...], int]:
    """Of the positions in `options` (not none), those whose loss costs fewest buckets, the highest row
    among equals, lowest index first; and that cost."""
    positions = layout_of(rows).positions
    best, key = [], None
    for k in indices_of(options):
        x = (loss_damage(rows, standing, k), -positions[k][0])
        if key is None or x < key:
            best, key = [k], x
        elif x == key:
            best.append(k)
    return tuple(best), key[0]


def _neighbour(out: tuple[bool, ...], me: int, d: int, n: int) -> int:
    """The next seat still in from `me` in direction d (+1 or -1)."""
    q = (me + d) % n
    while out[q]:
        q = (q + d) % n
    return q


_LAST_PLAN: list = [None, None, ()]  # (Fixed, hand, its _setup_plan) of the last set-up move


def _plan_for(fx: Fixed, hand: tuple) -> tuple[tuple[str, ...], ...]:
    """_setup_plan for this hand: a player places all their buckets from one hand (the very
    same tuple), so the last plan is kept by identity rather than hashed again each move."""
    last = _LAST_PLAN
    if last[1] is hand and last[0] is fx:
        return last[2]
    plan = _setup_plan(fx.rows, fx.config.colours, fx.each, tuple(hand))  # a Core's hand is a list
    last[:] = fx, hand, plan
    return plan


def _pick(tied: list, rng: random.Random | None):
    """One of equally good actions: the bot's rng decides, never the listing order."""
    if len(tied) == 1 or rng is None:
        return tied[0]
    return tied[_bots.below(rng, len(tied))]


def heuristic_bot(obs: Observation, legal: list, rng: random.Random):
    """The rulebook's tips as greedy rules: strong colours low in the pyramid,
    defend with the cheapest play, give up a top bucket rather than spend a
    strong hand, lead the highest card of the strongest colour towards the
    neighbour with more buckets, keep the larger part."""
    first = legal[0]
    if type(first) is Place or type(first) is Direction or type(first) is KeepPart:
        return _arrange_point_keep(obs, obs.player, obs.hand, legal, rng)
    if obs.phase == LEAD and obs.hand:
        return _lead(obs.hand, rng)
    plays = [a for a in legal if type(a) is PlayCards and a.discard is None]
    fx = fixed(obs.config)
    pyramid = obs.pyramids[obs.player]
    chosen = _defend(fx, pyramid, standing_of(pyramid), _options(fx, legal), obs.buckets[obs.player], plays, None, rng)
    return legal[0] if chosen is None else chosen


# The heuristic's parts. Each reads only what its seat may see: its own hand, and the table
# (`view`: an Observation, or simulate's own State read for seat `me` by play_core).

def _arrange_point_keep(view, me: int, hand: tuple, legal: list, rng: random.Random):
    """Set-up (BK-4 tips), the direction (BK-5) and the part kept (BK-12)."""
    first = legal[0]
    if type(first) is Place:
        fx = fixed(view.config)
        fits = _plan_for(fx, hand)[fx.layout.index[first.position]]
        return _pick([a for a in legal if a.colour in fits] or [first], rng)
    if type(first) is Direction:  # legal is DIRECTIONS: (left, right)
        return legal[0] if _point(view, me, rng) == LEFT else legal[1]
    most = max(a.size for a in legal)
    return _pick([a for a in legal if a.size == most], rng)


def _lead(hand: tuple, rng: random.Random) -> PlayCards:
    """The highest card of the strongest colour: always a legal lead (BK-6)."""
    tops, top = [], -1.0  # the highest card of each strongest colour, in the hand's order
    colour, v, last = None, 0, None
    for card in hand:  # _strengths' sums, colour by colour (the hand is sorted), in one pass
        if card[0] != colour:
            if v > top:
                top, tops = v, [last]
            elif v == top:
                tops.append(last)
            colour, v = card[0], 0
        v += card[1] + CARD_WORTH
        last = card
    if v > top:
        top, tops = v, [last]
    elif v == top:
        tops.append(last)
    return PlayCards((tops[0] if len(tops) == 1 else _pick(tops, rng),))


def _defend(fx: Fixed, pyramid, standing: int, options: int, mine: int, plays, cheapest, rng: random.Random):
    """Beat the sum with the cheapest play, or lose the bucket that costs fewest buckets, whichever
    costs less (a play if a loss would empty the pyramid). `options`: the positions the player may
    lose (BK-9) as a bitmask, `standing` theirs; `plays`: the plays without a discard, in legal order;
    `cheapest`: _cheapest(plays, draws) if the caller has it. None: neither is legal."""
    if options:
        best, dmg = _least_damage(fx.rows, standing, options)
        k = best[0] if len(best) == 1 else _pick(best, rng)
        loss = fx.loses[k][pyramid[k]]
    else:
        loss, dmg = None, 0
    if not plays:
        return loss
    tied, cost = cheapest or _cheapest(plays, fx.config.draw_per_turn)
    chosen = tied[0] if len(tied) == 1 else _pick(tied, rng)
    if dmg >= mine or cost < BUCKET_WORTH * dmg:
        return chosen
    return loss


def _cheapest(plays, draws: int) -> tuple[list, float]:
    """The plays of lowest _play_key, in their order, and that cost."""
    keys = [_play_key(a, draws) for a in plays]
    low = min(keys)
    return [a for a, k in zip(plays, keys) if k == low], low[0]


@lru_cache(maxsize=1 << 15)
def _cheapest_beating(same: tuple[Card, ...], most: int, need_more: int, draws: int) -> tuple[list, float] | None:
    """_cheapest of beating(same, most, need_more) (a plain follow's plays), remembered."""
    plays = beating(same, most, need_more)
    return _cheapest(plays, draws) if plays else None


def _heuristic_move(c, fx: Fixed, p: int, rng: random.Random):
    """heuristic_bot's choice for seat p (to move) of core c, read from the core: no observation built,
    and no list of legal moves where the heuristic does not need one (the set-up reads the offer as it is,
    a lead is one card, a plain follow reads the cached plays of its colour). The same choice and the same
    draws from `rng` as heuristic_bot(observation(state, p), legal_actions(state), rng)."""
    phase = c.phase
    if phase == FOLLOW and fx.plain:
        hand, colour = c.hands[p], c.colour
        lo = bisect_left(hand, (colour,))
        cheapest = _cheapest_beating(tuple(hand[lo : bisect_left(hand, (colour, inf), lo)]), fx.most,
                                     c.to_beat - sum(map(card_value, c.fronts[p])), fx.config.draw_per_turn)
        standing = c.standing[p]
        return _defend(fx, c.pyramids[p], standing, lose_mask(standing, c.colour_masks[p][colour]), c.buckets[p],
                       cheapest and cheapest[0], cheapest, rng)
    if phase == LEAD and c.hands[p]:
        return _lead(c.hands[p], rng)
    if phase == ARRANGE:
        supply = c.supply or supply_of(fx, c.pyramids[p])
        return _arrange_point_keep(c, p, c.hands[p], fx.offers.get(supply) or offer(fx, supply), rng)
    legal = legal_actions(c)
    if phase == LEAD or phase == FOLLOW:
        return heuristic_bot(observation(state_of(c), p), legal, rng)
    return _arrange_point_keep(c, p, c.hands[p], legal, rng)


def _random_build(rng: random.Random, colours: tuple[str, ...], each: int, size: int) -> list:
    """random_bot's whole set-up turn (BK-4): at each flat position, one colour drawn uniformly
    (bots.below) from the colours still in the supply, in Config order (core.offer's order): the
    same draws and colours as one random_bot call on each bucket's offer."""
    free = list(colours)
    out = []
    if type(rng) in _bots._MERSENNE:
        left = [each] * len(free)  # beside free: how many of each are left
        rng.getrandbits(0)  # a LazySeatRandom seeds itself now (0 bits: no draw), so its method can be kept
        bits = rng.getrandbits
        for _ in range(size):
            n = len(free)
            k = n.bit_length()
            r = bits(k)
            while r >= n:  # bots.below written out
                r = bits(k)
            out.append(free[r])
            left[r] -= 1
            if not left[r]:
                del free[r], left[r]
    else:
        left = dict.fromkeys(colours, each)
        for _ in range(size):
            col = free[_bots.below(rng, len(free))]
            out.append(col)
            left[col] -= 1
            if not left[col]:
                free.remove(col)
    return out


def _heuristic_build(fx: Fixed, hand, rng: random.Random) -> list:
    """heuristic_bot's whole set-up turn (BK-4 tips): at each flat position, of the colours still in the
    supply (Config order), those the plan fits there, else the first; ties drawn as _pick draws them."""
    colours = fx.config.colours
    left = dict.fromkeys(colours, fx.each)
    out = []
    # each position's fitting colours, in Config order; worked out afresh (not remembered: simulate's hands are new)
    for fits in _setup_plan.__wrapped__(fx.rows, colours, fx.each, hand):
        if len(fits) == 1 and left[fits[0]]:  # the usual case: one colour fits, and it is left
            col = fits[0]
        else:
            cands = [x for x in fits if left[x]]
            col = (cands[0] if len(cands) == 1 else cands[_bots.below(rng, len(cands))]) if cands else \
                next(x for x in colours if left[x])
        out.append(col)
        left[col] -= 1
    return out


def _point(view, me: int, rng: random.Random) -> str:
    """The heuristic's direction (BK-5): towards the neighbour with more buckets; a tie drawn."""
    n, out = view.config.players, view.out
    right, left = view.buckets[_neighbour(out, me, 1, n)], view.buckets[_neighbour(out, me, -1, n)]
    if right == left:
        return DIRECTIONS[_bots.below(rng, 2)].way
    return LEFT if right > left else RIGHT


def play_core(config, chance, seat_funcs, rngs, checked, seat_names, leader):
    """simulate's engine hook (contract: sim.play.play_game) for seats of the random and the heuristic
    bot: the game on one Core (core.py) in place, no State until the end, no observation built, and
    no list of legal moves where the bot does not need one: a whole set-up turn drawn at once
    (_random_build, _heuristic_build), the direction drawn, a lead or a plain follow read from the
    cached plays. Each phase's rule function of core.py is called directly (core.act's dispatch).
    None for any other bot."""
    heuristic, random_bot = heuristic_bot, _bots.random_bot
    kinds = []
    for f in seat_funcs:
        if f is not heuristic and f is not random_bot:
            return None
        kinds.append(f is heuristic)
    cfg = resolve_config(Config, config)
    c = new_core(cfg, chance)  # no turn hook: the loop below notes the leader at each turn's end itself
    fx = FIXED.get(id(cfg)) or fixed(cfg)
    colours, each, size = cfg.colours, fx.each, len(fx.layout.positions)
    # simulate's progress is the scores, the buckets left: they change only when a round is lost, so the
    # leader is worked out then. A turn ends (core._turn_over) with each pyramid built, each play, and
    # each round lost (a loss not followed by a split, or the part kept); a direction chosen is no turn.
    leaders = []
    note = leaders.append
    lead = leader(c.buckets[:])
    actions = 0
    while c.phase == ARRANGE:  # BK-4: each seat builds in turn, a decision per bucket
        p = c.current_player
        build(c, p, _heuristic_build(fx, c.hands[p], rngs[p]) if kinds[p] else _random_build(rngs[p], colours, each, size))
        note(lead)
        actions += size
    below, plain, most, loses = _bots.below, fx.plain, fx.most, fx.loses
    while not c.is_over:
        if actions >= MAX_STEPS:
            raise RuntimeError(f"{NAME} did not end within {MAX_STEPS} actions")
        actions += 1
        p = c.current_player
        phase = c.phase
        rng = rngs[p]
        if kinds[p]:
            if phase == DIRECTION:
                set_direction(c, p, _point(c, p, rng))
                continue
            action = _heuristic_move(c, fx, p, rng)
        # random_bot: legal_actions(c)[below(rng, n)], the same draw, without the list where the plain rules
        # let the count and the one move chosen be read from the cached plays: a follow's plays that beat
        # the sum, then the buckets to lose (BK-9), lowest position first; a lead's plays colour by colour
        elif phase == FOLLOW and plain:
            hand, colour = c.hands[p], c.colour
            lo = bisect_left(hand, (colour,))
            plays = beating(tuple(hand[lo : bisect_left(hand, (colour, inf), lo)]), most,
                            c.to_beat - sum(map(card_value, c.fronts[p])))
            mask = lose_mask(c.standing[p], c.colour_masks[p][colour])
            n = len(plays)
            r = below(rng, n + mask.bit_count())
            if r < n:
                play_cards(c, p, plays[r])
                note(lead)
            else:
                k = indices_of(mask)[r - n]
                lose_bucket(c, p, loses[k][c.pyramids[p][k]])
                if c.phase != KEEP:
                    lead = leader(c.buckets[:])
                    note(lead)
            continue
        elif phase == DIRECTION:  # DIRECTIONS: left, right
            set_direction(c, p, RIGHT if below(rng, 2) else LEFT)
            continue
        elif phase == LEAD and plain and c.hands[p]:
            hand = c.hands[p]
            runs, start, n, end = [], 0, 0, len(hand)
            while start < end:  # colour by colour, as legal_actions lists them
                stop = bisect_left(hand, (hand[start][0], inf), start)
                plays = plain_only(tuple(hand[start:stop]), most)
                runs.append(plays)
                n += len(plays)
                start = stop
            r = below(rng, n)
            for plays in runs:
                if r < len(plays):
                    break
                r -= len(plays)
            play_cards(c, p, plays[r])
            note(lead)
            continue
        else:
            legal = legal_actions(c)
            action = legal[below(rng, len(legal))]
        if phase == KEEP:
            keep_part(c, p, action)
        elif type(action) is LoseBucket:
            lose_bucket(c, p, action)
            if c.phase == KEEP:
                continue
        else:
            play_cards(c, p, action)
            note(lead)
            continue
        lead = leader(c.buckets[:])  # a round lost
        note(lead)
    return state_of(c), leaders, actions


def _hand_worth(hand) -> float:
    return sum(c.value + CARD_WORTH for c in hand)


def _candidates(obs: Observation, legal: list, width: int) -> list:
    """A few sensible actions to compare: the heuristic's, the best loss, the cheapest plays."""
    plays = [a for a in legal if type(a) is PlayCards]
    draws = obs.config.draw_per_turn
    plays.sort(key=lambda a: (_play_cost(a, draws + len(a.extras)) - (a.total if obs.phase == LEAD else 0), a.total))
    out = plays[:width]
    loss, _ = _best_loss(obs, legal)
    if loss is not None:
        out.append(loss)
    h = heuristic_bot(obs, legal, random.Random(0))
    if h not in out:
        out.append(h)
    if obs.config.backfiring_discard:
        back = [a for a in legal if type(a) is PlayCards and a.discard is not None]
        back.sort(key=lambda a: _play_cost(a, draws + len(a.extras)))
        out += back[:2]
    return out


def _evaluate(state: State | Core, me: int) -> float:
    """Bucket lead over the best other player, plus a little for the cards in hand."""
    b = state.buckets
    best_other = max(v for i, v in enumerate(b) if i != me)
    hands = state.hands
    others = [_hand_worth(h) for i, h in enumerate(hands) if i != me and not state.out[i]]
    mean_other = sum(others) / len(others) if others else 0.0
    return (b[me] - best_other) + (_hand_worth(hands[me]) - mean_other) / BUCKET_WORTH


def make_lookahead(samples: int = 12, width: int = 4, rounds: int = 1, name: str = "lookahead"):
    """Determinised Monte Carlo over a few candidate actions: each sampled
    world (unseen cards dealt at random) is played on by heuristic bots to
    the end of `rounds` rounds and scored by `_evaluate`; the same worlds
    and rollout randomness serve every candidate (common random numbers).
    Set-up, direction and split choices are left to the heuristic."""

    def bot(obs: Observation, legal: list, rng: random.Random):
        if len(legal) == 1 or type(legal[0]) in (Place, Direction, KeepPart):
            return heuristic_bot(obs, legal, rng)
        cands = _candidates(obs, legal, width)
        if len(cands) == 1:
            return cands[0]
        totals = [0.0] * len(cands)
        me = obs.player
        fx = FIXED.get(id(obs.config)) or fixed(obs.config)
        for _ in range(samples):
            world = determinize(obs, rng)
            roll_seed = rng.getrandbits(63)
            stop = world.round + rounds  # from the round before the trial move: a move that ends it is judged there too
            for i, a in enumerate(cands):  # each rollout on its own core of the world (core.py), heuristic bots
                c = core_of(world)
                _act(c, a)
                r = random.Random(roll_seed)
                while not c.is_over and c.round < stop:
                    _act(c, _heuristic_move(c, fx, c.current_player, r))
                totals[i] += _evaluate(c, me)
        return cands[totals.index(max(totals))]

    bot.__name__ = name
    return bot


BOTS = {
    "random": _bots.random_bot,
    "heuristic": heuristic_bot,
    "lookahead": make_lookahead(),
}
