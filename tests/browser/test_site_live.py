"""The course site's widgets are live in the reader's browser, offline (issue 12).

On the site built once per session (site_build.py), in Chromium, with every request
that would leave the loopback host refused and recorded:
- each Explorer's slider moves over the numbers saved with the page with no Python at
  all (no Pyodide file is even requested), and they are CPython's ExplorerSession's;
- "Play live" starts Python (Pyodide, from the site) in a Web Worker and hands the
  Stepper to the reader: Next raises data-meeple-step, a move is accepted, Save record
  downloads a record that CPython replays, and a seeded game played to the end has
  CPython's scores;
- after one "Start Python", every Explorer runs its ExplorerSession in the worker: another
  game count and a slider move give CPython's ExplorerSession's numbers.
Tests wait on conditions (data-meeple-live, data-meeple-step), never fixed sleeps;
the deadlines are generous because Python's first start takes 10-20 s on a busy machine.
"""

from __future__ import annotations

import json

import pytest
from site_build import Site, lessons_with, local

from meeple.rules import replay
from meeple.widgets.session import StepperSession

pytestmark = pytest.mark.browser
# Outer deadlines for a machine that is merely slow, never measurements: each wait is on a condition.
START = 900_000  # ms: an outer deadline only for Python's first start (measured 8-20 s; 240 s was too short with two test suites beside it)
STEP = 60_000  # ms: one move, a bot's turn, a round


class Visit:
    def __init__(self):
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.urls: list[str] = []

    def check(self):
        assert not self.outside, f"requests left this machine: {self.outside}"
        assert not self.errors, f"JavaScript errors: {self.errors}"


@pytest.fixture(scope="module")
def open_page(browser, site, tmp_path_factory):
    """`page, visit = open_page(lesson)`: every request recorded, outside ones refused (the
    worker's too: the context routes them). A lesson's page is opened once per module, so
    Python starts once for the tests that use it. Screenshots at the end."""
    import os
    from pathlib import Path

    shots = Path(os.environ.get("MEEPLE_SCREENSHOTS", tmp_path_factory.mktemp("shots")))
    shots.mkdir(parents=True, exist_ok=True)
    opened: dict[str, tuple] = {}

    def go(lesson: str):
        if lesson in opened:
            return opened[lesson][1], opened[lesson][2]
        context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        visit = Visit()

        def route(r):
            visit.urls.append(r.request.url)
            if local(r.request.url):
                r.continue_()
            else:
                visit.outside.append(r.request.url)
                r.abort()

        context.route("**/*", route)
        page = context.new_page()
        page.on("pageerror", lambda e: visit.errors.append(f"uncaught: {e}"))
        page.on("console", lambda m: visit.errors.append(f"console: {m.text}")
                if m.type == "error" and not m.location.get("url", "").endswith("/favicon.ico") else None)
        page.on("worker", lambda w: w.on("console", lambda m: visit.errors.append(f"worker: {m.text}")
                                         if m.type == "error" else None))
        page.goto(f"{site.url}/{lesson}.html")
        opened[lesson] = (context, page, visit)
        return page, visit

    yield go
    for lesson, (context, page, _visit) in opened.items():
        try:
            page.screenshot(path=str(shots / f"site-live-{lesson}.png"))
        finally:
            context.close()


def _explorer_lessons(site: Site) -> list[str]:
    return lessons_with("Explorer", site.lessons)


def _explorers(page):
    page.wait_for_function("document.documentElement.dataset.meepleWidgets === 'drawn'", timeout=START)
    return page.locator(".meeple-explorer")


def _move(explorer, k: int, index: int) -> None:
    """The reader drags slider k to stop `index` and lets go (input while dragging, change on release)."""
    explorer.locator("input.meeple-explorer-range").nth(k).evaluate(
        "(e, v) => { e.focus(); e.value = v; e.dispatchEvent(new Event('input', {bubbles: true}));"
        " e.dispatchEvent(new Event('change', {bubbles: true})); }", index)


def _shown(explorer) -> list:
    return json.loads(explorer.locator(".meeple-explorer-numbers").get_attribute("data-rows"))


def _mirror(explorer):
    """The same Explorer in CPython: ExplorerSession rebuilt from the setup the page saved."""
    from meeple.widgets.explorer_session import ExplorerSession

    return ExplorerSession.from_setup(json.loads(explorer.get_attribute("data-meeple-setup")))


def _index(session, point: int) -> list[int]:
    """The slider stops of the cell whose `point` is given."""
    cell = session.cells()[point]
    return [stops.index(v) for stops, v in zip(session.stops, cell)]


