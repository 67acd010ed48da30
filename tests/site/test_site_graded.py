"""A graded site (`SOLUTIONS=no`, issue 24 item 4; lessons/site/graded.py) ships no exact answer:
not in any page, cells file or the worker's wheel, in any form; its check() compares salted hashes,
and a normal build's wheel still has the real checkers."""

from __future__ import annotations

import ast
import builtins
import importlib.util
import subprocess
import sys
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest

from meeple.course import exercises as ex
from meeple.course.exercises import graded
from meeple.course.site.graded import LESSON_MODULES, strip_answers

ROOT = Path(__file__).resolve().parents[2]
ROSTER = ["Ada Lovelace", "Alan Turing"]
# npm's files, each pinned by version (Pyodide's by SHA-256 too): not made from the course, so
# they hold no answer; their minified code is full of short numbers.
THIRD_PARTY = ("pyodide-", "vega-", "katex-", "editor-")


def _build_site():
    return importlib.import_module("meeple.course.site.build")


def _forms(value, decimal: bool) -> set[str]:
    """An exact answer as a reader would spot it: its Fraction text, or (`decimal`) its decimal to 3
    significant digits. A whole number or a simple fraction (1/4, 5/2: denominator under 10) is
    on every page as some other number (a die's chance, a CSS width), and so is a decimal of
    fewer digits (0.15): only an answer a reader could recognise is searched."""
    if isinstance(value, tuple):
        return {f for v in value for f in _forms(v, decimal)}
    x = Fraction(value)
    if x.denominator < 10:
        return set()
    if not decimal:
        return {str(x)}
    text = f"{float(x):.3g}"
    return {text} if len(text.replace(".", "").replace("-", "").lstrip("0")) == 3 else set()


def _answers(decimal: bool) -> dict[str, set[str]]:
    return {f"{who} {key}": _forms(ex.answer(key, who), decimal) for who in [None, *ROSTER] for key in graded.SEALED}


def _made_from_the_course(name: str) -> bool:
    """The files a 3-digit decimal is searched in: the pages, their cells and sources, the exercises
    package and the course's notebooks. The game engine, its rule docs (tables of measured win
    rates: 0.299 is a confidence bound there) and the theme's CSS and scripts hold many such
    numbers by chance, and no checker: there the Fraction text is searched, not the decimal."""
    return (name.endswith(".html") or name.startswith(("_static/cells/", "_sources/"))
            or "!meeple/course/exercises" in name or "!meeple/course/" in name)


def _texts(site: Path):
    """(name, text) of every file of the site, the wheel's files one by one."""
    for f in sorted(site.rglob("*")):
        if not f.is_file() or any(part.startswith(THIRD_PARTY) for part in f.relative_to(site).parts):
            continue
        if f.suffix == ".whl":
            with zipfile.ZipFile(f) as z:
                for name in z.namelist():
                    yield f"{f.name}!{name}", z.read(name).decode("utf-8", "replace")
        else:
            try:
                yield str(f.relative_to(site)), f.read_bytes().decode("utf-8")
            except UnicodeDecodeError:  # an image or a font
                continue


def _found(texts, answers) -> list[str]:
    import re

    hits = []
    for name, text in texts:
        for what, forms in answers.items():
            for form in forms:  # a whole number, not the inside of a longer one (`in` first: the same, faster)
                if form in text and re.search(rf"(?<![\w./+]){re.escape(form)}(?![\w/]|\.\d)", text):
                    hits.append(f"{name}: {what} = {form}")
    return hits


# Functions an answer's recipe reaches that are not the recipe: the student's own numbers (the question),
# and lesson 18's game matrix (the game the lesson builds in the open; solving it is the answer).
NOT_RECIPES = {"lesson_numbers": "the student's numbers", "guarded_matrix_18": "the game, not its solution",
               "three_red_rules": "the student's game (10.three_red_sampled deals it), not its chance"}


def _body(node: ast.AST) -> str:
    """A function's body, word for word (its docstring and name left out: a copy under another name counts)."""
    body = node.body[1:] if node.body and isinstance(node.body[0], ast.Expr) and isinstance(
        getattr(node.body[0], "value", None), ast.Constant) else node.body
    return "\n".join(ast.dump(b) for b in body) or f"(only a docstring: {node.name})"


