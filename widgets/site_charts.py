"""The Explorer as the course site saves it: every value played when the site is built.

When the site is built, each
Explorer plays every value on its slider with the lesson's own seed and games,
and saves with the page what its one front end (`static/explorer.js`) needs
before Python starts: the charts over every value, and each value's numbers and
text alternative, so the slider moves over them at once. Its `setup` carries
those numbers too: after "Start Python" the browser's ExplorerSession starts
from them and then does what it does in JupyterLab.

The site builder says so: it starts each lesson's kernel with `site_mode()` already
called (`meeple.course.site.build.KERNEL_STARTUP`, an IPython startup file). No widget
reads the environment to guess it.
"""

from __future__ import annotations

_MODE = {"site": False}


def site_mode(on: bool = True) -> None:
    """Tell this process's Explorers that the course site is being built (`on`) or not:
    from then on each plays every value on its slider and saves them with the page.
    The site builder calls it in each lesson's kernel before the lesson runs."""
    if not isinstance(on, bool):
        raise TypeError(f"site_mode: on must be True or False, not {on!r}")
    _MODE["site"] = on


def building_site() -> bool:
    """True once `site_mode()` was called in this process (the course site being built)."""
    return _MODE["site"]


def saved(session) -> dict:
    """What the page's Explorer shows before Python starts, keyed by each cell's `point`: its
    numbers table, which is also the charts' text alternative there (the CSV comes from the
    setup's rows). A page has 1.5 MB cold: nothing is saved twice."""
    cells = session.cells()
    return {
        "saved_numbers": {str(cells.index(c)): session.numbers(c) for c in session.played},
    }
