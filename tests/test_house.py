"""The house plan's checks that are not about imports (tests/test_imports.py is):

- ruff passes on rules/, widgets/, the course package (lessons/) and tests/ (its rules:
  pyproject.toml [tool.ruff]);
- every `noqa` names its reason after the code;
- the modules other modules build on (registry, protocol, files, the runner) list their
  public names in `__all__`, each with a docstring;
- every file in rules/, widgets/ and lessons/ (the course package) opens with a docstring, and none outside
  the four games is longer than 800 lines.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ["rules", "widgets", "lessons", "tests"]  # lessons/_build is excluded in pyproject.toml
SOURCES = ["rules", "widgets", "lessons"]
CONTRACTS = ["rules/registry.py", "rules/protocol.py", "rules/files.py", "rules/sim/runner.py"]


def _ruff() -> list[str]:
    exe = Path(sys.executable).with_name("ruff")
    if exe.exists():
        return [str(exe)]
    if shutil.which("ruff"):
        return ["ruff"]
    pytest.fail("ruff is not installed: pip install -e '.[test]' (it is in the test extra)")


def test_ruff_passes_on_rules_widgets_lessons_and_tests():
    done = subprocess.run([*_ruff(), "check", "--no-cache", *CHECKED], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


NOQA = re.compile(r"#\s*noqa\b(?P<rest>.*)$")
REASON = re.compile(r":\s*[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*\s+(?:-|\()\s*\S")


def _noqa_without_reason(text: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1)
            if (m := NOQA.search(line)) and not REASON.match(m.group("rest"))]


def test_every_noqa_names_its_reason():
    bad = []
    for path in [p for folder in CHECKED for p in sorted((ROOT / folder).rglob("*.py")) if "_build" not in p.parts]:
        if "review_lessons" in path.parts:  # the reviewers' scripts, excluded from ruff too
            continue
        bad += [f"{path.relative_to(ROOT)}:{n}" for n in _noqa_without_reason(path.read_text(encoding="utf-8"))]
    assert bad == []


def test_the_noqa_check_tells_a_reason_from_none():
    mark = "# no" + "qa"  # not written out: this file is checked too
    assert _noqa_without_reason(f"x = 1  {mark}: E402\ny = 2  {mark}\n") == [1, 2]
    assert _noqa_without_reason(f"x = 1  {mark}: E402 - after the handler\ny = 2  {mark}: B018 (read it)\n") == []


def _documented(tree: ast.Module) -> tuple[list[str], set[str]]:
    """(the names in __all__, the top-level names that have a docstring: a def or class with one,
    or an assignment followed by a string)."""
    names: list[str] = []
    documented: set[str] = set()
    body = tree.body
    for k, node in enumerate(body):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            names = [elt.value for elt in node.value.elts]
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and ast.get_docstring(node):
            documented.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            nxt = body[k + 1] if k + 1 < len(body) else None
            if isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant) and isinstance(nxt.value.value, str):
                documented |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names, documented


@pytest.mark.parametrize("path", CONTRACTS)
def test_a_contract_module_lists_its_public_names_each_with_a_docstring(path):
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names, documented = _documented(tree)
    public = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and not n.name.startswith("_")}
    assert names, f"{path} has no __all__"
    assert public <= set(names), f"{path}: public but not in __all__: {sorted(public - set(names))}"
    assert [n for n in names if n not in documented] == [], f"{path}: in __all__ without a docstring"


def test_the_docstring_check_sees_a_missing_one():
    tree = ast.parse('__all__ = ["a", "B", "C"]\ndef a():\n    "doc"\nB = 1\n"doc"\nC = 2\n')
    names, documented = _documented(tree)
    assert names == ["a", "B", "C"] and documented == {"a", "B"}


def _sources() -> list[Path]:
    return [p for folder in SOURCES for p in sorted((ROOT / folder).rglob("*.py")) if "_build" not in p.parts]


def test_every_file_in_rules_widgets_and_lessons_opens_with_a_docstring():
    bare = [str(p.relative_to(ROOT)) for p in _sources()
            if not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))]
    assert bare == []


def test_no_file_in_rules_widgets_or_lessons_passes_800_lines():
    long = [f"{p.relative_to(ROOT)}: {p.read_text(encoding='utf-8').count(chr(10))} lines"
            for p in _sources()
            if p.read_text(encoding="utf-8").count("\n") > 800]
    assert long == []
