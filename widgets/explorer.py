"""Explorer: move a rule number (or two) and watch the game shift, with 95% intervals.

The reader moves a slider and that value is played (seeded: the same value
always gives the same numbers) and joins the charts; "Run every value" fills in
the rest. Any number of the rules can go on the slider: a field (`bonus`), an
element of a list (`hand_sizes[1]`, `track[0]`) or a name a game gives a
derived number (`hand_size`). Two fields at once give a heat map.

This module is only the kernel's transport. What is played and what is drawn
live in `explorer_session.ExplorerSession` (no Jupyter import), which the course
site also runs in the reader's browser; `static/explorer.js` draws both, its
charts plain Vega-Lite from `specs.py`. The Explorer draws at once: in a kernel
the first value is played just after the cell has run (its status says so), so
no host waits for the games to show the widget. While the reader looks, the
values next to the current one are played in worker processes (`PoolRunner`,
with widgets/prefetch.py), so a move to a neighbour costs only a redraw.
"""

from __future__ import annotations

import asyncio
import weakref
from pathlib import Path

import anywidget
import pandas as pd
import traitlets

from meeple.rules.sim import default_workers, shared_pool, simulate

from . import site_charts, vega
from .explorer_session import ExplorerSession, candidate_values, label
from .prefetch import Prefetch, cancel_others

STATIC = Path(__file__).parent / "static"
# Background chunks are sized for this many per pool worker and value: small enough that a move
# to a far value waits at most about one short chunk per worker (a running chunk cannot be stopped).
CHUNKS_PER_WORKER = 4
_BUNDLE: list[str] = []  # vega-embed + explorer.js, built once a process (vl-convert takes ~4 s)


def front_end() -> str:
    """The Explorer's ES module: vega-embed, Vega-Lite and Vega (vl-convert's copy, the one
    Altair's offline charts use: nothing from another host), then static/explorer.js."""
    if not _BUNDLE:
        _BUNDLE.append(vega.bundle((STATIC / "explorer.js").read_text())[0])
    return _BUNDLE[0]


def _asked(session: ExplorerSession) -> list[str] | None:
    """The measure simulate must compute: a design measure only when the Explorer shows one (the
    cold move of the default measures plays the very chunk calls it always did)."""
    return [session.measure] if session.design else None


class PoolRunner:
    """Plays an Explorer's values: the reader's in the foreground (`executor`, or the shared
    process pool, or here with workers=1), their neighbours in the background (a Prefetch
    over the same pool), whose futures a later foreground run of the same value is handed."""

    def __init__(self, workers: int | None = None, executor=None):
        self.workers, self.executor = workers, executor
        self.background: Prefetch | None = None  # made on the first move that has neighbours to play
        self.pending: dict = {}  # cell -> the chunk calls playing it in the background
        self.on_done = None  # called (on a pool thread) when a background future finishes

    def play(self, session: ExplorerSession, cells) -> dict:
        out = {}
        bg = self.background
        for cell in cells:
            config, refs = session.config_at(cell)
            if bg is not None and cell in self.pending:  # played (or playing) there: the same calls, the same futures
                res = simulate(session.mod, config, refs, session.games, session.seed, executor=bg, progress=False,
                               measures=_asked(session))
                bg.forget(self.pending.pop(cell, ()))
            else:
                res = simulate(session.mod, config, refs, session.games, session.seed, executor=self.executor,
                               progress=False, workers=self.workers, measures=_asked(session))
            out[cell] = res.records
        return out

    def queue(self, session: ExplorerSession, cells) -> list:
        """Start playing `cells` in the background; the futures started."""
        if self.background is None:
            n = self.workers or getattr(self.executor, "_max_workers", None) or default_workers()
            executor = self.executor
            pool = (lambda: executor) if executor is not None else (lambda: shared_pool(n))
            self.background = Prefetch(pool, CHUNKS_PER_WORKER * n)
        bg = self.background
        keep = []
        for cell in cells:
            config, refs = session.config_at(cell)
            keys = bg.queue(lambda ex, c=config, r=refs: simulate(session.mod, c, r, session.games, session.seed,
                                                                   executor=ex, progress=False,
                                                                   measures=_asked(session)))
            self.pending.pop(cell, None)  # listed in the order queued (the status names them so)
            self.pending[cell] = keys
            keep += keys
        for cell, keys in list(self.pending.items()):
            if not bg.futures(keys):  # all cancelled before they started: nothing of it is kept
                del self.pending[cell]
        futures = bg.futures(keep)
        if self.on_done is not None:
            for fut in futures:
                fut.add_done_callback(self.on_done)
        return futures

    def futures(self, cell=None) -> list:
        """The background's futures (of one cell, or of every pending cell)."""
        if self.background is None:
            return []
        keys = self.pending.get(cell, ()) if cell is not None else [k for ks in self.pending.values() for k in ks]
        return self.background.futures(keys)

    def calls(self, cell) -> list:
        """The chunk calls queued for a cell."""
        return list(self.pending.get(cell, ()))

    def busy(self) -> list:
        if self.background is None:
            return []
        return [c for c, keys in self.pending.items() if any(not f.done() for f in self.background.futures(keys))]

    def ready(self) -> list:
        if self.background is None:
            return []
        ready = []
        for c, keys in self.pending.items():
            futs = self.background.futures(keys)
            if len(futs) == len(keys) and all(f.done() and not f.cancelled() and f.exception() is None for f in futs):
                ready.append(c)
        return ready

    def cancel(self, keep=()) -> None:
        """A reader's move goes first: every background game not started that does not play `keep`."""
        bg = self.background
        cancel_others(bg)
        if bg is not None:
            bg.cancel(keep=[k for c in keep for k in self.pending.get(c, ())])

    def reset(self) -> None:
        if self.background is not None:  # the other game count's games: none of them is wanted now
            self.background.cancel()
            self.background.forget([k for keys in self.pending.values() for k in keys])
        self.pending.clear()

    def close(self) -> None:
        if self.background is not None:
            self.background.shutdown()
        self.pending.clear()

    @property
    def submitted(self) -> int:
        """Chunk calls sent to the pool by the background (tests check nothing is played twice)."""
        return self.background.submitted if self.background is not None else 0


