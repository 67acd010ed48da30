"""The course as a static site (`make site`), read the way a student reads it.

Builds the site once per test session (tests/browser/site_build.py: Jupyter Book 1, the
lessons with widgets run top to bottom) into pytest's tmp folder, serves it with
`python -m http.server` on a free port, and opens its pages in Chromium through
Playwright. Every request a page makes is recorded, and any that leaves this machine is
refused and fails the test: the widgets and charts must draw from the saved widget state
with JavaScript the site serves itself. What the widgets do live (sliders, Play live,
simulating in the browser) is tested in test_site_live.py.
Screenshots go to $MEEPLE_SCREENSHOTS (default: pytest's tmp dir) so a person can look.
"""

from __future__ import annotations

import json
import re
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from meeple.course.site.build import guide_pages
from harness import vega_reads
from site_build import ROOT, Site, lessons_with, local, site_lessons

pytestmark = pytest.mark.browser
LESSONS = site_lessons()  # the lessons the test build runs (site_build.py says which)
DEADLINE_MS = 600_000  # the outer deadline of a browser step (conftest.py): a slow machine waits, never fails
WIDGET_VIEW = "script[type='application/vnd.jupyter.widget-view+json']"
# Every widget view was drawn by the HTML manager (it puts a .widget-subarea before the
# view's script tag) and every Vega chart has its svg or canvas.
ALL_DRAWN = f"""() => {{
    const views = [...document.querySelectorAll("{WIDGET_VIEW}")];
    const drawn = views.every(s => {{
        const area = s.previousElementSibling;
        return area && area.classList.contains("widget-subarea") && area.childElementCount > 0;
    }});
    const charts = [...document.querySelectorAll(".vega-embed")];
    return drawn && charts.every(c => c.querySelector("svg, canvas"));
}}"""


def _plain(text: str) -> str:
    """`text` with typographic quotes made straight."""
    return text.translate(str.maketrans("\u2018\u2019\u201c\u201d", "''\"\""))


def _heading(page: Path) -> str:
    """A Markdown page's first '# ' heading: its title in the site's contents."""
    return next(line[2:].strip() for line in page.read_text().splitlines() if line.startswith("# "))


def _title(lesson: str) -> str:
    """The lesson's first markdown heading: the page title a student sees."""
    cells = json.loads((ROOT / "lessons" / f"{lesson}.ipynb").read_text())["cells"]
    for cell in cells:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    raise AssertionError(f"{lesson} has no '# ' title")


@dataclass
class Visit:
    """What one page did: requests that left this machine, JavaScript errors, failed loads."""
    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    requests: int = 0


