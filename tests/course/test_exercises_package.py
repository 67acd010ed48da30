"""The exercises package's shape (issue 20): no import circle and no import of the package from
inside a function; one reader of exact answers, the same rule for every lesson; the old module
names are gone; every checker takes its answer from the answer key."""

from __future__ import annotations

import ast
import contextlib
import io
from fractions import Fraction
from pathlib import Path

import pytest

from meeple.course import exercises as ex
from meeple.course.exercises import checking, graded

PACKAGE = Path(__file__).resolve().parents[2] / "lessons" / "exercises"


def _quiet(key, answer):
    with contextlib.redirect_stdout(io.StringIO()) as out:
        ok = ex.check(key, answer)
    return ok, out.getvalue()


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(module imported, inside a function?) for every import of a sibling in the exercises package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside: set[int] = set()
    for f in ast.walk(tree):
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside |= {id(n) for n in ast.walk(f) if n is not f}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            here = path.parent == PACKAGE
            if node.level == 1 and here:
                names = [node.module] if node.module else [a.name for a in node.names]
            elif node.level == 1 and node.module and node.module.startswith("exercises"):
                names = [node.module.partition(".")[2] or "__init__"]
            elif node.module and node.module.startswith("meeple.course.exercises"):
                rest = node.module[len("meeple.course.exercises"):].lstrip(".")
                names = [rest or "__init__"]
            else:
                continue
            out += [(n, id(node) in inside) for n in names]
    return out


def test_no_import_circle_and_no_import_of_the_package_inside_a_function():
    graph = {}
    for path in sorted(PACKAGE.glob("*.py")):
        found = _imports(path)
        assert not [m for m, inner in found if inner], f"{path.name} imports the exercises package inside a function"
        graph[path.stem] = {m for m, _ in found}
    assert set(graph["checking"]) == set(), graph["checking"]  # the bottom of the package
    order: list[str] = []

    def visit(m, stack=()):
        assert m not in stack, f"import circle: {' -> '.join((*stack, m))}"
        if m in order:
            return
        for n in sorted(graph.get(m, ())):
            if n != "__init__":
                visit(n, (*stack, m))
        order.append(m)

    for m in graph:
        if m != "__init__":
            visit(m)
    assert all("__init__" not in deps for m, deps in graph.items() if m != "__init__"), graph


@pytest.mark.parametrize("old", ["meeple.widgets.exercises", "meeple.widgets.exercises_more",
                                 "meeple.widgets.exercises_15_18", "meeple.widgets.exercises_19_21",
                                 "meeple.course.exercises_more", "meeple.course.exercises_15_18"])
def test_the_old_module_names_are_gone(old):
    """The course's exercises live in meeple.course.exercises only (issue 34: no shim modules)."""
    import importlib

    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)


def test_one_reader_of_exact_answers():
    """Only `checking` turns a float into an exact answer: no lesson module has its own reader."""
    modules = sorted(PACKAGE.glob("lesson_*.py"))
    assert len(modules) == 25  # one a lesson
    for path in modules:
        text = path.read_text(encoding="utf-8")
        assert "limit_denominator" not in text and "class _Rounded" not in text, path.name
        assert "agrees with the answer to the digits" not in text, f"{path.name} repeats the rounded hint"


@pytest.mark.parametrize("key", ["04.slow", "08.nest_gain", "10.led_five", "15.posterior_mean", "19.due"])
def test_every_lesson_reads_a_rounded_decimal_alike(key):
    """One rule in lessons 1-21: a decimal that is the answer rounded to the digits typed (one
    decimal or more) is told to give the exact value; the float to full precision is right; a
    decimal off by more than its last digit is judged, and reminded the answer is exact."""
    right = ex.answer(key)
    assert _quiet(key, float(right))[0]
    for digits in (1, 3, 5):
        if round(float(right), digits) == right:  # a terminating decimal (11/32 = 0.34375) is the answer itself
            continue
        ok, said = _quiet(key, round(float(right), digits))
        assert not ok and "agrees with the answer to the digits you gave" in said, (digits, said)
    ok, said = _quiet(key, round(float(right), 3) + 0.004)
    assert not ok and "agrees" not in said and "Fraction(3, 8)" in said, said


def test_exact_answer_takes_ints_and_fractions_as_they_are_and_refuses_a_string():
    assert ex.exact_answer(2, Fraction(1, 3)) == 2
    assert ex.exact_answer(Fraction(1, 3), Fraction(1, 3)) == Fraction(1, 3)
    assert ex.exact_answer(1 / 3, Fraction(1, 3)) == Fraction(1, 3)
    assert ex.exact_answer(0.2, Fraction(1, 3)) == Fraction(1, 5)  # a wrong decimal, read as the fraction it is
    with pytest.raises(ex.Rounded, match="exact value"):
        ex.exact_answer(0.33, Fraction(1, 3))
    with pytest.raises(ex.WrongKind):
        ex.exact_answer("1/3", Fraction(1, 3))


@pytest.mark.parametrize("huge", [10**400, -10**400, Fraction(10**400, 3), 10**5000],
                         ids=["10**400", "-10**400", "10**400/3", "10**5000"])
def test_a_number_too_large_for_a_float_is_the_wrong_kind_of_answer_for_every_exercise(huge):
    """check('12.p_five', 10**400) raised OverflowError ("int too large to convert to float") from
    need_number's float(); past 4,300 digits even a message's repr of it failed. Every checker now
    answers with a ✗ saying it is far too large."""
    for key in checking.keys():
        ok, said = checking.judge(key, huge)
        assert not ok and said.startswith(f"✗ Not the right kind of answer for `{key}`") and "far too large" in said, said
        assert len(said) < 300, said  # not its hundreds of digits
    with pytest.raises(ex.WrongKind, match="far too large"):
        ex.need_number(10**400, "p")


