"""Lean Piggyback Brigade for the benchmark only: base rules with 4 players
(PB-1 to PB-15: one piglet each, one extension each, extension before the
roll), plain lists and random.Random, no events. Written from the numbered
rules in seeds/piggyback_brigade.md; the package's rules live in
meeple.rules.piggyback_brigade.

play(rng, players, bot) -> (scores, actions); actions counts decisions.
With `log` (a list), every decision appends what the mover saw and chose:
("extend", seat, where, stacks, extend) or ("reroll", seat, where, stacks, roll)
(tests/rules/test_lean_references.py checks them against meeple's heuristic_bot).
"""

from __future__ import annotations

import random

SECTIONS = (2, 3, 2, 3, 2, 3, 2, 3)
FACES = (1, 2, 3, 4, 1, 3)
REROLL = (True, True, True, True, None, None)  # None: only when the piglet was last (PB-7)
MEAN_FACE = sum(FACES) / len(FACES)
TURN_MEAN = 6.964032382396792  # what a reroll is worth: meeple's exact_turn_distance(base, not last, 12).mean()


def play(rng: random.Random, players: int = 4, bot: str = "random", log: list | None = None):
    heuristic = bot == "heuristic"
    randrange = rng.randrange
    n = sum(SECTIONS)
    order = list(SECTIONS)
    stacks = [[] for _ in range(n)]
    where = [-1] * players  # piglet q belongs to seat q (PB-2, 4+ players)
    extensions = [1] * players
    actions = 0
    p = 0
    while True:
        if extensions[p]:
            k = order[0]
            if all(not 0 <= w < k for w in where):  # PB-12: may extend
                actions += 1
                if heuristic:
                    extend = max(where) >= 0 and where[p] < 0
                else:
                    extend = randrange(2) == 1
                if log is not None:
                    log.append(("extend", p, where[:], [s[:] for s in stacks], extend))
                if extend:
                    extensions[p] -= 1
                    order.append(order.pop(0))
                    stacks = stacks[k:] + stacks[:k]
                    where = [w - k if w >= 0 else w for w in where]
        while True:  # PB-4: roll and move, rerolling while allowed and chosen
            f = randrange(6)
            rule = REROLL[f]
            i = where[p]
            again = rule or (rule is None and i == min(where))  # PB-7, judged before the roll
            if i < 0:
                group = [p]
            else:
                stack = stacks[i]
                h = stack.index(p)
                group = stack[h:]
                del stack[h:]
            dest = i + FACES[f]
            if dest >= n:  # PB-13, PB-14: the group crosses the finish
                scores = [0] * players
                for q in group:
                    scores[q] = 1
                return scores, actions
            below = stacks[dest]
            below += group  # PB-9, PB-10
            for q in group:
                where[q] = dest
            if not again:
                break
            actions += 1
            if heuristic:
                if sum(1 for v in FACES if v >= n - dest) / 6 >= 0.5:
                    roll = True
                else:  # a good ride: the piglets under mine carry it further than a reroll is worth
                    carriers = below.index(p)
                    roll = not carriers * MEAN_FACE > TURN_MEAN
            else:
                roll = randrange(2) == 0
            if log is not None:
                log.append(("reroll", p, where[:], [s[:] for s in stacks], roll))
            if not roll:
                break
        p = p + 1 if p + 1 < players else 0
