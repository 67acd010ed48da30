"""Every widget kind the lessons create, with what a reader does to it: shared by the host
tests (JupyterLab, Notebook 7, marimo), the site test, and the test that no lesson widget
goes untested.

CASES: kind -> (the Python that makes the widget, the messages a reader's clicks send). The
expected result of those messages is the logic class's own answer in CPython (`expected`).
"""

from __future__ import annotations

import json

IMPORTS = ("from meeple.widgets import Explorer, Stepper\n"
           "from meeple.widgets.tally import Tally\n"
           "from meeple.widgets.panel import Panel\n"
           "from meeple.widgets.controls import (CatchUpRule, DieEditor, FlipSimulator, HandDeal, KnockChance,\n"
           "                                     RerollRule, StealDie, TrackLength)\n")

# kind -> (constructor, reader's messages)
CASES = {
    "tally": ("Tally('Did the ender win?', yes='the ender won', no='the ender lost')",
              [{"do": "press", "name": "yes"}, {"do": "press", "name": "no"}, {"do": "press", "name": "yes"}]),
    "die-editor": ("Panel(DieEditor((1, 2, 3, 4, 1, 3)))", [{"do": "set", "name": "face1", "value": 9}]),
    "reroll-rule": ("Panel(RerollRule())", [{"do": "set", "name": "face5", "value": "yes"}]),
    "track-length": ("Panel(TrackLength(20))", [{"do": "set", "name": "spaces", "value": 30}]),
    "catch-up-rule": ("Panel(CatchUpRule(games=60))",
                      [{"do": "set", "name": "face6", "value": "yes"}, {"do": "press", "name": "measure"}]),
    "flip-simulator": ("Panel(FlipSimulator(seed=1))",
                       [{"do": "press", "name": "flip"}, {"do": "press", "name": "new"}]),
    "steal-die": ("Panel(StealDie())",
                  [{"do": "set", "name": "face1", "value": 4}, {"do": "set", "name": "minus_one", "value": "discard"}]),
    "hand-deal": ("Panel(HandDeal(deals=200))", [{"do": "set", "name": "game", "value": "Bucket King"}]),
    "knock-chance": ("Panel(KnockChance('1/2'))", [{"do": "set", "name": "p", "value": "3/4"}]),
}
STEPPER = "Stepper('bucket-brigade', seed=7, bots='heuristic', seat=0)"
# The Explorer, one field and few games so it plays fast; workers=1: played in the kernel with no
# background neighbours, so its status is the logic class's in CPython (nothing else is playing).
EXPLORER_ARGS = {"game": "bucket-brigade", "field": "bonus", "values": [0, 2, 4], "bots": "heuristic,random",
                 "games": 40, "seed": 3}
EXPLORER = "Explorer(" + ", ".join(f"{k}={v!r}" for k, v in EXPLORER_ARGS.items()) + ", workers=1)"
EXPLORER_MOVE = 2  # the slider's stop the reader moves to (bonus 4)


def _played_session():
    """ExplorerSession in CPython for the same Explorer, its first value played."""
    from meeple.widgets.explorer_session import ExplorerSession

    session = ExplorerSession(**EXPLORER_ARGS)
    session.play_current()
    return session


def explorer_expected(*stops: int) -> dict:
    """The view ExplorerSession gives in CPython for the same Explorer: its first value played,
    then the slider moved to each of `stops` in turn."""
    session = _played_session()
    view = session.view()["view"]
    for index in stops:
        view = session.handle({"do": "move", "index": [index]})["view"]
    assert session.error == "", session.error
    return json.loads(json.dumps(view))


def explorer_games_error(text: str) -> str:
    """What ExplorerSession says in CPython when the reader types `text` as the games per value."""
    session = _played_session()
    session.handle({"do": "games", "games": text})
    assert session.error, f"games={text!r} was taken"
    return session.error