def _open(browser, site: Site, page_name: str, width: int = 1300):
    """Open a page with every request recorded; requests leaving this machine are refused."""
    context = browser.new_context(viewport={"width": width, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(DEADLINE_MS)  # waits are on conditions; this only bounds a stuck page
    visit = Visit()

    def route(r):
        visit.requests += 1
        if local(r.request.url):
            r.continue_()
        else:
            visit.outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page.on("pageerror", lambda e: visit.errors.append(f"uncaught: {e}"))
    page.on("response", lambda r: visit.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)

    def console(msg):
        # Errors and warnings both count (issue 24 item 5: Vega-Lite's warnings; the favicon's 404).
        if msg.type in ("error", "warning"):
            visit.errors.append(f"console {msg.type}: {msg.text} ({msg.location.get('url')})")

    page.on("console", console)
    page.goto(f"{site.url}/{page_name}.html")
    return context, page, visit


def _settle(page, visit: Visit):
    """Wait until every widget and chart is drawn; every formula was typeset (KaTeX, at build time).
    If they never are, say what the page tried to fetch or which script failed."""
    try:
        page.wait_for_load_state("load")
        page.wait_for_function(ALL_DRAWN)
        assert page.locator(".math").count() == page.locator(".math > .katex, .math > .katex-display").count()
        assert page.locator(".katex-error").count() == 0, page.locator(".katex-error").first.get_attribute("title")
    except Exception:
        _check(visit)
        raise
    page.wait_for_timeout(500)  # let Vega finish its last redraw


def _check(visit: Visit):
    assert not visit.outside, f"requests left this machine: {visit.outside}"
    assert not visit.errors, f"JavaScript errors: {visit.errors}"
    assert not visit.failed, f"failed loads: {visit.failed}"


def test_the_build_names_the_folder_it_leaves(site):
    """Issue 15 item 7: the build's last words name the site folder it kept, never the
    temporary folder Jupyter Book built in (which the build deletes)."""
    log = site.log.read_text()
    assert "The HTML pages are in" not in log and "Your book's HTML pages are here" not in log
    assert f"the site is the folder {site.html}" in log
    assert not (site.html.parent / "work" / "_build").exists() and (site.html / "index.html").exists()
    # Python for the browser: the pinned Pyodide, checked, and the wheel built with the site
    info = json.loads((site.html / "_static" / "meeple-site.json").read_text())
    assert (site.html / "_static" / info["wheel"]).exists() and info["pyodide"]


def test_every_lesson_is_a_page_of_the_site(site, browser, shots):
    """The front page lists every lesson in order, links to each page, says what is live
    and how to publish the course; its formula is typeset (KaTeX, at build time)."""
    context, page, visit = _open(browser, site, "intro")
    try:
        _settle(page, visit)
        nav = page.locator("nav.bd-links a.reference.internal")
        linked = [Path(urlsplit(h).path).stem for h in nav.evaluate_all("els => els.map(e => e.href)")]
        assert [p for p in linked if p in site.pages] == site.pages, f"sidebar: {linked}"
        listed = page.locator("article .toctree-wrapper a").all_inner_texts()
        # the lessons in order, then the guides (the build's GUIDES, each a page of the course too)
        # and the variant lab (Sphinx prints the titles' straight quotes as typographic ones)
        guides = [_heading(ROOT / "lessons" / f"{name}.md") for name in guide_pages(ROOT / "lessons")]
        assert "Teacher's guide" in guides
        assert [_plain(t) for t in listed] == [_plain(_title(lesson)) for lesson in site.pages] + guides + ["Variant lab"]
        article = page.locator("article").inner_text()
        assert "Start Python to use this" in article and "lessons/_build/html" in article and "any static web host" in article
        banner = page.locator(".bd-header-announcement").inner_text()
        assert "Start Python" in banner and "13 MB" in banner  # the words of the pages' buttons
        assert page.locator("article .katex").count() >= 1
        page.screenshot(path=str(shots / "site-intro.png"), full_page=True)
        _check(visit)
    finally:
        context.close()
    for lesson in site.pages:
        assert (site.html / f"{lesson}.html").exists(), f"no page for {lesson}"
        with urllib.request.urlopen(f"{site.url}/{lesson}.html", timeout=60) as r:
            assert r.status == 200


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_lesson_page_draws_its_widgets_offline(site, browser, shots, lesson):
    """A lesson page as published: its title, every widget view and chart drawn from the
    saved state, no error or stderr output, nothing fetched from outside, no JS errors."""
    context, page, visit = _open(browser, site, lesson)
    try:
        _settle(page, visit)
        assert page.locator("article h1").first.inner_text().strip().rstrip("#").strip() == _title(lesson)
        views = page.locator(WIDGET_VIEW).count()
        explorers = page.locator(".meeple-explorer").count()
        # each Explorer drawn by its own front end from the saved state: its charts and its slider
        assert page.locator(".meeple-explorer[data-meeple-live='static']").count() == explorers
        if explorers:
            page.wait_for_function("() => [...document.querySelectorAll('.meeple-explorer')].every("
                                   "e => e.querySelector('.meeple-explorer-chart svg'))")
        assert page.locator(".meeple-explorer input.meeple-explorer-range").count() >= explorers
        assert page.locator(".widget-subarea:has-text('Error')").count() == 0, "a widget shows an error"
        stderr = page.locator(".cell_output .output.stderr, .cell_output .output.traceback")
        assert stderr.count() == 0, stderr.first.inner_text()
        # Issue 24 item 5: the prose say(...) writes is typeset like the lesson's own (no "$95%$",
        # no "**3.847**"), and an exercise's check shows its words, not a bare True/False.
        prose = page.evaluate("""() => {
            const a = document.querySelector("article").cloneNode(true);
            a.querySelectorAll("pre, code, .cell_input").forEach((e) => e.remove());  // code may say **kwargs
            return a.innerText;
        }""")
        raw = re.findall(r"\$[^$\n]{1,80}\$|\*\*[^*\n]{1,80}\*\*", prose)
        assert not raw, f"raw TeX or Markdown on the page: {raw[:5]}"
        bare = page.locator(".cell_output .output.text_plain pre").all_inner_texts()
        assert not [t for t in bare if t.strip() in ("True", "False")], "a bare True/False under an exercise"
        page.screenshot(path=str(shots / f"site-{lesson}.png"), full_page=True)
        _check(visit)
        assert views == 0 or page.locator("script[src*='meeple-widgets.js']").count() == 1
        # The page's download button offers the lesson as committed, to run in JupyterLab.
        href = page.locator("a.btn-download-source-button").get_attribute("href")
        assert href.endswith(f"{lesson}.ipynb"), href
        with urllib.request.urlopen(f"{site.url}/{href}", timeout=60) as r:
            assert json.load(r) == json.loads((ROOT / "lessons" / f"{lesson}.ipynb").read_text())
    finally:
        context.close()


def _page_with_both(site) -> str:
    both = [n for n in lessons_with("Stepper", site.lessons) if n in lessons_with("Explorer", site.lessons)]
    if not both:
        pytest.skip("no lesson has both a Stepper and an Explorer")  # the lessons are being rewritten
    return both[0]


def test_a_page_shows_the_stepper_and_every_explorer_value_from_saved_state(site, browser, shots):
    """Before any Python starts: the Stepper shows the seeded opening position (the reader's
    hand as buttons, "Play live" offered) and the Explorer shows every value of its slider
    (issue 15 item 7: not just those the lesson visited), with intervals and numbers.
    The static Stepper's buttons are disabled and say "Start Python to use this"."""
    lesson = _page_with_both(site)
    context, page, visit = _open(browser, site, lesson, width=1400)
    try:
        _settle(page, visit)
        stepper = page.locator(".meeple-stepper").first
        assert stepper.get_attribute("data-meeple-live") == "static"
        assert stepper.get_attribute("data-meeple-step") == "0"
        assert "seed " in stepper.locator(".meeple-sub").inner_text()
        assert "Your turn" in stepper.locator(".meeple-status").inner_text()
        assert stepper.locator(".meeple-action").count() >= 2
        assert page.locator(".meeple-play-live").count() == page.locator(".meeple-stepper").count()
        stepper.scroll_into_view_if_needed()
        stepper.screenshot(path=str(shots / "site-stepper-static.png"))

        explorer = page.locator(".meeple-explorer").first
        setup = json.loads(explorer.get_attribute("data-meeple-setup"))
        chart = explorer.locator(".vega-embed").first
        chart.locator("svg.marks").wait_for()
        points_per_line = len(setup["values"][0])
        seats = chart.locator("g.mark-symbol.role-mark").first.locator("path").count()
        assert seats == points_per_line * len(setup["bots"])  # every value, every seat
        text = chart.locator("svg.marks").text_content()
        assert "95% CI" in text and f"{setup['games']} games per value" in explorer.inner_text()
        explorer.scroll_into_view_if_needed()
        explorer.screenshot(path=str(shots / "site-explorer.png"))

        # before Python the moves do not look live: disabled, each saying what it needs (issue 22)
        for button in stepper.locator(".meeple-action, .meeple-control").all():
            assert button.is_disabled() and button.get_attribute("title") == "Start Python to use this"
        _check(visit)
    finally:
        context.close()


def test_solutions_are_folded_behind_show_solution(site, browser):
    """Cells tagged `solution` are on the page, folded: "Show solution" opens them. An answer
    given in several cells in a row (code, then words) is one fold (issue 24 item 5)."""
    tagged = {}
    for lesson in site.lessons:
        cells = json.loads((ROOT / "lessons" / f"{lesson}.ipynb").read_text())["cells"]
        marks = ["solution" in c.get("metadata", {}).get("tags", []) for c in cells]
        tagged[lesson] = sum(m and not (i and marks[i - 1]) for i, m in enumerate(marks))  # runs of them
    lesson = next((n for n, k in tagged.items() if k), None)
    if lesson is None:
        pytest.skip("no built lesson has a solution cell")
    context, page, visit = _open(browser, site, lesson)
    try:
        _settle(page, visit)
        folds = page.locator("details:has(summary:has-text('Show solution'))")
        assert folds.count() == tagged[lesson]
        first = folds.first
        assert not first.evaluate("d => d.open")
        first.locator("summary").first.click()
        page.wait_for_function("d => d.open", arg=first.element_handle())
        _check(visit)
    finally:
        context.close()


COLD_BUDGET = 1_500_000  # bytes a lesson page may transfer on a first visit (issue 24 item 2)


def cold_bytes(browser, url: str) -> tuple[int, dict[str, int]]:
    """Bytes a page transfers with an empty cache until its widgets are drawn and its fonts
    loaded: every response's body and headers (http.server does not compress, so these are
    the files' own sizes). Returns the total and the bytes per URL path."""
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    seen: dict[str, int] = {}

    def done(request):
        try:
            sizes = request.sizes()
        except Exception:  # noqa: BLE001 - a request the browser cancelled carries no bytes
            return
        path = urlsplit(request.url).path
        seen[path] = seen.get(path, 0) + sizes["responseBodySize"] + sizes["responseHeadersSize"]

    context.on("requestfinished", done)
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_function(ALL_DRAWN)
        page.evaluate("document.fonts.ready.then(() => true)")
        page.wait_for_load_state("networkidle")
    finally:
        context.close()
    return sum(seen.values()), seen


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_lesson_page_transfers_at_most_1_5_mb_cold(site, browser, lesson):
    """Issue 24 item 2: shared code served once (Vega, the widgets' modules, the theme), no
    per-chart Vega, no 1.5 MB icon font, no TeX engine, no source maps; Python only on demand."""
    total, seen = cold_bytes(browser, f"{site.url}/{lesson}.html")
    heaviest = sorted(seen.items(), key=lambda kv: -kv[1])[:8]
    assert total <= COLD_BUDGET, f"{lesson}: {total} bytes cold; heaviest: {heaviest}"
    assert not [p for p in seen if "/pyodide" in p or p.endswith(".whl")], "Python was fetched before Play live"
    assert not [p for p in seen if p.endswith(".map")], "a source map was fetched"


def test_every_charts_csv_rows_are_the_rows_the_sites_vega_reads(site, browser):
    """The build writes a compiled chart's rows as CSV (lessons/site/pages.py: csv_values; a page has
    1.5 MB cold): the site's own Vega, in the browser, makes of each chart of every executed page the
    same rows as the fast tier's reading of that CSV, which the fast tier checks is the rows the chart had."""
    charts = []
    for lesson in site.executed:
        found = re.search(r'<script type="application/vnd\.jupyter\.widget-state\+json">(.*?)</script>',
                          (site.html / f"{lesson}.html").read_text(), re.S)
        for model in json.loads(found[1])["state"].values() if found else []:
            attrs = model.get("state", {})
            specs = [v for k, v in (attrs.get("charts") or {}).items() if isinstance(v, dict)]
            specs += [s for s in (attrs.get("spec"), (attrs.get("view") or {}).get("chart")) if isinstance(s, dict)]
            charts += [s for s in specs if any(isinstance(d.get("values"), str) for d in s.get("data", []))]
    assert charts, "no chart of the site carries its rows as CSV"
    lesson = (lessons_with("Explorer", site.lessons) or site.lessons)[0]
    context, page, visit = _open(browser, site, lesson)
    try:
        _settle(page, visit)
        read = page.evaluate("""async (specs) => {
            const V = globalThis.vega;
            const out = [];
            for (const spec of specs) {
                const view = new V.View(V.parse(spec), { renderer: "none" });
                await view.runAsync();
                out.push(spec.data.filter((d) => typeof d.values === "string").map((d) => JSON.stringify(view.data(d.name))));
                view.finalize();
            }
            return out;
        }""", charts)
    finally:
        context.close()
    for spec, got in zip(charts, read, strict=True):
        inline = [d for d in spec["data"] if isinstance(d.get("values"), str)]
        for data, rows in zip(inline, got, strict=True):
            assert json.loads(rows) == vega_reads(data), data["name"]
    _check(visit)
