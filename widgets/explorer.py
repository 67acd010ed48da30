"""Explorer: move a rule number (or two) and watch the game shift, with 95% intervals.

Each value the reader visits is simulated once (seeded, so the same value
always gives the same numbers) and joins the chart; "Run every value"
fills in the rest. While the reader looks, the values next to the current
one are simulated in worker processes and join the chart when done, so a
move to a neighbour costs only a redraw (widgets/prefetch.py). Any number
of the rules can go on the slider: a field (`bonus`), an element of a list
(`hand_sizes[1]`, `track[0]`) or a name a game gives a derived number
(`hand_size`). The value the reader started
from stays drawn behind the current one; the second chart shows whichever
measure the reader picks (the game's own figures too); two fields at once
give a heat map with the current cell outlined. The rules module does all
the playing; this only asks and draws.
"""

from __future__ import annotations

import asyncio
import html
import itertools
import weakref
from os import PathLike
from pathlib import Path

import altair as alt
import anywidget
import ipywidgets as W
import pandas as pd
import traitlets

from meeple.rules.config import describe_kind as _describe
from meeple.rules.core import game_module
from meeple.rules.simulate import default_workers, measures, shared_pool, sweep

from . import charts, site_charts
from .prefetch import Prefetch, cancel_others

MAX_GAMES = 20_000
# Background chunks are sized for this many per pool worker and value: small enough that a move
# to a far value waits at most about one short chunk per worker (a running chunk cannot be stopped).
CHUNKS_PER_WORKER = 4
CURRENT = "meeple_current"  # the Vega parameter holding the `point` of the value under the slider


def _numbers(config) -> list[str]:
    """Every name of one number or switch in this config (fields, field[i], aliases)."""
    return config.parameters(numbers_only=True)


def candidate_values(mod, config, field: str) -> list:
    """Values near the current one that make a valid config (for the slider)."""
    kind = config.kind(field)
    current = config.get(field)
    if kind is bool:
        return [False, True]
    if current is None:  # an optional number left at "none" (e.g. rounds = as many as players)
        raw = [None] + list(range(1, 11))
    else:
        step = 1 if kind is int else max(abs(current) / 5, 0.05)
        raw = [current + step * k for k in range(-5, 6)]
        if kind is float:
            raw = [round(v, 4) for v in raw]
    ok = []
    for v in raw:
        try:
            config.with_values({field: v})
        except ValueError:
            continue
        ok.append(v)
    return ok


class CopyButton(anywidget.AnyWidget):
    """A button that puts `text` on the reader's clipboard (JS in static/copy.js)."""

    _esm = Path(__file__).parent / "static" / "copy.js"
    text = traitlets.Unicode("").tag(sync=True)
    label = traitlets.Unicode("Copy the numbers as CSV").tag(sync=True)
    copied = traitlets.Int(0).tag(sync=True)  # how often the browser copied (for tests and curiosity)


_NONE = "none"  # a slider stop for None (an optional number at its default): ipywidgets reads None as "no selection"


def _label(value) -> str:
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


