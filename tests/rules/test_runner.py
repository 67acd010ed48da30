"""The runner (rules/sim/runner.py): its contract with an executor (the module's docstring),
which the Explorer's background runs (widgets/prefetch.py) rely on; the probe that decides
whether a run stays in this process, at any speed; worker processes, never more than the
games, that end with the main process and on Ctrl-C; a pool made afresh after one was killed.

Where the clock decides something, it is patched (`JumpingClock`), and the parent watch runs
with `sleep` doing nothing: none of these tests depends on how busy the machine is.
"""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Executor, Future
from contextlib import contextmanager

import pytest

from harness import MEEPLE, alive, children, cpu_ticks, needs_proc, wait_for
from meeple.rules import GAMES, sweep
from meeple.rules import sim as SIM
from meeple.rules.sim import runner

BB = "bucket-brigade"


class Stop(BaseException):
    """What a queuing executor raises at a run's first wait."""


class Recording(Executor):
    """Records each call; every future fails with Stop (nothing is played)."""

    def __init__(self, slots: int):
        self._max_workers = slots  # what executor_slots reads, as of a concurrent.futures pool
        self.calls: list = []

    def submit(self, fn, /, *args, **kwargs) -> Future:
        self.calls.append((fn, args, tuple(sorted(kwargs.items()))))
        f: Future = Future()
        f.set_exception(Stop())
        return f


def _queued(slots: int) -> list:
    ex = Recording(slots)
    with pytest.raises(Stop):  # the exception of the first wait comes out unchanged
        sweep("bucket-brigade", None, {"bonus": [0, 6]}, "random", games=40, seed=3, executor=ex, progress=False)
    return ex.calls


def test_a_run_submits_every_chunk_before_it_waits_and_plays_nothing_here(monkeypatch):
    monkeypatch.setattr(runner, "play_game", lambda *a, **k: pytest.fail("a game was played in this process"))
    calls = _queued(2)
    firsts = sorted((args[4], args[5]) for fn, args, _ in calls if args[1].bonus == 0)
    assert all(fn is runner.play_chunk for fn, _, _ in calls)
    assert firsts == runner.chunks(40, 2) and firsts[0][0] == 0 and firsts[-1][1] == 40  # every game, once
    assert len(calls) == 2 * len(firsts)  # both points


def test_the_same_run_on_an_executor_of_the_same_size_makes_the_same_hashable_calls():
    first, again = _queued(4), _queued(4)
    assert first == again and len({hash(c) for c in first}) == len(first)
    assert runner.executor_slots(Recording(4)) == 4
    assert _queued(1) != first  # the slots size the chunks


# --- the probe: stay in this process or go to the pool, at any speed ----------------------

class JumpingClock:
    """perf_counter that moves only when read: by `steps[k]` seconds at the k-th read (the last step repeats)."""

    def __init__(self, *steps: float):
        self.now, self.steps, self.reads = 1000.0, list(steps), 0

    def __call__(self) -> float:
        step = self.steps[min(self.reads, len(self.steps) - 1)]
        self.reads += 1
        self.now += step
        return self.now


def _job(games: int, bots="random"):
    mod = GAMES[BB]
    config = mod.Config()
    return runner.Job(0, mod, config, runner.bot_refs(mod, bots, config.players), 1, games, False)


@pytest.mark.parametrize(
    "steps, here, played",
    [
        ((0.0, 1.0), False, 0),        # time is up before the first game: the "no game yet" path
        ((0.0, 0.0, 1.0), False, 1),   # one game in a second: the rest would take long, a pool pays
        ((0.0,), True, 40),            # a clock that stands still: all here (the rest "takes no time")
        ((0, 0, .01, .01, .01, .01, .01, 0), True, 40),  # 5 games in 50 ms: 35 more take 0.35 s < 0.4 s: here
    ],
    ids=["no-game-yet", "one-slow-game", "clock-stands-still", "fast-enough"],
)
def test_the_probe_decides_without_dividing_by_zero_at_any_speed(monkeypatch, steps, here, played):
    clock = JumpingClock(*steps)
    monkeypatch.setattr(runner.time, "perf_counter", clock)
    job = _job(40)
    out, start = {0: []}, {0: 0}
    assert runner.short_run([job], out, start, runner.NoBar(), 40) is here
    assert start[0] == len(out[0]) == played


def test_a_run_whose_probe_sees_no_game_gives_the_same_table(monkeypatch):
    """The clock jumps a second at every read (a machine made very slow): `simulate` without
    `workers` used to raise ZeroDivisionError; now the pool plays it, and the table is the
    one a single process gives."""
    alone = SIM.simulate(BB, None, "random", games=12, seed=5, workers=1, progress=False).table
    clock = JumpingClock(1.0)
    monkeypatch.setattr(runner.time, "perf_counter", clock)
    slow = SIM.simulate(BB, None, "random", games=12, seed=5, progress=False).table
    assert clock.reads >= 1 and slow.equals(alone)


# --- worker processes: never more than the games, never outliving the main process -------

