"""meeple's games as OpenSpiel games (issue 14): OpenSpiel's own checks, same games, exact values.

Runs when the optional extra is installed (`make test` installs it); skipped with
the reason otherwise.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional extra meeple[openspiel] (pip install 'meeple[openspiel]')")

import numpy as np  # noqa: E402
from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, expected_game_score  # noqa: E402

from meeple.rules import GAMES, play  # noqa: E402
from meeple.rules import duck_duck_bruce as ddb  # noqa: E402
from meeple.rules import openspiel as mo  # noqa: E402

CASES = [(name, preset) for name, mod in GAMES.items() for preset in mod.Config.presets()]


@pytest.mark.parametrize("name,preset", CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_openspiel_random_sim_test_passes_for_every_game_and_preset(name, preset):
    """OpenSpiel's own consistency checks (legal actions, chance outcomes summing to 1,
    clone, serialize/deserialize, returns) on a random game of every preset."""
    game = pyspiel.load_game(mo.short_name(name), {"preset": preset})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_every_config_field_is_a_game_parameter():
    game = pyspiel.load_game("python_meeple_bucket_brigade", {"players": 4, "bonus": 6, "hand_sizes": "14 12 10"})
    assert game.config.players == 4 and game.config.bonus == 6 and game.config.hand_sizes == (14, 12, 10)
    assert game.num_players() == 4
    for name, mod in GAMES.items():
        spec = pyspiel.load_game(mo.short_name(mod)).get_type().parameter_specification
        assert set(mod.Config.field_types()) <= set(spec), name


def test_bad_parameters_are_refused_with_what_is_allowed():
    with pytest.raises(Exception, match="bonus"):
        pyspiel.load_game("python_meeple_bucket_brigade", {"bonus": -99})
    with pytest.raises(Exception, match="preset"):
        pyspiel.load_game("python_meeple_bucket_brigade", {"preset": "nope"})


def _through_openspiel(name: str, record) -> list[float]:
    """Replay a meeple record in OpenSpiel: chance nodes take the outcome the seed gives,
    decisions the action whose text the record holds."""
    mod = GAMES[name]
    game = mo.load(mod, record.config)
    state = game.new_initial_state()
    moves = iter(record.actions)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(mo.seeded_outcome(record.seed, state.chance_position(), state.chance_kind()))
        else:
            text = next(moves)
            legal = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
            state.apply_action(legal.index(text))
    assert next(moves, None) is None
    assert list(mod.scores(state.meeple_state())) == list(record.scores)
    return state.returns()


@pytest.mark.parametrize("name", list(GAMES))
def test_same_seed_and_moves_give_the_same_game_in_openspiel(name):
    mod = GAMES[name]
    for seed in (1, 2):
        record = play(name, mod.Config(), "heuristic", seed=seed)
        assert _through_openspiel(name, record) == [float(s) for s in record.scores]


def test_seeded_outcomes_reproduce_the_seed_poke_model_too():
    """Bucket King's poke model draws yes/no falls (Chance.happens): two-outcome chance nodes."""
    from meeple.rules import bucket_king as bk

    cfg = bk.Config.presets()["poke"]
    record = play("bucket-king", cfg, "random", seed=5)
    _through_openspiel("bucket-king", record)


# --- exact values: OpenSpiel's policy_value against brute force over every deck order ---

TINY = ddb.Config(players=2, suits=("a", "b"), numbers=(1, 2), bruce_cards=0, rounds=1)


class _FixedDeck:
    """A chance source whose one shuffle returns a given order (no other chance in TINY)."""

    def __init__(self, order):
        self.order = order

    def shuffled(self, items):
        assert sorted(map(str, items)) == sorted(map(str, self.order))
        return list(self.order), self


def _uniform_brute_force(config) -> list[Fraction]:
    """Expected final scores when both players pick uniformly among legal moves,
    over every order of the deck (all equally likely), with Fractions: meeple's
    engine alone, no OpenSpiel."""
    deck = config.deck()
    orders = list(itertools.permutations(deck))

    def value(state) -> list[Fraction]:
        if state.is_over:
            return [Fraction(s) for s in ddb.scores(state)]
        legal = ddb.legal_actions(state)
        total = [Fraction(0)] * config.players
        for a in legal:
            total = [t + v / len(legal) for t, v in zip(total, value(ddb.apply(state, a)))]
        return total

    total = [Fraction(0)] * config.players
    for order in orders:
        v = value(ddb.new_game(config, chance=_FixedDeck(order)))
        total = [t + x / len(orders) for t, x in zip(total, v)]
    return total