class Explorer(W.VBox):
    """One rule number on a slider (or two, as a map); charts of what it does to the game.

    game, field: which game and which number: a field, `field[i]` or an alias
    (`config.parameters(numbers_only=True)` lists them), or a pair of them for
    a heat map. values: the values on the slider (a pair of lists for two
    fields; default: valid values near the current one). config: the rules to
    start from (a Config or a variant file's path): the baseline drawn behind
    the current value. bots: one per seat (or one for all, or "A,B": A in
    seat 1 against B); games: games per value; seed: same seed, same numbers.
    measure: what the second chart (the map, for two fields) shows; any
    column of `measures(game)` (`from meeple.rules.simulate import measures`), chosen again in the widget.
    workers, executor: who plays (as for `sweep`). After each move the values
    next to the current one (along each slider) are played in the background,
    in the shared process pool (or `executor`), unless workers=1 without an
    executor; `close()` cancels what has not started.
    """

    def __init__(self, game="bucket-brigade", field="bonus", values=None, config=None, bots="heuristic,random",
                 games: int = 300, seed: int = 0, workers: int | None = None, executor=None, measure: str | None = None):
        self._mod = mod = game_module(game)
        if isinstance(config, (str, PathLike)):
            config = mod.Config.load(config)
        self._config = mod.Config() if config is None else config
        if not isinstance(self._config, mod.Config):
            raise ValueError(f"config must be a {mod.NAME} Config (or a variant file), got {type(self._config).__name__}")
        fields = (field,) if isinstance(field, str) else tuple(field) if isinstance(field, (tuple, list)) else (field,)
        allowed = _numbers(self._config)
        if not 1 <= len(fields) <= 2 or len(set(fields)) != len(fields):
            raise ValueError(f"field={field!r} is not allowed: one number, or a pair of two different numbers")
        for f in fields:
            if f not in allowed:
                if isinstance(f, str) and f.strip():
                    try:  # a path out of range or an unknown name: the config's own message says exactly what
                        kind = self._config.kind(f)
                    except (ValueError, TypeError) as e:
                        raise ValueError(f"field={f!r} is not allowed: {e}") from None
                    if f.strip() in allowed:
                        raise ValueError(f"field={f!r} is not allowed: write it without spaces, {f.strip()!r}")
                    hint = (f"put one of its elements on the slider, e.g. {f.strip()}[0]" if f"{f.strip()}[0]" in allowed
                            else "a slider moves numbers and switches only")
                    raise ValueError(f"field={f!r} is not allowed: it holds {_describe(kind)}, not one number; {hint}")
                raise ValueError(f"field={f!r} is not allowed: one of {', '.join(allowed)} (numbers and switches)")
        if len(fields) == 2:  # hand_size and hand_sizes[1] are one number: a map of it against itself would lie
            self._config.with_values({f: self._config.get(f) for f in fields})
        self._fields = fields
        self._field = fields[0]  # the 1-D Explorer's field (the site's chart reads it)
        self._bots = self._lineup(bots)
        if "players" in fields and len(set(self._bots)) > 1:
            raise ValueError("bots: when players varies, name one bot for every seat (e.g. bots='heuristic')")
        axes = self._stops = self._axes(values)
        self._check_games(games)
        self._seed, self._workers, self._executor = seed, workers, executor
        self._background: Prefetch | None = None  # made on the first move that has neighbours to play
        self._pending: dict = {}  # cell -> the chunk calls playing it in the background
        self._at = None  # the cell shown last (which way the reader moves: that neighbour goes first)
        self._closed = False
        self._points: dict = {}  # cell (a tuple of values) -> sweep rows
        self._version = 0  # counts changes to _points: a chart drawn from the same version only moves its ring
        self._drawn: dict = {}  # chart name -> (version, measure, ...) it was built from
        self._copied = None  # the version whose CSV the copy button holds
        self._baseline = tuple(self._config.get(f) for f in fields)
        # a measure named like a slider's field (`rounds`) is that field in the sweep table
        self._measures = {k: v for k, v in measures(mod, self._config).items() if k not in fields}
        measure = measure or ("score" if len(fields) == 1 else "win_rate")
        if measure not in self._measures:
            raise ValueError(f"measure={measure!r} is not allowed: one of {', '.join(self._measures)}")
        alt.JupyterChart.enable_offline()  # Vega from the vl-convert wheel, not a CDN

        self.sliders = []
        for f, vs, start in zip(fields, axes, self._baseline):
            self.sliders.append(W.SelectionSlider(
                options=[(_label(v), _NONE if v is None else v) for v in vs],
                value=_NONE if start is None and None in vs else start if start in vs else vs[0] if vs[0] is not None else _NONE,
                description=f,
                continuous_update=False, layout=W.Layout(width="420px"), style={"description_width": "initial"}))
        self.slider = self.sliders[0]
        # a plain IntText, checked below: a bounded box would silently clamp what the reader typed
        self.games = W.IntText(value=games, step=100, description="games per value",
                               style={"description_width": "initial"}, layout=W.Layout(width="200px"))
        self._games = games
        self.measure = W.Dropdown(options=[(f"{k}: {v}", k) for k, v in self._measures.items()], value=measure,
                                  description="measure", layout=W.Layout(width="420px"))
        self.seat = W.Dropdown(options=[(f"Player {s + 1} ({b})", s) for s, b in enumerate(self._bots)], value=0,
                               description="seat", layout=W.Layout(width="240px"))
        self.run_all = W.Button(description="Run every value", icon="play")
        self.csv_button = W.Button(description="Numbers as CSV", icon="copy",
                                   tooltip="show every simulated value's numbers as CSV, to select and copy")
        self.csv = W.Textarea(layout=W.Layout(width="95%", height="140px", display="none"))
        self.copy = CopyButton()
        self.copy.on_msg(lambda _w, msg, _b: self._toggle_csv() if msg == {"do": "show-text"} and
                         self.csv.layout.display == "none" else None)
        self.status = W.HTML()
        self.numbers = W.HTML()
        self._moving = False
        if len(fields) == 1:
            self.win_chart = alt.JupyterChart(self._empty("win rate"))
            self.score_chart = alt.JupyterChart(self._empty("the chosen measure"))
            charts_box = W.HBox([self.win_chart, self.score_chart], layout=W.Layout(flex_flow="row wrap"))
            pickers = [self.measure]
        else:
            self.map_chart = alt.JupyterChart(self._empty("the chosen measure"))
            charts_box = W.HBox([self.map_chart])
            pickers = [self.measure, self.seat]
        self.measure_chart = self.score_chart if len(fields) == 1 else self.map_chart
        for s in self.sliders:
            s.observe(lambda change: self._slid(), names="value")
        self.games.observe(self._games_changed, names="value")
        self.measure.observe(lambda change: self._redraw(), names="value")
        self.seat.observe(lambda change: self._redraw(), names="value")
        self.run_all.on_click(lambda _b: self.show_all())
        self.csv_button.on_click(lambda _b: self._toggle_csv())
        self.add_class("meeple-explorer")
        what = " and ".join(f"<code>{html.escape(f)}</code>" for f in fields)
        super().__init__([
            W.HTML(f"<b>{html.escape(mod.TITLE)}</b>: how {'does' if len(fields) == 1 else 'do'} {what} change the game? "
                   f"Bots: {html.escape(', '.join(self._bots))}; rules otherwise: {html.escape(self._config.describe())} "
                   f"(the baseline, {html.escape(self._cell_text(self._baseline))}, stays drawn)."),
            W.HBox([*self.sliders, self.games, self.run_all], layout=W.Layout(flex_flow="row wrap")),
            W.HBox(pickers, layout=W.Layout(flex_flow="row wrap")),
            self.status,
            charts_box,
            self.numbers,
            W.HBox([self.copy, self.csv_button]),
            self.csv,
        ])
        self.show(self.current)
        if len(fields) == 1 and site_charts.building_site():  # the course site: every value run, a chart whose slider needs no Python
            values = axes[0]
            self.show_all()
            site_charts.attach(self, self.table, field, list(values), self.current, games, seed, {
                "game": mod.NAME, "config": self._config.to_dict(), "field": field, "values": list(values),
                "bots": list(self._bots), "games": games, "seed": seed})

    # --- what the reader does ------------------------------------------------

    @property
    def current(self):
        """The value under the slider (a pair of values for two fields)."""
        cell = tuple(None if s.value == _NONE else s.value for s in self.sliders)
        return cell[0] if len(cell) == 1 else cell

    def show(self, value) -> None:
        """Simulate `value` (a pair for two fields) unless done already, move the slider(s) there, and redraw."""
        cell = (value,) if len(self._fields) == 1 else tuple(value) if isinstance(value, (tuple, list)) else None
        if cell is None or len(cell) != len(self._fields):
            raise ValueError(f"show takes a pair of values, one for {self._fields[0]} and one for {self._fields[1]}")
        for f, offered, v in zip(self._fields, self._stops, cell):
            if v not in offered:
                raise ValueError(f"{f}={v!r} is not on the slider; allowed: {', '.join(map(_label, offered))}")
        self._simulate([cell])
        self._moving = True  # one redraw for the whole move, not one per slider
        try:
            for s, v in zip(self.sliders, cell):
                s.value = _NONE if v is None else v
        finally:
            self._moving = False
        self._redraw()
        came_from, self._at = self._at, cell
        try:  # in a kernel: queue the neighbours as its next task, once this move is drawn and answered
            asyncio.get_running_loop().call_soon(self._prefetch, cell, came_from)
        except RuntimeError:  # no event loop (a script): now
            self._prefetch(cell, came_from)

    def show_all(self) -> None:
        """Simulate every value on the slider (every cell of the map)."""
        self._simulate(self._cells())
        self._redraw()

    @property
    def table(self) -> pd.DataFrame:
        """Every visited value, one row per value x seat, with 95% intervals."""
        if not self._points:
            return pd.DataFrame()
        order = {c: i for i, c in enumerate(self._cells())}
        frames = [rows.assign(point=order[c]) for c, rows in self._points.items()]
        return pd.concat(frames, ignore_index=True).sort_values(["point", "seat"], ignore_index=True)

    def table_csv(self) -> str:
        """Every simulated value's numbers as CSV (what the "Numbers as CSV" button shows)."""
        return self.table.to_csv(index=False)

    def close(self) -> None:
        """Close the widget and cancel its background games not started yet."""
        self._closed = True
        background = getattr(self, "_background", None)  # ipywidgets closes a widget whose __init__ failed too
        if background is not None:
            background.shutdown()
        if hasattr(self, "_pending"):
            self._pending.clear()
        super().close()

    # --- plumbing --------------------------------------------------------------

    def _axes(self, values) -> list[list]:
        """The slider stops for each field, each a valid config."""
        n = len(self._fields)
        if values is None:
            axes = [candidate_values(self._mod, self._config, f) for f in self._fields]
        elif n == 1:
            if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
                raise ValueError(f"values={values!r} is not allowed: a list of values for {self._fields[0]}, e.g. [0, 3, 6]")
            axes = [list(values)]
        elif isinstance(values, dict):
            axes = [list(values.get(f, candidate_values(self._mod, self._config, f))) for f in self._fields]
        elif isinstance(values, (tuple, list)) and len(values) == 2 and all(isinstance(v, (tuple, list, range)) for v in values):
            axes = [list(v) for v in values]
        else:
            raise ValueError(f"values for two fields: a pair of lists or a dict {{field: values}}, got {values!r}")
        typed_axes = []
        for f, vs in zip(self._fields, axes):
            if not vs:
                raise ValueError(f"values for {f} must be a non-empty list")
            typed = []
            for v in vs:  # every slider stop must be a valid config, held as its typed value ("3" -> 3)
                try:
                    v = self._config.value_for(f, v)
                    self._config.with_values({f: v})
                except (ValueError, TypeError) as e:
                    raise ValueError(f"value {v!r} for {f} is not allowed: {e}") from None
                if v in typed:
                    raise ValueError(f"values for {f} name {_label(v)} twice; give each value once")
                typed.append(v)
            typed_axes.append(typed)
        return typed_axes

    def _cells(self) -> list[tuple]:
        return list(itertools.product(*self._stops))

    def _cell_text(self, cell) -> str:
        return ", ".join(f"{f} = {_label(v)}" for f, v in zip(self._fields, cell))

    def _lineup(self, bots) -> list[str]:
        if not isinstance(bots, (str, list, tuple)) or not all(isinstance(b, str) for b in bots):
            raise ValueError(f"bots={bots!r} is not allowed: bot names, e.g. 'heuristic,random' or ['heuristic', 'random']")
        names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
        n = self._config.players
        if len(names) == 2 and n > 2:  # "heuristic,random": the first seat against the rest
            names = [names[0]] + [names[1]] * (n - 1)
        if len(names) == 1:
            names = names * n
        if len(names) != n:
            raise ValueError(f"need {n} bots (one per player), got {len(names)}")
        unknown = [b for b in names if b not in self._mod.BOTS]
        if unknown:
            raise ValueError(f"unknown bot {unknown[0]!r} for {self._mod.NAME}; known bots: {', '.join(self._mod.BOTS)}")
        return names

    @staticmethod
    def _check_games(games) -> None:
        if isinstance(games, bool) or not isinstance(games, int) or not 10 <= games <= MAX_GAMES:
            raise ValueError(f"games={games!r} is not allowed: a whole number from 10 to {MAX_GAMES}")

    def _games_changed(self, change) -> None:
        if change["new"] == self._games:  # e.g. the box put back after a refusal
            return
        try:
            self._check_games(change["new"])
        except ValueError as e:
            self.status.value = f"<span class='meeple-error'>{html.escape(str(e))}; still {self._games}.</span>"
            self.games.value = self._games  # put back the last good value, and say so
            return
        self._games = change["new"]
        self._points.clear()  # every point must use the same number of games
        if self._background is not None:  # the other count's games: none of them is wanted now
            self._background.cancel()
            self._background.forget([k for keys in self._pending.values() for k in keys])
        self._pending.clear()
        self.show(self.current)

    def _slid(self) -> None:
        if not self._moving:
            self.show(self.current)

    def _simulate(self, cells, wanted: bool = True) -> None:
        """Simulate the cells not done yet. wanted: the reader asked for them (not a
        background harvest), so they go first: every background game not started yet
        that does not play them, this widget's or another Explorer's, is cancelled."""
        todo = [c for c in dict.fromkeys(cells) if c not in self._points]
        if not todo:
            return
        background = self._background
        if wanted:
            cancel_others(background)
            if background is not None:
                background.cancel(keep=[k for c in todo for k in self._pending.get(c, ())])
        if wanted:  # a harvest is only put into the table: nothing for the reader to wait for
            what = " and ".join(self._fields)
            self.status.value = f"Playing {self._games} games for {len(todo)} value(s) of {html.escape(what)}…"
        groups: dict = {}  # cells sharing their first value: one sweep (a grid) each
        for c in todo:
            groups.setdefault(c[:-1], []).append(c[-1])
        for head, lasts in groups.items():
            cells_here = [head + (v,) for v in lasts]
            if background is not None and any(c in self._pending for c in cells_here):
                # played (or playing) in the background: the same sweep, handed the same futures
                table = self._sweep(head, lasts, background, None)
                for c in cells_here:
                    background.forget(self._pending.pop(c, ()))
            else:
                table = self._sweep(head, lasts, self._executor, self._workers)
            for k, c in enumerate(cells_here):
                self._points[c] = table[table["point"] == k].reset_index(drop=True)
            self._version += 1
        self._show_status()

    def _sweep(self, head: tuple, lasts: list, executor, workers):
        """One sweep: the fields before the last at `head`, the last over `lasts`."""
        grid = {f: [v] for f, v in zip(self._fields, head)}
        grid[self._fields[-1]] = lasts
        # one name for every seat lets the lineup follow a varying player count
        bots = self._bots[0] if len(set(self._bots)) == 1 else self._bots
        return sweep(self._mod, self._config, grid, bots, self._games, self._seed,
                     executor=executor, progress=False, workers=workers)

    def _show_status(self) -> None:
        total = len(self._cells())
        noun = "values" if len(self._fields) == 1 else "cells"
        text = f"<span class='meeple-done'>{len(self._points)} of {total} {noun} simulated.</span>"
        busy = self._busy()
        if busy:
            nexts = "; ".join(html.escape(self._cell_text(c)) for c in busy)
            text += f" <span class='meeple-background'>Simulating in the background: {nexts}…</span>"
        self.status.value = text

    # --- the neighbours, in the background ------------------------------------

    def _neighbours(self, cell: tuple, came_from) -> list[tuple]:
        """The cells one stop away along each slider: the way the reader last moved first."""
        axes = list(range(len(cell)))
        moved = [a for a in axes if came_from is not None and came_from[a] != cell[a]]
        out = []
        for a in moved + [a for a in axes if a not in moved]:
            stops = self._stops[a]
            i = stops.index(cell[a])
            back = a in moved and came_from[a] in stops and stops.index(came_from[a]) > i
            for j in ((i - 1, i + 1) if back else (i + 1, i - 1)):
                if 0 <= j < len(stops):
                    out.append(cell[:a] + (stops[j],) + cell[a + 1:])
        return out

    def _prefetch(self, cell: tuple, came_from) -> None:
        """Queue the neighbours of `cell` not simulated yet. Other background games go on
        (a move to a value already played waits for none of them; a move to a new value
        cancels those not started, in _simulate)."""
        if self._closed or (self._executor is None and self._workers == 1):
            return  # one process asked for: nothing runs beside it
        if cell != self._at:
            return  # queued for a value the reader has left already
        todo = [c for c in self._neighbours(cell, came_from) if c not in self._points]
        if not todo and not self._pending:
            return
        if self._background is None:
            n = self._workers or getattr(self._executor, "_max_workers", None) or default_workers()
            executor = self._executor
            pool = (lambda: executor) if executor is not None else (lambda: shared_pool(n))
            self._background = Prefetch(pool, CHUNKS_PER_WORKER * n)
            weakref.finalize(self, self._background.shutdown)  # a widget collected stops its games too
        background = self._background
        keep = []
        for c in todo:
            keys = background.queue(lambda ex, c=c: self._sweep(c[:-1], [c[-1]], ex, None))
            self._pending.pop(c, None)  # listed in the order queued (the status names them so)
            self._pending[c] = keys
            keep += keys
        for c, keys in list(self._pending.items()):
            if not background.futures(keys):  # all cancelled before they started: nothing of it is kept
                del self._pending[c]
        try:  # in a kernel: harvest on its own thread when the pool is done (see _collect)
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None  # a script: a neighbour is collected when the reader moves to it
        if loop is not None:
            wake = _waker(self, loop)
            for fut in background.futures(keep):
                fut.add_done_callback(wake)
        self._show_status()

    def _busy(self) -> list[tuple]:
        """The cells whose background games are still playing."""
        if self._background is None:
            return []
        return [c for c, keys in self._pending.items()
                if any(not f.done() for f in self._background.futures(keys))]

    def _ready(self) -> list[tuple]:
        """The cells whose background games have all been played."""
        if self._background is None:
            return []
        ready = []
        for c, keys in self._pending.items():
            futs = self._background.futures(keys)
            if len(futs) == len(keys) and all(f.done() and not f.cancelled() and f.exception() is None for f in futs):
                ready.append(c)
        return ready

    def _collect(self) -> None:
        """Put the values played in the background into the table and the charts.
        Runs on the kernel's thread (a callback of its event loop), once no neighbour of
        the current value is playing any more: the charts are built once for all of them."""
        if self._closed or self._at is None:
            return
        near = set(self._neighbours(self._at, None))
        if any(c in near for c in self._busy()):
            return
        ready = self._ready()
        if ready:
            self._simulate(ready, wanted=False)
            self._redraw()
        self._show_status()

    def _empty(self, what: str) -> alt.Chart:
        return alt.Chart(pd.DataFrame({"x": []})).mark_point().properties(title=f"{what}: nothing simulated yet")

    def _toggle_csv(self) -> None:
        shown = self.csv.layout.display != "none"
        self.csv.value = "" if shown else self.table_csv()
        self.csv.layout.display = "none" if shown else "block"
        self.csv_button.description = "Numbers as CSV" if shown else "Hide the CSV"

    def _redraw(self) -> None:
        cell = tuple(None if s.value == _NONE else s.value for s in self.sliders)
        if cell not in self._points:
            return
        measure, version = self.measure.value, self._version
        label = self._measures[measure].split(" (")[0]
        point = self._cells().index(cell)  # the table's `point` of this value
        if len(self._fields) == 1:
            f, base = self._fields[0], self._baseline[0]
            self._draw("win_chart", (version,), point,
                       lambda now: charts.win_rate_chart(self.table, f, baseline=base, current=now))
            self._draw("score_chart", (version, measure), point,
                       lambda now: charts.measure_chart(self.table, f, measure, label=label, baseline=base, current=now))
        else:
            x, y = self._fields
            seat = self.seat.value
            self._draw("map_chart", (version, measure, seat), point,
                       lambda now: charts.heatmap_chart(self.table, x, y, measure, seat, label=label, current=now,
                                                        baseline=self._baseline))
        if self._copied != version:
            self.copy.text = self.table_csv()  # what the copy button puts on the clipboard
            self._copied = version
        if self.csv.layout.display != "none":
            self.csv.value = self.copy.text
        self._numbers(cell, measure)

    def _draw(self, name: str, key: tuple, point: int, build) -> None:
        """Ring the value at `point` on chart `name`. Drawn already from the same numbers (`key`):
        only its Vega parameter moves (a few bytes to the browser); else `build(param)` makes the
        chart anew (Altair building and validating a spec with its data costs 0.1-0.2 s a chart)."""
        chart = getattr(self, name)
        if self._drawn.get(name) == key:
            setattr(chart.params, CURRENT, point)
        else:
            chart.chart = build(alt.param(name=CURRENT, value=point))
            self._drawn[name] = key

    def _numbers(self, cell, measure: str) -> None:
        from meeple.rules.simulate import measure_columns

        rows = self._points[cell]
        extra = measure not in ("win_rate", "score")
        value, low, high = measure_columns(measure)
        head = f"<th>{html.escape(measure)}</th><th>95% CI</th>" if extra else ""
        cells = "".join(
            f"<tr><td>Player {r['seat'] + 1} ({html.escape(str(r['bot']))})</td>"
            f"<td>{r['win_rate']:.1%}</td><td>{r['win_low']:.1%} to {r['win_high']:.1%}</td>"
            f"<td>{r['score']:.2f}</td><td>{r['score_low']:.2f} to {r['score_high']:.2f}</td>"
            + (f"<td>{r[value]:.2f}</td><td>{r[low]:.2f} to {r[high]:.2f}</td>" if extra else "")
            + "</tr>"
            for r in rows.to_dict(orient="records")
        )
        self.numbers.value = (
            f"<div class='meeple-numbers'><b>{html.escape(self._cell_text(cell))}</b>, "
            f"{self._games} games, seed {self._seed}"
            f"<table><tr><th>seat</th><th>win rate</th><th>95% CI</th><th>mean score</th><th>95% CI</th>{head}</tr>"
            f"{cells}</table></div>"
        )


def _waker(explorer: Explorer, loop):
    """A future's done-callback (it runs on a pool thread): ask the kernel's event loop to
    call `explorer._collect()` on the kernel's own thread. Holds the widget weakly."""
    ref = weakref.ref(explorer)

    def collect():
        e = ref()
        if e is not None:
            e._collect()

    def wake(_fut):
        try:
            loop.call_soon_threadsafe(collect)
        except RuntimeError:  # the loop is closed (the kernel is going)
            pass

    return wake


__all__ = ["Explorer", "candidate_values"]
