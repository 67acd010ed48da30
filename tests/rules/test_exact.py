"""Exact hand maths against brute-force enumeration, all in Fractions."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from meeple.rules import GAMES, exact
from meeple.rules import bucket_brigade as bb


def brute_count(deck, hand, match):
    """{k: P} by listing every hand of `hand` cards (cards told apart by position)."""
    counts = Counter(sum(1 for i in combo if match(deck[i])) for combo in itertools.combinations(range(len(deck)), hand))
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items()}


@pytest.mark.parametrize("population", range(0, 8))
def test_hypergeometric_equals_listing_every_hand(population):
    for successes in range(population + 1):
        deck = ["x"] * successes + ["o"] * (population - successes)
        for draws in range(population + 1):
            assert exact.hypergeometric(population, successes, draws) == brute_count(deck, draws, lambda c: c == "x")


def test_hand_composition_equals_listing_every_hand():
    groups = {"red": 3, "blue": 2, "joker": 2, "green": 0}
    deck = [g for g, n in groups.items() for _ in range(n)]
    for draws in range(len(deck) + 1):
        combos = list(itertools.combinations(range(len(deck)), draws))
        seen = Counter(tuple(sum(deck[i] == g for i in c) for g in groups) for c in combos)
        brute = {k: Fraction(v, len(combos)) for k, v in seen.items()}
        assert exact.hand_composition(groups, draws) == brute
        assert sum(exact.hand_composition(groups, draws).values()) == 1


def test_tails_mean_and_variance_of_a_distribution():
    d = exact.hypergeometric(10, 4, 3)
    assert exact.at_least(d, 0) == 1 and exact.at_least(d, 4) == 0
    assert exact.at_least(d, 2) + exact.at_most(d, 1) == 1
    assert exact.mean(d) == Fraction(3 * 4, 10)
    assert exact.variance(d) == Fraction(3 * 4 * 6 * 7, 10 * 10 * 9)  # n K (N-K) (N-n) / (N^2 (N-1))


class ForcedShuffle:
    """Stands in for Chance (new_game's `chance`): hands the dealer a given order of the deck."""

    def __init__(self, order):
        self.order = order

    def shuffled(self, items):
        items = list(items)
        return [items[i] for i in self.order], self


@pytest.mark.parametrize("players, hand_sizes", [(3, (2, 1, 1)), (3, (1, 1, 1))])
def test_bucket_brigade_colour_count_equals_every_deal_of_the_real_dealer(players, hand_sizes):
    """BB-2: every order of a 6-card deck dealt by new_game itself (cards set aside
    first, then the hands): each seat's count of red cards, and of jokers, is
    exactly hypergeometric."""
    cfg = bb.Config(players=players, colours=("red", "blue"), one_step_cards=1, two_step_cards=1,
                    joker_one_step=1, joker_two_step=1, hand_sizes=hand_sizes)
    deck = cfg.deck()
    seen = [Counter() for _ in range(players)]
    jokers = [Counter() for _ in range(players)]
    orders = list(itertools.permutations(range(len(deck))))
    for order in orders:
        state = bb.new_game(cfg, 0, chance=ForcedShuffle(order))
        for seat, hand in enumerate(state.hands):
            seen[seat][sum(c.colour == "red" for c in hand)] += 1
            jokers[seat][sum(c.colour is None for c in hand)] += 1
    for seat in range(players):
        assert {k: Fraction(v, len(orders)) for k, v in seen[seat].items()} == exact.colour_in_hand(cfg, "red")
        assert {k: Fraction(v, len(orders)) for k, v in jokers[seat].items()} == exact.colour_in_hand(cfg, None)


def test_bucket_brigade_published_deck_numbers():
    """55 cards, 11 per colour, 13 in a 4-player hand: 2.6 red cards on average."""
    d = exact.colour_in_hand(bb.Config(), "red")
    assert sum(d.values()) == 1 and exact.mean(d) == Fraction(13 * 11, 55)
    assert d[0] == Fraction(exact.hypergeometric(55, 11, 13)[0])
    split = exact.colour_split(bb.Config(players=3))
    assert all(len(k) == 5 and sum(k) == 15 for k in split)  # four colours and the jokers
    assert sum(split.values()) == 1


def test_bucket_king_colour_tails_equal_listing_every_hand():
    """A small Bucket King deck (3 colours x values 1-2 x 2 copies = 12 cards), 4 dealt."""
    bk = GAMES["bucket-king"]
    cfg = bk.Config(players=2, colours=("red", "blue", "green"), values=(1, 2), copies=2, hand_size=4,
                    pyramid_rows=((2, 1),) * 5, buckets_per_colour=(1,) * 5)
    deck = cfg.deck()
    combos = list(itertools.combinations(range(len(deck)), cfg.hand_size))
    for k in range(0, 6):
        brute = Fraction(sum(sum(deck[i].colour == "red" for i in c) >= k for c in combos), len(combos))
        assert exact.colour_at_least(cfg, "red", k) == brute
        longest = Fraction(
            sum(max(Counter(deck[i].colour for i in c).values()) >= k for c in combos), len(combos)
        )
        assert exact.longest_colour_at_least(cfg, k) == longest


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: exact.hypergeometric(5, 6, 2), "more than the population"),
        (lambda: exact.hypergeometric(5, 2, 6), "cannot draw 6"),
        (lambda: exact.hypergeometric(-1, 0, 0), "population must be a whole number"),
        (lambda: exact.hypergeometric(5, 2, 1.5), "draws must be a whole number"),
        (lambda: exact.hand_composition({"a": 2, "b": -1}, 1), "group 'b'"),
        (lambda: exact.hand_composition({"a": 2}, 3), "cannot draw 3"),
        (lambda: exact.colour_in_hand(bb.Config(), "purple"), "colour 'purple' is not in this game's colours"),
    ],
)
def test_bad_input_raises_a_clear_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_game_modules_exact_helpers_are_reexported():
    assert exact.exact_turn_distance is GAMES["piggyback-brigade"].exact_turn_distance
    for name in ("bust_probability", "steal_expectation", "best_stop"):
        assert getattr(exact, name) is getattr(GAMES["duck-duck-bruce"], name)


