"""Duck, Duck, Bruce's bots (threshold, heuristic, exact-greedy, lookahead, monte-carlo), `BOTS`, and
`play_core`, simulate's fast loop.
"""

from __future__ import annotations

import random
import sys
from functools import lru_cache
from typing import Mapping

from .. import bots as _bots
from ..chance import Chance2
from .cards import FLIP, NO_STEAL, PENALTY_FACE, STEAL, STOP, Config, Steal, steals_of, unseen_counts
from .core import begin, caught_up, new_core, note_leader
from .game import Observation
from .odds import best_stop, expected_values


def play_core(config: Config, chance, seat_funcs, rngs, checked, seat_names, leader):
    """simulate's fast loop (play_game's `play_core` hook): the whole game on one Core.

    Returns (the final Core, `leader(totals)` at each turn's end, decisions), exactly what
    play_game's own loop of new_game + legal_actions + bot + step gives: the same deals and
    rolls, the same draws from each seat's stream `rngs[p]`, the same turns. The package's
    bots choose on the Core (_run): `random` draws its index as random_bot does, the heuristic and
    threshold bots read the game through their narrow view (`decide`: the row, the unseen
    counts, the pile's size, the nests; never the pile's order). Any other bot (a user's,
    the exact and lookahead bots): None, before any draw, and play_game plays it."""
    decide = []
    for f in seat_funcs:
        if f is _bots.random_bot:
            decide.append(None)
        else:
            d = getattr(f, "decide", None)
            if d is None:
                return None
            decide.append(d)
    # A random seat's stream, bound once: getrandbits(0) draws nothing and seeds a LazySeatRandom (its
    # first call of any method does), so the bound method is then the seeded stream's own
    draws = [None] * len(rngs)
    for p, d in enumerate(decide):
        if d is None:
            rngs[p].getrandbits(0)
            draws[p] = rngs[p].getrandbits
    c = new_core(config, chance)
    c.leaders = []
    c.leader = leader
    c.lead = leader(c.totals)
    c.turn_end = note_leader
    n = config.players
    steals = [steals_of(n, config.min_steal, config.max_steal, config.may_decline, p) for p in range(n)]
    if type(c.chance) is Chance2:  # the dice drawn in place (_die)
        c.dice, c.at = c.chance.streams, c.chance.dice
    actions = begin(c, (decide, draws, rngs, checked, seat_names, steals))
    caught_up(c)
    return c, c.leaders, actions


@lru_cache(maxsize=64)  # keyed by the die and the claims: hashing a whole Config costs microseconds
def _die_odds(die: tuple[int, ...], min_steal: int, max_steal: int) -> tuple[dict[int, float], float]:
    """({claim: chance the roll is at least it}, chance of the backfire face)."""
    n = len(die)
    wins = {d: sum(1 for f in die if f >= d) / n for d in range(min_steal, max_steal + 1)}
    return wins, sum(1 for f in die if f == PENALTY_FACE) / n


def _tops(nest) -> dict[str, list[int]]:
    """suit -> [highest, how many, next highest] of a nest's ducks (what _loss_of reads; its
    highest is best_by_suit's)."""
    top: dict[str, list[int]] = {}
    get = top.get
    for suit, n in nest:
        t = get(suit)
        if t is None:
            top[suit] = [n, 1, 0]
        elif n > t[0]:
            t[0], t[1], t[2] = n, 1, t[0]
        elif n == t[0]:
            t[1] += 1
        elif n > t[2]:
            t[2] = n
    return top


def _loss_of(top: dict[str, list[int]]) -> int:
    """What a nest's owner loses, summed over its cards, if that one card were taken (from the
    nest's _tops): only a suit's unique highest duck costs anything (the gap to the next)."""
    loss = 0
    for high, k, below in top.values():
        if k == 1:
            loss += high - below
    return loss


def steal_choice(obs: Observation, legal: list, rng: random.Random | None = None) -> Steal:
    """A rule-of-thumb steal: value a random card of each nest by what it adds
    to mine plus what it costs its owner, weigh by the die, decline if nothing pays.
    Equally good steals (two nests alike): `rng` picks (None: the first listed)."""
    return _steal_pick(obs.config, obs.nests, obs.player, legal, rng)


