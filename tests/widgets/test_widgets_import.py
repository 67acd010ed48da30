"""What importing the widgets costs (issue 11): the Stepper needs no altair or pandas, the
Explorer no altair, so neither pays jsonschema's import (which, where JupyterLab brought
rfc3987_syntax, builds its IRI grammar: about 1 s of CPU). meeple.widgets leaves how other
packages import alone (issue 34: no import hook)."""

from __future__ import annotations

import subprocess
import sys



def _modules_after(stmt: str) -> set[str]:
    code = f"import sys; {stmt}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_the_stepper_loads_without_altair_or_pandas():
    mods = _modules_after("from meeple.widgets import Stepper")
    assert "meeple.widgets.stepper" in mods
    assert not {"altair", "pandas", "jsonschema"} & mods


def test_the_explorer_loads_without_altair_or_jsonschema():
    """The Explorer draws plain Vega-Lite (specs.py): it needs no altair, so no jsonschema and no
    IRI grammar, to import; a lesson's charts beside it load altair."""
    mods = _modules_after("from meeple.widgets import Explorer")
    assert "meeple.widgets.explorer" in mods
    assert not {"altair", "jsonschema", "rfc3987_syntax"} & mods
    assert {"altair", "jsonschema"} <= _modules_after("from meeple.widgets import Explorer, charts")


def test_the_widgets_install_no_import_hook():
    """Issue 34: nothing in meeple.widgets changes how another package imports (an earlier
    finder hid rfc3987_syntax from jsonschema by walking the importer's stack frames)."""
    code = ("import sys; import meeple.widgets; "
            "from meeple.widgets import Explorer, Stepper, Panel, Tally, charts; "
            "print(' '.join(str(getattr(f, '__module__', None)) for f in sys.meta_path + sys.path_hooks))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    finders = out.stdout.split()
    assert finders and not [m for m in finders if m.startswith("meeple")]  # altair's six adds one: not ours
