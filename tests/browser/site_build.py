"""The course site for the browser tests: built ONCE per pytest session, served on loopback.

Building runs lessons (Jupyter Book executes each one: 30-50 s apiece on two busy cores),
so the session builds one site, into pytest's session folder (conftest.py's `site_tree`),
and every site test module serves that same tree on its own port: the pages tests
(test_site*.py), the controls (test_site_controls.py), the exercise cells
(test_site_exercises.py) and the variant lab (test_site_lab.py). Every lesson is a page;
only these lessons are executed (`python -m meeple.course.site.build --execute`), the rest are pages without
outputs, which is all the exercise cells and the lab need:
- one lesson per widget kind for the pages tests (`site_lessons`, `Site.lessons`): the first
  lesson with both a Stepper and an Explorer, else the first with each (`make test` already
  runs every lesson through nbval, and `make site` builds them all);
- the lessons with controls (CONTROL_LESSONS), whose saved views the controls test compares;
- every lesson with an Explorer: the heaviest pages, which the cold budget and axe must see
  (lesson 13, two Explorers a page, was over the budget and shared a label in a full `make site`
  while this build did not run it).
MEEPLE_SITE_LESSONS="glob ..." picks other lessons for the pages tests; MEEPLE_SITE_ALL=1
executes every lesson. MEEPLE_TEST_SITE=DIR tests a site already built with
`python -m meeple.course.site.build --out DIR` (its log in DIR/site-build.log) instead of building one.
"""

from __future__ import annotations

import fnmatch
import json
import os
import signal
import subprocess
import sys
import time
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
    """The lessons the shared build runs: the pages tests', the controls test's and every Explorer's, in order."""
    names = list(lesson_sources())
    # every Explorer's lesson too: theirs are the heaviest pages (the cold budget), and lesson 13's two
    # Explorers on one page are where a label shared by both showed (axe's landmark-unique)
    chosen = set(site_lessons()) | set(matching(CONTROL_LESSONS, names)) | set(lessons_with("Explorer", names))
    return [n for n in names if n in chosen]


class Build:
    """One `python -m meeple.course.site.build` run in the background, in its own process group: `make test`
    starts the session's builds as soon as the tests are collected (tests/conftest.py), so they
    run while the tests that do not need them do; a fixture `wait()`s for its build."""

    DEADLINE = 3600  # s: an outer deadline only (twelve lessons run: 10-12 min on two busy cores)

    def __init__(self, args: list[str], log: Path):
        self.log, self.started = log, time.monotonic()
        self.fh = open(log, "w")
        self.proc = subprocess.Popen([sys.executable, "-m", "meeple.course.site.build", *args],
                                     stdout=self.fh, stderr=subprocess.STDOUT, start_new_session=True)

    def wait(self) -> None:
        """Until the build ends; RuntimeError with its log's tail if it failed or ran past DEADLINE."""
        try:
            code = self.proc.wait(timeout=max(1.0, self.DEADLINE - (time.monotonic() - self.started)))
        except subprocess.TimeoutExpired:
            self.stop()
            raise RuntimeError(f"the site build ran past {self.DEADLINE} s:\n" + self.log.read_text()[-4000:]) from None
        finally:
            self.fh.close()
        if code:
            raise RuntimeError("the site did not build:\n" + self.log.read_text()[-4000:])

    def stop(self) -> None:
        """End the build if it still runs (the session ended first: -x, Ctrl-C, a deselected test)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.fh.close()


def start(base: Path) -> "Build | None":
    """Start the session's one site build into `base` (every lesson a page, executed_lessons()
    run), unless MEEPLE_TEST_SITE names a built one; `tree(base)` then reads it."""
    if os.environ.get("MEEPLE_TEST_SITE"):
        return None
    out = base / "site"
    out.mkdir(parents=True, exist_ok=True)
    return Build(["--out", str(out), "--execute", *executed_lessons()], base / "site-build.log")


def tree(base: Path) -> Tree:
    """The built site (after `start(base)`'s build has ended)."""
    chosen, pages = site_lessons(), list(lesson_sources())
    if os.environ.get("MEEPLE_TEST_SITE"):
        out = Path(os.environ["MEEPLE_TEST_SITE"]).resolve()
        html, log = out / "html", out / "site-build.log"
        if not (html / "index.html").exists() or not log.exists():
            raise RuntimeError(f"MEEPLE_TEST_SITE={out}: no html/index.html or site-build.log there")
        built = [n for n in pages if (html / f"{n}.html").exists()]
        return Tree(html, [n for n in chosen if n in built], log, built, built)
    return Tree(base / "site" / "html", chosen, base / "site-build.log", pages, executed_lessons())


# The graded site (`make site SOLUTIONS=no ROSTER=...`) that tests/site/test_site_graded.py searches for
# answers and tests/browser/test_site_graded_browser.py has a student use: one build for both.
GRADED_LESSON = "07_without_replacement"  # three sealed exercises
GRADED_ROSTER = ["Ada Lovelace", "Alan Turing"]


def start_graded(base: Path) -> Build:
    """Start the session's graded build into `base`/graded: one lesson, not run, solutions left
    out, sealed for GRADED_ROSTER; its site is `base`/graded/site/html."""
    out = base / "graded"
    out.mkdir(parents=True, exist_ok=True)
    roster = out / "class.csv"
    roster.write_text("name\n" + "\n".join(GRADED_ROSTER) + "\n")
    return Build(["--out", str(out / "site"), "--no-solutions", "--roster", str(roster), "--no-execute",
                  "--lessons", GRADED_LESSON], out / "build.log")


def local(url: str) -> bool:
    """A request that stays on this machine (the loopback host, or data/blob URLs)."""
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    return parts.scheme in ("http", "https") and parts.hostname in ("127.0.0.1", "localhost")
