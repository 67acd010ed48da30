"""Running many games: jobs, chunks, process pools and progress. The contract that
`simulate`, `sweep`, `compare`, `tune` (rules/workbench.py), the site's worker
(widgets/live.py, through `bot_refs` and `play_game`) and the Explorer's background
runs (widgets/prefetch.py) build on.

A run is a list of `Job`s (which game, rules, bots, seed, how many games); `run(jobs,
executor, workers, progress, desc)` plays them all and returns ({job key: [GameResult]
sorted by index, or the RunningTotals of a keep="summary" job}, interrupted). Work is split into
chunks of game indices (`chunks`), each one call `play_chunk(game module name, config,
bots, seed, first, stop, rotate, keep)`: a pure function of its arguments (the same call
gives the same games), so the table is the same whoever plays which chunk.

What an executor handed to `run` may rely on (widgets/prefetch.py does):
- `run` sizes the chunks from `executor_slots(executor)`: a concurrent.futures pool's
  `_max_workers` (the attribute a Prefetch sets), else a dask client's thread count, else 8.
  The same jobs on an executor of the same size make the very same `play_chunk` calls,
  with hashable arguments (a game module's name, a frozen Config, bot names), so an
  executor may hand a later run the future of an identical earlier call.
- `run` submits every chunk before it waits for any (then takes them as they finish), and
  with an executor given it never plays a game in this process. So an executor can queue a
  whole run and stop it at its first wait: an exception that is not a KeyboardInterrupt,
  raised by a future's result(), cancels the futures of this run and propagates unchanged.
- A KeyboardInterrupt stops the run and keeps every finished chunk (interrupted=True).

Without an executor, `run` plays in this process (workers=1, or a run too short to pay
for a pool: it plays here first for a moment and measures) or on `shared_pool`, one local
process pool for the life of this process whose workers ignore Ctrl-C and die with it.
"""

from __future__ import annotations

import atexit
import ctypes
import gc
import importlib
import math
import os
import pickle
import signal
import struct
import sys
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from multiprocessing import connection  # concurrent.futures' process pool loads it anyway
from types import ModuleType
from typing import Any, NamedTuple

from ..core import check_bots_arg, resolve_bots, split_bots
from ..files import STALL, stalled
from ..protocol import check_whole, resolve_config
from ..registry import game_module
from .play import GameResult, play_game
from .tally import RunningTotals


MAX_GAMES = 10_000_000
"""The most games one run may ask for."""

MAX_WORKERS = 64  # each is a Python interpreter, ~20 MB
"""The most local worker processes a run may ask for."""

MAX_CHUNK = 250
"""The most games in one chunk call: a Ctrl-C loses at most one chunk per worker."""


# Without an executor and without `workers`, a run first plays in this process for up to
# _PROBE seconds and stays here when the rest would take under _POOL_PAYS seconds: handing
# games to worker processes costs pickling and a start-up that a short run never earns back.
_PROBE, _POOL_PAYS = 0.05, 0.4


def check_games(games) -> int:
    """`games` if it is a whole number from 1 to MAX_GAMES, else a ValueError naming the range."""
    return check_whole(games, "games", 1, MAX_GAMES)


def check_workers(workers) -> int | None:
    """`workers` if it is None (choose for me) or a whole number from 1 to MAX_WORKERS, else a ValueError."""
    if workers is None:
        return None
    return check_whole(workers, "workers", 1, MAX_WORKERS)


def setup(game, config, bots):
    """(game module, this game's Config, bot_refs) for a run, every argument checked before any game."""
    mod = game_module(game)
    config = resolve_config(mod, config, "config must be", files=True)
    return mod, config, bot_refs(mod, bots, config.players)


def bot_refs(mod, bots, players: int) -> tuple:
    """Bots as names where the game knows them (so worker processes can look
    them up), else the callables themselves; checked against `players`."""
    if isinstance(bots, str):
        bots = split_bots(mod, bots)
    check_bots_arg(mod, bots)
    known = {id(f): name for name, f in mod.BOTS.items()}
    refs = tuple(known.get(id(b), b) if callable(b) else b for b in bots)
    resolve_bots(mod, refs, players)  # raises ValueError on unknown bots or a wrong count
    return refs


