"""Lesson 13's exercises, timing (Bucket Brigade): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction
from functools import lru_cache

from meeple.rules import bucket_brigade as bb
from meeple.rules import exact
from meeple.rules.core import bot_rng

from .checking import exact_answer, exercise
from .key import answer_of, expected
from .numbers import choices, exercise_numbers


# lesson 13's positions: {hand dealt: game seeds}. Four heuristic bots, dealt hands of that many cards (BB-2's
# base 13 or fewer: the rest set aside, unseen), play that seed's game to its first timing position (the lesson's
# `timing_position`). Each game here reaches one there, with 0 < q1 < q <= 99/100 (someone else may end the round
# first, and q does not round to certainty), B != E (so b* lies strictly between the two ends the lesson shows),
# every other hand at least 3 cards (exercise 2 asks what two fewer in each would do), and a q and a b* of its own:
# a classmate's answer is another's in under 1% of pairs (issue 37; the base hand alone gives 15 values of q over
# 190 games: its unseen and held cards move together, the set-aside ones do not). Made by scanning seeds 6-699 and,
# for each, hands 13 down to 6 (the lesson's own game, hand 13 seed 8, first) and keeping each game that meets all
# of it with a q and a b* no earlier one has; tests/course/test_student_numbers.py checks every entry.
TIMING_GAMES = {13: (8, 14, 23, 48, 55, 71, 168, 233, 330, 370, 587, 680, 689),
                11: (6, 7, 8, 13, 17, 29, 46, 56, 59, 68, 84, 85, 91, 109, 137, 144, 149, 150, 156, 170, 171, 182,
                     192, 208, 209, 218, 288, 298, 306, 319, 332, 358, 377, 482, 495, 504, 512, 519, 594),
                10: (10, 15, 17, 33, 34, 48, 54, 58, 83, 91, 156, 180, 185, 210, 214, 234, 317, 323, 325, 330, 349,
                     356, 413, 417, 428, 450, 596, 612, 693),
                12: (16, 17, 18, 41, 47, 55, 61, 66, 86, 97, 104, 117, 120, 196, 205, 214, 220, 237, 287, 302, 347,
                     487, 550, 699),
                9: (34, 113, 121, 169, 238, 354, 393, 453, 493, 538, 565, 588),
                8: (70,),
                7: (172,)}

TIMING_POSITIONS = tuple((hand, seed) for hand, seeds in TIMING_GAMES.items() for seed in seeds)

# lesson 13's position: (hand dealt, game seed), TIMING_POSITIONS (the lesson's own game first)
NUMBERS = choices("13", {"position": TIMING_POSITIONS})


def _timing(position: "tuple[int, int] | None" = None) -> dict:
    """Lesson 13's position (`position`: (hand, game seed), default this student's) and its numbers,
    built as the lesson builds them (q: the chance that one of the players who move before the next
    turn can end the round; q1: the next player's): four heuristic bots, dealt hands of `hand` cards
    (BB-2's base hand or a smaller one: the cards not dealt are set aside, unseen), play a seeded game
    until a player could end the round (BB-8) with a card of a colour whose hedgehog stands within two
    steps of the end, and has a safe coloured card to play instead; a game that never gets there gives
    way to the next seed."""
    hand, seed = exercise_numbers("13")["position"] if position is None else position
    while True:
        try:
            return _timing_in(hand, seed)
        except LookupError:
            seed += 1


@lru_cache(maxsize=16)  # a position is a pure function of its hand and seed (the dict is read, never changed)
def _timing_in(hand: int, seed: int) -> dict:
    config = bb.Config().with_values({"hand_size": hand})
    end = len(config.track) - 1
    state = bb.new_game(config, seed)
    rngs = [bot_rng(seed, p) for p in range(config.players)]
    while not state.is_over:
        p = state.current_player
        seen = bb.observation(state, p)
        near = [(c, end - x) for c, x in zip(config.colours, state.positions) if end - x <= 2
                and any(card.colour == c and card.steps >= end - x for card in seen.hand)]
        safe = [a for a in bb.legal_actions(state) if a.card.colour is not None  # keep jokers
                and all(a.colour != c for c, _ in near) and state.positions[config.colours.index(a.colour)] + a.card.steps <= end - 3]
        if near and safe:  # a choice: end now, or play a card that brings no hedgehog near the end
            colour, gap = near[0]
            break
        state = bb.apply(state, bb.BOTS["heuristic"](seen, bb.legal_actions(state), rngs[p]))
    else:
        raise LookupError(f"hand {hand}, seed {seed}: no such position in this game")
    where = dict(zip(config.colours, state.positions))
    flat = dataclasses.replace(config, bonus=0, floor_zero=False)

    def score(hand, moves):
        positions = dict(where)
        for c, steps in moves:
            positions[c] = min(end, positions[c] + steps)
        return Fraction(bb.round_score(hand, positions, flat, ended_round=False))

    def without(hand, card):
        hand = list(hand)
        hand.remove(card)
        return hand

    ender = min((c for c in seen.hand if c.colour == colour and c.steps >= gap), key=lambda c: c.steps)
    e = score(without(seen.hand, ender), [(colour, gap)])
    wait = max(safe, key=lambda a: (score(without(seen.hand, a.card), [(a.colour, a.card.steps)]), str(a)))
    after = without(seen.hand, wait.card)
    a_ = score(after, [(wait.colour, wait.card.steps), (colour, gap)])
    b_ = score(without(after, ender), [(wait.colour, wait.card.steps), (colour, gap)])
    unseen = Counter(config.deck())
    unseen.subtract(seen.hand)
    unseen.subtract(seen.played)
    unseen = list(unseen.elements())
    # every other player moves before p's next turn: their hands together are one random set of the unseen cards
    others = [(p + k) % config.players for k in range(1, config.players)]
    held = sum(seen.hand_counts[o] for o in others)

    def q_for(match, cards=held):
        k = sum(1 for c in unseen if match(c))
        return 1 - exact.hypergeometric(len(unseen), k, cards).get(0, Fraction(0))

    can = lambda c: c.colour in (colour, None) and c.steps >= gap  # noqa: E731  (that colour, or a joker)
    q = q_for(can)
    return {"q": q, "E": e, "A": a_, "B": b_, "gap": gap, "colour": colour, "wait": str(wait), "ender": str(ender),
            "seen": seen, "held": held, "unseen": len(unseen), "can_end": sum(map(can, unseen)), "hand": hand,
            "q1": q_for(can, seen.hand_counts[others[0]]),  # the next player alone (a two-player game)
            "no_jokers": q_for(lambda c: c.colour == colour and c.steps >= gap),
            "any_steps": q_for(lambda c: c.colour in (colour, None))}


@exercise("13.next_can_end", "the chance as an exact Fraction", varied=True, sealed=True)
def _next_can_end(answer):
    t = _timing()
    q = expected("13.next_can_end")
    a = exact_answer(answer, q)
    if a == q:
        return True, f"q = {q} ≈ {float(q):.1%}."
    if a == t["no_jokers"]:
        return False, "a joker moves any hedgehog (BB-7): count the unseen jokers as cards that can end the round too."
    if a == 1 - t["q"]:
        return False, "that is the chance they hold none; q is one minus it."
    if a == t["q1"]:
        return False, ("that is the next player alone; three players move before your next turn: "
                       "count the cards of all their hands together.")
    if a == t["any_steps"]:
        return False, (f"the hedgehog is {t['gap']} step(s) from the end: count only the cards long "
                       "enough to reach it.")
    return False, "the population is the unseen cards (deck less your hand and the played pile); count those of the colour or jokers."


answer_of("13.next_can_end")(lambda: _timing()["q"])


@exercise("13.balance_bonus", "the bonus as an exact Fraction", varied=True, sealed=True)
def _balance_bonus(answer):
    t = _timing()
    right = expected("13.balance_bonus")
    a = exact_answer(answer, right)
    if a == right:
        return True, f"b* = {right} ≈ {float(right):.2f}."
    if a == (t["B"] - t["E"]) / t["q"] or a == t["A"] - t["B"]:
        return False, "only part of it: b* = (A − B) + (B − E) / q has two terms."
    if a == (t["A"] - t["B"]) + (t["B"] - t["E"]) / t["q1"]:
        return False, "that is the two-player reckoning (the next player alone): use q with every other hand counted."
    return False, "set q·A + (1 − q)(B + b) equal to E + b and solve for b."


@answer_of("13.balance_bonus")
def _balance_answer():
    t = _timing()
    return (t["A"] - t["B"]) + (t["B"] - t["E"]) / t["q"]
