"""Sealed answers for a graded build (issue 24, item 4): exact answers checked against salted hashes.

A graded build (`SOLUTIONS=no`) must not ship an answer in plain sight, and the checkers of the
lesson modules are the answers' recipes. So the build makes a table instead, at build time, with
the full package:

    table = seal(roster=["Ada Lovelace", "Alan Turing"])     # the defaults and each student's answers
    Path("sealed.json").write_text(json.dumps(table))

and the graded site ships that table and, in place of the `lesson_*` modules' exact checkers, registers one
checker per sealed exercise that reads the student's answer and compares its salted hash:

    install(json.loads(Path("sealed.json").read_text()))     # check("07.third", x) now asks the table

The table holds, for the lessons' own numbers and for each student on the roster (named by a
salted hash, not by name), a random salt of that student's own and two slow digests per exercise
of (exercise, the answer): written exactly ("num/den"), and as a float to 9 significant digits (a
student who computed in decimals, as the real checkers allow). A checker that finds the student's
digest says "✓ Right"; any other answer gets "✗ Not yet" with no hint (a hint is worked out from
the answer). Only exercises whose checker accepts exactly one value are sealed (`SEALED`); the
sampled ones are judged from the student's own games, as before.

Why slow (issue 37): a sealed answer is a small fraction, and there are only so many of them
(131,589 candidates an exercise in the issue's search), so a fast digest gave half the answers up
in seconds. Each digest is PBKDF2-HMAC-SHA256 with ITERATIONS rounds, salted per student (one
student's search tells nothing about another's): one candidate costs what one check costs,
about 0.06 s of CPU in CPython (`make bench`: tests/bench/bench_sealed.py), so searching one
exercise's candidates costs hours, where the student's own check stays well under a second.
"""

from __future__ import annotations

import hashlib
import math
import numbers
import secrets
import sys
from fractions import Fraction
from typing import Any, Iterable

from .checking import Declared, WrongKind, exercise, expects, need_number
from .key import answer
from .numbers import as_student, current_student, normalise

# Exercises whose checker accepts exactly the key's answer (an exact value, or a pair of them), as each
# says in its `exercise(..., sealed=True)` decorator (a view of the registry, sorted)
SEALED = Declared("sealed")
# Exercises whose checker stays (it accepts more than one answer) but whose answer key a graded build
# leaves out, since it is or works out a sealed answer: 18.mix takes any mix that guarantees the game's
# value (18.value, sealed, through `is_answer`); 10.three_red_sampled judges the student's own deals,
# and its key is 10.three_red's exact chance (sealed).
ANSWER_ONLY = ("18.mix", "10.three_red_sampled")
VERSION = 2  # 2: per-student salts and PBKDF2 (1: one salt, plain SHA-256)
# PBKDF2 rounds of a sealed digest: >= 0.05 s of CPU a check in CPython (hashlib.pbkdf2_hmac, OpenSSL),
# the figure tests/bench/bench_sealed.py measures and BENCHMARKS.md keeps
ITERATIONS = 250_000
_INSTALLED: dict = {}  # the table install() registered (a graded build), else empty


def _parts(value: Any) -> list:
    parts = list(value) if isinstance(value, (tuple, list)) else [value]
    for v in parts:
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise WrongKind(f"expected an exact value (e.g. Fraction(3, 8)), got {type(v).__name__} {v!r}")
        if not isinstance(v, (int, Fraction)) and not math.isfinite(need_number(v, "an exact value")):
            raise WrongKind(f"expected an exact value, got {v!r}")
    return parts


def canonical(value: Any) -> str:
    """An exact answer (an int or a Fraction, or a pair of them) as text, the same however it was
    typed: "num/den" in lowest terms, a pair part by part."""
    return ",".join(f"{Fraction(v).numerator}/{Fraction(v).denominator}" for v in _parts(value))


def decimal(value: Any) -> str:
    """The same answer as a student who computed in floats has it: each part to 9 significant digits
    (the real checkers take a float equal to the answer to float precision)."""
    return ",".join(f"{float(v):.9g}" for v in _parts(value))


def _is_decimal(value: Any) -> bool:
    return any(not isinstance(v, (int, Fraction)) for v in _parts(value))


def _digest(salt: str, *parts: str) -> str:
    return hashlib.sha256("\0".join((salt, *parts)).encode()).hexdigest()


def _pbkdf2_python(password: bytes, salt: bytes, rounds: int) -> bytes:
    """PBKDF2-HMAC-SHA256, one block, with hmac's pre-keyed states copied (the same bytes as
    hashlib.pbkdf2_hmac): for a Python without OpenSSL's (the site's Pyodide)."""
    key = hashlib.sha256(password).digest() if len(password) > 64 else password
    key = key.ljust(64, b"\0")
    inner, outer = hashlib.sha256(bytes(b ^ 0x36 for b in key)), hashlib.sha256(bytes(b ^ 0x5C for b in key))

    def prf(msg: bytes) -> bytes:
        i = inner.copy()
        i.update(msg)
        o = outer.copy()
        o.update(i.digest())
        return o.digest()

    u = prf(salt + b"\0\0\0\1")
    acc = int.from_bytes(u, "big")
    for _ in range(rounds - 1):
        u = prf(u)
        acc ^= int.from_bytes(u, "big")
    return acc.to_bytes(32, "big")


