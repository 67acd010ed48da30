"""Registering and running checkers, and reading a student's answer.

A checker is registered under a key "NN.name" (NN = the lesson number) with the
`exercise` decorator; it takes the student's answer and returns `(ok, text)`: on
success a short confirmation that may explain, on failure a hint that does not give
the answer away. `check` runs it and shows "✓ Right: ..." or "✗ Not yet: ...".

The `need_*` helpers take an answer of one kind or raise `WrongKind` (then `check`
says what it expects). `exact_answer` is the one reader of an exact answer (a
Fraction, or a float that a student computed in decimals) for every lesson: a float
that agrees with the answer only to the digits typed raises `Rounded`, a `Refused`
whose text tells the student to give the exact value. `Refused` (raised anywhere in
a checker) is a "✗ Not yet" with its text as the hint.
"""

from __future__ import annotations

import math
import numbers
import re
import sys
from collections.abc import Set
from fractions import Fraction
from typing import Any, Callable

from meeple.course.submission import record

Checker = Callable[[Any], "tuple[bool, str]"]

_CHECKERS: dict[str, Checker] = {}
_EXPECTS: dict[str, str] = {}
_DECLARED: dict[str, dict[str, bool]] = {}  # key -> {"varied": ..., "sealed": ...}, as its decorator says
FLAGS = ("varied", "sealed")


class WrongKind(TypeError):
    """The answer is not the kind of thing the exercise asks for (its text says what is)."""


class Refused(Exception):
    """Evidence that does not answer the question asked, or is not what the engine played,
    or an answer that cannot be judged as given; its text is the hint `check` shows
    ("✗ Not yet: <text>")."""


class NoAnswer(Refused):
    """The exercise's cell run as the lesson gives it: a part of the answer is still `...` (its
    other parts, the games the cell plays, are there). Its text is what to put in place of the
    `...`; `check` shows "✗ No answer yet: put <text> in place of `...` ...", as for an answer that
    is `...` altogether, and saves nothing for `meeple grade` (which counts the exercise missing)."""


NO_ANSWER = "✗ No answer yet"  # how the line of an exercise not yet answered starts (`judge`)


# --- showing text ------------------------------------------------------------------

def _in_ipython() -> bool:
    """True in an IPython shell (a kernel). A shell has imported IPython, so it is looked up, not
    imported: importing it costs 0.15-0.35 s (`python -X importtime`) where no shell runs, and the
    course site's browser Python has no IPython at all."""
    ipython = sys.modules.get("IPython")
    return ipython is not None and ipython.get_ipython() is not None


def say(text: str) -> None:
    """Show a Markdown sentence computed in a code cell (plain print outside IPython).

    Lessons quote every number through `say`, so the prose cannot drift from
    what the engine computes. An exact fraction reads as itself while it is short (numerator
    and denominator of at most SHORT_DIGITS digits each) and as a decimal, marked ≈, when it
    is not: lesson 1's coverage at n = 400 flips was 120 digits over 120."""
    if not isinstance(text, str):
        raise TypeError(f"say() takes the sentence as a str, got {type(text).__name__}")
    text = readable_fractions(text)
    if _in_ipython():
        shown = sys.modules["IPython"].display  # IPython loads its display module with itself
        shown.display(shown.Markdown(text))
    else:
        print(plain(text))


SHORT_DIGITS = 6
# a fraction written out, 123/456, not part of a longer number, path or date (1.5/2, a/b/c), and the
# " ≈ " or " = " that joins it to its own decimal when the sentence gives one ("{x} ≈ {float(x):.3f}")
_FRACTION = re.compile(r"(?<![\w./])(\d+)/(\d+)(?![\w/]|\.\d)(\s*(?:≈|=|\\approx)\s*(?=\**[+\-−]?\d))?")


def _sentence_number(x: float) -> str:
    """A number for a sentence: 4 significant digits, thousands separated, never an exponent
    for the sizes a lesson quotes."""
    if x == 0 or 1e-4 <= abs(x) < 1000:
        return f"{x:.4g}"
    return f"{x:,.1f}" if abs(x) >= 1000 else f"{x:.3g}"


def readable_fractions(text: str) -> str:
    """`text` with every fraction a/b whose numerator or denominator has more than SHORT_DIGITS
    digits written as a decimal (≈, or \\approx inside $...$ math). Where the sentence already
    follows the fraction with its decimal ("a/b ≈ 6.9640", "a/b = **96.2%**"), that decimal
    stands for it, marked ≈: "≈6.9640", not "≈6.964 ≈ 6.9640"."""
    def one(m: re.Match) -> str:
        if max(len(m[1]), len(m[2])) <= SHORT_DIGITS or int(m[2]) == 0:
            return m[0]
        in_math = text.count("$", 0, m.start()) % 2 == 1
        approx = "\\approx " if in_math else "≈"
        return approx if m[3] else approx + _sentence_number(int(m[1]) / int(m[2]))

    return _FRACTION.sub(one, text)


