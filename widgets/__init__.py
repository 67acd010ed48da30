"""meeple.widgets: anywidget + ipywidgets front ends.

They display and ask; every rule lives in meeple.rules. JavaScript and CSS
are local files in widgets/static/ (nothing loads from a CDN); Altair charts
draw with the Vega bundled in vl-convert (offline).

The widgets are imported on first use (PEP 562), so `meeple.widgets.session`
loads without ipywidgets, altair, pandas or numpy: the course site runs it in
the reader's browser, where they do not exist.
"""

from importlib import import_module

_WHERE = {"Explorer": ".explorer", "Stepper": ".stepper", "StepperSession": ".session"}

__all__ = ["Explorer", "Stepper", "StepperSession"]


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(import_module(_WHERE[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
