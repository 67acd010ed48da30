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

import numpy as np
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import evaluate_bots, expected_game_score

from meeple.rules import GAMES, play
from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import openspiel as mo

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
        record = play(name, mod.Config(), "heuristic", seed=seed, chance=1)  # seeded_outcome: version 1
        assert _through_openspiel(name, record) == [float(s) for s in record.scores]


def test_seeded_outcomes_reproduce_the_seed_poke_model_too():
    """Bucket King's poke model draws yes/no falls (Chance.happens): two-outcome chance nodes."""
    from meeple.rules import bucket_king as bk

    cfg = bk.Config.presets()["poke"]
    record = play("bucket-king", cfg, "random", seed=5, chance=1)
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
    for _ in range(10):
        twin = state.resample_from_infostate(0, lambda: rng.random())
        assert twin.information_state_string(0) == mine
        changed += [tuple(h) for h in twin.meeple_state().hands[1:]] != others
    assert changed > 0
    assert state.information_state_string(1) != mine


# --- issue 19, item 4: every Config validation accepts is an OpenSpiel game that passes its checks ----

import dataclasses
import typing

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from meeple.rules.config import split_optional

UTILITIES = ("score", "win")


def _accepted(cfg, **change):
    try:
        return dataclasses.replace(cfg, **change)
    except (ValueError, TypeError):
        return None


def _edge(cfg, name: str, start: int, step: int) -> int:
    """The last whole number validation accepts from `start` on, going by `step` (+1 or -1)."""
    at, jump = start, step
    while abs(jump) < 2**20 and _accepted(cfg, **{name: at + jump}):
        at, jump = at + jump, jump * 2
    while abs(jump) > 1:
        jump //= 2 if jump > 0 else -2
        jump = jump if step > 0 else -abs(jump)
        if _accepted(cfg, **{name: at + jump}):
            at += jump
    return at


def _short(cfg):
    """One round where a game counts rounds (Bucket Brigade, Duck, Duck, Bruce by rounds): every other
    field is still played whole, in a fraction of the time (random_sim_test serialises at every step)."""
    if hasattr(cfg, "rounds") and getattr(cfg, "end", "rounds") == "rounds":
        return _accepted(cfg, rounds=1) or cfg
    return cfg


# A bound that is a game's length itself (50 rounds, a race to 10,000 points) takes minutes to play at
# random through the wrapper: those are loaded and serialised 300 steps in, not played out.
LONG = {("bucket-brigade", "rounds"), ("duck-duck-bruce", "rounds"), ("duck-duck-bruce", "target")}


def _bounds(name: str):
    """(field, value, config) for every field of the base game at each end of what validation accepts:
    whole numbers at their least and greatest, an optional one at none, a flag flipped, a probability at
    0 and 1, a tuple of one value (a game string reads "1" back as a number)."""
    mod = GAMES[name]
    base = mod.Config()
    for field, hint in mod.Config.field_types().items():
        inner, optional = split_optional(hint)
        value = getattr(base, field)
        context = base
        if field == "target" and hasattr(base, "end"):
            context = dataclasses.replace(base, end="target")
        if field == "fall_probability":
            context = dataclasses.replace(base, fall_model="poke")
        values = []
        if inner is int:
            start = value if value is not None else next(k for k in range(100) if _accepted(context, **{field: k}))
            values = [_edge(context, field, start, -1), _edge(context, field, start, 1)] + ([None] if optional else [])
        elif inner is bool:
            values = [not value]
        elif inner is float:
            values = [0.0, 1.0]
        elif typing.get_origin(inner) is tuple and value:
            values = [value[:1]]
        for v in dict.fromkeys(values):
            cfg = _accepted(context, **{field: v})
            if cfg is None and isinstance(v, tuple):  # tuples that go together (a die's faces and colours) cut together
                alike = {f: getattr(base, f)[:1] for f, h in mod.Config.field_types().items()
                         if typing.get_args(h)[1:] == (Ellipsis,) and len(getattr(base, f)) == len(value)}
                cfg = _accepted(context, **alike)
            if cfg is not None:
                yield field, v, cfg if (name, field) in LONG else (_short(cfg) if field != "rounds" else cfg)


BOUNDS = [(name, field, v, cfg) for name in GAMES for field, v, cfg in _bounds(name)]


def _check(name: str, cfg, utility: str, long: bool = False) -> None:
    game = mo.load(name, cfg, utility=utility)
    assert game.config == cfg
    if not long:
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
        return
    state, rng = game.new_initial_state(), random.Random(1)
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    again_game, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert again_game.config == cfg and str(again) == str(state) and again.history() == state.history()


def test_the_bounds_cover_every_game_and_hit_the_reported_cases():
    seen = {(n, f, v) for n, f, v, _ in BOUNDS}
    assert {n for n, *_ in seen} == set(GAMES)
    assert {("bucket-brigade", "rounds", 50), ("bucket-brigade", "rounds", None),
            ("piggyback-brigade", "max_rerolls", 99), ("piggyback-brigade", "faces", (1,))} <= seen


# each bound with one utility, the two in turn (both, each a game, doubled the time): every game's
# fields meet both; the presets below all play "win" (the test above plays them with "score")
BOUND_CASES = [(*case, UTILITIES[i % 2]) for i, case in enumerate(BOUNDS)]


