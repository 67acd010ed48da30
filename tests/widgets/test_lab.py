"""The variant lab (meeple.widgets.lab, the site's lab page): compare's figures, links and variant files (issue 25)."""

from __future__ import annotations

import html
import shlex
import warnings

import pytest

from meeple.rules import bucket_brigade as bb
from meeple.rules.cli import main
from meeple.rules.reproduce import StampWarning, chance_fingerprint, package_version
from meeple.widgets.lab import VariantLab

# a path into a per-player-count table and an alias (hand_size-like named number)
SETTINGS = ["hand_sizes[1]=12", "start_value=2"]


def test_a_link_round_trips_a_variant_with_a_path_and_an_alias():
    lab = VariantLab("bucket-brigade", SETTINGS, bots="heuristic", games=123, seed=7, name="long-hands")
    assert lab.variant.hand_sizes[1] == 12 and lab.variant.track[0] == 2 and lab.variant.hand_sizes[0] == bb.Config().hand_sizes[0]
    link = lab.link()
    assert "hand_sizes%5B1%5D%3D12" in link and f"meeple={package_version()}" in link and chance_fingerprint() in link
    back, notes = VariantLab.from_link(link)
    assert notes == []
    assert (back.variant, back.settings, back.bots, back.games, back.seed, back.name) == \
        (lab.variant, SETTINGS, "heuristic", 123, 7, "long-hands")
    assert back.link() == link


def test_a_link_from_another_version_or_chance_stream_says_so_and_a_bad_one_is_refused():
    link = VariantLab("bucket-brigade", SETTINGS).link()
    _, notes = VariantLab.from_link(link.replace(f"meeple={package_version()}", "meeple=0.0.1"))
    assert notes == [f"this link was made with meeple 0.0.1; this is meeple {package_version()}: the rules or bots "
                     "may have changed, so the figures may differ."]
    _, notes = VariantLab.from_link(link.replace(chance_fingerprint(), "splitmix64-0000"))
    assert len(notes) == 1 and "chance stream splitmix64-0000" in notes[0] and "other games" in notes[0]
    with pytest.raises(ValueError, match="unknown part"):
        VariantLab.from_link(link + "&eval=1")
    with pytest.raises(ValueError, match="hand_sizes\\[9\\]"):
        VariantLab.from_link(link.replace("hand_sizes%5B1%5D", "hand_sizes%5B9%5D"))
    with pytest.raises(ValueError, match="leaves the rules as they are"):
        VariantLab("bucket-brigade", ["bonus=%d" % bb.Config().bonus])


