"""Lean Bucket King 3D for the benchmark only: base rules with 2-4 players
(BK-1 to BK-15, BK-20, BK-21: exact fall, no variants), plain lists and ints,
random.Random, no events, no states kept. Written from the numbered rules in
seeds/bucket_king.md; the package's rules live in meeple.rules.bucket_king.

A pyramid is a bitmask of the positions still standing (bit k = flat
position k, bottom row first, left to right), with one mask per colour built
at set-up. A hand is five sorted lists of values, one per colour; a card
elsewhere is an int, colour * 16 + value.

play(rng, players, bot) -> (scores, actions); actions counts the decisions as
simulate's `actions` column does: every bucket placed at set-up (judgement
call 1), each direction (BK-5), lead, play or loss, and the part kept after a
split (BK-12). Bots: `random` (uniform over the distinct legal actions) and
`heuristic` (meeple's heuristic_bot's rules, ties broken uniformly).
With `log` (a list), every heuristic lead and follow appends what the mover saw and the
equally good choices it had: ("lead", seat, hand, colours) and ("follow", seat, colour,
hand, need, standing, colour masks, buckets, cheapest plays or None, best losses, played)
(tests/rules/test_bucket_king.py checks them against meeple's heuristic bot).
"""

from __future__ import annotations

import random
from bisect import bisect_right, insort
from itertools import combinations

COLOURS, VALUES, COPIES = 5, range(1, 9), 2  # BK-1
HAND = 10  # BK-2
ROWS, EACH = (5, 4, 3, 2, 1), 3  # BK-3, 2-4 players
MOST = 3  # cards of the colour in one play (BK-6, BK-7)
CARD_WORTH, DRAW_WORTH, BUCKET_WORTH = 3, 7.5, 12  # the heuristic's costs (4.5 + CARD_WORTH per card drawn)
DECK = [c * 16 + v for c in range(COLOURS) for v in VALUES for _ in range(COPIES)]

POSITIONS = [(r, i) for r, n in enumerate(ROWS) for i in range(n)]
_INDEX = {q: k for k, q in enumerate(POSITIONS)}
N = len(POSITIONS)
FULL = (1 << N) - 1
ROW = [r for r, _ in POSITIONS]
BELOW = [0 if r == 0 else 1 << _INDEX[(r - 1, i)] | 1 << _INDEX[(r - 1, i + 1)] for r, i in POSITIONS]
NEAR = [sum(1 << _INDEX[q] for q in ((r, i - 1), (r, i + 1), (r - 1, i), (r - 1, i + 1), (r + 1, i - 1), (r + 1, i))
            if q in _INDEX) for r, i in POSITIONS]

# Caches of pure functions of a pyramid or a colour's values (a game meets the same few again and again).
_BITS: dict = {}
_LOSE: dict = {}
_LOSS: dict = {}
_COMBOS: dict = {}


def _bits(mask: int) -> tuple:
    out = _BITS.get(mask)
    if out is None:
        out = _BITS[mask] = tuple(k for k in range(N) if mask >> k & 1)
    return out


# BK-12's parts again (meeple.rules.bucket_king.pyramid.split_parts has the same bitmask walk), on purpose:
# a lean reference is written from the rules, never from meeple's code, so it can disagree with it.
def _parts(standing: int) -> list:
    """BK-12: the parts of what stands (touching: side by side in a row, or one on the other)."""
    parts = []
    rest = standing
    while rest:
        part = edge = rest & -rest
        while edge:
            grow = 0
            for j in _bits(edge):
                grow |= NEAR[j]
            edge = grow & standing & ~part
            part |= edge
        parts.append(part)
        rest &= ~part
    return parts


def _lose(standing: int, k: int) -> tuple:
    """Bucket k taken away: (what still stands, its parts if it split else None,
    the buckets lost when the largest part is kept: the heuristic's damage)."""
    key = standing << 4 | k
    out = _LOSE.get(key)
    if out is None:
        fall = 1 << k  # BK-10: every bucket resting on a falling one falls, transitively
        for j in range(k + 1, N):
            if standing >> j & 1 and BELOW[j] & fall:
                fall |= 1 << j
        rest = standing & ~fall
        parts = _parts(rest)
        damage = fall.bit_count()
        if len(parts) > 1:
            sizes = [x.bit_count() for x in parts]
            damage += sum(sizes) - max(sizes)
        else:
            parts = None
        out = _LOSE[key] = (rest, parts, damage)
    return out