def _steal_pick(cfg: Config, nests, me: int, legal, rng) -> Steal:
    """steal_choice from the narrow view it reads: the nests (face down, but every card
    in one was seen, DDB-13) and whose they are."""
    mine = nests[me]
    my_top = _tops(mine)  # my best duck of each suit (best_by_suit) and what losing a card costs, in one pass
    win, backfire = _die_odds(cfg.die, cfg.min_steal, cfg.max_steal)
    my_loss = _loss_of(my_top) / len(mine) if mine else 0.0
    if cfg.minus_one == "steal-back":
        my_loss *= 2  # the card also helps that opponent
    risk = backfire * my_loss  # what every steal risks
    per_card = {}  # target -> (cards in their nest, value of one random card of it)
    best, best_value = None, 0.0 if cfg.may_decline else None
    for a in legal:
        t, d = a
        if t is None:
            continue
        known = per_card.get(t)
        if known is None:  # the first claim on this nest: value its cards once
            theirs = nests[t]
            size = len(theirs)
            known = per_card[t] = (size, _card_value(theirs, my_top) if size else 0.0)
        size, value = known
        value = (win[d] * min(d, size) * value if size else 0.0) - risk
        if best_value is None or value > best_value:
            best, best_value = [a], value
        elif value == best_value and best is not None:
            best.append(a)
    if best is None:
        return NO_STEAL
    return best[0] if len(best) == 1 or rng is None else best[_bots.below(rng, len(best))]


def _card_value(theirs, my_top: dict[str, list[int]]) -> float:
    """One random card of a nest: what it adds to mine (my best duck of its suit, the
    highest in `my_top`) plus what it costs its owner (steal_choice)."""
    gain = 0
    mine = my_top.get
    for suit, n in theirs:
        m = mine(suit)
        if m is not None:
            n -= m[0]
        if n > 0:
            gain += n
    return (gain + _loss_of(_tops(theirs))) / len(theirs)


def threshold_bot(k: int):
    """Stop once the row holds k ducks (the threshold-k family)."""

    def decide(phase, me, row, unseen, pile_size, nests, cfg, legal, rng):
        """The choice from the narrow view the bot reads (simulate's fast loop passes the Core's own)."""
        if phase == STEAL:
            return _steal_pick(cfg, nests, me, legal, rng)
        return STOP if len(row) >= k else FLIP

    def bot(obs: Observation, legal: list, rng: random.Random):
        return decide(obs.phase, obs.player, obs.row, obs.unseen_suits, obs.pile_size, obs.nests, obs.config, legal, rng)

    bot.__name__ = f"threshold-{k}"
    bot.decide = decide
    return bot


def _bust_chance(obs: Observation) -> float:
    """bust_probability for the observed row, in floats, from the unseen cards by suit:
    a Bruce, or a duck of a suit in the row (one each, DDB-5)."""
    return _bust(obs.unseen_suits, obs.row, obs.pile_size)


def _bust(unseen: Mapping[str, int], row, pile_size: int) -> float:
    """_bust_chance from the narrow view it reads: the unseen cards by suit, the row, the pile's size."""
    busts = unseen["Bruce"]
    for c in row:
        busts += unseen[c.suit]
    return busts / pile_size


def heuristic_bot(level: float = 0.35):
    """Stop when the chance that the next flip ends the turn passes `level`."""

    def decide(phase, me, row, unseen, pile_size, nests, cfg, legal, rng):
        """The choice from the narrow view the bot reads (simulate's fast loop passes the Core's own)."""
        if phase == STEAL:
            return _steal_pick(cfg, nests, me, legal, rng)
        return STOP if _bust(unseen, row, pile_size) > level else FLIP

    def bot(obs: Observation, legal: list, rng: random.Random):
        return decide(obs.phase, obs.player, obs.row, obs.unseen_suits, obs.pile_size, obs.nests, obs.config, legal, rng)

    bot.__name__ = f"heuristic-{level}"
    bot.decide = decide
    return bot


def exact_greedy_bot(obs: Observation, legal: list, rng: random.Random):
    """Flip only when one more flip raises the expected nest score (best_stop)."""
    if obs.phase == STEAL:
        return steal_choice(obs, legal, rng)
    unseen = unseen_counts(obs).elements()
    return STOP if best_stop(obs.row, unseen, obs.config, obs.nests[obs.player]) else FLIP


def lookahead_bot(depth: int = 2, tempo: float = 0.35):
    """Exact expectimax over the unseen cards, `depth` flips ahead, valuing
    each card it flips at `tempo` on top of the nest score it expects: a card
    flipped in my turn is one no opponent will flip (see the seeds md)."""

    def bot(obs: Observation, legal: list, rng: random.Random):
        if obs.phase == STEAL:
            return steal_choice(obs, legal, rng)
        unseen = unseen_counts(obs).elements()
        stop, flip = expected_values(obs.row, unseen, obs.nests[obs.player], depth, float, tempo)
        return FLIP if flip > stop + 1e-9 else STOP

    bot.__name__ = f"lookahead-{depth}"
    return bot


BOTS = {
    "random": _bots.random_bot,
    **{f"threshold-{k}": threshold_bot(k) for k in range(1, 6)},
    "heuristic": heuristic_bot(),
    "exact-greedy": exact_greedy_bot,
    "lookahead": lookahead_bot(),
}
# Determinised Monte Carlo to the end of the round (the shared lookahead):
# kept to show why it is weak here (see seeds/duck_duck_bruce.md, Bot strength).
BOTS["monte-carlo"] = _bots.lookahead(sys.modules[__package__], samples=8, policy=BOTS["heuristic"], name="monte-carlo")
