"""Every widget kind the lessons create, in each notebook host a reader may use: JupyterLab,
Notebook 7 and marimo (through `mo.ui.anywidget`), driven in Chromium by Playwright.

One notebook (one marimo app) shows the Stepper, the Tally and every lesson control
(tests/browser/widget_cases.py). For each widget the test does what a reader does (picks a
face, slides, toggles, presses), waits until the widget shows its answer, and checks that what
it shows equals what the same logic class answers in CPython for the same input; keyboard
focus must still be in the widget. Each step waits for a condition (a server answering, a
kernel idle, a widget's answer counter), never for a fixed time. Screenshots go to
$MEEPLE_SCREENSHOTS (default: pytest's tmp dir).
"""

from __future__ import annotations

import json
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from widget_cases import (CASES, EXPLORER, EXPLORER_ARGS, EXPLORER_MOVE, IMPORTS, STEPPER, as_shown, expected, explorer_charts,
                          explorer_expected, explorer_games_error, operate, shown)

pytestmark = pytest.mark.browser
DEADLINE_S = 600
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
VENV_BIN = Path(sys.executable).parent


def _notebook() -> str:
    sources = [IMPORTS] + [f"w_{k.replace('-', '_')} = {make}\nw_{k.replace('-', '_')}" for k, (make, _) in CASES.items()]
    sources.append(f"stepper = {STEPPER}\nstepper")
    sources.append(f"explorer = {EXPLORER}\nexplorer")
    cells = [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "source": s, "outputs": [], "execution_count": None}
             for i, s in enumerate(sources)]
    return json.dumps({"cells": cells, "metadata": {"kernelspec": KERNELSPEC}, "nbformat": 4, "nbformat_minor": 5})


NAMES = "mo, Explorer, Stepper, Tally, Panel, CatchUpRule, DieEditor, FlipSimulator, HandDeal, KnockChance, RerollRule, StealDie, TrackLength"


def _marimo_app() -> str:
    """A marimo app: one cell of imports, then one cell per widget whose output is
    `mo.ui.anywidget(widget)` (a cell's last expression is what it shows)."""
    imports = "".join("    " + line + "\n" for line in IMPORTS.splitlines())
    cells = [f"@app.cell\ndef _():\n    import marimo as mo\n{imports}    return ({NAMES},)\n"]
    for make in [m for m, _ in CASES.values()] + [STEPPER, EXPLORER]:
        cells.append(f"@app.cell\ndef _({NAMES}):\n    _shown = mo.ui.anywidget({make})\n    _shown\n    return\n")
    return "import marimo\n\napp = marimo.App()\n\n\n" + "\n\n".join(cells) + '\n\nif __name__ == "__main__":\n    app.run()\n'


def _kernels_idle(base: str) -> bool:
    try:
        sessions = json.loads(urllib.request.urlopen(base + "/api/sessions", timeout=2).read())
    except OSError:
        return False
    return bool(sessions) and all(s["kernel"]["execution_state"] == "idle" for s in sessions)


def _jupyter_env(home: Path) -> dict:
    import os

    return {**os.environ, "HOME": str(home), "JUPYTER_CONFIG_DIR": str(home / "cfg"),
            "JUPYTER_RUNTIME_DIR": str(home / "rt"), "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces")}


ALL_RAN = """() => {
    const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
    return prompts.length > 0 && prompts.every(e => /\\[[0-9]+\\]/.test(e.textContent));
}"""


def _run_all(page, base: str) -> None:
    """Wait for the notebook and its kernel, then Run > Run All Cells, until every cell ran."""
    page.wait_for_selector(".jp-Notebook .jp-Cell")
    deadline = time.monotonic() + DEADLINE_S
    while not _kernels_idle(base):
        assert time.monotonic() < deadline, "no idle kernel"
        time.sleep(0.2)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator(".lm-Menu-item[data-command='runmenu:run-all']").click()
    page.wait_for_function(ALL_RAN)
    while not _kernels_idle(base):
        assert time.monotonic() < deadline, "the kernel stayed busy"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    home = tmp_path_factory.mktemp("hosts")
    (home / "widgets.ipynb").write_text(_notebook())
    (home / "widgets_app.py").write_text(_marimo_app())
    return home


