"""Child processes read from Linux /proc, for the tests that Ctrl-C a run and check that its
worker processes end (test_edges.py, test_sound.py): one copy of the harness for both."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

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
