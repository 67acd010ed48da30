"""Lean Bucket Brigade for the benchmark only: base rules (BB-1 to BB-14),
plain lists and random.Random, no events. Written from the numbered rules
in seeds/bucket_brigade.md; the package's rules live in
meeple.rules.bucket_brigade.

A card is an int: colour * 2 + steps - 1, colour 4 for the jokers.
play(rng, players, bot) -> (scores, actions); actions counts the cards played.
Bots: `random` (uniform over the distinct plays) and `heuristic` (meeple's
heuristic_bot's rule, ties broken uniformly).
"""

from __future__ import annotations

import random

COLOURS = 4
TRACK = (0, -1, -1, -1, -1, -1, -1, 0, 0, 1, 1, 2, 2, 3)
END = len(TRACK) - 1
BONUS = 3
ALL = range(COLOURS)
DANGER = END - 2  # the heuristic: a hedgehog here can be finished by the next player
HAND = {3: 15, 4: 13, 5: 11}
DECK = sorted([c * 2 for c in range(COLOURS) for _ in range(6)] + [c * 2 + 1 for c in range(COLOURS) for _ in range(5)]
              + [8] * 6 + [9] * 5)


def _score(hand, pos, ended: bool) -> int:
    total = sum(TRACK[pos[c >> 1]] for c in hand if c < 8) + (BONUS if ended else 0)  # BB-9
    return total if total > 0 else 0  # BB-11


def _heuristic(have, count, pos, rnd):
    """meeple's heuristic_bot: each play valued by the round score of the hand left if the round
    ended now (BB-9, BB-11), less 3/4 of the bonus when the next player could end the round, less
    1/2 for spending a joker; in quarter points (ints); ties uniform (int(rnd() * n): uniform to
    within 2**-53). `have`: the hand's cards of each kind; `count`: its coloured cards per colour."""
    now = [count[k] * TRACK[pos[k]] for k in ALL]
    points = now[0] + now[1] + now[2] + now[3]
    near_end = pos[0] >= DANGER or pos[1] >= DANGER or pos[2] >= DANGER or pos[3] >= DANGER
    best, best_value = [], None
    for k in ALL:  # each hedgehog, moved 1 or 2 by a card of its colour or by a joker (BB-6, BB-7)
        base = points - now[k]
        for step in (1, 2):
            card = 2 * k + step - 1
            coloured, joker = have[card], have[7 + step]
            if not (coloured or joker):
                continue
            to = pos[k] + step
            if to >= END:  # BB-8: ends the round and takes the bonus
                worth, bonus, risk = TRACK[END], BONUS, 0
            else:
                worth, bonus, risk = TRACK[to], 0, 3 * BONUS if near_end or to >= DANGER else 0
            if coloured:  # the card leaves the hand
                value = base + (count[k] - 1) * worth + bonus
                value = 4 * value - risk if value > 0 else -risk
                if best_value is None or value > best_value:
                    best, best_value = [(card, k)], value
                elif value == best_value:
                    best.append((card, k))
            if joker:  # a joker scores nothing in hand; keeping one is worth 1/2
                value = base + count[k] * worth + bonus
                value = 4 * value - risk - 2 if value > 0 else -risk - 2
                if best_value is None or value > best_value:
                    best, best_value = [(7 + step, k)], value
                elif value == best_value:
                    best.append((7 + step, k))
    if rnd is None:  # every equally good play (tests/rules/test_bucket_brigade.py checks meeple's bot against them)
        return best
    return best[0] if len(best) == 1 else best[int(rnd() * len(best))]


def play(rng: random.Random, players: int = 4, bot: str = "random"):
    heuristic = bot == "heuristic"
    randrange = rng.randrange
    rnd = rng.random
    h = HAND[players]
    totals = [0] * players
    actions = 0
    for r in range(players):  # BB-12
        deck = DECK[:]
        rng.shuffle(deck)
        removed = len(deck) - players * h
        hands = [sorted(deck[removed + i * h: removed + (i + 1) * h]) for i in range(players)]
        pos = [0] * COLOURS
        if heuristic:  # cards of each kind, and coloured cards per colour, in each hand
            haves = [[0] * 10 for _ in range(players)]
            counts = [[0] * COLOURS for _ in range(players)]
            for i in range(players):
                for c in hands[i]:
                    haves[i][c] += 1
                    if c < 8:
                        counts[i][c >> 1] += 1
        p = r % players
        left = players * h
        while True:
            hand = hands[p]
            if heuristic:
                c, k = _heuristic(haves[p], counts[p], pos, rnd)
                haves[p][c] -= 1
                if c < 8:
                    counts[p][k] -= 1
            else:
                plays = []  # one per distinct card; a joker once per colour (BB-6, BB-7)
                last = -1
                for c in hand:
                    if c != last:
                        last = c
                        if c < 8:
                            plays.append((c, c >> 1))
                        else:
                            plays += [(c, k) for k in range(COLOURS)]
                c, k = plays[randrange(len(plays))]
            hand.remove(c)
            left -= 1
            actions += 1
            to = pos[k] + (c & 1) + 1
            pos[k] = to if to < END else END
            if to >= END:  # BB-8
                ender = p
                break
            if not left:  # BB-14
                ender = None
                break
            p = p + 1 if p + 1 < players else 0
        for i in range(players):
            totals[i] += _score(hands[i], pos, i == ender)
    return totals, actions