# --- dice, chases and time trials (Piggyback Brigade), flips (Duck, Duck, Bruce) ------------

from meeple.rules import piggyback_brigade as pb


def test_die_is_each_face_equally_likely():
    d = exact.die((1, 2, 3, 4, 1, 3))  # PB-5's die
    assert d == {1: Fraction(2, 6), 2: Fraction(1, 6), 3: Fraction(2, 6), 4: Fraction(1, 6)}
    faces = pb.Config().faces
    assert exact.mean(d) == Fraction(sum(faces), len(faces))
    assert exact.variance(d) == Fraction(sum(v * v for v in faces), len(faces)) - exact.mean(d) ** 2
    with pytest.raises(ValueError, match="at least one face"):
        exact.die(())


def brute_chase(config, gap):
    """Every face sequence of one turn, stepped roll by roll with the game's own is_last (PB-7)."""
    faces, rules, cap = config.faces, config.rerolls, config.max_rerolls
    total = Fraction(0)

    def go(me, other, used, p, moved):
        nonlocal total
        for v, rule in zip(faces, rules):
            q = p / len(faces)
            last = pb.is_last((me, other), 0)  # judged before this roll
            more = rule == pb.YES or (rule == pb.IF_LAST and last)
            if more and used < cap:
                go(me + v, other, used + 1, q, moved + v)
            else:
                total += q * (moved + v)

    go(0, gap, 0, Fraction(1), 0)
    return total