def load_game(ref: str | ModuleType) -> ModuleType:
    """A game module from its module name (what a chunk call carries to a worker process)."""
    if isinstance(ref, ModuleType):
        return ref
    return sys.modules.get(ref) or importlib.import_module(ref)


GC_EVERY = 1000
"""While a batch plays, the cyclic garbage collector runs once every this many games (see gc_paused)."""

_GC_LOCK = threading.Lock()
_GC_STATE = [0, False]  # batches playing now (any thread), and whether the GC was on when the first began


class gc_paused:
    """`with gc_paused() as tick:` plays a batch of games with Python's automatic cyclic garbage
    collection off, and `tick(i)` after game i collects the young generations every GC_EVERY games.

    No game of the package leaves cyclic garbage (tests/rules/test_runner.py checks it), but every
    game makes thousands of container objects, and the collector walked the young ones every 700
    allocations and every kept GameResult again in the older generations: 2-4 us a game in a run of
    1,000, 18-37 us in a run of 20,000 that keeps its games (Bucket King, Duck; issue 35). A user's bot
    that makes cycles still has them freed: by the tick (a cycle alive at a tick waits for the
    collector's next run after the batch). A run on worker processes pauses it in this process too,
    while their games come back (unpickled here: a run of 20,000 Bucket King games on 2 workers,
    16 -> 5 us a game of this process's CPU). The collector's state is restored when the last batch
    playing ends (threads share it: a count), however it ends; a GC a user turned off stays off, and
    then nothing is collected here."""

    def __enter__(self):
        with _GC_LOCK:
            if not _GC_STATE[0]:
                _GC_STATE[1] = gc.isenabled()
                gc.disable()
            _GC_STATE[0] += 1
        return self.tick

    def __exit__(self, *exc):
        with _GC_LOCK:
            _GC_STATE[0] -= 1
            if not _GC_STATE[0] and _GC_STATE[1]:
                gc.enable()

    @staticmethod
    def tick(i: int, k: int = 1) -> None:
        """After game i of a run (or the k games up to i, a chunk come back from a worker): every
        GC_EVERY games, collect the young generations (the GC paused, and on when the first batch began)."""
        if (i + 1) // GC_EVERY != (i + 1 - k) // GC_EVERY and _GC_STATE[1]:
            gc.collect(1)


_IN_WORKER = [False, 0]  # (a pool's worker process, the chunks it began): for the STALL moment "chunk"


def play_chunk(game_ref: str, config, bots, seed: int, start: int, stop: int, rotate: bool,
               keep: str = "games", design: bool = False) -> "list[GameResult] | RunningTotals":
    """Games start..stop-1 of a run (what a worker process is sent); with keep="summary"
    their running totals (a RunningTotals: a few KiB however many games), not the games.
    `design`: each game's design measures too (rules/sim/design.py; only when asked for).
    The cyclic GC is paused meanwhile (gc_paused)."""
    if _IN_WORKER[0]:
        _IN_WORKER[1] += 1
        if _IN_WORKER[1] > 1:  # the signal tests' window: a worker's first chunk comes back, the next never does
            stalled("chunk")
    mod = load_game(game_ref)
    names, funcs = resolve_bots(mod, bots, config.players)
    tally = RunningTotals(config.players) if keep == "summary" else None
    played: list[GameResult] = []
    add = tally.append if tally is not None else played.append
    with gc_paused() as tick:
        for i in range(start, stop):
            add(play_game(mod, config, names, funcs, seed, i, rotate, design))
            tick(i)
    return tally if tally is not None else played


