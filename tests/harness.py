"""What several test modules share, in one place with public names:

- `run` / `one_line_error`: `meeple` run in-process, and the shape of its one-line errors
  (exit 2, one line on stderr naming what is wrong, no traceback);
- `stop_after`: a Ctrl-C (KeyboardInterrupt) once a run has finished n games;
- `MEEPLE`: the command line that starts `meeple` in a process of its own;
- `notebook`: a small lesson notebook, for the scrub and file-mode tests;
- `new_class`: `meeple class new` for a roster, for the grading tests of both tiers;
- `needs_proc`, `children`, `alive`, `cpu_ticks`, `wait_for`: child processes read from
  Linux /proc, for the tests that end a run and check that its worker processes end too;
- `run_without_jupyter`: a Python snippet run in a fresh process where altair, pandas, numpy
  and the Jupyter packages cannot be imported (as in Pyodide, which has none of them);
- `vega_reads`: the rows Vega makes of a chart's inline data (the site build writes CSV), for the
  site build's fast test and the browser test that reads the site's charts.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from meeple.rules.cli import main
from meeple.rules.sim import runner

MEEPLE = [sys.executable, "-m", "meeple.rules.cli"]
"""`meeple` as a process of its own (the console script's module, on this interpreter)."""


NOT_IN_PYODIDE = ("altair", "pandas", "numpy", "ipywidgets", "anywidget", "traitlets", "IPython")
"""Packages the site's Pyodide worker does not have: what plays there must import without them."""


def run_without_jupyter(code: str, timeout: float = 120) -> str:
    """stdout of `code` run by this interpreter in a fresh process where every NOT_IN_PYODIDE
    import fails; the process must exit 0 (else the assertion shows its stderr)."""
    block = f"import sys\nfor name in {NOT_IN_PYODIDE!r}:\n    sys.modules[name] = None  # any import of it now fails\n"
    done = subprocess.run([sys.executable, "-c", block + code], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout


def run(capsys, *argv):
    """(exit code, stdout, stderr) of `meeple *argv`, read through pytest's capsys."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, out, err, message):
    """Assert a refusal: exit 2, nothing on stdout, one `meeple: error:` line containing `message`."""
    assert code == 2 and out == "", (code, out, err)
    assert err.count("\n") == 1 and err.startswith("meeple: error:") and "Traceback" not in err, err
    assert message in err, err


def stop_after(monkeypatch, n: int):
    """The runner's play_game raises KeyboardInterrupt (a Ctrl-C) once n games have finished."""
    real, calls = runner.play_game, {"n": 0}

    def play_game(*a, **k):
        if calls["n"] >= n:
            raise KeyboardInterrupt
        calls["n"] += 1
        return real(*a, **k)

    monkeypatch.setattr(runner, "play_game", play_game)


def notebook(cells=None) -> dict:
    """A notebook's JSON: `cells`, or a markdown cell and one code cell tagged "solution"."""
    cells = cells if cells is not None else [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Lesson"]},
        {"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": "x = 1", "outputs": [], "execution_count": 1},
    ]
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def new_class(folder: Path, students: "list[str]") -> Path:
    """`meeple class new` in `folder` for `students` (a roster.csv with an email each): the key file's path."""
    from meeple.course import classroom

    roster = folder / "roster.csv"
    roster.write_text("id,email\n" + "".join(f"{s},{i}@school.example\n" for i, s in enumerate(students)), encoding="utf-8")
    assert main(["class", "new", str(roster), str(folder / "class")]) == 0
    return folder / "class" / classroom.KEY_FILE


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads child processes from Linux /proc")
"""Mark a test that reads child processes from /proc (Linux only)."""


def children(pid: int) -> set[int]:
    """The process ids of `pid`'s children (every thread's)."""
    kids = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids |= {int(k) for k in (task / "children").read_text().split()}
        except OSError:
            pass
    return kids


def alive(pid: int) -> bool:
    """True while `pid` runs: a zombie has ended (only its exit status waits to be read)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def cpu_ticks(pid: int) -> int:
    """`pid`'s CPU time so far in clock ticks (user + system); 0 once it has gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])  # utime + stime


def wait_for(condition, seconds: float, what: str):
    """`condition()`'s first true value, looked at every 0.05 s; AssertionError naming `what`
    after `seconds` (a generous bound: the test waits on the condition, not on a clock)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds} s: {what}")


def close_shell(shell) -> None:
    """End an in-process IPython shell now, as its exit would (its history thread stopped, its
    database closed, its namespace let go), and take back its exit hook: each shell a test made
    otherwise runs `reset()` at interpreter exit, a full gc.collect() on the suite's whole heap, and
    70 of them kept `make test`'s process busy for minutes after its last test."""
    import atexit

    atexit.unregister(shell.atexit_operations)
    shell._atexit_once_called = True
    if shell.history_manager is not None:
        shell.history_manager.end_session()
        shell.history_manager.close()
        shell.history_manager = None
    shell.user_ns.clear()
    shell.user_ns_hidden.clear()


def vega_reads(data: dict) -> list[dict]:
    """The rows Vega makes of a data set's inline `values` (vega-loader: d3's csvParse, then each field
    of format.parse by its typeParser, "" and null read as null), for CSV text or a list of rows."""
    import csv
    import io

    if not isinstance(data["values"], str):
        return data["values"]
    assert data["format"]["type"] == "csv" and set(data["format"]) <= {"type", "parse"}
    rows = list(csv.DictReader(io.StringIO(data["values"], newline="")))
    readers = {"number": lambda v: None if v == "" else json.loads(v),  # +"0.25", +"1e-05": as JSON reads them
               "boolean": lambda v: None if v == "" else {"true": True, "false": False}[v],
               "string": lambda v: None if v == "" else v}
    for field, kind in data["format"].get("parse", {}).items():
        for r in rows:
            r[field] = readers[kind](r[field])
    return rows
