"""Rule ids select tests (issue 34): `pytest -m BB_9` and `pytest -k BB-9` run rule BB-9's tests
(tests/rule_ids.py marks them, tests/conftest.py registers a marker per rule of seeds/*.md)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import rule_ids

ROOT = Path(__file__).resolve().parents[1]
RULES = rule_ids.rule_ids()


def _test_functions() -> dict[str, str]:
    """{"file::test_name": its source} of every test function under tests/ (what a test's marker is read from)."""
    out = {}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
                out[f"{path.relative_to(ROOT)}::{node.name}"] = ast.get_source_segment(text, node) or ""
    return out


def test_every_rule_id_selects_at_least_one_test():
    assert len(RULES) >= 60 and "BB-9" in RULES and "DDB-1" in RULES, len(RULES)  # four games, 64 rules today
    selected = {rid: [] for rid in RULES}
    for name, source in _test_functions().items():
        for rid in rule_ids.named(source, RULES):
            selected[rid].append(name)
    assert [rid for rid, tests in selected.items() if not tests] == []


def test_named_reads_whole_ids_only():
    known = {"BB-9": "", "BB-1": "", "PB-12": ""}
    assert rule_ids.named("BB-9, BB-90, XBB-1, BB-12 and PB-12.", known) == ["BB-9", "PB-12"]


def _pytest(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def test_the_markers_are_registered_and_select_by_id(pytestconfig):
    """The markers this session registered (what `pytest --markers` lists, read without a pytest
    of its own), and two runs of pytest that select by them."""
    listed = {line.split(":", 1)[0] for line in pytestconfig.getini("markers")}
    missing = [rid for rid in RULES if rule_ids.marker(rid) not in listed]
    assert missing == []
    for how in (["-m", "BB_9"], ["-k", "BB-9"]):
        run = _pytest("--collect-only", "-q", "-W", "error::pytest.PytestUnknownMarkWarning", *how,
                      "tests/rules/test_bucket_brigade.py")
        chosen = [line for line in run.stdout.splitlines() if "::" in line]
        assert run.returncode == 0 and chosen, run.stdout + run.stderr
        text = (ROOT / "tests/rules/test_bucket_brigade.py").read_text()
        for line in chosen:  # each chosen test names BB-9 in its own source
            name = line.split("::")[-1].split("[")[0]
            source = next(ast.get_source_segment(text, n) for n in ast.walk(ast.parse(text))
                          if isinstance(n, ast.FunctionDef) and n.name == name)
            assert "BB-9" in rule_ids.named(source, RULES), (how, name)