@pytest.fixture(scope="module")
def jupyterlab(folder, free_port, server):
    port = free_port()
    cmd = [str(VENV_BIN / "jupyter"), "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}", "--allow-root",
           "--ServerApp.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
           "--LabApp.news_url=None", "--LabApp.collaborative=False", "--LabApp.expose_app_in_browser=True",
           f"--notebook-dir={folder}"]
    url = f"http://127.0.0.1:{port}"
    with server(cmd, url + "/api/status", folder / "lab.log", "jupyter lab", DEADLINE_S, env=_jupyter_env(folder / "lab")):
        yield url


@pytest.fixture(scope="module")
def notebook7(folder, free_port, server):
    port = free_port()
    cmd = [str(VENV_BIN / "jupyter"), "notebook", "--no-browser", "--ip=127.0.0.1", f"--port={port}", "--allow-root",
           "--ServerApp.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
           f"--notebook-dir={folder}"]
    url = f"http://127.0.0.1:{port}"
    with server(cmd, url + "/api/status", folder / "nb7.log", "jupyter notebook", DEADLINE_S,
                env=_jupyter_env(folder / "nb7")):
        yield url


@pytest.fixture(scope="module")
def marimo(folder, free_port, server):
    port = free_port()
    cmd = [str(VENV_BIN / "marimo"), "run", str(folder / "widgets_app.py"), "--host", "127.0.0.1", "--port", str(port),
           "--headless", "--no-token"]
    url = f"http://127.0.0.1:{port}"
    with server(cmd, url + "/", folder / "marimo.log", "marimo run", DEADLINE_S):
        yield url


def drive_slider_keys(page, host: str) -> None:
    """A control's slider moved with each key a keyboard reader uses (Home/End, the arrow keys,
    Page Up/Down): each moves it the way the browser's range input does, the control answers
    that value as the same logic class in CPython does, and focus stays on the slider
    (JupyterLab's command mode binds the arrow keys to its own commands)."""
    kind = "track-length"
    panel = page.locator(f".meeple-panel[data-kind='{kind}']")
    panel.scroll_into_view_if_needed()
    control = _fresh(kind)
    options = next(i for i in control.view()["inputs"] if i["name"] == "spaces")["options"]
    top = len(options) - 1
    moves = {"Home": lambda v: v == 0, "ArrowRight": lambda v: v == 1, "ArrowUp": lambda v: v == 2,
             "PageUp": lambda v: v > 3, "ArrowDown": None, "ArrowLeft": None, "PageDown": None,
             "End": lambda v: v == top}
    for key, moved_right in moves.items():
        slider = panel.locator("input[type=range]")
        before = int(slider.input_value())
        answered = int(panel.get_attribute("data-moves"))
        slider.focus()
        slider.press(key)
        # the range input moves on the key itself: a host that took the key left it where it was
        now = int(slider.input_value())
        assert (moved_right(now) if moved_right else now < before), f"{host}: {key} moved the slider {before} -> {now}"
        page.wait_for_function("([el, n]) => Number(el.dataset.moves) > n && !el.dataset.busy",
                               arg=[panel.element_handle(), answered])
        slider = panel.locator("input[type=range]")
        assert int(slider.input_value()) == now, (host, key)
        control.handle({"do": "set", "name": "spaces", "value": options[now]["value"]})
        assert shown(panel) == as_shown(control.view()), (host, key)
        assert slider.evaluate("el => el.getRootNode().activeElement === el"), f"{host}: {key} took focus from the slider"


def _fresh(kind: str):
    """The case's logic class after all its reader's moves (as drive_controls leaves the widget)."""
    from widget_cases import control

    c = control(kind)
    for msg in CASES[kind][1]:
        c.handle(msg)
    return c


def drive_controls(page, shots: Path, host: str) -> None:
    """Every control kind: shown as CPython shows it, then each reader's move gives CPython's answer."""
    for kind, (_, moves) in CASES.items():
        panel = page.locator(f".meeple-panel[data-kind='{kind}']")
        panel.wait_for()
        panel.scroll_into_view_if_needed()
        assert shown(panel) == as_shown(expected(kind, 0)), kind
        for i, msg in enumerate(moves):
            answered = int(panel.get_attribute("data-moves"))
            operate(panel, msg, expected(kind, i))
            panel.element_handle().wait_for_element_state("stable")
            page.wait_for_function("([el, n]) => Number(el.dataset.moves) > n", arg=[panel.element_handle(), answered])
            want = as_shown(expected(kind, i + 1))
            assert shown(panel) == want, (kind, msg)
            assert want["error"] == "", (kind, want)
            assert panel.evaluate("el => { const a = el.getRootNode().activeElement; return !!a && el.contains(a); }"), \
                f"{kind}: keyboard focus left the widget after {msg}"
        if expected(kind)["chart"]:
            page.wait_for_function("el => { const c = el.querySelector('.meeple-panel-chart');"
                                   " return c && c.dataset.drawn && c.querySelector('svg'); }", arg=panel.element_handle())
        panel.screenshot(path=str(shots / f"{host}-{kind}.png"))


