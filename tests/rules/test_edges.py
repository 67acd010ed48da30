"""Odd input from issue 33 ("Sound edges 3"): numbers past Python's int-string limit, FIFOs and
links to /dev/zero where a file is read, a manifest nested 100,000 deep. Each is one line and
exit status 2, never a traceback or a hang."""

from __future__ import annotations

import os
import subprocess

import pytest

from harness import MEEPLE, one_line_error, run
from meeple.rules.core import play
from meeple.course.copying import MANIFEST

BB = "bucket-brigade"
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")


@pytest.mark.parametrize("values", ["1.." + "9" * 4400, "9" * 4400 + ",3", "-" + "9" * 4301])
def test_tune_values_past_pythons_int_string_limit_is_one_line(capsys, values):
    """int() of over 4,300 digits raised Python's own error: a 17-line traceback."""
    code, out, err = run(capsys, "tune", BB, "--field", "bonus", "--measure", "ender_win_rate", "--target", "0.5",
                         f"--values={values}")
    one_line_error(code, out, err, "--values holds a number of 4,")


def _meeple(argv, cwd) -> subprocess.CompletedProcess:
    """`meeple ARGV` in a process of its own: a reader that blocks fails by the timeout, not by hanging pytest."""
    return subprocess.run(MEEPLE + argv, capture_output=True, text=True, cwd=cwd, timeout=120,
                          stdin=subprocess.DEVNULL)