def test_the_labs_figures_are_those_of_the_command_it_prints(capsys):
    """Played in steps (as the site plays them), the lab prints compare's own table for its command."""
    lab = VariantLab("bucket-brigade", SETTINGS, bots="heuristic", games=40, seed=3)
    while not lab.finished:
        lab.step(7)
    argv = shlex.split(lab.command())
    assert argv[:2] == ["meeple", "compare"] and "--seed" in argv
    assert main(argv[1:] + ["--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert lab.text() in printed
    assert "Rule usage" in lab.text() and "vs baseline" in lab.text()


def test_the_variant_file_is_read_by_compare_and_warns_when_made_by_another_version(tmp_path, capsys):
    lab = VariantLab("bucket-brigade", SETTINGS, name="long-hands")
    path = tmp_path / "long-hands.toml"
    path.write_text(lab.variant_file())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # this version, this chance stream: no warning
        assert bb.Config.load(path) == lab.variant
    assert main(["compare", "bucket-brigade", "--variant", "base:", "--variant", str(path), "--games", "20",
                 "--workers", "1"]) == 0
    assert "long-hands" in capsys.readouterr().out
    old = tmp_path / "old.toml"
    old.write_text(lab.variant_file().replace(f'meeple = "{package_version()}"', 'meeple = "0.0.1"'))
    with pytest.warns(StampWarning, match="made with meeple 0.0.1"):
        assert bb.Config.load(old) == lab.variant


def test_compare_rotates_different_bots_by_default_and_says_so_and_the_lab_does_the_same(capsys):
    """Issue 25: with different bots in the seats and no --rotate, `meeple compare` seats them in turn (a
    seat question is what a designer asks) and says so; --no-rotate keeps each bot in its seat and says
    that seat figures then mix skill and seat. The lab follows the same default, and its command too."""
    from meeple.rules.workbench import compare, format_comparison

    variants = {"base": bb.Config(), "bonus6": bb.Config(bonus=6)}
    argv = ["compare", "bucket-brigade", "--variant", "base:", "--variant", "bonus6:bonus=6", "--bots",
            "heuristic,random,random,random", "--games", "24", "--seed", "5", "--workers", "1"]
    assert main(argv) == 0
    default = capsys.readouterr().out
    assert "Bots rotated (meeple compare's default when the seats hold different bots; --no-rotate keeps" in default
    rotated = compare("bucket-brigade", variants, "heuristic,random,random,random", 24, 5, progress=False, workers=1, rotate=True)
    kept = compare("bucket-brigade", variants, "heuristic,random,random,random", 24, 5, progress=False, workers=1)
    # the default's figures are the rotated ones, not the seated ones
    first_rotated, first_kept = (format_comparison(t).splitlines()[2] for t in (rotated, kept))
    assert first_rotated != first_kept and first_rotated in default and first_kept not in default
    assert main(argv + ["--no-rotate"]) == 0
    seated = capsys.readouterr().out
    assert first_kept in seated and "each kept in its seat" in seated and "mix the bot's skill" in seated
    assert main(argv + ["--rotate"]) == 0
    explicit = capsys.readouterr().out
    assert first_rotated in explicit and "Bots rotated:" in explicit and "default" not in explicit.split("Bots rotated")[1][:5]
    # the lab: rotated, and the command it prints (no --rotate needed) prints its figures
    lab = VariantLab("bucket-brigade", ["bonus=6"], bots="heuristic,random,random,random", games=24, seed=5, name="bonus6")
    lab.step(24)
    assert lab.rotate and "--rotate" not in lab.command() and "--no-rotate" not in lab.command()
    assert main(shlex.split(lab.command())[1:] + ["--workers", "1"]) == 0
    assert lab.text() in capsys.readouterr().out
    # one bot everywhere: nothing to rotate, nothing said
    same = VariantLab("bucket-brigade", ["bonus=6"], bots="heuristic", games=4, seed=5)
    assert not same.rotate and "rotate" not in same.command()


def test_the_labs_report_is_the_one_compare_report_writes_for_its_command(tmp_path, capsys):
    """One report builder: the lab's HTML report (made in the browser's Python too) and the one
    `meeple compare --report` writes for the command the lab prints are the same file."""
    lab = VariantLab("bucket-brigade", SETTINGS, bots="heuristic", games=30, seed=4, name="long-hands")
    lab.step(30)
    path = tmp_path / "report.html"
    assert main(shlex.split(lab.command())[1:] + ["--workers", "1", "--report", str(path)]) == 0
    capsys.readouterr()
    page = lab.report()
    assert page == path.read_text()
    assert page.count("<figure class=chart>") == 4 and page.count("<svg") == 4
    assert "<script" not in page and "long-hands" in page


def test_the_reports_charts_put_each_figure_where_its_axis_says():
    """The report's SVG (drawn with the standard library): in the seat-advantage chart each variant's
    point and interval ends sit where the axis' tick labels put their values (read back from the SVG)."""
    import xml.etree.ElementTree as ET

    from meeple.widgets.report import charts

    lab = VariantLab("bucket-brigade", ["bonus=6"], bots="heuristic", games=40, seed=2)
    lab.step(40)
    cmp = lab.comparison()
    (_, adv), (_, diff), (_, seats), (_, length) = charts(cmp)
    ns = "{http://www.w3.org/2000/svg}"
    svg = ET.fromstring(adv)
    ticks = [(float(t.text.replace("−", "-").lstrip("+")), float(t.get("x"))) for t in svg.iter(ns + "text")
             if t.get("text-anchor") == "middle" and t.text and t.text.lstrip("+−-").replace(".", "").isdigit()]
    (v0, x0), (v1, x1) = ticks[0], ticks[-1]
    to_x = lambda v: x0 + (v - v0) / (v1 - v0) * (x1 - x0)  # noqa: E731 (the axis' own scale)
    per = cmp.table.drop_duplicates("variant").to_dict(orient="records")
    dots = [float(c.get("cx")) for c in svg.iter(ns + "circle")]
    assert len(dots) == len(per) == 2
    for r, cx in zip(per, dots):
        assert abs(cx - to_x(100 * r["first_seat_adv"])) < 0.2, (r["variant"], cx)
    ends = [(float(g.find(ns + "line").get("x1")), float(g.find(ns + "line").get("x2"))) for g in svg.iter(ns + "g")]
    for r, (lo, hi) in zip(per, ends):
        assert abs(lo - to_x(100 * r["first_seat_adv_low"])) < 0.2 and abs(hi - to_x(100 * r["first_seat_adv_high"])) < 0.2
    # the game-length histogram counts every game of each variant once
    bars = ET.fromstring(length).iter(ns + "rect")
    counted = sum(int(b.find(ns + "title").text.split(": ")[1].split(" ")[0]) for b in bars)
    assert counted == 2 * 40


# --- issue 36: several variants, identical play said, a chart, bounded steps, one-line errors --------------

def test_the_lab_plays_several_variants_and_says_which_play_the_base_games():
    import json

    from meeple.widgets.lab import lab_call

    lab = VariantLab("duck-duck-bruce", ["b5: best_face=5", "ms2: max_steal=2"], bots="heuristic", games=30, seed=1)
    assert list(lab.configs) == ["base", "b5", "ms2"]
    while not lab.finished:
        lab.step(30)
    s = lab.summary()
    assert s["same"][0].startswith("b5 plays the same games as base")
    assert {r["variant"] for r in s["rows"]} == {"base", "b5", "ms2"}
    assert s["chart"].startswith("<svg") and "ms2 · Player 1" in s["chart"]  # the paired differences, a row each
    again, _ = VariantLab.from_link(lab.link())  # the link keeps every variant
    assert again.configs == lab.configs
    # the one-variant call keeps working as before
    one = VariantLab("bucket-brigade", SETTINGS, name="long-hands")
    assert list(one.configs) == ["base", "long-hands"]
    # errors reach the page as one line, never a traceback
    bad = json.loads(lab_call(json.dumps({"op": "lab_start", "request": json.dumps(
        {"game": "duck-duck-bruce", "settings": ["nosuch=1"]})})))
    assert "\n" not in bad["error"] and "unknown parameter 'nosuch'" in bad["error"]
    bad = json.loads(lab_call(json.dumps({"op": "lab_start", "request": json.dumps({"link": "?game=nope&set=a"})})))
    assert bad == {"error": "unknown game 'nope'; games: bucket-brigade, bucket-king, duck-duck-bruce, piggyback-brigade"}


@pytest.mark.parametrize("games,seed,says", [
    ("300", "", "seed is empty: type a whole number, 0 or more"),
    ("300", "abc", "seed='abc' is not a whole number: type a whole number, 0 or more"),
    ("abc", "1", "games='abc' is not a whole number: type a whole number from 1 to 10,000,000"),
    ("", "1", "games is empty: type a whole number from 1 to 10,000,000"),
    ("1e3", "1", "games='1e3' is not a whole number"),
    ("300", "9" * 5000, "seed='999999"),
    ("300", "-1", "seed=-1 is not allowed: a whole number, 0 or more"),
])
def test_the_lab_form_sends_games_and_seed_as_typed_and_python_names_what_is_wrong(games, seed, says):
    """The page sent Number(text): an empty seed or letters played seed 0 (and the link carried seed=0);
    letters in games said "games= is not allowed". Now the text goes to Python, which refuses it, by name."""
    import json

    from meeple.widgets import lab as L

    answer = json.loads(L.lab_call(json.dumps({"op": "lab_start", "request": json.dumps(
        {"game": "bucket-brigade", "settings": ["bonus=6"], "common": [""], "bots": "random", "games": games,
         "seed": seed, "name": "variant", "measures": ""})})))
    assert list(answer) == ["error"] and answer["error"].startswith(says), answer
    started = json.loads(L.lab_call(json.dumps({"op": "lab_start", "request": json.dumps(
        {"game": "bucket-brigade", "settings": ["bonus=6"], "games": " 20 ", "seed": "0"})})))["ok"]
    assert started["seed"] == 0 and "games=20" in started["link"] and "seed=0" in started["link"], started


def test_the_labs_name_is_bounded_and_a_step_ends_on_time():
    with pytest.raises(ValueError, match="1 to 24 letters"):
        VariantLab("bucket-brigade", SETTINGS, name="x" * 25)
    with pytest.raises(ValueError, match="1 to 24 letters"):
        VariantLab("bucket-brigade", ["a b: bonus=6"])
    lab = VariantLab("bucket-brigade", SETTINGS, bots="heuristic", games=10_000, seed=1)
    # seconds=0: the step ends after its first game, whatever `games` asks (the page's Cancel is seen between steps)
    assert lab.step(10_000, seconds=0) == 0 and sum(map(len, lab.records.values())) == 1
    assert lab.step(3) == 3  # without a time bound: the games asked for, every variant


def test_the_lab_shows_design_measures_as_the_command_it_prints(capsys):
    lab = VariantLab("duck-duck-bruce", ["s1: max_steal=1"], bots="heuristic", games=30, seed=1,
                     measures="drama, margin")
    while not lab.finished:
        lab.step(11)
    argv = shlex.split(lab.command())
    assert argv[-4:] == ["--measure", "drama", "--measure", "margin"]
    assert main(argv[1:] + ["--workers", "1"]) == 0
    assert lab.text() in capsys.readouterr().out  # the same paired drama and margin, the same games
    assert "drama (per game" in lab.text()
    again, _ = VariantLab.from_link(lab.link())
    assert again.measures == ["drama", "margin"]
    with pytest.raises(ValueError, match="unknown measure 'dramas'"):
        VariantLab("duck-duck-bruce", ["max_steal=1"], measures=["dramas"])


def test_common_numbers_are_where_the_base_and_every_variant_start_and_the_printed_command_carries_them(capsys):
    """Issue 33: the lab had no common numbers (compare's --set); with them, the base and each variant start
    there, a variant's own numbers win, the link restores them, and the printed command (run here through
    the CLI's main, in-process) prints the same table."""
    import json

    from meeple.rules import bucket_king as bk
    from meeple.widgets import lab as L

    lab = VariantLab("bucket-king", ["pyramid_base=4", "big: hand_size=7"], common="players=3\n", games=30, seed=2)
    assert lab.configs["base"] == bk.Config(players=3)
    assert lab.configs["variant"] == bk.Config(players=3).with_text(["pyramid_base=4"])
    assert lab.configs["big"] == bk.Config(players=3, hand_size=7)
    while not lab.finished:
        lab.step(9)
    command = lab.command()
    assert " --set players=3 " in command and "--variant base: " in command and "big:hand_size=7" in command, command
    assert main(shlex.split(command)[1:] + ["--workers", "1"]) == 0
    assert lab.text() in capsys.readouterr().out
    back, notes = VariantLab.from_link(lab.link())
    assert notes == [] and back.common == ["players=3"] and back.configs == lab.configs
    started = json.loads(L.lab_call(json.dumps({"op": "lab_start", "request": json.dumps(
        {"game": "bucket-king", "settings": ["pyramid_base=4"], "common": ["players=3"], "games": 5})})))
    assert started["ok"]["common"] == ["players=3"] and "--set players=3" in started["ok"]["command"], started


@pytest.mark.parametrize("common,says", [
    (["players=9"], "common numbers: players=9 is not allowed"),
    (["pyramid_base=4"], "leaves the rules as they are (with the common numbers)"),
    (["\x1b[2J" + "x" * 10**6 + "=1"], "common numbers: unknown parameter"),
    (42, "rule numbers are text, one a line, or a list of texts; got 42"),
])
def test_common_numbers_are_refused_in_one_short_printable_line(common, says):
    with pytest.raises(ValueError) as e:
        VariantLab("bucket-king", ["pyramid_base=4"], common=common)
    text = str(e.value)
    assert says in text and "\n" not in text and len(text) < 600 and text.isprintable(), text[:300]


@pytest.mark.parametrize("settings,common,says,hint", [
    (["bonus=abc"], [], "bonus: 'abc' is not a whole number", False),
    (["bonus=-5"], [], "bonus=-5 is not allowed: 0 to 99 points", False),
    (["big: bonus=1e3", "small: bonus=2"], [], "big: bonus: '1e3' is not a whole number", False),
    (["bonus=6"], ["players=9"], "common numbers: players=9 is not allowed: 3 to 5", False),
    (["bonsu=3"], [], "unknown parameter 'bonsu'", True),
    (["bonus"], [], "setting 'bonus' is not of the form field=value", True),
    (["hand_sizes[7]=3"], [], "hand_sizes[7]: index 7 is out of range", True),
])
def test_a_refused_value_of_a_known_number_ends_with_what_is_allowed_not_a_pointer_to_the_names(settings, common,
                                                                                                   says, hint):
    """The lab page showed "bonus=-5 is not allowed: 0 to 99 points (names: see the list; e.g.
    players=... (one per line))": a pointer to the names after a value error reads as if the name
    were wrong. It is given only where a name is unknown or a line is not name=value."""
    with pytest.raises(ValueError) as e:
        VariantLab("bucket-brigade", settings, common=common, games=10)
    text = str(e.value)
    assert text.startswith(says) and ("(names: see the list" in text) == hint, text


def test_a_step_stops_inside_a_slow_game_and_the_next_goes_on_with_the_same_game():
    """Lookahead bots take seconds a game in the browser: a step with `seconds` stops between two
    decisions, inside a game, so the page sees Cancel within a second; the next step goes on with
    that game, and the games are the same however the steps cut them (no timing: seconds=0 stops
    after every decision)."""
    whole = VariantLab("piggyback-brigade", ["faces[3]=2"], bots="lookahead,random", games=2, seed=1)
    while not whole.finished:
        whole.step(2)
    cut = VariantLab("piggyback-brigade", ["faces[3]=2"], bots="lookahead,random", games=2, seed=1)
    assert cut.step(2, seconds=0) == 0 and cut.playing  # one decision of the first game, then back to the page
    assert all(r == [] for r in cut.records.values())
    steps = 1
    while not cut.finished:
        cut.step(2, seconds=0)
        steps += 1
    assert not cut.playing and steps > 20  # many steps, each a decision or a game's end
    assert cut.records == whole.records
    assert cut.text() == whole.text()


def test_the_pages_step_answer_says_a_game_is_in_play():
    import json

    from meeple.widgets.lab import lab_call

    started = json.loads(lab_call(json.dumps({"op": "lab_start", "request": json.dumps(
        {"game": "piggyback-brigade", "settings": ["faces[3]=2"], "bots": "lookahead", "games": 2})})))["ok"]
    assert started["done"] == 0 and started["playing"] is False
    step = json.loads(lab_call(json.dumps({"op": "lab_step", "request": json.dumps({"games": 2, "seconds": 0})})))
    assert step["ok"] == {"done": 0, "games": 2, "playing": True}


def test_every_refusal_reaches_the_page_as_one_line_naming_what_is_wrong():
    import json

    from meeple.widgets import lab as lab_module
    from meeple.widgets.lab import lab_call

    def start(request):
        return json.loads(lab_call(json.dumps({"op": "lab_start", "request": json.dumps(request)})))

    lab_module._labs.clear()
    step = json.loads(lab_call(json.dumps({"op": "lab_step", "request": "{}"})))
    assert step == {"error": "no lab is open: start one first (lab_start)"}  # not "KeyError: 'page'"
    said = start({"game": "duck-duck-bruce", "settings": ["max_steal=2"], "measures": "dramas"})["error"]
    assert said.startswith("unknown measure 'dramas'; known: win_rate, score, turns") and "mean_" not in said
    assert "cards_stolen" in said and "drama" in said  # the names `meeple rules GAME --measures` lists
    said = start({"link": "?game=duck-duck-bruce&set=max_steal%3D2&games=abc"})["error"]
    assert said == "the link's games='abc' is not a whole number"
    assert json.loads(lab_call("not json"))["error"].startswith("the lab's request is not JSON text")
    for request in ({"game": "duck-duck-bruce", "settings": ["max_steal=2"], "bots": "nosuch"},
                    {"game": "duck-duck-bruce", "settings": ["max_steal=9"]},
                    {"game": "duck-duck-bruce", "settings": ["x" * 100 + ": max_steal=2"]},
                    {"game": "duck-duck-bruce", "settings": ["max_steal=2"], "seed": -1}):
        said = start(request)["error"]
        assert "\n" not in said and "Traceback" not in said and len(said) < 300, said


def test_the_report_says_identical_play_and_carries_the_design_measures():
    """issue 36: the report (`compare --report`, the lab's download) names a variant that plays the
    base games, and shows a design measure asked for with its paired difference, as compare prints it."""
    from meeple.rules.comparison import sameness_lines

    lab = VariantLab("duck-duck-bruce", ["b5: best_face=5", "ms1: max_steal=1"], bots="heuristic", games=20, seed=1,
                     measures="margin")
    lab.step(20)
    page = lab.report()
    said = sameness_lines(lab.comparison().table)
    assert said and said[0].startswith("b5 plays the same games as base")
    assert html.escape(said[0]) in page
    margin = [line for line in lab.text().splitlines() if line.lstrip().startswith("ms1 ")][-1].split()
    assert margin[0] == "ms1" and html.escape(" ".join(margin[1:4])) in page  # ms1's margin and its interval


def test_a_run_stopped_after_one_game_answers_the_page_in_json_a_browser_reads():
    """Cancelled after one game, the lab's intervals are infinite: Python's json wrote them as
    -Infinity, which a browser's JSON.parse refuses ("No number after minus sign in JSON"), so the
    site's Cancel failed now and then (test_site_lab's cancel step, when it landed after one game).
    Every answer the page reads is strict JSON: no NaN, no Infinity."""
    import json

    from meeple.widgets.lab import lab_call

    def refused(constant):
        raise AssertionError(f"{constant} is not JSON a browser reads")

    start = {"game": "bucket-brigade", "settings": ["bonus=6"], "bots": "random", "games": "40", "seed": "1"}
    for op, request in [("lab_start", start), ("lab_step", {"games": 1}), ("lab_result", "")]:
        text = lab_call(json.dumps({"op": op, "request": json.dumps(request) if request else ""}))
        answer = json.loads(text, parse_constant=refused)
        assert "ok" in answer, answer
    assert answer["ok"]["done"] == 1 and answer["ok"]["partial"] and "n/a" in answer["ok"]["text"]


def test_a_cancelled_runs_command_plays_the_games_played_and_prints_the_figures_shown(capsys):
    """Cancelled after 7 of 300 games, the page said "The same figures from the command line: ...
    --games 300": that command prints 300 games' figures, not the 7 shown. It names the games played."""
    lab = VariantLab("bucket-brigade", ["bonus=6"], bots="heuristic,random", games=300, seed=5)
    lab.step(7)
    command = lab.command()
    assert "--games 7 " in command + " " and "--games 300" not in command, command
    assert main(shlex.split(command)[1:] + ["--workers", "1"]) == 0
    printed = capsys.readouterr().out
    shown = lab.text()
    table = lambda text: [line for line in text.splitlines()[1:] if not line.startswith("Interrupted")]
    assert table(printed) == table(shown), (printed, shown)
    assert lab.summary()["command"] == command and html.escape(command) in lab.report()
    lab.step(300)
    assert "--games 300" in lab.command()


def test_an_emptied_bots_field_is_named_not_played_as_random():
    """The page sent `bots.value.trim() || "random"`: an emptied field played random bots unsaid.
    The text goes to Python as typed, which names the empty field and the bots it knows."""
    import json
    from pathlib import Path

    from meeple.widgets import lab as L

    page = Path(__file__).resolve().parents[2] / "lessons" / "site" / "runtime" / "static" / "meeple-lab.js"
    assert '|| "random"' not in page.read_text()
    for typed in ("", "   "):
        answer = json.loads(L.lab_call(json.dumps({"op": "lab_start", "request": json.dumps(
            {"game": "bucket-brigade", "settings": ["bonus=6"], "bots": typed, "games": "20", "seed": "1"})})))
        assert answer == {"error": "bots is empty: name one bot for every seat (e.g. random) or one a seat; "
                                   "known bots: random, heuristic, lookahead, ismcts"}, answer
