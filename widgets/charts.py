"""Altair charts of simulation and exact results, one short function each.

Every chart of a sampled number draws its 95% interval; exact
distributions say they are exact. Functions take the tidy tables that
`meeple.rules.simulate` returns and give back an `alt.Chart` (tests check
`chart.to_dict()`, not pixels). The Explorer's charts (win rate, any measure,
the heat map) are built as plain Vega-Lite by `specs.py`, which also runs in the
course site's browser, and handed out here as Altair charts of those very specs.
"""

from __future__ import annotations

from typing import Mapping

import altair as alt
import pandas as pd

from . import specs

WIDTH, HEIGHT = 340, 220
LEGEND = alt.Legend(orient="bottom", columns=2, title=None, labelLimit=WIDTH)  # a long label whole, not cut off


def offline() -> None:
    """Draw Altair charts with the Vega that ships in vl-convert: no CDN, in
    JupyterLab and in the static site (the default renderer loads from the web)."""
    alt.renderers.enable("jupyter", offline=True)


def _who(table: pd.DataFrame) -> pd.Series:
    """"Player 1 (heuristic)" labels: a seat and the bot in it."""
    return "Player " + (table["seat"] + 1).astype(str) + " (" + table["bot"].astype(str) + ")"


def _rows(table: pd.DataFrame) -> list[dict]:
    """A sweep table as the rows specs.py reads (plain Python values, table order)."""
    return table.to_dict(orient="records")


def _current(current):
    """An Altair parameter holding the value's `point` as the spec builder's Current."""
    if isinstance(current, alt.Parameter):
        return specs.Current(current.param.value, current.name)
    return current


def from_spec(spec: dict):
    """The Altair chart of a Vega-Lite spec from specs.py (a layer or a side-by-side chart)."""
    kind = alt.HConcatChart if "hconcat" in spec else alt.LayerChart if "layer" in spec else alt.Chart
    return kind.from_dict(spec)


def win_rate_chart(table: pd.DataFrame, field: str, title: str | None = None, *, baseline=None,
                   current=None) -> alt.LayerChart:
    """Win rate of each seat as `field` changes (a sweep table), with 95% Wilson intervals
    and a dashed line at the fair share 1/players. `baseline`: the value the reader started
    from, a grey rule behind the lines; `current`: the value under the slider, ringed (or a
    Vega parameter holding that value's `point`). The spec is specs.win_rate's, the Explorer's own."""
    return from_spec(specs.win_rate(_rows(table), field, title, baseline=baseline, current=_current(current)))


def score_chart(table: pd.DataFrame, field: str, title: str | None = None) -> alt.LayerChart:
    """Mean final score of each seat as `field` changes, with 95% intervals."""
    return from_spec(specs.measure(_rows(table), field, "score", label="mean score",
                                   title=title or f"Mean score as {field.replace('_', ' ')} changes"))


def seat_chart(seats: pd.DataFrame, title: str = "Win rate by seat") -> alt.LayerChart:
    """Win rate per seat from `Results.summary().seats`, with intervals and the fair share."""
    data = seats.assign(who=_who(seats))
    base = alt.Chart(data).encode(y=alt.Y("who:N", title=None, sort=None))
    bars = base.mark_bar(color="#9ecae1").encode(x=alt.X("win_rate:Q", title="win rate (95% CI)", axis=alt.Axis(format="%")))
    ci = base.mark_errorbar(ticks=True).encode(x="win_low:Q", x2="win_high:Q")
    fair = alt.Chart(pd.DataFrame({"fair": [1 / len(seats)]})).mark_rule(strokeDash=[4, 4], color="#555").encode(x="fair:Q")
    return (bars + ci + fair).properties(width=WIDTH, height=30 * len(seats), title=title)


def distribution_chart(dist: Mapping, x_title: str = "value", title: str = "Exact distribution") -> alt.Chart:
    """Bars of an exact distribution {value: Fraction}; tooltips show the fraction itself.
    The chart is `specs.distribution`'s Vega-Lite, the spec the lessons' controls draw in
    the browser (Altair does not load in the site's Pyodide): one builder for both."""
    return alt.Chart.from_dict(specs.distribution(dist, x_title, title))