def test_policy_value_equals_brute_force_over_every_deck_order():
    """OpenSpiel's expected_game_score.policy_value (uniform random play) on a 4-card
    Duck, Duck, Bruce deck equals the exact expectation over all 24 deck orders; the
    module's Fraction version equals it exactly."""
    exact = _uniform_brute_force(TINY)
    game = mo.load("duck-duck-bruce", TINY)
    uniform = os_policy.UniformRandomPolicy(game)
    values = expected_game_score.policy_value(game.new_initial_state(), [uniform] * 2)
    assert values == pytest.approx([float(x) for x in exact], abs=1e-9)

    def uniform_f(state):
        legal = state.legal_actions()
        return {a: Fraction(1, len(legal)) for a in legal}

    assert mo.exact_value(game.new_initial_state(), [uniform_f, uniform_f]) == exact


def test_first_turn_value_agrees_with_flip_values():
    """Seat 1 flips once more at its first decision, then stops. Its expected nest
    when the turn passes, summed over OpenSpiel's explicit chance nodes (the
    shuffle), equals meeple's exact helper flip_values averaged over the first
    card (DDB-5: a double loses the row from the matching duck on)."""
    cfg = ddb.Config(players=2, suits=("a", "b", "c"), numbers=(1, 2), bruce_cards=0, rounds=1)
    game = mo.load("duck-duck-bruce", cfg)

    def first_turn(state) -> Fraction:
        if state.is_chance_node():
            n = state.chance_kind()[1]
            return sum((first_turn(state.child(o)) for o, _ in state.chance_outcomes()), Fraction(0)) / n
        st = state.meeple_state()
        if state.is_terminal() or st.current_player != 0:
            return Fraction(ddb.nest_score(st.nests[0]))
        legal = state.legal_actions()
        texts = [state.action_to_string(0, a) for a in legal]
        want = "flip" if len(st.row) == 1 else "stop"
        return first_turn(state.child(legal[texts.index(want)]))

    deck = cfg.deck()
    expected = sum(
        ddb.flip_values([first], [c for i, c in enumerate(deck) if i != k])[1] for k, first in enumerate(deck)
    ) / len(deck)
    assert first_turn(game.new_initial_state()) == expected


# --- bots both ways ------------------------------------------------------------

def test_meeple_bots_play_in_openspiels_evaluate_bots():
    game = mo.load("piggyback-brigade")
    bots = [mo.MeepleBot(game, p, "heuristic", seed=p) for p in range(game.num_players())]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
    assert len(returns) == game.num_players() and max(returns) > 0


def test_ismcts_is_a_meeple_bot_when_openspiel_is_installed():
    mod = GAMES["piggyback-brigade"]
    assert "ismcts" in mod.BOTS
    a = play("piggyback-brigade", None, ["ismcts", "random", "random", "random"], seed=4)
    b = play("piggyback-brigade", None, ["ismcts", "random", "random", "random"], seed=4)
    assert a == b  # seeded: the bot's rng seeds the search


def test_chance_nodes_are_explicit_with_true_probabilities():
    game = mo.load("duck-duck-bruce")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == len(game.config.deck())  # the first Fisher-Yates step of the shuffle
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["bucket-brigade", "bucket-king"])
def test_information_state_hides_other_hands(name):
    """Resampling what seat 1 cannot see changes the other hands but not seat 1's
    information state string: no hidden card leaks into it."""
    game = mo.load(name)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node() or state.current_player() != 0:
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    mine = state.information_state_string(0)
    others = [tuple(h) for h in state.meeple_state().hands[1:]]
    changed = 0
    for k in range(10):
        twin = state.resample_from_infostate(0, lambda: rng.random())
        assert twin.information_state_string(0) == mine
        changed += [tuple(h) for h in twin.meeple_state().hands[1:]] != others
    assert changed > 0
    assert state.information_state_string(1) != mine