def default_workers() -> int:
    """The cores this process may use: the local pool's size when a run does not say."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def executor_slots(executor: Executor) -> int:
    """How many tasks an executor runs at once (sizes the chunks); a guess if it will not say."""
    slots = getattr(executor, "_max_workers", None)  # concurrent.futures pools
    if slots is None:
        try:  # a dask.distributed ClientExecutor
            slots = sum(executor._client.nthreads().values())
        except Exception:  # noqa: BLE001 - any other executor: assume a handful
            slots = 8
    return max(1, int(slots))


def worker_init(parent: int, same_thread: bool) -> None:
    """Set up a worker process: it leaves Ctrl-C to the main process (which keeps
    what is done) and dies with it, however the main process ends (SIGTERM,
    SIGHUP, SIGKILL: nothing of ours can run then, so the worker must notice).

    Linux: the kernel sends SIGKILL when the parent goes (PR_SET_PDEATHSIG). It
    fires when the *thread* that forked the worker ends, so it is set only when
    that thread is the main thread (`same_thread`); everywhere, a watcher thread
    also polls the parent id and ends the worker within a second of an orphaning.
    """
    stalled("worker-start")  # the signal tests' window: a worker forked, not yet set up
    _IN_WORKER[0] = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the `meeple` command's handler, copied by the fork
    _unblock(*HELD)  # blocked since the fork (_held): a Ctrl-C that came meanwhile is dropped now
    if same_thread and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass  # no libc to ask: the watcher below still ends the worker
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)
    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="meeple-parent-watch", daemon=True).start()
    if "send" in os.environ.get(STALL, "").split(","):
        _stall_sends()


def _stall_sends() -> None:
    """In a worker, under STALL=send: the second result is sent half-way and the worker stops
    there, as a worker caught mid-send by a SIGKILL leaves the pipe (the reader waits for the rest)."""
    sent = [0]
    plain = connection.Connection._send_bytes

    def send_bytes(self, buf):
        sent[0] += 1
        if sent[0] < 2 or len(buf) < 64:
            return plain(self, buf)
        self._send(struct.pack("!i", len(buf)) + bytes(buf[:len(buf) // 2]))
        stalled("send")

    connection.Connection._send_bytes = send_bytes


HELD = (signal.SIGINT, signal.SIGTERM)
"""Signals blocked while this process forks workers (see _held)."""


def _unblock(*signals) -> None:
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, signals)


class _held:
    """Block Ctrl-C and SIGTERM in this thread while it forks workers. A worker is born with
    them blocked, so a Ctrl-C that reaches the whole process group before the worker's set-up
    ignores it waits, and is dropped there (worker_init), instead of raising KeyboardInterrupt
    inside the pool's start (a traceback on the terminal and a broken pool). And this process
    gets its signal after the forks: a handler that raised inside the fork's own hooks (run in
    this process too) was swallowed there ("Exception ignored in ... _releaseLock") and the
    run went on as if no signal had come."""

    def __init__(self, on: bool):
        self.on = on and hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()

    def __enter__(self):
        if self.on:
            self.old = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)

    def __exit__(self, *exc):
        if self.on:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A local process pool whose workers ignore Ctrl-C and die with this process."""
    return ProcessPoolExecutor(
        workers, initializer=worker_init,
        initargs=(os.getpid(), threading.current_thread() is threading.main_thread()),
    )


class Job(NamedTuple):
    """One set of games for `run`: `games` games of `mod` under `config` with `bots`, from `seed`."""

    key: Any  # which sweep point (0 for simulate)
    mod: ModuleType
    config: Any
    bots: tuple  # names, or picklable callables
    seed: int
    games: int
    rotate: bool
    keep: str = "games"  # "summary": the games are folded into running totals as they come (simulate's keep=)
    design: bool = False  # each game's design measures too (rules/sim/design.py): only when one is asked for


def chunks(games: int, workers: int, start: int = 0) -> list[tuple[int, int]]:
    """Game index ranges (first, stop) from `start` to `games`: about four per worker, at most MAX_CHUNK games
    each (small chunks: a reader's move waits less for the chunk running, a Ctrl-C loses less)."""
    size = max(1, min(MAX_CHUNK, math.ceil((games - start) / (4 * workers))))
    return [(a, min(games, a + size)) for a in range(start, games, size)]


_POOL: list = [None, 0]  # the shared local pool and its size (see shared_pool)
_AT_EXIT: list = []  # whether drop_pool is registered to run at exit


def shared_pool(workers: int) -> ProcessPoolExecutor:
    """One local process pool for the life of this process (a notebook kernel):
    made on first use, made again larger when more workers are asked for, or
    after a Ctrl-C or a broken worker. Its workers keep their imports and caches
    warm between runs, ignore Ctrl-C and die with this process (worker_pool)."""
    pool, size = _POOL
    if pool is None or size < workers or getattr(pool, "_broken", False):
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        if not _AT_EXIT:
            atexit.register(drop_pool)
            _AT_EXIT.append(True)
        _POOL[:] = [worker_pool(workers), workers]
    return _POOL[0]


