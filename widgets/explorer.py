"""Explorer: move one rule number and watch win rates and scores shift, with 95% intervals.

Each value the reader visits is simulated once (seeded, so the same value
always gives the same numbers) and joins the chart; "Run every value"
fills in the rest. The rules module does all the playing; this only asks
and draws.
"""

from __future__ import annotations

import html

import altair as alt
import ipywidgets as W
import pandas as pd

from meeple.rules.core import game_module
from meeple.rules.simulate import sweep

from . import charts, site_charts

MAX_GAMES = 20_000


def _numeric_fields(mod) -> dict[str, type]:
    out = {}
    for name, hint in mod.Config.field_types().items():
        if hint in (int, float, bool):
            out[name] = hint
    return out


def candidate_values(mod, config, field: str) -> list:
    """Values near the current one that make a valid config (for the slider)."""
    kind = _numeric_fields(mod).get(field)
    current = getattr(config, field)
    if kind is bool:
        return [False, True]
    step = 1 if kind is int else max(abs(current) / 5, 0.05)
    raw = [current + step * k for k in range(-5, 6)]
    if kind is float:
        raw = [round(v, 4) for v in raw]
    ok = []
    for v in raw:
        try:
            config.with_text({field: str(v).lower()})
        except ValueError:
            continue
        ok.append(v)
    return ok