# TeX the lessons' sentences use, as a reader writes it in plain text
_TEX = {r"\%": "%", r"\ast": "*", r"\approx": "≈", r"\le": "≤", r"\leq": "≤", r"\ge": "≥", r"\geq": "≥",
        r"\times": "×", r"\cdot": "·", r"\pm": "±", r"\ne": "≠", r"\neq": "≠", r"\infty": "∞"}


def _plain_math(m: re.Match) -> str:
    tex = re.sub(r"\\operatorname\{(\{)?([A-Za-z]+)\}(?(1)\})", r"\2", m[1])  # {Var} or f-string {{Var}}
    tex = re.sub(r"\\sqrt\{([^{}]*)\}", lambda r: "√" + (r[1] if r[1].isalnum() else f"({r[1]})"), tex)
    tex = re.sub(r"\\[A-Za-z]+|\\%", lambda t: _TEX.get(t[0], t[0][1:]), tex)
    return tex.replace("^*", "*").replace("{", "").replace("}", "")


# *stop*, *Solution.*: a single-star emphasis, where Markdown sees one: the opening star after a
# space, a bracket or a mark (not a letter or digit: a*b*c, 2*3*4 are formulas) and before a
# non-space; the closing star after a non-space and not before a letter or digit; no star, $ or
# backtick inside (2 * 3 * 4 and $a*b$ stay as they are; **bold** is not one).
_EMPHASIS = re.compile(r"(?<![*\w\\])\*(?![\s*])([^*$`\n]*?[^\s*\\])\*(?![*\w])")


def plain(text: str) -> str:
    """A `say` sentence as plain text, for where Markdown is not drawn (a terminal, the course
    site's browser cells): bold, *emphasis*, code marks and TeX's dollars go; `$95\\%$` reads 95%, `$b^\\ast$` b*."""
    text = _EMPHASIS.sub(r"\1", text)  # before the math: TeX's \ast becomes a * there
    text = re.sub(r"\$([^$\n]+)\$", _plain_math, text)
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    return re.sub(r"`([^`\n]*)`", r"\1", text)


# --- registering and running checkers ----------------------------------------------

def exercise(key: str, expects: str | None = None, replace: bool = False, *,
             varied: "bool | None" = None, sealed: "bool | None" = None) -> Callable[[Checker], Checker]:
    """Decorator: register `f(answer) -> (ok, text)` as the checker of exercise `key`
    ("NN.name"). `expects` (optional) says in words what kind of answer it takes; `varied`
    whether its numbers are the student's (`exercise_numbers`: the rest use the lessons' own
    numbers for everyone); `sealed` whether its checker accepts exactly the key's answer, so a
    graded build ships its salted hash in place of the checker (`graded`). Every exercise says
    both (numbers.VARIED and graded.SEALED are read from here). `replace` lets it take the
    place of a checker already registered (a graded build's sealed one); a flag it leaves out
    stays as the replaced checker declared it."""
    if not isinstance(key, str) or "." not in key or not key.split(".", 1)[0].isdigit():
        raise ValueError(f"an exercise key looks like '07.no_double' (lesson number, dot, name), got {key!r}")
    flags = {"varied": varied, "sealed": sealed}
    for name, value in flags.items():
        if not isinstance(value, bool) and (value is not None or not replace):
            raise ValueError(f"exercise {key!r}: {name} must be True or False, got {value!r}")

    def register(f: Checker) -> Checker:
        if key in _CHECKERS and _CHECKERS[key] is not f and not replace:
            raise ValueError(f"exercise {key!r} is registered twice")
        _CHECKERS[key] = f
        if expects:
            _EXPECTS[key] = expects
        _DECLARED.setdefault(key, {}).update({k: v for k, v in flags.items() if v is not None})
        return f

    return register


class Declared(Set):
    """The keys of the registered exercises whose decorator says `flag` ("varied" or "sealed"),
    sorted: a read-only view of the registry, so it holds the checkers registered after it was
    made (numbers.VARIED and graded.SEALED are made before the lessons' modules register).
    Set operations (`-`, `&`, `|`) give frozensets."""

    def __init__(self, flag: str):
        if flag not in FLAGS:
            raise ValueError(f"an exercise flag is one of {', '.join(FLAGS)}, got {flag!r}")
        self.flag = flag

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and _DECLARED.get(key, {}).get(self.flag, False)

    def __iter__(self):
        return iter(sorted(k for k in _DECLARED if k in self))

    def __len__(self) -> int:
        return sum(1 for k in _DECLARED if k in self)

    def __repr__(self) -> str:
        return f"Declared({self.flag!r}: {', '.join(self)})"

    @classmethod
    def _from_iterable(cls, it):
        return frozenset(it)