def drive_stepper(page, shots: Path, host: str) -> None:
    """A card played, then New game: the next seed's deal (seed 7 -> 8), focus kept in the widget."""
    stepper = page.locator(".meeple-stepper")
    stepper.wait_for()
    stepper.scroll_into_view_if_needed()
    # JupyterLab skips drawing a cell out of view (content-visibility): its text reads '' until
    # the frame after it is scrolled into view
    page.wait_for_function("el => (el.querySelector('.meeple-sub') || {}).innerText", arg=stepper.element_handle())
    assert "seed 7" in stepper.locator(".meeple-sub").inner_text()
    stepper.locator(".meeple-action").first.click()
    page.wait_for_function("el => el.dataset.meepleStep !== '0'", arg=stepper.element_handle())
    stepper.locator(".meeple-new").click()
    page.wait_for_function("el => el.querySelector('.meeple-sub').innerText.includes('seed 8')",
                           arg=stepper.element_handle())
    from meeple.widgets.session import StepperSession

    fresh = StepperSession("bucket-brigade", seed=8, bots="heuristic", seat=0).view
    assert stepper.get_attribute("data-meeple-step") == "0"
    assert stepper.locator(".meeple-action").all_inner_texts() == fresh["actions"]
    assert stepper.evaluate("el => { const a = el.getRootNode().activeElement; return !!a && el.contains(a); }")
    stepper.screenshot(path=str(shots / f"{host}-stepper.png"))


EXPLORER_SHOWN = """el => ({
    status: el.querySelector('.meeple-explorer-status').textContent,
    caption: (el.querySelector('.meeple-explorer-numbers caption') || {}).textContent || null,
    rows: [...el.querySelectorAll('.meeple-explorer-numbers tr[data-seat]')].map(r => [...r.children].map(c => c.textContent)),
    readout: el.querySelector('.meeple-explorer-readout').textContent,
    error: el.querySelector('.meeple-explorer-error').textContent,
})"""
# the answer to the reader's last move is in: the slider's stop is played, nothing is being asked
EXPLORER_READY = ("([el, point]) => el.dataset.point === String(point) && el.dataset.ready === '1' && !el.dataset.busy"
                  " && !el.querySelector('.meeple-explorer-status').textContent.startsWith('Playing')")


def _explorer_want(view: dict) -> dict:
    n = view["numbers"]
    return {"status": view["status"], "caption": n["heading"], "rows": n["rows"],
            "readout": view["sliders"][0]["labels"][view["sliders"][0]["index"]], "error": ""}