def _best_losses(standing: int, options: int) -> tuple:
    """The heuristic's loss: (damage, the buckets of fewest damage, the highest row among those)."""
    key = standing << N | options
    out = _LOSS.get(key)
    if out is None:
        best, tied = None, []
        for k in _bits(options):
            x = (_lose(standing, k)[2], -ROW[k])
            if best is None or x < best:
                best, tied = x, [k]
            elif x == best:
                tied.append(k)
        out = _LOSS[key] = (best[0], tied)
    return out


def _combos(values: tuple) -> tuple:
    """The distinct plays of 1 to MOST of `values` (two 3s are one play, BK-6):
    (totals ascending, the plays in that order, the plays by the heuristic's cost)."""
    out = _COMBOS.get(values)
    if out is None:
        plays = set()
        for k in range(1, min(MOST, len(values)) + 1):
            plays.update(combinations(values, k))
        by_total = sorted(plays, key=lambda c: (sum(c), c))
        # cost Σ(value + CARD_WORTH) - DRAW_WORTH; cheapest first, then the lower total
        by_cost = sorted(((sum(c) + CARD_WORTH * len(c), sum(c), c) for c in plays))
        out = _COMBOS[values] = ([sum(c) for c in by_total], by_total, by_cost)
    return out


SETUP_GROUP = [0] * N  # the heuristic's set-up: position -> rank of the colour it wants (strongest 0)
for _rank, _k in enumerate(sorted(range(N), key=lambda k: (-_lose(FULL, k)[2], k))):  # costliest loss first
    SETUP_GROUP[_k] = _rank // EACH