def current_pool() -> ProcessPoolExecutor | None:
    """The shared local pool as it stands (None before the first run and after drop_pool);
    it neither makes nor replaces one (benchmarks read its workers, tests check it was dropped)."""
    return _POOL[0]


def drop_pool(wait: bool = True, kill: bool = False) -> None:
    """Forget the shared pool; with `kill`, end its workers now (a Ctrl-C: the chunks
    still running are stopped, not waited for, and no worker is left playing)."""
    pool = _POOL[0]
    _POOL[:] = [None, 0]
    if pool is not None:
        stop_pool(pool, wait, kill)


def stop_pool(pool: ProcessPoolExecutor, wait: bool, kill: bool) -> None:
    """Shut a pool down; with `kill`, SIGKILL its workers and reap them (a Ctrl-C: nothing is left playing)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())  # read before shutdown clears them
    results = getattr(pool, "_result_queue", None)
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False if kill else wait, cancel_futures=True)
    if kill:
        for proc in procs:
            try:
                proc.kill()  # SIGKILL: a worker ignores Ctrl-C, and its chunk's games are not wanted
            except (OSError, ValueError, AttributeError):
                pass  # already gone (or closed)
        for proc in procs:
            try:
                proc.join()  # SIGKILL cannot be refused: this returns; no zombie is left
            except (OSError, ValueError, AssertionError):
                pass
        # A worker killed half-way through sending a result leaves the pool's reader thread
        # waiting for the rest of the message, for ever: this process holds the pipe's other
        # writing end, so no end-of-file ever comes, and Python's exit waits for that thread
        # (the Ctrl-C that hung, issue 33). Every worker is gone now: closing our end gives
        # the reader its end-of-file, and the thread ends.
        try:
            results._writer.close()
        except (AttributeError, OSError):
            pass
        if manager is not None and manager is not threading.current_thread():
            manager.join(timeout=2)


def _play_here(jobs: list[Job], out: dict, start: dict, bar, until: float | None = None) -> bool:
    """Play each job's games from start[key] on in this process (start is updated);
    False if `until` (a perf_counter time) came first."""
    for job in jobs:
        i = start[job.key]
        if i >= job.games:
            continue
        names, funcs = resolve_bots(job.mod, job.bots, job.config.players)
        with gc_paused() as tick:
            while i < job.games:
                if until is not None and time.perf_counter() >= until:
                    return False
                out[job.key].append(play_game(job.mod, job.config, names, funcs, job.seed, i, job.rotate, job.design))
                tick(i)
                i += 1
                start[job.key] = i
                bar.update(1)
    return True


def run(jobs: list[Job], executor: Executor | None, workers: int | None, progress: bool, desc: str):
    """Play every job's games; ({key: [GameResult] sorted by index, or the RunningTotals of a
    keep="summary" job}, interrupted).

    A KeyboardInterrupt stops the run and keeps every finished game (in-process:
    each game; on an executor: each finished chunk)."""
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ValueError(f"executor must be a concurrent.futures.Executor (a pool, or a dask Client's "
                         f"get_executor()), got {type(executor).__name__}")
    out: dict[Any, Any] = {job.key: RunningTotals(job.config.players) if job.keep == "summary" else [] for job in jobs}
    total = sum(job.games for job in jobs)
    chosen = workers is not None
    workers = workers or (default_workers() if executor is None else executor_slots(executor))
    bar = progress_bar(total, desc, progress)
    interrupted = False
    start = {job.key: 0 for job in jobs}  # games of each job already played here
    try:
        if executor is None and (workers == 1 or total <= 1):
            _play_here(jobs, out, start, bar)
        elif executor is None and not chosen and short_run(jobs, out, start, bar, total):
            pass  # played in this process: a pool would not have paid
        else:
            own = executor is None
            tasks = [(job, a, b) for job in jobs for a, b in chunks(job.games, workers, start[job.key])]
            if own:
                _check_picklable(jobs)
            futures = {}
            kept = set()
            try:
                if own:  # inside the try: a Ctrl-C while the pool starts kills what it started
                    executor = shared_pool(min(workers, len(tasks)))  # never more processes than tasks
                with _held(own):  # the pool forks its workers at the first submit
                    for job, a, b in tasks:
                        # `design` only when asked: an executor that keys its cache on the call (Prefetch)
                        # sees the very calls it saw before
                        extra = (job.keep, True) if job.design else (job.keep,)
                        fut = executor.submit(play_chunk, job.mod.__name__, job.config, job.bots, job.seed, a, b,
                                              job.rotate, *extra)
                        futures[fut] = job.key
                got = 0  # games come back so far: unpickling them is this process's work, the GC paused
                with gc_paused() as tick:
                    for fut in as_completed(futures):
                        done = fut.result()
                        out[futures[fut]].extend(done)
                        kept.add(fut)
                        bar.update(len(done))
                        got += len(done)
                        tick(got - 1, len(done))
            except BaseException as e:
                interrupted = isinstance(e, KeyboardInterrupt)
                for fut in futures if not (own and interrupted) else ():
                    fut.cancel()
                # (our own pool is killed below, which fails its futures; one cancelled here as well
                # made Python 3.11's pool thread print a traceback: set_exception on a cancelled future)
                if not interrupted:
                    raise
                # as_completed hands out finished chunks in no set order: keep every one that
                # finished, not only those seen before the interrupted one
                for fut, key in futures.items():
                    if fut not in kept and fut.done() and not fut.cancelled() and fut.exception() is None:
                        out[key].extend(fut.result())
                        bar.update(len(fut.result()))
            finally:
                if own and interrupted:
                    drop_pool(wait=False, kill=True)  # stop the chunks still running; the next run starts a fresh pool
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    for games in out.values():
        if isinstance(games, list):
            games.sort(key=lambda g: g.index)
    return out, interrupted


def short_run(jobs: list[Job], out: dict, start: dict, bar, total: int) -> bool:
    """Play here for up to _PROBE seconds; if the rest would take under _POOL_PAYS
    seconds at that pace, play it here too (True); else leave it for a pool (False).

    Only the speed depends on the clock, never the table: a game is played here or
    in a pool with the same seed. When the probe's time is up before any game has
    finished (a busy machine, a slow bot, a stalled process), the pace is unknown
    and at least slow: the pool takes the run."""
    t = time.perf_counter()
    if _play_here(jobs, out, start, bar, until=t + _PROBE):
        return True
    played = sum(start.values())
    if not played:
        return False  # no game finished within the probe: no pace to divide by
    elapsed = time.perf_counter() - t
    if elapsed <= 0 or (total - played) * elapsed < _POOL_PAYS * played:  # (total - played) / rate < _POOL_PAYS
        _play_here(jobs, out, start, bar)
        return True
    return False


def _check_picklable(jobs: list[Job]) -> None:
    """Worker processes get bots by pickle: say so plainly if one cannot travel."""
    for job in jobs:
        for b in job.bots:
            if callable(b):
                try:
                    pickle.dumps(b)
                except Exception:  # noqa: BLE001 - lambdas, closures, local functions
                    name = getattr(b, "__name__", repr(b))
                    raise ValueError(
                        f"bot {name!r} cannot be sent to worker processes (a lambda or a function defined "
                        "inside another one); define it at the top level of a module or notebook, or pass workers=1"
                    ) from None


class NoBar:
    """The progress bar no one sees: `update` and `close` do nothing."""

    def update(self, n=1):
        pass

    def close(self):
        pass


def _someone_watches() -> bool:
    """Whether a bar would be seen: stderr is a terminal, or this is a Jupyter kernel (tqdm
    draws a widget there). Not a log file or a pipe, which a bar would fill with lines."""
    try:
        if sys.stderr is not None and sys.stderr.isatty():
            return True
    except (AttributeError, ValueError):  # no stderr, or a closed one
        pass
    ipython = sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)() if ipython is not None else None
    return shell is not None and hasattr(shell, "kernel")


def progress_bar(total: int, desc: str, show: bool):
    """A tqdm bar when `show` and someone watches (see _someone_watches), else nothing."""
    if not show or not _someone_watches():
        return NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="game", smoothing=0.1)


__all__ = ["MAX_GAMES", "MAX_WORKERS", "MAX_CHUNK", "GC_EVERY", "gc_paused", "Job", "run", "short_run", "chunks", "play_chunk", "load_game",
           "executor_slots", "default_workers", "worker_pool", "worker_init", "shared_pool", "current_pool",
           "drop_pool", "stop_pool", "progress_bar", "NoBar", "check_games", "check_workers", "setup", "bot_refs"]
