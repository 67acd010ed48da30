"""The self-checks of lessons 8-14 (widgets/exercises_more.py): each accepts the answer
the engine computes (worked out here independently where the maths is short), refuses a
near miss with a hint, and refuses an answer of the wrong kind with a message."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from meeple.rules import duck_duck_bruce as ddb
from meeple.widgets import exercises as ex


def _run(key, answer, capsys):
    ok = ex.check(key, answer)
    return ok, capsys.readouterr().out


def test_08_five_ducks_is_a_count_over_a_count(capsys):
    # DDB-5, DDB-6: with five suits in the row, the Bruces and the other ducks of those suits end the turn
    cfg = ddb.Config()
    others = len(cfg.numbers) - 1
    right = Fraction(cfg.bruce_cards + 5 * others, len(cfg.deck()) - 5)
    assert _run("08.five_ducks", right, capsys)[0]
    ok, out = _run("08.five_ducks", right + Fraction(1, 61), capsys)
    assert not ok and "Not yet" in out
    # the same number as a float is the same answer; a rounded decimal is refused: the exercise wants it exact
    assert _run("08.five_ducks", float(right), capsys)[0]
    ok, out = _run("08.five_ducks", round(float(right), 3), capsys)
    assert not ok and "exact value" in out
    ok, out = _run("08.five_ducks", "31/61", capsys)
    assert not ok and "right kind" in out
    # forgetting that the row's ducks are face up (counting over the whole deck) gets its own hint
    ok, out = _run("08.five_ducks", Fraction(cfg.bruce_cards + 5 * others, len(cfg.deck())), capsys)
    assert not ok and "face up" in out


def test_08_nest_answers(capsys):
    cfg = ddb.Config()
    nest = [ddb.Duck("red", 4)]
    row = [ddb.Duck("red", 2), ddb.Duck("green", 2), ddb.Duck("yellow", 2)]
    left = Counter(cfg.deck())
    left.subtract(row + nest)
    unseen = list(left.elements())
    enders = sum(1 for c in unseen if isinstance(c, ddb.Bruce) or c.suit in {"red", "green", "yellow"})
    assert _run("08.nest_bust", Fraction(enders, len(unseen)), capsys)[0]
    assert not _run("08.nest_bust", ddb.bust_probability(row, Counter(cfg.deck()) - Counter(row)), capsys)[0]
    # DDB-10: the red 2 adds nothing to a nest with a red 4; brute force over the next card
    def score_after(card):
        if isinstance(card, ddb.Bruce):
            return ddb.nest_score(nest)
        if card.suit in {"red", "green", "yellow"}:
            before = row[: [d.suit for d in row].index(card.suit)]
            return ddb.nest_score(nest + before)
        return ddb.nest_score(nest + row + [card])
    flip = Fraction(sum(score_after(c) for c in unseen), len(unseen))
    gain = flip - ddb.nest_score(nest + row)
    assert _run("08.nest_gain", gain, capsys)[0]
    ok, out = _run("08.nest_gain", -gain, capsys)
    assert not ok and "sign" in out
    ok, out = _run("08.nest_gain", "flip", capsys)
    assert not ok and "right kind" in out


def test_09_claim3_variance_from_the_faces(capsys):
    die = ddb.Config().die
    net = [3 if f >= 3 else -1 if f == -1 else 0 for f in die]  # DDB-7, DDB-8
    m = Fraction(sum(net), len(net))
    var = sum((Fraction(x) - m) ** 2 for x in net) / len(net)
    assert _run("09.claim3_variance", var, capsys)[0]
    ok, out = _run("09.claim3_variance", Fraction(sum(x * x for x in net), len(net)), capsys)
    assert not ok and "E[X²]" in out
    assert not _run("09.claim3_variance", "big", capsys)[0]


def test_09_leader_and_trailer(capsys):
    # the last steal, two players, steal-back: brute force over the faces (lead change +2d / -2 / 0)
    die = ddb.Config().die

    def chance(claim, lead):
        total = Fraction(0)
        for f in die:
            after = lead + (0 if claim == 0 else 2 * claim if f >= claim else -2 if f == -1 else 0)
            total += Fraction(1 if after > 0 else 0) / len(die) + (Fraction(1, 2 * len(die)) if after == 0 else 0)
        return total

    behind = {c: chance(c, -4) for c in range(4)}
    assert _run("09.trailer", max(behind.values()), capsys)[0]
    ok, out = _run("09.trailer", behind[2], capsys)
    assert not ok and "best" in out
    ahead = {c: chance(c, 2) for c in range(4)}
    best = [c for c in ahead if ahead[c] == max(ahead.values())]
    assert best == [0]
    assert _run("09.leader", 0, capsys)[0]
    assert not _run("09.leader", 3, capsys)[0]
    ok, out = _run("09.leader", 7, capsys)
    assert not ok and "right kind" in out


def test_10_three_red_by_counting_hands(capsys):
    from math import comb

    from meeple.rules import bucket_brigade as bb

    cfg = bb.Config()
    deck = cfg.deck()
    n, red, hand = len(deck), sum(c.colour == "red" for c in deck), cfg.hand_size  # BB-1, BB-2
    right = Fraction(sum(comb(red, k) * comb(n - red, hand - k) for k in range(3, hand + 1)), comb(n, hand))
    assert _run("10.three_red", right, capsys)[0]
    exactly_three = Fraction(comb(red, 3) * comb(n - red, hand - 3), comb(n, hand))
    ok, out = _run("10.three_red", exactly_three, capsys)
    assert not ok and "3 or more" in out
    assert _run("10.three_red", float(right), capsys)[0]
    ok, out = _run("10.three_red", round(float(right), 3), capsys)
    assert not ok and "exact value" in out
    # the sampled interval: right when it is narrow and covers the truth
    p = float(right)
    assert _run("10.three_red_sampled", (p - 0.03, p + 0.03), capsys)[0]
    ok, out = _run("10.three_red_sampled", (p - 0.2, p + 0.2), capsys)
    assert not ok and "deal more" in out
    ok, out = _run("10.three_red_sampled", (p + 0.01, p + 0.05), capsys)
    assert not ok and "misses" in out
    assert not _run("10.three_red_sampled", (0.6, 0.4), capsys)[0]


def test_10_led_five_is_bayes_over_every_split(capsys):
    from meeple.rules import bucket_king as bk
    from meeple.rules import exact

    king = bk.Config()
    # P(>= 5 red | red led) = P(red led and >= 5 red) / P(red led); by symmetry P(red led) = 1/colours
    joint = Fraction(0)
    for counts, p in exact.colour_split(king).items():
        top = max(counts)
        if counts[0] == top and counts[0] >= 5:
            joint += p / counts.count(top)
    right = joint * len(king.colours)
    assert _run("10.led_five", right, capsys)[0]
    ok, out = _run("10.led_five", exact.colour_at_least(king, "red", 5), capsys)
    assert not ok and "prior" in out


def test_11_none_colour_places_and_second_row(capsys):
    from meeple.rules import bucket_king as bk
    from meeple.rules import exact

    rows = bk.Config().rows
    top = len(rows) - 1
    assert _run("11.none_colour", [(top, 0), (top - 1, 0), (top - 1, 1)], capsys)[0]
    # a chain up the left edge works too: lose the highest first (BK-9 lets you choose)
    assert _run("11.none_colour", [(top, 0), (top - 1, 0), (top - 2, 0)], capsys)[0]
    # but (2, 0) carries (3, 0) and the top, so a purple set low on the left costs more
    assert not _run("11.none_colour", [(0, 0), (1, 0), (2, 0)], capsys)[0]
    ok, out = _run("11.none_colour", [(0, 1), (0, 2), (0, 3)], capsys)
    assert not ok and "best order" in out
    ok, out = _run("11.none_colour", [(5, 0), (0, 0), (0, 1)], capsys)
    assert not ok and "not a place" in out
    ok, out = _run("11.none_colour", "the top", capsys)
    assert not ok and "right kind" in out
    assert not _run("11.none_colour", [(4, 0), (4, 0), (3, 0)], capsys)[0]
    # BK-11 at p = 1/2 for (1, 1): fall_distribution's mean; the exact rule (p = 1) is refused
    right = exact.mean(bk.fall_distribution(rows, (), (1, 1), Fraction(1, 2)))
    assert right < len(bk.falling_buckets(rows, (), (1, 1)))
    assert _run("11.second_row", right, capsys)[0]
    ok, out = _run("11.second_row", Fraction(len(bk.falling_buckets(rows, (), (1, 1)))), capsys)
    assert not ok and "exact rule" in out


def test_12_p_five_brackets_the_exact_crossing(capsys):
    from meeple.rules import bucket_king as bk
    from meeple.rules import exact

    rows = bk.Config().rows

    def loss(p):  # BK-11: the exact expected loss grows with p
        return exact.mean(bk.fall_distribution(rows, (), (0, 2), p))

    # find the hundredth where the loss crosses 5 by scanning, independently of the bisection
    hundredths = [Fraction(k, 100) for k in range(101)]
    cross = next(p for p in hundredths if loss(p) >= 5)
    before = cross - Fraction(1, 100)
    nearest = cross if loss(cross) - 5 < 5 - loss(before) else before
    assert _run("12.p_five", float(nearest), capsys)[0]
    ok, out = _run("12.p_five", float(nearest) - 0.05, capsys)
    assert not ok and "wobblier" in out
    ok, out = _run("12.p_five", float(nearest) + 0.05, capsys)
    assert not ok and "steadier" in out
    assert not _run("12.p_five", 5, capsys)[0]


def test_12_ender_bonus_reads_a_tuning(capsys):
    import pandas as pd

    from meeple.rules.workbench import Tuning

    def tuning(**change):
        fields = dict(game="bucket-brigade", field="bonus", measure="the round-ender's win rate", target=0.5,
                      answer=4, value=0.52, low=0.48, high=0.56, table=pd.DataFrame(), neighbours=[3, 5],
                      tied=[], games=150, seed=1, method="bisection")
        fields.update(change)
        return Tuning(**fields)

    ok, out = _run("12.ender_bonus", tuning(), capsys)
    assert ok and "bonus of 4" in out
    ok, out = _run("12.ender_bonus", tuning(target=2 / 3), capsys)
    assert not ok and "0.5" in out
    ok, out = _run("12.ender_bonus", tuning(measure="Player 1's win rate"), capsys)
    assert not ok and "ender_win_rate" in out
    ok, out = _run("12.ender_bonus", tuning(games=50), capsys)
    assert not ok and "150" in out
    ok, out = _run("12.ender_bonus", 4, capsys)
    assert not ok and "right kind" in out


def test_14_luck_die_and_cycle(capsys):
    import itertools
    from math import comb

    import pandas as pd

    right = Fraction(sum(comb(100, j) for j in range(60, 101)), 2**100)
    assert _run("14.luck_alone", right, capsys)[0]
    ok, out = _run("14.luck_alone", Fraction(comb(100, 60), 2**100), capsys)
    assert not ok and "exactly 60" in out
    # D against A, every pair of faces, a tie half a win
    d, a = (0, 0, 4, 4, 4, 4), (2, 2, 4, 4, 9, 9)
    pairs = list(itertools.product(d, a))
    beats = sum(Fraction(1) if x > y else Fraction(1, 2) if x == y else Fraction(0) for x, y in pairs) / len(pairs)
    assert _run("14.die_d", beats, capsys)[0]
    ok, out = _run("14.die_d", sum(Fraction(x > y) for x, y in pairs) / len(pairs), capsys)
    assert not ok and "tie" in out

    def table(edges):  # a round-robin table where (a, b) in edges means a surely beats b
        rows = []
        for x, y in itertools.permutations(["t1", "t2", "t3", "t4"], 2):
            low = 0.6 if (x, y) in edges else 0.1 if (y, x) in edges else 0.4
            rows.append({"row": x, "column": y, "win rate": low + 0.05, "low": low, "high": low + 0.1})
        return pd.DataFrame(rows)

    ring = table({("t1", "t2"), ("t2", "t3"), ("t3", "t1"), ("t4", "t1")})
    assert _run("14.cycle", (ring, ["t1", "t2", "t3"]), capsys)[0]
    assert _run("14.cycle", (ring, ["t2", "t3", "t1"]), capsys)[0]
    ok, out = _run("14.cycle", (ring, []), capsys)
    assert not ok and "ring" in out
    ok, out = _run("14.cycle", (ring, ["t1", "t3", "t2"]), capsys)
    assert not ok and "does not surely beat" in out
    ordered = table({("t1", "t2"), ("t2", "t3"), ("t1", "t3")})
    assert _run("14.cycle", (ordered, []), capsys)[0]
    ok, out = _run("14.cycle", (ordered, ...), capsys)
    assert not ok and "no answer" in out
    ok, out = _run("14.cycle", ["t1", "t2", "t3"], capsys)
    assert not ok and "right kind" in out


def test_13_timing_position_answers(capsys):
    from meeple.widgets.exercises_more import _timing

    t = _timing()
    # the chance the next hand holds an ending card, against listing: P(none) = C(U-k, h) / C(U, h)
    q = t["q"]
    assert 0 < q < 1
    assert _run("13.next_can_end", q, capsys)[0]
    if t["no_jokers"] != q:
        ok, out = _run("13.next_can_end", t["no_jokers"], capsys)
        assert not ok and "joker" in out
    ok, out = _run("13.next_can_end", 1 - q, capsys)
    assert not ok and "one minus" in out
    # balance: q*A + (1-q)*(B + b) == E + b at b*
    b = (t["A"] - t["B"]) + (t["B"] - t["E"]) / q
    assert q * t["A"] + (1 - q) * (t["B"] + b) == t["E"] + b
    assert _run("13.balance_bonus", b, capsys)[0]
    assert not _run("13.balance_bonus", b + 1, capsys)[0]
    assert not _run("13.balance_bonus", round(float(b), 2) + 0.001, capsys)[0]
    ok, out = _run("13.balance_bonus", (t["B"] - t["E"]) / q, capsys)
    assert not ok and "two terms" in out
    # the next player alone (a two-player game) is a different question: each gets its own hint
    ok, out = _run("13.next_can_end", t["q1"], capsys)
    assert not ok and "three players move" in out
    ok, out = _run("13.balance_bonus", (t["A"] - t["B"]) + (t["B"] - t["E"]) / t["q1"], capsys)
    assert not ok and "two-player" in out