@pytest.mark.parametrize("name,field,value,cfg,utility", BOUND_CASES,
                         ids=[f"{n}-{f}={v}-{u}" for n, f, v, _, u in BOUND_CASES])
def test_every_field_at_its_bounds_passes_random_sim_test(name, field, value, cfg, utility):
    """Issue 19: an optional number or a one-value tuple did not survive a game string;
    "win" said general-sum with a utility sum."""
    _check(name, cfg, utility, long=(name, field) in LONG)


@pytest.mark.parametrize("name,preset", CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_every_preset_passes_random_sim_test_with_the_win_utility(name, preset):
    _check(name, _short(GAMES[name].Config.presets()[preset]), "win")


@st.composite
def _configs(draw, name: str):
    """An accepted Config of `name`: each whole-number field anywhere between its bounds (or none), flags
    either way, a tuple whole or cut to one value; a draw validation refuses is drawn again."""
    mod = GAMES[name]
    base = mod.Config()
    ranges = {f: v for n, f, v, _ in BOUNDS if n == name}
    changes = {}
    for field, hint in mod.Config.field_types().items():
        inner, optional = split_optional(hint)
        value = getattr(base, field)
        if not draw(st.booleans()):
            continue
        if inner is int and field not in ("rounds", "target"):
            numbers = [v for (n, f, v, _) in BOUNDS if n == name and f == field and isinstance(v, int)]
            lo, hi = min(numbers, default=0), max(numbers, default=0)
            changes[field] = draw(st.integers(lo, min(hi, lo + 12)) | (st.none() if optional else st.nothing()))
        elif inner is bool:
            changes[field] = draw(st.booleans())
        elif typing.get_origin(inner) is tuple and value and field in ranges:
            changes[field] = draw(st.sampled_from([value, value[:1]]))
    cfg = _accepted(base, **changes)
    from hypothesis import assume

    assume(cfg is not None)
    return _short(cfg)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_sample_of_accepted_configs_passes_random_sim_test(name):
    # no shrinking: a failing draw is reported as drawn (shrinking a whole game took minutes)
    @settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
              phases=[Phase.explicit, Phase.generate])
    @given(_configs(name), st.sampled_from(UTILITIES))
    def check(cfg, utility):
        _check(name, cfg, utility)

    check()


def test_bucket_king_numbers_as_many_actions_as_its_config_allows():
    """Issue 19: a hand of 20 cards of one colour playing up to 10 at once offers more than the old cap of
    1,024 moves; the game's action count is Bucket King's exact bound for the config, and a game plays through."""
    from meeple.rules import bucket_king as bk

    cfg = bk.Config(players=2, colours=("red",), copies=10, buckets_per_colour=(15,) * 5, max_cards=10, hand_size=20)
    game = mo.load("bucket-king", cfg)
    assert game.num_distinct_actions() == bk.action_bound(cfg) > 1024
    state = game.new_initial_state()
    rng, most = random.Random(3), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        else:
            legal = state.legal_actions()
            most = max(most, len(legal))
            state.apply_action(rng.choice(legal))
    assert 1024 < most <= game.num_distinct_actions()


def test_a_config_openspiel_cannot_number_is_refused_in_one_line():
    from meeple.rules import bucket_king as bk

    cfg = bk.Config(special_one=True, special_one_max=10, max_cards=10, draw_per_turn=2)
    with pytest.raises(ValueError) as err:
        mo.load("bucket-king", cfg)
    assert "\n" not in str(err.value) and "more than OpenSpiel can number" in str(err.value)


def test_an_openspiel_action_out_of_range_is_a_value_error():
    state = mo.load("bucket-brigade").new_initial_state()
    with pytest.raises(ValueError, match="chance outcome 5000 is not one of the"):
        state.apply_action(5000)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    n = len(state.legal_actions())
    with pytest.raises(ValueError, match=f"action {n + 7} is not legal here: the legal ids are 0 to {n - 1}"):
        state.apply_action(n + 7)


def _one_bucket_rows():
    """Bucket King pyramids `play` accepts with a one-bucket row: first, last, in the middle, all of them."""
    base = GAMES["bucket-king"].Config().pyramid_rows
    yield tuple((1,) if i == 0 else r for i, r in enumerate(base))
    yield tuple((1,) if i == len(base) - 1 else r for i, r in enumerate(base))
    yield tuple((2, 1) if i == 2 else (1,) if i == 1 else r for i, r in enumerate(base))
    yield tuple((1,) for _ in base)


@pytest.mark.parametrize("rows", list(_one_bucket_rows()), ids=["first", "last", "middle", "all"])
def test_every_pyramid_play_accepts_loads_in_openspiel_and_passes_random_sim_test(rows):
    """A one-bucket row was written "1 " (a one-value tuple, see _text) and read back joined to
    the next row ("1,/5,..."): OpenSpiel refused a config that `play` accepts (issue 33)."""
    config = GAMES["bucket-king"].Config(pyramid_rows=rows)
    play("bucket-king", config, bots="random", seed=1)  # play accepts it
    game = mo.load("bucket-king", config)
    assert game.config == config
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
