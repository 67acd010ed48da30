"""The answer key: what each exercise's checker accepts, for the teacher (`meeple answers`).

Each exercise's answer is registered once, with `answer_of`, as a function of the current
student's numbers; a checker asks `expected(key)` for the answer it judges against, so the
answer comes from one place.
"""

from __future__ import annotations

from contextlib import contextmanager
from fractions import Fraction
from typing import Any, Callable

from meeple.course.classroom import read_roster  # noqa: F401 - the package's read_roster (one roster reader)

from .checking import keys
from .numbers import VARIED, as_student, exercise_numbers

_ANSWERS: dict[str, Callable[[], Any]] = {}


def answer_of(key: str) -> Callable:
    """Decorator: register `f() -> answer` as exercise `key`'s answer (what its checker takes as
    right, or for an open exercise one answer it accepts), computed as the checker computes it."""
    def register(f):
        _ANSWERS[key] = f
        return f
    return register


def answer(key: str, who: "str | None" = ...) -> Any:
    """Exercise `key`'s answer (see `answer_of`) for student `who` (default: the current one;
    None: the lesson's own numbers); ValueError for an unknown key."""
    if key not in _ANSWERS:
        raise ValueError(f"no exercise {key!r}; exercises: {', '.join(sorted(_ANSWERS))}")
    if who is ...:
        return _ANSWERS[key]()
    with as_student(who):
        return _ANSWERS[key]()


_SOURCE: "list[Callable[[str], Any]]" = []  # answers_from's, innermost last


def expected(key: str) -> Any:
    """The answer a checker judges exercise `key` against, for the current student: what
    `answer_of` registered, or within `answers_from(source)` what `source(key)` gives (the one
    place a checker's answer comes from)."""
    return _SOURCE[-1](key) if _SOURCE else _ANSWERS[key]()


@contextmanager
def answers_from(source: Callable[[str], Any]):
    """Within the block, every checker judges against `source(key)` instead of the answer
    `answer_of` registered (a graded build's table of salted hashes is such a source)."""
    _SOURCE.append(source)
    try:
        yield
    finally:
        _SOURCE.pop()


def shown(value) -> str:
    """An answer as the key prints it: a Fraction with its decimal, a pair in brackets, a Config by
    what differs from the base rules."""
    if isinstance(value, Fraction):
        return f"{value} ≈ {float(value):.4g}" if value.denominator != 1 else str(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, tuple):
        return "(" + ", ".join(shown(v) for v in value) + ")"
    if callable(getattr(value, "describe", None)):  # a game's Config: what differs from the base rules
        return f"Config({value.describe()})"
    return str(value)


_SHARED: dict = {}


def answer_key(who: "str | None") -> "list[tuple[str, str]]":
    """(exercise, answer as text) for every exercise, for student `who` (None: the lessons' own numbers)."""
    out = []
    for key in keys():
        varied = key in VARIED
        if varied:
            value = answer(key, who)
        else:  # the same for every student: worked out once (some play games)
            if key not in _SHARED:
                _SHARED[key] = answer(key, None)
            value = _SHARED[key]
        extra = ""
        if varied:
            extra = "   [numbers: " + ", ".join(f"{k}={v}" for k, v in exercise_numbers(key[:2], who).items()) + "]"
        out.append((key, shown(value) + extra))
    return out
