"""Which of a lesson's worked examples run in the site's browser: found by running them so (issue 38).

    python -m meeple.course.site.dry_run KINDS.json LESSON.ipynb ...

The course site's Python is Pyodide's core: meeple's rules, simulation, exact maths and the
Stepper, but no pandas, altair, numpy or widget library. Rather than guess from the code which
cells need those, the build runs every code cell of each lesson here, in a Python where those
modules are absent (`sys.modules[name] = None`: an import of one fails as it fails in the
browser, and `importlib.util.find_spec` says it is not there), through the very runtime the page
uses (`runtime.cells.Page`: what a cell needs of the cells above, then the cell). A cell that
runs without error is a worked example the reader may edit and run on the page; one that stops
on a missing module is marked with that module, and the page says so and how to run the lesson
on a computer. Exercise cells are not run (their blanks are the reader's).

It runs in its own process (the build's Python has pandas and altair loaded) in a scratch
folder, one lesson after another, and writes {lesson stem: [{"kind", "needs"} per code cell the
page runs, in order; "why" the error where no missing module explains it]} to KINDS.json.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .cells import page_cells
from .runtime.cells import NOT_IN_BROWSER, Page

EXERCISE, EXAMPLE, LOCAL = "exercise", "example", "local"


def _hide_what_the_browser_lacks() -> None:
    for name in list(sys.modules):
        if name.split(".")[0] in NOT_IN_BROWSER:
            del sys.modules[name]
    for name in NOT_IN_BROWSER:
        sys.modules[name] = None  # type: ignore[assignment]  # "not installed", as in Pyodide's core


def kinds_of(cells: list[dict]) -> list[dict]:
    """Each page cell's kind (exercise, example: runs in the browser, local: needs `needs`)."""
    page, out = Page(), []
    for i, cell in enumerate(cells):
        if cell["kind"] == EXERCISE:
            out.append({"kind": EXERCISE, "needs": ""})
            continue
        page.prepare([c["source"] for c in cells[:i]], cell["source"])
        r = json.loads(page.run(cell["source"]))
        if not r["error"]:
            out.append({"kind": EXAMPLE, "needs": ""})
        elif r["needs"]:
            out.append({"kind": LOCAL, "needs": r["needs"]})
        else:  # it stopped for another reason (e.g. a pandas table's method on the browser's plain rows)
            out.append({"kind": LOCAL, "needs": "", "why": r["error"]})
    return out


def run(notebooks: list[Path]) -> dict[str, list[dict]]:
    """The kinds of every lesson's page cells, from a separate Python (see the module docstring)."""
    env = {k: v for k, v in os.environ.items() if k != "MEEPLE_STUDENT"}  # the page's default numbers
    with tempfile.TemporaryDirectory(prefix="meeple-dry-run-") as scratch:
        kinds = Path(scratch) / "kinds.json"
        done = subprocess.run([sys.executable, "-m", __name__, str(kinds), *(str(p.resolve()) for p in notebooks)],
                              cwd=scratch, env=env, capture_output=True, text=True)
        if done.returncode:
            sys.exit(f"build_site: the dry run of the worked examples failed:\n{done.stderr[-2000:]}")
        return json.loads(kinds.read_text())


def main(argv: list[str]) -> None:
    _hide_what_the_browser_lacks()
    out = {}
    for path in map(Path, argv[1:]):
        out[path.stem] = kinds_of(page_cells(json.loads(path.read_text())))
    Path(argv[0]).write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
