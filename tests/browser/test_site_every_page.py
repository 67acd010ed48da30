"""Every lesson page of the site, opened cold as a student's first visit (issue 38), at 1400 and
390 px: one visit per page and width serves three checks.

- axe-core finds no violation in the project's own markup: the widgets (every element of a
  `meeple-*` class and what is inside it), the charts the site draws, the live bar and the
  exercise cells. What is not the project's own is left to its makers and not counted: the book
  theme's chrome (its landmarks, its navigation) and the HTML pandas writes for a DataFrame (its
  empty corner header cell). A judgement call: each such finding is printed in the test's
  output for a person to see, and a node inside our markup counts whatever else matches.
- The page transfers at most 1.5 MB (Pyodide apart: it loads only on "Start Python").
- Vega and meeple-live.js load once: one Vega (the site's vega.min.js or the bundle that carries
  its own copy, never both) and no site script twice.

axe-core comes from npm (AXE_VERSION, installed once into build/test-npm by the ordinary client)
and Playwright puts that file into the page: nothing loads from another host.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from urllib.parse import urlsplit

import pytest
from site_build import ROOT
from test_site import ALL_DRAWN, COLD_BUDGET

pytestmark = pytest.mark.browser
AXE_VERSION = "4.10.3"
WIDTHS = (1400, 390)
# an element of ours: a meeple widget or runtime part, or a chart our front ends draw
OURS = "[class*='meeple']:not([class*='tag_meeple']), .vega-embed"  # a notebook tag's class (tag_meeple-local) is the lesson's cell, not ours
AXE_RUN = """async (ours) => {
    const result = await axe.run(document, {resultTypes: ['violations']});
    const out = [];
    for (const v of result.violations) for (const n of v.nodes) {
        const el = document.querySelector(n.target[0]);  // one frame: its selector is the node's
        out.push({rule: v.id, impact: v.impact, help: v.help, target: n.target.join(' '),
                  html: n.html.slice(0, 200), why: (n.failureSummary || '').slice(0, 300),
                  ours: !!(el && el.closest(ours))});
    }
    return out;
}"""
# files that each carry Vega: a page must load one of them at most
VEGAS = ("vega.min.js", "vega-embed.js")


@pytest.fixture(scope="module")
def axe_js() -> str:
    """axe-core's axe.min.js, installed once from npm into build/test-npm (kept between runs)."""
    folder = ROOT / "build" / "test-npm"
    path = folder / "node_modules" / "axe-core" / "axe.min.js"
    package = folder / "node_modules" / "axe-core" / "package.json"
    if not (path.exists() and json.loads(package.read_text())["version"] == AXE_VERSION):
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run([shutil.which("npm") or "npm", "install", "--prefix", str(folder), "--no-save", "--no-package-lock",
                        "--no-audit", "--no-fund", f"axe-core@{AXE_VERSION}"], check=True, capture_output=True)
    return str(path)


def visit(browser, url: str, width: int, axe_js: str) -> dict:
    """One cold visit: the bytes and requests per path until the widgets are drawn and the
    network is idle, the scripts the page ran, then axe's findings."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    sizes: dict[str, int] = {}
    asked: dict[str, int] = {}

    def done(request):
        path = urlsplit(request.url).path
        asked[path] = asked.get(path, 0) + 1
        try:
            got = request.sizes()
        except Exception:  # noqa: BLE001 - a request the browser cancelled carries no bytes
            return
        sizes[path] = sizes.get(path, 0) + got["responseBodySize"] + got["responseHeadersSize"]

    context.on("requestfinished", done)
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_function(ALL_DRAWN)
        page.wait_for_function("() => [...document.querySelectorAll('.meeple-explorer')].every("
                               "e => e.querySelector('.meeple-explorer-chart svg'))")
        page.evaluate("document.fonts.ready.then(() => true)")
        page.wait_for_load_state("networkidle")
        # a script the page names twice runs twice even when the second load comes from the cache
        tags = page.evaluate("() => [...document.scripts].map(s => s.src && new URL(s.src).pathname).filter(Boolean)")
        page.add_script_tag(path=axe_js)
        found = page.evaluate(AXE_RUN, OURS)
    finally:
        context.close()
    return {"bytes": sum(sizes.values()), "sizes": sizes, "asked": asked, "tags": tags, "axe": found}


@pytest.mark.parametrize("width", WIDTHS)
def test_every_lesson_page_cold(site, browser, axe_js, width):
    ours, theirs, heavy, twice = [], [], [], []
    for lesson in site.pages:
        seen = visit(browser, f"{site.url}/{lesson}.html", width, axe_js)
        print(f"{lesson} at {width} px: {seen['bytes']} bytes cold")
        for f in seen["axe"]:
            (ours if f["ours"] else theirs).append({"page": lesson, **f})
        if seen["bytes"] > COLD_BUDGET:
            heaviest = sorted(seen["sizes"].items(), key=lambda kv: -kv[1])[:6]
            heavy.append(f"{lesson}: {seen['bytes']} bytes cold; heaviest: {heaviest}")
        vegas = sorted(p for p in seen["asked"] if p.rsplit("/", 1)[-1] in VEGAS)
        if len(vegas) > 1:
            twice.append(f"{lesson}: Vega loaded {len(vegas)} times: {vegas}")
        for path in {p for p in seen["tags"] if seen["tags"].count(p) > 1}:
            twice.append(f"{lesson}: {path} named by {seen['tags'].count(path)} script tags")
        assert not [p for p in seen["asked"] if "/pyodide" in p or p.endswith(".whl")], f"{lesson}: Python before a click"
    for f in theirs:
        print(f"not ours ({width} px): {f['page']}: {f['rule']} at {f['target']}: {f['html'][:100]}")
    problems = [f"{f['page']}: axe {f['rule']} ({f['impact']}) {f['help']} at {f['target']}: {f['html'][:120]} -- {f['why']}"
                for f in ours] + heavy + twice
    assert not problems, f"{len(problems)} problems at {width} px:\n" + "\n".join(problems[:40])