def _shuffle(x: list, rnd) -> None:
    """Fisher-Yates with rnd = Random.random (uniform to within 2**-53; random.shuffle's randbelow is slower)."""
    for i in range(len(x) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        x[i], x[j] = x[j], x[i]


def play(rng: random.Random, players: int = 4, bot: str = "random", log: list | None = None):
    if not 2 <= players <= 4:
        raise ValueError(f"players={players} is not allowed: the lean Bucket King plays 2 to 4 (base rules)")
    heuristic = bot == "heuristic"
    rnd = rng.random  # int(rnd() * n): uniform over n to within 2**-53, faster than randrange
    n = players
    deck = DECK[:]
    _shuffle(deck, rnd)  # BK-2
    hands, sizes = [], [HAND] * n
    for p in range(n):
        hand = [[], [], [], [], []]
        for card in deck[p * HAND:(p + 1) * HAND]:
            hand[card >> 4].append(card & 15)
        for same in hand:
            same.sort()
        hands.append(hand)
    draw = deck[n * HAND:]
    discard = []
    # BK-4: each player builds a pyramid bucket by bucket, bottom row first, one action a bucket
    colour_masks = []
    for p in range(n):
        masks = [0] * COLOURS
        supply = [EACH] * COLOURS
        if heuristic:  # strong colours where a loss costs most; equally strong colours share their places
            strength = [sum(same) + CARD_WORTH * len(same) for same in hands[p]]
            levels = sorted(strength, reverse=True)
            for k in range(N):
                level = levels[SETUP_GROUP[k]]
                if strength.count(level) == 1:
                    c = strength.index(level)
                else:  # any of the equally strong colours still in the supply
                    cands = [c for c in range(COLOURS) if supply[c] and strength[c] == level]
                    c = cands[int(rnd() * len(cands))] if len(cands) > 1 else cands[0]
                supply[c] -= 1
                masks[c] |= 1 << k
        else:  # a colour still in the supply, uniformly
            free = list(range(COLOURS))
            for k in range(N):
                c = free[int(rnd() * len(free))]
                supply[c] -= 1
                if not supply[c]:
                    free.remove(c)
                masks[c] |= 1 << k
        colour_masks.append(masks)
    actions = N * n
    standing = [FULL] * n
    buckets = [N] * n
    p = 0  # BK-5: Player 1 starts the first round
    while True:
        if n > 2:  # BK-5: the start player chooses the direction
            actions += 1
            if heuristic:  # towards the neighbour with more buckets
                left, right = buckets[(p + 1) % n], buckets[p - 1]
                d = 1 if left > right else -1 if left < right else (1 if rnd() < 0.5 else -1)
            else:
                d = 1 if rnd() < 0.5 else -1
        else:
            d = 1
        actions += 1
        hand = hands[p]
        table = []  # the cards in front of the players this round
        if not sizes[p]:  # BK-20: no card to lead with: lose any bucket
            if heuristic:
                _, losses = _best_losses(standing[p], standing[p])
                k = losses[int(rnd() * len(losses))] if len(losses) > 1 else losses[0]
            else:
                lose = _bits(standing[p])
                k = lose[int(rnd() * len(lose))]
        else:  # BK-6: lead 1 to 3 cards of one colour
            if heuristic:  # the highest card of its strongest colour
                strength = [sum(same) + CARD_WORTH * len(same) if same else -1 for same in hand]
                top = max(strength)
                cands = [c for c in range(COLOURS) if strength[c] == top]
                col = cands[int(rnd() * len(cands))] if len(cands) > 1 else cands[0]
                combo = (hand[col][-1],)
                if log is not None:
                    log.append(("lead", p, [x[:] for x in hand], cands))
            else:
                lists = [(c, _combos(tuple(same))[1]) for c, same in enumerate(hand) if same]
                i = int(rnd() * sum(len(x) for _, x in lists))
                for col, x in lists:  # noqa: B007 - col is the colour chosen: read after the break
                    if i < len(x):
                        combo = x[i]
                        break
                    i -= len(x)
            same = hand[col]
            for v in combo:
                same.remove(v)
            sizes[p] -= len(combo)
            table += [col * 16 + v for v in combo]
            fronts = [0] * n
            to_beat = fronts[p] = sum(combo)
            while True:
                if not draw and discard:  # BK-8, BK-2: the discard pile reshuffled; BK-21: none left, no draw
                    draw, discard = discard, []
                    _shuffle(draw, rnd)
                if draw:
                    card = draw.pop()
                    insort(hand[card >> 4], card & 15)
                    sizes[p] += 1
                p = (p + d) % n  # BK-7: the next player beats the sum or loses buckets
                actions += 1
                hand = hands[p]
                same = hand[col]
                need = to_beat - fronts[p]
                options = colour_masks[p][col] & standing[p] or standing[p]  # BK-9
                if heuristic:
                    damage, losses = _best_losses(standing[p], options)
                    combo = None
                    if same:
                        cheap = None
                        for x in _combos(tuple(same))[2]:
                            if cheap is not None:
                                if x[0] != cheap[0][0] or x[1] != cheap[0][1]:
                                    break
                                cheap.append(x)
                            elif x[1] > need:
                                cheap = [x]
                        # play unless a loss costs less than the cards (always if it would empty the pyramid)
                        if cheap is not None and (damage >= buckets[p]
                                                  or cheap[0][0] - DRAW_WORTH < BUCKET_WORTH * damage):
                            combo = cheap[int(rnd() * len(cheap))][2] if len(cheap) > 1 else cheap[0][2]
                    if log is not None:
                        log.append(("follow", p, col, [x[:] for x in hand], need, standing[p], colour_masks[p][:],
                                    buckets[p], [x[2] for x in cheap] if same and cheap else None, losses, combo is not None))
                    if combo is None:
                        k = losses[int(rnd() * len(losses))] if len(losses) > 1 else losses[0]
                        break
                else:
                    lose = _bits(options)
                    if same:
                        totals, by_total, _ = _combos(tuple(same))
                        first = bisect_right(totals, need)
                        i = int(rnd() * (len(totals) - first + len(lose))) + first
                        if i < len(totals):
                            combo = by_total[i]
                        else:
                            k = lose[i - len(totals)]
                            break
                    else:
                        k = lose[int(rnd() * len(lose))]
                        break
                for v in combo:
                    same.remove(v)
                sizes[p] -= len(combo)
                table += [col * 16 + v for v in combo]
                to_beat = fronts[p] = fronts[p] + sum(combo)
        rest, parts, _ = _lose(standing[p], k)  # BK-9, BK-10
        if parts is not None:  # BK-12: the loser keeps one part
            actions += 1
            if heuristic:  # the larger part
                most = max(x.bit_count() for x in parts)
                parts = [x for x in parts if x.bit_count() == most]
            rest = parts[int(rnd() * len(parts))] if len(parts) > 1 else parts[0]
        standing[p] = rest
        buckets[p] = rest.bit_count()
        discard += table  # BK-13
        if not rest:  # BK-15
            return buckets, actions
        # BK-13: the loser starts the next round
