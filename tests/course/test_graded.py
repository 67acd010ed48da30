"""A graded build's sealed answers (issue 24, item 4; lessons/exercises/graded.py): the table holds
no answer in plain sight, and a sealed checker takes exactly what the real checker takes as the
answer, for the lessons' own numbers and for each student on the roster, and nothing else."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from meeple.course import exercises as ex
from meeple.course.exercises import graded

ROSTER = ["Ada Lovelace", "Alan Turing"]


@pytest.fixture(scope="module")
def table():
    return graded.seal(ROSTER, salt="test-salt", rounds=1000)  # the build's ITERATIONS cost: make bench


def _forms(value) -> list[str]:
    """The ways a reader would recognise an exact answer: the Fraction and its decimal to 3 and 4 digits."""
    if isinstance(value, tuple):
        return [f for v in value for f in _forms(v)]
    x = Fraction(value)
    out = [f"{float(x):.3g}", f"{float(x):.4g}"]
    return out + [str(x)] if x.denominator != 1 else out + ([str(x)] if abs(x) >= 13 else [])


def test_every_sealed_exercise_is_exact_and_registered():
    assert set(graded.SEALED) <= set(ex.keys())
    for key in graded.SEALED:
        # 04.track: a whole number of spaces; 09.trailer: a Fraction; 09.leader: one of four choices, one best
        assert "exact" in (ex.checking.expects(key) or "") or key in ("04.track", "09.trailer", "09.leader"), key


def test_the_table_holds_no_answer_and_no_name(table):
    text = json.dumps(table)
    for who in [None, *ROSTER]:
        for key in graded.SEALED:
            for form in _forms(ex.answer(key, who)):
                assert f'"{form}"' not in text and f"{form}/" not in text and f"/{form}" not in text, (who, key, form)
    assert "Ada" not in text and "Turing" not in text
    assert len(table["answers"]) == 1 + len(ROSTER)


def test_each_student_has_a_salt_of_their_own_and_digests_are_pbkdf2(table):
    """Issue 37: one student's search tells nothing of another's (their own salt), and a digest is
    PBKDF2-HMAC-SHA256 of the table's rounds (Python's own, and the loop the site's Python runs)."""
    import hashlib

    salts = [t["salt"] for t in table["answers"].values()]
    assert len(set(salts)) == len(salts) == 1 + len(ROSTER)
    seal = graded.seal([], keys=["07.third"], rounds=1000)
    assert seal["answers"][""]["salt"] != table["answers"][""]["salt"]  # fresh each build
    mine = table["answers"][""]
    want = hashlib.pbkdf2_hmac("sha256", "\0".join(("07.third", "exact", graded.canonical(ex.answer("07.third", None)))).encode(),
                               bytes.fromhex(mine["salt"]), table["rounds"]).hex()
    assert mine["digests"]["07.third"][0] == want
    for password, rounds in ((b"07.third\0exact\01/3", 1000), (b"x" * 100, 5)):
        assert graded._pbkdf2_python(password, b"salt", rounds) == hashlib.pbkdf2_hmac("sha256", password, b"salt", rounds)
    assert graded.ITERATIONS >= 200_000  # about 0.06 s of CPU a check in CPython (make bench: bench_sealed.py)


def test_a_sealed_answer_is_the_checkers_answer_and_nothing_else(table):
    """For the lessons' own numbers and each student: the key's answer (exact, or as a float to float
    precision) is right; another student's different answer, a near miss and the complement are not."""
    for who in [None, *ROSTER]:
        for key in graded.SEALED:
            right = ex.answer(key, who)
            assert graded.sealed_check(table, key, right, who), (who, key)
            if not isinstance(right, tuple):
                assert graded.sealed_check(table, key, float(right), who), (who, key)
                assert not graded.sealed_check(table, key, right + Fraction(1, 10 ** 6), who), (who, key)
                assert right == 1 - right or not graded.sealed_check(table, key, 1 - right, who), (who, key)
            for other in [None, *ROSTER]:
                theirs = ex.answer(key, other)
                if theirs != right:
                    assert not graded.sealed_check(table, key, theirs, who), (who, key, other)


def test_a_student_off_the_roster_is_told_so(table):
    with pytest.raises(LookupError, match="roster"):
        graded.sealed_check(table, "07.third", Fraction(1, 4), "Grace Hopper")
    with pytest.raises(ex.WrongKind):
        graded.canonical("1/4")


def test_install_puts_sealed_checkers_in_place_of_the_lessons():
    """In a fresh interpreter (the registry is global): after install, check() answers from the
    table; a student's own answer passes, a neighbour's does not, and no hint is given."""
    code = """
import contextlib, io, json
from meeple.course import exercises as ex
from meeple.course.exercises import graded
table = graded.seal(["Ada Lovelace", "Alan Turing"], rounds=1000)
ada, alan = ex.answer("07.bruces", "Ada Lovelace"), ex.answer("07.bruces", "Alan Turing")
keys = graded.install(json.loads(json.dumps(table)))
assert keys == sorted(graded.SEALED), keys
assert ex.check.__module__ == "meeple.course.exercises.checking"
ex.student("Ada Lovelace")
with contextlib.redirect_stdout(io.StringIO()) as out:
    assert ex.check("07.bruces", ada)
    assert not ex.check("07.bruces", alan)
    assert not ex.check("07.bruces", 1 - ada)
said = out.getvalue()
assert "no hints" in said and "complement" not in said, said
ex.student("Grace Hopper")
with contextlib.redirect_stdout(io.StringIO()) as out:
    assert not ex.check("07.bruces", ada)
assert "roster" in out.getvalue()
print("ok")
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr


def test_install_refuses_what_is_not_a_table():
    with pytest.raises(ValueError, match="sealed-answers table"):
        graded.install({"answers": {}})
