"""Chance version 2 (issue 35): one Mersenne Twister per game and purpose, seeded by integer
arithmetic; records carry their version and version 1 still replays; the two versions deal
games of the same distribution (a modest-size check here, the full size in `make bench`)."""

from __future__ import annotations

import json
import math
import pickle
import random
import sys
from pathlib import Path

import pytest

from meeple.rules import GAMES, play, replay
from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import piggyback_brigade as pb
from meeple.rules.chance import CHANCE, DEAL, DICE, SEAT, Chance, Chance2, game_seed, start, stream
from meeple.rules.core import resolve_bots
from meeple.rules.protocol import LazySeatRandom, bot_rng
from meeple.rules.sim.play import play_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_agreement  # noqa: E402 - after the sys.path line that makes it importable


def test_new_games_and_records_are_version_2_and_say_so():
    assert CHANCE == 2
    rec = play("duck-duck-bruce", None, "random", seed=4)
    data = json.loads(rec.to_json())
    assert data["chance"] == 2 and rec.chance == 2
    assert replay(rec.to_json()) == rec
    # the same record read as version 1 is another game: its actions do not fit, or its scores differ
    data.pop("chance")
    with pytest.raises(ValueError):
        replay(json.dumps(data))


def test_version_1_records_are_written_and_replayed_as_before():
    rec = play("bucket-brigade", None, "random", seed=4, chance=1)
    data = json.loads(rec.to_json())
    assert "chance" not in data  # byte for byte a record of the meeple before version 2
    assert replay(rec.to_json()).to_json() == rec.to_json()


@pytest.mark.parametrize("bad", [0, 3, "2", 2.0, None, True])
def test_a_records_chance_must_be_a_known_version(bad):
    data = json.loads(play("piggyback-brigade", None, "random", seed=1).to_json())
    data["chance"] = bad
    with pytest.raises(ValueError, match=r"^record field 'chance' must be one of 1, 2, got "):
        replay(json.dumps(data))


def test_values_are_the_mersenne_twister_of_seed_times_256_plus_purpose():
    seed = 12345
    dice, deal = stream(seed, DICE), stream(seed, DEAL)
    assert stream(seed, DICE).getstate() == random.Random(seed * 256 + 1).getstate()
    ch = Chance2.of(seed)
    rolls = []
    for n in (6, 6, 2, 100, 1):
        r, ch = ch.below(n)
        rolls.append(r)
    assert rolls == [(dice.getrandbits(64) * n) >> 64 for n in (6, 6, 2, 100, 1)]
    deck, ch = ch.shuffled(range(10))
    want = list(range(10))
    for i, x in zip(range(9, 0, -1), [deal.getrandbits(64) for _ in range(9)]):
        j = (x * (i + 1)) >> 64
        want[i], want[j] = want[j], want[i]
    assert deck == want and (ch.deal, ch.dice) == (9, 5)
    # each seat's bot: its own stream, seeded now or on first use alike
    assert bot_rng(seed, 2).random() == random.Random(seed * 256 + SEAT + 2).random() == LazySeatRandom(seed, 2).random()
    assert bot_rng(seed, 2, chance=1).random() == LazySeatRandom(seed, 2, 1).random() != bot_rng(seed, 2).random()


def test_values_drawn_in_batches_are_those_drawn_one_at_a_time():
    """The deal's shuffle and the dice draw many 64-bit values in one wide getrandbits call (and the
    dice a batch ahead): the values, across batch boundaries, are getrandbits(64)'s one at a time."""
    seed = 98765
    dice, deal = stream(seed, DICE), stream(seed, DEAL)
    ch = Chance2.of(seed)
    rolls = []
    for _ in range(40):  # past two dice batches
        r, ch = ch.below(1 << 62)
        rolls.append(r)
    assert rolls == [(dice.getrandbits(64) * (1 << 62)) >> 64 for _ in range(40)]
    deck, ch = ch.shuffled(range(70))
    deck2, ch = ch.shuffled(range(3))
    want = list(range(70))
    for i in range(69, 0, -1):
        j = (deal.getrandbits(64) * (i + 1)) >> 64
        want[i], want[j] = want[j], want[i]
    again = list(range(3))
    for i in range(2, 0, -1):
        j = (deal.getrandbits(64) * (i + 1)) >> 64
        again[i], again[j] = again[j], again[i]
    assert (deck, deck2, ch.deal, ch.dice) == (want, again, 71, 40)


