"""Lean Duck, Duck, Bruce for the benchmark only: base rules (DDB-1 to DDB-12),
plain lists and random.Random, no events, no states kept. Not the package's
rules (those live in meeple.rules.duck_duck_bruce); written from the numbered
rules in seeds/duck_duck_bruce.md to measure how fast a hand-written loop is.

A card is an int: suit * 8 + number for a duck, -1 for Bruce.
play(rng, players, bot) -> (scores, actions): actions counts the decisions
(flip/stop choices and steal choices), as simulate's `actions` column does.
With `log` (a list), every decision appends what the mover saw and chose:
("stop", seat, row, pile, nests, stop) or ("steal", seat, [], pile, nests, (target, count) or None)
(tests/rules/test_lean_references.py checks them against meeple's heuristic bot).
"""

from __future__ import annotations

import random

SUITS, NUMBERS, BRUCES = 10, (1, 1, 2, 2, 3, 4), 6
DIE = (-1, 1, 1, 2, 3, 3)
LOW, HIGH = 1, 3  # steal 1..3 cards, or decline
ROUNDS = 3
LEVEL = 0.35  # the heuristic's bust-chance threshold
DECK = [s * 8 + n for s in range(SUITS) for n in NUMBERS] + [-1] * BRUCES
WIN = {d: sum(f >= d for f in DIE) / len(DIE) for d in range(LOW, HIGH + 1)}
BACKFIRE = sum(f == -1 for f in DIE) / len(DIE)


def nest_score(nest) -> int:
    best = {}
    for c in nest:
        s, n = c >> 3, c & 7
        if n > best.get(s, 0):
            best[s] = n
    return sum(best.values())


# The heuristic's removal loss again, on its own card encoding, on purpose: a lean reference is
# written from the rules, never from meeple's code, so it can disagree with it (tests/rules/test_lean_references.py).
def _removal_loss(nest) -> float:
    top = {}
    for c in nest:
        s, n = c >> 3, c & 7
        t = top.get(s)
        if t is None:
            top[s] = [n, 1, 0]
        elif n > t[0]:
            t[0], t[1], t[2] = n, 1, t[0]
        elif n == t[0]:
            t[1] += 1
        elif n > t[2]:
            t[2] = n
    return sum(h - b for h, k, b in top.values() if k == 1)


def _steal_choice(nests, me, players):
    """The package's rule-of-thumb steal (value of a random card of each nest), re-typed."""
    mine = nests[me]
    my_best = {}
    for c in mine:
        if (c & 7) > my_best.get(c >> 3, 0):
            my_best[c >> 3] = c & 7
    my_loss = _removal_loss(mine) / len(mine) if mine else 0.0
    my_loss *= 2  # steal-back: the card also helps that opponent
    best, best_value = None, 0.0
    for k in range(1, players):
        t = (me + k) % players
        theirs = nests[t]
        size = len(theirs)
        per_card = (sum(max(0, (c & 7) - my_best.get(c >> 3, 0)) for c in theirs) + _removal_loss(theirs)) / size if size else 0.0
        for d in range(LOW, HIGH + 1):
            value = (WIN[d] * min(d, size) * per_card if size else 0.0) - BACKFIRE * my_loss
            if value > best_value:
                best, best_value = (t, d), value
    return best


def play(rng: random.Random, players: int = 4, bot: str = "random", log: list | None = None):
    heuristic = bot == "heuristic"
    randrange = rng.randrange
    steals = (players - 1) * (HIGH - LOW + 1)
    totals = [0] * players
    start = 0
    actions = 0
    for _round in range(ROUNDS):
        pile = DECK[:]
        rng.shuffle(pile)
        left = [len(NUMBERS)] * SUITS  # ducks of each suit still in the pile (the heuristic counts them)
        bruces = BRUCES
        nests = [[] for _ in range(players)]
        p = start
        while pile:
            row, suits = [], []
            bruce = False
            while True:  # DDB-3: the first flip is forced
                c = pile.pop()
                if c < 0:  # DDB-6
                    bruces -= 1
                    bruce = True
                    break
                s = c >> 3
                left[s] -= 1
                if s in suits:  # DDB-5: keep what lies before the first of the two
                    nests[p] += row[: suits.index(s)]
                    break
                row.append(c)
                suits.append(s)
                if not pile:  # DDB-9
                    nests[p] += row
                    break
                actions += 1
                if heuristic:
                    stop = (bruces + sum(left[x] for x in suits)) / len(pile) > LEVEL
                else:
                    stop = randrange(2) == 1
                if log is not None:
                    log.append(("stop", p, row[:], pile[:], [n[:] for n in nests], stop))
                if stop:  # DDB-4
                    nests[p] += row
                    break
            if bruce:
                actions += 1
                if heuristic:
                    pick = _steal_choice(nests, p, players)
                else:
                    i = randrange(1 + steals)
                    pick = None if i == 0 else ((p + 1 + (i - 1) // (HIGH - LOW + 1)) % players, LOW + (i - 1) % (HIGH - LOW + 1))
                if log is not None:
                    log.append(("steal", p, [], pile[:], [n[:] for n in nests], pick))
                if pick is not None:
                    t, d = pick
                    face = DIE[randrange(len(DIE))]
                    if face == -1:  # DDB-8, steal-back
                        mine = nests[p]
                        if mine:
                            nests[t].append(mine.pop(randrange(len(mine))))
                    elif face >= d:  # DDB-7
                        theirs = nests[t]
                        for _ in range(min(d, len(theirs))):
                            nests[p].append(theirs.pop(randrange(len(theirs))))
            p = p + 1 if p + 1 < players else 0
        points = [nest_score(n) for n in nests]  # DDB-10
        for i, x in enumerate(points):
            totals[i] += x
        low = min(points)  # DDB-11
        start = next(q % players for q in range(start, start + players) if points[q % players] == low)
    return totals, actions