def declared(key: str) -> dict[str, bool]:
    """What exercise `key`'s decorator says of it: {"varied": ..., "sealed": ...} (a flag left out: absent)."""
    return dict(_DECLARED.get(key, {}))


def expects(key: str) -> "str | None":
    """What exercise `key` takes, in words (as registered), or None."""
    return _EXPECTS.get(key)


def keys() -> list[str]:
    """Every registered exercise key, sorted (the package registers every lesson's on import)."""
    return sorted(_CHECKERS)


WHOSE: "list[Callable[[], str | None]]" = []  # numbers.current_student, which numbers adds (checking is the bottom)


def judge(key: str, answer: Any) -> "tuple[bool, str]":
    """(ok, the line check() shows) for `answer` to exercise `key`, for the current student, shown
    nowhere: what `check` says, and what `meeple grade` writes in a student's feedback."""
    if key not in _CHECKERS:
        lesson = str(key).split(".", 1)[0]
        near = [k for k in _CHECKERS if k.startswith(lesson + ".")] or sorted(_CHECKERS)
        return False, f"✗ There is no exercise called `{key!r}`. Exercises: {', '.join(f'`{k}`' for k in sorted(near))}."
    if answer is None or answer is Ellipsis or (isinstance(answer, tuple) and answer
                                                and all(a is None or a is Ellipsis for a in answer)):
        want = _EXPECTS.get(key, "your answer")
        return False, f"{NO_ANSWER}: put {want} in place of `...` and run the cell again."
    if isinstance(answer, (int, Fraction)) and not isinstance(answer, bool) and abs(answer) > sys.float_info.max:
        # 10**400: no float holds it, and past 4,300 digits Python cannot even print it
        return False, f"✗ Not the right kind of answer for `{key}`: {_too_large(answer)}"
    try:
        ok, text = _CHECKERS[key](answer)
    except WrongKind as e:
        return False, f"✗ Not the right kind of answer for `{key}`: {e}"
    except OverflowError:  # a checker's own float() of a huge int or Fraction (need_number says it itself)
        return False, f"✗ Not the right kind of answer for `{key}`: a number far too large to be its answer"
    except NoAnswer as e:
        return False, f"{NO_ANSWER}: put {e} in place of `...` and run the cell again."
    except Refused as e:
        ok, text = False, str(e)
    if ok:
        return True, f"✓ Right: {text}"
    if "exact" in _EXPECTS.get(key, "") and _decimal(answer) and "Fraction(" not in text:
        text += EXACT_NOTE  # a decimal that missed: say that the answer should be exact too
    return False, f"✗ Not yet: {text}"


def check(key: str, answer: Any) -> bool:
    """Run exercise `key`'s checker on `answer`; show ✓ or ✗ with a hint; return True/False.
    In a notebook the verdict's output also carries the answer as data, for `meeple grade`
    (meeple.course.submission says how)."""
    ok, line = judge(key, answer)
    if key in _CHECKERS and not line.startswith(NO_ANSWER) and _in_ipython():
        shown = sys.modules["IPython"].display
        shown.display(shown.Markdown(line), metadata=record(key, answer, WHOSE[0]() if WHOSE else None))
    else:
        say(line)
    return ok


# --- helpers for checkers: take an answer, or raise WrongKind naming what is expected -----

def need_number(answer: Any, what: str = "a number") -> float:
    """A real number (int, float, Fraction, numpy scalar); not a bool, str or NaN."""
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        raise WrongKind(f"expected {what}, got {type(answer).__name__} {answer!r}")
    try:
        x = float(answer)
    except OverflowError:  # 10**400: no float holds it ("int too large to convert to float")
        raise WrongKind(f"expected {what}, got {_too_large(answer)}") from None
    if math.isnan(x):
        raise WrongKind(f"expected {what}, got NaN")
    return x


def _too_large(answer: Any) -> str:
    """A number too large for a float, said without its hundreds of digits (str() of 5,000 fails)."""
    whole = abs(int(answer))
    return f"a number far too large to be one ({'-' if answer < 0 else ''}10**{int(math.log10(whole))} or so)"


def need_whole(answer: Any, what: str = "a whole number") -> int:
    """A whole number (an int, or a float/Fraction with no fractional part)."""
    x = need_number(answer, what)
    if not math.isfinite(x) or x != int(x):
        raise WrongKind(f"expected {what}, got {answer!r}")
    return int(x)


def need_fraction(answer: Any, what: str = "an exact Fraction") -> Fraction:
    """An exact value: an int or a Fraction (a float is refused: the exercise wants exact)."""
    if isinstance(answer, bool) or not isinstance(answer, (int, Fraction)):
        raise WrongKind(f"expected {what} (e.g. Fraction(3, 8)), got {type(answer).__name__} {answer!r}")
    return Fraction(answer)