def _recipes(source: str) -> dict[str, str]:
    """{name: body} of every function of a lesson module that works out a sealed answer: the sealed
    exercises' checkers and answers (and ANSWER_ONLY's answers), and every function of the module
    they reach, save NOT_RECIPES."""
    helpers = _build_site().site_graded
    _key, _names = helpers._key, helpers._names  # the build's own reading of the decorators

    tree = ast.parse(source)
    defs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    wanted = set(graded.SEALED) | set(graded.ANSWER_ONLY)

    def cut(d):
        k = _key(d)
        return k in graded.SEALED or (k in graded.ANSWER_ONLY and d.func.id == "answer_of")

    todo, roots = [], []
    for n in tree.body:
        if isinstance(n, ast.FunctionDef) and any(cut(d) for d in n.decorator_list):
            todo.append(n.name)
        elif isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Call) \
                and _key(n.value.func) in wanted:
            roots.append(n.value.args[0])  # answer_of("K")(lambda: ...) or (f)
            todo += list(_names(n.value.args[0]) & set(defs))
    seen: dict[str, str] = {f"lambda {k}": ast.dump(r) for k, r in enumerate(roots) if isinstance(r, ast.Lambda)}
    while todo:
        name = todo.pop()
        if name in seen or name not in defs or name in NOT_RECIPES:
            continue
        seen[name] = _body(defs[name])
        todo += list(_names(defs[name]) & set(defs))
    return seen


@pytest.fixture(scope="module")
def wheels(tmp_path_factory):
    bs = _build_site()
    tmp = tmp_path_factory.mktemp("wheels")
    table = bs.site_graded.seal_table(ROSTER)
    return bs.site_vendor.build_wheel(tmp / "normal"), bs.site_vendor.build_wheel(tmp / "graded", table)


def _run_with(wheel: Path, code: str) -> str:
    """`code` in a fresh interpreter without site-packages (as the site's worker: the standard library and `wheel`)."""
    where = wheel.parent / "unpacked"  # as the worker installs it
    if not where.exists():
        with zipfile.ZipFile(wheel) as z:
            z.extractall(where)
    prelude = f"import sys; sys.path.insert(0, {str(where)!r}); import meeple.course.exercises as ex\n" \
              f"assert ex.__file__.startswith({str(where)!r}), ex.__file__\n"
    run = subprocess.run([sys.executable, "-S", "-c", prelude + code], capture_output=True, text=True, timeout=300,
                         cwd=wheel.parent)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def test_the_graded_wheel_checks_by_hash_and_keeps_the_sampled_checkers(wheels):
    normal, graded_wheel = wheels
    with zipfile.ZipFile(graded_wheel) as z:
        names = z.namelist()
        assert "meeple/course/exercises/sealed.py" in names
        lessons = z.read("meeple/course/exercises/lesson_07.py").decode()
    assert "_third_flip" not in lessons and '"07.third"' not in lessons
    with zipfile.ZipFile(graded_wheel) as z:  # public helpers that worked out only exact answers go too
        late = {n: z.read(f"meeple/course/exercises/lesson_{n}.py").decode() for n in ("19", "20", "21")}
    assert "def drought_chance" not in late["19"] and "def model_first_seat" not in late["21"] and "def rounds_out" in late["20"]
    right = {who: ex.answer("07.third", who) for who in [None, "Ada Lovelace"]}
    out = _run_with(graded_wheel, f"""
import contextlib, io
from fractions import Fraction
with contextlib.redirect_stdout(io.StringIO()):
    own = ex.check("07.third", Fraction({str(right[None])!r}))
    ex.student("Ada Lovelace")
    ada = ex.check("07.third", Fraction({str(right["Ada Lovelace"])!r}))
    wrong = ex.check("07.third", Fraction({str(right["Ada Lovelace"])!r}) + Fraction(1, 10**6))
try:
    ex.answer("07.third")
    keyed = True
except ValueError:
    keyed = False
print(own, ada, wrong, keyed, ex.checking._CHECKERS["07.third"].__name__, "01.wilson" in ex.keys())
""")
    assert out.split() == ["True", "True", "False", "False", "sealed_07_third", "True"], out
    # the normal wheel still has the real checker and its answer
    out = _run_with(normal, 'print(ex.checking._CHECKERS["07.third"].__name__, ex.answer("07.third"))')
    assert out.split() == ["_third_flip", str(right[None])], out
    # every sealed exercise: hash-checked, its answer not computable from the graded wheel; the normal one computes it
    every = f"""
from meeple.course.exercises import graded
for key in {list(graded.SEALED)!r}:
    assert ex.checking._CHECKERS[key].__name__.startswith("sealed_"), key
    try:
        ex.answer(key)
    except ValueError:
        continue
    raise AssertionError(key + " has its answer in the graded wheel")
print("sealed")
"""
    assert _run_with(graded_wheel, every).strip() == "sealed"
    out = _run_with(normal, f"print(all(ex.answer(k) is not None for k in {list(graded.SEALED)!r}))")
    assert out.strip() == "True"