# --- the designer's workbench -------------------------------------------------------

def measure_chart(table: pd.DataFrame, field: str, measure: str = "win_rate", *, label: str | None = None,
                  baseline=None, current=None, title: str | None = None) -> alt.LayerChart:
    """Any measure of a sweep table (`from meeple.rules.sim import measures`) as `field` changes,
    with its 95% interval: one line per seat, or one line when the measure is one number
    per game (turns, rounds). `baseline`: the value the reader started from, drawn as a grey
    rule behind everything; `current`: the value under the slider, ringed (or a Vega
    parameter holding that value's `point`). The spec is specs.measure's, the Explorer's own."""
    return from_spec(specs.measure(_rows(table), field, measure, label=label, baseline=baseline,
                                   current=_current(current), title=title))


def heatmap_chart(table: pd.DataFrame, x: str, y: str, measure: str = "win_rate", seat: int | None = 0, *,
                  label: str | None = None, current=None, baseline=None, title: str | None = None) -> alt.HConcatChart:
    """Two numbers at once: a sweep over fields `x` and `y` as two maps side by side, the
    measure's value (labelled in each cell) and its 95% interval's width (how sure each cell
    is). `seat`: whose value for a per-seat measure (0 = Player 1; ignored for per-game
    measures). `current`: the (x, y) cell to outline in black (or a Vega parameter holding
    that cell's `point`); `baseline`: the cell the reader started from, outlined dashed
    (when it is on the map). The spec is specs.heatmap's, the Explorer's own."""
    return from_spec(specs.heatmap(_rows(table), x, y, measure, seat, label=label, current=_current(current),
                                   baseline=baseline, title=title))


def compare_chart(table: pd.DataFrame, title: str | None = None) -> alt.HConcatChart:
    """`meeple.rules.compare`'s table: each variant's paired difference from the baseline in
    win rate and in mean score, per seat (or bot), with 95% intervals and a rule at 0."""
    data = table[~table["baseline"]].copy()
    data["who"] = _who(data) if "seat" in data.columns else data["bot"].astype(str)
    base_name = table.attrs.get("baseline") or table.loc[table["baseline"], "variant"].iloc[0]

    def panel(diff: str, lo: str, hi: str, heading: str, fmt: str, axis_format: str):
        base = alt.Chart(data).encode(y=alt.Y("variant:N", title=None, sort=None), yOffset="who:N",
                                      color=alt.Color("who:N", legend=LEGEND))
        bars = base.mark_errorbar(ticks=True).encode(
            x=alt.X(f"{lo}:Q", title=heading, axis=alt.Axis(labelExpr=axis_format),
                    scale=alt.Scale(padding=12)), x2=f"{hi}:Q")  # an end cap never sits on the plot's edge
        dots = base.mark_point(filled=True, size=50).encode(
            x=f"{diff}:Q", tooltip=["variant:N", alt.Tooltip("who:N", title="seat"), alt.Tooltip(f"{diff}:Q", format=fmt),
                                    alt.Tooltip(f"{lo}:Q", format=fmt, title="95% CI from"),
                                    alt.Tooltip(f"{hi}:Q", format=fmt, title="to")])
        zero = alt.Chart(pd.DataFrame({"zero": [0]})).mark_rule(color="#777", strokeDash=[4, 4]).encode(x="zero:Q")
        return alt.layer(zero, bars, dots).properties(width=WIDTH, height=max(HEIGHT // 2, 40 * data["variant"].nunique()))

    return alt.hconcat(
        # a difference of two rates is in percentage points: +10, not 0.10 (the win charts speak in %)
        panel("diff_win_rate", "diff_win_low", "diff_win_high", "win rate minus the baseline's, % points (95% CI)",
              "+.1%", "format(datum.value * 100, '+~g')"),
        panel("diff_score", "diff_score_low", "diff_score_high", "mean score minus the baseline's (95% CI)", "+.2f",
              "format(datum.value, '+~g')"),
    ).properties(title=title or f"Each variant against {base_name!r}, game by game on the same seeds")
