"""The Explorer as the course site saves it: every value played when the site is built.

When the site is built (`lessons/site/build.py` sets MEEPLE_SITE=1), each
Explorer plays every value on its slider with the lesson's own seed and games,
and saves with the page what its one front end (`static/explorer.js`) needs
before Python starts: the charts over every value, and each value's numbers and
text alternative, so the slider moves over them at once. Its `setup` carries
those numbers too: after "Start Python" the browser's ExplorerSession starts
from them and then does what it does in JupyterLab.
"""

from __future__ import annotations

import os

ENV = "MEEPLE_SITE"


def building_site() -> bool:
    """True while the course site is being built (MEEPLE_SITE=1)."""
    return os.environ.get(ENV, "") not in ("", "0")


def saved(session) -> dict:
    """What the page's Explorer shows before Python starts, keyed by each cell's `point`: its
    numbers table, which is also the charts' text alternative there (the CSV comes from the
    setup's rows). A page has 1.5 MB cold: nothing is saved twice."""
    cells = session.cells()
    return {
        "saved_numbers": {str(cells.index(c)): session.numbers(c) for c in session.played},
    }
