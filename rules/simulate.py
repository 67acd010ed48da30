"""Many games at once: a tidy table, summaries that carry their uncertainty, sweeps.

    res = simulate("bucket-brigade", None, "random", games=2000, seed=1)
    res.table           # one row per game x seat (pandas)
    print(res.summary())  # win rates and mean scores with 95% intervals
    balance_report("bucket-brigade", None, "heuristic", 2000, 1)
    sweep("bucket-brigade", None, {"bonus": [0, 3, 6, 9]}, "heuristic", 1000, 1)

Game i of a run is played with seed `chance.derive(seed, "game", i)` and its
bots get `core.bot_rng(that seed, seat)`, exactly as `core.play` does, so
game i of any run can be replayed alone with `play(game, config, bots,
derive(seed, "game", i))`. Work is split into chunks of game indices and the
results are sorted by index: the table is the same whether one process,
two, four or a dask cluster ran it, in whatever order.

OPTIONAL HOOKS a game module may define (simulate works without them):
  game_stats(state) -> dict       extra columns for the table, read from the
                                  final state. A value is one number or text
                                  for the whole game, or a list with one entry
                                  per seat. bucket-brigade: rounds_ended (per
                                  seat), rounds_unended.
  score_sources(state) -> list[dict[str, int]]
                                  per seat, the game's points split by where
                                  they came from ({"hand": 17, "ender_bonus": 6});
                                  the parts add up to scores(state)[seat].
                                  Columns points_<source>; balance_report shows
                                  each source's share of all points.
  progress(state) -> list[float]  who is ahead in mid-game, one number per
                                  seat (default: scores(state)); read at the
                                  end of every turn for lead changes and the
                                  "leader after k% of the turns" figures.
  new_game(..., turn_end=f)       the game calls f(state) at the end of every
                                  turn its rules define (one player's go, with
                                  a decision or not), before the next begins:
                                  the turns column counts these calls and
                                  progress is read in them. All four games
                                  have it. Without it a turn is guessed to end
                                  when an action changes the player or round,
                                  which misses a turn with no decision played
                                  inside another player's action.

pandas and tqdm are imported only when a table or a bar is made, so
`meeple.rules` stays importable with the standard library alone.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import math
import os
import signal
import sys
import time
from collections import Counter
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from fractions import Fraction
from types import ModuleType
from typing import Any, Mapping, NamedTuple, Sequence

from . import bots as _bots
from .chance import check_seed, derive
from .core import MAX_STEPS, _LazySeatRandom, check_bots_arg, game_module, resolve_bots
from .stats import Z95, binomial_two_sided_p, chi_square_uniform, mean_ci, ratio_ci, wilson

CHECKPOINTS = (25, 50, 75)  # "leader after k% of the turns" (decisiveness)
MAX_GAMES = 10_000_000
MAX_WORKERS = 64  # local worker processes a run may ask for (each is a Python interpreter, ~20 MB)
_BLIND = (_bots.random_bot,)  # bots that never read their observation: skip building it
_MAX_CHUNK = 250  # games per task: a Ctrl-C loses at most one chunk per worker
# Without an executor and without `workers`, a run first plays in this process for up to
# _PROBE seconds and stays here when the rest would take under _POOL_PAYS seconds: handing
# games to worker processes costs pickling and a start-up that a short run never earns back.
_PROBE, _POOL_PAYS = 0.05, 0.4


# --- one game ---------------------------------------------------------------

class GameResult(NamedTuple):
    """What one simulated game leaves behind (small, picklable)."""

    index: int
    seed: int
    bots: tuple[str, ...]  # bot name in each seat
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: int
    turns: int
    actions: int
    round_leaders: tuple[int | None, ...]  # sole leader after each round but the last (None: tie)
    turn_leaders: tuple[int | None, ...]  # sole leader after CHECKPOINTS % of the turns
    lead_changes: int
    stats: dict
    sources: tuple[dict, ...] | None


def _leader(values) -> int | None:
    """The seat strictly ahead of everyone else, or None on a tie for first."""
    best = max(values)
    return values.index(best) if values.count(best) == 1 else None


def _lead_changes(leaders) -> int:
    """How often the sole leader became someone else (ties in between skipped)."""
    changes, last = 0, None
    for seat in leaders:
        if seat is not None:
            if last is not None and seat != last:
                changes += 1
            last = seat
    return changes


_TURN_HOOK: dict[Any, bool] = {}  # new_game function -> whether it takes `turn_end`


def _reports_turns(mod: ModuleType) -> bool:
    """Whether the module's new_game takes a `turn_end` callback (the optional hook)."""
    known = _TURN_HOOK.get(mod.new_game)
    if known is None:
        import inspect

        known = _TURN_HOOK[mod.new_game] = "turn_end" in inspect.signature(mod.new_game).parameters
    return known


