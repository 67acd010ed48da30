"""The numbers the design notes quote from `meeple compare` and `meeple tune` are the numbers those
commands print: each test plays the command the notes show (in-process, one worker: the games do not
depend on the number of workers) and reads every quoted figure from its output. A change to the
engine that moves a figure fails here naming it, so the prose is recomputed rather than left to
drift (chance version 2 moved every one of them once, and the notes kept the old ones).
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from meeple.rules.cli import main

NOTES = Path(__file__).resolve().parents[2] / "lessons" / "design_notes.md"
NUM = r"([+-]?\d+(?:\.\d+)?)"


def _prose() -> str:
    return " ".join(NOTES.read_text().split())  # the notes' line breaks fall anywhere in a sentence


def _said(pattern: str) -> tuple[str, ...]:
    """The groups of the one place the notes say `pattern` (spaces in it match any run of spaces)."""
    found = re.findall(pattern.replace(" ", r"\s+"), _prose())
    assert len(found) == 1, f"the design notes should say {pattern!r} once, found {len(found)}"
    return found[0] if isinstance(found[0], tuple) else (found[0],)


def _run(argv: list[str], tmp_path: Path) -> str:
    out = io.StringIO()
    with contextlib.chdir(tmp_path), contextlib.redirect_stdout(out):
        assert main(argv) == 0, out.getvalue()[-2000:]
    return out.getvalue()


def _rows(text: str, heading: str) -> dict[str, list[str]]:
    """The rows of the table under `heading`, by their first cell (cells: runs of 2+ spaces apart)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading)) + 2  # the heading, the header
    rows = {}
    for line in lines[start:]:
        if not line.startswith("  "):
            break
        cells = re.split(r"\s{2,}", line.strip())
        rows.setdefault(cells[0], []).append(cells)
    return rows


def _interval(cell: str) -> tuple[str, str, str]:
    """'-0.7 (-6.1 to +4.8)' -> ('-0.7', '-6.1', '+4.8')."""
    m = re.fullmatch(rf"{NUM} \({NUM} to {NUM}\)", cell)
    assert m, cell
    return m.groups()


def _mag(x: str) -> str:
    return x.lstrip("+-")


def test_the_first_seat_figures_of_the_bucket_brigade_compare(tmp_path):
    (tmp_path / "out").mkdir()
    _run(["variant", "save", "small-hands", "--game", "bucket-brigade", "--set", "hand_size=10",
          "--out", "out/small-hands.toml"], tmp_path)
    cmd = ["compare", "bucket-brigade", "--variant", "base:", "--variant", "out/small-hands.toml",
           "--variant", "bonus6:bonus=6", "--games", "100", "--bots", "heuristic,random,random,random", "--workers", "1"]
    heading = "First-seat advantage"
    rotated = _interval(_rows(_run(cmd, tmp_path), heading)["base"][0][1])
    kept = _interval(_rows(_run([*cmd, "--no-rotate"], tmp_path), heading)["base"][0][1])
    assert _said(rf"first seat is {NUM} percentage points from the fair share \(95% CI {NUM} to {NUM}\)") == rotated
    assert _said(rf"the same row reads {NUM} \({NUM} to {NUM}\)") == kept


@pytest.fixture(scope="module")
def pyramid_compare(tmp_path_factory) -> str:
    tmp = tmp_path_factory.mktemp("pyramid")
    return _run(["compare", "bucket-king", "--set", "players=3", "--variant", "base:", "--variant",
                 "small:pyramid_base=4", "--bots", "heuristic", "--games", "300", "--workers", "1"], tmp)


def test_the_pyramid_compare_shortens_the_game_as_the_notes_say(pyramid_compare):
    rows = _rows(pyramid_compare, "First-seat advantage")
    base, small = rows["base"][0], rows["small"][0]
    turns, low, high = _interval(small[4])  # turns vs baseline: negative, the game shorter
    assert turns.startswith("-")
    assert _said(rf"shortens the game by {NUM} turns \(95% CI {NUM} to {NUM}, paired game by game: "
                 rf"{NUM} against {NUM}\) and by {NUM} rounds") == (
        _mag(turns), _mag(high), _mag(low), _interval(base[3])[0], _interval(small[3])[0], _mag(_interval(small[6])[0]))
    first = _interval(small[2])
    assert _said(rf"advantage moves by {NUM} percentage points \(95% CI {NUM} to {NUM}\)") == first
    assert _said(rf"rule out one of more than {NUM} points against it or {NUM} for it") == (
        _mag(first[1]), _mag(first[2]))


