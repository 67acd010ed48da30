"""The course's conventions, checked on every lessons/NN_topic.ipynb (structure, not outputs;
nbval runs the notebooks themselves, and tests/lessons/test_lessons_run.py reads what they show).

Every lesson:
- is named NN_topic.ipynb (NN = 01..25) and has a python3 kernelspec;
- opens with a markdown cell saying "What you will learn" and "What you need first";
- has 2-4 exercises: each a `check("NN.name", ...)` call in a student cell, with a
  registered checker, and at least two cells tagged `solution`;
- puts an exact answer (Fractions / meeple.rules.exact) beside a sampled one with its
  interval (wilson / mean_ci / a simulate or sweep table's intervals);
- states no number in prose that a cell does not compute: markdown has no decimals,
  percentages or integers of 13 or more outside $math$, `code`, rule ids (BB-7),
  lesson numbers and links; computed sentences come from `say(...)` in cells tagged
  `remove-input` (the site then shows only the sentence);
- is committed without outputs.
The exercise checkers themselves are tested at the bottom: each accepts the answer the
engine computes and refuses a near miss and an answer of the wrong kind.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from meeple.course import exercises as ex

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
NOTEBOOKS = sorted(p for p in LESSONS.glob("*.ipynb"))
NAME = re.compile(r"^(\d\d)_[a-z0-9_]+\.ipynb$")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _src(cell: dict) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


# --- the prose rule: no uncomputed numbers ---------------------------------------------

_EXEMPT = [
    re.compile(r"```.*?```", re.S),                    # fenced code
    re.compile(r"\$\$.*?\$\$", re.S),                  # display math
    re.compile(r"\$[^$\n]+\$"),                        # inline math
    re.compile(r"`[^`\n]+`"),                          # code spans
    re.compile(r"!?\[[^\]]*\]\([^)]*\)"),              # links and images
    re.compile(r"<[^>]+>"),                            # html tags (attributes)
    re.compile(r"\b[A-Z]{2,4}-\d+[a-z]?\b"),           # rule ids: BB-7, DDB-3, PB-12, BK-4
    re.compile(r"\b[Ll]essons?\s+\d+(\s*(?:,|and|to|or|-|–)\s*\d+)*"),  # lesson numbers
    re.compile(r"^#+\s*\d+[.:]?", re.M),               # a heading's lesson number
]
_DECIMAL = re.compile(r"(?<![\w.])\d*\.\d+")
_PERCENT = re.compile(r"\d\s*%|\bper\s?cent\b", re.I)
_INTEGER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?![\w])|(?<![\w.,])\d+(?![\w.,]\d)")


def stray_numbers(markdown: str) -> list[str]:
    """Numbers in `markdown` that the prose rule forbids (what a cell should compute)."""
    text = markdown
    for pat in _EXEMPT:
        text = pat.sub(" ", text)
    bad = [m.group() for m in _DECIMAL.finditer(text)] + [m.group() for m in _PERCENT.finditer(text)]
    for m in _INTEGER.finditer(text):
        if int(m.group().replace(",", "")) >= 13:
            bad.append(m.group())
    return bad


def test_the_prose_rule_catches_what_it_should():
    assert stray_numbers("Player 1 wins 28.4% of games") == ["28.4", "4%"]
    assert stray_numbers("about 2,000 games, or 400") == ["2,000", "400"]
    assert stray_numbers("the mean is 7/3 and a die has 6 faces; roll 12 times") == []
    assert stray_numbers("# 13. Timing\nsee lesson 14 and rule BB-17; `games=2000`, $p = 0.25$") == []
    assert stray_numbers("[lesson](13_timing.ipynb) and $$\\sum_{k=0}^{20} x$$") == []
    assert stray_numbers("wins 0.49 of the time") == ["0.49"]


# --- structure of each lesson ------------------------------------------------------------

@pytest.fixture(params=NOTEBOOKS, ids=lambda p: p.name)
def lesson(request) -> Path:
    return request.param


def test_there_is_a_course():
    numbered = [p for p in NOTEBOOKS if NAME.match(p.name)]
    assert len(numbered) >= 7, [p.name for p in NOTEBOOKS]


def test_name_and_kernel(lesson):
    m = NAME.match(lesson.name)
    assert m, f"{lesson.name}: lessons are named NN_topic.ipynb (NN = 01..25, lower-case topic)"
    assert 1 <= int(m.group(1)) <= 25
    meta = json.loads(lesson.read_text(encoding="utf-8"))["metadata"]
    assert meta.get("kernelspec", {}).get("name") == "python3", f"{lesson.name}: kernelspec must be python3"


def test_committed_without_outputs(lesson):
    for i, c in enumerate(_cells(lesson)):
        if c["cell_type"] == "code":
            assert not c.get("outputs"), f"{lesson.name} cell {i} has outputs: clear them before committing"
            assert c.get("execution_count") is None, f"{lesson.name} cell {i} has an execution count"


def test_opens_with_goals_and_prerequisites(lesson):
    first = next(c for c in _cells(lesson) if c["cell_type"] == "markdown")
    text = _src(first).lower()
    assert "what you will learn" in text, f"{lesson.name}: first markdown cell needs 'What you will learn'"
    assert "what you need first" in text, f"{lesson.name}: first markdown cell needs 'What you need first'"


_CHECK = re.compile(r"""\bcheck\(\s*["'](\d\d\.[\w.]+)["']""")


def test_exercises_check_themselves_and_have_solutions(lesson):
    cells = _cells(lesson)
    lesson_no = lesson.name[:2]
    student = [c for c in cells if c["cell_type"] == "code" and "solution" not in _tags(c)]
    keys = {k for c in student for k in _CHECK.findall(_src(c))}
    assert 2 <= len(keys) <= 4, f"{lesson.name}: needs 2-4 exercises with check('{lesson_no}.name', ...), found {sorted(keys)}"
    registered = set(ex.keys())
    for k in keys:
        assert k.startswith(lesson_no + "."), f"{lesson.name}: exercise key {k!r} should start with {lesson_no}."
        assert k in registered, f"{lesson.name}: check({k!r}) has no checker registered in meeple.course.exercises"
    solutions = [c for c in cells if "solution" in _tags(c)]
    assert len(solutions) >= 2, f"{lesson.name}: needs a cell tagged 'solution' per exercise, found {len(solutions)}"
    solved = {k for c in solutions for k in _CHECK.findall(_src(c))}
    assert keys <= solved, f"{lesson.name}: solutions should end by passing their check: {sorted(keys - solved)} never checked"


def test_exact_beside_sampled(lesson):
    code = "\n".join(_src(c) for c in _cells(lesson) if c["cell_type"] == "code")
    assert re.search(r"Fraction|\bexact\b|exact_", code), f"{lesson.name}: no exact answer (Fraction or meeple.rules.exact)"
    assert re.search(r"wilson|mean_ci|ratio_ci|_low|_high|\bci\b|Explorer|simulate|sweep|compare|tune|balance_report", code), (
        f"{lesson.name}: no sampled answer with its interval"
    )


def test_prose_states_no_uncomputed_numbers(lesson):
    for i, c in enumerate(_cells(lesson)):
        if c["cell_type"] == "markdown":
            bad = stray_numbers(_src(c))
            assert not bad, f"{lesson.name} markdown cell {i}: {bad} — compute it in a cell and show it with say(f'...')"


def test_computed_sentences_hide_their_code(lesson):
    for i, c in enumerate(_cells(lesson)):
        # a top-level say() is a sentence of prose; one inside a function is a widget's callback
        if c["cell_type"] != "code" or not re.search(r"^say\(", _src(c), re.M):
            continue
        if "solution" in _tags(c) or _CHECK.search(_src(c)):
            continue  # a solution or an exercise shows its code on purpose
        assert "remove-input" in _tags(c), f"{lesson.name} cell {i} calls say(): tag it 'remove-input'"


# --- the checkers behave: unknown keys and wrong kinds get a message -------------------

def test_check_names_what_it_expects(capsys):
    assert ex.check("01.no_such_exercise", 1) is False
    assert "no exercise called" in capsys.readouterr().out
    assert ex.check("01.wilson", "seven of ten") is False
    assert "Not the right kind" in capsys.readouterr().out
    assert ex.check("01.wilson", ...) is False
    assert "No answer yet" in capsys.readouterr().out


def test_say_refuses_a_non_string():
    with pytest.raises(TypeError, match="str"):
        ex.say(3)


# --- lessons 1-7's checkers: the engine's answer passes, a near miss and a wrong kind do not ----------

from meeple.rules import exact
from meeple.rules import piggyback_brigade as pb
from meeple.rules.stats import wilson


def _quiet(key, answer):
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()) as out:
        ok = ex.check(key, answer)
    return ok, out.getvalue()


_ACCEPT_TABLE = [
        ("01.wilson", wilson(7, 10), (0.416, 0.984)),  # the Wald interval gets its own hint
        ("02.moments", (Fraction(2), Fraction(2, 3)), (Fraction(2), Fraction(14, 3))),
        ("02.die", (1, 1, 2, 3, 3, 3, 3, 4), (1, 2, 2, 3, 3, 4)),  # six faces cannot: mean 5/2, variance 11/12
        ("03.chase", exact.chase_turn_mean(pb.Config(), 5), Fraction(7)),  # 5: the toggles show the chase 4 behind
        ("04.track", 28, 27),  # five turns (the track slider opens on 21 spaces, about four turns)
        ("04.slow", 1 - exact.at_most(exact.time_trial_turns(pb.Config()), 3), exact.at_least(exact.time_trial_turns(pb.Config()), 3)),
        ("05.games", 1937, 861),
        ("05.power", 1672, 1937),
        ("06.boost", Fraction(5845, 972), Fraction(-5845, 972)),
        ("07.third", Fraction(1, 4), Fraction(13, 66)),
        ("07.no_double", Fraction(27, 65), Fraction(54, 65) ** 3),
        ("07.bruces", 1 - exact.hypergeometric(66, 6, 10)[0], exact.hypergeometric(66, 6, 10)[1]),
]


@pytest.mark.parametrize("key, right, near_miss", _ACCEPT_TABLE)
def test_checker_accepts_the_answer_and_refuses_a_near_miss(key, right, near_miss):
    assert _quiet(key, right)[0], key
    ok, said = _quiet(key, near_miss)
    assert not ok and "Not yet" in said, said


EXACT_KEYS = ["02.moments", "03.chase", "04.slow", "06.boost", "07.third", "07.no_double", "07.bruces"]


@pytest.mark.parametrize("key", EXACT_KEYS)
def test_exact_exercises_refuse_a_wrong_or_rounded_decimal(key):
    ok, said = _quiet(key, (2.0, 0.667) if key == "02.moments" else 0.415)
    assert not ok and "exact" in said and "Fraction(" in said, said


@pytest.mark.parametrize("key", EXACT_KEYS)
def test_exact_exercises_take_the_answer_computed_in_floats(key):
    """A student who computed in floats is right when the float is the answer to float precision;
    the same answer rounded to four digits is told to give the exact value, not that it is wrong."""
    right = {k: r for k, r, _ in _ACCEPT_TABLE}[key]
    as_float = tuple(float(v) for v in right) if key == "02.moments" else float(right)
    assert _quiet(key, as_float)[0], key
    rounded = tuple(round(float(v), 4) for v in right) if key == "02.moments" else round(float(right), 4)
    ok, said = _quiet(key, rounded)
    if rounded == right:  # four decimals hold it exactly (1/4 is 0.25): then it is the answer
        assert ok, said
    else:
        assert not ok and "agrees with the answer" in said and "Fraction(" in said, said


def test_games_checker_names_the_whole_width_mistake():
    """05.games: an interval two points wide in total (half-width 1 point, four times the games)
    gets its own hint; an unrelated number does not."""
    whole = ex.games_for_half_width(0.28, 0.01)
    assert "2 points wide in total" in _quiet("05.games", whole)[1]
    assert "wide in total" not in _quiet("05.games", 216)[1]


def test_games_checker_takes_the_fewest_games_and_shows_a_miss_apart_from_the_target():
    """05.games asks for the fewest games with a half-width of at most `half` (0.02 in the lesson's own
    numbers): 1937 passes; 1936 (half-width 0.0200005) is a miss whose hint shows it as more than 0.02, not
    as "0.020"; 2000 (0.0197) reaches the target but is not the fewest, and the hint says so; 1900
    (0.0202, outside "at most") does not pass."""
    with ex.as_student(None):
        assert _quiet("05.games", 1937)[0]
        for n in (1936, 1900, 1850):
            ok, said = _quiet("05.games", n)
            assert not ok and "more than your 0.02" in said and "half-width of 0.020;" not in said, said
            shown = re.search(r"half-width of ([0-9.]+)", said)[1]
            assert float(shown) != 0.02 and len(shown) > len("0.02"), said
        for n in (1938, 2000, 3000):
            ok, said = _quiet("05.games", n)
            assert not ok and "within your 0.02" in said and "fewest games" in said, said


@pytest.mark.parametrize("key, wrong", [("03.seat", "maybe"), ("06.catchup", "if-last"), ("04.track", 2.5),
                                        ("05.games", "many"), ("02.die", (0, 1, 2)), ("01.ender", ((0.7,), None))])
def test_wrong_kind_of_answer_names_what_is_expected(key, wrong):
    ok, said = _quiet(key, wrong)
    assert not ok and "Not the right kind" in said, said


def test_the_ender_checker_wants_the_games_and_compares_with_the_engine():
    """01.ender takes (interval, games): the interval the games give passes, also rounded to two
    decimals; an interval alone, another interval, or games of another question do not."""
    from meeple.rules import simulate
    from meeple.rules.bucket_brigade import Config

    six = simulate("bucket-brigade", Config(rounds=1, bonus=6), "random", games=300, seed=5, progress=False, workers=1)
    enders = six.table[six.table["rounds_ended"] == 1]
    mine = wilson(int(enders["won"].sum()), len(enders))
    assert _quiet("01.ender", (mine, six))[0]
    assert _quiet("01.ender", ((round(mine[0], 2), round(mine[1], 2)), six))[0]
    assert _quiet("01.ender", (mine, ex.Evidence.of(six)))[0]
    ok, said = _quiet("01.ender", (0.70, 0.701))
    assert not ok and "Not the right kind" in said and "(interval, games)" in said, said
    ok, said = _quiet("01.ender", ((mine[0] + 0.02, mine[1] + 0.02), six))
    assert not ok and "not the Wilson interval of your own games" in said, said
    share = wilson(float(enders["win_share"].sum()), len(enders))
    ok, said = _quiet("01.ender", (share, six))
    assert not ok and "win_share" in said, said
    ok, said = _quiet("01.ender", (..., ...))
    assert not ok and "No answer yet" in said


def test_the_ender_checker_names_both_sides_of_every_rule_that_differs():
    """01.ender with games of other rules: each field that differs shows the student's value and the question's,
    a default included (bonus 3 is the default, so describe() alone left it out); the wrong-kind example names
    the lesson's own variable (`raised`)."""
    from meeple.rules import simulate
    from meeple.rules.bucket_brigade import Config

    with ex.as_student(None):
        base = simulate("bucket-brigade", Config(rounds=1), "random", games=200, seed=5, progress=False, workers=1)
        ok, said = _quiet("01.ender", ((0.3, 0.5), base))
        assert not ok and "bonus=3 where the question has bonus=6." in said, said
        other = simulate("bucket-brigade", Config(rounds=2, bonus=4), "random", games=200, seed=5, progress=False, workers=1)
        ok, said = _quiet("01.ender", ((0.3, 0.5), other))
        assert not ok and "bonus=4, rounds=2 where the question has bonus=6, rounds=1." in said, said
        ok, said = _quiet("01.ender", (0.3, 0.5))
        assert not ok and "(ender_interval, raised)" in said, said
    lesson_1 = next(p for p in NOTEBOOKS if p.name.startswith("01_"))
    assert 'check("01.ender", (ender_interval, raised))' in lesson_1.read_text(encoding="utf-8").replace('\\"', '"')


def _say_cell(lesson: str, start: str) -> str:
    path = next(p for p in NOTEBOOKS if p.name.startswith(lesson + "_"))
    return next(_src(c) for c in _cells(path) if c["cell_type"] == "code" and _src(c).startswith(start))


@pytest.mark.parametrize("fits", [True, False])
def test_lesson_12_sweep_sentence_says_finer_grid_once(fits, capsys):
    """Lesson 12's sentence after the sweep, whether or not an interval holds the target: one 'finer grid' advice."""
    import pandas as pd

    lost = pd.DataFrame({"fall_probability": [0.2, 0.4], "lost": [3.0, 5.0],
                         "lost_low": [2.5, 4.0 if fits else 4.5], "lost_high": [3.5, 6.0]})
    exec(_say_cell("12", "fits = lost["), {"lost": lost, "target_round": 4.2, "say": ex.say})
    said = capsys.readouterr().out
    assert said.count("finer grid") == 1 and ("cannot rule out" in said) == fits, said


def test_lesson_18_equilibrium_sentence_says_leaving_its_mix():
    cell = " ".join(_say_cell("18", "inside = sum(").split())
    assert "neither side gains by leaving \" f\"its mix, which is what an equilibrium is" in cell, cell


def test_exercises_module_imports_light():
    """say/check must load fast in every lesson (and in the browser): no altair or pandas at import."""
    import subprocess
    import sys

    code = "import sys, meeple.course.exercises; print(sorted(m for m in ('altair', 'pandas') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]", out


def _names(src: str) -> tuple[set[str], set[str]]:
    """(names a cell assigns or imports, names it reads)."""
    import ast

    tree = ast.parse(src)
    stored, loaded = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (stored if isinstance(node.ctx, (ast.Store, ast.Del)) else loaded).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stored.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            stored.update((a.asname or a.name).split(".")[0] for a in node.names)
    return stored, loaded


def solution_leaks(cells: list[dict]) -> list[str]:
    """Cells (after scrubbing) that read a name only a solution cell defines."""
    public: set[str] = set()
    solution_only: set[str] = set()
    leaks = []
    for i, c in enumerate(cells):
        if c["cell_type"] != "code":
            continue
        stored, loaded = _names(_src(c))
        if "solution" in _tags(c):
            solution_only |= stored - public
            continue
        missing = (loaded & solution_only) - public - stored
        if missing:
            leaks.append(f"cell {i} reads {sorted(missing)}, defined only in a solution cell")
        public |= stored
        solution_only -= stored
    return leaks


def test_solution_leaks_are_found():
    code = lambda src, *tags: {"cell_type": "code", "source": src, "metadata": {"tags": list(tags)}}
    assert solution_leaks([code("a = 1"), code("b = a + 1", "solution"), code("print(b)")]) == [
        "cell 2 reads ['b'], defined only in a solution cell"]
    assert solution_leaks([code("b = 0"), code("b = 2", "solution"), code("print(b)")]) == []


def test_student_copy_runs_without_the_solutions(lesson):
    """`meeple scrub` removes the cells tagged solution: no later cell may read a name only a solution defines."""
    leaks = solution_leaks(_cells(lesson))
    assert not leaks, f"{lesson.name}: {leaks}"


def test_tally_counts_and_shows_the_wilson_interval():
    from meeple.widgets.tally import Tally

    t = Tally("Did the ender win?", yes="won", no="lost")
    assert t.interval() == (0.0, 1.0) and "No games" in t.text
    for happened in (True, True, False):
        t.add(happened)
    t.handle({"do": "press", "name": "yes"})  # the buttons count too (what panel.js sends)
    assert (t.yes_count, t.no_count, t.games) == (3, 1, 4)
    assert t.interval() == wilson(3, 4)
    assert "3 of 4 games" in t.text
    with pytest.raises(ValueError, match="True or False"):
        t.add(1)
    t.reset()
    assert t.games == 0


@pytest.mark.parametrize("faces, impossible", [((1, 2, 3, 4), True), ((1, 2, 3, 4) * 3, True),
                                               ((1, 2, 3, 4, 1, 3), True), ((2,) * 8, False), ((2,) * 16, False)])
def test_die_checker_asks_whether_the_face_count_can_work(faces, impossible):
    """02.die: mean 5/2 and variance 1 need a multiple of eight faces (sum 5n/2 and squares 29n/4 whole,
    and the squares even because an even sum has an even number of odd faces); other counts get the hint."""
    ok, said = _quiet("02.die", faces)
    assert not ok and ("Can any die" in said) == impossible, said


def test_catchup_checker_refuses_a_rule_whose_turns_never_end():
    """06.catchup: every face rerolling always is refused, as the lesson's rule picker refuses it (PB-6)."""
    ok, said = _quiet("06.catchup", ("yes",) * 6)
    assert not ok and "never ends" in said, said


# --- what the lessons conclude holds against what they compute (issue 23) ------------------------

def _steal_chances(lead, config=None):
    from meeple.rules import duck_duck_bruce as ddb

    config = config or ddb.Config()
    return {c: exact.win_chance(exact.steal_swing(c, config), lead) for c in [0, *range(config.min_steal, config.max_steal + 1)]}


def test_09_the_smallest_gamble_that_can_overtake_is_best_at_every_lead():
    """Lesson 9's rule: ahead, decline; otherwise the smallest claim whose success overtakes
    (the biggest if none can). It must pick a best choice at every lead of the lesson's table,
    and "variance is good for the trailer" must fail where the lesson says it does: one behind,
    the calmest claim beats the wildest."""
    from meeple.rules import duck_duck_bruce as ddb

    config = ddb.Config()
    claims = range(config.min_steal, config.max_steal + 1)
    for lead in range(-7, 4):
        chances = _steal_chances(lead)
        over = [c for c in claims if max(exact.steal_swing(c, config)) > -lead]
        rule = 0 if lead > 0 else min(over) if over else max(claims)
        assert chances[rule] == max(chances.values()), (lead, chances)
    var = {c: exact.variance(exact.steal_swing(c, config)) for c in claims}
    calm, wild = min(claims, key=var.get), max(claims, key=var.get)
    one_behind = _steal_chances(-1)
    assert one_behind[calm] > one_behind[wild]
    # 2(c) no longer says every claim expects the same cards: they do not
    assert len({ddb.steal_expectation(c, config) for c in claims}) > 1
    text = "".join(_src(c) for c in _cells(LESSONS / "09_risk.ipynb"))
    assert "the same expected cards for every claim" not in text
    assert "Variance is bad for the leader and good for the trailer" not in text


def test_13_every_hand_before_your_turn_counts():
    """Lesson 13: q counts the hands of all the players who move before your next turn; it is
    at least the next player's alone, agrees with dealt worlds, and the lesson's verdict (end now
    at the base bonus) holds for every q between the two, as its section 2 says."""
    import random
    from math import comb

    from meeple.rules import bucket_brigade as bb
    from meeple.course.exercises.lesson_13 import _timing

    t = _timing()
    assert 1 - t["q"] == Fraction(comb(t["unseen"] - t["can_end"], t["held"]), comb(t["unseen"], t["held"]))
    assert t["q"] > t["q1"]
    b = lambda q: (t["A"] - t["B"]) + (t["B"] - t["E"]) / q
    assert bb.Config().bonus > max(b(t["q1"]), b(Fraction(1)), b(t["q"]))  # "end now" whatever q is
    # exercise 2's direction: fewer cards in the other hands, a smaller q, b* moves as B - E says
    assert (t["B"] < t["E"]) == (b(t["q"] * Fraction(9, 10)) < b(t["q"]))
    # sampled beside exact: deal the unseen cards to the other hands (as the bots guess them)
    seen = t["seen"]
    p, config = seen.player, bb.Config()
    rng = random.Random(23)
    others = [(p + k) % config.players for k in range(1, config.players)]
    worlds = 600
    hits = sum(any(c.colour in (t["colour"], None) and c.steps >= t["gap"] for o in others for c in w.hands[o])
               for w in (bb.determinize(seen, rng) for _ in range(worlds)))
    low, high = wilson(hits, worlds)
    assert low <= t["q"] <= high, (hits, worlds, t["q"])


def test_13_smaller_hands_safer_waiting():
    """Lesson 13, section 3: the chance the next hand can end the round grows with its size."""
    from meeple.course.exercises.lesson_13 import _timing

    t = _timing()
    qs = [1 - exact.hypergeometric(t["unseen"], t["can_end"], k).get(0, 0) for k in range(1, 16)]
    assert all(a < b for a, b in zip(qs, qs[1:]))


def test_01_and_12_count_the_ender_differently():
    """Lesson 12 says its ender_win_rate (a k-way tie counts 1/k) is below lesson 1's count (a
    tie for the most is a win): on the same games it must be, and by the tied rounds alone."""
    from meeple.rules import bucket_brigade as bb
    from meeple.rules import simulate

    res = simulate("bucket-brigade", bb.Config(rounds=1), "random", games=300, seed=1, progress=False, workers=1)
    ended = res.table[res.table["rounds_ended"] == 1]
    whole, share = ended["won"].mean(), ended["win_share"].mean()
    tied = ended[(ended["won"] == 1) & (ended["win_share"] < 1)]
    assert share < whole
    assert abs((whole - share) * len(ended) - (1 - tied["win_share"]).sum()) < 1e-9


def test_05_and_12_say_what_tune_compares():
    """tune rules a neighbour out only when the neighbour's interval stays farther from the target
    than the answer's own interval reaches (issue 25 changed it from the answer's point estimate);
    lessons 5 and 12 must say which intervals it compares, and no longer the old rule."""
    text5 = "".join(_src(c) for c in _cells(LESSONS / "05_how_many_games.ipynb"))
    text12 = "".join(_src(c) for c in _cells(LESSONS / "12_design_to_a_target.ipynb"))
    assert "`tune`" in text5 and "own interval" in text5 and "own interval" in text12
    assert "as the answer's estimate" not in text5 + text12 and "ignores the answer's own interval" not in text5 + text12


def test_charts_stay_readable():
    """Issue 23's charts: dozens of bars label every fifth value, not every bar; a legend shows
    a long rule name whole; a chart's title says a field in words."""
    from meeple.widgets import charts

    dist = {k: Fraction(1, 52) for k in range(1, 53)}
    axis = charts.distribution_chart(dist).to_dict()["encoding"]["x"]["axis"]
    assert axis["values"] == list(range(5, 53, 5))
    assert "values" not in charts.distribution_chart({1: Fraction(1, 2), 2: Fraction(1, 2)}).to_dict()["encoding"]["x"]["axis"]
    assert charts.LEGEND.to_dict()["labelLimit"] >= charts.WIDTH


# --- more of what the lessons conclude, held against what they compute (issue 23) ----------------

def test_02_the_same_mean_with_more_spread_makes_long_runs_likelier():
    """Lesson 2: the steady die has the piglets' mean with less variance, and the piglets' die
    reaches nine or more in three rolls more often ("the spread decides how often luck beats
    the favourite")."""
    roll, steady = exact.die(pb.Config().faces), exact.die((2, 2, 2, 3, 3, 2))

    def three(one):  # the sum of three rolls: every pair of outcomes, chances multiplied
        total = {0: Fraction(1)}
        for _ in range(3):
            nxt: dict = {}
            for a, p in total.items():
                for b, q in one.items():
                    nxt[a + b] = nxt.get(a + b, 0) + p * q
            total = nxt
        return total

    assert exact.mean(roll) == exact.mean(steady) and exact.variance(roll) > exact.variance(steady)
    assert exact.at_least(three(roll), 9) > exact.at_least(three(steady), 9)


def test_03_a_chaser_gains_with_the_gap_and_stops_short_of_an_all_turn_chase():
    """Lesson 3: a chasing turn moves more than a turn ahead, more the further behind it starts,
    and less than a turn judged last all the way (last place is judged before every roll)."""
    cfg = pb.Config()
    chase = [exact.chase_turn_mean(cfg, g) for g in range(0, 11)]
    assert all(a < b for a, b in zip(chase, chase[1:]))
    assert chase[0] > exact.turn_mean(cfg)
    assert chase[-1] < exact.exact_turn_distance(cfg, from_last=True, max_rerolls=12).mean()


def test_04_a_longer_track_takes_more_turns():
    """Lesson 4 tunes a track to a target length by searching an exact function that grows
    with the track (04.track's answer bisects on that)."""
    means = [exact.time_trial_mean(pb.Config(), n) for n in range(1, 101)]
    assert all(a < b for a, b in zip(means, means[1:]))


def test_05_precision_costs_the_square_and_power_about_twice():
    """Lesson 5's take-aways: half the interval takes four times the games; an edge of delta needs
    roughly twice the games that make the interval plus or minus delta (at every edge a student gets)."""
    for p in (0.28, 0.30, 0.32):
        for h in (0.01, 0.02, 0.03):
            n, quarter = ex.games_for_half_width(p, h), ex.games_for_half_width(p, h / 2)
            assert 4 * n - 4 <= quarter <= 4 * n
    for edge in (0.02, 0.03, 0.05, 0.07):
        ratio = ex.games_for_power(0.25, 0.25 + edge) / ex.games_for_half_width(0.25 + edge, edge)
        assert 1.7 <= ratio <= 2.3, (edge, ratio)


def test_11_the_poke_model_loses_more_as_p_grows_and_never_more_than_the_exact_rule():
    """Lessons 11 and 12: the expected loss grows with p (lesson 12's bisection rests on it), and at
    p = 1 it is the exact rule's count."""
    from meeple.rules import bucket_king as bk

    rows = bk.Config().rows
    for place in ((0, rows[0] // 2), (1, 1)):
        losses = [exact.mean(bk.fall_distribution(rows, (), place, Fraction(k, 8))) for k in range(9)]
        assert all(a < b for a, b in zip(losses, losses[1:])), place
        assert losses[-1] == len(bk.falling_buckets(rows, (), place))


def test_06_catch_up_pulls_the_half_time_leader_down():
    """Lesson 6: positive feedback pushes the half-time leader's rate up and a catch-up rule pulls it
    down, on the same seeds (no catch-up > base > only the last rerolls), at every player count
    06.catchup gives a student; the solution's candidates reach both sides of the base rule."""
    from meeple.rules.sim import CHECKPOINTS
    from meeple.course.exercises import lesson_06

    assert CHECKPOINTS[lesson_06.HALFTIME] == 50  # the checker reads the half-time leader
    Y, N, L = pb.YES, pb.NO, pb.IF_LAST
    for players in sorted({p for p, _, _ in ex.NUMBERS["06"]["catchup"]}):
        rate = {name: ex.halftime_leader(pb.Config(players=players, rerolls=rules))
                for name, rules in (("none", (Y, Y, Y, Y, N, N)), ("base", pb.Config().rerolls), ("strong", (L,) * 6))}
        assert rate["none"][0] > rate["base"][0] > rate["strong"][0], (players, rate)
        tried = [ex.halftime_leader(pb.Config(players=players, rerolls=r))[0] for r in lesson_06.CATCHUP_RULES]
        assert min(tried) < rate["base"][0] < max(tried), (players, tried)


def test_12_the_ender_wins_more_as_the_bonus_grows():
    """Lesson 12: tune's bisection (and the search by hand of exercise 2) rest on the round-ender's
    win rate growing with the bonus: on the exercise key's games it does, bonus by bonus."""
    from meeple.course.exercises import lesson_12

    rates = [m[0] for _, m in sorted(lesson_12._ender_key_runs().items())]
    assert all(a < b for a, b in zip(rates, rates[1:])), rates


def test_say_prints_plain_text_where_markdown_is_not_drawn(capsys):
    """Outside IPython (a terminal, the course site's browser cells) a computed sentence reads as
    text: no **, no code marks, no TeX dollars (the site showed `**(-1, 1, ...)**` and `$95\\%$`)."""
    ex.say(r"**(-1, 1, 2, 3)** passes `01.wilson`: a $95\%$ interval, $b^\ast = 1.99$, $1/\sqrt{n}$, "
           r"$\sqrt{\operatorname{Var}}$, $p \approx 0.4$, 2 * 3")
    out = capsys.readouterr().out
    assert out == "(-1, 1, 2, 3) passes 01.wilson: a 95% interval, b* = 1.99, 1/√n, √Var, p ≈ 0.4, 2 * 3\n", out


def test_plain_drops_single_star_emphasis_where_markdown_sees_one_and_keeps_multiplication():
    """The site showed "the grid says *stop* for 3 ducks" and "*Solution.* (a) 62 cards": a single
    star that Markdown draws as emphasis goes; a star of a formula stays (2 * 3, a*b*c, TeX's \\ast)."""
    from meeple.course.exercises.checking import plain

    assert plain("the grid says *stop* for 3 ducks") == "the grid says stop for 3 ducks"
    assert plain("*Solution.* (a) 62 cards, (*b*) 7") == "Solution. (a) 62 cards, (b) 7"
    assert plain("**bold** and *it*: *this `x` too*") == "bold and it: *this x too*"  # no backtick inside one
    for formula in ["2 * 3 * 4", "a*b*c", "p*(1-p)*n", "* a list mark *", "2*3 and 4*5"]:
        assert plain(formula) == formula
    assert plain(r"$a*b$ and $b^\ast$, $c^\ast$") == "a*b and b*, c*"


def test_21_the_model_moves_the_first_seat_as_the_lesson_says():
    """Lesson 21, section 2-3: in the independent-race model the reroll cap makes ties in turns commoner
    and Player 1's chance larger; the longer first section makes both smaller (exact Fractions), and
    the model has no extensions (changing the four-player entry leaves it as it is)."""
    four = pb.Config(players=4)

    def model(config):
        trial = exact.time_trial_turns(config)
        return exact.race_seat_chances(trial, 4)[0], sum(p * p for p in trial.values())

    base, cap = model(four), model(four.with_values({"max_rerolls": 1}))
    longer = model(four.with_values({"sections[0]": 6}))
    assert cap[0] > base[0] > longer[0] and cap[1] > base[1] > longer[1], (cap, base, longer)
    assert model(four.with_values({"extensions_per_player": 0})) == base
