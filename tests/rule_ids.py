"""Rule ids select tests: `pytest -m BB_9` (or `-k BB-9`) runs the tests of rule BB-9.

Every numbered rule of seeds/*.md ("- **BB-9** ...") is a pytest marker, its "-" written "_"
(a marker is a Python name), registered in tests/conftest.py; a test gets the marker of each
rule id its own source names (its name, docstring, comments or code, as tests/test_project.py
reads the files), and the id itself as a keyword, so `-k BB-9` finds it too (`-k` matches a
substring: `-k BB-1` also picks BB-10 to BB-19; `-m BB_1` is that rule alone).
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

SEEDS = Path(__file__).resolve().parents[1] / "seeds"
RULE = re.compile(r"^\s*[-*]\s+\*\*([A-Z]+-\d+)\*\*", re.M)
NAMED = re.compile(r"(?<![A-Za-z0-9-])([A-Z]{2,3})[-_](\d+)(?!\d)")  # BB-9, or BB_9 in a test's name


def rule_ids() -> dict[str, str]:
    """{"BB-1": "bucket_brigade.md", ...}: every numbered rule of every game, in the files' order."""
    return {rid: path.name for path in sorted(SEEDS.glob("*.md")) for rid in RULE.findall(path.read_text(encoding="utf-8"))}


def marker(rid: str) -> str:
    """The marker of rule `rid`: BB-9 -> BB_9."""
    return rid.replace("-", "_")


def named(text: str, known: dict[str, str]) -> list[str]:
    """The rule ids of `known` that `text` names (BB-9, not BB-90 or XBB-9)."""
    return sorted({f"{g}-{n}" for g, n in NAMED.findall(text)} & set(known))


def named_in(item, known: dict[str, str]) -> list[str]:
    """The rule ids a collected test names: in its node name (parameters too) and its function's source."""
    text = item.name
    function = getattr(item, "function", None)
    if function is not None:
        try:
            text += "\n" + inspect.getsource(function)
        except (OSError, TypeError):  # no source to read
            pass
    return named(text, known)
