"""A lesson's code cells run in the reader's browser (the course site's Pyodide worker).

One `Page` per lesson page holds one namespace, like a notebook's kernel:

- `prepare(above, code)`: before the reader's cell, the statements of the lesson's cells
  above it that the cell needs: walking back from the names the cell reads, every statement
  that binds (or changes, `runs.append(...)`) one of them, and what those read in turn, run
  once each, in the lesson's order. The rest (charts, prose, tables for the eye) is not run:
  the page already shows it, and the browser's Python is slower. A statement that cannot run
  in the browser (it needs altair, pandas, numpy or a widget library, which Pyodide's core
  does not have, or a name such a statement would have made) is skipped, and the names it
  would have set are remembered with the reason.
- `context(code)`: one cell of the lesson run statement by statement in the same way, whole.
- `run(code)`: the reader's cell, run whole as JupyterLab runs it: what it prints, and
  the value of a last bare expression (shown like `Out[ ]`). An error comes back as the
  last lines of its traceback; a NameError or missing module says plainly that the
  browser's Python lacks it, and which cell above would have made the name.

JSON text in and out (only strings cross between JavaScript and Python). Standard
library only: this runs where altair, pandas and numpy do not exist.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import json
import sys
import traceback

import meeple.widgets
from meeple.widgets.session import StepperSession

from . import transport

# Not in the site's Python (npm's Pyodide core has none of them), as a lesson imports them.
NOT_IN_BROWSER = ("altair", "pandas", "numpy", "IPython", "ipywidgets", "anywidget", "traitlets", "vl_convert",
                  "pyarrow", "scipy", "pyspiel", "tqdm")
OUTPUT_MAX = 20_000  # characters of printed output kept per cell (a runaway print loop stays readable)


def targets(node: ast.AST) -> set[str]:
    """The names a statement binds (assignments, imports, defs, for/with targets)."""
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            out |= {(a.asname or a.name).split(".")[0] for a in n.names if a.name != "*"}
    return out


def binds_or_changes(node: ast.AST) -> set[str]:
    """The names a statement binds, and those it changes in place: `x.append(...)`, `x[k] = v`, `x.a = v`."""
    out = targets(node)
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            base = n.func.value
            while isinstance(base, (ast.Attribute, ast.Subscript)):
                base = base.value
            if isinstance(base, ast.Name):
                out.add(base.id)
        elif isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, (ast.Store, ast.Del)):
            base = n.value
            while isinstance(base, (ast.Attribute, ast.Subscript)):
                base = base.value
            if isinstance(base, ast.Name):
                out.add(base.id)
    return out


def reads(node: ast.AST) -> set[str]:
    """The names a statement reads (`n += 1` reads n too)."""
    out = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return out | {n.target.id for n in ast.walk(node) if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)}


def _missing_module(err: BaseException) -> str | None:
    """The browser-missing module behind an ImportError, if that is what it is."""
    name = getattr(err, "name", None) or ""
    top = name.split(".")[0]
    return top if isinstance(err, ImportError) and top in NOT_IN_BROWSER else None


class Stepper(StepperSession):
    """The Stepper as the page's Python has it (no anywidget there): the same game, from the
    same arguments, shown as text; `run()` hands its setup to the page, which draws it live
    under the cell with the Stepper's own front end."""

    def __init__(self, game="bucket-brigade", config=None, seed: int = 0, bots="heuristic", seat: int | None = 0,
                 show_all: bool = False):
        super().__init__(game, config, seed, bots, seat, show_all)

    def __repr__(self) -> str:
        return self.text()


def _give_the_page_a_stepper() -> None:
    """Where anywidget is missing (the site's Pyodide), `from meeple.widgets import Stepper`
    gives the page's Stepper; where it is there, the widget stays the widget."""
    if importlib.util.find_spec("anywidget") is None:
        vars(meeple.widgets).setdefault("Stepper", Stepper)