@pytest.mark.parametrize("gap", [0, 1, 3, 6])
def test_chase_turn_mean_equals_every_face_sequence(gap):
    """PB-7: last place is judged before every roll, so a black face rerolls until the piglet passes."""
    for cap in (0, 1, 3, 5):
        cfg = pb.Config(max_rerolls=cap)
        assert exact.chase_turn_mean(cfg, gap) == brute_chase(cfg, gap)
    # without a cap the answer is the limit of the capped ones (the tail shrinks like (5/6)^cap at worst)
    free, capped = exact.chase_turn_mean(pb.Config(), gap), exact.chase_turn_mean(pb.Config(max_rerolls=60), gap)
    assert 0 <= free - capped < Fraction(1, 10**3)
    assert free > exact.exact_turn_distance(pb.Config(), from_last=False).mean()  # a chaser goes further


def brute_trial(config, spaces):
    """Every roll sequence until the piglet crosses: {turns: P}."""
    out: dict[int, Fraction] = {}
    on = [r == pb.YES for r in config.rerolls]  # never last: if-last faces end the turn

    def go(x, turns, used, p):
        for v, more in zip(config.faces, on):
            q = p / len(config.faces)
            if x + v > spaces:
                out[turns] = out.get(turns, 0) + q
            elif more and (config.max_rerolls is None or used < config.max_rerolls):
                go(x + v, turns, used + 1, q)
            else:
                go(x + v, turns + 1, 0, q)

    go(0, 1, 0, Fraction(1))
    return out


@pytest.mark.parametrize("spaces", [1, 2, 5, 8])
def test_time_trial_equals_every_roll_sequence(spaces):
    for cfg in (pb.Config(), pb.Config(max_rerolls=1), pb.Config.presets()["published-die"]):
        d = exact.time_trial_turns(cfg, spaces)
        assert d == brute_trial(cfg, spaces)
        assert sum(d.values()) == 1
        assert exact.time_trial_mean(cfg, spaces) == exact.mean(d)  # first-step analysis, the same chain


def brute_fresh(row, deck, flips):
    """Every ordered draw of `flips` cards from `deck` (cards told apart by position)."""
    good = total = 0
    for draw in itertools.permutations(range(len(deck)), flips):
        total += 1
        suits = [deck[i] for i in draw]
        good += None not in suits and len(set(suits)) == flips and not set(suits) & set(row)
    return Fraction(good, total)


def test_fresh_flips_equals_every_ordered_draw():
    """DDB-5/DDB-6: a duck of a suit already in the row, or a Bruce, ends the run of fresh flips."""
    remaining = {"red": 2, "blue": 3, "green": 1, None: 2}
    deck = [s for s, n in remaining.items() for _ in range(n)]
    for row in ((), ("red",), ("red", "blue")):
        for flips in range(0, 4):
            assert exact.fresh_flips(row, remaining, flips) == brute_fresh(row, deck, flips)
    with pytest.raises(ValueError, match="only 8 remain"):
        exact.fresh_flips((), remaining, 9)


# --- a last gamble (lesson 9): win_chance and steal_swing against the engine -------------

def _steal_position(config):
    """A seeded Duck, Duck, Bruce state at a steal (DDB-6) where the thief and some
    opponent both hold at least three cards."""
    from meeple.rules import duck_duck_bruce as ddb

    for seed in range(100):
        s = ddb.new_game(config, seed)
        while not s.is_over:
            if s.phase == ddb.STEAL:
                p = s.current_player
                big = [t for t in range(config.players) if t != p and len(s.nests[t]) >= 3]
                if len(s.nests[p]) >= 3 and big:
                    return s, p, big[0]
                s = ddb.apply(s, ddb.NO_STEAL)
                continue
            s = ddb.apply(s, ddb.FLIP if len(s.row) < 3 else ddb.STOP)
    raise AssertionError("no steal position found")