class Setting:
    """One of the Explorer's settings, read and set by `.value` (as the reader's control would)."""

    def __init__(self, explorer: "Explorer", get, message):
        self._explorer, self._get, self._message = weakref.proxy(explorer), get, message

    @property
    def value(self):
        return self._get()

    @value.setter
    def value(self, new) -> None:
        self._explorer.do(self._message(new))


class Explorer(anywidget.AnyWidget):
    """One rule number on a slider (or two, as a map); charts of what it does to the game.

    game, field: which game and which number: a field, `field[i]` or an alias
    (`config.parameters(numbers_only=True)` lists them), or a pair of them for
    a heat map. values: the values on the slider (a pair of lists for two
    fields; default: valid values near the current one). config: the rules to
    start from (a Config or a variant file's path): the baseline drawn behind
    the current value. bots: one per seat (or one for all, or "A,B": A in
    seat 1 against B); games: games per value; seed: same seed, same numbers.
    measure: what the second chart (the map, for two fields) shows; any
    column of `measures(game)` (`from meeple.rules.sim import measures`), chosen again in the widget.
    workers, executor: who plays (as for `sweep`). After each move the values
    next to the current one (along each slider) are played in the background,
    in the shared process pool (or `executor`), unless workers=1 without an
    executor; `close()` cancels what has not started.
    `session`: the ExplorerSession behind it (its numbers, status and specs).
    """

    _css = STATIC / "explorer.css"
    view = traitlets.Dict().tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    charts = traitlets.Dict().tag(sync=True)
    # what rebuilds this Explorer, saved with the widget: the course site's browser opens it again
    setup = traitlets.Dict().tag(sync=True)

    def __init__(self, game="bucket-brigade", field="bonus", values=None, config=None, bots="heuristic,random",
                 games: int = 300, seed: int = 0, workers: int | None = None, executor=None, measure: str | None = None,
                 **kwargs):
        self._closed = False
        runner = PoolRunner(workers, executor)
        self.session = ExplorerSession(game, field, values, config, bots, games, seed, measure, runner)
        self._background_allowed = not (executor is None and workers == 1)
        runner.on_done = _waker(self)
        weakref.finalize(self, runner.close)  # a widget collected stops its background games too
        type(self)._esm = front_end()  # built once a process, then the class's (anywidget reads it at __init__)
        super().__init__(**kwargs)
        self.on_msg(self._on_message)
        self.slider = self.sliders = None
        self.sliders = [self._slider(k) for k in range(len(self.session.fields))]
        self.slider = self.sliders[0]
        self.games = Setting(self, lambda: self.session.games, lambda n: {"do": "games", "games": n})
        self.measure = Setting(self, lambda: self.session.measure, lambda m: {"do": "measure", "measure": m})
        self.seat = Setting(self, lambda: self.session.seat, lambda s: {"do": "seat", "seat": s})
        self._sync()  # drawn at once: the first value is played next
        if site_charts.building_site():  # the course site: every value played, saved with the page
            self.show_all()
            self._sync()
            return
        try:  # in a kernel: play the first value just after this cell, once the widget is on the screen
            asyncio.get_running_loop().call_soon(self._first)
        except RuntimeError:  # no event loop (a script, a test): now
            self._first()

    def _slider(self, k: int) -> Setting:
        s = Setting(self, lambda: self.session.cell[k],
                    lambda v: {"do": "move", "value": v if len(self.session.fields) == 1 else
                               tuple(v if j == k else c for j, c in enumerate(self.session.cell))})
        s.options = [(label(v), v) for v in self.session.stops[k]]
        s.description = self.session.fields[k]
        return s

    def _first(self) -> None:
        if self._closed:
            return
        self.session.play_current()
        self._sync()
        self._prefetch()

    # --- what the reader does ------------------------------------------------

    @property
    def current(self):
        """The value under the slider (a pair of values for two fields)."""
        return self.session.current

    def do(self, msg: dict) -> dict:
        """One reader's action, as the front end sends it (see ExplorerSession.handle): the new view."""
        view = self.session.handle(msg)
        self._sync()
        if isinstance(msg, dict) and msg.get("do") in ("move", "games") and not self.session.error:
            self._schedule_prefetch()
        return view

    def show(self, value) -> None:
        """Simulate `value` (a pair for two fields) unless done already, move the slider(s) there, and redraw."""
        self.session.move(value)
        self._sync()
        self._schedule_prefetch()

    def show_all(self) -> None:
        """Simulate every value on the slider (every cell of the map)."""
        self.session.show_all()
        self._sync()

    @property
    def table(self) -> pd.DataFrame:
        """Every visited value, one row per value x seat, with 95% intervals."""
        rows = self.session.rows()
        return pd.DataFrame(rows) if rows else pd.DataFrame()

    def table_csv(self) -> str:
        """Every simulated value's numbers as CSV (what the "Numbers as CSV" button shows)."""
        return self.table.to_csv(index=False)

    def close(self) -> None:
        """Close the widget and cancel its background games not started yet."""
        self._closed = True
        session = getattr(self, "session", None)
        if session is not None:
            session.close()
        super().close()

    # --- plumbing --------------------------------------------------------------

    def _on_message(self, _widget, content, _buffers) -> None:
        answer = self.do(content).get("answer")
        if answer is not None:  # the CSV, for explorer.js to copy or show
            self.send(answer)

    def _sync(self) -> None:
        out = self.session.view()
        view = out["view"]
        if site_charts.building_site():  # the page's slider moves over every value before Python starts
            view = {**view, **site_charts.saved(self.session)}
        self.setup = self.session.setup(played=site_charts.building_site())
        self.error = out["error"]
        self.view = view
        self.charts = out["charts"]

    def _schedule_prefetch(self) -> None:
        try:  # in a kernel: queue the neighbours as its next task, once this move is drawn and answered
            asyncio.get_running_loop().call_soon(self._prefetch)
        except RuntimeError:  # no event loop (a script): now
            self._prefetch()

    def _prefetch(self) -> None:
        """Queue the neighbours of the current value not played yet. Other background games go on
        (a move to a value already played waits for none of them; a move to a new value
        cancels those not started)."""
        s = self.session
        if self._closed or not self._background_allowed or s.cell not in s.points:
            return
        todo = [c for c in s.neighbours(s.cell, s.came_from) if c not in s.points]
        if not todo and not s.pending:
            return
        s.runner.queue(s, todo)
        self._sync()

    def _collect(self) -> None:
        """Put the values played in the background into the table and the charts. Runs on the
        kernel's thread once no neighbour of the current value is playing any more: the
        charts are built once for all of them."""
        s = self.session
        if self._closed:
            return
        near = set(s.neighbours(s.cell, None))
        if any(c in near for c in s.busy()):
            return
        s.collect()
        self._sync()


def _waker(explorer: Explorer):
    """A future's done-callback (it runs on a pool thread): ask the kernel's event loop to
    call `explorer._collect()` on the kernel's own thread. Holds the widget weakly; without
    a running loop (a script) a neighbour is collected when the reader moves to it."""
    ref = weakref.ref(explorer)
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None

    def collect():
        e = ref()
        if e is not None:
            e._collect()

    def wake(_fut):
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(collect)
        except RuntimeError:  # the loop is closed (the kernel is going)
            pass

    return wake


__all__ = ["Explorer", "PoolRunner", "candidate_values", "front_end"]