def test_every_explorer_slider_moves_over_the_saved_numbers_without_python(site, open_page):
    """On every page with an Explorer, before Python starts, moving its slider to each end rings
    that value and shows its numbers: CPython's ExplorerSession's for that value and seed, and
    no Python file is fetched."""
    pages = _explorer_lessons(site)
    if not pages:
        pytest.skip("no built lesson has an Explorer")
    for lesson in pages:
        page, visit = open_page(lesson)
        explorers = _explorers(page)
        assert explorers.count() >= 1
        for k in range(explorers.count()):
            explorer = explorers.nth(k)
            explorer.locator(".meeple-explorer-chart svg").first.wait_for(timeout=START)
            assert explorer.get_attribute("data-meeple-live") == "static"
            mirror = _mirror(explorer)
            if len(mirror.fields) != 1:
                continue
            stops = mirror.stops[0]
            for index in (0, len(stops) - 1):
                _move(explorer, 0, index)
                page.wait_for_function("([el, p]) => el.dataset.point === String(p)",
                                       arg=[explorer.element_handle(), index], timeout=START)
                mirror.move(stops[index])
                assert _shown(explorer) == mirror.numbers()["rows"], (lesson, stops[index])
                assert page.evaluate("document.activeElement.classList.contains('meeple-explorer-range')")
        assert not any("/pyodide" in u for u in visit.urls), "the slider must not need Python"


def _stepper_lesson(site: Site) -> str:
    pages = lessons_with("Stepper", site.lessons)
    if not pages:
        pytest.skip("no built lesson has a Stepper")
    # prefer a game where the reader moves often (Bucket Brigade), else the first
    for name in pages:
        if "bucket-brigade" in (site.html / f"{name}.html").read_text():
            return name
    return pages[0]


def _step(stepper) -> int:
    return int(stepper.get_attribute("data-meeple-step"))


def _wait_step(page, above: int):
    page.wait_for_function(
        "n => { const s = document.querySelector('.meeple-stepper[data-meeple-live=live]');"
        " return s && Number(s.dataset.meepleStep) > n; }", arg=above, timeout=STEP)


def test_play_live_hands_the_reader_the_same_game_as_cpython(site, open_page, tmp_path):
    """Play live: Python starts in a Web Worker (progress shown meanwhile), the Stepper becomes
    playable; a reader's move is accepted, Next raises the step, Undo takes back, Save record
    gives a record CPython replays, and the seeded game played to its end has CPython's scores."""
    lesson = _stepper_lesson(site)
    page, visit = open_page(lesson)
    page.locator(".meeple-play-live").first.wait_for(timeout=START)
    bar = page.locator(".meeple-stepper-bar").first
    setup = json.loads(bar.get_attribute("data-meeple-setup"))
    page.locator(".meeple-play-live").first.click()
    page.wait_for_selector(".meeple-stepper[data-meeple-live=loading]", timeout=START)
    status = bar.locator(".meeple-live-status")
    assert "Python" in status.inner_text()  # the reader is told what is happening, with the seconds so far
    page.wait_for_selector(".meeple-stepper[data-meeple-live=live]", timeout=START)
    live = page.locator(".meeple-stepper[data-meeple-live=live]")
    assert "Live" in status.inner_text() and _step(live) == 0

    # The reader always takes the first legal move; bots play on to the reader's turn. A
    # detour on the way: Next (one bot move), then Undo back to the reader's last choice.
    def first_move():
        n = _step(live)
        live.locator(".meeple-action").first.click()
        _wait_step(page, n)

    first_move()  # a reader's move is accepted
    assert live.locator(".meeple-events li.new").first.inner_text().startswith(f"Player {setup['seat'] + 1}")
    while live.locator(".meeple-action").count():  # games where a turn has several choices
        first_move()
    assert live.locator(".meeple-next").is_enabled()
    before_next = _step(live)
    live.locator(".meeple-next").click()
    _wait_step(page, before_next)
    assert _step(live) == before_next + 1  # Next: one bot move
    live.locator(".meeple-undo").click()
    page.wait_for_function(
        "n => { const s = document.querySelector('.meeple-stepper[data-meeple-live=live]');"
        " return Number(s.dataset.meepleStep) < n && s.querySelector('.meeple-action'); }",
        arg=before_next, timeout=STEP)

    for _ in range(1000):
        if "Game over" in live.locator(".meeple-status").inner_text():
            break
        if live.locator(".meeple-action").count():
            first_move()
        else:
            n = _step(live)
            live.locator(".meeple-fast").click()
            _wait_step(page, n)
    assert "Game over" in live.locator(".meeple-status").inner_text()
    shown = [int(t) for t in live.locator(".meeple-player-score").all_inner_texts()]

    # Save record: a file CPython replays, to the same scores
    with page.expect_download(timeout=STEP) as download:
        live.locator(".meeple-save").click()
    path = tmp_path / "record.json"
    download.value.save_as(path)
    rec = replay(path.read_text())
    assert len(rec.actions) == _step(live) and list(rec.scores) == shown

    mirror = StepperSession.from_setup(setup)  # CPython, the same setup and the same choices
    while not mirror.state.is_over:
        if mirror.waiting_for_you():
            mirror.act(mirror.view["actions"][0])
        else:
            mirror.play_until_your_turn()
    assert [p["score"] for p in mirror.view["players"]] == shown
    assert mirror.view["step"] == _step(live)
    visit.check()