def test_workers_never_outnumber_the_games(monkeypatch):
    started = []
    real = runner.ProcessPoolExecutor

    def counting(max_workers=None, **kw):
        started.append(max_workers)
        return real(max_workers, **kw)

    monkeypatch.setattr(runner, "ProcessPoolExecutor", counting)
    runner.drop_pool()  # the pool earlier tests left for reuse: this run must start its own
    res = SIM.simulate(BB, None, "random", games=2, seed=1, workers=8, progress=False)
    assert res.completed == 2 and started and max(started) <= 2
    with pytest.raises(ValueError, match="workers must be a whole number from 1 to 64"):
        SIM.simulate(BB, None, "random", games=2, seed=1, workers=512, progress=False)


def test_the_parent_watch_ends_a_worker_by_the_parent_id_not_by_time(tmp_path):
    """The watch sleeps between looks; with sleep doing nothing the worker still ends
    exactly when its parent is gone (and not before)."""
    script = (
        "import os, time, threading\n"
        "from meeple.rules.sim import runner as SIM\n"
        "parent = os.getppid(); looks = [0]\n"
        "def ppid():\n"
        "    looks[0] += 1\n"
        "    return parent if looks[0] < 50 else 1\n"  # the parent 'goes' at the 50th look
        "SIM.os.getppid = ppid\n"
        "SIM.time.sleep = lambda s: None\n"
        "SIM.worker_init(parent, False)\n"
        "while True: threading.Event().wait(0.01)\n"  # the watch thread must end the process
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr


# the pool is made in a thread that is not the main one: no PDEATHSIG, so the parent watch must do it
IN_A_THREAD = (
    "import threading; from meeple.rules import simulate; "
    "t = threading.Thread(target=simulate, args=('bucket-brigade', None, 'random', 1_000_000, 1), "
    "kwargs={'workers': 2, 'progress': False}); t.start(); t.join()"
)


def _signals_default() -> None:
    """In the child, before exec: SIGHUP and SIGTERM do what they do by default (end the process)."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@needs_proc
@pytest.mark.parametrize(
    "sig, argv",
    [(signal.SIGTERM, None), (signal.SIGHUP, None), (signal.SIGKILL, None), (signal.SIGKILL, IN_A_THREAD)],
    ids=["SIGTERM", "SIGHUP", "SIGKILL", "SIGKILL-pool-made-in-a-thread"],
)
def test_property_workers_never_outlive_the_main_process(sig, argv):
    """However the main process ends (what a kernel restart or a closed terminal does),
    its worker processes end too, within a couple of seconds."""
    cmd = MEEPLE + ["simulate", BB, "--games", "1000000", "--workers", "2"] if argv is None else [sys.executable, "-c", argv]
    # the signal's default action, as a terminal's shell gives it: a run under nohup (or a CI runner
    # that ignores SIGHUP) hands its ignored SIGHUP down, and `meeple` then rightly keeps going
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_signals_default)
    workers: set[int] = set()
    try:
        workers = wait_for(lambda: len(children(proc.pid)) >= 2 and children(proc.pid), 60, "two workers start")
        # no pause here: a worker signalled before its set-up ends at set-up (the initializer is
        # given the parent's id, so it sees the orphaning), which is the case this must cover too
        proc.send_signal(sig)
        proc.wait(timeout=30)
        wait_for(lambda: not any(alive(w) for w in workers), 10, f"workers {sorted(workers)} end after {sig.name}")
    finally:  # a failing run must not leave orphans behind: end them by the ids seen
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for w in workers | children(proc.pid):
            if alive(w):
                os.kill(w, signal.SIGKILL)


# --- Ctrl-C stops the running chunks; the next run gets a working pool ----------------------

@needs_proc
@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", BB, "--bots", "lookahead", "--games", "1000", "--workers", "2"],
        ["tune", BB, "--field", "bonus", "--measure", "ender_win_rate", "--target", "0.5", "--values", "2..8",
         "--bisect", "--games", "1000", "--bots", "lookahead", "--workers", "2"],
    ],
    ids=["simulate", "tune-bisect"],
)
def test_ctrl_c_stops_the_running_chunks_and_leaves_no_worker(argv):
    """Each worker is inside a chunk of 125 lookahead games (minutes of CPU) when Ctrl-C comes:
    the command ends with 130 and "interrupted", and no worker is left. Killing, not waiting, is
    judged by CPU time, which a loaded machine does not stretch: after the signal each worker
    spends at most 3 s of CPU (finishing its chunk would take minutes). The 300 s bound on the
    command's end only keeps a broken run from hanging the suite (a 30 s wall-clock bound once
    failed at load 12)."""
    proc = subprocess.Popen(MEEPLE + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # its own process group, as a terminal's job
    workers: set[int] = set()
    try:
        workers = wait_for(lambda: len(children(proc.pid)) >= 2 and children(proc.pid), 120, "two workers start")
        # both are playing (they have used CPU beyond their start-up): the chunks are running
        wait_for(lambda: all(cpu_ticks(w) > 150 for w in workers), 120, "both workers play")
        at_signal = {w: cpu_ticks(w) for w in workers}
        spent = dict.fromkeys(workers, 0)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole group
        out: list = []
        reader = threading.Thread(target=lambda: out.append(proc.communicate()), daemon=True)
        reader.start()
        deadline = time.monotonic() + 300
        while reader.is_alive() and time.monotonic() < deadline:
            for w in workers:  # the last CPU count seen while it lived (0 once it has gone)
                spent[w] = max(spent[w], cpu_ticks(w) - at_signal[w])
            reader.join(0.05)
        if reader.is_alive():
            raise AssertionError("the command was still running 300 s after Ctrl-C")
        _, err = out[0]
        hz = os.sysconf("SC_CLK_TCK")
        assert all(t <= 3 * hz for t in spent.values()), f"CPU s after Ctrl-C per worker: {[t / hz for t in spent.values()]}"
        assert proc.returncode == 130, (proc.returncode, err)
        assert "interrupted" in err and "Traceback" not in err, err
        wait_for(lambda: not any(alive(w) for w in workers), 10, f"workers {sorted(workers)} end")
    finally:  # a failing run must not leave orphans behind: end them by the ids seen
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for w in workers:
            if alive(w):
                os.kill(w, signal.SIGKILL)


def test_the_commands_the_tests_start_take_ctrl_c_as_in_a_terminal():
    """The Ctrl-C tests above mean something only if the commands they start take SIGINT: a
    background job of a shell (`make test`'s fast tier) starts with it ignored, which every child
    inherits (tests/conftest.py gives Python's default back)."""
    out = subprocess.run([sys.executable, "-c", "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True", "a command started by the tests ignores Ctrl-C"


def test_an_interrupted_pool_is_made_afresh_for_the_next_run():
    """After a Ctrl-C killed the shared pool's workers, the next run (and the Explorer's
    background, which asks shared_pool at each submit) gets a working pool."""
    pool = runner.shared_pool(2)
    pool.submit(int, "1").result()
    runner.drop_pool(wait=False, kill=True)
    assert runner.current_pool() is None
    res = SIM.simulate(BB, None, "random", games=8, seed=2, workers=2, progress=False)
    assert res.completed == 8 and runner.current_pool() is not pool


# --- the cyclic GC paused while a batch plays (runner.gc_paused, issue 35) -------------------------

def _bad_bot(observation, legal, rng):
    return "not a move"


@pytest.mark.parametrize("enabled", [True, False])
def test_gc_state_is_restored_after_a_run_and_after_a_failing_one(enabled):
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        SIM.simulate(BB, None, "random", 3, 1, progress=False, workers=1)
        assert gc.isenabled() is enabled
        SIM.play_chunk("meeple.rules.piggyback_brigade", GAMES["piggyback-brigade"].Config(), ("random",) * 4,
                       1, 0, 3, False)
        assert gc.isenabled() is enabled
        with pytest.raises(ValueError, match="not legal"):
            SIM.simulate(BB, None, [_bad_bot] * 4, 2, 1, progress=False, workers=1)
        assert gc.isenabled() is enabled
        SIM.simulate(BB, None, "random", 8, 1, progress=False, workers=2)  # the games come back to this process
        assert gc.isenabled() is enabled
        with runner.gc_paused():
            with runner.gc_paused():  # nested (another thread's batch): the outer one restores
                assert not gc.isenabled()
            assert not gc.isenabled()
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_the_package_games_leave_no_cyclic_garbage():
    """Why pausing the GC is safe for the package's own games: none of them makes a reference
    cycle that dies (so nothing waits for the collector while it is paused)."""
    for name in GAMES:
        for bots in ("random", "heuristic"):
            SIM.simulate(name, None, bots, 2, 0, progress=False, workers=1, keep="summary")  # warm caches
            gc.collect()
            gc.disable()
            try:
                SIM.simulate(name, None, bots, 20, 3, progress=False, workers=1, keep="summary")
                assert gc.collect() == 0, (name, bots)
            finally:
                gc.enable()


@contextmanager
def _gc_passes():
    """The generation of every collection that starts inside the block, in order."""
    passes = []

    def seen(phase, info):
        if phase == "start":
            passes.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        yield passes
    finally:
        gc.callbacks.remove(seen)


def test_a_paused_run_still_collects_every_gc_every_games(monkeypatch):
    monkeypatch.setattr(runner, "GC_EVERY", 5)
    with _gc_passes() as passes:
        SIM.simulate("piggyback-brigade", None, "random", 20, 1, progress=False, workers=1, keep="summary")
    assert passes.count(1) == 4 and 0 not in passes and 2 not in passes


def test_a_chunk_come_back_collects_when_it_crosses_a_gc_every(monkeypatch):
    monkeypatch.setattr(runner, "GC_EVERY", 5)
    with _gc_passes() as passes, runner.gc_paused() as tick:
        tick(3, 4)  # games 0-3: no multiple of 5 reached
        tick(6, 3)  # games 4-6: the 5th game is among them
        tick(8, 2)
        tick(9, 1)  # the 10th
    assert passes.count(1) == (2 if gc.isenabled() else 0)