def drive_explorer(page, shots: Path, host: str) -> None:
    """The slider moved with the keyboard (End: its last stop; then ArrowLeft: one stop back, the
    key JupyterLab's command mode would take for itself); once the status says that value is
    played, the numbers shown are ExplorerSession's in CPython for the same moves and seed, and
    focus is still on the slider."""
    root = page.locator(".meeple-explorer")
    root.wait_for()
    root.scroll_into_view_if_needed()
    first = explorer_expected()
    page.wait_for_function(EXPLORER_READY, arg=[root.element_handle(), first["point"]])
    assert root.evaluate(EXPLORER_SHOWN) == _explorer_want(first)
    slider = root.locator("input.meeple-explorer-range")
    slider.focus()
    slider.press("End")  # one input and one change event: the move and its re-simulation
    moved = explorer_expected(EXPLORER_MOVE)
    page.wait_for_function(EXPLORER_READY, arg=[root.element_handle(), moved["point"]])
    assert root.evaluate(EXPLORER_SHOWN) == _explorer_want(moved)
    # bonus = 4, and the reference it is paired with (2: the sliders' value nearest the rules' 3)
    assert "bonus = 4" in moved["numbers"]["heading"] and moved["status"] == "3 of 3 values simulated."
    assert slider.evaluate("el => el.getRootNode().activeElement === el"), f"{host}: focus left the Explorer's slider"
    slider.press("ArrowLeft")
    assert slider.input_value() == str(EXPLORER_MOVE - 1), f"{host}: ArrowLeft did not move the Explorer's slider"
    back = explorer_expected(EXPLORER_MOVE, EXPLORER_MOVE - 1)
    page.wait_for_function(EXPLORER_READY, arg=[root.element_handle(), back["point"]])
    assert root.evaluate(EXPLORER_SHOWN) == _explorer_want(back)
    assert "bonus = 2" in back["numbers"]["heading"] and back["status"] == "3 of 3 values simulated."
    assert slider.evaluate("el => el.getRootNode().activeElement === el"), f"{host}: ArrowLeft took focus from the slider"
    charts = explorer_charts(EXPLORER_MOVE, EXPLORER_MOVE - 1)
    assert charts == ["measure", "paired", "win"], charts
    page.wait_for_function("([el, n]) => { const c = el.querySelector('.meeple-explorer-charts');"
                           " return c.dataset.drawn && c.querySelectorAll('svg').length === n; }",
                           arg=[root.element_handle(), len(charts)])
    drawn = root.evaluate("el => [...el.querySelectorAll('.meeple-explorer-chart')].map(b => b.dataset.chart).sort()")
    assert drawn == charts, f"{host}: the charts drawn {drawn}, CPython's {charts}"
    # Enter in the games box sends what was typed, as leaving the box does (JupyterLab's notebook
    # once took the key: no word, and the box showed a number the table did not use); refused, the
    # box shows the number still in use
    games = root.locator("input.meeple-explorer-games")
    refused = explorer_games_error("abc")  # ExplorerSession's words in CPython (it plays the first value)
    games.fill("abc")
    games.press("Enter")
    page.wait_for_function("([el, t]) => el.querySelector(':scope > .meeple-explorer-error').textContent === t",
                           arg=[root.element_handle(), refused])
    page.wait_for_function("([el, n]) => el.value === n", arg=[games.element_handle(), str(EXPLORER_ARGS["games"])])
    assert root.evaluate(EXPLORER_SHOWN) == {**_explorer_want(back), "error": refused}, host
    root.screenshot(path=str(shots / f"{host}-explorer.png"))


def test_every_widget_in_jupyterlab(jupyterlab, page_for, shots):
    with page_for(jupyterlab + "/lab/tree/widgets.ipynb", "jupyterlab-widgets", 1400, 1000) as page:
        _run_all(page, jupyterlab)
        drive_controls(page, shots, "jupyterlab")
        drive_slider_keys(page, "jupyterlab")
        drive_stepper(page, shots, "jupyterlab")
        drive_explorer(page, shots, "jupyterlab")
        # the host's dark theme: the controls follow it
        page.evaluate("window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
        page.wait_for_function("document.body.dataset.jpThemeLight === 'false'")
        panel = page.locator(".meeple-panel[data-kind='hand-deal']")
        panel.scroll_into_view_if_needed()
        panel.locator("[data-name='game'] button").nth(0).click()
        page.wait_for_function("el => el.classList.contains('meeple-dark')", arg=panel.element_handle())
        page.wait_for_function("el => el.querySelector('.meeple-panel-chart svg')", arg=panel.element_handle())
        panel.screenshot(path=str(shots / "jupyterlab-dark-hand-deal.png"))


def test_every_widget_in_notebook_7(notebook7, page_for, shots):
    with page_for(notebook7 + "/notebooks/widgets.ipynb", "notebook7-widgets", 1024, 1000) as page:
        _run_all(page, notebook7)
        drive_controls(page, shots, "notebook7")
        drive_slider_keys(page, "notebook7")
        drive_stepper(page, shots, "notebook7")
        drive_explorer(page, shots, "notebook7")


def test_every_widget_in_marimo(marimo, page_for, shots):
    with page_for(marimo, "marimo-widgets", 1024, 1000) as page:
        drive_controls(page, shots, "marimo")
        drive_slider_keys(page, "marimo")
        drive_stepper(page, shots, "marimo")
        drive_explorer(page, shots, "marimo")
