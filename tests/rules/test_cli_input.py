"""Odd input to the `meeple` command, as an outside reader typed it: what each help page
promises and how a long bad value is echoed back."""

from __future__ import annotations

import argparse
import json
import re

import pytest

from harness import one_line_error, run
from meeple.rules.bucket_brigade import Config
from meeple.rules.cli import build_parser, main
from meeple.rules.core import play, replay
from meeple.rules.workbench import tune

BB = "bucket-brigade"


def commands():
    """(name, parser) of every `meeple` command and sub-command (variant save, variant show)."""
    def walk(parser, prefix):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield f"{prefix} {name}".strip(), sub
                    yield from walk(sub, f"{prefix} {name}")
    return list(walk(build_parser(), ""))


@pytest.mark.parametrize("name,parser", commands(), ids=[n for n, _ in commands()])
def test_every_argument_of_every_command_says_what_it_takes(name, parser):
    """`meeple replay --help` listed `file` with no word on what file; `duel` left its game,
    --seed, --preset and --set bare, though `play` explains the same options."""
    bare = [a.dest for a in parser._actions
            if not isinstance(a, argparse._SubParsersAction) and not (a.help and a.help.strip())]
    assert bare == [], f"meeple {name}: arguments without a help text: {bare}"


@pytest.mark.parametrize("argv", [
    ["play", "bucket-brigade", "--seed", "9" * 5000],
    ["simulate", "bucket-brigade", "--games", "9" * 5000],
    ["simulate", "bucket-brigade", "--games", "10", "--workers", "x" * 5000],
])
def test_a_huge_bad_number_is_named_in_one_short_line(capsys, argv):
    """A 5,000-digit --seed was echoed whole: one 5,000-character 'line' on the terminal."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("meeple: error: ") and len(err) < 300
    assert argv[-2] in err and "..." in err


@pytest.mark.parametrize("command,says,not_says", [
    # balance saves .json only: no CSV '# partial' line to promise
    (["balance"], "FILE.partial.EXT", "CSV"),
    # an interrupted tune or report writes nothing at all (no FILE.partial.EXT)
    (["tune"], "writes nothing", "FILE.partial"),
    (["report"], "writes nothing", "FILE.partial"),
    (["simulate"], "'# partial: ...' line", "writes nothing"),
])
def test_out_help_says_what_an_interrupted_run_leaves(command, says, not_says):
    parser = dict(commands())[command[0]]
    out = next(a for a in parser._actions if "--out" in a.option_strings)
    assert says in out.help and not_says not in out.help, out.help


@pytest.mark.parametrize("argv,hint", [
    (["tune", "bucket-brigade", "--field", "start_value", "--target", "20", "--values", "-3..0"], "--values=VALUE"),
    (["play", "bucket-brigade", "--seed"], "--seed=VALUE"),
])
def test_a_value_argparse_takes_for_an_option_says_how_to_write_it(capsys, argv, hint):
    """`--values -3..2` got only 'argument --values: expected one argument': argparse reads
    '-3..2' as an option; the message now says to write --values=-3..2."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "expected one argument" in err and hint in err


# --- bad input an outside checker found: each is one line, exit 2 / ValueError, nothing run ---



@pytest.mark.parametrize("fields", [["bonus", "bonus"], ["hand_size", "hand_sizes[1]"]])
def test_tune_refuses_the_same_number_twice(capsys, fields):
    """`--field bonus --field bonus` ran a 3x3 grid of one number (hand_size is hand_sizes[1]
    at 4 players: the same number under two names)."""
    code, out, err = run(capsys, "tune", "bucket-brigade", "--field", fields[0], "--field", fields[1],
                         "--values", "1..3", "--values", "1..3", "--target", "0.5", "--games", "10")
    one_line_error(code, out, err, "the same number twice")
    with pytest.raises(ValueError, match="the same number twice"):
        tune("bucket-brigade", None, tuple(fields), "win_rate", 0.5, "random", 10, values=([1, 2], [1, 2]))


@pytest.mark.parametrize("measure,extra", [("win_rate", []), ("ender_win_rate", []),
                                           ("bot_win_rate", ["--bot", "random"])])