def play_game(mod: ModuleType, config, names, funcs, seed: int, index: int, rotate: bool = False) -> GameResult:
    """Game `index` of a run: the same moves as `core.play(mod, config, lineup,
    derive(seed, "game", index))`, plus turn-by-turn leader tracking.

    With `rotate`, game i seats the bots shifted by i (bot k in seat
    (k + i) mod players), so each bot sits in each seat equally often.
    """
    n = config.players
    shift = index % n if rotate else 0
    order = [(s - shift) % n for s in range(n)]
    seat_names = tuple(names[k] for k in order)
    seat_funcs = [funcs[k] for k in order]
    looks = [f not in _BLIND and getattr(f, "reads_observation", True) for f in seat_funcs]
    # The package's own bots are known to choose among `legal` (core.play checks every move of
    # the stored records); a bot of the user's is checked on every move.
    own = (*(mod.BOTS[b] for b in ("random", "heuristic", "lookahead") if b in mod.BOTS), *_BLIND)
    checked = [all(f is not b for b in own) for f in seat_funcs]
    game_seed = derive(seed, "game", index)
    rngs = [_LazySeatRandom(game_seed, s) for s in range(n)]  # bot_rng's streams, seeded when first drawn from
    legal_actions, apply, observation = mod.legal_actions, mod.apply, mod.observation
    progress = getattr(mod, "progress", mod.scores)
    leaders: list[int | None] = []  # the sole leader at the end of each turn
    shown = [None, None]  # last progress seen, and its leader
    note = leaders.append

    def turn_end(st) -> None:  # called at every turn's end
        values = progress(st)
        if values != shown[0]:
            shown[0], shown[1] = values, _leader(values)
        note(shown[1])

    # A module with a `step` hook plays in place on this private state, which keeps
    # no event text (nobody reads it): the same moves as apply, without a copy per move.
    step = getattr(mod, "step", None)
    hooked = _reports_turns(mod)  # the game calls turn_end itself, at every turn's end
    kwargs = ({"events": False} if step else {}) | ({"turn_end": turn_end} if hooked else {})
    state = mod.new_game(config, game_seed, **kwargs)
    actions = 0
    while not state.is_over:
        if actions >= MAX_STEPS:
            raise RuntimeError(f"{mod.NAME} did not end within {MAX_STEPS} actions")
        p, r = state.current_player, state.round
        legal = legal_actions(state)
        action = seat_funcs[p](observation(state, p) if looks[p] else None, legal, rngs[p])
        if checked[p] and action not in legal:
            raise ValueError(f"bot {seat_names[p]!r} chose {action!r}, which is not legal here")
        if step:
            step(state, action)
        else:
            state = apply(state, action)
        actions += 1
        if not hooked and (state.current_player != p or state.round != r):  # a guess: the turn is over
            turn_end(state)
    round_pts = mod.round_scores(state)
    totals, round_leaders = [0] * n, []
    for pts in round_pts[:-1]:
        totals = [t + v for t, v in zip(totals, pts)]
        round_leaders.append(_leader(totals))
    turns = len(leaders)
    turn_leaders = tuple(leaders[max(1, -(-pct * turns // 100)) - 1] if turns else None for pct in CHECKPOINTS)
    stats = dict(mod.game_stats(state)) if hasattr(mod, "game_stats") else {}
    sources = tuple(dict(d) for d in mod.score_sources(state)) if hasattr(mod, "score_sources") else None
    return GameResult(
        index=index,
        seed=game_seed,
        bots=seat_names,
        scores=tuple(mod.scores(state)),
        winners=tuple(mod.winners(state)),
        rounds=len(round_pts) or state.round + 1,
        turns=turns,
        actions=actions,
        round_leaders=tuple(round_leaders),
        turn_leaders=turn_leaders,
        lead_changes=_lead_changes(leaders),
        stats=stats,
        sources=sources,
    )


def _load(ref: str | ModuleType) -> ModuleType:
    if isinstance(ref, ModuleType):
        return ref
    return sys.modules.get(ref) or importlib.import_module(ref)


def play_chunk(game_ref: str, config, bots, seed: int, start: int, stop: int, rotate: bool,
               keep: str = "games") -> "list[GameResult] | Tally":
    """Games start..stop-1 of a run (what a worker process is sent); with keep="summary"
    their Tally (a few KiB however many games), not the games."""
    mod = _load(game_ref)
    names, funcs = resolve_bots(mod, bots, config.players)
    if keep == "summary":
        tally = Tally(config.players)
        for i in range(start, stop):
            tally.append(play_game(mod, config, names, funcs, seed, i, rotate))
        return tally
    return [play_game(mod, config, names, funcs, seed, i, rotate) for i in range(start, stop)]


# --- running work -------------------------------------------------------------

def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _executor_slots(executor: Executor) -> int:
    """How many tasks an executor runs at once (sizes the chunks); a guess if it will not say."""
    slots = getattr(executor, "_max_workers", None)  # concurrent.futures pools
    if slots is None:
        try:  # a dask.distributed ClientExecutor
            slots = sum(executor._client.nthreads().values())
        except Exception:  # noqa: BLE001 - any other executor: assume a handful
            slots = 8
    return max(1, int(slots))


def _worker_init(parent: int, same_thread: bool) -> None:
    """Set up a worker process: it leaves Ctrl-C to the main process (which keeps
    what is done) and dies with it, however the main process ends (SIGTERM,
    SIGHUP, SIGKILL: nothing of ours can run then, so the worker must notice).

    Linux: the kernel sends SIGKILL when the parent goes (PR_SET_PDEATHSIG). It
    fires when the *thread* that forked the worker ends, so it is set only when
    that thread is the main thread (`same_thread`); everywhere, a watcher thread
    also polls the parent id and ends the worker within a second of an orphaning.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if same_thread and sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass  # no libc to ask: the watcher below still ends the worker
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)
    import threading

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="meeple-parent-watch", daemon=True).start()


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A local process pool whose workers ignore Ctrl-C and die with this process."""
    import threading

    return ProcessPoolExecutor(
        workers, initializer=_worker_init,
        initargs=(os.getpid(), threading.current_thread() is threading.main_thread()),
    )


def _check_workers(workers) -> int | None:
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be a whole number from 1 to {MAX_WORKERS}, got {workers!r}")
    return workers


class _Job(NamedTuple):
    key: Any  # which sweep point (0 for simulate)
    mod: ModuleType
    config: Any
    bots: tuple  # names, or picklable callables
    seed: int
    games: int
    rotate: bool
    keep: str = "games"  # "summary": the games are folded into a Tally as they come (simulate's keep=)


def _chunks(games: int, workers: int, start: int = 0) -> list[tuple[int, int]]:
    size = max(1, min(_MAX_CHUNK, math.ceil((games - start) / (4 * workers))))
    return [(a, min(games, a + size)) for a in range(start, games, size)]


_POOL: list = [None, 0]  # the shared local pool and its size (see shared_pool)
_AT_EXIT: list = []  # whether _drop_pool is registered to run at exit


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
            import atexit

            atexit.register(_drop_pool)
            _AT_EXIT.append(True)
        _POOL[:] = [worker_pool(workers), workers]
    return _POOL[0]


def _drop_pool(wait: bool = True, kill: bool = False) -> None:
    """Forget the shared pool; with `kill`, end its workers now (a Ctrl-C: the chunks
    still running are stopped, not waited for, and no worker is left playing)."""
    pool = _POOL[0]
    _POOL[:] = [None, 0]
    if pool is not None:
        _stop(pool, wait, kill)


def _stop(pool: ProcessPoolExecutor, wait: bool, kill: bool) -> None:
    procs = list((getattr(pool, "_processes", None) or {}).values())  # read before shutdown clears it
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


def _play_here(jobs: list[_Job], out: dict, start: dict, bar, until: float | None = None) -> bool:
    """Play each job's games from start[key] on in this process (start is updated);
    False if `until` (a perf_counter time) came first."""
    for job in jobs:
        i = start[job.key]
        if i >= job.games:
            continue
        names, funcs = resolve_bots(job.mod, job.bots, job.config.players)
        while i < job.games:
            if until is not None and time.perf_counter() >= until:
                return False
            out[job.key].append(play_game(job.mod, job.config, names, funcs, job.seed, i, job.rotate))
            i += 1
            start[job.key] = i
            bar.update(1)
    return True


def _run(jobs: list[_Job], executor: Executor | None, workers: int | None, progress: bool, desc: str):
    """Play every job's games; ({key: [GameResult] sorted by index, or a Tally for a
    keep="summary" job}, interrupted).

    A KeyboardInterrupt stops the run and keeps every finished game (in-process:
    each game; on an executor: each finished chunk)."""
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ValueError(f"executor must be a concurrent.futures.Executor (a pool, or a dask Client's "
                         f"get_executor()), got {type(executor).__name__}")
    out: dict[Any, Any] = {job.key: Tally(job.config.players) if job.keep == "summary" else [] for job in jobs}
    total = sum(job.games for job in jobs)
    chosen = workers is not None
    workers = workers or (default_workers() if executor is None else _executor_slots(executor))
    bar = _progress_bar(total, desc, progress)
    interrupted = False
    start = {job.key: 0 for job in jobs}  # games of each job already played here
    try:
        if executor is None and (workers == 1 or total <= 1):
            _play_here(jobs, out, start, bar)
        elif executor is None and not chosen and _short_run(jobs, out, start, bar, total):
            pass  # played in this process: a pool would not have paid
        else:
            own = executor is None
            chunks = [(job, a, b) for job in jobs for a, b in _chunks(job.games, workers, start[job.key])]
            if own:
                _check_picklable(jobs)
                executor = shared_pool(min(workers, len(chunks)))  # never more processes than tasks
            futures = {}
            kept = set()
            try:
                for job, a, b in chunks:
                    fut = executor.submit(play_chunk, job.mod.__name__, job.config, job.bots, job.seed, a, b, job.rotate,
                                          job.keep)
                    futures[fut] = job.key
                for fut in as_completed(futures):
                    done = fut.result()
                    out[futures[fut]].extend(done)
                    kept.add(fut)
                    bar.update(len(done))
            except BaseException as e:
                interrupted = isinstance(e, KeyboardInterrupt)
                for fut in futures:
                    fut.cancel()
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
                    _drop_pool(wait=False, kill=True)  # stop the chunks still running; the next run starts a fresh pool
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    for games in out.values():
        if isinstance(games, list):
            games.sort(key=lambda g: g.index)
    return out, interrupted


def _short_run(jobs: list[_Job], out: dict, start: dict, bar, total: int) -> bool:
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


def _check_picklable(jobs: list[_Job]) -> None:
    """Worker processes get bots by pickle: say so plainly if one cannot travel."""
    import pickle

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


class _NoBar:
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


def _progress_bar(total: int, desc: str, show: bool):
    """A tqdm bar when `show` and someone watches (see _someone_watches), else nothing."""
    if not show or not _someone_watches():
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="game", smoothing=0.1)


# --- checking input -----------------------------------------------------------

def _check_games(games) -> int:
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be a whole number from 1 to {MAX_GAMES:,}, got {games!r}")
    return games


def _setup(game, config, bots):
    mod = game_module(game)
    config = mod.Config() if config is None else config
    if not isinstance(config, mod.Config):
        raise ValueError(f"config must be a {mod.NAME} Config, got {type(config).__name__}")
    return mod, config, _bot_refs(mod, bots, config.players)


def _bot_refs(mod, bots, players: int) -> tuple:
    """Bots as names where the game knows them (so worker processes can look
    them up), else the callables themselves; checked against `players`."""
    if isinstance(bots, str):
        bots = [b.strip() for b in bots.split(",")]
    check_bots_arg(mod, bots)
    known = {id(f): name for name, f in mod.BOTS.items()}
    refs = tuple(known.get(id(b), b) if callable(b) else b for b in bots)
    resolve_bots(mod, refs, players)  # raises ValueError on unknown bots or a wrong count
    return refs


# --- results ------------------------------------------------------------------

def _pd():
    import pandas

    return pandas


def _seat(s: int) -> str:
    return f"Player {s + 1}"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci_pct(lo: float, hi: float) -> str:
    return f"{100 * lo:.1f} to {100 * hi:.1f}%"


def _num(x: float, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    return f"{x:.{digits}f}"


def _lineup_text(bots: Sequence[str]) -> str:
    names = [b if isinstance(b, str) else getattr(b, "__name__", "custom") for b in bots]
    if len(set(names)) == 1:
        return f"{names[0]} x{len(names)}" if len(names) > 1 else names[0]
    return ", ".join(names)


_BASE_COLUMNS = {"game", "seat", "bot", "score", "won", "win_share", "rounds", "turns"}


def _own_columns(table) -> list[str]:
    """The game's own numeric columns in a results table (from its game_stats / score_sources hooks)."""
    pd = _pd()
    return [
        c for c in table.columns
        if c not in _BASE_COLUMNS and pd.api.types.is_numeric_dtype(table[c]) and not pd.api.types.is_bool_dtype(table[c])
    ]


def _length_lines(length) -> list[str]:
    """The game-length table (mean with its CI, and the spread of single games) as text lines."""
    return [
        "Game length (mean with 95% CI; spread of single games):",
        _fmt_table(
            ["", "mean", "95% CI", "min", "10%", "median", "90%", "max"],
            [
                [r.measure, _num(r.mean), f"{_num(r.low)} to {_num(r.high)}", str(r.min),
                 _num(r.p10, 1), _num(r.median, 1), _num(r.p90, 1), str(r.max)]
                for r in length.itertuples()
            ],
        ),
    ]


def _fmt_table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    line = lambda cells: "  " + "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return "\n".join([line(headers)] + [line(r) for r in rows])


class _Run:
    """What Results and Totals share: which game, rules, bots and seed a run played."""

    def __init__(self, mod, config, bots, seed, requested, rotate, partial):
        self.game = mod.NAME
        self.title = mod.TITLE
        self.config = config
        self.bots = tuple(b if isinstance(b, str) else getattr(b, "__name__", "custom") for b in bots)
        self.seed = seed
        self.requested = requested
        self.rotate = rotate
        self.partial = partial

    def __repr__(self) -> str:
        part = f", partial: {self.completed} of {self.requested}" if self.partial else ""
        return (f"<{type(self).__name__} {self.game}: {self.completed} games, seed {self.seed}, "
                f"bots {_lineup_text(self.bots)}{part}>")

    def describe(self) -> str:
        """One line: game, games played, seed, bots and rules."""
        part = f" (interrupted: {self.completed} of {self.requested} games)" if self.partial else ""
        rot = ", seats rotated" if self.rotate else ""
        return (
            f"{self.title}, {self.completed} games{part}, seed {self.seed}, bots {_lineup_text(self.bots)}{rot}, "
            f"rules: {self.config.describe()}"
        )


class Results(_Run):
    """The games of one run.

    `table`: one row per game x seat — game, seat (0-based), bot, score, won
    (a shared win counts for every winner), win_share (1/k for a k-way shared
    win, else 1 or 0), rounds, turns, then the game's own columns
    (`game_stats` hook) and points_<source> columns (`score_sources` hook).
    `games`: one row per game — game, seed, rounds, turns, actions, winners,
    lead_changes, leader_after_round_k and leader_at_<k>pct (the sole leader's
    seat, <NA> on a tie). `partial` is True when the run was interrupted.
    """

    def __init__(self, mod, config, bots, seed, requested, rotate, records: list[GameResult], partial=False):
        super().__init__(mod, config, bots, seed, requested, rotate, partial)
        self.records = records
        self._frames = None  # (table, games), made on first use: without pandas (the site's Python) the records still serve

    @property
    def table(self):
        if self._frames is None:
            self._frames = _tables(self.config.players, self.records)
        return self._frames[0]

    @property
    def games(self):
        if self._frames is None:
            self._frames = _tables(self.config.players, self.records)
        return self._frames[1]

    @property
    def completed(self) -> int:
        return len(self.records)

    def summary(self, measures: Sequence[str] | None = None) -> "Summary":
        """Win rates, scores and game length with 95% intervals; `measures` (names
        from `measures(game)`, e.g. "steals_tried" or "mean_steals_tried", "turns")
        picks which of the game's figures to show, each with its interval."""
        return Summary.of(self, measures)

    def to_json(self) -> str:
        import json

        return json.dumps(
            {
                "format": "meeple-simulation/1",
                "game": self.game,
                "config": self.config.to_dict(),
                "bots": list(self.bots),
                "seed": self.seed,
                "games": self.requested,
                "completed": self.completed,
                "rotate": self.rotate,
                "partial": self.partial,
                "rows": json.loads(self.table.to_json(orient="records")),
            },
            indent=1,
        )


def _tables(n: int, records: list[GameResult]):
    pd = _pd()
    stat_keys = list(dict.fromkeys(k for g in records for k in g.stats))
    source_keys = list(dict.fromkeys(k for g in records if g.sources for d in g.sources for k in d))
    # one comprehension per column (rows: game by game, seat by seat)
    seats = range(n)
    shares = [1.0 / len(g.winners) if g.winners else 0.0 for g in records]
    cols: dict[str, list] = {
        "game": [g.index for g in records for _ in seats],
        "seat": list(seats) * len(records),
        "bot": [b for g in records for b in g.bots[:n]],
        "score": [v for g in records for v in g.scores[:n]],
        "won": [s in g.winners for g in records for s in seats],
        "win_share": [share if s in g.winners else 0.0 for g, share in zip(records, shares) for s in seats],
        "rounds": [g.rounds for g in records for _ in seats],
        "turns": [g.turns for g in records for _ in seats],
    }
    extra = {}
    for k in stat_keys:
        extra[k] = [v[s] if isinstance(v, (list, tuple)) else v
                    for v in (g.stats.get(k) for g in records) for s in seats]
    points = {f"points_{k}": [g.sources[s].get(k, 0) if g.sources else None for g in records for s in seats]
              for k in source_keys}
    table = pd.DataFrame({**cols, **extra, **points})
    if not records:
        table = table.astype({"game": int, "seat": int, "score": int, "won": bool, "win_share": float})
    max_rounds = max((len(g.round_leaders) for g in records), default=0)
    games = {
        "game": [g.index for g in records],
        "seed": [g.seed for g in records],
        "rounds": [g.rounds for g in records],
        "turns": [g.turns for g in records],
        "actions": [g.actions for g in records],
        "winners": [g.winners for g in records],
        "lead_changes": [g.lead_changes for g in records],
    }
    for k in range(max_rounds):
        games[f"leader_after_round_{k + 1}"] = pd.array(
            [g.round_leaders[k] if k < len(g.round_leaders) else None for g in records], dtype="Int64"
        )
    for j, pct in enumerate(CHECKPOINTS):
        games[f"leader_at_{pct}pct"] = pd.array([g.turn_leaders[j] for g in records], dtype="Int64")
    return table, pd.DataFrame(games)


def _rate_row(share_per_game: list[float]) -> tuple[float, float, float]:
    """(rate, low, high): Wilson on per-game shares in [0, 1] (conservative for shares)."""
    n = len(share_per_game)
    if n == 0:
        return (math.nan, 0.0, 1.0)
    total = math.fsum(share_per_game)  # exactly rounded: the same on every Python (stats.mean_ci)
    lo, hi = wilson(total, n)
    return (total / n, lo, hi)


@dataclasses.dataclass
class Summary:
    """Win rate per seat and per bot (95% Wilson intervals; a k-way shared win
    counts 1/k), mean score with a 95% interval, and game length."""

    heading: str
    games: int
    seats: Any  # DataFrame: seat, bot, games, win_rate, win_low, win_high, score, score_low, score_high
    bots: Any  # DataFrame: bot, seats_per_game, games, win_rate, win_low, win_high, score, score_low, score_high
    length: Any  # DataFrame: measure, mean, low, high, min, p10, median, p90, max
    partial: bool = False
    columns: Any = None  # DataFrame: column, mean, low, high: the game's own columns, per seat and game
    measures: Any = None  # DataFrame: measure, seat (<NA>: per game or all seats), mean, low, high (chosen ones)

    @classmethod
    def of(cls, res: Results, measures: Sequence[str] | None = None) -> "Summary":
        pd = _pd()
        t = res.table
        n_games = res.completed
        seat_rows = []
        for s, part in t.groupby("seat", sort=True) if n_games else []:
            rate, lo, hi = _rate_row(part["win_share"].tolist())
            m, mlo, mhi = mean_ci(part["score"].tolist())
            bots = part["bot"].unique()
            seat_rows.append([s, ",".join(bots), len(part), rate, lo, hi, m, mlo, mhi])
        cols = ["win_rate", "win_low", "win_high", "score", "score_low", "score_high"]
        seats = pd.DataFrame(seat_rows, columns=["seat", "bot", "games", *cols])
        bot_rows = []
        if n_games:
            per_game = t.groupby(["bot", "game"], sort=True).agg(
                share=("win_share", "sum"), score=("score", "mean"), seats=("seat", "size")
            )
            for b, part in per_game.groupby(level="bot", sort=False):
                k = int(part["seats"].iloc[0])
                rate, lo, hi = _rate_row((part["share"] / part["seats"]).tolist())
                m, mlo, mhi = mean_ci(part["score"].tolist())
                bot_rows.append([b, k, len(part), rate, lo, hi, m, mlo, mhi])
        bots = pd.DataFrame(bot_rows, columns=["bot", "seats_per_game", "games", *cols])
        length_rows = []
        for measure in ("rounds", "turns"):
            v = res.games[measure]
            if len(v):
                m, lo, hi = mean_ci(v.tolist())
                q = v.quantile([0.1, 0.5, 0.9]).tolist()
                length_rows.append([measure, m, lo, hi, int(v.min()), q[0], q[1], q[2], int(v.max())])
        length = pd.DataFrame(length_rows, columns=["measure", "mean", "low", "high", "min", "p10", "median", "p90", "max"])
        # a game is the independent unit: average its seats first, then the interval over games
        own = [[c, *mean_ci(t.groupby("game")[c].mean().dropna().tolist())] for c in _own_columns(t)] if n_games else []
        columns = pd.DataFrame(own, columns=["column", "mean", "low", "high"])
        chosen = None
        if measures is not None:
            chosen = _chosen_measures(res, seats, [measure_name(_table_measures(t), m) for m in measures] if n_games else [])
        return cls(res.describe(), n_games, seats, bots, length, res.partial, columns, chosen)

    def __str__(self) -> str:
        lines = [self.heading]
        if not self.games:
            return "\n".join(lines + ["No game finished."])
        lines.append("Win rate by seat (95% CI; a shared win counts 1/k), mean score (95% CI):")
        lines.append(
            _fmt_table(
                ["seat", "bot", "win rate", "95% CI", "mean score", "95% CI"],
                [
                    [_seat(int(r.seat)), r.bot, _pct(r.win_rate), _ci_pct(r.win_low, r.win_high),
                     _num(r.score), f"{_num(r.score_low)} to {_num(r.score_high)}"]
                    for r in self.seats.itertuples()
                ],
            )
        )
        if len(self.bots) > 1:
            lines.append("Win rate by bot (per seat it holds; 95% CI), mean score (95% CI):")
            lines.append(
                _fmt_table(
                    ["bot", "seats", "win rate", "95% CI", "mean score", "95% CI"],
                    [
                        [r.bot, str(r.seats_per_game), _pct(r.win_rate), _ci_pct(r.win_low, r.win_high),
                         _num(r.score), f"{_num(r.score_low)} to {_num(r.score_high)}"]
                        for r in self.bots.itertuples()
                    ],
                )
            )
        lines += _length_lines(self.length)
        if self.measures is not None:
            lines.append("Chosen measures (mean with 95% CI; 'all': per game, or every seat's mean in a game):")
            lines.append(
                _fmt_table(
                    ["measure", "seat", "mean", "95% CI"],
                    [[r.measure.removeprefix("mean_"), "all" if _pd().isna(r.seat) else _seat(int(r.seat)),
                      *((_pct(r.mean), _ci_pct(r.low, r.high)) if r.measure == "win_rate"
                        else (_num(r.mean), f"{_num(r.low)} to {_num(r.high)}"))]
                     for r in self.measures.itertuples()],
                )
            )
        elif self.columns is not None and len(self.columns):
            lines.append("The game's own figures (mean per seat and game, 95% CI; per seat in results.table):")
            lines.append(
                _fmt_table(
                    ["", "mean", "95% CI"],
                    [[r.column, _num(r.mean), f"{_num(r.low)} to {_num(r.high)}"] for r in self.columns.itertuples()],
                )
            )
        return "\n".join(lines)

    def _repr_pretty_(self, p, cycle):  # IPython / notebooks show the text
        p.text(str(self))


# --- summary only: running totals ---------------------------------------------

def _gather(columns: dict, name: str, seen, values: list, sourced: int) -> None:
    """Add one game's row of a column to `columns` (name -> [first seen, rows, sourced games])."""
    col = columns.get(name)
    if col is None:
        columns[name] = [seen, [values], sourced]
    else:
        if seen < col[0]:
            col[0] = seen
        col[1].append(values)
        col[2] += sourced


def _kahan(values) -> float:
    """A sum as pandas' groupby sum and mean make it (Kahan, in row order): the summary-only
    path's per-game figures are then the very floats the table's groupby gives."""
    total = comp = 0.0
    for v in values:
        y = v - comp
        t = total + y
        comp = t - total - y
        total = t
    return total


def _exact_sum(hist) -> float:
    """math.fsum of the values a histogram {value: count} stands for (both round the exact sum once)."""
    return float(sum(Fraction(v) * c for v, c in hist.items()))


def _hist_mean_ci(hist) -> tuple[float, float, float]:
    """stats.mean_ci of the values a histogram {value: count} stands for, bit for bit."""
    n = sum(hist.values())
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = _exact_sum(hist) / n
    if n == 1:
        return (m, -math.inf, math.inf)
    var = float(sum(Fraction((v - m) ** 2) * c for v, c in hist.items())) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return (m, m - half, m + half)


def _hist_rate(hist) -> tuple[float, float, float]:
    """_rate_row of the per-game shares a histogram stands for."""
    n = sum(hist.values())
    if n == 0:
        return (math.nan, 0.0, 1.0)
    total = _exact_sum(hist)
    lo, hi = wilson(total, n)
    return (total / n, lo, hi)


def _hist_quantiles(hist, qs=(0.1, 0.5, 0.9)) -> list[float]:
    """pandas' Series.quantile(qs) (numpy's linear method) of the values a histogram stands for."""
    values = sorted(hist)
    n = sum(hist.values())

    def nth(i: int):
        for v in values:
            i -= hist[v]
            if i < 0:
                return v
        raise IndexError(i)

    out = []
    for q in qs:
        at = (n - 1) * q
        if at >= n - 1:
            out.append(float(nth(n - 1)))
            continue
        lo = math.floor(at)
        t = at - lo
        a, b = nth(lo), nth(lo + 1)
        d = b - a
        out.append(float(b - d * (1 - t) if t >= 0.5 else a + d * t))
    return out


class Tally:
    """Running totals of a run's games: every number `Summary` shows, in memory that
    stays flat in the number of games (issue 11). Each figure is kept as a histogram
    {value: games} (scores, turns and the games' own counts are small whole numbers,
    win shares a few fractions), so the intervals and quantiles computed from it are
    bit for bit those of the full table (an exact sum rounded once, as math.fsum does).
    Tallies of chunks played apart add up (`extend`) to the tally of the whole run,
    in whatever order the chunks come."""

    def __init__(self, players: int):
        self.players = players
        self.games = 0
        self.seat_share = [Counter() for _ in range(players)]  # win_share per seat
        self.seat_score = [Counter() for _ in range(players)]
        self.seat_bots = [{} for _ in range(players)]  # bot -> first game (index) it sat there
        self.bot_first: dict[str, tuple[int, int]] = {}  # bot -> (first game, its seats in that game)
        self.bot_share: dict[str, Counter] = {}  # per game: the bot's win shares / its seats
        self.bot_score: dict[str, Counter] = {}  # per game: the mean score of its seats
        self.per_game = {"rounds": Counter(), "turns": Counter(), "lead_changes": Counter()}
        # the game's own columns: name -> [first seen (game, position), numeric so far, any value,
        # per-game mean over seats, per-seat values]
        self.cols: dict[str, list] = {}
        self.first: tuple[int, frozenset] | None = None  # lowest game index, its stats that are per seat
        self.sourced = 0  # games with score_sources; a points_ column absent from some of them is 0 there
        self._batch: list[GameResult] = []  # appended, not yet folded in (see _fold)

    def __len__(self) -> int:
        return self.games + len(self._batch)

    FOLD_EVERY = 256  # games held before they are folded in: a batch counts in C (Counter.update)

    def append(self, g: GameResult) -> None:
        """Fold one game in (it is not kept: games wait in a batch of at most FOLD_EVERY)."""
        self._batch.append(g)
        if len(self._batch) >= self.FOLD_EVERY:
            self._fold()

    def _fold(self) -> None:
        """Count the waiting games into the histograms (a batch at a time: the same
        histograms as one game at a time, in a fraction of the time)."""
        batch = self._batch
        if not batch:
            return
        self._batch = []
        n = self.players
        self.games += len(batch)
        shares = []  # per game, each seat's win share
        for g in batch:
            w = g.winners
            share = 1.0 / len(w) if w else 0.0
            shares.append([share if s in w else 0.0 for s in range(n)])
        for s in range(n):
            self.seat_share[s].update([row[s] for row in shares])
            self.seat_score[s].update([g.scores[s] for g in batch])
        lineups: dict[tuple, list[int]] = {}  # seat order of bots -> the batch's games with it
        for k, g in enumerate(batch):
            lineups.setdefault(g.bots, []).append(k)
        for bots, games in lineups.items():
            first = min(batch[k].index for k in games)
            by_bot: dict[str, list[int]] = {}
            for s, b in enumerate(bots):
                if first < self.seat_bots[s].get(b, math.inf):
                    self.seat_bots[s][b] = first
                by_bot.setdefault(b, []).append(s)
            for b, seats in by_bot.items():
                k = len(seats)
                if first < self.bot_first.get(b, (math.inf, 0))[0]:
                    self.bot_first[b] = (first, k)
                share_h = self.bot_share.setdefault(b, Counter())
                score_h = self.bot_score.setdefault(b, Counter())
                if k == 1:
                    (s,) = seats
                    share_h.update([shares[i][s] for i in games])
                    score_h.update([float(batch[i].scores[s]) for i in games])
                else:  # scores are whole numbers: their float sum is exact, as _kahan's is
                    share_h.update([_kahan([shares[i][s] for s in seats]) / k for i in games])
                    score_h.update([float(sum(batch[i].scores[s] for s in seats)) / k for i in games])
        per_game = self.per_game
        per_game["rounds"].update([g.rounds for g in batch])
        per_game["turns"].update([g.turns for g in batch])
        per_game["lead_changes"].update([g.lead_changes for g in batch])
        # A column a game lacks is None in its rows (counted nowhere), as in the table.
        columns: dict[str, list] = {}  # name -> [first seen, per-seat rows, sourced]
        for g in batch:
            for pos, (k, v) in enumerate(g.stats.items()):
                row = v if type(v) is list and len(v) == n else (
                    [v[s] for s in range(n)] if isinstance(v, (list, tuple)) else [v] * n)
                _gather(columns, k, (g.index, 0, pos), row, 0)
            if g.sources:  # a source another game names and this one does not is 0 here: see `sourced`
                self.sourced += 1
                for pos, k in enumerate(dict.fromkeys(k for d in g.sources for k in d)):
                    _gather(columns, f"points_{k}", (g.index, 1, pos), [d.get(k, 0) for d in g.sources], 1)
            if self.first is None or g.index < self.first[0]:
                self.first = (g.index, frozenset(k for k, v in g.stats.items() if isinstance(v, (list, tuple))))
        for name, (seen, rows, sourced) in columns.items():
            self._column_rows(name, seen, rows, sourced)

    def __getstate__(self):  # a worker sends its chunk's tally whole
        self._fold()
        return self.__dict__

    def _column_rows(self, name: str, seen, rows: list[list], sourced: int) -> None:
        """Count one of the game's columns: `rows` holds each game's value per seat (None: none)."""
        col = self.cols.get(name)
        if col is None:
            col = self.cols[name] = [seen, True, False, Counter(), [Counter() for _ in range(self.players)], 0]
        elif seen < col[0]:
            col[0] = seen
        col[5] += sourced  # games with score_sources that name this source
        n = self.players
        if all(len(values) == n and all(type(v) is int for v in values) for values in rows):
            # the usual case, whole numbers in every seat: their float sum is exact, as _kahan's is
            col[2] = True
            col[3].update([float(sum(values)) / n for values in rows])
            for s, h in enumerate(col[4]):
                h.update([values[s] for values in rows])
            return
        means, seats = [], [[] for _ in range(n)]
        for values in rows:
            got = [v for v in values if v is not None]
            if not all(type(v) is int for v in got):  # floats, text or flags: the careful way
                if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in got):
                    col[1] = False  # text or flags: not a numeric column (the table leaves it out of the summary)
                    continue
                if got:
                    means.append(_kahan(float(v) for v in got) / len(got))
            elif got:  # whole numbers: their float sum is exact, as _kahan's is
                means.append(float(sum(got)) / len(got))
            for s, v in enumerate(values):
                if v is not None:
                    seats[s].append(v)
        if means:
            col[2] = True
            col[3].update(means)
        for h, values in zip(col[4], seats):
            h.update(values)

    def extend(self, other: "Tally | Sequence[GameResult]") -> None:
        """Fold in another tally (a chunk played elsewhere) or some games."""
        if not isinstance(other, Tally):
            for g in other:
                self.append(g)
            self._fold()
            return
        self._fold()
        other._fold()
        self.games += other.games
        for s in range(self.players):
            self.seat_share[s].update(other.seat_share[s])
            self.seat_score[s].update(other.seat_score[s])
            for b, i in other.seat_bots[s].items():
                self.seat_bots[s][b] = min(i, self.seat_bots[s].get(b, i))
        for b, first in other.bot_first.items():
            self.bot_first[b] = min(first, self.bot_first.get(b, first))
            self.bot_share.setdefault(b, Counter()).update(other.bot_share[b])
            self.bot_score.setdefault(b, Counter()).update(other.bot_score[b])
        for k, h in other.per_game.items():
            self.per_game[k].update(h)
        self.sourced += other.sourced
        for name, (seen, numeric, any_value, per_game, per_seat, named) in other.cols.items():
            col = self.cols.get(name)
            if col is None:
                col = self.cols[name] = [seen, numeric, any_value, Counter(), [Counter() for _ in range(self.players)], 0]
            elif seen < col[0]:
                col[0] = seen
            col[1] = col[1] and numeric
            col[2] = col[2] or any_value
            col[3].update(per_game)
            for s in range(self.players):
                col[4][s].update(per_seat[s])
            col[5] += named
        if other.first is not None and (self.first is None or other.first[0] < self.first[0]):
            self.first = other.first

    def own_columns(self) -> list[str]:
        """The game's numeric columns, in the table's order (game_stats keys, then points_<source>)."""
        self._fold()
        return [name for _, name in sorted((c[0], name) for name, c in self.cols.items() if c[1] and c[2])]

    def column(self, name: str) -> tuple[Counter, list[Counter]]:
        """(per-game mean over seats, per-seat values) of one of the game's columns, as histograms."""
        self._fold()
        col = self.cols[name]
        per_game, per_seat = Counter(col[3]), [Counter(h) for h in col[4]]
        if name.startswith("points_") and self.sourced > col[5]:  # games that named other sources only: 0
            per_game[0.0] += self.sourced - col[5]
            for h in per_seat:
                h[0] += self.sourced - col[5]
        return per_game, per_seat


class Totals(_Run):
    """What `simulate(..., keep="summary")` returns: the run's running totals (a Tally),
    no table. `summary()` gives the same numbers as the full Results' summary() of the
    same run; `table`, `games` and `records` are not kept."""

    def __init__(self, mod, config, bots, seed, requested, rotate, tally: Tally, partial=False):
        super().__init__(mod, config, bots, seed, requested, rotate, partial)
        tally._fold()  # the run is over: every game counted
        self.tally = tally

    @property
    def completed(self) -> int:
        return self.tally.games

    def __getattr__(self, name):
        if name in ("table", "games", "records"):
            raise AttributeError(
                f"simulate(..., keep='summary') keeps running totals, not the games: no {name!r}; "
                "run with keep='games' (the default) for the per-game table")
        raise AttributeError(name)

    def summary(self, measures: Sequence[str] | None = None) -> "Summary":
        """As Results.summary: win rates, scores, game length and the game's own figures, with 95% intervals."""
        pd = _pd()
        t = self.tally
        n_games = t.games
        cols = ["win_rate", "win_low", "win_high", "score", "score_low", "score_high"]
        seat_rows = []
        for s in range(t.players) if n_games else []:
            bots = [b for b, _ in sorted(t.seat_bots[s].items(), key=lambda kv: kv[1])]
            seat_rows.append([s, ",".join(bots), n_games, *_hist_rate(t.seat_share[s]), *_hist_mean_ci(t.seat_score[s])])
        seats = pd.DataFrame(seat_rows, columns=["seat", "bot", "games", *cols])
        bot_rows = []
        for b in sorted(t.bot_first) if n_games else []:
            games = sum(t.bot_share[b].values())
            bot_rows.append([b, t.bot_first[b][1], games, *_hist_rate(t.bot_share[b]), *_hist_mean_ci(t.bot_score[b])])
        bots = pd.DataFrame(bot_rows, columns=["bot", "seats_per_game", "games", *cols])
        length_rows = []
        for measure in ("rounds", "turns") if n_games else ():
            h = t.per_game[measure]
            length_rows.append([measure, *_hist_mean_ci(h), int(min(h)), *_hist_quantiles(h), int(max(h))])
        length = pd.DataFrame(length_rows, columns=["measure", "mean", "low", "high", "min", "p10", "median", "p90", "max"])
        own = [[c, *_hist_mean_ci(t.column(c)[0])] for c in t.own_columns()] if n_games else []
        columns = pd.DataFrame(own, columns=["column", "mean", "low", "high"])
        chosen = None
        if measures is not None:
            known = ["win_rate", "score", *_PER_GAME, *(f"mean_{c}" for c in t.own_columns())]
            chosen = self._chosen(seats, [measure_name(known, m) for m in measures] if n_games else [])
        return Summary(self.describe(), n_games, seats, bots, length, self.partial, columns, chosen)

    def _chosen(self, seats, names: list[str]):
        """As _chosen_measures, from the running totals."""
        pd = _pd()
        t = self.tally
        rows = []
        for name in dict.fromkeys(names):
            if name in ("win_rate", "score"):
                low, high = ("win_low", "win_high") if name == "win_rate" else ("score_low", "score_high")
                rows += [[name, int(r["seat"]), r[name], r[low], r[high]] for _, r in seats.iterrows()]
            elif name in _PER_GAME:
                rows.append([name, None, *_hist_mean_ci(t.per_game[name])])
            else:
                col = name[len("mean_"):]
                per_game, per_seat = t.column(col)
                if col.startswith("points_") or (t.first is not None and col in t.first[1]):
                    for s in range(t.players):
                        rows.append([name, s, *_hist_mean_ci(per_seat[s])])
                rows.append([name, None, *_hist_mean_ci(per_game)])
        out = pd.DataFrame(rows, columns=["measure", "seat", "mean", "low", "high"])
        out["seat"] = out["seat"].astype("Int64")
        return out


# --- the three entry points ---------------------------------------------------

def simulate(
    game,
    config=None,
    bots="random",
    games: int = 1000,
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool = True,
    *,
    workers: int | None = None,
    rotate: bool = False,
    keep: str = "games",
) -> "Results | Totals":
    """Play `games` games and return their Results.

    `bots`: names (or callables) one per seat, or one for every seat.
    `executor`: any concurrent.futures.Executor (e.g. a dask Client's
    `get_executor()`); it is not shut down. Without one, `workers` local
    processes play (default: every core; `workers=1` plays in this
    process), in one pool kept for the life of this process (shared_pool);
    without `workers`, a run too short to pay for the pool plays in this
    process (it plays here first and measures). With an executor, `workers` only sizes the chunks (default:
    the executor's own count). `rotate`: seat the bots shifted by the game
    index so each bot holds each seat equally often. The table is the same
    however the work is split. Ctrl-C returns the finished games with
    `partial=True`; a progress bar shows on a terminal or in a notebook
    unless `progress=False` (never into a log file or a pipe).
    `keep="summary"` keeps no game: each is folded into running totals as
    it finishes (memory flat in the number of games) and a Totals is
    returned, whose summary() has the same numbers as the full Results'.
    """
    mod, config, refs = _setup(game, config, bots)
    games = _check_games(games)
    seed = check_seed(seed)
    workers = _check_workers(workers)
    if keep not in ("games", "summary"):
        raise ValueError(f"keep must be 'games' (every game: table, games, records) or 'summary' "
                         f"(running totals: summary() only), got {keep!r}")
    job = _Job(0, mod, config, refs, seed, games, rotate, keep)
    out, interrupted = _run([job], executor, workers, progress, mod.TITLE)
    if keep == "summary":
        return Totals(mod, config, refs, seed, games, rotate, out[0], partial=interrupted)
    return Results(mod, config, refs, seed, games, rotate, out[0], partial=interrupted)


def _grid_points(mod, base, grid: Mapping[str, Sequence], bots) -> list[tuple[dict, Any, tuple]]:
    """Every combination of the grid's values as (point, config, bots), all
    checked first: one ValueError names every bad field, value and point."""
    if not isinstance(grid, Mapping) or not grid:
        raise ValueError("the sweep grid must be a non-empty {field: [values, ...]} mapping")
    problems, axes = [], {}
    for name, values in grid.items():
        try:
            base.kind(name)  # a field, field[i] or alias (Config.parameters())
        except (ValueError, TypeError) as e:
            problems.append(str(e))
            continue
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not len(values):
            problems.append(f"{name}: give a non-empty list of values, got {values!r}")
            continue
        typed = []
        for v in values:
            try:
                typed.append(base.value_for(name, v))
            except ValueError as e:
                problems.append(str(e))
        twice = sorted({_show_value(v) for v in typed if typed.count(v) > 1}, key=str)
        if twice:  # a repeated value would be played twice and drawn as two points
            problems.append(f"{name}: each value once, got {', '.join(map(str, twice))} more than once")
        axes[name] = typed
    points = [dict(zip(axes, combo)) for combo in itertools.product(*axes.values())] if axes else []
    built, bad = [], 0
    for point in points:
        try:
            cfg = base.with_values(point)
            built.append((point, cfg, _bot_refs(mod, bots, cfg.players)))
        except (ValueError, TypeError) as e:
            bad += 1
            label = ", ".join(f"{k}={_show_value(v)}" for k, v in point.items())
            problems.append(f"[{label}] {e}")
    if problems:
        head = f"{bad} of {len(points)} sweep points are invalid" if bad else "bad sweep grid"
        if bad and bad < len(problems):
            head = "bad sweep grid; " + head
        raise ValueError(head + ": " + "; ".join(problems))
    return built


def _show_value(v) -> Any:
    """Tuples as the text `--set`/`--vary` take: 0,-1,2 (and 5,4/3,2 for tuples of tuples)."""
    if isinstance(v, tuple):
        if v and isinstance(v[0], tuple):
            return "/".join(_show_value(x) for x in v)
        return ",".join("true" if x is True else "false" if x is False else str(x) for x in v)
    return v


def sweep(
    game,
    base_config=None,
    grid: Mapping[str, Sequence] | None = None,
    bots="random",
    games: int = 1000,
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool = True,
    *,
    workers: int | None = None,
    rotate: bool = False,
):
    """Simulate every combination of `grid` values ({name: [values]}; a name is a
    field, an element `field[i]` or an alias such as `hand_size`, see
    `Config.parameters()`) on top of `base_config`; one table, one row per point x seat.

    Every point is checked before any game is played; all bad points are
    reported in one ValueError. Each point uses the same seed, so point A's
    game i and point B's game i see the same shuffles where the rules let
    them (common random numbers: differences between points are less noisy).
    Columns: the varied fields, point, seat, bot, games, win_rate, win_low,
    win_high, score, score_low, score_high; turns, rounds and lead_changes
    per game (a varied field of the same name keeps its column, and that
    length is then `rounds_played`, say), and mean_<column> per seat for the
    game's own numeric columns, each with _low and _high (95% CI).
    `table.attrs["partial"]` is True after a Ctrl-C.
    """
    pd = _pd()
    mod = game_module(game)
    base = mod.Config() if base_config is None else base_config
    if not isinstance(base, mod.Config):
        raise ValueError(f"base_config must be a {mod.NAME} Config, got {type(base).__name__}")
    games = _check_games(games)
    seed = check_seed(seed)
    workers = _check_workers(workers)
    points = _grid_points(mod, base, grid, bots)
    jobs = [_Job(k, mod, cfg, refs, seed, games, rotate) for k, (point, cfg, refs) in enumerate(points)]
    out, interrupted = _run(jobs, executor, workers, progress, f"{mod.TITLE} sweep")
    frames = []
    for k, (point, cfg, refs) in enumerate(points):
        res = Results(mod, cfg, refs, seed, games, rotate, out[k], partial=interrupted)
        frames.append(_sweep_rows(res, point, k))
    table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    table.attrs["partial"] = interrupted
    table.attrs["seed"] = seed
    return table


def _sweep_rows(res: Results, point: dict, k: int):
    """One row per seat for one sweep point: its summary, plus means with
    95% intervals of game length, lead changes and the game's own columns."""
    rows = res.summary().seats.copy()
    for i, (name, value) in enumerate(point.items()):
        rows.insert(i, name, [_show_value(value)] * len(rows))
    rows.insert(len(point), "point", k)
    if not res.completed:
        return rows
    for col in ("turns", "rounds", "lead_changes"):
        # a swept field of that name (Bucket Brigade's and Duck, Duck, Bruce's `rounds`) keeps its
        # column: the game length is then <col>_played (the field's values stay whole numbers)
        name = f"{col}_played" if col in point else col
        rows[name], rows[f"{name}_low"], rows[f"{name}_high"] = mean_ci(res.games[col].tolist())
    t = res.table
    for c in _own_columns(t):
        by_seat = {s: mean_ci(part.dropna().tolist()) for s, part in t.groupby("seat")[c]}
        for j, suffix in enumerate(("", "_low", "_high")):
            rows[f"mean_{c}{suffix}"] = rows["seat"].map(lambda s: by_seat[s][j])
    return rows



def measures(game, config=None) -> dict[str, str]:
    """{column: what it means} for every measure a sweep table carries with a
    95% interval (`column`, `column_low`, `column_high`): win rate and mean
    score per seat, game length and lead changes per game, and mean_<name>
    for each of the game's own game_stats / score_sources columns. The
    Explorer, compare and tune let the reader pick any of them."""
    mod = game_module(game)
    config = mod.Config() if config is None else config
    out = {
        "win_rate": "win rate per seat (a shared win counts 1/k)",
        "score": "mean final score per seat",
        "turns": "turns per game",
        "rounds": "rounds per game",
        "lead_changes": "lead changes per game (turn by turn)",
    }
    names, funcs = resolve_bots(mod, "random", config.players)
    one = play_game(mod, config, names, funcs, 0, 0)  # one quick game names the game's own columns
    said = getattr(mod, "MEASURES", {})  # the game module's own words for its columns
    for k, v in one.stats.items():
        if isinstance(v, (int, float)) or (isinstance(v, (list, tuple)) and all(isinstance(x, (int, float)) for x in v)):
            out[f"mean_{k}"] = said.get(k) or f"{k}: the game's own figure (game_stats), mean per seat" + (
                "" if isinstance(v, (list, tuple)) else " (one value per game)")
    for k in dict.fromkeys(k for d in one.sources or () for k in d):
        out[f"mean_points_{k}"] = said.get(f"points_{k}") or f"points from {k} per seat (score_sources)"
    return out


_PER_GAME = {
    "turns": "turns per game",
    "rounds": "rounds per game",
    "lead_changes": "lead changes per game (turn by turn)",
}


def measure_name(known: Sequence[str], name: str) -> str:
    """The name `measures()` uses for `name` ("steals_tried" -> "mean_steals_tried"),
    or a ValueError listing the known ones."""
    if not isinstance(name, str):
        raise ValueError(f"a measure is a name such as 'turns', got {name!r}")
    name = name.strip()
    if name in known:
        return name
    if f"mean_{name}" in known:
        return f"mean_{name}"
    raise ValueError(f"unknown measure {name!r}; known: {', '.join(known)}")


def _table_measures(table) -> list[str]:
    """What measures() would list, read from a results table (no game played)."""
    return ["win_rate", "score", *_PER_GAME, *(f"mean_{c}" for c in _own_columns(table))]


def _chosen_measures(res: Results, seats, names: list[str]):
    """One row per chosen measure and seat (or one for a per-game figure), each with a 95% CI.
    A game is the independent unit: 'all' averages a game's seats first."""
    pd = _pd()
    rows = []
    t, g = res.table, res.games
    for name in dict.fromkeys(names):
        if name in ("win_rate", "score"):
            low, high = ("win_low", "win_high") if name == "win_rate" else ("score_low", "score_high")
            rows += [[name, int(r["seat"]), r[name], r[low], r[high]] for _, r in seats.iterrows()]
        elif name in _PER_GAME:
            rows.append([name, None, *mean_ci(g[name].tolist())])
        else:
            col = name[len("mean_"):]
            per_seat = col.startswith("points_") or any(
                isinstance(r.stats.get(col), (list, tuple)) for r in res.records[:1])
            if per_seat:
                for s, part in t.groupby("seat", sort=True)[col]:
                    rows.append([name, int(s), *mean_ci(part.dropna().tolist())])
            rows.append([name, None, *mean_ci(t.groupby("game")[col].mean().dropna().tolist())])
    out = pd.DataFrame(rows, columns=["measure", "seat", "mean", "low", "high"])
    out["seat"] = out["seat"].astype("Int64")
    return out


def measure_columns(measure: str) -> tuple[str, str, str]:
    """The sweep table's (value, low, high) columns for a measure from `measures()`."""
    if measure == "win_rate":
        return ("win_rate", "win_low", "win_high")
    return (measure, f"{measure}_low", f"{measure}_high")


# --- balance ------------------------------------------------------------------

@dataclasses.dataclass
class BalanceReport:
    """Is the game fair to every seat, how long and how decisive is it, where
    do points come from, and how much does skill matter. Every rate carries
    a 95% interval; tests give p-values."""

    heading: str
    players: int
    games: int
    seats: Any  # DataFrame: seat, win_rate, win_low, win_high, fair, sole_wins
    seat_test: dict  # first-seat binomial test + chi-square over all seats (sole winners only)
    length: Any  # DataFrame (as Summary.length)
    decisiveness: Any  # DataFrame: checkpoint, games, leader_win_rate, low, high, fair
    lead_changes: dict  # mean, low, high, share_none, share_none_low, share_none_high
    sources: Any  # DataFrame: source, mean_points, low, high, share, share_low, share_high (or None)
    skill: dict  # strong, weak, games, win_rate, low, high, fair, skill, skill_low, skill_high
    partial: bool = False

    def to_dict(self) -> dict:
        def frame(df):
            return None if df is None else df.to_dict(orient="records")

        return {
            "heading": self.heading, "players": self.players, "games": self.games, "partial": self.partial,
            "seats": frame(self.seats), "seat_test": self.seat_test, "length": frame(self.length),
            "decisiveness": frame(self.decisiveness), "lead_changes": self.lead_changes,
            "sources": frame(self.sources), "skill": self.skill,
        }

    def __str__(self) -> str:
        out = [self.heading]
        if not self.games:
            return "\n".join(out + ["No game finished."])
        fair = 1 / self.players
        out.append(f"Seat advantage (bots rotated through the seats; fair share {_pct(fair)}):")
        out.append(
            _fmt_table(
                ["seat", "win rate", "95% CI"],
                [[_seat(int(r.seat)), _pct(r.win_rate), _ci_pct(r.win_low, r.win_high)] for r in self.seats.itertuples()],
            )
        )
        t = self.seat_test
        out.append(
            f"  First seat vs fair share: {t['first_seat_sole_wins']} sole wins in {t['sole_winner_games']} games "
            f"with one winner, exact binomial p = {t['first_seat_p']:.3g}; all seats equal: chi-square "
            f"{t['chi_square']:.2f} (df {self.players - 1}), p = {t['chi_square_p']:.3g}."
        )
        out += _length_lines(self.length)
        out.append(f"Decisiveness: how often the sole leader at a point goes on to win (chance alone: {_pct(fair)}):")
        out.append(
            _fmt_table(
                ["leader after", "games", "leader wins", "95% CI"],
                [[r.checkpoint, str(r.games), _pct(r.leader_win_rate) if r.games else "n/a",
                  _ci_pct(r.low, r.high) if r.games else "n/a"] for r in self.decisiveness.itertuples()],
            )
        )
        lc = self.lead_changes
        out.append(
            f"Lead changes per game (turn by turn): {_num(lc['mean'])} (95% CI {_num(lc['low'])} to {_num(lc['high'])}); "
            f"no change at all in {_pct(lc['share_none'])} of games ({_ci_pct(lc['share_none_low'], lc['share_none_high'])})."
        )
        if self.sources is not None and len(self.sources):
            out.append("Where the points come from (per player per game, and share of all points; 95% CIs):")
            out.append(
                _fmt_table(
                    ["source", "points", "95% CI", "share", "95% CI"],
                    [[r.source, _num(r.mean_points), f"{_num(r.low)} to {_num(r.high)}", _pct(r.share),
                      _ci_pct(r.share_low, r.share_high)] for r in self.sources.itertuples()],
                )
            )
        else:
            out.append("Where the points come from: this game module has no score_sources hook.")
        s = self.skill
        if s:
            out.append(
                f"Skill vs luck: {s['strong']} in one seat against {s['weak']} in the others, seats rotated, "
                f"{s['games']} games: wins {_pct(s['win_rate'])} (95% CI {_ci_pct(s['low'], s['high'])}; fair share "
                f"{_pct(s['fair'])}). Skill index {_num(s['skill'])} (95% CI {_num(s['skill_low'])} to "
                f"{_num(s['skill_high'])}; 0 = pure luck, 1 = the stronger bot always wins)."
            )
        return "\n".join(out)

    def _repr_pretty_(self, p, cycle):
        p.text(str(self))


def balance_report(
    game,
    config=None,
    bots="random",
    games: int = 1000,
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool = True,
    *,
    workers: int | None = None,
    skill: tuple[str, str] | None = None,
) -> BalanceReport:
    """Seat advantage, length, decisiveness, lead changes, scoring sources and
    skill vs luck, each with its uncertainty.

    The main run rotates `bots` through the seats (each bot holds each seat
    equally often), so a seat difference is the seat's, not a bot's. Skill vs
    luck: the strongest bot of the lineup (highest win rate in the main run)
    in one seat against the weakest in all others, seats rotated, `games`
    more games; with one bot in the lineup, `skill` (default
    ("heuristic", "random")) names the pair. `skill=()` skips it.
    """
    pd = _pd()
    mod, config, refs = _setup(game, config, bots)
    games = _check_games(games)
    seed = check_seed(seed)
    n = config.players
    if skill is None:
        skill = ("heuristic", "random")
    if skill:
        if len(skill) != 2:
            raise ValueError(f"skill must name two bots (strong, weak), got {skill!r}")
        for b in skill:
            _bot_refs(mod, [b], n)  # names checked before any game is played
    res = simulate(mod, config, refs, games, seed, executor, progress, workers=workers, rotate=True)
    summary = res.summary()
    t, g = res.table, res.games

    fair = 1 / n
    seats = summary.seats[["seat", "win_rate", "win_low", "win_high"]].copy()
    seats["fair"] = fair
    sole = g[g["winners"].map(len) == 1]
    sole_counts = [int((sole["winners"].map(lambda w: w[0]) == s).sum()) for s in range(n)]
    seats["sole_wins"] = sole_counts
    chi, chi_p = chi_square_uniform(sole_counts)
    seat_test = {
        "sole_winner_games": len(sole),
        "first_seat_sole_wins": sole_counts[0] if sole_counts else 0,
        "first_seat_p": binomial_two_sided_p(sole_counts[0], len(sole), fair) if len(sole) else 1.0,
        "chi_square": chi,
        "chi_square_p": chi_p,
        "shared_win_games": int(res.completed - len(sole)),
    }

    dec_rows = []
    share_of = {}  # (game, seat) -> win share
    for r in t[["game", "seat", "win_share"]].itertuples(index=False):
        share_of[(r.game, r.seat)] = r.win_share
    checkpoints = [c for c in g.columns if c.startswith("leader_after_round_")] + [f"leader_at_{p}pct" for p in CHECKPOINTS]
    for col in checkpoints:
        led = g[["game", col]].dropna()
        wins = [share_of[(int(a), int(b))] for a, b in zip(led["game"], led[col])]
        lo, hi = wilson(sum(wins), len(wins))
        label = (
            f"round {col.rsplit('_', 1)[1]}" if col.startswith("leader_after_round_")
            else f"{col.split('_')[2][:-3]}% of turns"
        )
        dec_rows.append([label, len(wins), sum(wins) / len(wins) if wins else math.nan, lo, hi, fair])
    decisiveness = pd.DataFrame(dec_rows, columns=["checkpoint", "games", "leader_win_rate", "low", "high", "fair"])

    m, lo, hi = mean_ci(g["lead_changes"].tolist()) if len(g) else (math.nan,) * 3
    still = int((g["lead_changes"] == 0).sum())
    none_lo, none_hi = wilson(still, len(g))
    lead = {
        "mean": m, "low": lo, "high": hi, "share_none": still / len(g) if len(g) else math.nan,
        "share_none_low": none_lo, "share_none_high": none_hi,
    }

    sources = None
    point_cols = [c for c in t.columns if c.startswith("points_")]
    if point_cols and len(t):
        per_game = t.groupby("game")[point_cols + ["score"]].sum()
        rows = []
        for c in point_cols:
            pm, plo, phi = mean_ci((per_game[c] / n).tolist())  # games are the independent units
            sh, slo, shi = ratio_ci(per_game[c].tolist(), per_game["score"].tolist())
            rows.append([c[len("points_"):], pm, plo, phi, sh, slo, shi])
        sources = pd.DataFrame(rows, columns=["source", "mean_points", "low", "high", "share", "share_low", "share_high"])

    skill_out = {}
    if skill and res.completed:
        distinct = list(dict.fromkeys(res.bots))
        if len(distinct) >= 2:
            ranked = summary.bots.sort_values("win_rate", ascending=False)
            strong, weak = ranked["bot"].iloc[0], ranked["bot"].iloc[-1]
        else:
            strong, weak = skill
        lineup = [strong] + [weak] * (n - 1)
        h2h = simulate(mod, config, lineup, games, derive(seed, "skill"), executor, progress, workers=workers, rotate=True)
        if h2h.completed:
            per_game = h2h.table[h2h.table["bot"] == strong].groupby("game")["win_share"].sum().tolist()
            rate, lo, hi = _rate_row(per_game)
            scale = 1 - fair
            skill_out = {
                "strong": strong, "weak": weak, "games": h2h.completed, "win_rate": rate, "low": lo, "high": hi,
                "fair": fair, "skill": (rate - fair) / scale, "skill_low": (lo - fair) / scale,
                "skill_high": (hi - fair) / scale,
            }
        res.partial = res.partial or h2h.partial
    heading = res.describe()
    return BalanceReport(heading, n, res.completed, seats, seat_test, summary.length, decisiveness, lead, sources,
                         skill_out, res.partial)


__all__ = ["simulate", "sweep", "balance_report", "measures", "measure_columns", "Results", "Summary", "BalanceReport", "GameResult", "play_game", "Tally", "Totals"]