@pytest.mark.parametrize("minus_one", ["steal-back", "discard"])
def test_steal_swing_is_what_the_engine_does_for_every_face(minus_one):
    """DDB-7, DDB-8: replay the same steal with many chance streams; each face the die
    shows moves the lead (thief's cards minus victim's) by what steal_swing says."""
    import dataclasses

    from meeple.rules import duck_duck_bruce as ddb
    from meeple.rules.chance import Chance

    config = ddb.Config(minus_one=minus_one)
    state, thief, victim = _steal_position(config)
    lead = len(state.nests[thief]) - len(state.nests[victim])
    for declared in (1, 2, 3):
        by_face = {}
        for k in range(200):
            after = ddb.apply(dataclasses.replace(state, chance=Chance(k, 0)), ddb.Steal(victim, declared))
            face = int(next(e for e in reversed(after.events) if " rolls " in e).split(" rolls ")[1].split(":")[0].split(".")[0])
            by_face[face] = len(after.nests[thief]) - len(after.nests[victim]) - lead
        assert set(by_face) == set(config.die)
        brute = {}
        for face in config.die:
            brute[by_face[face]] = brute.get(by_face[face], 0) + Fraction(1, len(config.die))
        assert exact.steal_swing(declared, config) == brute
        assert exact.mean(brute) == (2 if minus_one == "steal-back" else 1) * ddb.steal_expectation(declared, config) + (
            0 if minus_one == "steal-back" else declared * Fraction(sum(f >= declared for f in config.die), len(config.die))
        )
    assert exact.steal_swing(0, config) == {0: 1}
    with pytest.raises(ValueError, match="declared"):
        exact.steal_swing(4, config)


def test_win_chance_counts_ahead_level_and_behind():
    swing = {-2: Fraction(1, 6), 0: Fraction(1, 2), 6: Fraction(1, 3)}
    for lead in range(-8, 5):
        brute = sum((p if lead + c > 0 else p / 2 if lead + c == 0 else 0) for c, p in swing.items())
        assert exact.win_chance(swing, lead) == brute
    assert exact.win_chance(swing, 2) == Fraction(1, 2) + Fraction(1, 3) + Fraction(1, 12)


# --- what a bid reveals (lesson 10): Bayes on a dealt hand, against listing every hand ----

def test_led_colour_count_equals_listing_every_hand():
    """A leader leads a colour it holds most of (ties at random): list every hand of a small
    Bucket King deck and weigh each by the chance it leads red."""
    from meeple.rules import bucket_king as bk

    cfg = bk.Config(players=2, colours=("red", "blue", "green"), values=(1, 2, 3), copies=1, hand_size=4,
                    pyramid_rows=((3, 2, 1),) * 5)
    deck = list(cfg.deck())
    joint, prior = Counter(), Counter()
    hands = list(itertools.combinations(range(len(deck)), cfg.hand_size))
    for combo in hands:
        held = Counter(deck[i].colour for i in combo)
        top = max(held[c] for c in cfg.colours)
        longest = [c for c in cfg.colours if held[c] == top]
        prior[held["red"]] += 1
        if "red" in longest:
            joint[held["red"]] += Fraction(1, len(longest))
    like = exact.lead_likelihood(cfg, "red")
    assert like == {k: Fraction(joint[k]) / prior[k] for k in prior}
    total = sum(joint.values())
    assert exact.led_colour_count(cfg, "red") == {k: Fraction(v) / total for k, v in joint.items() if v}
    assert exact.posterior({"a": Fraction(1, 2), "b": Fraction(1, 2)}, {"a": 1, "b": 0}.__getitem__) == {"a": 1}
    with pytest.raises(ValueError, match="impossible"):
        exact.posterior({"a": Fraction(1)}, lambda h: 0)


@pytest.mark.parametrize("preset", ["base", "published-die"])
def test_turn_mean_is_the_limit_of_capped_turns(preset):
    """The uncapped mean is the limit of exact_turn_distance's capped means (tail (2/3)^cap at most)."""
    cfg = pb.Config.presets()[preset]
    free = exact.turn_mean(cfg)
    capped = exact.exact_turn_distance(cfg, from_last=False, max_rerolls=60).mean()
    assert 0 <= free - capped < Fraction(1, 10**6)
    assert exact.turn_mean(pb.Config()) == 7  # 7/3 a roll over a 1/3 chance to stop
    if preset == "base":  # every base face rerolls when last: a chaser on the same space rolls once, then is ahead
        assert exact.chase_turn_mean(cfg, 0) == exact.mean(exact.die(cfg.faces)) + exact.turn_mean(cfg)


