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


def _heuristic(hand, count, pos, randrange):
    """meeple's heuristic_bot: each play valued by the round score of the hand left if the round
    ended now (BB-9, BB-11), less 3/4 of the bonus when the next player could end the round, less
    1/2 for spending a joker; in quarter points (ints); ties uniform. `count`: the hand's coloured
    cards per colour."""
    now = [count[k] * TRACK[pos[k]] for k in range(COLOURS)]
    points = sum(now)
    near_end = max(pos) >= DANGER
    best, best_value = [], None
    last = -1
    for c in hand:
        if c == last:
            continue
        last = c
        if c < 8:
            ks, spent, joker = (c >> 1,), 1, 0
        else:  # a joker moves any hedgehog, scores nothing, and is worth keeping
            ks, spent, joker = ALL, 0, 2
        step = (c & 1) + 1
        for k in ks:
            to = pos[k] + step
            if to >= END:
                value = points - now[k] + (count[k] - spent) * TRACK[END] + BONUS
                value = 4 * value - joker if value > 0 else -joker
            else:
                value = points - now[k] + (count[k] - spent) * TRACK[to]
                value = 4 * value - joker if value > 0 else -joker
                if near_end or to >= DANGER:
                    value -= 3 * BONUS  # 3/4 of the bonus, in quarters
            if best_value is None or value > best_value:
                best, best_value = [(c, k)], value
            elif value == best_value:
                best.append((c, k))
    return best[0] if len(best) == 1 else best[randrange(len(best))]


def play(rng: random.Random, players: int = 4, bot: str = "random"):
    heuristic = bot == "heuristic"
    randrange = rng.randrange
    h = HAND[players]
    totals = [0] * players
    actions = 0
    for r in range(players):  # BB-12
        deck = DECK[:]
        rng.shuffle(deck)
        removed = len(deck) - players * h
        hands = [sorted(deck[removed + i * h: removed + (i + 1) * h]) for i in range(players)]
        pos = [0] * COLOURS
        if heuristic:  # coloured cards per colour in each hand
            counts = [[0] * COLOURS for _ in range(players)]
            for i in range(players):
                for c in hands[i]:
                    if c < 8:
                        counts[i][c >> 1] += 1
        p = r % players
        left = players * h
        while True:
            hand = hands[p]
            if heuristic:
                count = counts[p]
                c, k = _heuristic(hand, count, pos, randrange)
                if c < 8:
                    count[k] -= 1
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
