"""Every widget's logic behind one small contract, so any transport can carry any kind.

A *kind* is a plain class (no Jupyter import: it runs in CPython and in the
course site's Pyodide worker) with three methods:

- `from_setup(setup: dict) -> session` (a classmethod): the widget rebuilt from
  the JSON its kernel widget saved (its `setup` trait);
- `view() -> dict`: the front end's state as {trait name: JSON value}; the front
  end reads it with `model.get(trait)` and redraws on `change:<trait>`;
- `handle(msg: dict) -> dict`: one message the front end sent
  (`model.send(msg)`), answered with the new view. A refused message changes
  nothing and says why in the view. The reserved key "answer", when present,
  is not a trait: a one-off message for the front end (`msg:custom`), e.g. a
  file to download.

Register a kind with `register(name, cls)`. The transports:

- the kernel: the widget's anywidget, whose traits are `view()`'s keys and
  whose `on_msg` calls `handle` (see `explorer.Explorer`, `stepper.Stepper`);
- the site: `static/meeple-worker.js` runs `open(kind, setup)` and
  `send(id, msg)` below (JSON text in and out); `static/meeple-live.js`'s
  `meepleLive.open(kind, setup)` gives the page a model with get/on/off/send
  that the widget's own front end draws, exactly as in the kernel.

Only the standard library is imported here; each kind imports what it needs.
"""

from __future__ import annotations

import json

from meeple.widgets.controls import KINDS as CONTROL_KINDS
from meeple.widgets.controls import Control
from meeple.widgets.explorer_session import ExplorerSession
from meeple.widgets.session import StepperSession

KINDS: dict[str, type] = {}
_open: dict[int, object] = {}
_next = [1]


def register(name: str, cls: type) -> type:
    """Make `cls` openable as `name` (from_setup, view, handle: see the module's docstring)."""
    missing = [m for m in ("from_setup", "view", "handle") if not callable(getattr(cls, m, None))]
    if missing:
        raise TypeError(f"{cls.__name__} cannot be a widget kind: it lacks {', '.join(missing)}")
    KINDS[name] = cls
    return cls


def kind(name: str) -> type:
    if name not in KINDS:
        raise ValueError(f"unknown widget kind {name!r}; known kinds: {', '.join(KINDS)}")
    return KINDS[name]


def open_session(name: str, setup: dict) -> tuple[int, dict]:
    """A new session of kind `name` from its setup: (id, first view)."""
    session = kind(name).from_setup(setup)
    sid = _next[0]
    _next[0] += 1
    _open[sid] = session
    return sid, session.view()


def adopt(name: str, session) -> tuple[int, dict]:
    """A session made elsewhere (a Stepper a lesson cell made on the course site) opened as kind
    `name`: (id, view). The same object adopted twice keeps its id: the page redraws the same game."""
    for sid, known in _open.items():
        if known is session or getattr(known, "stepper", None) is getattr(session, "stepper", object()):
            return sid, known.view()
    sid = _next[0]
    _next[0] += 1
    _open[sid] = session
    return sid, session.view()


def session(sid: int):
    got = _open.get(sid) if isinstance(sid, int) and not isinstance(sid, bool) else None
    if got is None:
        raise ValueError(f"no open widget session has id {sid!r}" + (f"; open ids: {', '.join(map(str, _open))}"
                                                                     if _open else ": none is open"))
    return got


def send_message(sid: int, msg: dict) -> dict:
    """One front-end message to session `sid`: its new view."""
    return session(sid).handle(msg)


def close(sid: int) -> None:
    s = _open.pop(sid, None)
    if s is not None and callable(getattr(s, "close", None)):
        s.close()


# --- JSON text in and out: what the Pyodide worker calls -------------------------------

def open_json(name: str, setup_json: str) -> str:
    """{"id", "view"} for a new session (JSON text)."""
    sid, view = open_session(name, json.loads(setup_json))
    return json.dumps({"id": sid, "view": view})


def send_json(sid: int, msg_json: str) -> str:
    """{"view"} after one message (JSON text)."""
    return json.dumps({"view": send_message(sid, json.loads(msg_json))})


class StepperKind:
    """The Stepper's session under the contract: its traits are `view` and `error`."""

    def __init__(self, stepper: StepperSession):
        self.stepper = stepper

    @classmethod
    def from_setup(cls, setup: dict) -> "StepperKind":
        return cls(StepperSession.from_setup(setup))

    def view(self) -> dict:
        return {"view": self.stepper.view, "error": self.stepper.error}

    def handle(self, msg: dict) -> dict:
        answer = self.stepper.handle(msg)
        out = self.view()
        if answer is not None:
            out["answer"] = answer
        return out


class ControlKind:
    """A lesson control (meeple.widgets.controls: the Tally, the die editor, the sliders...) under
    the contract: its traits are `view` and `setup`, as its Panel's (panel.js draws both)."""

    control_class: type = Control

    def __init__(self, control: Control):
        self.control = control

    @classmethod
    def from_setup(cls, setup: dict) -> "ControlKind":
        return cls(cls.control_class.from_setup(setup))  # the setup's own kind is checked there

    def view(self) -> dict:
        return {"view": self.control.view(), "setup": self.control.setup()}

    def handle(self, msg: dict) -> dict:
        self.control.handle(msg)
        return self.view()


register("stepper", StepperKind)
register("explorer", ExplorerSession)
for _name, _cls in CONTROL_KINDS.items():  # each control kind opens as its own name ("die-editor", ...)
    register(_name, type(f"{_cls.__name__}Kind", (ControlKind,), {"control_class": _cls}))

__all__ = ["KINDS", "register", "kind", "open_session", "adopt", "send_message", "close", "open_json", "send_json", "StepperKind",
           "ControlKind"]