@pytest.mark.parametrize("target", ["20", "-0.1", "1.5"])
def test_tune_refuses_a_rate_target_outside_0_to_1(capsys, measure, extra, target):
    """`--measure win_rate --target 20` ran and called every value 'equally close to 20'."""
    code, out, err = run(capsys, "tune", "bucket-brigade", "--field", "bonus", "--values", "1..2", "--measure",
                         measure, f"--target={target}", "--games", "2", "--bots", "random", *extra)
    one_line_error(code, out, err, "a rate from 0 to 1")
    with pytest.raises(ValueError, match="a rate from 0 to 1"):
        tune("bucket-brigade", None, "bonus", measure, float(target), "random", 2, values=[1, 2],
             bot="random" if extra else None)


@pytest.mark.parametrize("bots", [[], ["--bots", "heuristic"]])
def test_tune_over_players_fills_every_seat_with_one_bot_name_as_the_api_does(capsys, bots):
    """`tune --field players --values 3..5` said 'need 3 bots (one per player), got 4' with no bots
    named: the CLI passed the 4-player default's seats; the API's one name fills every count."""
    argv = ["tune", BB, "--field", "players", "--values", "3..5", "--measure", "turns", "--target", "50",
            "--games", "4", "--workers", "1", *bots]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    api = tune(BB, None, "players", "turns", 50, bots[-1] if bots else "random", 4, values=[3, 4, 5],
               progress=False, workers=1)
    assert str(api) in out


def test_tune_refuses_one_bot_per_seat_that_fits_not_every_player_count_tried(capsys):
    code, out, err = run(capsys, "tune", BB, "--field", "players", "--values", "3..5", "--measure", "turns",
                         "--target", "50", "--games", "2", "--bots", "heuristic,random,random")
    one_line_error(code, out, err, "3 names, one per seat, fit players=3 only (not 4, 5)")
    with pytest.raises(ValueError, match="fit players=3 only"):
        tune(BB, None, "players", "turns", 50, ["heuristic", "random", "random"], 2, values=[3, 4, 5])


def test_tune_prints_its_table_once(capsys):
    """The CLI printed the result (which holds the table) and then the table again."""
    code, out, err = run(capsys, "tune", BB, "--field", "bonus", "--values", "1..2", "--measure", "score",
                         "--target", "20", "--games", "2", "--workers", "1")
    assert code == 0, err
    assert out.count("Every value measured") == 1 and out.count("same_as") == 1, out


def test_tune_takes_any_target_for_a_measure_that_is_not_a_rate():
    """score and seat1_advantage (percentage points) are not rates: 20 is a fair target."""
    assert tune("bucket-brigade", None, "bonus", "score", 20, "random", 2, values=[1, 2], progress=False).target == 20


def _record(**change):
    data = json.loads(play("bucket-brigade", None, "random", 1).to_json())
    data.update(change)
    return data


@pytest.mark.parametrize("seed,says", [
    ("9" * 5000, "more than 4,300 digits"),
    ('"7"', "record seed must be a whole number >= 0, got '7'"),
    ("true", "record seed must be a whole number >= 0, got True"),
    ("-1", "record seed must be a whole number >= 0, got -1"),
])
def test_a_record_with_a_bad_seed_says_what_a_seed_is(tmp_path, capsys, seed, says):
    """A 5,000-digit seed leaked Python's int-conversion limit and sys.set_int_max_str_digits();
    '7' or true said "record field 'seed' must be a int"."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record(seed="SEED")).replace('"SEED"', seed))  # JSON as written, not via int
    one_line_error(*run(capsys, "replay", path), says)
    assert "set_int_max_str_digits" not in capsys.readouterr().err
    with pytest.raises(ValueError, match=re.escape(says)):
        replay(path.read_text())


def test_a_record_with_an_unknown_key_names_the_allowed_keys(tmp_path, capsys):
    """Variant files refuse unknown keys; records took any key silently."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record(sede=3)))
    one_line_error(*run(capsys, "replay", path),
                   "unknown key(s) 'sede'; allowed: format, game, config, seed, chance, bots, actions, round_scores, scores, winners")


