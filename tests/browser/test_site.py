"""The course as a static site (`make site`), read the way a student reads it.

Builds the site once (lessons/build_site.py: Jupyter Book 1, every lesson run top to
bottom) into a tmp folder, serves it with `python -m http.server` on a free port, and
opens its pages in Debian's Chromium through Playwright. Every request a page makes is
recorded, and any that leaves this machine is refused and fails the test: the widgets
and charts must draw from the saved widget state with JavaScript the site serves itself.
Screenshots go to $MEEPLE_SCREENSHOTS (default: pytest's tmp dir) so a person can look.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted(p.stem for p in (ROOT / "lessons").glob("*.ipynb"))
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
class Site:
    url: str
    html: Path


@pytest.fixture(scope="module")
def site(tmp_path_factory, free_port, server):
    """Build the site into a tmp folder (once), serve it in its own process group, stop it after."""
    out = tmp_path_factory.mktemp("site")
    log = out / "build.log"
    with open(log, "w") as fh:
        build = subprocess.run([sys.executable, str(ROOT / "lessons" / "build_site.py"), "--out", str(out)],
                               stdout=fh, stderr=subprocess.STDOUT, timeout=900)
    if build.returncode:
        pytest.fail("the site did not build:\n" + log.read_text()[-4000:])
    html = out / "html"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(html)]
    with server(cmd, url + "/index.html", out / "http.log", "http.server", 10):
        yield Site(url, html)


@dataclass
class Visit:
    """What one page did: requests that left this machine, JavaScript errors, failed loads."""
    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    requests: int = 0


def _local(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    return parts.scheme in ("http", "https") and parts.hostname in ("127.0.0.1", "localhost")


def _open(browser, site: Site, page_name: str, width: int = 1300):
    """Open a page with every request recorded; requests leaving this machine are refused."""
    context = browser.new_context(viewport={"width": width, "height": 1000})
    page = context.new_page()
    visit = Visit()

    def route(r):
        visit.requests += 1
        if _local(r.request.url):
            r.continue_()
        else:
            visit.outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page.on("pageerror", lambda e: visit.errors.append(f"uncaught: {e}"))
    page.on("response", lambda r: visit.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)

    def console(msg):
        # Chromium asks for /favicon.ico on its own; the site has none. Everything else counts.
        if msg.type == "error" and not msg.location.get("url", "").endswith("/favicon.ico"):
            visit.errors.append(f"console: {msg.text} ({msg.location.get('url')})")

    page.on("console", console)
    page.goto(f"{site.url}/{page_name}.html")
    return context, page, visit


def _settle(page, visit: Visit):
    """Wait until every widget and chart is drawn and MathJax has typeset every formula.
    If they never are, say what the page tried to fetch or which script failed."""
    try:
        page.wait_for_load_state("load")
        page.wait_for_function(ALL_DRAWN, timeout=30_000)
        page.wait_for_function(
            "document.querySelectorAll('mjx-container').length >= document.querySelectorAll('.math').length",
            timeout=30_000,
        )
    except Exception:
        _check(visit)
        raise
    page.wait_for_timeout(500)  # let Vega finish its last redraw


def _check(visit: Visit):
    assert not visit.outside, f"requests left this machine: {visit.outside}"
    assert not visit.errors, f"JavaScript errors: {visit.errors}"
    assert not visit.failed, f"failed loads: {visit.failed}"


def test_every_lesson_is_a_page_of_the_site(site, browser, shots):
    """The front page lists every lesson in order, links to each page, and says plainly that
    the widgets need a kernel to respond; its formula is typeset by the site's own MathJax."""
    context, page, visit = _open(browser, site, "intro")
    try:
        _settle(page, visit)
        nav = page.locator("nav.bd-links a.reference.internal")
        linked = [Path(urlsplit(h).path).stem for h in nav.evaluate_all("els => els.map(e => e.href)")]
        assert [p for p in linked if p in LESSONS] == LESSONS, f"sidebar: {linked}"
        listed = page.locator("article .toctree-wrapper a").all_inner_texts()
        assert listed == [_title(lesson) for lesson in LESSONS]
        assert "buttons and sliders do nothing here" in page.locator("article").inner_text()
        assert "do nothing without a Python kernel" in page.locator(".bd-header-announcement").inner_text()
        assert page.locator("article mjx-container").count() >= 1
        page.screenshot(path=str(shots / "site-intro.png"), full_page=True)
        _check(visit)
    finally:
        context.close()
    for lesson in LESSONS:
        assert (site.html / f"{lesson}.html").exists(), f"no page for {lesson}"
        with urllib.request.urlopen(f"{site.url}/{lesson}.html", timeout=5) as r:
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
        assert page.locator(".vega-embed").count() >= 2 * explorers
        assert page.locator(".widget-subarea:has-text('Error')").count() == 0, "a widget shows an error"
        stderr = page.locator(".cell_output .output.stderr, .cell_output .output.traceback")
        assert stderr.count() == 0, stderr.first.inner_text()
        page.screenshot(path=str(shots / f"site-{lesson}.png"), full_page=True)
        _check(visit)
        assert views == 0 or page.locator("script[src*='embed-amd.js']").count() == 1
        # The page's download button offers the lesson as committed, to run in JupyterLab.
        href = page.locator("a.btn-download-source-button").get_attribute("href")
        assert href.endswith(f"{lesson}.ipynb"), href
        with urllib.request.urlopen(f"{site.url}/{href}", timeout=5) as r:
            assert json.load(r) == json.loads((ROOT / "lessons" / f"{lesson}.ipynb").read_text())
    finally:
        context.close()


