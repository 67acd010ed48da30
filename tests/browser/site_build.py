"""The course site for the browser tests: built once per pytest session, served on loopback.

Building runs the lessons (Jupyter Book executes each one: 30-50 s apiece on two busy
cores), so the test session builds the site once, into pytest's session folder, and
every site test module reuses it. To keep `make test` within its budget the test build
executes one lesson per widget kind: the first lesson with both a Stepper and an
Explorer, else the first with each (`make test` already runs every lesson through
nbval, and `make site` builds them all). MEEPLE_SITE_LESSONS="glob ..." picks others;
MEEPLE_SITE_ALL=1 builds every lesson. MEEPLE_TEST_SITE=DIR tests a site already built
with `build_site.py --out DIR` (its log in DIR/site-build.log) instead of building one.
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


@dataclass
class Site:
    url: str
    html: Path
    lessons: list[str]
    log: Path


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


def build(base: Path, extra: list[str] | None = None) -> tuple[Path, list[str], Path]:
    """Build (once per `base`) and return (html folder, lessons built, build log)."""
    chosen = site_lessons()
    if os.environ.get("MEEPLE_TEST_SITE"):
        out = Path(os.environ["MEEPLE_TEST_SITE"]).resolve()
        html, log = out / "html", out / "site-build.log"
        if not (html / "index.html").exists() or not log.exists():
            raise RuntimeError(f"MEEPLE_TEST_SITE={out}: no html/index.html or site-build.log there")
        return html, [n for n in chosen if (html / f"{n}.html").exists()], log
    out = base / "site"
    html, log = out / "html", base / "site-build.log"
    if not (html / "index.html").exists():
        out.mkdir(parents=True, exist_ok=True)
        with open(log, "w") as fh:
            done = subprocess.run([sys.executable, str(ROOT / "lessons" / "build_site.py"), "--out", str(out),
                                   "--lessons", *chosen, *(extra or [])],
                                  stdout=fh, stderr=subprocess.STDOUT, timeout=1500)
        if done.returncode:
            raise RuntimeError("the site did not build:\n" + log.read_text()[-4000:])
    return html, chosen, log


def local(url: str) -> bool:
    """A request that stays on this machine (the loopback host, or data/blob URLs)."""
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    return parts.scheme in ("http", "https") and parts.hostname in ("127.0.0.1", "localhost")
