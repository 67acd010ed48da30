"""The lessons' controls on the built course site (issue 22): every one is live.

The site is the session's one build (conftest.py's `site_tree`), which runs the lessons that
hold controls (site_build.CONTROL_LESSONS: 01, 02, 03, 04, 06, 07, 09, 10, 12: the Stepper,
the Tally and every control kind); MEEPLE_CONTROLS_SITE=DIR tests a site built with
`python -m meeple.course.site.build --out DIR --lessons ...` instead. In Chromium, with every request that
would leave the loopback host refused and recorded, on each page:
- before Python starts, every control shows the view its saved setup gives in CPython, its
  inputs and the Stepper's move buttons are disabled and each says "Start Python to use this";
- one click on that button starts Python for the whole page: every control and the Stepper
  become live;
- each control is then operated as a reader would (another value of its first input, then its
  first button), and what the page shows equals what the same logic class answers in CPython
  for the same setup and the same messages; keyboard focus stays in the widget;
- the Stepper's New game deals the next seed, as CPython's StepperSession does.
Screenshots at 390, 1024 and 1400 px wide. Waits are on conditions, never fixed sleeps.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from site_build import CONTROL_LESSONS, local, matching
from widget_cases import as_shown, operate, reader_moves, shown

from meeple.widgets.controls import Control
from meeple.widgets.session import StepperSession

pytestmark = pytest.mark.browser
START = 900_000  # ms: an outer deadline only for Python's first start (8-20 s measured; 240 s was too short with two test suites beside it)
MOVE = 120_000  # ms: one answer (Measure this rule plays 300 games in the browser)
FOCUS_IN = "el => { const a = el.getRootNode().activeElement; return !!a && el.contains(a); }"


@pytest.fixture(scope="module")
def controls_site(request, tmp_path_factory, free_port, server):
    """(url, html folder, the lesson pages to work through): the session's site, served for this
    module, and its pages of the lessons with controls (all of them ran in its build)."""
    if os.environ.get("MEEPLE_CONTROLS_SITE"):
        html = Path(os.environ["MEEPLE_CONTROLS_SITE"]).resolve() / "html"
        assert (html / "index.html").exists(), f"MEEPLE_CONTROLS_SITE: no {html}/index.html"
        pages = [p.stem for p in sorted(html.glob("[0-9][0-9]_*.html"))]
    else:
        tree = request.getfixturevalue("site_tree")
        html, pages = tree.html, matching(CONTROL_LESSONS, tree.pages)
        assert len(pages) == len(CONTROL_LESSONS) and set(pages) <= set(tree.executed), (pages, tree.executed)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(html)]
    with server(cmd, url + "/index.html", tmp_path_factory.getbasetemp() / f"http-{port}.log", "http.server", 10):
        yield url, html, pages


def _open(browser, url: str, width: int = 1400):
    context = browser.new_context(viewport={"width": width, "height": 1000})
    outside, errors = [], []

    def route(r):
        if local(r.request.url):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.set_default_timeout(START)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.meepleWidgets === 'drawn'")
    return context, page, outside, errors


def test_every_control_on_the_site_is_live_and_answers_as_cpython(controls_site, browser, shots):
    url, html, pages = controls_site
    operated: dict[str, int] = {}
    for name in pages:
        context, page, outside, errors = _open(browser, f"{url}/{name}.html")
        try:
            bars = page.locator(".meeple-control-bar")
            steppers = page.locator(".meeple-stepper")
            if bars.count() == 0 and steppers.count() == 0:
                continue
            # before Python: the saved view, nothing that looks live, and the button that says why
            setups = [json.loads(bars.nth(i).get_attribute("data-meeple-setup")) for i in range(bars.count())]
            for i, setup in enumerate(setups):
                panel = bars.nth(i).locator("xpath=following-sibling::div[contains(@class,'meeple-panel')][1]")
                assert shown(panel) == as_shown(Control.from_setup(setup).view()), (name, setup["kind"])
                assert panel.locator("select:not([disabled]), input:not([disabled]), button:not([disabled])").count() == 0
                assert "Start Python to use this" in bars.nth(i).inner_text()
            for j in range(steppers.count()):
                s = steppers.nth(j)
                assert s.locator(".meeple-action:not([disabled]), .meeple-control:not([disabled])").count() == 0, name
                assert "Start Python to use this" in s.locator(".meeple-next").get_attribute("title")
            first = page.locator(".meeple-live-bar").first
            first.evaluate("el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 120)")
            page.screenshot(path=str(shots / f"site-{name}-before-python.png"))

            # one click starts Python for the whole page
            page.locator(".meeple-start-python").first.click()
            page.wait_for_function("n => document.querySelectorAll('.meeple-panel[data-meeple-live=live],"
                                   " .meeple-stepper[data-meeple-live=live]').length === n",
                                   arg=len(setups) + steppers.count())
            for i, setup in enumerate(setups):
                panel = bars.nth(i).locator("xpath=following-sibling::div[contains(@class,'meeple-panel')][1]")
                mirror = Control.from_setup(setup)  # CPython, the same setup and the same messages
                view = mirror.view()
                assert shown(panel) == as_shown(view)
                for msg in reader_moves(view):
                    answered = int(panel.get_attribute("data-moves"))
                    operate(panel, msg, view)
                    page.wait_for_function("([el, n]) => Number(el.dataset.moves) > n",
                                           arg=[panel.element_handle(), answered], timeout=MOVE)
                    view = json.loads(json.dumps(mirror.handle(msg)))
                    assert shown(panel) == as_shown(view), (name, setup["kind"], msg)
                    assert panel.evaluate(FOCUS_IN), (name, setup["kind"], msg)
                if view["chart"]:
                    page.wait_for_function("el => el.querySelector('.meeple-panel-chart[data-drawn] svg')",
                                           arg=panel.element_handle())
                operated[setup["kind"]] = operated.get(setup["kind"], 0) + 1
            for j in range(steppers.count()):
                s = page.locator(".meeple-stepper[data-meeple-live=live]").nth(j)
                setup = json.loads(page.locator(".meeple-stepper-bar").nth(j).get_attribute("data-meeple-setup"))
                s.locator(".meeple-new").click()
                seed = setup["seed"] + 1
                page.wait_for_function("([el, n]) => el.querySelector('.meeple-sub').innerText.includes('seed ' + n)",
                                       arg=[s.element_handle(), seed], timeout=MOVE)
                mirror = StepperSession.from_setup({**setup, "seed": seed})
                assert s.locator(".meeple-action").all_inner_texts() == mirror.view["actions"]
                assert s.evaluate(FOCUS_IN)
                operated["stepper"] = operated.get("stepper", 0) + 1
            first = page.locator(".meeple-panel, .meeple-stepper").first
            for width in (390, 1024, 1400):
                page.set_viewport_size({"width": width, "height": 1000})
                # the page scrolled down to the widget only (a wide code cell scrolls inside itself)
                first.evaluate("el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 120)")
                page.screenshot(path=str(shots / f"site-{name}-live-{width}.png"))
            assert not outside, f"{name}: requests left this machine: {outside}"
            assert not errors, f"{name}: JavaScript errors: {errors}"
        finally:
            context.close()
    from widget_cases import CASES

    assert set(operated) >= set(CASES) | {"stepper"}, f"operated {operated}; pages {pages}"
