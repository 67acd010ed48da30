"""Lesson 10's exercises, hands (Bucket Brigade, Bucket King): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from meeple.rules import bucket_brigade as bb
from meeple.rules import bucket_king as bk
from meeple.rules import exact
from meeple.rules.stats import wilson

from .checking import Refused, WrongKind, agrees_to_digits, exact_answer, exercise, need_interval
from .evidence import replay_sample
from .key import answer_of, expected
from .numbers import choices, exercise_numbers


# 10.three_red's (hand, least): a Bucket Brigade deal of hands of 4 to 18 cards (four players up to 13, the base
# hand, three players beyond: lesson_10.three_red_rules) and at least `least` reds, every least whose chance lies
# between 1% and 99% (RED_LEAST: least from the first to the second). The base hand with 3 first; not its 4, which the
# lesson shows: 74 questions, each its own chance (issue 37: 3, 33% of pairs)
RED_LEAST = {4: (1, 3), 5: (1, 3), 6: (1, 4), 7: (1, 4), 8: (1, 4), 9: (1, 5), 10: (1, 5), 11: (1, 5), 12: (1, 5),
             13: (1, 6), 14: (1, 6), 15: (1, 6), 16: (1, 6), 17: (1, 7), 18: (2, 7)}

THREE_REDS = ((13, 3), *((h, k) for h, (low, high) in RED_LEAST.items() for k in range(low, high + 1)
                         if (h, k) not in {(13, 3), (13, 4)}))

# 10.led_five's (copies, hand, least): a Bucket King deck of 2 or 3 copies of each card dealing hands of 5 to 20 cards
# (bk.Config(copies=..., hand_size=...)), and a red lead's posterior chance of at least `least` reds, every least whose
# chance lies between 1% and 99% with 2 copies (LEAD_LEAST: least from the first to the second). The base game's deck
# and hand with 5 first; not its 4, which section 4 works out: 109 questions, each its own chance (issue 37: 2, 49%)
LEAD_LEAST = {5: (2, 4), 6: (3, 4), 7: (3, 5), 8: (3, 5), 9: (3, 5), 10: (3, 6), 11: (4, 6), 12: (4, 6), 13: (4, 7),
              14: (4, 7), 15: (5, 7), 16: (5, 8), 17: (5, 8), 18: (5, 8), 19: (5, 8), 20: (6, 9)}

LEADS = ((2, 10, 5), *((c, h, k) for c in (2, 3) for h, (low, high) in LEAD_LEAST.items() for k in range(low, high + 1)
                       if (c, h, k) not in {(2, 10, 5), (2, 10, 4)}))

# reds: 10.three_red's and 10.three_red_sampled's (hand, least), THREE_REDS. led: 10.led_five's (copies, hand, least), LEADS
NUMBERS = choices("10", {"reds": THREE_REDS, "led": LEADS})


def three_red_rules() -> bb.Config:
    """10.three_red's game for the student in use: Bucket Brigade dealing their hand size (numbers' THREE_REDS), with
    four players (the base game) up to the base hand and three beyond (four hands of more would not fit the deck)."""
    hand, _least = exercise_numbers("10")["reds"]
    base = bb.Config()
    players = base.players if hand <= base.hand_size else 3
    sizes = list(base.hand_sizes)
    sizes[players - 3] = hand  # hand_sizes: for 3, 4 and 5 players (BB-2)
    return bb.Config(players=players, hand_sizes=tuple(sizes))


def _three_red() -> Fraction:
    return exact.colour_at_least(three_red_rules(), "red", exercise_numbers("10")["reds"][1])


@exercise("10.three_red", "the chance as an exact Fraction", varied=True, sealed=True)
def _three_red_check(answer):
    right = expected("10.three_red")
    a = exact_answer(answer, right)
    if a == right:
        return True, f"{right}, about {float(right):.1%}."
    config, k = three_red_rules(), exercise_numbers("10")["reds"][1]
    reds = exact.colour_in_hand(config, "red")
    if a == reds.get(k):
        return False, f"that is exactly {k} reds; the question is {k} or more (add {k + 1}, {k + 2}, ...)."
    if a == exact.at_least(reds, k + 1):
        return False, f"that is {k + 1} or more; at least {k} includes exactly {k}."
    if config != bb.Config() and a == exact.colour_at_least(bb.Config(), "red", k):
        return False, (f"that is the base game's hand of {bb.Config().hand_size} cards; yours has {config.hand_size} "
                       f"({config.players} players).")
    return False, (f"take colour_in_hand for a hand of {config.hand_size} cards and add the chances of {k}, {k + 1}, "
                   f"{k + 2}, ... reds.")


answer_of("10.three_red")(_three_red)

THREE_RED_DEALS = 1000


def _reds_in_first_hand(seed) -> int:
    """Red cards in Player 1's hand of a seeded Bucket Brigade deal of the student's game (three_red_rules, BB-2)."""
    return sum(c.colour == "red" for c in bb.observation(bb.new_game(three_red_rules(), seed), 0).hand)


@exercise("10.three_red_sampled", "(interval, deals): your 95% interval and {seed: reds in the first hand}", varied=True, sealed=False)
def _three_red_sampled(answer):
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != 2 \
            or not isinstance(answer[1], Mapping):
        raise WrongKind("pass (interval, deals): your (low, high) and the dict {seed: red cards in Player 1's "
                        f"hand}} you counted, e.g. check('10.three_red_sampled', (interval, deals)); got {answer!r:.80}")
    low, high = need_interval(answer[0])
    if not (0 <= low and high <= 1):
        raise WrongKind(f"a chance lies between 0 and 1, got {answer[0]!r}")
    deals = answer[1]
    if not all(isinstance(k, int) and not isinstance(k, bool) and isinstance(v, int) and not isinstance(v, bool)
               for k, v in deals.items()):
        raise WrongKind("deals maps each seed (a whole number) to the red cards in that hand (a whole number)")
    if len(deals) < THREE_RED_DEALS:
        raise Refused(f"{len(deals)} deals are too few: deal at least {THREE_RED_DEALS} seeded games.")
    first = min(deals)
    if sorted(deals) != list(range(first, first + len(deals))):
        raise Refused("deal seeds in a row (range(n)), not a choice of seeds: every deal counts.")
    replay_sample(deals, _reds_in_first_hand, "the deal of seed")
    k = exercise_numbers("10")["reds"][1]
    hits = sum(v >= k for v in deals.values())
    mine = wilson(hits, len(deals))
    if not (agrees_to_digits(low, mine[0]) and agrees_to_digits(high, mine[1])):
        return False, (f"your deals have {hits} hands with {k} or more reds in {len(deals)}: that is not the interval "
                       "you gave. Use wilson(hits, deals).")
    try:
        right = float(expected("10.three_red"))
    except KeyError:  # a graded build ships no sealed answer (10.three_red's), nor what works it out
        return True, "your deals are genuine and your interval is theirs (this graded course does not show the exact chance)."
    if low <= right <= high:
        return True, f"your interval contains the exact {right:.1%}, as a 95% interval does 19 times in 20."
    return True, (f"your deals are genuine and your interval is theirs, but it misses the exact {right:.1%}: that "
                  "happens 1 time in 20 by luck. What would it mean if it happened with every seed?")


answer_of("10.three_red_sampled")(lambda: _three_red())  # the exact chance the student's interval is compared with


def led_variant() -> tuple[bk.Config, int]:
    """10.led_five's Bucket King deck and hand (copies, hand_size) and its least number of reds, for the student in use."""
    copies, hand, least = exercise_numbers("10")["led"]
    return bk.Config(copies=copies, hand_size=hand), least


@exercise("10.led_five", "the chance as an exact Fraction", varied=True, sealed=True)
def _led_five(answer):
    king, k = led_variant()
    right = expected("10.led_five")
    a = exact_answer(answer, right)
    if a == right:
        return True, f"{right}, about {float(right):.1%}."
    if a == exact.at_least(exact.colour_in_hand(king, "red"), k):
        return False, "that is the chance before the lead (the prior); use the posterior, led_colour_count."
    if king != bk.Config() and a == exact.at_least(exact.led_colour_count(bk.Config(), "red"), k):
        return False, (f"that is the base game's deck and hand; yours: bk.Config(copies={king.copies}, "
                       f"hand_size={king.hand_size}).")
    return False, (f"add the posterior's chances of {k}, {k + 1}, ... reds: exact.at_least(exact.led_colour_count("
                   f"bk.Config(copies={king.copies}, hand_size={king.hand_size}), 'red'), {k}).")


@answer_of("10.led_five")
def _led_five_answer():
    king, least = led_variant()
    return exact.at_least(exact.led_colour_count(king, "red"), least)