def _refused(done, says: str) -> None:
    assert done.returncode == 2 and done.stdout == "", (done.returncode, done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("meeple: error:"), done.stderr
    assert says in done.stderr, done.stderr


@needs_fifo
@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_record_and_variant_readers_refuse_a_fifo_or_a_device_without_blocking(tmp_path, kind):
    """`replay` and `--config` opened a FIFO and waited for a writer for ever."""
    for name in ("game.json", "v.toml"):
        if kind == "fifo":
            os.mkfifo(tmp_path / name)
        else:
            os.symlink("/dev/zero", tmp_path / name)
    says = "a FIFO (named pipe), not a file" if kind == "fifo" else "a device, not a file"
    _refused(_meeple(["replay", "game.json"], tmp_path), says)
    _refused(_meeple(["simulate", BB, "--games", "5", "--config", "v.toml"], tmp_path), says)


@needs_fifo
@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_meeple_lessons_refuses_a_lesson_that_is_a_fifo_or_a_device(tmp_path, kind):
    """A lesson in the folder replaced by a FIFO or a link to /dev/zero: `meeple lessons` hung reading it."""
    lessons = tmp_path / "course"
    first = _meeple(["lessons", str(lessons)], tmp_path)
    assert first.returncode == 0, first.stderr
    lesson = sorted(lessons.glob("*.ipynb"))[0]
    lesson.unlink()
    os.mkfifo(lesson) if kind == "fifo" else os.symlink("/dev/zero", lesson)
    _refused(_meeple(["lessons", str(lessons)], tmp_path), lesson.name)


def test_a_manifest_nested_100000_deep_is_one_line(tmp_path, capsys):
    """json.loads's RecursionError was not caught: 26 lines of traceback."""
    lessons = tmp_path / "course"
    lessons.mkdir()
    (lessons / MANIFEST).write_text("[" * 100_000 + "]" * 100_000)
    code, out, err = run(capsys, "lessons", lessons)
    one_line_error(code, out, err, "nested too deeply")


def test_a_record_with_a_fifo_beside_it_still_replays(tmp_path, capsys):
    """The reader checks the file it opens, not its neighbours: a plain record still replays."""
    path = tmp_path / "game.json"
    path.write_text(play(BB, seed=1, bots="random").to_json())
    code, out, err = run(capsys, "replay", path)
    assert code == 0 and err == "", err




# --- one rule for every variant source (issue 33) ------------------------------------------

def _variant_file(path, game: str, **fields) -> str:
    lines = ['format = "meeple-variant/1"', f'game = "{game}"', 'name = "v"', "", "[set]"]
    path.write_text("\n".join(lines + [f"{k} = {v}" for k, v in fields.items()]) + "\n")
    return str(path)


def _rows(out: str, name: str) -> list[str]:
    return [" ".join(line.split()[1:]) for line in out.splitlines() if line.split()[:1] == [name]]


def test_a_variant_file_starts_from_the_command_lines_set_as_an_inline_variant_does(tmp_path, capsys):
    """`--set players=3` reached the baseline and the inline variant but not the file's: the same
    rule said +8.1 turns from a file and -8.0 inline. Now both start from --set; their rows match."""
    small4 = _variant_file(tmp_path / "small4.toml", "bucket-king", pyramid_base=4)
    code, out, err = run(capsys, "compare", "bucket-king", "--set", "players=3", "--variant", "base:",
                         "--variant", small4, "--variant", "inline:pyramid_base=4", "--games", "60")
    assert code == 0, err
    assert _rows(out, "v") == _rows(out, "inline") and len(_rows(out, "inline")) >= 3, out  # v: the name in the file


def test_a_variant_file_whose_player_count_or_game_conflicts_with_the_command_line_is_one_line(tmp_path, capsys):
    four = _variant_file(tmp_path / "four.toml", "bucket-king", players=4)
    code, out, err = run(capsys, "compare", "bucket-king", "--set", "players=3", "--variant", "base:",
                         "--variant", four, "--games", "5")
    one_line_error(code, out, err, "sets players=4, but the common rules play 3 players (--set players=3)")
    other = _variant_file(tmp_path / "bb.toml", "bucket-brigade", bonus=3)
    code, out, err = run(capsys, "report", "bucket-king", "--variant", "base:", "--variant", other, "--games", "5",
                         "--out", tmp_path / "r.html")
    one_line_error(code, out, err, "is a bucket-brigade variant, but the command line plays bucket-king")


def test_a_variant_files_own_player_count_wins_when_the_command_line_gives_none(tmp_path, capsys):
    four = _variant_file(tmp_path / "four.toml", "bucket-king", players=4, pyramid_base=4)
    code, out, err = run(capsys, "compare", "bucket-king", "--variant", "base:", "--variant", four, "--games", "5")
    assert code == 0 and sum("Player" in r for r in _rows(out, "v")) == 4, (out, err)


@pytest.mark.parametrize("bots", [[], ["--bots", "heuristic"]])
def test_a_player_count_in_a_variant_file_or_text_is_one_rule_and_names_what_chose_the_common_one(
        tmp_path, capsys, bots):
    """`--variant x:players=3` was accepted but the same as a file was refused with 'the command line
    gives players=4' though no count was given (one bot name filled four seats): both are now played
    when the command line chooses no count, and both refused, naming the option, when it does."""
    three = _variant_file(tmp_path / "three.toml", "bucket-brigade", players=3)
    argv = ["compare", "bucket-brigade", "--variant", "base:", "--games", "4", "--workers", "1", *bots]
    code, file_out, err = run(capsys, *argv, "--variant", three)
    assert code == 0, err
    code, text_out, err = run(capsys, *argv, "--variant", "v:players=3")
    assert code == 0 and _rows(file_out, "v") == _rows(text_out, "v"), err
    assert "v plays 3 players, base 4: its games are dealt for another table" in text_out
    for variant in (three, "v:players=3"):
        code, out, err = run(capsys, *argv, "--variant", variant, "--set", "players=4")
        one_line_error(code, out, err, "sets players=3, but the common rules play 4 players (--set players=4)")
        code, out, err = run(capsys, *argv[:8], "--variant", variant, "--bots", "heuristic,random,random,random")
        one_line_error(code, out, err, "but the common rules play 4 players (--bots heuristic,random,random,random "
                                       "(4 names, one per seat))")


# --- "Reproduce" commands always run (issue 33) --------------------------------------------

def test_the_printed_reproduce_command_runs_and_gives_the_same_table_whatever_the_names(capsys):
    """A variant named 'Größere Pyramide' (or 'a:b,c', or with a terminal escape) made a report's
    "Reproduce" command that the CLI refused. Each now becomes the nearest name the CLI takes."""
    import shlex

    from meeple.rules import bucket_king as bk
    from meeple.rules.reproduce import command_for
    from meeple.rules.workbench import compare_run, format_comparison

    names = {"base": "base", "Größere Pyramide": "Groessere Pyramide", "a:b,c": "a-b-c", "\x1b[31mred": "31mred"}
    configs = dict(zip(names, [bk.Config(), bk.Config().with_text(["pyramid_base=4"]), bk.Config(players=3), bk.Config(hand_size=4)]))
    cmp = compare_run("bucket-king", configs, "random", games=20, seed=4, progress=False)
    command = command_for(cmp)
    argv = shlex.split(command)
    assert argv[:2] == ["meeple", "compare"]
    code, out, err = run(capsys, *argv[1:])
    assert code == 0, (command, err)
    mine = format_comparison(cmp.table)
    for old, new in names.items():
        mine = mine.replace(old, new)

    def seats(text):
        return [" ".join(line.split()) for line in text.splitlines() if "Player " in line]
    assert seats(out) == seats(mine) and len(seats(mine)) >= 15, (out, mine)


# --- widget logic does not trust a saved setup (issue 33) ---------------------------------

def _refused_setup(kind: str, args: dict, says: str) -> None:
    from meeple.widgets import controls as C

    with pytest.raises(ValueError) as e:
        C.Control.from_setup({"kind": kind, "args": args})
    text = str(e.value)
    assert "\n" not in text and len(text) < 300 and says in text, text


@pytest.mark.parametrize("kind,args,says", [
    # 14 rows took 130 s (the exact fall is exponential in the rows)
    ("knock-chance", {"p": "1/2", "rows": list(range(14, 0, -1))}, "the bottom row 1 to 8 buckets"),
    ("knock-chance", {"p": "1/2", "rows": [5, 4, 3, 2, 1], "position": [9, 9]}, "inside the pyramid"),
    ("reroll-rule", {"gap": 1000}, "gap=1000 is not allowed: a whole number from 0 to 60"),  # a RecursionError
    ("catch-up-rule", {"games": 10**7}, "games=10000000 is not allowed: a whole number from 1 to 4,000"),
    ("catch-up-rule", {"bots": "x" * 10**6}, "bots=xxx"),
    ("catch-up-rule", {"measured": [{"rule": "a", "when": 0.5, "leader_win_rate": 7, "low": 0, "high": 1}]},
     "leader_win_rate=7 is not allowed: a share from 0 to 1"),
])
def test_every_control_states_its_bounds_and_refuses_beyond_them_in_one_line(kind, args, says):
    _refused_setup(kind, args, says)


def test_a_measured_row_with_no_games_makes_a_strict_json_view():
    """A NaN rate (no game reached the point) went into the view: JSON.parse refuses NaN."""
    import json

    from meeple.widgets import controls as C

    rows = [{"rule": "base", "when": w, "leader_win_rate": float("nan"), "low": float("nan"), "high": float("nan")}
            for w in (0.25, 0.5, 0.75)]
    control = C.CatchUpRule(measured=rows, games=1)
    json.dumps(control.view(), allow_nan=False)
    json.dumps(C.Control.from_setup(control.setup()).view(), allow_nan=False)


def test_a_megabyte_of_user_text_is_echoed_cut_and_printable():
    """A 1 MB value (or one holding a terminal escape) was echoed whole into the error text."""
    from meeple.widgets import controls as C

    control = C.KnockChance()
    for value in ("\x1b[2J" + "y" * 10**6, {"a": "b" * 10**6}):
        view = control.handle({"do": "set", "name": "p", "value": value})
        assert view["error"] and len(view["error"]) < 500 and "\x1b" not in view["error"], view["error"][:200]
    view = control.handle({"do": "\x1b]0;owned\x07" * 10**5, "name": "p"})
    assert len(view["error"]) < 300 and view["error"].isprintable(), view["error"][:200]


def test_terminal_escapes_in_a_roster_or_a_variant_file_are_never_printed_raw(tmp_path, capsys):
    """`meeple answers` printed a roster's names, and compare a variant file's name, escapes and all."""
    roster = tmp_path / "roster.csv"
    roster.write_text("name\n\x1b[31mRed\x1b[0m\n")  # one student: the whole key takes seconds a student
    assert run(capsys, "class", "new", roster, tmp_path / "class")[0] == 0
    code, out, err = run(capsys, "answers", "--key", tmp_path / "class" / "class-key.json")
    assert code == 0 and "\x1b" not in out and "== \\x1b[31mRed\\x1b[0m (code " in out, (out[:300], err)
    code, out, err = run(capsys, "answers", "--key", tmp_path / "class" / "class-key.json", "--student", "\x1b[2J")
    one_line_error(code, out, err, "--student '\\x1b[2J' is neither an id nor a code")
    esc = _variant_file(tmp_path / "esc.toml", "bucket-brigade", bonus=3)
    (tmp_path / "esc.toml").write_text((tmp_path / "esc.toml").read_text().replace('name = "v"', 'name = "\\u001b[2Jv"'))
    code, out, err = run(capsys, "compare", BB, "--variant", "base:", "--variant", esc, "--games", "5")
    one_line_error(code, out, err, "name must be printable text")
    assert "\x1b" not in err


# --- the same rule in the Python API (issue 33) --------------------------------------------

def _seat_lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if "Player " in line]