def test_after_start_python_the_explorer_plays_as_in_the_kernel_with_cpythons_numbers(site, open_page):
    """One click on "Start Python" makes the page's Explorers live: the same ExplorerSession runs in
    the worker. Another game count and a slider move give exactly CPython's numbers (the same
    session class, the same seed), and keyboard focus stays on the slider the reader moved."""
    pages = _explorer_lessons(site)
    if not pages:
        pytest.skip("no built lesson has an Explorer")
    for lesson in pages:  # lesson 13's hand_size (an alias) among them, when it is built
        _live_explorer(open_page, lesson)


def test_a_refused_games_count_is_named_by_python_and_the_hourglass_goes(site, open_page):
    """The Explorer's games field sends the text as typed: an empty field and letters were both
    "games=0 is not allowed" (a number input gives "" for letters, Number("") is 0), and after any
    refused count the busy hourglass stayed for good (only a new view cleared it). Now Python names
    what is wrong, the answer clears the hourglass, and the numbers shown stay as they were."""
    pages = _explorer_lessons(site)
    if not pages:
        pytest.skip("no built lesson has an Explorer")
    page, visit = open_page(pages[0])
    explorer = _explorers(page).first
    start = explorer.locator(".meeple-explorer-start")
    if start.count() and start.is_enabled():  # not started yet by another test of this page
        start.click()
    page.wait_for_function("() => [...document.querySelectorAll('.meeple-explorer')].every("
                           "e => e.dataset.meepleLive === 'live')", timeout=START)
    explorer = _explorers(page).first
    page.wait_for_function("el => !el.dataset.busy", arg=explorer.element_handle(), timeout=START)
    before = _shown(explorer)
    games = explorer.locator(".meeple-explorer-games")
    still = games.input_value()
    for typed, says in [("abc", f"games='abc' is not a whole number: type a whole number from 10 to 20000; still {still}"),
                        ("", f"games is empty: type a whole number from 10 to 20000; still {still}"),
                        ("5", f"games=5 is not allowed: a whole number from 10 to 20000; still {still}")]:
        games.fill(typed)
        games.dispatch_event("change")
        page.wait_for_function("([el, says]) => el.querySelector('.meeple-explorer-error').textContent === says"
                               " && !el.dataset.busy", arg=[explorer.element_handle(), says], timeout=START)
    assert _shown(explorer) == before
    visit.check()


def _live_explorer(open_page, lesson: str) -> None:
    page, visit = open_page(lesson)
    explorer = _explorers(page).first
    mirror = _mirror(explorer)
    start = explorer.locator(".meeple-explorer-start")
    if start.count():
        start.click()
    page.wait_for_function("() => [...document.querySelectorAll('.meeple-explorer')].every("
                           "e => e.dataset.meepleLive === 'live')", timeout=START)  # every Explorer, one click
    explorer = _explorers(page).first
    page.wait_for_function("el => !el.dataset.busy", arg=explorer.element_handle(), timeout=START)
    mirror.handle({"do": "move", "index": _index(mirror, int(explorer.get_attribute("data-point")))})  # where the reader left it
    games = explorer.locator(".meeple-explorer-games")
    games.fill("30")
    games.dispatch_event("change")
    page.wait_for_function("el => el.querySelector('.meeple-numbers caption').textContent.includes(', 30 games,')",
                           arg=explorer.element_handle(), timeout=START)
    mirror.handle({"do": "games", "games": 30})
    assert _shown(explorer) == mirror.numbers()["rows"]
    if len(mirror.fields) == 1:
        index = 0 if mirror.stops[0].index(mirror.cell[0]) else len(mirror.stops[0]) - 1
        _move(explorer, 0, index)
        page.wait_for_function("([el, p]) => el.dataset.point === String(p) && el.dataset.ready === '1'"
                               " && !el.dataset.busy", arg=[explorer.element_handle(), index], timeout=START)
        mirror.handle({"do": "move", "index": [index]})
        assert _shown(explorer) == mirror.numbers()["rows"]
        assert page.evaluate("document.activeElement.classList.contains('meeple-explorer-range')")
    assert explorer.locator(".meeple-explorer-status").inner_text() == mirror.status()
    visit.check()