class Page:
    """One lesson page's namespace and what could not run in it."""

    def __init__(self) -> None:
        _give_the_page_a_stepper()
        self.namespace: dict = {"__name__": "__main__", "__builtins__": __builtins__}
        self.skipped: dict[str, str] = {}  # name -> why the statement that makes it was skipped
        self.needs: dict[str, str] = {}  # name -> the browser-missing module behind its skip ("" if none)
        self.ran = 0  # context cells run so far
        self.done: set[str] = set()  # statements of the cells above already run ("cell:statement")

    def _why(self, err: BaseException) -> str:
        module = _missing_module(err)
        if module:
            return f"it needs {module}, which Python in the browser does not have"
        if isinstance(err, NameError) and getattr(err, "name", None) in self.skipped:
            return self.skipped[err.name]
        return f"{type(err).__name__}: {err}"

    def _statement(self, stmt: ast.stmt, where: str, retry: list | None = None) -> str | None:
        """Run one statement of the lesson quietly; the reason when it could not run here.
        `from m import a, b` runs name by name: `from meeple.widgets import Stepper, charts`
        still gives the page its Stepper where charts (altair) cannot come."""
        if isinstance(stmt, ast.ImportFrom) and len(stmt.names) > 1:
            whys = [self._statement(ast.ImportFrom(stmt.module, [alias], stmt.level, lineno=stmt.lineno,
                                                   col_offset=stmt.col_offset), where, retry)
                    for alias in stmt.names]
            return next((w for w in whys if w), None)
        sink = io.StringIO()  # the lesson's own prints are already on the page
        try:
            with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                exec(compile(ast.Module([stmt], []), where, "exec"), self.namespace)
        except Exception as e:  # noqa: BLE001 - a skipped statement is reported, not raised
            why = self._why(e)
            if retry is not None and isinstance(e, NameError) and e.name not in self.skipped:
                retry.append(e.name)
            for name in targets(stmt):
                self.skipped.setdefault(name, why)
                self.needs.setdefault(name, self._needs(e))
                self.namespace.pop(name, None)
            return why
        return None

    def context(self, code: str) -> str:
        """Run one of the lesson's own cells, statement by statement: {"skipped": [reasons]}."""
        self.ran += 1
        try:
            tree = ast.parse(code)
        except SyntaxError as e:
            return json.dumps({"skipped": [f"SyntaxError: {e}"]})
        skipped = [why for stmt in tree.body if (why := self._statement(stmt, f"<lesson cell {self.ran}>"))]
        return json.dumps({"skipped": skipped})

    def prepare(self, above: list[str], code: str) -> str:
        """Run what `code` needs of the cells `above` (the lesson's, in order; see the module
        docstring): {"ran": statements run now, "skipped": [reasons]}."""
        try:
            needed = reads(ast.parse(code))
        except SyntaxError:
            needed = set()  # run() will say what is wrong with the cell
        stmts = []
        for i, source in enumerate(above):
            try:
                body = ast.parse(source).body
            except SyntaxError:
                continue
            stmts += [(f"{i}:{k}", stmt) for k, stmt in enumerate(body)]
        chosen = []
        for sid, stmt in reversed(stmts):
            if binds_or_changes(stmt) & needed:
                chosen.append((sid, stmt))
                needed |= reads(stmt)
        ran, skipped = 0, []
        for sid, stmt in reversed(chosen):
            if sid in self.done:
                continue
            ran += 1
            why = self._statement(stmt, f"<lesson cell {int(sid.split(':')[0]) + 1}>", retry := [])
            if not retry:  # a statement that lacked a name may run once a later cell needs what makes it
                self.done.add(sid)
            if why:
                skipped.append(why)
        return json.dumps({"ran": ran, "skipped": skipped})

    def run(self, code: str) -> str:
        """Run the reader's cell: {"out": printed text (and the last expression's value), "error": text
        or "", "needs": the module the browser lacks that stopped it, or "", "widget": when the cell's
        value is a Stepper whose bots the browser has, {"kind", "id", "view", "setup", "text"}: the
        game opened as a widget session (runtime.transport), which the page draws live and drives
        (its text is shown only if the page cannot draw it); else null}."""
        out = io.StringIO()
        error = needs = ""
        widget = None
        try:
            tree = ast.parse(code)
            last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                exec(compile(tree, "<your cell>", "exec"), self.namespace)
                if last is not None:
                    value = eval(compile(ast.Expression(last.value), "<your cell>", "eval"), self.namespace)
                    # check(...)'s True/False: its words above already say right or wrong (as the site's pages)
                    said = isinstance(last.value, ast.Call) and getattr(last.value.func, "id", None) == "check"
                    drawn = isinstance(value, StepperSession) and value.setup()["portable"]
                    if drawn:  # the page draws this very game, live, as JupyterLab shows the widget, not text
                        sid, view = transport.adopt("stepper", transport.StepperKind(value))
                        widget = {"kind": "stepper", "id": sid, "view": view, "setup": value.setup(),
                                  "text": value.text()}
                    elif value is not None and not (said and isinstance(value, bool)):
                        print(repr(value))
        except SyntaxError as e:
            error = f"SyntaxError: {e.msg} (line {e.lineno})"
        except Exception as e:  # noqa: BLE001 - the reader's error is shown, as JupyterLab shows it
            error = self._explain(e)
            needs = self._needs(e)
        text = out.getvalue()
        if len(text) > OUTPUT_MAX:
            text = text[:OUTPUT_MAX] + f"\n... ({len(text) - OUTPUT_MAX:,} more characters not shown)"
        return json.dumps({"out": text, "error": error, "needs": needs, "widget": widget})

    def _needs(self, e: BaseException) -> str:
        """The browser-missing module behind an error: its own import, or the cell above that made a name."""
        module = _missing_module(e)
        if module:
            return module
        name = getattr(e, "name", None)
        if isinstance(e, NameError) and name in self.needs:
            return self.needs[name]
        return ""

    def _explain(self, e: BaseException) -> str:
        module = _missing_module(e)
        if module:
            return (f"{module} is not available here: Python in your browser is Pyodide's core (no {module}). "
                    "Do this part in JupyterLab (make lab), or use what meeple offers without it "
                    "(e.g. Evidence.play(...) for simulate(...) results, .records instead of .table).")
        name = getattr(e, "name", None)
        if isinstance(e, NameError) and name in self.skipped:
            return f"NameError: {name!r} is not defined here: the cell above that makes it could not run in the browser ({self.skipped[name]})."
        frames = traceback.extract_tb(e.__traceback__)
        mine = [f for f in frames if f.filename == "<your cell>"]
        where = f" (line {mine[-1].lineno} of your cell)" if mine else ""
        return f"{type(e).__name__}: {e}{where}"


_pages: dict[str, Page] = {}


def page(key: str) -> Page:
    """The Page of one lesson page (a new one the first time)."""
    if key not in _pages:
        _pages[key] = Page()
    return _pages[key]


def context(key: str, code: str) -> str:
    return page(key).context(code)


def run(key: str, code: str) -> str:
    return page(key).run(code)


def prepare(key: str, request: str) -> str:
    """`request`: JSON {"above": [the sources of the cells above, in order], "code": the reader's cell}."""
    r = json.loads(request)
    return page(key).prepare(list(r["above"]), r["code"])


def version() -> str:
    return sys.version.split()[0]
