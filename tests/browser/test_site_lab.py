"""Issue 25: the site's variant lab page, in Chromium. A link with a path (hand_sizes[1]) and an
alias (start_value) restores the lab and plays it in the browser's Python; its table is the one
CPython's VariantLab (compare's own figures, the same seeds) prints, and its "Download report" is
CPython's lab report (the file `compare --report` writes), which opens offline; Cancel stops a long run
with the figures of the games played. The site: the session's one build (conftest.py's
`site_tree`), served for this module on its own port."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from site_build import local

from meeple.widgets.lab import VariantLab

SETTINGS = ["hand_sizes[1]=12", "start_value=2"]
DONE = "['done', 'error', 'cancelled'].includes(document.getElementById('meeple-lab').dataset.meepleLab)"


@pytest.fixture(scope="module")
def lab_site(site_tree, tmp_path_factory, free_port, server):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site_tree.html)]
    with server(cmd, url + "/index.html", tmp_path_factory.getbasetemp() / f"http-{port}.log", "http.server", 10):
        yield url


def test_a_lab_link_restores_the_lab_and_plays_compares_figures_in_the_browser(lab_site, browser, shots):
    lab = VariantLab("bucket-brigade", SETTINGS, bots="heuristic", games=60, seed=2)
    while not lab.finished:
        lab.step(60)
    page = browser.new_page(viewport={"width": 1024, "height": 1000})
    page.set_default_timeout(600_000)
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(f"{lab_site}/lab.html{lab.link()}")
        page.wait_for_function(DONE)
        root = page.locator("#meeple-lab")
        assert root.get_attribute("data-meeple-lab") == "done", page.locator(".meeple-lab-status").inner_text()
        # the form shows the restored lab, and nothing warns (same version, same chance stream)
        assert page.locator(".meeple-lab-settings").input_value().splitlines() == SETTINGS
        assert page.locator(".meeple-lab-warnings").inner_text().strip() == ""
        out = page.locator(".meeple-lab-out")
        assert out.get_attribute("data-text") == lab.text()  # Pyodide's figures = CPython's compare, same seeds
        assert json.loads(out.get_attribute("data-rows"))[0]["variant"] == "base"
        assert lab.command() in page.locator(".meeple-lab-command").inner_text()
        # the page's address and its link box are the lab's link (a reload would restore it)
        shown = page.locator(".meeple-lab-link").input_value()
        assert urlsplit(shown).query == lab.link().lstrip("?") == urlsplit(page.url).query
        with page.expect_download() as dl:
            page.locator(".meeple-lab-file").click()
        assert Path(dl.value.path()).read_text() == lab.variant_file()
        # the HTML report, made in the browser's Python: the one `compare --report` writes (test_lab.py
        # checks that CPython's lab report is that file, byte for byte)
        with page.expect_download() as dl:
            page.locator(".meeple-lab-report").click()
        assert dl.value.suggested_filename == "variant-report.html"
        report = Path(dl.value.path()).read_text()
        assert report == lab.report()
        page.screenshot(path=str(shots / "lab-1024.png"), full_page=True)
        for width in (390, 1400):
            page.set_viewport_size({"width": width, "height": 900})
            page.evaluate("window.scrollTo(0, 0)")  # the downloads scrolled the page
            page.screenshot(path=str(shots / f"lab-{width}.png"), full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing sideways
    finally:
        page.close()
    assert all(local(u) for u in requests), [u for u in requests if not local(u)]
    # the downloaded report opens from the disk, asks for nothing, and draws its four charts
    saved = shots / "lab-report.html"
    saved.write_text(report)
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    asked = []
    page.on("request", lambda r: asked.append(r.url))
    try:
        page.goto(saved.resolve().as_uri())
        assert asked == [saved.resolve().as_uri()], asked
        figures = page.locator("figure.chart svg")
        assert figures.count() == 4
        for k in range(4):
            box = figures.nth(k).bounding_box()
            assert box and box["width"] > 300 and box["height"] > 60, (k, box)
            assert figures.nth(k).locator("line, rect, circle").count() > 5, k
        page.screenshot(path=str(shots / "lab-report.png"), full_page=True)
    finally:
        page.close()


def test_a_link_from_another_version_warns_and_cancel_keeps_the_games_played(lab_site, browser):
    link = VariantLab("bucket-brigade", SETTINGS, games=20000).link().replace("meeple=", "meeple=0.0.1-")
    page = browser.new_page()
    page.set_default_timeout(600_000)
    try:
        page.goto(f"{lab_site}/lab.html{link}")
        page.wait_for_function("/Playing 20000 games of each rule set: [1-9]/.test("
                               "document.querySelector('.meeple-lab-status').textContent)")
        assert "was made with meeple 0.0.1-" in page.locator(".meeple-lab-warnings").inner_text()
        page.locator(".meeple-lab-cancel").click()
        page.wait_for_function(DONE)
        assert page.locator("#meeple-lab").get_attribute("data-meeple-lab") == "cancelled"
        assert page.locator(".meeple-lab-status").inner_text().startswith("Cancelled after ")
        assert "Interrupted: the figures cover only the games that finished." in \
            page.locator(".meeple-lab-out").get_attribute("data-text")
    finally:
        page.close()


def _failed_play_shows_nothing_of_the_last_run(page) -> None:
    """A failed Play left the last run's link, files, command, chart and table under its error."""
    assert page.locator("#meeple-lab").get_attribute("data-meeple-lab") == "error"
    out = page.locator(".meeple-lab-out")
    assert out.evaluate("e => e.childElementCount") == 0 and out.get_attribute("data-rows") is None
    assert page.locator(".meeple-lab-chart, .meeple-lab-link, .meeple-lab-command, .meeple-lab-table").count() == 0