def test_every_exact_checker_judges_against_the_answer_key():
    """A checker's answer comes from one place, `expected(key)` (the function `answer_of`
    registered): replace it (`answers_from`), and the checker accepts the replacement and
    refuses its own old answer; outside the block it is as before."""
    for key in ["01.wilson", "03.chase", "04.slow", "06.boost", "07.third", "07.no_double", "07.bruces",
                "08.five_ducks", "08.nest_bust", "08.nest_gain", "09.claim3_variance", "09.trailer", "10.three_red",
                "10.led_five", "11.second_row", "13.next_can_end", "13.balance_bonus", "14.luck_alone", "14.die_d"]:
        old = ex.answer(key)
        new = (old[0] + 0.01, old[1] + 0.01) if isinstance(old, tuple) else old + Fraction(1, 7919)
        with ex.answers_from(lambda k, key=key, new=new: new if k == key else ex.answer(k)):
            assert _quiet(key, new)[0], key
            assert not _quiet(key, old)[0], key
        assert _quiet(key, old)[0], key


# numbers.VARIED and graded.SEALED as they were written by hand before issue 34 (sealed in that order)
VARIED_BY_HAND = {
    "01.ender", "01.wilson", "02.die", "02.moments", "03.chase", "03.seat", "04.slow", "04.track", "05.games",
    "05.power", "06.boost", "06.catchup", "07.bruces", "07.no_double", "07.third", "08.five_ducks", "08.nest_bust",
    "08.nest_gain", "09.claim3_variance", "09.leader", "09.trailer", "10.led_five", "10.three_red",
    "10.three_red_sampled", "11.none_colour", "11.second_row", "12.ender_bonus", "12.p_five", "13.balance_bonus",
    "13.next_can_end", "14.cycle", "14.die_d", "14.luck_alone", "15.above_fair", "15.posterior_mean", "16.at_most",
    "16.variance", "17.first_by", "17.rounds", "18.mix", "18.value", "19.cold_streak", "19.drought", "19.due",
    "20.model_wait", "20.wait", "21.model_seat", "21.tuned", "22.expected_loss", "22.power", "23.mean_variance",
    "23.two_turns", "24.fair_price", "24.second_pip", "25.implied", "25.match"
}
SEALED_BY_HAND = (
    "02.moments", "03.chase", "04.slow", "04.track", "06.boost", "07.third", "07.no_double", "07.bruces",
    "08.five_ducks", "08.nest_bust", "08.nest_gain", "09.claim3_variance", "09.trailer", "09.leader", "10.three_red",
    "10.led_five", "11.second_row", "13.next_can_end", "13.balance_bonus", "14.luck_alone", "14.die_d",
    "15.posterior_mean", "15.above_fair", "16.at_most", "16.variance", "17.first_by", "18.value", "19.due",
    "19.drought", "19.cold_streak", "20.model_wait", "21.model_seat"
)


def test_every_exercise_declares_varied_and_sealed_and_the_lists_are_read_from_them():
    """Issue 34: each exercise says in its own decorator whether it is varied and sealed; VARIED and
    SEALED are read from the registry, with the members the hand-written lists had."""
    assert ex.keys(), "no exercise registered"
    for key in ex.keys():
        flags = checking.declared(key)
        assert sorted(flags) == ["sealed", "varied"] and all(isinstance(v, bool) for v in flags.values()), (key, flags)
    assert set(ex.VARIED) == {k for k in ex.keys() if checking.declared(k)["varied"]} == VARIED_BY_HAND
    assert list(graded.SEALED) == sorted(k for k in ex.keys() if checking.declared(k)["sealed"]) == sorted(SEALED_BY_HAND)
    assert len(ex.VARIED) == len(VARIED_BY_HAND) and len(graded.SEALED) == len(SEALED_BY_HAND)
    assert "07.third" in graded.SEALED and "01.wilson" not in graded.SEALED and ("07", "third") not in graded.SEALED
    assert ex.VARIED - {"01.wilson"} == VARIED_BY_HAND - {"01.wilson"}  # set operations give plain frozensets
    assert isinstance(ex.VARIED & {"01.wilson"}, frozenset)


@pytest.mark.parametrize("flags, wrong", [({}, "varied"), ({"varied": True}, "sealed"),
                                          ({"varied": 1, "sealed": False}, "varied")])
def test_an_exercise_that_does_not_say_varied_and_sealed_is_refused(flags, wrong):
    with pytest.raises(ValueError, match=f"exercise '99.nothing': {wrong} must be True or False"):
        ex.exercise("99.nothing", "anything", **flags)
    assert "99.nothing" not in ex.keys()


@pytest.mark.parametrize("lesson, numbers, says", [
    ("13", {"position": ((13, 8),)}, "registered twice"),      # each lesson registers its numbers once
    ("7", {"deck": ((10, 6),)}, "two-digit number"),
    ("99", {"deck": ()}, "non-empty tuple of choices"),
    ("99", {"deck": [(10, 6)]}, "non-empty tuple of choices"),
])
def test_a_lessons_numbers_are_refused_with_what_is_allowed(lesson, numbers, says):
    """`numbers.choices`, which each lesson module calls once: a bad registration says what is wrong
    and what is allowed, and leaves NUMBERS as it was."""
    before = dict(ex.NUMBERS)
    with pytest.raises(ValueError, match=says):
        ex.numbers.choices(lesson, numbers)
    assert ex.NUMBERS == before
