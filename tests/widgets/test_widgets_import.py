"""What importing the widgets costs (issue 11): the Stepper needs no altair or pandas,
the Explorer no altair, and altair does not build rfc3987_syntax's grammar (1.6 s of CPU)."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _modules_after(stmt: str) -> set[str]:
    code = f"import sys; {stmt}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_the_stepper_loads_without_altair_or_pandas():
    mods = _modules_after("from meeple.widgets import Stepper")
    assert "meeple.widgets.stepper" in mods
    assert not {"altair", "pandas", "jsonschema"} & mods


def test_the_explorer_loads_altair_without_building_the_iri_grammar():
    """The Explorer draws plain Vega-Lite (specs.py): it needs no altair to import; a lesson's
    charts beside it load altair, still without the grammar."""
    assert "altair" not in _modules_after("from meeple.widgets import Explorer")
    mods = _modules_after("from meeple.widgets import Explorer, charts")
    assert {"altair", "jsonschema", "meeple.widgets.explorer"} <= mods
    assert "rfc3987_syntax" not in mods


@pytest.mark.slow
def test_rfc3987_syntax_still_imports_for_anyone_else():
    pytest.importorskip("rfc3987_syntax")  # only when installed (altair's jsonschema pulls it in)
    mods = _modules_after("from meeple.widgets import Explorer; import rfc3987_syntax")
    assert "rfc3987_syntax" in mods