def test_the_lab_plays_several_variants_says_identical_play_cancels_fast_and_errs_in_one_line(lab_site, browser, shots):
    """Issue 36: base against two variants from one link, the paired chart, "plays the same games"
    said; a refused rule reads as one line; Cancel stops lookahead bots within a second."""
    page = browser.new_page(viewport={"width": 1100, "height": 1000})
    page.set_default_timeout(600_000)
    try:
        page.goto(f"{lab_site}/lab.html?game=duck-duck-bruce&set=b5%3A+best_face%3D5&set=ms2%3A+max_steal%3D2"
                  "&bots=heuristic&games=40&seed=1&measure=drama")
        page.wait_for_function(DONE)
        assert page.locator("#meeple-lab").get_attribute("data-meeple-lab") == "done"
        assert "b5 plays the same games as base" in page.locator(".meeple-lab-warnings").inner_text()
        rows = json.loads(page.locator(".meeple-lab-out").get_attribute("data-rows"))
        assert [r["variant"] for r in rows[::4]] == ["base", "b5", "ms2"]
        assert page.locator(".meeple-lab-chart svg").count() == 1
        assert page.locator(".meeple-lab-measures").input_value() == "drama"
        assert "drama (per game" in page.locator(".meeple-lab-out").get_attribute("data-text")  # a design measure
        page.screenshot(path=str(shots / "lab-three-variants.png"), full_page=True)
        page.locator(".meeple-lab-settings").fill("nosuch=1")
        page.locator(".meeple-lab-play").click()
        page.wait_for_function(DONE)
        said = page.locator(".meeple-lab-status").inner_text()
        assert said.startswith("Could not play: unknown parameter 'nosuch'") and "\n" not in said
        assert "Traceback" not in said
        _failed_play_shows_nothing_of_the_last_run(page)
        page.screenshot(path=str(shots / "lab-failed-play.png"), full_page=True)
        # games and seed go to Python as typed: an empty seed or letters were played as seed 0
        # (the field rewritten to 0, the link saying seed=0) and letters in games said "games="
        page.locator(".meeple-lab-settings").fill("max_steal=2")
        link = page.evaluate("location.search")
        for games, seed, says in [("40", "", "seed is empty: type a whole number, 0 or more"),
                                  ("40", "abc", "seed='abc' is not a whole number: type a whole number, 0 or more"),
                                  ("abc", "1", "games='abc' is not a whole number: type a whole number from 1 to ")]:
            page.locator(".meeple-lab-games").fill(games)
            page.locator(".meeple-lab-seed").fill(seed)
            page.locator(".meeple-lab-play").click()
            page.wait_for_function(DONE)
            assert page.locator(".meeple-lab-status").inner_text().startswith("Could not play: " + says)
            assert page.locator(".meeple-lab-seed").input_value() == seed  # not rewritten to 0
            assert page.evaluate("location.search") == link  # nothing played: the address is the last run's
            _failed_play_shows_nothing_of_the_last_run(page)
        page.locator(".meeple-lab-seed").fill("1")
        page.locator(".meeple-lab-settings").fill("max_steal=2")
        page.locator(".meeple-lab-bots").fill("lookahead")
        page.locator(".meeple-lab-games").fill("5000")
        page.locator(".meeple-lab-play").click()
        page.wait_for_function("document.querySelector('.meeple-lab-status').textContent.includes('Playing 5000')")
        page.locator(".meeple-lab-cancel").click()
        # within a second of the press (a step ends after ~0.3 s of games): polled, not slept
        page.wait_for_function(DONE, timeout=3000)
        assert page.locator("#meeple-lab").get_attribute("data-meeple-lab") == "cancelled", \
            page.locator(".meeple-lab-status").inner_text()
    finally:
        page.close()
