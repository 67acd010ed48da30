"""Ctrl-C and SIGTERM at the moments that used to hang or lose work (issue 33).

Each moment is made to last with MEEPLE_TEST_STALL (rules/files.py: STALL): the command says
`meeple-test: stalled at WHERE` on stderr and waits there; the test waits for that line (a
condition, never a clock) and then sends its signal. The bounds below (30 s) only stop a hung
test; a working command ends within a second or two.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from harness import MEEPLE, alive, children, needs_proc, wait_for

BB = "bucket-brigade"
# 4 chunks of 250 games a worker: each worker sends one result, then stalls half-way through its second
SIMULATE = ["simulate", BB, "--bots", "heuristic", "--games", "2000", "--workers", "2", "--seed", "3"]
COMPARE = ["compare", BB, "--variant", "base:", "--variant", "big:bonus=6", "--bots", "heuristic", "--games", "1000",
           "--workers", "2"]


def _as_a_terminal_gives() -> None:
    """In the child, before exec: Ctrl-C and SIGTERM do what they do in a terminal's foreground job
    (a test run as a background job, `pytest &`, would hand down an ignored Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Command:
    """`meeple ARGV` in its own process group (a terminal's job), stderr read line by line as it comes."""

    def __init__(self, argv, stall: str, cwd):
        env = {**os.environ, "MEEPLE_TEST_STALL": stall}
        self.proc = subprocess.Popen(MEEPLE + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=env, cwd=cwd, start_new_session=True, preexec_fn=_as_a_terminal_gives)
        self.lines: queue.Queue = queue.Queue()
        self.err: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.workers: set[int] = set()

    def _read(self):
        for line in self.proc.stderr:
            self.lines.put(line)

    def wait_line(self, text: str, seconds: float = 120) -> None:
        """Wait until stderr has said `text` (AssertionError after `seconds`, a bound for a broken run)."""
        deadline = time.monotonic() + seconds
        while not any(text in line for line in self.err):
            try:
                self.err.append(self.lines.get(timeout=max(0.01, deadline - time.monotonic())))
            except queue.Empty:
                raise AssertionError(f"stderr never said {text!r}: {''.join(self.err)}") from None
        self.workers |= children(self.proc.pid)

    def signal(self, sig, group: bool = True) -> float:
        if group:  # what Ctrl-C in a terminal does: the whole foreground group
            os.killpg(self.proc.pid, sig)
        else:  # what `timeout` or a scheduler does: the command alone
            self.proc.send_signal(sig)
        return time.monotonic()

    def end(self, since: float) -> tuple[int, str, str, float]:
        """(exit status, stdout, all of stderr, seconds from `since` to the exit)."""
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running 30 s after the signal: {''.join(self.err)}") from None
        took = time.monotonic() - since
        out = self.proc.stdout.read()
        self.reader.join(10)  # stderr's end has come: the reader has queued every line
        while not self.lines.empty():
            self.err.append(self.lines.get())
        return self.proc.returncode, out, "".join(self.err), took

    def cleanup(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for w in self.workers:
            if alive(w):
                os.kill(w, signal.SIGKILL)


def _status(pid: int) -> dict[str, str]:
    return dict(line.split(":\t", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":\t" in line)


def _quiet(err: str) -> None:
    assert "Traceback" not in err and "Exception in initializer" not in err and "KeyboardInterrupt" not in err, err


@needs_proc
def test_ctrl_c_as_the_pool_forks_its_workers_ends_at_once_without_a_traceback(tmp_path):
    """The pool-start window: a worker is forked but not set up (it does not ignore Ctrl-C yet)
    when Ctrl-C reaches the whole group. It used to raise KeyboardInterrupt inside the worker
    ("Exception in initializer" and a traceback) and break the pool."""
    cmd = Command(SIMULATE, "worker-start", tmp_path)
    try:
        cmd.wait_line("stalled at worker-start")
        workers = wait_for(lambda: children(cmd.proc.pid), 60, "a worker is forked")
        for w in workers:  # SIGINT (bit 1 << 1) blocked since the fork: it cannot raise inside the worker
            mask = int(_status(w)["SigBlk"], 16) | int(_status(w)["SigIgn"], 16)
            assert mask & (1 << (signal.SIGINT - 1)), f"worker {w} can be interrupted before its set-up"
        code, out, err, _ = cmd.end(cmd.signal(signal.SIGINT))
        assert code == 130 and "meeple: interrupted" in err, (code, err)
        _quiet(err)
        wait_for(lambda: not any(alive(w) for w in cmd.workers), 10, "the workers end")
    finally:
        cmd.cleanup()


@needs_proc
@pytest.mark.parametrize("argv", [SIMULATE, COMPARE], ids=["simulate", "compare"])
def test_ctrl_c_while_a_worker_sends_a_result_ends_and_prints_what_finished(argv, tmp_path):
    """A worker stopped half-way through sending a result: the pool's reader thread waited for
    the rest of the message for ever, and the command hung after "meeple: interrupted"."""
    cmd = Command(argv, "send", tmp_path)
    try:
        cmd.wait_line("stalled at send")
        code, out, err, _ = cmd.end(cmd.signal(signal.SIGINT))
        assert code == 130, (code, err)
        assert "meeple: interrupted: results of the" in err and "finished games" in err, err
        assert out.strip(), "the finished games' summary is printed"
        _quiet(err)
    finally:
        cmd.cleanup()


@needs_proc
@pytest.mark.parametrize("second", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_second_signal_while_the_partial_file_is_written_ends_at_once_and_leaves_no_temp_file(second, tmp_path):
    """The first Ctrl-C stops the run; the command then writes the partial table. A second signal
    there ends the process at once and quietly, and the half-staged temp file is removed."""
    cmd = Command(SIMULATE + ["--out", "runs.csv"], "send,write", tmp_path)
    try:
        cmd.wait_line("stalled at send")
        cmd.signal(signal.SIGINT)
        cmd.wait_line("stalled at write", 30)
        code, _, err, _ = cmd.end(cmd.signal(second))
        assert code == 128 + second, (code, err)
        _quiet(err)
        assert sorted(p.name for p in tmp_path.iterdir()) == [], "no table and no .meeple.*.tmp"
    finally:
        cmd.cleanup()


@needs_proc
def test_sigterm_saves_the_marked_partial_table_removes_the_temp_file_and_exits_143(tmp_path):
    """SIGTERM (a scheduler's time limit, `timeout`) is handled as Ctrl-C: the finished games are
    printed and saved, marked partial, and the exit status is 143. It used to discard them."""
    cmd = Command(SIMULATE + ["--out", "runs.csv"], "send", tmp_path)
    try:
        cmd.wait_line("stalled at send")
        code, out, err, _ = cmd.end(cmd.signal(signal.SIGTERM, group=False))
        assert code == 143, (code, err)
        _quiet(err)
        assert "results of the" in err and "saved to runs.csv (partial:" in out, (out, err)
        assert [p.name for p in tmp_path.iterdir()] == ["runs.csv"]
        assert (tmp_path / "runs.csv").read_text().startswith("# partial: ")
    finally:
        cmd.cleanup()


@needs_proc
def test_sigterm_while_the_table_is_written_removes_the_temp_file_and_exits_143(tmp_path):
    """SIGTERM while the table is staged: nothing half-written is left (the temp file used to stay)."""
    cmd = Command(["simulate", BB, "--games", "20", "--workers", "1", "--out", "runs.csv"], "write", tmp_path)
    try:
        cmd.wait_line("stalled at write")
        code, _, err, _ = cmd.end(cmd.signal(signal.SIGTERM, group=False))
        assert code == 143, (code, err)
        _quiet(err)
        assert list(tmp_path.iterdir()) == []
    finally:
        cmd.cleanup()
