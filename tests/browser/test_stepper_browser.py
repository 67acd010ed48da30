"""The Stepper as a person uses it: JupyterLab in Debian's Chromium, driven by Playwright.

Opens a notebook, runs it, clicks a card and "Next", and checks that the
page and the kernel agree. Screenshots go to $MEEPLE_SCREENSHOTS (default:
pytest's tmp dir) so a person can look at them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
GAME_NAMES = ["bucket-brigade", "bucket-king", "piggyback-brigade", "duck-duck-bruce"]
NOTEBOOK_CELLS = [
    "from meeple.widgets import Stepper\n"
    "w = Stepper('bucket-brigade', seed=7, bots='heuristic', seat=0)\n"
    "w",
    "print('STEP', w.view['step'], 'ERROR', repr(w.error))",
]


@pytest.fixture(scope="module")
def lab(tmp_path_factory, free_port, server):
    """A JupyterLab server on a free port, in its own process group; stopped and checked after."""
    root = tmp_path_factory.mktemp("lab")
    nb = {
        "cells": [{"cell_type": "code", "metadata": {}, "source": src, "outputs": [], "execution_count": None} for src in NOTEBOOK_CELLS],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (root / "stepper.ipynb").write_text(json.dumps(nb))
    for game in GAME_NAMES:
        cells = [f"from meeple.widgets import Stepper\nw = Stepper({game!r}, seed=5, bots='heuristic', seat=0)\nw"]
        (root / f"stepper-{game}.ipynb").write_text(json.dumps({**nb, "cells": [{**nb["cells"][0], "source": cells[0]}]}))
    lessons = Path(__file__).resolve().parents[2] / "lessons"
    for lesson in lessons.glob("*.ipynb"):
        (root / lesson.name).write_text(lesson.read_text())
    port = free_port()
    bindir = Path(sys.executable).parent
    cmd = [
        str(bindir / "jupyter"), "lab", "--no-browser", "--ip", "127.0.0.1", f"--port={port}",
        "--ServerApp.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
        f"--ServerApp.root_dir={root}", "--allow-root", "--LabApp.news_url=None",
        "--LabApp.collaborative=False",
    ]
    settings = root / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    # do not ask about news
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false", "checkForUpdates": false}')
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(root / "cfg"),
        "JUPYTER_RUNTIME_DIR": str(root / "rt"),
        "JUPYTERLAB_SETTINGS_DIR": str(root / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(root / "workspaces"),
    }
    url = f"http://127.0.0.1:{port}"
    with server(cmd, url + "/api/status", root / "lab.log", "jupyter lab", 60, env=env):
        yield url
    left = subprocess.run(["pgrep", "-f", f"ipykernel_launcher.*{root}"], capture_output=True, text=True).stdout
    assert not left.strip(), f"kernels left running: {left}"


def _accept_kernel_dialog(page):
    """Take the offered kernel; press Enter if the button did not close the dialog."""
    page.locator(".jp-Dialog .jp-mod-accept").click()
    try:
        page.locator(".jp-Dialog").wait_for(state="detached", timeout=5_000)
    except Exception:
        page.keyboard.press("Enter")


def _run_all(page, shows: str):
    """Run > Run All Cells until `shows` appears (a kernel restart can swallow a run)."""
    page.wait_for_selector(".jp-Notebook", timeout=60_000)
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=60_000)
    # If JupyterLab still asks which kernel to use, answer whenever the dialog shows up.
    page.add_locator_handler(
        page.locator(".jp-Dialog-header", has_text="Select Kernel"),
        lambda: _accept_kernel_dialog(page),
    )
    for attempt in range(3):
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_text("Run All Cells", exact=True).click()
        try:  # a kernel (re)start can swallow the first run: try again
            page.wait_for_selector(shows, timeout=45_000)
            return
        except Exception:
            if attempt == 2:
                raise


def _last_output(page) -> str:
    return page.locator(".jp-OutputArea-output").last.inner_text()


def test_a_reader_plays_a_card_and_lets_a_bot_move(lab, shots, page_for):
    with page_for(lab + "/lab/workspaces/stepper/tree/stepper.ipynb", "stepper") as page:  # own workspace: one tab
        _drive(page, shots)


def _drive(page, shots):
    _run_all(page, ".meeple-stepper")
    stepper = page.locator(".meeple-stepper")
    stepper.wait_for(timeout=60_000)
    assert "Your turn" in stepper.locator(".meeple-status").inner_text()
    assert stepper.locator(".meeple-token").count() == 4  # four hedgehogs on the track
    page.wait_for_function("document.querySelectorAll('.jp-OutputArea-output').length >= 2", timeout=30_000)
    assert "STEP 0" in _last_output(page)
    stepper.screenshot(path=str(shots / "stepper-1-your-turn.png"))

    first = stepper.locator(".meeple-action").first
    card = first.get_attribute("data-action")
    first.click()
    stepper.locator(".meeple-events li.new").first.wait_for(timeout=15_000)
    assert f"Player 1 plays {card.split(' for ')[0]}" in stepper.locator(".meeple-events").inner_text()
    assert stepper.locator(".meeple-action").count() == 0  # not our turn any more

    stepper.locator(".meeple-next").click()
    page.wait_for_function(
        "document.querySelector('.meeple-events').innerText.includes('Player 2 plays')", timeout=15_000
    )
    stepper.screenshot(path=str(shots / "stepper-2-after-next.png"))

    # The kernel sees what the page did: re-run the second cell.
    page.locator(".jp-Cell").nth(1).click()
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(
        "[...document.querySelectorAll('.jp-OutputArea-output')].some(e => e.innerText.includes('STEP 2'))",
        timeout=30_000,
    )

    stepper.locator(".meeple-fast").click()
    page.wait_for_function(
        "document.querySelector('.meeple-status').innerText.includes('Your turn') || "
        "document.querySelector('.meeple-events').innerText.includes('Round 2')",
        timeout=30_000,
    )
    stepper.locator(".meeple-undo").click()
    page.wait_for_function("document.querySelector('.meeple-sub').innerText.includes('step 0')", timeout=15_000)
    stepper.screenshot(path=str(shots / "stepper-3-after-undo.png"))


def test_the_bonus_lesson_draws_its_widgets_and_charts(lab, shots, page_for):
    """Lesson 13 (timing) as a student opens it: the Stepper, the Explorer and both charts appear;
    clicking "Run every value" fills the chart with one point per bonus value."""
    url = lab + "/lab/workspaces/lesson13/tree/13_timing.ipynb"
    with page_for(url, "lesson01", 1400, 1100) as page:
        _run_all(page, ".meeple-explorer")
        explorer = page.locator(".meeple-explorer")
        explorer.wait_for(timeout=90_000)
        charts = explorer.locator(".vega-embed")
        page.wait_for_function(
            "document.querySelectorAll('.meeple-explorer .vega-embed svg, .meeple-explorer .vega-embed canvas').length >= 2",
            timeout=60_000,
        )
        assert charts.count() == 2
        assert "95% CI" in explorer.locator(".meeple-numbers").inner_text()
        explorer.get_by_role("button", name="Run every value").click()
        page.get_by_text("8 of 8 values simulated.").wait_for(timeout=120_000)
        page.wait_for_timeout(1500)  # let Vega redraw
        explorer.scroll_into_view_if_needed()
        explorer.screenshot(path=str(shots / "lesson01-explorer.png"))
        page.locator(".meeple-stepper").screenshot(path=str(shots / "lesson01-stepper.png"))


LESSONS = sorted(p.name for p in (Path(__file__).resolve().parents[2] / "lessons").glob("*.ipynb"))


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_lesson_runs_in_jupyterlab_without_errors(lab, shots, page_for, lesson):
    """Each lesson as a student opens it: Run All, every code cell numbered, no error output,
    every widget and chart drawn. A full-page screenshot is kept per lesson."""
    stem = Path(lesson).stem
    with page_for(lab + f"/lab/workspaces/{stem}/tree/{lesson}", f"lesson-{stem}", 1300, 1000) as page:
        _run_all(page, ".jp-CodeCell .jp-OutputArea-output")
        page.wait_for_function(
            "[...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]"
            ".every(e => /\\[[0-9]+\\]/.test(e.textContent))",  # textContent: cells off screen are not drawn
            timeout=120_000,
        )
        errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
        assert errors.count() == 0, errors.first.inner_text()
        page.wait_for_timeout(1500)  # let widgets and Vega finish drawing
        assert page.locator(".jp-OutputArea-output:has-text('Error displaying widget')").count() == 0
        drawn = page.locator(".vega-embed svg, .vega-embed canvas").count()
        assert drawn >= 2 * page.locator(".meeple-explorer").count() + page.locator(".meeple-chart-cell").count()
        page.locator(".jp-NotebookPanel").screenshot(path=str(shots / f"lesson-{Path(lesson).stem}.png"))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_each_game_can_be_played_in_the_stepper(lab, shots, page_for, game):
    """For every game: the board draws, clicking the first offered action plays it, and
    "Play to my turn" brings the reader back to a choice (or the round's end)."""
    with page_for(lab + f"/lab/workspaces/{game}/tree/stepper-{game}.ipynb", f"stepper-{game}") as page:
        _run_all(page, ".meeple-stepper")
        stepper = page.locator(".meeple-stepper")
        assert stepper.locator(".meeple-board").count() == 1
        for _ in range(6):  # a few of the reader's own moves, bots in between
            if stepper.locator(".meeple-action").count() == 0:
                break
            before = stepper.locator(".meeple-sub").inner_text()
            stepper.locator(".meeple-action").first.click()
            page.wait_for_function(
                "b => document.querySelector('.meeple-sub').innerText !== b", arg=before, timeout=15_000
            )
            if stepper.locator(".meeple-fast").is_enabled():
                stepper.locator(".meeple-fast").click()
                page.wait_for_timeout(300)
        assert stepper.locator(".meeple-error").count() == 0
        assert "Player 1" in stepper.locator(".meeple-events").inner_text()
        stepper.screenshot(path=str(shots / f"stepper-{game}.png"))
