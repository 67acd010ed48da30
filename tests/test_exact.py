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
    """Stands in for Chance: hands the dealer a given order of the deck."""

    def __init__(self, order):
        self.order = order

    def shuffled(self, items):
        items = list(items)
        return [items[i] for i in self.order], self

    def __call__(self, seed):  # used as the module's `Chance(seed)`
        return self


@pytest.mark.parametrize("players, hand_sizes", [(3, (2, 1, 1)), (3, (1, 1, 1))])
def test_bucket_brigade_colour_count_equals_every_deal_of_the_real_dealer(monkeypatch, players, hand_sizes):
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
        monkeypatch.setattr(bb, "Chance", ForcedShuffle(order))
        state = bb.new_game(cfg, 0)
        for seat, hand in enumerate(state.hands):
            seen[seat][sum(c.colour == "red" for c in hand)] += 1
            jokers[seat][sum(c.colour is None for c in hand)] += 1
    monkeypatch.undo()
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