@pytest.mark.parametrize("argv", [["simulate", "bucket-brigade", "--set", "colours=red", "--games", "2"]])
def test_a_shrunk_deck_is_named_as_the_cause_of_a_hand_too_big(capsys, argv):
    """colours=red said 'for 3 players a hand of 1 to 7 cards (the deck has 22)' in a 4-player
    game: the cause is the deck the colours shrank, and the game's own count is 4."""
    says = "the deck has 22 cards (11 per colour x 1 colour + 11 jokers)"
    one_line_error(*run(capsys, *argv), says)
    with pytest.raises(ValueError) as e:
        Config(colours=("red",))
    assert says in str(e.value) and "a hand for 4 players is 1 to 5 cards, not 13" in str(e.value), e.value


# --- names, limits and odd characters: one rule and one line each, before any game ---------

@pytest.mark.parametrize(
    "argv, message",
    [
        (["play", BB, "--record", ""], "--record needs a file name"),
        (["play", BB, "--record", "x" * 300 + ".json"], "longer than 255 bytes"),
        (["play", BB, "--record", "d" * 300 + "/game.json"], "cannot write"),
        (["simulate", BB, "--out", "x" * 300 + ".csv"], "longer than 255 bytes"),
        (["simulate", BB, "--out", ""], "--out must end in"),
        (["simulate", BB, "--games", "2", "--workers", "512"], "--workers must be a whole number from 1 to 64"),
        (["duel", BB, "--bot", "random", "--games", "1000000000000"], "--games must be a whole number from 1 to 10,000,000"),
        (["replay", "x" * 300 + ".json"], "cannot read"),
    ],
)
def test_bad_names_and_limits_are_one_line_before_any_game(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    one_line_error(code, out, err, message)
    assert list(tmp_path.iterdir()) == []
    # a 300-character name is shortened in the message; the folder it looked in is the reader's own, as long as it is
    assert len(err.replace(str(tmp_path), "DIR")) < 250


@pytest.mark.parametrize(
    "argv, message",
    [
        (["play", BB, "--set", "bonus=3", "--set", "bonus=4"], "bonus is set twice (bonus=3 and bonus=4): give each name once"),
        (["compare", BB, "--variant", "base:", "--variant", "a:bonus=3,bonus=4"], "--variant a: bonus is set twice"),
        (["tune", BB, "--field", "bonus", "--measure", "ender_win_rate", "--target", "0.5", "--values", "٣..٥"],
         "--values must be whole numbers"),
        (["tune", BB, "--field", "bonus", "--measure", "ender_win_rate", "--target", "٠.5", "--values", "3..4"],
         "--target must be a number"),
        (["simulate", BB, "--games", "٣"], "--games must be a whole number"),
        (["play", BB, "--seed", "1_0"], "--seed must be a whole number"),
        (["play", BB, "--config", "out/a\nb.toml"], "cannot read out/a\\nb.toml: No such file or directory (looked in "),
        (["replay", "a\nb.json"], "cannot read a\\nb.json"),
        (["simulate", BB, "--out", "no\ndir/t.csv"], "cannot write no\\ndir/t.csv"),
    ],
    ids=["set-twice", "variant-twice", "values-arabic-digits", "target-arabic-digits", "games-arabic-digits",
         "seed-underscore", "variant-relative-newline", "replay-newline", "out-newline"],
)
def test_one_rule_and_one_line_for_odd_command_input(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, (code, out, err)
    if "looked in" in message:
        assert f"(looked in {tmp_path})" in err


ROTATED = "Bots rotated (the default when the seats hold different bots; --no-rotate keeps each bot in its seat)"
KEPT = "Bots kept in their seats (--no-rotate)"


def _first_seat_row(text: str) -> str:
    return next(line for line in text.splitlines() if "Player 1 " in line)


@pytest.mark.parametrize("command", [
    ["simulate", "bucket-brigade", "--games", "9"],
    ["sweep", "bucket-brigade", "--vary", "bonus=0,6", "--games", "6"],
    ["tune", "bucket-brigade", "--field", "bonus", "--values", "0..2", "--target", "0.3", "--games", "6"],
])
def test_different_bots_are_rotated_by_default_as_compare_does_and_the_output_says_so(capsys, command):
    """`simulate`, `sweep` and `tune` kept a heuristic bot in seat 1 unless --rotate was spelled out:
    their seat figures (and tune's seat measures) were the bot's skill, while `compare` rotated by
    default. Now all four rotate different bots by default, say so, and --no-rotate keeps the seats."""
    argv = command + ["--bots", "heuristic,random,random", "--workers", "1"]
    code, default, _ = run(capsys, *argv)
    assert code == 0 and ROTATED in default and KEPT not in default
    code, rotated, _ = run(capsys, *argv, "--rotate")
    assert code == 0 and "Bots rotated (--rotate)" in rotated
    code, kept, _ = run(capsys, *argv, "--no-rotate")
    assert code == 0 and KEPT in kept and "Bots rotated" not in kept
    # the default's figures are the rotated run's, not the seated one's
    strip = lambda text: "\n".join(line for line in text.splitlines() if not line.startswith("Bots "))  # noqa: E731 (one use)
    assert strip(default) == strip(rotated) != strip(kept)
    if command[0] != "tune":
        assert _first_seat_row(default) != _first_seat_row(kept)
        assert "heuristic,random" in _first_seat_row(default) or "random,heuristic" in _first_seat_row(default)
    # one bot everywhere: nothing to rotate, nothing said
    code, same, _ = run(capsys, *command, "--bots", "random", "--workers", "1")
    assert code == 0 and "Bots rotated" not in same and KEPT not in same


def test_a_sweep_grid_of_many_bad_values_is_named_in_one_short_line(capsys):
    """`--vary bonus=0,1,...,2000` listed every one of the 1,901 bad points: a 104,709-character line."""
    values = ",".join(str(v) for v in range(400))  # the same fault as 2,001 values, in less time
    code, out, err = run(capsys, "sweep", "bucket-brigade", "--vary", f"bonus={values}", "--games", "1")
    one_line_error(code, out, err, "sweep points are invalid")
    assert "300 of 400 sweep points are invalid" in err and "bonus=100 is not allowed: 0 to 99" in err
    assert "and 294 more like these" in err and len(err) < 1000


VARIANT_JSON = '{"format": "meeple-variant/1", "game": "bucket-brigade", "name": "x", "set": {"bonus": 6%s}}'


@pytest.mark.parametrize("command", [["variant", "show"], ["simulate", "bucket-brigade", "--games", "1", "--config"]])
def test_a_json_variant_file_naming_a_number_twice_is_refused(tmp_path, capsys, command):
    """{"bonus": 6, "bonus": 7} ran with bonus=7 and no word (json keeps the last key); the same
    file in TOML is refused. A key given twice is a mistake to name, as --set refuses bonus twice."""
    path = tmp_path / "twice.json"
    path.write_text(VARIANT_JSON % ', "bonus": 7')
    code, out, err = run(capsys, *command, path)
    one_line_error(code, out, err, "twice.json: 'bonus' is given twice in one object: give each key once")


def test_a_record_naming_a_key_twice_is_refused(tmp_path, capsys):
    text = play("bucket-brigade", None, "random", 1).to_json()
    path = tmp_path / "twice.json"
    path.write_text(text.replace('{', '{"game": "bucket-king", ', 1))
    code, out, err = run(capsys, "replay", path)
    one_line_error(code, out, err, "not a meeple record: 'game' is given twice in one object")


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_a_variant_file_or_record_saved_with_a_byte_order_mark_is_read(tmp_path, capsys, suffix):
    """Windows Notepad saves UTF-8 with a byte-order mark: the file was refused as 'not valid TOML
    (Invalid statement (at line 1, column 1))' or with 'decode using utf-8-sig', for a file that looks right."""
    path = tmp_path / f"notepad{suffix}"
    text = VARIANT_JSON % "" if suffix == ".json" else \
        'format = "meeple-variant/1"\ngame = "bucket-brigade"\nname = "x"\n[set]\nbonus = 6\n'
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    code, out, err = run(capsys, "variant", "show", path)
    assert (code, err) == (0, "") and "bonus=6" in out
    record = tmp_path / "record.json"
    record.write_bytes(b"\xef\xbb\xbf" + play("bucket-brigade", None, "random", 1).to_json().encode())
    code, out, err = run(capsys, "replay", record)
    assert (code, err) == (0, "") and "Winner" in out


def test_a_variant_file_with_an_empty_name_says_the_name_is_empty(tmp_path, capsys):
    """name = "" said 'name must be text, got ''': it is text."""
    path = tmp_path / "empty.toml"
    path.write_text('format = "meeple-variant/1"\ngame = "bucket-brigade"\nname = ""\n[set]\n')
    code, out, err = run(capsys, "variant", "show", path)
    one_line_error(code, out, err, "name must be printable text of 1 to 200 characters (no control characters or terminal escapes), got ''")


@pytest.mark.parametrize("argv", [
    ["variant", "save", "Rüssel", "--game", "bucket-brigade"],
    ["compare", "bucket-brigade", "--variant", "a:", "--variant", "Rüssel:bonus=6", "--games", "1"],
])
def test_a_variant_name_outside_ascii_is_refused_naming_what_a_name_may_hold(tmp_path, monkeypatch, capsys, argv):
    """'Rüssel' was refused with 'use letters, digits, ...' (ü is a letter), and compare's --variant
    'Rüssel:bonus=6' only said it 'is not NAME:field=value,...'."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    one_line_error(code, out, err, "'Rüssel' is not allowed: use ASCII letters (A-Z, a-z), digits")
    assert list(tmp_path.iterdir()) == []


def test_compare_names_the_variant_whose_player_count_the_bots_do_not_fit(capsys):
    """--bots of 4 names and a 5-player variant said only 'need 5 bots (one per player), got 4'. Four
    names choose the common player count, so the variant is refused as a file with players=5 is."""
    code, out, err = run(capsys, "compare", "bucket-brigade", "--variant", "base:", "--variant", "five:players=5",
                         "--bots", "heuristic,random,random,random", "--games", "1")
    one_line_error(code, out, err, "--variant five sets players=5, but the common rules play 4 players (--bots "
                                   "heuristic,random,random,random (4 names, one per seat))")


@pytest.mark.parametrize("bots", ["heuristic,", ",heuristic,random", "heuristic,,random"])
def test_an_empty_bot_name_in_bots_is_named_not_counted_as_a_player(capsys, bots):
    """`--bots heuristic,` said '--bots names 2 bots, one per player, so players=2 is not allowed':
    the stray comma was counted as a second player."""
    code, out, err = run(capsys, "play", "bucket-brigade", "--bots", bots)
    one_line_error(code, out, err, f"--bots {bots!r} has an empty name (a comma at an end or two in a row)")
    assert "known bots: random, heuristic, lookahead" in err and "players=" not in err


@pytest.mark.parametrize("bots", ["heuristic,", ",heuristic,random", "heuristic,,random"])
def test_an_empty_bot_name_is_named_at_every_door_in_the_command_lines_words(bots):
    """Review (variant lab): 'heuristic,,random' said 'need 4 bots (one per player), got 3' through the
    API, the lab and the Explorer, while the command line named the empty name. One check
    (core.split_bots) now speaks for every door, in the same words."""
    from meeple.rules import duck_duck_bruce as ddb, simulate
    from meeple.rules.comparison import compare
    from meeple.widgets.explorer_session import ExplorerSession
    from meeple.widgets.lab import VariantLab

    said = f"bots {bots!r} has an empty name (a comma at an end or two in a row)"
    doors = {
        "simulate": lambda: simulate("duck-duck-bruce", None, bots, 2, 1, workers=1),
        "compare": lambda: compare("duck-duck-bruce", {"base": ddb.Config(), "four": ddb.Config(rounds=4)}, bots=bots,
                                   games=2, workers=1, progress=False),
        "lab": lambda: VariantLab("duck-duck-bruce", ["rounds=4"], bots=bots, games=2),
        "explorer": lambda: ExplorerSession("duck-duck-bruce", "rounds", bots=bots),
    }
    for door, ask in doors.items():
        with pytest.raises(ValueError) as got:
            ask()
        assert said in str(got.value) and "known bots: random" in str(got.value), (door, str(got.value))
