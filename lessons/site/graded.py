"""A graded build's worker wheel (issue 24 item 4), for lessons/site/build.py (`--no-solutions`).

The lesson modules' checkers are the answers' recipes, so the wheel a graded site ships for the
reader's Python is made from a copy of the sources in which:

- every exact (sealed) exercise's checker and answer (`@exercise("K")`, `@answer_of("K")`,
  `answer_of("K")(f)`, K in `graded.SEALED`) is cut out of the `lesson_*` modules, so is the
  answer of each `graded.ANSWER_ONLY` exercise (its checker judges through a sealed answer,
  `graded.is_answer`), and with them
  every helper nothing left uses any more (the answers' workings: a private one nothing left in
  the module uses, a public one that neither does nor a lesson's own cells or the package's `__init__`);
- `exercises/sealed.py` holds the table `graded.seal(roster)` made at build time (salted SHA-256
  digests, no answer) and the package's `__init__` installs it: `check()` compares hashes;
- the course's notebooks (package data) are scrubbed of their solution cells.

The sampled exercises keep their checkers as they are: they judge the student's own games.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from ..exercises import checking, graded
from ..scrub import scrub_notebook

LESSON_MODULES = "lesson_*.py"


def _key(decorator: ast.expr) -> "str | None":
    """"K" of a decorator `exercise("K", ...)` / `answer_of("K")`, else None."""
    if (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Name)
            and decorator.func.id in ("exercise", "answer_of") and decorator.args
            and isinstance(decorator.args[0], ast.Constant) and isinstance(decorator.args[0].value, str)):
        return decorator.args[0].value
    return None


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def _cut(decorator: ast.expr, keys: set, answers: set) -> bool:
    """Is this `exercise("K")` with K in `keys`, or `answer_of("K")` with K in `keys` or `answers`?"""
    key = _key(decorator)
    return key in keys or (key in answers and decorator.func.id == "answer_of")


def strip_answers(source: str, keys, outside: "set[str] | None" = None, answers=()) -> str:
    """A lesson module's source without the checkers and answers of `keys`, the answers of `answers`
    (their checkers stay: they judge through a sealed answer), and the helpers only they used:
    private ones, and (given `outside`, the names the lessons' own cells and the package's
    `__init__` use) public ones no one outside uses either."""
    keys, answers = set(keys), set(answers)
    tree = ast.parse(source)
    gone: set[str] = set()
    body = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and any(_cut(d, keys, answers) for d in node.decorator_list):
            gone.add(node.name)
            continue
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Call) and _cut(node.value.func, keys, answers)):
            gone |= {a.id for a in node.value.args if isinstance(a, ast.Name)}
            continue
        body.append(node)
    # An answer's function (`answer_of("K")(f)`) goes with its answer, unless a checker that stays
    # still calls it: the loop below drops it with the other helpers nothing left uses. (A checker
    # that ships must not work out a sealed answer: test_site_graded.py holds the wheel to that.)
    while True:  # private helpers that nothing left uses (the answers' workings), until none is left
        used = set().union(*(_names(n) for n in body if not isinstance(n, (ast.FunctionDef, ast.ClassDef)))) | set().union(
            *(_names(n) - {n.name} for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef))))
        unused = [n for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
                  and (n.name.startswith("_") or n.name in gone or (outside is not None and n.name not in outside))
                  and n.name not in used and not any(_key(d) for d in n.decorator_list)]  # a registered one is used
        if not unused:
            break
        body = [n for n in body if n not in unused]
    # and what it imports from another lesson module that nothing left uses (a name that was only the
    # cut answers', e.g. lesson 6's use of lesson 3's chase): make_graded then strips that one there too
    used = set().union(*(_names(n) for n in body if not isinstance(n, ast.ImportFrom)))
    for node in body:
        if isinstance(node, ast.ImportFrom) and node.level and (node.module or "").startswith("lesson_"):
            node.names = [a for a in node.names if (a.asname or a.name) in used]
    body = [n for n in body if not (isinstance(n, ast.ImportFrom) and not n.names)]
    note = ("\nAs a graded build ships it: the exact exercises' checkers and answers are left out "
            "(their salted hashes are in sealed.py).\n")
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body[0].value.value += note
    else:
        body.insert(0, ast.Expr(ast.Constant(note)))
    tree.body = body
    return ast.unparse(tree) + "\n"


def seal_table(roster: list[str]) -> dict:
    """The sealed table for the build, made with the full package (in this interpreter), with the
    words each sealed checker's `expects` says (the lesson modules that registered them are cut)."""
    table = graded.seal(roster)
    table["expects"] = {k: checking.expects(k) for k in graded.SEALED if checking.expects(k)}
    return table


def make_graded(src: Path, table: dict) -> None:
    """Turn the copied sources `src` (the wheel's) into the graded ones (see the module's docstring)."""
    pkg = src / "lessons" / "exercises"
    for nb in sorted((src / "lessons").glob("*.ipynb")):
        nb.write_text(scrub_notebook(nb.read_text(), nb.name)[0])
    # the names the lessons' own cells (answers left out) import from the package, and its modules do
    # from each other: its __init__ and the shared modules, and a lesson module that still uses another's
    # after the strip (found by stripping until what the stripped modules import stops shrinking)
    def imported(sources) -> set:
        return {a.name for text in sources for node in ast.walk(ast.parse(text))
                if isinstance(node, ast.ImportFrom) and node.level for a in node.names}

    lessons = {m: m.read_text() for m in sorted(pkg.glob(LESSON_MODULES))}
    base = imported(m.read_text() for m in sorted(pkg.glob("*.py")) if m not in lessons)
    for nb in sorted((src / "lessons").glob("*.ipynb")):
        for names in re.findall(r"from meeple\.course\.exercises[\w.]* import ([\w, ]+)", nb.read_text()):
            base |= {n.strip() for n in names.split(",")}
    outside = base | imported(lessons.values())
    while True:
        stripped = {m: strip_answers(text, graded.SEALED, outside, graded.ANSWER_ONLY) for m, text in lessons.items()}
        fewer = base | imported(stripped.values())
        if fewer == outside:
            break
        outside = fewer
    for module, text in stripped.items():
        module.write_text(text)
    (pkg / "sealed.py").write_text('"""The sealed answers of this graded build (graded.seal): salted digests, no answer."""\n'
                                  f"TABLE = {json.dumps(table, indent=0)}\n")
    init = pkg / "__init__.py"
    init.write_text(init.read_text() + "\n# A graded build: the exact exercises are checked against the sealed table.\n"
                    "from . import graded as _graded, sealed as _sealed  # noqa: E402 - appended below the package code\n"
                    "_graded.install(_sealed.TABLE)\n")