def test_a_chance2_is_immutable_so_an_earlier_state_draws_the_same_again():
    ch = start(7)
    a, later = ch.below(1000)
    for _ in range(50):
        _, later = later.below(6)
    assert ch.below(1000)[0] == a  # after the stream went on
    copy = pickle.loads(pickle.dumps(later))
    assert copy == later and copy.below(6) == later.below(6)  # drawn again from the seed
    assert Chance2.of(7) == Chance2.of(7) != Chance2.of(8) and Chance2.of(7) != Chance(7)


def test_game_i_of_a_run_is_seed_times_2_to_32_plus_i_and_replays_alone():
    assert game_seed(3, 5) == 3 * 2**32 + 5 and game_seed(3, 5, 1) != game_seed(3, 5)
    with pytest.raises(ValueError, match="game index must be from 0 to"):
        game_seed(3, 2**32)
    names, funcs = resolve_bots(ddb, "heuristic", 4)
    g = play_game(ddb, ddb.Config(), names, funcs, 3, 5)
    rec = play(ddb, ddb.Config(), "heuristic", game_seed(3, 5))
    assert (g.seed, g.scores, g.actions) == (game_seed(3, 5), rec.scores, len(rec.actions))


def test_a_shuffle_and_a_roll_come_from_their_own_streams():
    """The deal does not move when the dice are rolled more or less, and the other way round."""
    a, b = start(9), start(9)
    for _ in range(7):
        _, b = b.below(6)  # b rolled seven dice first
    assert a.shuffled(range(40))[0] == b.shuffled(range(40))[0]
    _, a2 = a.shuffled(range(40))
    assert a2.below(6)[0] == start(9).below(6)[0]


def test_two_variants_share_the_deal_where_the_rules_draw_the_same():
    """Duck, Duck, Bruce with two steal dice: each round's pile is the same on the same seeds
    (version 1 drew the steals and the shuffles from one stream: a different die dealt other piles)."""
    other_die = ddb.Config(die=(1, 1, 2, 2, 3, -1))
    for seed in range(6):
        piles = []
        for config in (ddb.Config(), other_die):
            state, seen = ddb.new_game(config, seed), []
            rng = random.Random(seed)
            while not state.is_over:
                if state.round == len(seen):
                    seen.append(tuple(state.pile))
                state = ddb.apply(state, rng.choice(ddb.legal_actions(state)))
            piles.append(seen)
        assert all(x == y for x, y in zip(*piles)), seed


AGREEMENT_GAMES = 300  # per game and version: `make bench` runs bench_agreement.py --chance at 5,000 a case


def test_versions_1_and_2_deal_games_of_the_same_distribution():
    """Mean score and win rate per seat and the game's length, random bots, every game's base rules:
    Holm-corrected two-sample z-tests of version 1 against version 2 (bench_agreement's own)."""
    rows = []
    for name in sorted(GAMES):
        v1, v2 = bench_agreement.play_versions(name, "base", "random", AGREEMENT_GAMES, 1)
        rows += bench_agreement.compare(v1, v2)
    adjusted = bench_agreement.holm([r[3] for r in rows])
    bad = [(r[0], r[1], r[2], p) for r, p in zip(rows, adjusted) if p < bench_agreement.ALPHA]
    assert not bad, bad
    assert len(rows) > 20 and all(math.isfinite(r[1]) for r in rows)


def test_the_agreement_check_can_fail():
    """The same check rejects two different rule sets (Piggyback's base track against one 12 spaces longer)."""
    mod = pb
    names, funcs = resolve_bots(mod, "random", 4)
    short = [play_game(mod, mod.Config(), names, funcs, 1, i) for i in range(AGREEMENT_GAMES)]
    long = [play_game(mod, mod.Config(sections=mod.Config().sections + (3, 3, 3, 3)), names, funcs, 1, i, chance=1)
            for i in range(AGREEMENT_GAMES)]
    rows = bench_agreement.compare(short, long)
    assert min(bench_agreement.holm([r[3] for r in rows])) < bench_agreement.ALPHA
