"""Project-wide promises: every rule is tested, notebooks are clean, rules stay pure."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULE = re.compile(r"^\s*[-*]\s+\*\*([A-Z]+-\d+)\*\*", re.M)
SEEDS = sorted((ROOT / "seeds").glob("*.md"))


def _rule_ids(path: Path) -> list[str]:
    return RULE.findall(path.read_text())


def test_each_game_has_a_seeds_file_with_numbered_rules():
    from meeple.rules import GAMES

    for name in GAMES:
        path = ROOT / "seeds" / (name.replace("-", "_") + ".md")
        assert path.exists(), f"missing {path}"
        ids = _rule_ids(path)
        assert ids, f"{path.name} has no numbered rules"
        assert len(ids) == len(set(ids)), f"{path.name} numbers a rule twice"
        prefix = ids[0].split("-")[0]
        assert ids == [f"{prefix}-{i}" for i in range(1, len(ids) + 1)], f"{path.name}: rules not numbered 1..n"


@pytest.mark.parametrize("seeds_file", SEEDS, ids=lambda p: p.name)
def test_every_numbered_rule_is_named_by_a_test(seeds_file):
    tests_text = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py") if p.name != "test_project.py")
    missing = [r for r in _rule_ids(seeds_file) if not re.search(rf"\b{re.escape(r)}\b", tests_text)]
    assert not missing, f"rules with no test naming them: {missing}"


def test_notebooks_are_committed_without_outputs():
    dirty = []
    for nb in (ROOT / "lessons").rglob("*.ipynb"):
        if ".ipynb_checkpoints" in nb.parts or "_build" in nb.parts:  # the site's executed copies
            continue
        cells = json.loads(nb.read_text())["cells"]
        if any(c.get("outputs") or c.get("execution_count") for c in cells if c["cell_type"] == "code"):
            dirty.append(nb.name)
    assert not dirty, f"strip outputs from: {dirty}"


def test_rules_import_without_jupyter():
    code = (
        "import sys, meeple.rules\n"
        "bad = [m for m in ('IPython', 'ipywidgets', 'anywidget', 'altair', 'pandas', 'jupyterlab') if m in sys.modules]\n"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_readme_starts_with_the_two_commands():
    head = (ROOT / "README.md").read_text().split("\n## ")[0]
    assert "make lab" in head and "make test" in head


def test_widget_assets_are_local_files():
    """Nothing loads from a CDN: no http(s) URLs in widget JS/CSS."""
    for f in (ROOT / "widgets" / "static").glob("*"):
        assert not re.search(r"https?://", f.read_text()), f"{f.name} loads from the network"