def test_the_graded_wheel_carries_no_function_that_works_out_a_sealed_answer(wheels):
    """No recipe of a sealed answer survives in the graded wheel, under its name or another: the
    checkers, the answers and every helper they reach (_last_steal, guarded_18, model_wait, ...),
    searched by name in the exercises package and word for word (the function's body, under any
    name) in every Python file of the wheel's package."""
    normal, graded_wheel = wheels
    with zipfile.ZipFile(normal) as z:
        sources = {n: z.read(n).decode() for n in z.namelist() if "/exercises/lesson_" in n}
    recipes = {f"{n.rsplit('/', 1)[1]}:{name}": body for n, src in sources.items() for name, body in _recipes(src).items()}
    assert len(recipes) > 40 and any(k.endswith(":_last_steal") for k in recipes) and \
        any(k.endswith(":guarded_18") for k in recipes) and any(k.endswith(":model_wait") for k in recipes)
    by_name, by_body = {}, {}
    for k, b in recipes.items():
        by_name.setdefault(k.split(":")[1], []).append(k)
        by_body.setdefault(b, []).append(k)
    found = []
    with zipfile.ZipFile(graded_wheel) as z:
        for n in z.namelist():
            if not (n.startswith("meeple/") and n.endswith(".py")):
                continue
            for node in ast.walk(ast.parse(z.read(n).decode())):
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    # a name counts inside the exercises package (the engine has its own _value, _leader)
                    named = by_name.get(node.name, []) if "/lessons/exercises/" in n else []
                    like = set(named) | set(by_body.get(_body(node), []))
                    found += [f"{n}: {node.name} (named like, or the same code as, {k})" for k in sorted(like)]
                elif isinstance(node, ast.Lambda):
                    found += [f"{n}: a lambda, the same code as {k}" for k in by_body.get(ast.dump(node), [])]
    assert found == [], "\n".join(found)
    # and the checker that judges through a sealed answer (18.mix) still works in the graded wheel
    out = _run_with(graded_wheel, f"""
import contextlib, io
from fractions import Fraction
with contextlib.redirect_stdout(io.StringIO()):
    right = ex.check("18.mix", tuple(Fraction(x) for x in {[str(x) for x in ex.answer("18.mix")]!r}))
    wrong = ex.check("18.mix", (Fraction(1, 4),) * 4)
    leader = ex.check("09.leader", {ex.answer("09.leader")!r})
print(right, wrong, leader)
""")
    assert out.split() == ["True", "False", "True"], out


def test_a_graded_site_holds_no_exact_answer_anywhere(graded_tree):
    """A whole graded build (one lesson, not executed; the session's, tests/conftest.py), every file
    searched, the wheel's inside too. (The normal build's files hold no answer written out either:
    its checkers compute them, which the wheel test above sees.)"""
    assert graded_tree.roster == ROSTER and graded_tree.lesson.startswith("07_"), graded_tree
    site = graded_tree.html
    assert any(site.rglob("*.whl")) and (site / "_static" / "cells" / "07_without_replacement.json").exists()
    fractions, decimals = _answers(decimal=False), _answers(decimal=True)
    assert sum(map(len, fractions.values())) >= 20 and sum(map(len, decimals.values())) >= 20  # something is searched
    texts = list(_texts(site))
    assert _found(texts, fractions) == []
    assert _found([t for t in texts if _made_from_the_course(t[0])], decimals) == []
    # the search finds each answer where it is written down as a teacher's key would write it
    key = "\n".join(f"{who} {k}: {graded.canonical(v).replace(',', ' and ')} = {graded.decimal(v)}, "
                    f"{' and '.join(sorted(_forms(v, decimal=True)))}"
                    for who in [None, *ROSTER] for k in graded.SEALED for v in [ex.answer(k, who)])
    assert len(_found([("_sources/key.md", key)], fractions)) == sum(map(len, fractions.values()))
    assert len(_found([("_sources/key.md", key)], decimals)) == sum(map(len, decimals.values()))


def test_a_roster_needs_a_graded_build(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("colour\nred\n")
    run = subprocess.run([sys.executable, "-m", "meeple.course.site.build", "--no-solutions",
                          "--roster", str(roster)], capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and "--roster" in run.stderr and "'name' or 'id'" in run.stderr, run.stderr


def test_a_graded_module_keeps_every_name_its_remaining_code_calls():
    """A graded build cuts the sealed exercises' checkers and answers and the helpers only they
    used; a checker that stays must not call a helper that went (10.three_red_sampled compared the
    student's interval with the exact chance 10.three_red's answer computes: cutting that function
    with the sealed answer made the sampled check fail with a NameError on a graded site; it now
    asks `expected`, which a graded build does not answer for a sealed exercise)."""
    for module in sorted((ROOT / "lessons" / "exercises").glob(LESSON_MODULES)):
        source = module.read_text()
        defined_before = {n.name for n in ast.parse(source).body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        tree = ast.parse(strip_answers(source, graded.SEALED, None, graded.ANSWER_ONLY))
        defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        called = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        missing = (called & defined_before) - defined - set(dir(builtins))
        assert not missing, f"{module.name}: the graded copy calls {sorted(missing)}, which it no longer defines"