def explorer_charts(*stops: int) -> list[str]:
    """The charts ExplorerSession draws in CPython after the same moves (one field: the win rate,
    the measure and the paired difference from the reference value)."""
    from meeple.widgets.explorer_session import ExplorerSession

    session = ExplorerSession(**EXPLORER_ARGS)
    session.play_current()
    for index in stops:
        session.handle({"do": "move", "index": [index]})
    return sorted(session.specs())


def control(kind: str):
    """A fresh logic class for a case, made as the notebook makes it (without Jupyter)."""
    from meeple.widgets import controls as C

    make = CASES[kind][0]
    if kind == "tally":
        return C.TallyCount("Did the ender win?", yes="the ender won", no="the ender lost")
    inner = make[len("Panel("):-1]
    return eval(inner, {k: getattr(C, k) for k in C.__all__})  # noqa: S307 - our own fixed table above


def expected(kind: str, steps: int | None = None) -> dict:
    """The view CPython's logic class shows after the case's first `steps` messages (all by default)."""
    c = control(kind)
    view = c.view()
    for msg in CASES[kind][1][:steps]:
        view = c.handle(msg)
    return json.loads(json.dumps(view))


def operate(panel, msg: dict, before: dict) -> None:
    """Do with the mouse what `msg` says, on a drawn panel.js widget (a Playwright locator);
    `before` is the view it shows (which option is where)."""
    box = panel.locator(f"[data-name='{msg['name']}']")
    if msg["do"] == "press":
        box.locator("button").click()
        return
    spec = next(i for i in before["inputs"] if i["name"] == msg["name"])
    index = [o["value"] for o in spec["options"]].index(msg["value"])
    if spec["kind"] == "select":
        box.locator("select").focus()
        box.locator("select").select_option(index=index)
    elif spec["kind"] == "toggle":
        box.locator("button").nth(index).click()
    elif spec["kind"] == "range":
        # focused, then released at the value (one change event, as a drag that ends there)
        r = box.locator("input[type=range]")
        r.focus()
        r.evaluate("(el, i) => { el.value = String(i); el.dispatchEvent(new Event('input', {bubbles: true}));"
                   " el.dispatchEvent(new Event('change', {bubbles: true})); }", index)


def shown(panel) -> dict:
    """What the reader sees: the text, the table's cells and the chart's text alternative."""
    return panel.evaluate("""el => ({
        text: (el.querySelector('.meeple-panel-text') || {}).innerText || '',
        table: [...el.querySelectorAll('.meeple-panel-table tr')].map(r => [...r.children].map(c => c.innerText)),
        chart: (el.querySelector('.meeple-panel-chart') || {getAttribute: () => null}).getAttribute('aria-label'),
        error: (el.querySelector('.meeple-panel-error') || {}).innerText || '',
    })""")


def as_shown(view: dict) -> dict:
    """The same four things from a view dict (what panel.js draws from it)."""
    t = view.get("table")
    rows = ([[str(c) for c in t["columns"]]] if t and t.get("columns") else []) + (
        [[str(c) for c in r] for r in t["rows"]] if t else [])
    chart = view.get("chart")
    return {"text": view["text"].replace("**", ""), "table": rows,
            "chart": (chart.get("description") or chart.get("title")) if chart else None, "error": view["error"]}


def reader_moves(view: dict) -> list[dict]:
    """What a reader tries first on any control: another value of its first input that is not a
    button, then its first button that can be pressed (the Tally: its first button only)."""
    moves = []
    for inp in view["inputs"]:
        if inp["kind"] != "button":
            values = [o["value"] for o in inp["options"]]
            other = values[-1] if values[-1] != inp["value"] else values[0]
            moves.append({"do": "set", "name": inp["name"], "value": other})
            break
    button = next((i for i in view["inputs"] if i["kind"] == "button" and not i.get("disabled")), None)
    if button:
        moves.append({"do": "press", "name": button["name"]})
    return moves