@pytest.mark.parametrize("common", ["players=3", ["players=3"], "config"])
def test_compare_in_python_starts_every_variant_from_config_as_the_command_line_does(tmp_path, capsys, common):
    """compare() had no common rules: a file variant played the file's (default) player count. With
    config= every source (text, file, Config) starts from it, and the table is the CLI's."""
    from meeple.rules import bucket_king as bk
    from meeple.rules.workbench import compare, format_comparison

    small4 = _variant_file(tmp_path / "small4.toml", "bucket-king", pyramid_base=4)
    code, out, err = run(capsys, "compare", "bucket-king", "--set", "players=3", "--variant", "base:",
                         "--variant", small4, "--variant", "inline:pyramid_base=4", "--games", "40")
    assert code == 0, err
    config = bk.Config(players=3) if common == "config" else common
    table = compare("bucket-king", {"base": "", "v": small4, "inline": "pyramid_base=4"}, games=40, progress=False,
                    config=config)
    mine = format_comparison(table)
    assert mine in out, (mine, out)
    assert _seat_lines(mine) == _seat_lines(out) and len(_seat_lines(mine)) == 9
    assert _rows(mine, "v") == _rows(mine, "inline"), mine
    # a Config variant's own fields (its differences from the defaults) win over the common ones; it is
    # resolved already: pyramid_base names the row of the Config's own player count
    v = bk.Config(players=3).with_text(["pyramid_base=4"])
    again = compare("bucket-king", {"base": None, "v": v, "inline": small4},
                    games=40, progress=False, config=config)
    assert _seat_lines(format_comparison(again)) == _seat_lines(mine)


