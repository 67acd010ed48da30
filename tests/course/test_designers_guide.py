"""The designer's guide (issue 36): every number on lessons/designers_guide.md is computed by
lessons/designers_guide.py; the committed page is what a fresh run writes."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_designers_guide_is_what_its_script_computes_now():
    spec = importlib.util.spec_from_file_location("designers_guide", ROOT / "lessons" / "designers_guide.py")
    guide = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(guide)
    fresh = guide.page()
    assert (ROOT / "lessons" / "designers_guide.md").read_text() == fresh, (
        "lessons/designers_guide.md is stale: run .venv/bin/python lessons/designers_guide.py")
    assert "plays the same games as base" in fresh and "paired" in fresh
