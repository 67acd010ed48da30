"""The lessons and the Stepper as a person uses them: `make lab` in Chromium, driven by Playwright.

JupyterLab is started the way a reader starts it, `make lab`, on a copy of the lessons in a tmp
folder (plus small notebooks that hold one Stepper each). Every step waits for the condition it
needs (the server answering, the notebook drawn, the kernel idle, a widget's DOM); the only
time limit is the outer deadline in conftest (DEADLINE_MS), so a slow, loaded machine is slow,
not failing. Screenshots go to $MEEPLE_SCREENSHOTS (default: pytest's tmp dir).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
DEADLINE_S = 600
GAME_NAMES = ["bucket-brigade", "bucket-king", "piggyback-brigade", "duck-duck-bruce"]
NOTEBOOK_CELLS = [
    "from meeple.widgets import Stepper\n"
    "w = Stepper('bucket-brigade', seed=7, bots='heuristic', seat=0)\n"
    "w",
    "print('STEP', w.view['step'], 'ERROR', repr(w.error))",
]
LESSONS = sorted(p.name for p in (ROOT / "lessons").glob("*.ipynb"))
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}  # as ipykernel has it
# The kernel as the status bar shows it to the reader ("Python 3 (ipykernel) | Idle"). The
# toolbar's execution indicator is no use here: it says idle before any kernel exists.
KERNEL_IDLE = """(() => {
    const bar = document.querySelector('#jp-main-statusbar');
    const text = bar ? bar.innerText : '';
    return /\\| Idle/.test(text) && !/No Kernel/.test(text);
})()"""
KERNEL_CHOSEN = """(() => {
    const bar = document.querySelector('#jp-main-statusbar');
    return /Python 3 \\(ipykernel\\)/.test(bar ? bar.innerText : '');
})()"""
# Run All, then: every code cell has its [n] and the kernel is idle, or JupyterLab put up a
# dialog (which fails the test).
ALL_RAN_OR_DIALOG = f"""() => {{
    if (document.querySelector('.jp-Dialog')) return true;
    const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
    // textContent: cells off screen are not drawn but keep their prompt text
    return {KERNEL_IDLE} && prompts.length > 0 && prompts.every(e => /\\[[0-9]+\\]/.test(e.textContent));
}}"""


def _notebook(cells: list[str]) -> str:
    return json.dumps({
        "cells": [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "source": src, "outputs": [],
                   "execution_count": None} for i, src in enumerate(cells)],
        "metadata": {"kernelspec": KERNELSPEC},
        "nbformat": 4,
        "nbformat_minor": 5,
    })


def _repo_state(lesson: str) -> tuple[str, str]:
    """What `make lab` must not change: the lesson in lessons/ and what git says of it (only
    it: other people may be changing other files of this working tree meanwhile)."""
    status = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=all", "--",
                             f"lessons/{lesson}", "lessons/.ipynb_checkpoints"], capture_output=True, text=True).stdout
    return status, hashlib.sha256((ROOT / "lessons" / lesson).read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def lab(tmp_path_factory, free_port, server):
    """`make lab` with its lesson copy in a tmp folder, on a free port, in its own process group;
    stopped after, and checked: no kernel left running."""
    home = tmp_path_factory.mktemp("lab")
    copy = home / "meeple-lessons"
    copy.mkdir()
    (copy / "stepper.ipynb").write_text(_notebook(NOTEBOOK_CELLS))
    for game in GAME_NAMES:
        (copy / f"stepper-{game}.ipynb").write_text(
            _notebook([f"from meeple.widgets import Stepper\nw = Stepper({game!r}, seed=5, bots='heuristic', seat=0)\nw"]))
    port = free_port()
    venv = Path(sys.prefix)
    lab_args = (f"--no-browser --ip=127.0.0.1 --port={port} --ServerApp.token= --ServerApp.password= "
                "--ServerApp.disable_check_xsrf=True --LabApp.news_url=None --LabApp.collaborative=False")
    cmd = ["make", "-s", "-C", str(ROOT), f"VENV={venv}", "-o", str(venv / ".meeple-installed"), "lab",
           f"LESSONS_COPY={copy}", f"LAB_ARGS={lab_args}"]
    env = {  # the reader's own Jupyter settings and state stay out of it
        **os.environ,
        "HOME": str(home),
        "JUPYTER_CONFIG_DIR": str(home / "cfg"),
        "JUPYTER_RUNTIME_DIR": str(home / "rt"),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
    }
    url = f"http://127.0.0.1:{port}"
    with server(cmd, url + "/api/status", home / "lab.log", "make lab", DEADLINE_S, env=env):
        yield url, copy
    # JupyterLab shuts its kernels down on SIGTERM (they run in their own sessions): wait for that.
    deadline = time.monotonic() + DEADLINE_S
    while left := subprocess.run(["pgrep", "-f", f"ipykernel_launcher.*{home}"], capture_output=True,
                                 text=True).stdout.strip():
        assert time.monotonic() < deadline, f"kernels left running: {left}"
        time.sleep(0.5)


def _open_notebook(page) -> None:
    """Until the notebook shows its cells: before that JupyterLab's Run All has nothing to run
    (it silently does nothing, however the kernel stands)."""
    page.wait_for_selector(".jp-Notebook .jp-Cell")


def _run_all_now(page) -> None:
    """Run > Run All Cells, whatever state the kernel is in."""
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator(".lm-Menu-item[data-command='runmenu:run-all']").click()


def _wait_all_ran(page) -> None:
    """Every code cell numbered and the kernel idle; no dialog (e.g. "Select Kernel") on the way."""
    page.wait_for_function(ALL_RAN_OR_DIALOG)
    dialogs = page.locator(".jp-Dialog")
    assert dialogs.count() == 0, f"JupyterLab asked: {dialogs.first.inner_text()}"


def _run_all(page) -> None:
    """As a careful reader: wait for the notebook and an idle kernel, then Run All, until all ran."""
    _open_notebook(page)
    page.wait_for_function(KERNEL_IDLE)
    _run_all_now(page)
    _wait_all_ran(page)


def _assert_no_errors(page) -> None:
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, errors.first.inner_text()
    assert page.locator(".jp-OutputArea-output:has-text('Error displaying widget')").count() == 0


def _last_output(page) -> str:
    return page.locator(".jp-OutputArea-output").last.inner_text()


def _wait_file(path: Path, condition, what: str):
    deadline = time.monotonic() + DEADLINE_S
    while True:
        try:
            nb = json.loads(path.read_text())
            if condition(nb):
                return nb
        except (OSError, ValueError):  # not there yet, or half written
            pass
        assert time.monotonic() < deadline, f"{path.name}: {what} within {DEADLINE_S} s"
        time.sleep(0.2)


def test_a_reader_plays_a_card_and_lets_a_bot_move(lab, shots, page_for):
    url, _ = lab
    with page_for(url + "/lab/workspaces/stepper/tree/stepper.ipynb", "stepper") as page:  # own workspace: one tab
        _run_all(page)
        _drive(page, shots)


def _drive(page, shots):
    stepper = page.locator(".meeple-stepper")
    stepper.wait_for()
    assert "Your turn" in stepper.locator(".meeple-status").inner_text()
    assert stepper.locator(".meeple-token").count() == 4  # four hedgehogs on the track
    assert "STEP 0" in _last_output(page)
    stepper.screenshot(path=str(shots / "stepper-1-your-turn.png"))

    first = stepper.locator(".meeple-action").first
    card = first.get_attribute("data-action")
    first.click()
    stepper.locator(".meeple-events li.new").first.wait_for()
    assert f"Player 1 plays {card.split(' for ')[0]}" in stepper.locator(".meeple-events").inner_text()
    assert stepper.locator(".meeple-action").count() == 0  # not our turn any more

    stepper.locator(".meeple-next").click()
    page.wait_for_function("document.querySelector('.meeple-events').innerText.includes('Player 2 plays')")
    stepper.screenshot(path=str(shots / "stepper-2-after-next.png"))

    # The kernel sees what the page did: re-run the second cell.
    page.locator(".jp-Cell").nth(1).click()
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(
        "[...document.querySelectorAll('.jp-OutputArea-output')].some(e => e.innerText.includes('STEP 2'))")

    stepper.locator(".meeple-fast").click()
    page.wait_for_function(
        "document.querySelector('.meeple-status').innerText.includes('Your turn') || "
        "document.querySelector('.meeple-events').innerText.includes('Round 2')")
    stepper.locator(".meeple-undo").click()
    page.wait_for_function("document.querySelector('.meeple-sub').innerText.includes('step 0')")
    stepper.screenshot(path=str(shots / "stepper-3-after-undo.png"))


def test_run_all_at_once_runs_every_cell_in_one_kernel_and_leaves_git_clean(lab, shots, page_for, tmp_path):
    """Issue 15: a student opens the first lesson and clicks Run All before the kernel is ready.
    No "Select Kernel" dialog; every cell runs once, in one kernel ([1], [2], ... in order), with no
    error. Saving it changes the copy only: lessons/ and `git status` are as before (issue 15,
    item 1), and in `make lab-edit` (lessons/ itself, with the git filter) the run and saved
    lesson is nothing to commit."""
    url, copy = lab
    lesson = LESSONS[0]
    before = _repo_state(lesson)
    with page_for(url + f"/lab/workspaces/first/tree/{lesson}", "first-lesson", 1300, 1000) as page:
        _open_notebook(page)
        # As early as JupyterLab has chosen the lesson's kernel (the status bar names it; it is
        # still starting). Clicked before that, while it says "No Kernel", JupyterLab 4.6 can
        # drop the run and end with no kernel at all: its own race, left to upstream.
        page.wait_for_function(KERNEL_CHOSEN)
        kernel_at_click = page.locator("#jp-main-statusbar").inner_text()
        _run_all_now(page)
        _wait_all_ran(page)
        _assert_no_errors(page)
        prompts = page.locator(".jp-CodeCell .jp-InputArea-prompt").evaluate_all(
            "es => es.map(e => e.textContent.trim())")
        counts = [int(m.group(1)) for m in (re.search(r"\[(\d+)\]", p) for p in prompts)]
        assert counts == list(range(1, len(prompts) + 1)), (
            f"not one run in one kernel: {prompts} (clicked when the status bar said {kernel_at_click!r})")
        page.locator(".jp-NotebookPanel").screenshot(path=str(shots / "first-lesson.png"))
        page.get_by_role("menuitem", name="File", exact=True).click()
        page.locator(".lm-Menu-item[data-command='docmanager:save']").click()
        saved = _wait_file(copy / lesson, lambda nb: any(c.get("outputs") for c in nb["cells"]),
                           "saved with its outputs")
    assert _repo_state(lesson) == before, "make lab changed the repository"

    # make lab-edit: the same saved lesson, put over the committed one in a clone with the filter.
    repo = tmp_path / "clone"
    (repo / "lessons").mkdir(parents=True)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(git + ["init", "-q"], check=True)
    (repo / "lessons" / ".gitattributes").write_text((ROOT / "lessons" / ".gitattributes").read_text())
    (repo / "lessons" / lesson).write_text((ROOT / "lessons" / lesson).read_text())
    venv = Path(sys.prefix)
    made = subprocess.run(["make", "-s", "-f", str(ROOT / "Makefile"), "-C", str(repo), f"VENV={venv}",
                           "-o", str(venv / ".meeple-installed"), "git-filter"], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    subprocess.run(git + ["add", "lessons"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "lesson"], check=True)
    (repo / "lessons" / lesson).write_text(json.dumps(saved, indent=1))
    subprocess.run(git + ["add", "lessons"], check=True)
    status = subprocess.run(git + ["status", "--porcelain"], capture_output=True, text=True, check=True).stdout
    diff = subprocess.run(git + ["diff", "--cached", "HEAD"], capture_output=True, text=True).stdout
    assert status == "", f"a lesson run and saved in JupyterLab is a change to commit:\n{diff[:3000]}"


def _explorer_lesson() -> str:
    """The first lesson with an Explorer (names change as lessons are written; the glob does not)."""
    for name in LESSONS:
        if "Explorer(" in (ROOT / "lessons" / name).read_text():
            return name
    pytest.fail("no lesson shows an Explorer")


def test_a_lesson_draws_its_explorer_and_charts(lab, shots, page_for):
    """A lesson with an Explorer as a student opens it: the Explorer and its charts appear
    without errors; clicking "Run every value" simulates every value on the slider."""
    url, _ = lab
    lesson = _explorer_lesson()
    with page_for(url + f"/lab/workspaces/explorer/tree/{lesson}", "explorer-lesson", 1400, 1100) as page:
        _run_all(page)
        _assert_no_errors(page)
        explorer = page.locator(".meeple-explorer").first
        explorer.wait_for()
        first = "document.querySelector('.meeple-explorer')"
        page.wait_for_function(f"!!{first}.querySelector('.meeple-explorer-charts').dataset.drawn")
        # one field: the win rate, the measure and the paired difference; two: the map and the paired
        names = explorer.evaluate("el => [...el.querySelectorAll('.meeple-explorer-chart')].map(b => b.dataset.chart).sort()")
        assert names in (["measure", "paired", "win"], ["map", "paired"]), names
        assert explorer.locator(".vega-embed").count() == len(names)
        assert "95% CI" in explorer.locator(".meeple-numbers").inner_text()
        # its heading reads as a sentence for any field (it said "how does players change"), and one
        # CSV button shows the numbers (there were two)
        assert re.search(r": what changing \S.* does to the game\.", explorer.locator(".meeple-explorer-head").inner_text())
        csv_buttons = explorer.get_by_role("button", name=re.compile("CSV"))
        assert csv_buttons.count() == 1
        csv_buttons.click()
        page.wait_for_function(f"{first}.querySelector('.meeple-explorer-csv-text').value.startsWith('point,') "
                               f"|| {first}.querySelector('.meeple-explorer-csv-text').value.includes(',seat,')")
        chart = f"{first}.querySelector('.vega-embed')"
        page.evaluate(f"window.meepleChartBefore = {chart}.innerHTML")
        all_done = (f"(() => {{ const m = /(\\d+) of (\\d+) values simulated/.exec({first}.innerText);"
                    " return !!m && m[1] === m[2]; })()")
        some_left = not page.evaluate(all_done)
        explorer.get_by_role("button", name="Run every value").click()
        page.wait_for_function(all_done)
        if some_left:  # the chart is redrawn after the count changes: wait for the new drawing
            page.wait_for_function(f"{chart}.innerHTML !== window.meepleChartBefore")
        explorer.scroll_into_view_if_needed()
        explorer.screenshot(path=str(shots / "lesson-explorer.png"))
        drawn = page.locator(".vega-embed svg, .vega-embed canvas").count()
        assert drawn >= 2 * page.locator(".meeple-explorer").count()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_each_game_can_be_played_in_the_stepper(lab, shots, page_for, game):
    """For every game: the board draws, clicking the first offered action plays it, and
    "Play to my turn" brings the reader back to a choice (or the round's end)."""
    url, _ = lab
    with page_for(url + f"/lab/workspaces/{game}/tree/stepper-{game}.ipynb", f"stepper-{game}") as page:
        _run_all(page)
        stepper = page.locator(".meeple-stepper")
        stepper.wait_for()
        assert stepper.locator(".meeple-board").count() == 1
        for _ in range(6):  # a few of the reader's own moves, bots in between
            if stepper.locator(".meeple-action").count() == 0:
                break
            before = stepper.locator(".meeple-sub").inner_text()
            stepper.locator(".meeple-action").first.click()
            page.wait_for_function(
                "b => document.querySelector('.meeple-sub').innerText !== b", arg=before)
            if stepper.locator(".meeple-fast").is_enabled():
                before = stepper.locator(".meeple-sub").inner_text()
                stepper.locator(".meeple-fast").click()  # the bots play to the reader's turn or the round's end
                page.wait_for_function(
                    "b => document.querySelector('.meeple-sub').innerText !== b", arg=before)
        assert stepper.locator(".meeple-error").count() == 0
        assert "Player 1" in stepper.locator(".meeple-events").inner_text()
        stepper.screenshot(path=str(shots / f"stepper-{game}.png"))
