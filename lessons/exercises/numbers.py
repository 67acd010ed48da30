"""Fresh numbers per student: each lesson's exercise numbers, and whose they are.

`student("name or id")` (or the environment variable MEEPLE_STUDENT) makes every varied
exercise's numbers this student's: each name in NUMBERS takes the choice a stable hash of
(normalised id, lesson, name) picks; without an id, the first choice (the lesson's own).
Checkers and the answer key read them through `exercise_numbers(lesson)`.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from contextlib import contextmanager
from typing import Any, Callable

from meeple.course.classroom import same_id

from .checking import WHOSE, Declared


# Each lesson's varied numbers: {lesson: {name: (default, other choices...)}}, drawn from the
# rules' own parameters and registered by the lesson's own module (`choices`, beside its exercises).
# Without a student id every lesson uses the defaults (its printed numbers); with one, each name
# takes the choice a stable hash of (id, lesson, name) picks.
NUMBERS: dict[str, dict[str, tuple]] = {}


def choices(lesson: str, numbers: "dict[str, tuple]") -> "dict[str, tuple]":
    """Register lesson `lesson`'s ("07") varied numbers, {name: (default, other choices...)}, as
    its module does once, beside its exercises; returns them."""
    if not (isinstance(lesson, str) and len(lesson) == 2 and lesson.isdigit()):
        raise ValueError(f"a lesson's numbers are registered under its two-digit number ('07'), got {lesson!r}")
    if lesson in NUMBERS:
        raise ValueError(f"lesson {lesson}'s numbers are registered twice")
    for name, options in numbers.items():
        if not (isinstance(name, str) and name.isidentifier() and isinstance(options, tuple) and options):
            raise ValueError(f"lesson {lesson}'s {name!r}: a name and a non-empty tuple of choices, the default first")
    NUMBERS[lesson] = numbers
    return numbers
# the exercises whose numbers are the student's (the rest use the lessons' own numbers for everyone),
# as each says in its `exercise(..., varied=True)` decorator: a view of the registry, filled as the lessons register
VARIED = Declared("varied")
_student: "str | None" = None


def normalise(name_or_id) -> str:
    """A student id as the hash reads it: case, accents' case and runs of spaces do not matter, nor
    the dashes of a class code (`meeple class new`)."""
    if not isinstance(name_or_id, str) or not name_or_id.strip():
        raise ValueError(f"a student id is a non-empty name or number as text, got {name_or_id!r}")
    return same_id(name_or_id)  # a class code however it was typed (meeple.course.classroom)


def student(name_or_id: "str | None") -> "str | None":
    """Use this student's numbers in every exercise from now on (None: the lesson's own numbers).
    The environment variable MEEPLE_STUDENT sets the same for a whole class's machines.
    Returns the normalised id."""
    global _student
    _student = None if name_or_id is None else normalise(name_or_id)
    return _student


def current_student() -> "str | None":
    """The id in use: `student(...)`'s, else MEEPLE_STUDENT's, else None."""
    if _student is not None:
        return _student
    env = os.environ.get("MEEPLE_STUDENT", "").strip()
    return normalise(env) if env else None


@contextmanager
def as_student(who: "str | None"):
    """Within the block, the current student is `who` (None: the lessons' own numbers), whatever
    `student(...)` or MEEPLE_STUDENT say; both are as they were afterwards."""
    global _student
    saved, env = _student, os.environ.pop("MEEPLE_STUDENT", None)
    try:
        _student = None if who is None else normalise(who)
        yield _student
    finally:
        _student = saved
        if env is not None:
            os.environ["MEEPLE_STUDENT"] = env


def exercise_numbers(lesson: str, who: "str | None" = ...) -> dict:
    """The numbers lesson `lesson` ("07") asks this student about: {name: value}. `who` (an id)
    overrides the current student; None gives the defaults."""
    if lesson not in NUMBERS:
        return {}
    sid = current_student() if who is ... else (None if who is None else normalise(who))
    out = {}
    for name, choices in NUMBERS[lesson].items():
        if sid is None:
            out[name] = choices[0]
        else:
            h = hashlib.sha256(f"{sid}\0{lesson}\0{name}".encode()).digest()
            out[name] = choices[int.from_bytes(h[:8], "big") % len(choices)]
    return out


class LiveNumbers(Mapping):
    """A lesson's numbers as its cells read them: every look-up asks `read()` again, so it gives
    the student in use at that moment (issue 34). A lesson reads its numbers once, at the top,
    and `student("name")` may still come at any point after (first cell, just before an
    exercise, twice): each prompt, solution and hint then shows the numbers the checker reads."""

    def __init__(self, read: Callable[[], dict]):
        self._read = read

    def __getitem__(self, name: str) -> Any:
        return self._read()[name]

    def __iter__(self):
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())

    def __repr__(self) -> str:
        return repr(self._read())


def _numbers_of(key: str) -> dict:
    return exercise_numbers(key.split(".", 1)[0])


WHOSE.append(current_student)  # a notebook's check() output says whose numbers its answer was worked with


# --- the numbers as a lesson's cells read them (lessons 15-25) -------------------------------------

# What every student is asked the same (17.rounds's race is the student's player count, numbers.NUMBERS).
FIXED = {"15": {}, "16": {"preset": "published-die"}, "17": {"games": 300, "bots": "always-reroll"}, "18": {}}


class _Params(Mapping):
    """PARAMS["15"] ...: each lesson's exercise numbers for the current student (the course's
    `exercise_numbers`, choices in `exercises.NUMBERS`; without a student id, the defaults)."""

    def __getitem__(self, lesson: str) -> dict:
        numbers = dict(FIXED[lesson])
        numbers.update(exercise_numbers(lesson))
        if "record" in numbers:
            numbers["wins"], numbers["games"] = numbers.pop("record")
        if "steal" in numbers:
            numbers["lead"], numbers["die"] = numbers.pop("steal")
        return numbers

    def __iter__(self):
        return iter(FIXED)

    def __len__(self) -> int:
        return len(FIXED)


PARAMS = _Params()


def live_params(lesson: str) -> LiveNumbers:
    """`PARAMS[lesson]` as the lesson's cells read it: for the student in use at each look-up."""
    return LiveNumbers(lambda: PARAMS[lesson])


def lesson_numbers(lesson: int) -> dict:
    """{name: value} for lesson 19 to 25's exercises, for the current student (see
    `meeple.course.exercises.student`; the choices are in `numbers.NUMBERS`). Lesson 20's
    `wait_game` is also given as `players`, `bots` and `special_one` and its `model` as `model_players`
    and `model_lives`, lesson 21's `model_race` as `model_players` and `model_spaces`, lesson 19's
    `drought` as `drought_bruces` and `drought_run`."""
    numbers = exercise_numbers(f"{lesson:02d}")
    if "drought" in numbers:
        numbers["drought_bruces"], numbers["drought_run"] = numbers["drought"]
    if "model" in numbers:
        numbers["model_players"], numbers["model_lives"] = numbers["model"]
    if "model_race" in numbers:
        numbers["model_players"], numbers["model_spaces"] = numbers["model_race"]
    if "wait_game" in numbers:
        numbers["players"], numbers["bots"], numbers["special_one"] = numbers["wait_game"]
    return numbers


def live_numbers(lesson: int) -> LiveNumbers:
    """`lesson_numbers(lesson)` as the lesson's cells read it: for the student in use at each look-up."""
    return LiveNumbers(lambda: lesson_numbers(lesson))