def test_beat_chance_equals_rolling_every_pair_of_faces():
    """Efron-style dice: every pair of faces listed; a tie counts half."""
    a, b, c = (2, 2, 4, 4, 9, 9), (1, 1, 6, 6, 8, 8), (3, 3, 5, 5, 7, 7)
    for x, y in itertools.permutations([a, b, c, (1, 2, 3, 4, 5, 6)], 2):
        pairs = list(itertools.product(x, y))
        brute = sum((Fraction(1) if i > j else Fraction(1, 2) if i == j else Fraction(0)) for i, j in pairs) / len(pairs)
        assert exact.beat_chance(exact.die(x), exact.die(y)) == brute
    assert exact.beat_chance(exact.die(a), exact.die(b)) == exact.beat_chance(exact.die(b), exact.die(c)) == Fraction(5, 9)
    assert exact.beat_chance(exact.die(c), exact.die(a)) == Fraction(5, 9)  # a cycle: intransitive


# --- lessons 19-21: streaks, elimination, the first seat (brute force over every case) -------

def _longest(seq, hit) -> int:
    best = run = 0
    for x in seq:
        run = run + 1 if hit(x) else 0
        best = max(best, run)
    return best


@pytest.mark.parametrize("cards, marked", [(7, 2), (8, 3), (6, 0), (5, 5), (9, 1)])
def test_longest_gap_counts_every_place_of_the_marked_cards(cards, marked):
    """Every set of places for the marked cards (each equally likely in a shuffled pile)."""
    brute = Counter()
    for places in itertools.combinations(range(cards), marked):
        brute[_longest(range(cards), lambda i: i not in places)] += 1  # noqa: B023 - called at once
    total = sum(brute.values())
    assert exact.longest_gap(cards, marked) == {m: Fraction(c, total) for m, c in sorted(brute.items())}


@pytest.mark.parametrize("trials, p", [(6, Fraction(1, 3)), (7, Fraction(5, 6)), (5, Fraction(1)), (4, Fraction(0)), (0, Fraction(1, 2))])
def test_longest_run_weighs_every_sequence_of_trials(trials, p):
    brute: Counter = Counter()
    for seq in itertools.product((True, False), repeat=trials):
        w = Fraction(1)
        for x in seq:
            w *= p if x else 1 - p
        brute[_longest(seq, bool)] += w
    assert exact.longest_run(trials, p) == {m: w for m, w in sorted(brute.items()) if w}
    with pytest.raises(ValueError, match="exact chance"):
        exact.longest_run(5, 0.5)


@pytest.mark.parametrize("players, lives", [(2, 1), (3, 2), (4, 2), (3, 3)])
def test_elimination_rounds_follows_every_sequence_of_losers(players, lives):
    """Each round the loser is one of the players still in, each with chance 1/(players in)."""
    brute: Counter = Counter()

    def go(left, rnd, w, outs):
        if len(outs) == 2:
            brute[tuple(outs)] += w
            return
        alive = [i for i in range(players) if left[i] > 0]
        for i in alive:
            nxt = list(left)
            nxt[i] -= 1
            go(nxt, rnd + 1, w / len(alive), outs + ([rnd + 1] if nxt[i] == 0 else []))

    go([lives] * players, 0, Fraction(1), [])
    got = exact.elimination_rounds(players, lives)
    assert got == dict(brute) and sum(got.values()) == 1
    with pytest.raises(ValueError, match="players"):
        exact.elimination_rounds(1, 3)