def test_lesson_01_shows_the_stepper_and_explorer_from_saved_state(site, browser, shots):
    """Lesson 01 without a kernel: the Stepper shows the seeded opening position (four
    hedgehogs at the start, the reader's hand as buttons) and the Explorer shows the two
    values the build simulated, drawn as charts with intervals and a table of numbers.
    A click changes nothing and breaks nothing (there is no Python behind the page)."""
    lesson = next(p for p in LESSONS if p.startswith("01_"))
    context, page, visit = _open(browser, site, lesson, width=1400)
    try:
        _settle(page, visit)
        stepper = page.locator(".meeple-stepper")
        assert stepper.count() == 1
        assert "seed 2026" in stepper.locator(".meeple-sub").inner_text()
        assert "Your turn" in stepper.locator(".meeple-status").inner_text()
        assert stepper.locator(".meeple-token").count() == 4
        assert stepper.locator(".meeple-action").count() >= 5
        assert "Player 1 starts" in stepper.locator(".meeple-events").inner_text()
        stepper.scroll_into_view_if_needed()
        stepper.screenshot(path=str(shots / "site-lesson01-stepper.png"))

        explorer = page.locator(".meeple-explorer")
        assert explorer.count() == 1
        text = explorer.inner_text()
        assert "2 of 8 values simulated." in text  # bonus 0 and the default 3, as the lesson ran
        assert "95% CI" in explorer.locator(".meeple-numbers").inner_text()
        charts = explorer.locator(".vega-embed")
        assert charts.count() == 2
        assert "Win rate as bonus changes" in text and "Mean score as bonus changes" in text
        assert "nothing simulated yet" not in text
        for k in range(2):  # one point per seat (4) and simulated value (2)
            assert charts.nth(k).locator("g.mark-symbol.role-mark > path").count() == 8
        explorer.scroll_into_view_if_needed()
        explorer.screenshot(path=str(shots / "site-lesson01-explorer.png"))

        before = stepper.inner_text()
        stepper.locator(".meeple-action").first.click()
        page.wait_for_timeout(500)
        assert stepper.inner_text() == before
        _check(visit)
    finally:
        context.close()
