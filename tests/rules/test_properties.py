"""Property tests (hypothesis): rules that must hold for every hand, not just the examples."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.rules.bucket_brigade import Card, Config, round_score
from meeple.rules.chance import Chance

COLOURS = Config().colours
cards = st.builds(Card, st.sampled_from(COLOURS + (None,)), st.sampled_from((1, 2)))
hands = st.lists(cards, max_size=15)
positions = st.fixed_dictionaries({c: st.integers(0, len(Config().track) - 1) for c in COLOURS})


@settings(max_examples=300, deadline=None)
@given(hands, positions, st.booleans(), st.booleans())
def test_base_scoring_is_the_sum_of_each_card_on_its_space(hand, where, ended, floor):
    """BB-9, BB-11: card by card, jokers 0, bonus to the ender, then the floor."""
    cfg = Config(floor_zero=floor)
    total = sum(cfg.track[where[c.colour]] for c in hand if c.colour is not None) + (cfg.bonus if ended else 0)
    assert round_score(hand, where, cfg, ended) == (max(0, total) if floor else total)


@settings(max_examples=300, deadline=None)
@given(hands, positions, st.booleans(), st.randoms())
def test_a_hand_scores_the_same_in_any_order_and_jokers_add_nothing(hand, where, ended, rnd):
    """BB-9/BB-10: scoring depends on which cards are held, not their order; jokers score 0."""
    for cfg in (Config(), Config(advanced=True, bonus=6)):
        shuffled = list(hand)
        rnd.shuffle(shuffled)
        assert round_score(shuffled, where, cfg, ended) == round_score(hand, where, cfg, ended)
        assert round_score(hand + [Card(None, 2)], where, cfg, ended) == round_score(hand, where, cfg, ended)


@settings(max_examples=300, deadline=None)
@given(hands, positions, st.booleans())
def test_advanced_scoring_with_multipliers_two_and_one_is_base_scoring(hand, where, ended):
    """BB-10: a pair worth 2x and a two-step worth 1x is exactly the base game's 1x per card."""
    plain = Config(floor_zero=False)
    flat = Config(advanced=True, pair_multiplier=2, two_step_multiplier=1, floor_zero=False)
    assert round_score(hand, where, flat, ended) == round_score(hand, where, plain, ended)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**62), st.integers(1, 40))
def test_a_shuffle_is_a_permutation_and_a_pure_function_of_the_chance(seed, n):
    out, nxt = Chance(seed).shuffled(range(n))
    assert sorted(out) == list(range(n))
    assert Chance(seed).shuffled(range(n)) == (out, nxt)
