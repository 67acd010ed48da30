"""Bots every game can use (the seat-balanced strength measurement, `head_to_head`,
plays games, so it lives with the simulation: meeple.rules.sim.balance).

A bot is a plain callable `(observation, legal_actions, rng) -> action`.
Game modules build their `BOTS` from `random_bot`, their own rule-of-thumb
bot, and `lookahead(module)`, which plays out sampled worlds (determinised
Monte Carlo): it sees only its observation, samples the hidden cards and
the future chance with `module.determinize`, and picks the action with the
best average outcome.
"""

from __future__ import annotations

import random
from collections import Counter
from types import ModuleType

from .protocol import LazySeatRandom, SeatRandom


def deal_unseen(deck, seen, hand_counts, me: int, my_hand, rng: random.Random, key=None):
    """Deal the cards a player has not seen at random: (hands, rest).

    `seen` is every group of cards the player saw (own hand, face-up piles);
    the others' hands get their known sizes, sorted by `key`; `rest` is what
    is left (a draw pile, cards set aside). The determinize step of a lookahead.
    """
    unseen = Counter(deck)
    for group in seen:
        unseen.subtract(group)
    pool = list(unseen.elements())
    rng.shuffle(pool)
    hands, at = [], 0
    for seat, n in enumerate(hand_counts):
        if seat == me:
            hands.append(tuple(my_hand))
        else:
            hands.append(tuple(sorted(pool[at : at + n], key=key)))
            at += n
    return tuple(hands), pool[at:]


def random_bot(observation, legal, rng: random.Random):
    """Any legal action, uniformly."""
    n = len(legal)
    if type(rng) not in _MERSENNE or n <= 0:
        return legal[rng.randrange(n)]
    # rng.randrange(n) for a Mersenne Twister (random.Random._randbelow_with_getrandbits)
    # written out: the same draws, without two Python calls on every random move
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return legal[r]


random_bot.reads_observation = False  # simulate passes None instead of building one


def below(rng: random.Random, n: int) -> int:
    """rng.randrange(n) (n >= 1), the same draws: written out, as random_bot does, for a Mersenne
    Twister (simulate's seat streams), without randrange's two Python calls; a bot's tie-break."""
    if type(rng) not in _MERSENNE:
        return rng.randrange(n)
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r
# the Random classes whose randrange(n) is _randbelow_with_getrandbits(n) (simulate's seat streams too)
_MERSENNE = (random.Random, SeatRandom, LazySeatRandom)


def _advantage(mod, state, me: int) -> float:
    s = mod.scores(state)
    best_other = max(v for i, v in enumerate(s) if i != me)
    return s[me] - best_other


HORIZONS = ("round", "game")


def rollout(mod, state, me: int, rng: random.Random, policy=random_bot, to: str = "round",
            start_round: int | None = None) -> float:
    """Play on with `policy` for everyone; my score minus the best other score.

    `to="round"` stops when round `start_round` is over (default: the round
    `state` is in; a lookahead passes the round *before* its trial move, so a
    move that ends the round is scored at that round's end like every other
    move); `to="game"` plays to the end and scores a win as +1, a shared win
    as a fraction, a loss as 0.
    """
    if to not in HORIZONS:
        raise ValueError(f"to={to!r} is not allowed: one of {', '.join(HORIZONS)}")
    start = state.round if start_round is None else start_round
    while not state.is_over and (to == "game" or state.round == start):
        legal = mod.legal_actions(state)
        p = state.current_player
        state = mod.apply(state, policy(mod.observation(state, p), legal, rng))
    if to == "game":
        w = mod.winners(state)
        return (1.0 / len(w)) if me in w else 0.0
    return _advantage(mod, state, me)


def lookahead(mod: ModuleType, samples: int = 8, policy=random_bot, to: str = "round", name: str = "lookahead"):
    """Determinised Monte Carlo: for each of `samples` sampled worlds, try every
    legal action and play on; the same world and the same rollout randomness
    are used for every action (common random numbers), so the comparison
    between actions is far less noisy than the outcomes themselves."""
    if to not in HORIZONS:
        raise ValueError(f"to={to!r} is not allowed: one of {', '.join(HORIZONS)}")

    def bot(observation, legal, rng: random.Random):
        if len(legal) == 1:
            return legal[0]
        totals = [0.0] * len(legal)
        for _ in range(samples):
            world = mod.determinize(observation, rng)
            roll_seed = rng.getrandbits(63)
            for i, a in enumerate(legal):
                totals[i] += rollout(
                    mod, mod.apply(world, a), observation.player, random.Random(roll_seed), policy, to,
                    start_round=world.round,
                )
        best = max(totals)
        return legal[totals.index(best)]

    bot.__name__ = name
    return bot