@pytest.mark.parametrize("players", [1, 2, 3])
def test_race_seat_chances_plays_every_combination_of_turns(players):
    turns = {1: Fraction(1, 6), 2: Fraction(1, 2), 3: Fraction(1, 3)}
    wins = [Fraction(0)] * players
    for combo in itertools.product(turns, repeat=players):
        w = Fraction(1)
        for t in combo:
            w *= turns[t]
        # seats move in order within a round: the first to reach its turn count, the lower seat on a tie
        winner = min(range(players), key=lambda k: (combo[k], k))
        wins[winner] += w
    assert exact.race_seat_chances(turns, players) == wins
    assert sum(wins) == 1
    with pytest.raises(ValueError, match="add up to 1"):
        exact.race_seat_chances({1: Fraction(1, 2)}, 2)
# --- lessons 15-18: each helper against a brute force that shares none of its code ----------

import dataclasses
import math


def test_beta_cdf_equals_integrating_the_polynomial_density():
    """Beta(a, b) with whole a, b has density p^(a-1) (1-p)^(b-1) / B(a, b): expand (1-p)^(b-1)
    and integrate term by term, exactly."""
    from math import factorial

    for a, b in [(1, 1), (2, 5), (7, 3), (12, 30)]:
        norm = Fraction(factorial(a + b - 1), factorial(a - 1) * factorial(b - 1))
        for x in (Fraction(0), Fraction(1, 4), Fraction(2, 3), Fraction(1)):
            integral = sum(Fraction(math.comb(b - 1, i) * (-1) ** i) * x ** (a + i) / (a + i) for i in range(b))
            assert exact.beta_cdf(a, b, x) == norm * integral
        lo, hi = exact.credible_interval(a, b, 0.9)
        assert abs(float(exact.beta_cdf(a, b, Fraction(lo))) - 0.05) < 1e-9
        assert abs(float(exact.beta_cdf(a, b, Fraction(hi))) - 0.95) < 1e-9
    assert exact.beta_posterior(1, 1, 7, 10) == (8, 4) and exact.beta_mean(8, 4) == Fraction(2, 3)
    with pytest.raises(ValueError, match="wins"):
        exact.beta_posterior(1, 1, 11, 10)
    with pytest.raises(ValueError, match="a must be"):
        exact.beta_cdf(0, 1, Fraction(1, 2))


def _rolled_totals(config, turns: int, up_to: int) -> dict[int, Fraction]:
    """Every sequence of faces of `turns` never-last turns (PB-6 to PB-8), listed one roll at a
    time until the total passes up_to: {total: P} for totals <= up_to."""
    n = len(config.faces)
    out: Counter = Counter()

    def roll(total, turns_left, used, p):
        if total > up_to:
            return
        if turns_left == 0:
            out[total] += p
            return
        for v, r in zip(config.faces, config.rerolls):
            again = r == pb.YES and (config.max_rerolls is None or used < config.max_rerolls)
            roll(total + v, turns_left - (not again), used + 1 if again else 0, p / n)

    roll(0, turns, 0, Fraction(1))
    return dict(out)


@pytest.mark.parametrize("preset", ["base", "published-die"])
def test_distance_after_equals_listing_every_roll(preset):
    cfg = pb.Config.presets()[preset]
    for turns, up_to in [(1, 9), (2, 10), (3, 9)]:
        assert exact.distance_after(cfg, turns, up_to) == _rolled_totals(cfg, turns, up_to)
    capped = dataclasses.replace(cfg, max_rerolls=1)
    assert exact.distance_after(capped, 2, 8) == _rolled_totals(capped, 2, 8)


@pytest.mark.parametrize("preset", ["base", "published-die"])
def test_turn_moments_are_the_limit_of_the_listed_turn(preset):
    """The truncated turn's mean and variance approach the formula's as the listing grows."""
    cfg = pb.Config.presets()[preset]
    m, v = exact.turn_moments(cfg)
    d = exact.turn_distance(cfg, 200)
    assert 1 - sum(d.values()) < Fraction(1, 10**9)  # the chance of a turn longer than 200 spaces
    lm = sum(k * p for k, p in d.items())
    lv = sum(k * k * p for k, p in d.items()) - lm * lm
    assert abs(lm - m) < Fraction(1, 10**5) and abs(lv - v) < Fraction(1, 10**2)
    if preset == "base":  # by hand: two white faces (mean 5/2, var 5/4) expected, K's variance 6, a black face's 1
        assert (m, v) == (7, 2 * Fraction(5, 4) + 6 * Fraction(25, 4) + 1)


