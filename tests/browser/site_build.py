"""The course site for the browser tests: built ONCE per pytest session, served on loopback.

Building runs lessons (Jupyter Book executes each one: 30-50 s apiece on two busy cores),
so the session builds one site, into pytest's session folder (conftest.py's `site_tree`),
and every site test module serves that same tree on its own port: the pages tests
(test_site*.py), the controls (test_site_controls.py), the exercise cells
(test_site_exercises.py) and the variant lab (test_site_lab.py). Every lesson is a page;
only these lessons are executed (`build_site.py --execute`), the rest are pages without
outputs, which is all the exercise cells and the lab need:
- one lesson per widget kind for the pages tests (`site_lessons`, `Site.lessons`): the first
  lesson with both a Stepper and an Explorer, else the first with each (`make test` already
  runs every lesson through nbval, and `make site` builds them all);
- the lessons with controls (CONTROL_LESSONS), whose saved views the controls test compares.
MEEPLE_SITE_LESSONS="glob ..." picks other lessons for the pages tests; MEEPLE_SITE_ALL=1
executes every lesson. MEEPLE_TEST_SITE=DIR tests a site already built with
`build_site.py --out DIR` (its log in DIR/site-build.log) instead of building one.
"""

from __future__ import annotations

import fnmatch
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
WIDGETS = ("Stepper(", "Explorer(")
# The lessons that hold controls (the Stepper, the Tally and every control kind): test_site_controls.py
CONTROL_LESSONS = ["01_*", "02_*", "03_*", "04_*", "06_*", "07_*", "09_*", "10_*", "12_*"]


@dataclass
class Site:
    url: str
    html: Path
    lessons: list[str]  # the pages tests' lessons (site_lessons), executed
    log: Path
    pages: list[str]  # every lesson page of the site, in order
    executed: list[str]  # every lesson the build ran (saved widget views and outputs)


@dataclass
class Tree:
    """One built site (its folder, not yet served)."""
    html: Path
    lessons: list[str]
    log: Path
    pages: list[str]
    executed: list[str]


def lesson_sources() -> dict[str, str]:
    return {p.stem: "".join("".join(c["source"]) for c in json.loads(p.read_text())["cells"] if c["cell_type"] == "code")
            for p in sorted((ROOT / "lessons").glob("*.ipynb"))}


def site_lessons() -> list[str]:
    """The lessons the test build executes (see the module docstring)."""
    sources = lesson_sources()
    names = list(sources)
    if os.environ.get("MEEPLE_SITE_ALL", "") not in ("", "0"):
        return names
    if os.environ.get("MEEPLE_SITE_LESSONS"):
        pats = os.environ["MEEPLE_SITE_LESSONS"].split()
        return [n for n in names if any(fnmatch.fnmatch(n, p) for p in pats)]
    has = {w: [n for n in names if w in sources[n]] for w in WIDGETS}
    both = [n for n in has[WIDGETS[0]] if n in has[WIDGETS[1]]]
    chosen = both[:1] or [found[0] for found in has.values() if found]
    return chosen or names[:1]


def lessons_with(widget: str, built: list[str]) -> list[str]:
    sources = lesson_sources()
    return [n for n in built if widget + "(" in sources.get(n, "")]


def matching(patterns: list[str], names: list[str]) -> list[str]:
    return [n for n in names if any(fnmatch.fnmatch(n, p) for p in patterns)]


def executed_lessons() -> list[str]:
    """The lessons the shared build runs: the pages tests' and the controls test's, in order."""
    names = list(lesson_sources())
    chosen = set(site_lessons()) | set(matching(CONTROL_LESSONS, names))
    return [n for n in names if n in chosen]


def build(base: Path) -> Tree:
    """Build the session's one site (once per `base`): every lesson a page, executed_lessons() run."""
    chosen, pages = site_lessons(), list(lesson_sources())
    if os.environ.get("MEEPLE_TEST_SITE"):
        out = Path(os.environ["MEEPLE_TEST_SITE"]).resolve()
        html, log = out / "html", out / "site-build.log"
        if not (html / "index.html").exists() or not log.exists():
            raise RuntimeError(f"MEEPLE_TEST_SITE={out}: no html/index.html or site-build.log there")
        built = [n for n in pages if (html / f"{n}.html").exists()]
        return Tree(html, [n for n in chosen if n in built], log, built, built)
    out = base / "site"
    html, log = out / "html", base / "site-build.log"
    run = executed_lessons()
    if not (html / "index.html").exists():
        out.mkdir(parents=True, exist_ok=True)
        with open(log, "w") as fh:
            # an outer deadline only (ten lessons run: 8-10 min on two busy cores)
            done = subprocess.run([sys.executable, str(ROOT / "lessons" / "build_site.py"), "--out", str(out),
                                   "--execute", *run], stdout=fh, stderr=subprocess.STDOUT, timeout=3600)
        if done.returncode:
            raise RuntimeError("the site did not build:\n" + log.read_text()[-4000:])
    return Tree(html, chosen, log, pages, run)


def local(url: str) -> bool:
    """A request that stays on this machine (the loopback host, or data/blob URLs)."""
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    return parts.scheme in ("http", "https") and parts.hostname in ("127.0.0.1", "localhost")