def agrees_to_digits(given, want: float, least: int = 2) -> "int | None":
    """The number of decimals of `given` (counted as at least `least`, since a float drops trailing
    zeros) when it is `want` rounded to them; None when it does not agree. A float that is `want`
    to float precision counts as 15 digits."""
    if math.isclose(given, want, rel_tol=1e-9, abs_tol=1e-12):
        return 15
    text = repr(float(given))
    if "e" in text:
        return None
    digits = max(len(text.split(".")[1]) if "." in text else 0, least)  # 0.50 is typed 0.50 but stored 0.5
    return digits if abs(given - want) <= 0.5 * 10 ** -digits + 1e-12 else None


ROUNDED = ("your decimal agrees with the answer to the digits you gave, but the exercise asks for the "
           "exact value: compute it with Fractions (e.g. Fraction(3, 8)), not rounded decimals.")
EXACT_NOTE = " (Give the exact value, as a Fraction such as Fraction(3, 8).)"


class Rounded(Refused):
    """A decimal that agrees with an exact answer only to the digits typed (its text: ROUNDED)."""

    def __init__(self, text: str = ROUNDED):
        super().__init__(text)


def exact_answer(answer: Any, want: Fraction, what: str = "an exact Fraction") -> Fraction:
    """The student's answer to an exercise whose answer is the exact `want`, as a Fraction.

    An int or Fraction is taken as it is. A float (a student who computed in decimals) counts
    as `want` when it equals it to float precision; one that only agrees to the digits typed
    (one decimal at least: 12.3 for 12.34) raises `Rounded`, a hint to give the exact value;
    any other float is read as the nearest simple fraction, so the checker's near-miss hints
    still apply (and `check` adds that the answer should be exact)."""
    if isinstance(answer, (int, Fraction)) and not isinstance(answer, bool):
        return Fraction(answer)
    x = need_number(answer, what)
    if not math.isfinite(x):
        raise WrongKind(f"expected {what}, got {answer!r}")
    if math.isclose(x, want, rel_tol=1e-9, abs_tol=1e-12):
        return Fraction(want)
    if agrees_to_digits(x, float(want), least=1):
        raise Rounded
    return Fraction(x).limit_denominator(10 ** 9)


def exact_value(answer: Any, what: str = "an exact Fraction") -> Fraction:
    """One exact value of an answer whose right value the checker does not know beforehand (a part of
    18.mix's mix, judged by what it does): an int or Fraction as it is; a float (a student who computed
    in decimals) as the simplest fraction it equals to float precision (12/37 for 12 / 37), else as the
    float's own value, so a rounded decimal is judged as typed."""
    if isinstance(answer, (int, Fraction)) and not isinstance(answer, bool):
        return Fraction(answer)
    x = need_number(answer, what)
    if not math.isfinite(x):
        raise WrongKind(f"expected {what}, got {answer!r}")
    simple = Fraction(x).limit_denominator(10 ** 9)
    return simple if math.isclose(x, simple, rel_tol=1e-9, abs_tol=1e-12) else Fraction(x)


def _decimal(answer) -> bool:
    """True when an answer (or any part of a pair) is a decimal rather than an int or Fraction."""
    parts = answer if isinstance(answer, (tuple, list)) else (answer,)
    return any(isinstance(a, numbers.Real) and not isinstance(a, (int, Fraction)) for a in parts)


def need_interval(answer: Any, what: str = "an interval (low, high)") -> tuple[float, float]:
    """A pair (low, high) of numbers with low <= high."""
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != 2:
        raise WrongKind(f"expected {what}, got {answer!r}")
    lo, hi = need_number(answer[0], what), need_number(answer[1], what)
    if lo > hi:
        raise WrongKind(f"expected {what} with low <= high, got {answer!r}")
    return lo, hi


def need_choice(answer: Any, allowed: tuple[str, ...]) -> str:
    """One of a few words (case and surrounding spaces ignored)."""
    if not isinstance(answer, str) or answer.strip().lower() not in allowed:
        raise WrongKind(f"expected one of {', '.join(repr(a) for a in allowed)}, got {answer!r}")
    return answer.strip().lower()


def fraction_text(x: Fraction, longest: int = 40) -> str:
    """A Fraction as a hint or confirmation shows it: itself when short, else its size."""
    return str(x) if len(str(x)) <= longest else f"an exact Fraction with a {len(str(x.denominator))}-digit denominator"


def right_is(value: Fraction, what: str) -> str:
    """"{what} is <the value> (about <its decimal>).": a checker's confirmation of an exact answer."""
    return f"{what} is {fraction_text(value)} (about {float(value):.4g})."
