"""Bucket Brigade's bots: the random bot, the heuristic (the rulebook's tips as a greedy rule), the
determinised lookahead with its rollouts on the game core (`lookahead_on_core`), and `play_core`,
simulate's engine hook for the random and heuristic bots.
"""

from __future__ import annotations

import random

from .. import bots as _bots
from ..protocol import MAX_STEPS, resolve_config
from .cards import NAME, Config, Play, counts_by_colour
from .core import Box, Core, box_for, deal, new_core, play_card
from .game import Observation, core_of, determinize, list_plays, state_of


# --- bots -------------------------------------------------------------------

def heuristic_bot(obs: Observation, legal: list[Play], rng: random.Random) -> Play:
    """The rulebook's tips as a greedy rule.

    Value each play by what the hand left would score if the round ended
    now; end the round when hand + bonus beats that; avoid leaving a
    hedgehog one card from the end (the next player would take the bonus);
    among equals, prefer spending cards of colours that score badly.
    """
    box = box_for(obs.config)
    ones, twos = counts_by_colour(obs.hand, box.colours, box.index)
    return _heuristic_choice(box, ones, twos, obs.positions, legal, rng)


def _heuristic_choice(box: Box, ones, twos, positions, legal, rng: random.Random) -> Play:
    """heuristic_bot's choice from what the seat sees: its own cards of each colour (one- and
    two-step counts) and the hedgehogs' spaces. simulate's core passes its running counts."""
    track, end, index, counted = box.track, box.end, box.index, box.counted
    # the round_score of the hand left after a play, built colour by colour:
    # a play changes only its own colour's count and hedgehog
    bonus, floor, danger, risk = box.heuristic  # _round_total, inlined below: called for every legal play
    now = [counted[o][t] * track[p] for o, t, p in zip(ones, twos, positions)]  # colour_points of each colour
    card_points = sum(now)
    near_end = max(positions) >= danger
    best, best_value = [], None
    for a in legal:
        card, colour = a
        own, steps = card  # the card's own colour: None for a joker
        k = index[colour]
        if own is None:  # a joker: the hand keeps every coloured card (a joker scores nothing anyway)
            left = counted[ones[k]][twos[k]]
        elif steps == 2:
            left = counted[ones[k]][twos[k] - 1]
        else:
            left = counted[ones[k] - 1][twos[k]]
        to = positions[k] + steps
        if to >= end:  # _round_total(points, cfg, True)
            value = card_points - now[k] + left * track[end] + bonus
            if value <= 0 and floor:
                value = 0
        else:  # _round_total(points, cfg, False)
            value = card_points - now[k] + left * track[to]
            if value <= 0 and floor:
                value = 0
            if near_end or to >= danger:
                value -= risk
        if own is None:
            value -= 0.5  # keep jokers: they end rounds on our terms
        if best_value is None or value > best_value:
            best, best_value = [a], value
        elif value == best_value:  # values are multiples of 1/4: exact ties
            best.append(a)
    # Ties are common (early in a round the floor at 0 makes every play worth 0):
    # break them with the bot's own rng, never by the hand's sort order.
    return best[0] if len(best) == 1 else best[_bots.below(rng, len(best))]


def play_core(config, chance, seat_funcs, rngs, checked, seat_names, leader):
    """simulate's engine hook (contract: simulate.play_game): the game on a core, for seats of the
    random and the heuristic bot (the heuristic reads its seat's counts and the spaces only, the random
    bot nothing); None for any other bot."""
    heuristic, random_bot = heuristic_bot, _bots.random_bot
    kinds = []
    for f in seat_funcs:
        if f is not heuristic and f is not random_bot:
            return None
        kinds.append(f is heuristic)
    config = resolve_config(Config, config)
    c = new_core(config, chance, counts=any(kinds))
    deal(c, 0)
    # simulate's progress (the totals' leader) is noted here at each turn's end rather than by a turn_end
    # hook: play_card ends exactly one turn (a card played, or the round it ended scored), and the
    # leader changes only when a round is scored (the totals are then a new list)
    leaders = []
    note = leaders.append
    shown, lead = c.totals, leader(c.totals)
    box = c.box
    # the random bot's draw written out where the stream is a Mersenne Twister (bots.random_bot's own
    # shortcut: the same draws), without a call per card
    fast = [type(r) in _bots._MERSENNE for r in rngs]
    actions = 0
    while not c.is_over:
        if actions >= MAX_STEPS:
            raise RuntimeError(f"{NAME} did not end within {MAX_STEPS} actions")
        p = c.current_player
        legal = c.plays[p]
        rng = rngs[p]
        if kinds[p]:
            action = _heuristic_choice(box, c.ones[p], c.twos[p], c.positions, legal, rng)
        elif fast[p] and legal:
            n = len(legal)
            k = n.bit_length()
            r = rng.getrandbits(k)
            while r >= n:
                r = rng.getrandbits(k)
            action = legal[r]
        else:
            action = random_bot(None, legal, rng)
        play_card(c, p, action)
        actions += 1
        if c.totals is not shown:
            shown = c.totals
            lead = leader(shown)
        note(lead)
    return state_of(c), leaders, actions


