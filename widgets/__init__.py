"""meeple.widgets: anywidget front ends over plain logic classes.

They display and ask; every rule lives in meeple.rules. JavaScript and CSS
are local files in widgets/static/ (nothing loads from a CDN); Altair charts
draw with the Vega bundled in vl-convert (offline).

The widgets are imported on first use (PEP 562), so `meeple.widgets.session`,
`explorer_session` and `controls` (which the course site's runtime, meeple.course.site.runtime,
runs) load without ipywidgets, altair, pandas or numpy: the reader's browser has none of them.
`site_mode()` is what the course site's builder calls in each lesson's kernel (site_charts).

Nothing here changes how other packages import. Where JupyterLab is installed, its
jsonschema[format-nongpl] brings rfc3987_syntax, which builds a grammar when jsonschema
(so altair) is imported: about 1 s of CPU once a kernel, paid by `meeple.widgets.charts`
and any lesson that imports altair, not by the Explorer or the Stepper (they need no
altair; tests/widgets/test_widgets_import.py).
"""

from importlib import import_module

_WHERE = {"Explorer": ".explorer", "ExplorerSession": ".explorer_session", "Stepper": ".stepper",
          "StepperSession": ".session", "Panel": ".panel", "Tally": ".tally", "site_mode": ".site_charts"}

__all__ = ["Explorer", "ExplorerSession", "Panel", "Stepper", "StepperSession", "Tally", "site_mode"]


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(import_module(_WHERE[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