def _pbkdf2_webcrypto(password: bytes, salt: bytes, rounds: int) -> "bytes | None":
    """PBKDF2-HMAC-SHA256 by the browser's WebCrypto, from the site's Pyodide (whose hashlib has no
    pbkdf2_hmac, and whose Python loop takes about 5 s for ITERATIONS rounds): the worker runs a
    cell with callPromising, so `run_sync` may wait for the browser's promise (JSPI). None where it
    cannot (another host, no JSPI): then the Python loop, slow but the same bytes."""
    if sys.platform != "emscripten":
        return None
    import js  # noqa: PLC0415 - Pyodide's own modules exist only in the site's browser Python
    from pyodide.ffi import can_run_sync, run_sync, to_js  # noqa: PLC0415 - the same

    if not can_run_sync():
        return None
    subtle = js.crypto.subtle
    key = run_sync(subtle.importKey("raw", to_js(password), "PBKDF2", False, to_js(["deriveBits"])))
    algo = to_js({"name": "PBKDF2", "hash": "SHA-256", "salt": to_js(salt), "iterations": rounds},
                 dict_converter=js.Object.fromEntries)
    return bytes(js.Uint8Array.new(run_sync(subtle.deriveBits(algo, key, 256))).to_py())


def slow_digest(salt: str, key: str, form: str, text: str, rounds: int) -> str:
    """The sealed digest of answer `text` (as `form` writes it) to exercise `key` under a student's
    `salt`: PBKDF2-HMAC-SHA256, `rounds` rounds (OpenSSL's, else the browser's, else a Python loop)."""
    password, salted = "\0".join((key, form, text)).encode(), bytes.fromhex(salt)
    pbkdf2 = getattr(hashlib, "pbkdf2_hmac", None)
    if pbkdf2:
        return pbkdf2("sha256", password, salted, rounds).hex()
    return (_pbkdf2_webcrypto(password, salted, rounds) or _pbkdf2_python(password, salted, rounds)).hex()


def _who(salt: str, student: "str | None") -> str:
    return "" if student is None else _digest(salt, "student", normalise(student))[:32]


def seal(roster: Iterable[str] = (), keys: Iterable[str] = SEALED, salt: "str | None" = None,
         rounds: int = ITERATIONS) -> dict:
    """The table a graded build ships: {"version", "salt", "rounds", "answers": {student: {"salt",
    "digests": {key: [exact, decimal]}}}}, student "" being the lessons' own numbers and each roster
    id (or class code) a salted hash of it, each with a random salt of its own. Worked out with the
    package's own answer key (`answer`), so it agrees with `meeple answers`."""
    salt = salt or secrets.token_hex(16)
    keys = list(keys)
    table: dict = {"version": VERSION, "salt": salt, "rounds": rounds, "answers": {}}
    for student in [None, *roster]:
        with as_student(student):
            who, mine = _who(salt, student), secrets.token_hex(16)
            table["answers"][who] = {"salt": mine, "digests": {
                key: [slow_digest(mine, key, "exact", canonical(a), rounds), slow_digest(mine, key, "decimal", decimal(a), rounds)]
                for key, a in ((key, answer(key)) for key in keys)}}
    return table


def sealed_check(table: dict, key: str, value: Any, student: "str | None" = ...) -> bool:
    """Whether `value` is exercise `key`'s answer for `student` (default: the current one), by the table."""
    who = _who(table["salt"], current_student() if student is ... else student)
    mine = table["answers"].get(who)
    if mine is None:
        raise LookupError("this student is not on the roster the course was built for: ask your teacher to "
                          "add you, or run student(None) for the lessons' own numbers")
    if key not in mine["digests"]:
        return False
    exact, dec = mine["digests"][key]
    if _is_decimal(value):
        return dec == slow_digest(mine["salt"], key, "decimal", decimal(value), table["rounds"])
    return exact == slow_digest(mine["salt"], key, "exact", canonical(value), table["rounds"])


def is_answer(key: str, value: Any) -> bool:
    """Whether `value` is exact exercise `key`'s answer for the current student: by the answer key,
    or in a graded build (after install) by the sealed table. A checker that judges an answer
    through another exercise's answer (18.mix through 18.value) asks here, so a graded build needs
    no recipe of that answer."""
    if _INSTALLED:
        return sealed_check(_INSTALLED, key, value)
    return canonical(value) == canonical(answer(key))


def install(table: dict) -> list[str]:
    """Register, for every exercise the table seals, a checker that compares the answer's salted
    hash (in place of the lesson module's checker). Returns the keys it registered."""
    if not isinstance(table, dict) or table.get("version") != VERSION or "salt" not in table or "rounds" not in table:
        raise ValueError(f"not a sealed-answers table of version {VERSION} (make one with seal(...))")
    keys = sorted({k for answers in table["answers"].values() for k in answers["digests"]})
    _INSTALLED.clear()
    _INSTALLED.update(table)

    for key in keys:
        def sealed(value, key=key):
            try:
                ok = sealed_check(table, key, value)
            except LookupError as e:
                return False, str(e)
            if ok:
                return True, "that is the answer."
            return False, "that is not the answer (this graded course gives no hints: check your working)."

        sealed.__name__ = f"sealed_{key.replace('.', '_')}"
        # a graded wheel has no lesson module to have said what the exercise takes: the table says it
        exercise(key, table.get("expects", {}).get(key) or expects(key), replace=True, sealed=True)(sealed)
    return keys
