"""The shared machinery: chance, configs (and variant files), records and replay."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from meeple.rules import GAMES, play, replay
from meeple.rules.bucket_brigade import Config
from meeple.rules.chance import Chance, check_seed, derive
from meeple.rules.core import MAX_STEPS
from meeple.rules.stats import binomial_two_sided_p, mean_ci, wilson

BB = "bucket-brigade"


def test_chance_is_a_pure_function_of_seed_and_counter():
    a, a2 = Chance(7).below(6)
    b, b2 = Chance(7).below(6)
    assert (a, a2) == (b, b2) and a2.counter == 1
    assert Chance(7).shuffled(range(20))[0] == Chance(7).shuffled(range(20))[0]
    assert Chance(7).shuffled(range(20))[0] != Chance(8).shuffled(range(20))[0]


def test_die_rolls_are_uniform():
    """60,000 rolls of a d6: chi-square below the 0.1% critical value (20.5, 5 df)."""
    c, counts = Chance(2026), Counter()
    for _ in range(60_000):
        v, c = c.below(6)
        counts[v] += 1
    chi2 = sum((counts[k] - 10_000) ** 2 / 10_000 for k in range(6))
    assert chi2 < 20.5


def test_shuffles_are_uniform_over_orders():
    """All 24 orders of 4 cards appear about equally often (chi-square, 23 df, 0.1%: 49.7)."""
    counts = Counter(tuple(Chance(s).shuffled("abcd")[0]) for s in range(24_000))
    assert len(counts) == 24
    assert sum((v - 1000) ** 2 / 1000 for v in counts.values()) < 49.7


def test_derived_seeds_depend_only_on_the_labels():
    assert derive(1, "game", 5) == derive(1, "game", 5)
    assert len({derive(1, "game", i) for i in range(1000)}) == 1000
    for bad in (-1, 1.5, "3", True, None):
        with pytest.raises(ValueError, match="seed must be a whole number"):
            check_seed(bad)


def test_record_json_round_trips_and_replays_exactly():
    rec = play("bucket-brigade", Config(players=3), ["heuristic", "random", "lookahead"], 12)
    data = json.loads(rec.to_json())
    assert data["bots"] == ["heuristic", "random", "lookahead"]
    assert data["config"]["players"] == 3
    again = replay(rec.to_json())
    assert again == rec and again.state == rec.state


def _tampered(**changes):
    data = json.loads(play("bucket-brigade", None, "random", 3).to_json())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "malformed JSON"),
        ("[1, 2]", "expected a JSON object"),
        (json.dumps({"format": "x"}), "format must be"),
        (_tampered(game="chess"), "unknown game 'chess'"),
        (_tampered(seed=-4), "record seed must be a whole number"),
        (_tampered(seed="4"), "record seed must be a whole number >= 0, got '4'"),
        (_tampered(config={"players": 9}), "players=9 is not allowed: 3 to 5"),
        (_tampered(config={"wings": 2}), "unknown config field(s) wings"),
        (_tampered(config={"bonus": "6"}), "bonus: expected int"),
        (_tampered(actions=["red +1"] * 3 + ["purple +9"]), "is not legal here"),
        (_tampered(actions=[4]), "must be text"),
        (_tampered(scores=[0, 0, 0, 99]), "replaying its actions gives"),
        (_tampered(bots=[]), "'bots' must name one bot per player (4)"),
        (_tampered(bots=["random", "random", "random", 7]), "'bots' must name one bot per player"),
        (_tampered(bots=["\x1b]0;pwned\x07\x1b[2Jheuristic"] + ["random"] * 3),
         "record field 'bots': bot 1's name must be printable text of 1 to 80 characters (no control characters"),
        (_tampered(bots=["random", "h" * 81, "random", "random"]), "bot 2's name must be printable text of 1 to 80"),
    ],
)
def test_bad_records_are_refused_with_a_clear_message(text, message):
    with pytest.raises(ValueError) as err:
        replay(text)
    assert message in str(err.value)


@pytest.mark.parametrize("name", list(GAMES))
def test_a_record_whose_config_lacks_a_field_is_refused_not_replayed_under_the_default(name):
    """A deleted field (with its scores gone too, nothing else would notice) named in the message;
    an empty seat handicap is the one field a record may leave out (to_dict does; older records lack it)."""
    from meeple.rules.config import SEAT_HANDICAPS

    data = play(name, None, "random", 3).to_dict()
    for key in ("round_scores", "scores", "winners"):
        del data[key]
    assert not set(data["config"]) & set(SEAT_HANDICAPS)  # an empty handicap is left out, and replays
    assert replay(json.dumps(data)).config == GAMES[name].Config()
    for field in data["config"]:
        partial = {**data, "config": {k: v for k, v in data["config"].items() if k != field}}
        with pytest.raises(ValueError, match=rf"^record config lacks field\(s\) {field}; a saved record names every field"):
            replay(json.dumps(partial))


def test_a_record_keeps_the_names_of_seats_that_are_not_the_games_bots():
    """The Stepper records the reader's seat as "you" and play() a bot function by its name:
    those records replay; a function whose name no record could hold is refused before it plays."""
    def my_bot(observation, legal, rng):
        return legal[0]

    rec = play(BB, None, [my_bot, "random", "random", "random"], 3)
    data = rec.to_dict()
    data["bots"][1] = "you"
    assert replay(json.dumps(data)).bots == ("my_bot", "you", "random", "random")
    my_bot.__name__ = "my\x1b[2Jbot"
    with pytest.raises(ValueError, match=r"a bot function's __name__ must be printable text .* got 'my\\x1b\[2Jbot'"):
        play(BB, None, [my_bot, "random", "random", "random"], 3)


def test_a_record_of_an_unfinished_game_replays_to_the_same_point():
    from meeple.rules import bucket_brigade as bb
    from meeple.rules.core import make_record

    s = bb.new_game(Config(), 4)
    actions = []
    for _ in range(5):
        a = bb.legal_actions(s)[0]
        actions.append(str(a))
        s = bb.apply(s, a)
    rec = make_record(bb, Config(), 4, ["human"] * 4, actions, s)
    again = replay(rec.to_json())
    assert not again.finished and again.state == s


def test_replay_function_refuses_deep_json_with_a_value_error():
    with pytest.raises(ValueError, match="nested too deeply"):
        replay("[" * 200_000 + "]" * 200_000)
    with pytest.raises(ValueError, match="nested too deeply"):
        replay('{"format": "meeple-record/1", "config": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(ValueError, match="expected its JSON text"):
        replay({"format": "meeple-record/1"})

    data = play(BB, None, "random", 1).to_dict()
    data["actions"] = ["red +1"] * (MAX_STEPS + 1)  # 1.2 MB: well under the CLI's 64 MiB, refused at once
    with pytest.raises(ValueError, match=f"record has {MAX_STEPS + 1:,} actions; a game ends within {MAX_STEPS:,}"):
        replay(json.dumps(data))


def test_play_checks_its_arguments():
    with pytest.raises(ValueError, match="need 4 bots"):
        play("bucket-brigade", None, ["random", "random"], 1)
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        play("bucket-brigade", None, "genius", 1)
    with pytest.raises(ValueError, match="unknown game"):
        play("bucket-queen", None, "random", 1)
    with pytest.raises(ValueError, match="seed"):
        play("bucket-brigade", None, "random", -1)


def test_a_bot_that_cheats_is_caught():
    def cheat(obs, legal, rng):
        return "everything"

    with pytest.raises(ValueError, match="not legal"):
        play("bucket-brigade", None, [cheat] * 4, 1)


def test_config_json_checks_types_field_by_field():
    for mod in GAMES.values():
        cfg = mod.Config()
        assert mod.Config.from_dict(json.loads(json.dumps(cfg.to_dict()))) == cfg
    with pytest.raises(ValueError, match="must be an object"):
        Config.from_dict([1])
    with pytest.raises(ValueError, match="track: expected a list"):
        Config.from_dict({"track": 3})
    with pytest.raises(ValueError, match="advanced: expected bool"):
        Config.from_dict({"advanced": 1})


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_a_5000_digit_number_in_a_variant_file_is_named_with_the_file(tmp_path, suffix):
    path = tmp_path / f"huge{suffix}"
    big = "9" * 5000
    path.write_text(f'{{"game": "bucket-brigade", "set": {{"bonus": {big}}}}}' if suffix == ".json"
                    else f'game = "bucket-brigade"\n[set]\nbonus = {big}\n')
    with pytest.raises(ValueError) as e:
        Config.load(path)
    assert str(e.value).startswith(f"{path}: holds a number of more than 4,300 digits") and "\n" not in str(e.value)


def test_wilson_interval_known_values():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == pytest.approx(0, abs=1e-12)
    assert wilson(10, 10)[1] == pytest.approx(1, abs=1e-12)


def test_wilson_interval_covers_a_known_rate_about_95_percent_of_the_time():
    """Coverage check: 2,000 seeded samples of 200 Bernoulli(0.3) trials."""
    import random

    rng, hits = random.Random(5), 0
    for _ in range(2000):
        k = sum(rng.random() < 0.3 for _ in range(200))
        low, high = wilson(k, 200)
        hits += low <= 0.3 <= high
    assert 0.93 <= hits / 2000 <= 0.97


def test_mean_ci_and_binomial_test():
    m, low, high = mean_ci([1, 2, 3, 4, 5])
    assert m == 3 and low < 3 < high
    assert binomial_two_sided_p(5, 10, 0.5) == pytest.approx(1.0)
    assert binomial_two_sided_p(0, 10, 0.5) == pytest.approx(2 / 1024)


def test_lookahead_scores_a_round_ending_move_at_the_end_of_that_round():
    """A move that ends the round must not be played on through the next round
    (every move is compared at the same horizon: the end of the current round)."""
    from meeple.rules import bucket_brigade as bb
    from meeple.rules.bots import rollout

    s = bb.new_game(Config(), 3)
    while True:  # find a position where some legal move ends the round
        ending = [a for a in bb.legal_actions(s) if bb.apply(s, a).round != s.round]
        if ending:
            break
        s = bb.apply(s, bb.legal_actions(s)[0])
    after = bb.apply(s, ending[0])
    import random

    value = rollout(bb, after, s.current_player, random.Random(1), start_round=s.round)
    scores = bb.scores(after)
    me = s.current_player
    assert value == scores[me] - max(v for i, v in enumerate(scores) if i != me)  # no further play
    with pytest.raises(ValueError, match="to='rounds' is not allowed"):
        rollout(bb, after, me, random.Random(1), to="rounds")


@pytest.mark.parametrize("name", list(GAMES))
def test_configs_built_in_python_are_type_checked_for_every_game(name):
    """Config(players=True) or Config(players="4") is refused with the field named,
    in every game (the check lives in RuleConfig, before the game's own checks)."""
    cfg = GAMES[name].Config
    for bad in (True, "4", 4.0, None):
        with pytest.raises(ValueError, match=rf"players={bad!r} is not allowed: a whole number"):
            cfg(players=bad)


def test_a_list_from_a_notebook_is_taken_as_a_tuple():
    cfg = Config(track=[0, -1, 2], hand_sizes=[10, 10, 10])
    assert cfg.track == (0, -1, 2) and cfg.hand_sizes == (10, 10, 10)
    assert hash(cfg) == hash(Config(track=(0, -1, 2), hand_sizes=(10, 10, 10)))
    with pytest.raises(ValueError, match="hand_sizes=.* is not allowed: a tuple of 3 values"):
        Config(hand_sizes=(10, 10))


def test_whole_shuffles_and_samples_are_the_values_of_successive_below_calls():
    """A shuffle (Fisher-Yates) and a sample draw their values at once (numpy for 16 or
    more, plain Python below that): each must equal what one below() call per step gives,
    so records do not depend on how the draws were computed."""
    import random

    def by_steps(chance, items, k=None):
        out = list(items)
        if k is None:  # shuffle: below(i + 1) for i = n-1 .. 1
            for i in range(len(out) - 1, 0, -1):
                j, chance = chance.below(i + 1)
                out[i], out[j] = out[j], out[i]
            return out, chance
        for i in range(k):  # sample: below(n - i) for i = 0 .. k-1
            j, chance = chance.below(len(out) - i)
            out[i], out[i + j] = out[i + j], out[i]
        return out[:k], chance

    rng = random.Random(5)
    for _ in range(400):
        c = Chance(rng.choice([0, 1, rng.getrandbits(63), rng.getrandbits(80)]), rng.choice([0, 7, rng.getrandbits(60)]))
        n = rng.choice([0, 1, 2, 15, 16, 17, 55, 66, rng.randrange(200)])
        assert c.shuffled(range(n)) == by_steps(c, range(n))
        k = rng.randrange(n + 1)
        assert c.sample(range(n), k) == by_steps(c, range(n), k)


def test_a_game_cores_in_place_draws_are_chances_below():
    """below_at(stream_key(seed), counter, n), what a game core rolls its dice with, is
    Chance(seed, counter).below(n)'s value for every seed, counter and die size."""
    import random

    from meeple.rules.chance import below_at, stream_key

    rng = random.Random(7)
    for _ in range(3000):
        seed = rng.choice([0, 1, rng.getrandbits(63), rng.getrandbits(64), rng.getrandbits(130)])
        counter, n = rng.choice([0, 1, rng.getrandbits(20), rng.getrandbits(64)]), rng.choice([1, 2, 6, 7, 30, rng.getrandbits(40) + 1])
        assert below_at(stream_key(seed), counter, n) == Chance(seed, counter).below(n)[0]


def test_derive_is_blake2b_of_the_labels_text_in_every_shape():
    """The fast path for ("game", i) and ("bot", k) gives the documented value."""
    import hashlib

    def documented(seed, *labels):
        text = repr((seed, labels)).encode()
        return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1

    for seed in (0, 1, 2**63 - 1, 2**64 + 5, 10**40):
        for labels in [("game", 0), ("game", 123456), ("bot", 3), ("bot", True), ("bot", -1), ("h2h", 2),
                       ("skill",), ("game", 1, 2), ("game", "1")]:
            assert derive(seed, *labels) == documented(seed, *labels), (seed, labels)


def test_a_seat_stream_seeded_on_first_use_is_bot_rng_exactly():
    """simulate seeds a seat's bot stream only when the bot first draws: every Random
    method, a copy and a pickle give bot_rng(seed, seat)'s values."""
    import copy
    import pickle
    import random

    from meeple.rules.protocol import LazySeatRandom, bot_rng

    draws = {
        "random": lambda r: r.random(),
        "randrange": lambda r: r.randrange(7),
        "choice": lambda r: r.choice("abcdef"),
        "shuffle": lambda r: (lambda x: (r.shuffle(x), x)[1])(list(range(12))),
        "sample": lambda r: r.sample(range(40), 4),
        "getrandbits": lambda r: r.getrandbits(70),
        "choices": lambda r: r.choices("abc", k=3),
        "getstate": lambda r: r.getstate(),
        "gauss": lambda r: r.gauss(),
        "copy": lambda r: copy.copy(r).random(),
        "pickle": lambda r: pickle.loads(pickle.dumps(r)).random(),
    }
    for k, (name, draw) in enumerate(draws.items()):
        lazy, eager = LazySeatRandom(1000 + k, k % 4), bot_rng(1000 + k, k % 4)
        assert draw(lazy) == draw(eager), name
        assert [lazy.randrange(100) for _ in range(5)] == [eager.randrange(100) for _ in range(5)], name
        assert isinstance(lazy, random.Random)