def test_compare_in_python_refuses_a_variant_file_that_conflicts_with_config_in_one_line(tmp_path):
    from meeple.rules.workbench import compare

    four = _variant_file(tmp_path / "four.toml", "bucket-king", players=4)
    other = _variant_file(tmp_path / "bb.toml", "bucket-brigade", bonus=3)
    for variants, says in [({"base": "", "four": four}, "sets players=4, but the common rules play 3 players (config='players=3')"),
                           ({"base": "", "bb": other}, "is a bucket-brigade variant, but config='players=3' plays "
                                                       "bucket-king"),
                           ({"base": "", "x": "hard-ish"}, "is not allowed: a preset of bucket-king")]:
        with pytest.raises(ValueError) as e:
            compare("bucket-king", variants, games=5, progress=False, config="players=3")
        assert "\n" not in str(e.value) and says in str(e.value), str(e.value)
    # with no player count in common, the file's own wins (as on the command line)
    three = _variant_file(tmp_path / "three.toml", "bucket-king", players=3)
    table = compare("bucket-king", {"base": "", "three": three}, games=5, progress=False, config="hand_size=4")
    changes = {r["variant"]: r["changes"] for r in table.to_dict(orient="records")}
    assert changes == {"base": "hand_size=4", "three": "players=3, hand_size=4"}, changes


def test_the_reproduce_command_of_a_comparison_with_common_rules_gives_them_as_set_and_runs(tmp_path, capsys):
    """The report's "Reproduce" line: --set for the common rules, each variant what differs from them."""
    import shlex

    from meeple.rules.reproduce import command_for
    from meeple.rules.workbench import compare_run, format_comparison

    small4 = _variant_file(tmp_path / "small4.toml", "bucket-king", pyramid_base=4)
    cmp = compare_run("bucket-king", {"base": "", "v": small4, "bonus": "hand_size=4"}, games=30, seed=2,
                      progress=False, config="players=3")
    command = command_for(cmp)
    assert " --set players=3 " in command and "--variant base: " in command, command
    code, out, err = run(capsys, *shlex.split(command)[1:])
    assert code == 0, (command, err)
    assert _seat_lines(out) == _seat_lines(format_comparison(cmp.table)) and len(_seat_lines(out)) == 9
    report = tmp_path / "r.html"
    code, out, err = run(capsys, "report", "bucket-king", "--set", "players=3", "--variant", "base:", "--variant",
                         small4, "--games", "5", "--out", report)
    assert code == 0 and "--set players=3" in report.read_text(), err