def test_first_to_finish_and_the_lead_equal_listing_every_race():
    """Three independent lone piglets on a short track: list every triple of finishing turns."""
    cfg = pb.Config()
    trial = exact.time_trial_turns(cfg, 6)
    rounds, seats, gaps = Counter(), Counter(), Counter()
    for ts in itertools.product(trial.items(), repeat=3):
        p = ts[0][1] * ts[1][1] * ts[2][1]
        t = [u for u, _ in ts]
        first = min(t)
        rounds[first] += p
        seats[t.index(first)] += p  # seat order breaks a tie within the round
        gaps[sorted(t)[1] - first] += p
    model = exact.first_to_finish(cfg, 3, 6)
    assert model["rounds"] == {k: v for k, v in rounds.items() if v}
    assert model["seats"] == [seats[j] for j in range(3)]
    assert exact.leaders_lead(cfg, 3, 6) == {k: v for k, v in sorted(gaps.items()) if v}


def _grid_value(m, steps=60):
    """max over row mixes on a grid of min over columns: a lower bound within about 1/steps."""
    best = None
    rows = len(m)
    for w in itertools.product(range(steps + 1), repeat=rows - 1):
        if sum(w) > steps:
            continue
        x = [Fraction(k, steps) for k in w] + [Fraction(steps - sum(w), steps)]
        v = min(sum(x[i] * m[i][j] for i in range(rows)) for j in range(len(m[0])))
        best = v if best is None or v > best else best
    return best


@pytest.mark.parametrize("m", [
    [[3, -1], [-2, 4]],                       # a 2x2 mix: value (12 - 2) / (3 + 4 + 1 + 2) = 1
    [[1, 2], [0, 3]],                         # a saddle point
    [[0, 1, -1], [-1, 0, 1], [1, -1, 0]],     # rock, paper, scissors
    [[2, -1, 0], [-1, 1, 3], [0, 2, -2]],
    [[0, 0, 0], [1, 0, 1], [2, 2, 0], [1, 1, 1]],
])
def test_solve_zero_sum_is_an_equilibrium_and_matches_a_grid_search(m):
    x, y, v = exact.solve_zero_sum(m)
    assert sum(x) == 1 == sum(y) and min(x) >= 0 and min(y) >= 0
    assert all(sum(x[i] * m[i][j] for i in range(len(m))) >= v for j in range(len(m[0])))
    assert all(sum(y[j] * m[i][j] for j in range(len(m[0]))) <= v for i in range(len(m)))
    g = _grid_value(m, 30 if len(m) > 3 else 60)
    assert g <= v < g + Fraction(1, 5)
    if m == [[3, -1], [-2, 4]]:
        assert v == 1 and x == [Fraction(3, 5), Fraction(2, 5)]


def test_guarded_steal_matrix_is_the_die_listed_face_by_face():
    from meeple.rules import duck_duck_bruce as ddb

    cfg = ddb.Config()
    for lead in (-3, -1, 0, 2):
        m = exact.guarded_steal_matrix(cfg, lead)
        for (d, g), p in m.items():
            if d == 0 or d == g:
                want = Fraction(1) if lead > 0 else Fraction(1, 2) if lead == 0 else Fraction(0)
            else:
                after = [lead + (2 * d if f >= d else -2 if f == -1 else 0) for f in cfg.die]
                want = sum(Fraction(1) if a > 0 else Fraction(1, 2) if a == 0 else Fraction(0) for a in after) / len(cfg.die)
            assert p == want, (lead, d, g)
    with pytest.raises(ValueError, match="lead"):
        exact.guarded_steal_matrix(cfg, 1.5)
