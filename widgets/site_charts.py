"""The Explorer as the course site shows it: a chart whose slider needs no Python.

When the site is built (`lessons/build_site.py` sets MEEPLE_SITE=1), each
Explorer simulates every value on its slider with the lesson's own seed and
games, then shows one Altair chart over that sweep table: the same win-rate and
mean-score curves with 95% intervals as in JupyterLab, the value under the
slider ringed, and the numbers table of that value. The slider is a Vega
parameter (`alt.param(bind=...)`), so the published page redraws by itself.
The Explorer's setup is left in the page (`data-meeple-setup`) so the site's
live runtime can simulate other game counts in the reader's browser.
"""

from __future__ import annotations

import html
import json
import os

import altair as alt
import ipywidgets as W
import pandas as pd

from . import charts

ENV = "MEEPLE_SITE"
PARAM = "meeple_value"  # the slider's name in Vega expressions (never a data column)
WIDTH, HEIGHT = 290, 200  # two panels side by side fit the book's text column (about 780 px)
COLUMNS = ["win rate", "95% CI (win)", "mean score", "95% CI (score)"]


def building_site() -> bool:
    """True while the course site is being built (MEEPLE_SITE=1)."""
    return os.environ.get(ENV, "") not in ("", "0")


def even_steps(values) -> float | None:
    """The step of evenly spaced whole numbers (a range slider fits them), else None."""
    if len(values) < 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in values):
        return None
    steps = {b - a for a, b in zip(values, values[1:])}
    return steps.pop() if len(steps) == 1 and min(steps) > 0 else None


def slider(field: str, values, start) -> alt.Parameter:
    """A range slider for evenly spaced whole numbers, a select for anything else
    (0,1,2,3,4,6,8,10 or fractions: a range would offer values never simulated)."""
    step = even_steps(values)
    label = f"{field.replace('_', ' ')} "
    if step is not None:
        bind = alt.binding_range(min=values[0], max=values[-1], step=step, name=label)
    else:
        bind = alt.binding_select(options=list(values), labels=[str(v) for v in values], name=label)
    return alt.param(name=PARAM, value=start, bind=bind)


def numbers(table: pd.DataFrame) -> pd.DataFrame:
    """The Explorer's numbers table as text, one row per value x seat (same formats as in JupyterLab)."""
    return table.assign(
        who=[f"Player {s + 1} ({b})" for s, b in zip(table["seat"], table["bot"])],
        **{
            COLUMNS[0]: [f"{v:.1%}" for v in table["win_rate"]],
            COLUMNS[1]: [f"{lo:.1%} to {hi:.1%}" for lo, hi in zip(table["win_low"], table["win_high"])],
            COLUMNS[2]: [f"{v:.2f}" for v in table["score"]],
            COLUMNS[3]: [f"{lo:.2f} to {hi:.2f}" for lo, hi in zip(table["score_low"], table["score_high"])],
        },
    )


def explorer_chart(table: pd.DataFrame, field: str, values, start, games: int, seed: int) -> alt.VConcatChart:
    """Win rate and mean score over every value (95% intervals), the slider's value ringed,
    and below them that value's numbers, redrawn by Vega when the slider moves."""
    param = slider(field, list(values), start)
    chosen = f"datum[{json.dumps(field)}] == {PARAM}"
    data = numbers(table)

    def ring(y: str) -> alt.Chart:
        x = f"{field}:O" if pd.api.types.is_bool_dtype(table[field]) else f"{field}:Q"
        return (alt.Chart(data).transform_filter(chosen)
                .mark_point(size=160, filled=False, color="#111", strokeWidth=2).encode(x=x, y=f"{y}:Q"))

    win = alt.layer(charts.win_rate_chart(data, field), ring("win_rate")).properties(width=WIDTH, height=HEIGHT)
    score = alt.layer(charts.score_chart(data, field), ring("score")).properties(width=WIDTH, height=HEIGHT)
    heading = {"expr": f"'{field} = ' + {PARAM} + ': {games} games per value, seed {seed} (95% CI)'"}
    table_chart = (
        alt.Chart(data)
        .transform_filter(chosen)
        .transform_fold(COLUMNS, as_=["column", "text"])
        .mark_text(align="left", baseline="middle", fontSize=12)
        .encode(
            x=alt.X("column:N", sort=COLUMNS, title=None, axis=alt.Axis(orient="top", labelAngle=0, domain=False,
                                                                        ticks=False, labelFontWeight="bold")),
            y=alt.Y("who:N", title=None, axis=alt.Axis(domain=False, ticks=False)),
            text="text:N",
        )
        .properties(width=2 * WIDTH + 60, height=24 * int(table["seat"].nunique()),
                    title=alt.TitleParams(text=heading, anchor="start"))
    )
    return (
        alt.vconcat(alt.hconcat(win, score), table_chart)
        .add_params(param)
        .configure_view(strokeWidth=0)
    )


def attach(explorer, table: pd.DataFrame, field: str, values, start, games: int, seed: int, setup: dict) -> None:
    """Put the site's chart in the Explorer in place of its controls, which need a kernel."""
    chart = alt.JupyterChart(explorer_chart(table, field, values, start, games, seed))
    data = html.escape(json.dumps({**setup, "start": start}), quote=True)
    live = W.HTML(f"<div class='meeple-explorer-live' data-meeple-live='static' data-meeple-setup=\"{data}\"></div>")
    heading, hidden = explorer.children[0], explorer.children[1:]
    explorer.children = (heading, chart, live)
    explorer.add_class("meeple-site")
    # The page saves every open widget's state, and each Altair chart carries ~0.9 MB of Vega:
    # close the JupyterLab charts the site does not show (drawing on them later is harmless).
    for w in _charts_in(hidden):
        w.close()


def _charts_in(widgets) -> list:
    found = []
    for w in widgets:
        if isinstance(w, alt.JupyterChart):
            found.append(w)
        found += _charts_in(getattr(w, "children", ()))
    return found
