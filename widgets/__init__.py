"""meeple.widgets: anywidget front ends over plain logic classes.

They display and ask; every rule lives in meeple.rules. JavaScript and CSS
are local files in widgets/static/ (nothing loads from a CDN); Altair charts
draw with the Vega bundled in vl-convert (offline).

The widgets are imported on first use (PEP 562), so `meeple.widgets.session`,
`explorer_session` and `controls` (which the course site's runtime, meeple.course.site.runtime,
runs) load without ipywidgets, altair, pandas or numpy: the reader's browser has none of them.
`site_mode()` is what the course site's builder calls in each lesson's kernel (site_charts).
"""

import sys
from importlib import import_module


class _NoIriGrammarForJsonschema:
    """Keep jsonschema (which altair imports) from building rfc3987_syntax's grammar.

    jsonschema imports rfc3987_syntax, when installed, only to check the "iri"
    string format, and that package builds a Lark parser at import: about 1.6 s
    of CPU, most of `import meeple.widgets`' cost. Altair never checks that
    format, so while jsonschema's format module loads we report the package
    absent (jsonschema then skips that one check, as it does when it is not
    installed). Any other importer gets rfc3987_syntax as usual.
    """

    def find_spec(self, name, path=None, target=None):
        if name == "rfc3987_syntax":
            frame = sys._getframe(1)
            while frame is not None:
                if frame.f_globals.get("__name__") == "jsonschema._format":
                    raise ModuleNotFoundError("rfc3987_syntax is skipped for jsonschema (see meeple.widgets)",
                                              name=name)
                frame = frame.f_back
        return None


if "jsonschema" not in sys.modules and not any(type(f).__name__ == _NoIriGrammarForJsonschema.__name__
                                               for f in sys.meta_path):
    sys.meta_path.insert(0, _NoIriGrammarForJsonschema())

_WHERE = {"Explorer": ".explorer", "ExplorerSession": ".explorer_session", "Stepper": ".stepper",
          "StepperSession": ".session", "Panel": ".panel", "Tally": ".tally", "site_mode": ".site_charts"}

__all__ = ["Explorer", "ExplorerSession", "Panel", "Stepper", "StepperSession", "Tally", "site_mode"]


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(import_module(_WHERE[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
