"""The Piggyback Brigade's bots (always-reroll, heuristic, lookahead), `BOTS`, and `play_core`, simulate's
fast loop.
"""

from __future__ import annotations

import random
import sys

from .. import bots as _bots
from .cards import BEFORE, CHOOSE, EXTEND, REROLL, ROLL, ROLL_AGAIN, STOP, TURN, Action, Config
from .core import Setup, new_core, note_leader, run, setup_of
from .game import Observation, apply, determinize
from .track import after_move


def play_core(config: Config, chance, seat_funcs, rngs, checked, seat_names, leader):
    """simulate's fast loop (play_game's `play_core` hook): the whole race on one Core.

    Returns (the final Core, the sole leader at each turn's end, decisions), exactly what
    play_game's own loop of new_game + legal_actions + bot + step gives: the same rolls, the
    same draws from each seat's stream `rngs[p]`, the same turns. The package's bots choose
    on the Core: `random` draws its index as random_bot does, `heuristic` reads the race
    through _decide's narrow view, a bot that never reads its observation gets None. Any
    other bot (a user's, the lookahead): None, before any draw, and play_game plays it.
    `leader` is simulate's _leader; the leaders come from note_leader, its value here."""
    fast = []
    for f in seat_funcs:
        if f is _bots.random_bot:
            fast.append(1)
        elif f is heuristic_bot:
            fast.append(2)
        elif not getattr(f, "reads_observation", True):
            fast.append(3)
        else:
            return None
    # A random seat's stream, bound once: getrandbits(0) draws nothing and seeds a LazySeatRandom (its
    # first call of any method does), so the bound method is then the seeded stream's own
    draws = [None] * len(rngs)
    for p, kind in enumerate(fast):
        if kind == 1:
            rngs[p].getrandbits(0)
            draws[p] = rngs[p].getrandbits
    c = new_core(config, chance)
    c.turn_end = note_leader
    c.leaders = leaders = []
    actions = run(c, None, True, (fast, draws, rngs, seat_funcs, checked, seat_names, _decide))
    return c, leaders, actions  # the final Core: scores, winners, game_stats... read it as a State


def _carriers(setup: Setup, stacks, where, piglet: int, me: int, pending=()) -> int:
    """Piglets under `piglet` that move before my next turn (others', or mine still to roll)."""
    i = where[piglet]
    if i < 0 or i >= len(stacks):
        return 0
    stack = stacks[i]
    h = stack.index(piglet)
    if h == 0:  # nothing under it (the usual case)
        return 0
    owner = setup.owner
    return sum(1 for b in stack[:h] if owner[b] != me or b in pending)


def _good_ride(setup: Setup, stacks, where, piglet: int, me: int, pending) -> bool:
    """PB-10 for the heuristic: the piglets under mine will carry it at least one roll
    each before my next turn; a ride is good when that beats what a reroll is worth."""
    carriers = _carriers(setup, stacks, where, piglet, me, pending)
    return carriers * setup.face_sum / setup.n_faces > setup.turn_mean


def _value(setup: Setup, stacks, where, me: int) -> float:
    """My piglets' progress; a good ride counts one roll per carrier; my best piglet counts most."""
    n = len(stacks)
    mean_face = setup.mean_face
    values = []
    for q in setup.piglets_of[me]:
        w = where[q]
        if w >= n:
            return 1e9  # across the finish: the race is won
        values.append(w + 1 + mean_face * _carriers(setup, stacks, where, q, me))
    values.sort(reverse=True)
    return values[0] + 0.25 * sum(values[1:])


def heuristic_bot(obs: Observation, legal: list[Action], rng: random.Random) -> Action:
    """The reviews' tips as rules of thumb (each was measured; see the seeds file).

    Reroll unless the piglet now sits on a good ride (piglets under it that
    move before my next turn carry it further than a reroll is worth), but
    always reroll when one roll is likely to cross the finish. Give a roll
    to the piglet it helps most. Extend the track when it hurts the leaders
    most: with `before` timing, when every piglet of mine still stands
    before the start, so the extension costs me nothing and costs every
    piglet on the track a section; with `instead` timing never (losing a
    whole turn costs more than the section costs the leaders).
    """
    return _decide(setup_of(obs.config), obs.phase, obs.player, obs.piglet, obs.face, obs.where, obs.stacks,
                   obs.pending, legal, rng)


def _decide(setup: Setup, phase: str, me: int, piglet: int, face: int, where, stacks, pending, legal, rng) -> Action:
    """heuristic_bot's choice from the narrow view it reads: the race on the table (lists or
    tuples), never the chance. simulate's fast loop passes the Core's own lists (play_core)."""
    if phase == REROLL:
        if setup.finish_likely[setup.spaces - where[piglet]]:  # one roll likely crosses the finish
            return ROLL_AGAIN
        return STOP if _good_ride(setup, stacks, where, piglet, me, pending) else ROLL_AGAIN
    if phase == CHOOSE:
        best, best_value = [], None
        steps = setup.steps[face]
        for a in legal:
            v = _value(setup, *after_move(stacks, where, a.piglet, steps), me)
            if best_value is None or v > best_value:
                best, best_value = [a], v
            elif v == best_value:
                best.append(a)
        # equal values (e.g. two piglets before the start): the bot's rng decides, not the listing order
        return best[0] if len(best) == 1 else best[_bots.below(rng, len(best))]
    if phase == TURN:
        if setup.config.extend_timing == BEFORE and max(where) >= 0:
            if max(where[q] for q in setup.piglets_of[me]) < 0:  # all mine before the start
                return EXTEND
        return ROLL
    return legal[0]


def always_reroll_bot(obs: Observation, legal: list[Action], rng: random.Random) -> Action:
    """Rerolls whenever allowed; every other choice at random."""
    if ROLL_AGAIN in legal:
        return ROLL_AGAIN
    return legal[rng.randrange(len(legal))]


always_reroll_bot.reads_observation = False  # simulate passes None instead of building one


def lookahead_bot(samples: int = 48, z: float = 2.0, name: str = "lookahead"):
    """Determinised Monte Carlo that trusts the heuristic unless the rollouts disagree clearly.

    For each of `samples` worlds (the table as seen, future rolls reseeded)
    every legal action is played out to the end of the race by heuristic
    players, with the same world and rollout randomness for every action.
    The heuristic's own choice is kept unless another action wins more
    often by more than `z` standard errors of the paired differences: the
    true differences between choices here are a few percent, far below the
    noise of a few dozen rollouts, and picking the raw best average would
    turn close calls into coin flips.
    """
    mod = sys.modules[__package__]

    def bot(obs: Observation, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        k = legal.index(heuristic_bot(obs, legal, rng))
        diffs = [[] for _ in legal]
        for _ in range(samples):
            world = determinize(obs, rng)
            roll_seed = rng.getrandbits(63)
            values = [
                _bots.rollout(mod, apply(world, a), obs.player, random.Random(roll_seed), heuristic_bot, "game")
                for a in legal
            ]
            for i, v in enumerate(values):
                diffs[i].append(v - values[k])
        best, best_mean = k, 0.0
        for i, d in enumerate(diffs):
            mean = sum(d) / samples
            var = sum((x - mean) ** 2 for x in d) / max(1, samples - 1)
            if mean > best_mean and mean > z * (var / samples) ** 0.5:
                best, best_mean = i, mean
        return legal[best]

    bot.__name__ = name
    return bot


BOTS = {
    "random": _bots.random_bot,
    "always-reroll": always_reroll_bot,
    "heuristic": heuristic_bot,
    "lookahead": lookahead_bot(),
}