def test_the_pyramid_compare_moves_the_later_seats_as_the_notes_say(pyramid_compare):
    seats = {cells[1].split(" (")[0]: cells for cells in _rows(pyramid_compare, "bucket-king: 300 games")["small"]}
    base = {cells[1].split(" (")[0]: cells for cells in _rows(pyramid_compare, "bucket-king: 300 games")["base"]}
    p2, p2_low, p2_high = _interval(seats["Player 2"][4])
    p3, p3_low, p3_high = _interval(seats["Player 3"][4])
    assert p2.startswith("+") and p3.startswith("-")  # "more often", "less"
    assert _said(rf"Player 2 wins {NUM} points more often \(95% CI {NUM} to {NUM}\)") == (
        _mag(p2), _mag(p2_low), _mag(p2_high))
    assert _said(rf"Player 3 {NUM} points less \(95% CI {NUM} to {NUM}\)") == (_mag(p3), _mag(p3_high), _mag(p3_low))
    assert _said(rf"third seat \({NUM}% of the wins\) shrinks \({NUM}%\)") == (
        base["Player 3"][2].rstrip("%"), seats["Player 3"][2].rstrip("%"))
    s3, s3_low, s3_high = _interval(seats["Player 3"][6])
    assert s3.startswith("-")
    assert _said(rf"Player 3 also ends with {NUM} of a bucket less \(CI {NUM} to {NUM}\)") == (
        _mag(s3), _mag(s3_high), _mag(s3_low))
    s1 = _interval(seats["Player 1"][6])
    assert _said(rf"Player 1's {NUM} \(CI {NUM} to {NUM}\) may be no change") == s1
    assert s1[1].startswith("-") and s1[2].startswith("+")  # "may be no change": the interval holds 0


def test_the_two_field_tune_finds_what_the_notes_say(tmp_path):
    text = _run(["tune", "bucket-king", "--set", "players=3", "--field", "pyramid_base", "--field", "hand_size",
                 "--values", "3..5", "--values", "8..11", "--measure", "turns", "--target", "60", "--bots", "heuristic",
                 "--games", "100", "--workers", "1"], tmp_path)
    m = re.search(rf"pyramid_base = 4, hand_size = 8 brings mean turns per game closest to 60: {NUM} "
                  rf"\(95% CI {NUM} to {NUM};", text)
    assert m, text[:600]
    assert _said(rf"base 4 with a hand of 8 comes closest to 60 turns \({NUM}, 95% CI {NUM} to {NUM}\)") == m.groups()
    assert "cannot tell 2 other settings apart from it: pyramid_base = 4, hand_size = 9; pyramid_base = 4, " \
           "hand_size = 10." in text
    value = {}
    for line in text.splitlines():
        cells = line.split()
        if len(cells) > 3 and cells[0] in "345" and cells[1].isdigit():
            value.setdefault((int(cells[0]), int(cells[1])), cells[2])
    assert len(value) == 12, value
    assert _said(rf"a hand of 9 \({NUM}\) or 10 \({NUM}\)") == (value[4, 9], value[4, 10])
    lows = {b: sorted((float(value[b, h]), value[b, h]) for h in range(8, 12)) for b in (3, 5)}
    assert _said(rf"every base-3 pyramid is far too short \({NUM} to {NUM} turns\)") == (lows[3][0][1], lows[3][-1][1])
    assert _said(rf"every base-5 one too long \({NUM} to {NUM}\)") == (lows[5][0][1], lows[5][-1][1])


# --- what the notes say the course holds -----------------------------------------------------------

_COUNT = {21: "twenty-one", 22: "twenty-two", 23: "twenty-three", 24: "twenty-four", 25: "twenty-five",
          26: "twenty-six", 27: "twenty-seven", 28: "twenty-eight", 29: "twenty-nine", 30: "thirty"}


def test_the_notes_name_every_lesson_and_count_them():
    """The notes' `lessons/` bullet counts the lessons/NN_*.ipynb in words and names each of them, in order."""
    lessons = sorted(p.stem for p in NOTES.parent.glob("[0-9][0-9]_*.ipynb"))
    count, listed = _said(r"`lessons/`: ([a-z-]+) lessons, ((?:`\d\d_[a-z0-9_]+`, )+)and a teacher's guide")
    assert count == _COUNT[len(lessons)], (count, len(lessons))
    assert re.findall(r"`(\d\d_[a-z0-9_]+)`", listed) == lessons


def test_the_notes_list_every_course_command():
    """The layout's cli.py line names every command lessons/cli.py adds to `meeple` (a group with its subcommands)."""
    import argparse

    from meeple.course import cli

    sub = argparse.ArgumentParser().add_subparsers()
    cli.register(sub)
    names = []
    for name, parser in sub.choices.items():
        groups = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        names += [f"{name} {s}" for g in groups for s in g.choices] or [name]
    line = next(x for x in NOTES.read_text().splitlines() if x.startswith("cli.py "))
    assert line.split("commands: ", 1)[1].split(", ") == names, (line, names)