# --- the lookahead on the core ----------------------------------------------------------

def _rollout_value(base: Core, me: int, action: Play, rng: random.Random) -> int:
    """bots.rollout(apply(world, action), to="round") on a copy of the world's core: `action` for
    me, then the random bot for everyone (legal[rng.randrange(n)] of the same legal lists in
    the same order: the same draws) until the round is scored; my total minus the best other."""
    c = Core()
    c.config, c.box, c.chance = base.config, base.box, base.chance
    c.round, c.start_player, c.current_player = base.round, base.start_player, base.current_player
    c.hands = [list(h) for h in base.hands]
    c.positions, c.played, c.removed = list(base.positions), list(base.played), base.removed
    c.totals, c.history, c.enders = base.totals, base.history, base.enders
    c.is_over, c.ones, c.twos, c.plays = False, None, None, list(base.plays)
    c.say = c.turn_end = None
    c.last_round = True  # the rollout stops when this round is scored: no next deal
    play_card(c, me, action)
    bits = rng.getrandbits
    plays = c.plays
    while not c.is_over:
        p = c.current_player
        legal = plays[p]
        n = len(legal)
        k = n.bit_length()  # rng.randrange(n) written out, as random_bot does
        r = bits(k)
        while r >= n:
            r = bits(k)
        play_card(c, p, legal[r])
        plays = c.plays
    totals = c.totals
    return totals[me] - max(t for i, t in enumerate(totals) if i != me)


def lookahead_on_core(samples: int = 8, race_from: int = 3, z: float = 2.0, name: str = "lookahead"):
    """The lookahead (bots.lookahead: determinised Monte Carlo, the round as horizon, the random bot
    playing on) with its rollouts on the core, and racing: every candidate move is played out in the
    same sampled world with the same rollout stream (common random numbers), and from sample
    `race_from` on a candidate is dropped once it is clearly behind the best: the mean of its
    paired differences from the best, plus `z` standard errors, is below zero. Up to `samples`
    worlds; stops early when one candidate is left. The best mean wins (first on a tie)."""

    def bot(observation, legal, rng: random.Random):
        n = len(legal)
        if n == 1:
            return legal[0]
        me = observation.player
        alive = list(range(n))
        values = [[] for _ in range(n)]
        for k in range(1, samples + 1):
            world = determinize(observation, rng)
            roll_seed = rng.getrandbits(63)
            base = core_of(world)
            base.plays = list(list_plays(world)[2])
            for i in alive:
                values[i].append(_rollout_value(base, me, legal[i], random.Random(roll_seed)))
            if k >= race_from and len(alive) > 1:
                sums = {i: sum(values[i]) for i in alive}
                lead = max(alive, key=sums.__getitem__)
                lv = values[lead]
                keep = []
                for i in alive:
                    if i != lead:
                        d = [a - b for a, b in zip(values[i], lv)]
                        mean = sum(d) / k
                        var = sum((x - mean) ** 2 for x in d) / (k - 1)
                        if mean + z * (var / k) ** 0.5 < 0:
                            continue
                    keep.append(i)
                alive = keep
                if len(alive) == 1:
                    break
        best = max(alive, key=lambda i: (sum(values[i]) / len(values[i]), -i))
        return legal[best]

    bot.__name__ = name
    return bot


BOTS = {
    "random": _bots.random_bot,
    "heuristic": heuristic_bot,
    "lookahead": lookahead_on_core(),
}