# --- the teacher's readers: the class key and submitted notebooks (issue 33's audit) ------------

@needs_fifo
@pytest.mark.parametrize("kind", ["fifo", "zero", "deep"])
def test_answers_and_grade_refuse_a_key_that_is_a_fifo_a_device_or_nested_too_deeply(tmp_path, kind):
    """`meeple answers --key` and `grade --key` read the key with read_text: a FIFO waited for a writer for
    ever, a link to /dev/zero filled the memory, a key nested 100,000 deep raised RecursionError."""
    key = tmp_path / "key.json"
    if kind == "fifo":
        os.mkfifo(key)
    elif kind == "zero":
        os.symlink("/dev/zero", key)
    else:
        key.write_text("[" * 100_000 + "]" * 100_000)
    says = {"fifo": "key.json is a FIFO (named pipe), not a file: not a class key",
            "zero": "key.json is a device, not a file: not a class key",
            "deep": "key.json is not a meeple class key"}[kind]
    _refused(_meeple(["answers", "--key", "key.json"], tmp_path), says)
    (tmp_path / "subs").mkdir()
    _refused(_meeple(["grade", "--key", "key.json", "--out", "g.csv", "subs"], tmp_path), says)


@needs_fifo
def test_grade_names_a_submission_that_is_a_fifo_a_device_or_nested_too_deeply_in_one_line(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("name\nann\n")
    assert _meeple(["class", "new", "roster.csv", "cls"], tmp_path).returncode == 0
    subs = tmp_path / "subs"
    subs.mkdir()
    for name, says in [("a.ipynb", "a.ipynb is a FIFO (named pipe), not a file: not a lesson notebook"),
                       ("b.ipynb", "b.ipynb is a device, not a file: not a lesson notebook"),
                       ("c.ipynb", "c.ipynb is not a notebook (nested too deeply)")]:
        if name == "a.ipynb":
            os.mkfifo(subs / name)
        elif name == "b.ipynb":
            os.symlink("/dev/zero", subs / name)
        else:
            (subs / name).write_text("[" * 100_000 + "]" * 100_000)
        _refused(_meeple(["grade", "--key", "cls/class-key.json", "--out", "g.csv", "subs"], tmp_path), says)
        (subs / name).unlink()


def test_a_variant_files_stamp_is_warned_about_cut_and_printable(tmp_path, capsys):
    """The stamp warnings (made with another meeple / chance stream) echoed the file's text raw: a terminal
    escape in `meeple = ...` acted on the reader's terminal."""
    path = tmp_path / "esc.toml"
    path.write_text('format = "meeple-variant/1"\ngame = "bucket-brigade"\nname = "esc"\n'
                    'meeple = "\\u001b[2J0.0.1"\nchance = "\\u001b]0;owned\\u0007' + "c" * 10**5 + '"\n\n[set]\nbonus = 3\n')
    from meeple.rules.reproduce import StampWarning

    with pytest.warns(StampWarning) as said:
        code, out, err = run(capsys, "compare", BB, "--variant", "base:", "--variant", path, "--games", "5")
    lines = [str(w.message) for w in said]
    assert code == 0 and len(lines) == 2 and all(line.isprintable() and len(line) < 400 for line in lines), lines
    assert any("made with meeple \\x1b[2J0.0.1;" in line for line in lines), lines


@pytest.mark.parametrize("item", ["x" * 10**6 + ":bonus=3", "\x1b[2J" + "y" * 10**6, "é" + "z" * 10**6 + ":bonus=3"])
def test_an_inline_variant_name_is_at_most_200_characters_and_echoed_cut(capsys, item):
    code, out, err = run(capsys, "compare", BB, "--variant", "base:", "--variant", item, "--games", "5")
    one_line_error(code, out, err, "--variant '")
    assert len(err) < 600 and "\x1b" not in err, err[:300]
