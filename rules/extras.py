"""The optional extras: which `pip install 'meeple[...]'` brings a package that is missing.

`pip install meeple` is what every notebook host needs; the rest comes with an extra
(pyproject.toml). Code that needs one imports it through `require`, so a reader without
it gets one line naming the extra instead of a traceback (the CLI: exit 2).
"""

from __future__ import annotations

import importlib
from types import ModuleType

# import name -> (what pip installs, the extra that brings it)
EXTRAS = {
    "pyarrow": ("pyarrow", "parquet"),
    "pyspiel": ("OpenSpiel (open-spiel)", "openspiel"),
    "open_spiel": ("OpenSpiel (open-spiel)", "openspiel"),
    # the course site's builder (meeple.course.site): Jupyter Book brings the Markdown parser
    "markdown_it": ("markdown-it-py (with jupyter-book)", "site"),
    "mdit_py_plugins": ("mdit-py-plugins (with jupyter-book)", "site"),
    "fontTools": ("fonttools", "site"),
}
# bots that exist only with an extra: name -> the import they need
OPTIONAL_BOTS = {"ismcts": "pyspiel"}


class MissingExtra(ModuleNotFoundError):
    """An optional package is not installed; the message names the extra that brings it."""


def hint(module: str) -> str:
    """`pip install 'meeple[parquet]'` for the extra that brings `module`."""
    return f"pip install 'meeple[{EXTRAS[module.partition('.')[0]][1]}]'"


def missing(module: str, needed_for: str) -> MissingExtra:
    """The one-line error for `module` not being installed."""
    top = module.partition(".")[0]
    package, _ = EXTRAS[top]
    return MissingExtra(f"{needed_for} needs {package}, which is not installed: {hint(top)}", name=top)


def require(module: str, needed_for: str) -> ModuleType:
    """Import an optional `module`, or raise MissingExtra naming the extra to install.

    Only the package itself missing is turned into the one line: a module missing
    inside an installed package (a broken install) keeps Python's own message."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name is not None and not (e.name == module or module.startswith(e.name + ".")):
            raise  # something inside the package is missing, not the package
        raise missing(module, needed_for) from None