class Explorer(W.VBox):
    """One rule number on a slider; charts of what it does to the game.

    game, field: which game and which Config field to vary (int, float or bool).
    values: the values on the slider (default: valid values near the current one).
    bots: one per seat (or one for all); games: games per value; seed: same seed, same numbers.
    """

    def __init__(self, game="bucket-brigade", field="bonus", values=None, config=None, bots="heuristic,random",
                 games: int = 300, seed: int = 0, workers: int | None = None, executor=None):
        self._mod = mod = game_module(game)
        self._config = mod.Config() if config is None else config
        if not isinstance(self._config, mod.Config):
            raise ValueError(f"config must be a {mod.NAME} Config, got {type(self._config).__name__}")
        fields = _numeric_fields(mod)
        if field not in fields:
            raise ValueError(f"field={field!r} is not allowed: one of {', '.join(fields)} (numbers and switches)")
        self._field = field
        self._bots = self._lineup(bots)
        if field == "players" and len(set(self._bots)) > 1:
            raise ValueError("bots: when players varies, name one bot for every seat (e.g. bots='heuristic')")
        values = candidate_values(mod, self._config, field) if values is None else list(values)
        if not values:
            raise ValueError(f"values for {field} must be a non-empty list")
        for v in values:  # every slider stop must be a valid config
            try:
                self._config.with_text({field: str(v).lower()})
            except ValueError as e:
                raise ValueError(f"value {v!r} for {field} is not allowed: {e}") from None
        self._check_games(games)
        self._seed, self._workers, self._executor = seed, workers, executor
        self._points: dict = {}  # value -> sweep rows
        alt.JupyterChart.enable_offline()  # Vega from the vl-convert wheel, not a CDN

        start = getattr(self._config, field)
        self.slider = W.SelectionSlider(options=values, value=start if start in values else values[0],
                                        description=field, continuous_update=False,
                                        layout=W.Layout(width="420px"), style={"description_width": "initial"})
        # a plain IntText, checked below: a bounded box would silently clamp what the reader typed
        self.games = W.IntText(value=games, step=100, description="games per value",
                               style={"description_width": "initial"}, layout=W.Layout(width="200px"))
        self._games = games
        self.run_all = W.Button(description="Run every value", icon="play")
        self.status = W.HTML()
        self.numbers = W.HTML()
        self.win_chart = alt.JupyterChart(self._empty("win rate"))
        self.score_chart = alt.JupyterChart(self._empty("mean score"))
        self.slider.observe(lambda change: self.show(change["new"]), names="value")
        self.games.observe(self._games_changed, names="value")
        self.run_all.on_click(lambda _b: self.show_all())
        self.add_class("meeple-explorer")
        super().__init__([
            W.HTML(f"<b>{html.escape(mod.TITLE)}</b>: how does <code>{html.escape(field)}</code> change the game? "
                   f"Bots: {html.escape(', '.join(self._bots))}; rules otherwise: {html.escape(self._config.describe())}."),
            W.HBox([self.slider, self.games, self.run_all], layout=W.Layout(flex_flow="row wrap")),
            self.status,
            W.HBox([self.win_chart, self.score_chart], layout=W.Layout(flex_flow="row wrap")),
            self.numbers,
        ])
        self.show(self.slider.value)
        if site_charts.building_site():  # the course site: every value run, a chart whose slider needs no Python
            self.show_all()
            site_charts.attach(self, self.table, field, list(values), self.slider.value, games, seed, {
                "game": mod.NAME, "config": self._config.to_dict(), "field": field, "values": list(values),
                "bots": list(self._bots), "games": games, "seed": seed})

    # --- what the reader does ------------------------------------------------

    def show(self, value) -> None:
        """Simulate `value` (unless done already), move the slider there, and redraw."""
        if value not in self.slider.options:
            raise ValueError(f"{self._field}={value!r} is not on the slider; allowed: {', '.join(map(str, self.slider.options))}")
        self._simulate([value])
        if self.slider.value != value:
            self.slider.value = value  # its observer redraws
        else:
            self._draw(value)

    def show_all(self) -> None:
        """Simulate every value on the slider."""
        self._simulate(list(self.slider.options))
        self._draw(self.slider.value)

    @property
    def table(self) -> pd.DataFrame:
        """Every visited value, one row per value x seat, with 95% intervals."""
        if not self._points:
            return pd.DataFrame()
        order = {v: i for i, v in enumerate(self.slider.options)}
        frames = [rows.assign(point=order[v]) for v, rows in self._points.items()]
        return pd.concat(frames, ignore_index=True).sort_values(["point", "seat"], ignore_index=True)

    # --- plumbing --------------------------------------------------------------

    def _lineup(self, bots) -> list[str]:
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
        self.show(self.slider.value)

    def _simulate(self, values) -> None:
        todo = [v for v in values if v not in self._points]
        if not todo:
            return
        self.status.value = f"Playing {self._games} games for {len(todo)} value(s) of {html.escape(self._field)}…"
        # one name for every seat lets the lineup follow a varying player count
        bots = self._bots[0] if len(set(self._bots)) == 1 else self._bots
        table = sweep(self._mod, self._config, {self._field: todo}, bots, self._games, self._seed,
                      executor=self._executor, progress=False, workers=self._workers)
        for k, v in enumerate(todo):
            self._points[v] = table[table["point"] == k].reset_index(drop=True)
        self.status.value = f"<span class='meeple-done'>{len(self._points)} of {len(self.slider.options)} values simulated.</span>"

    def _empty(self, what: str) -> alt.Chart:
        return alt.Chart(pd.DataFrame({"x": []})).mark_point().properties(title=f"{what}: nothing simulated yet")

    def _draw(self, current) -> None:
        table = self.table
        self.win_chart.chart = charts.win_rate_chart(table, self._field)
        self.score_chart.chart = charts.score_chart(table, self._field)
        rows = self._points[current]
        cells = "".join(
            f"<tr><td>Player {r.seat + 1} ({html.escape(str(r.bot))})</td>"
            f"<td>{r.win_rate:.1%}</td><td>{r.win_low:.1%} to {r.win_high:.1%}</td>"
            f"<td>{r.score:.2f}</td><td>{r.score_low:.2f} to {r.score_high:.2f}</td></tr>"
            for r in rows.itertuples()
        )
        self.numbers.value = (
            f"<div class='meeple-numbers'><b>{html.escape(self._field)} = {html.escape(str(current))}</b>, "
            f"{self._games} games, seed {self._seed}"
            "<table><tr><th>seat</th><th>win rate</th><th>95% CI</th><th>mean score</th><th>95% CI</th></tr>"
            f"{cells}</table></div>"
        )


__all__ = ["Explorer", "candidate_values"]
