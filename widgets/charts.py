"""Altair charts of simulation and exact results, one short function each.

Every chart of a sampled number draws its 95% interval; exact
distributions say they are exact. Functions take the tidy tables that
`meeple.rules.simulate` returns and give back an `alt.Chart` (tests check
`chart.to_dict()`, not pixels).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

import altair as alt
import pandas as pd

WIDTH, HEIGHT = 340, 220
LEGEND = alt.Legend(orient="bottom", columns=2, title=None)


def offline() -> None:
    """Draw Altair charts with the Vega that ships in vl-convert: no CDN, in
    JupyterLab and in the static site (the default renderer loads from the web)."""
    alt.renderers.enable("jupyter", offline=True)


def _who(table: pd.DataFrame) -> pd.Series:
    """"Player 1 (heuristic)" labels: a seat and the bot in it."""
    return "Player " + (table["seat"] + 1).astype(str) + " (" + table["bot"].astype(str) + ")"


def _x(table: pd.DataFrame, field: str) -> alt.X:
    col = table[field]
    title = field.replace("_", " ")
    if pd.api.types.is_bool_dtype(col) or not pd.api.types.is_numeric_dtype(col):
        return alt.X(f"{field}:O", title=title)
    whole = pd.api.types.is_integer_dtype(col)
    axis = alt.Axis(tickMinStep=1, format="d") if whole else alt.Axis()
    return alt.X(f"{field}:Q", title=title, axis=axis, scale=alt.Scale(zero=False))


def win_rate_chart(table: pd.DataFrame, field: str, title: str | None = None) -> alt.LayerChart:
    """Win rate of each seat as `field` changes (a sweep table), with 95% Wilson intervals
    and a dashed line at the fair share 1/players."""
    data = table.assign(who=_who(table))
    fair_share = (1 / data.groupby(field)["seat"].nunique()).rename("fair").reset_index()
    base = alt.Chart(data).encode(x=_x(data, field), color=alt.Color("who:N", legend=LEGEND))
    bars = base.mark_errorbar(ticks=True).encode(
        y=alt.Y("win_low:Q", title="win rate (95% CI)", axis=alt.Axis(format="%")), y2="win_high:Q"
    )
    line = base.mark_line(point=True).encode(
        y="win_rate:Q",
        tooltip=[
            alt.Tooltip("who:N", title="seat"),
            alt.Tooltip(f"{field}", title=field),
            alt.Tooltip("win_rate:Q", format=".1%", title="win rate"),
            alt.Tooltip("win_low:Q", format=".1%", title="95% CI from"),
            alt.Tooltip("win_high:Q", format=".1%", title="to"),
            alt.Tooltip("games:Q"),
        ],
    )
    if fair_share["fair"].nunique() == 1:  # the same number of players everywhere: one dashed rule
        fair = alt.Chart(fair_share[["fair"]].head(1)).mark_rule(strokeDash=[4, 4], color="#777").encode(y="fair:Q")
    else:  # the player count varies along x: the fair share 1/players follows it
        fair = alt.Chart(fair_share).mark_line(strokeDash=[4, 4], color="#777").encode(x=_x(fair_share, field), y="fair:Q")
    return (bars + line + fair).properties(width=WIDTH, height=HEIGHT, title=title or f"Win rate as {field} changes")


def score_chart(table: pd.DataFrame, field: str, title: str | None = None) -> alt.LayerChart:
    """Mean final score of each seat as `field` changes, with 95% intervals."""
    data = table.assign(who=_who(table))
    base = alt.Chart(data).encode(x=_x(data, field), color=alt.Color("who:N", legend=LEGEND))
    bars = base.mark_errorbar(ticks=True).encode(y=alt.Y("score_low:Q", title="mean score (95% CI)"), y2="score_high:Q")
    line = base.mark_line(point=True).encode(
        y="score:Q",
        tooltip=[alt.Tooltip("who:N", title="seat"), alt.Tooltip(f"{field}"), alt.Tooltip("score:Q", format=".2f"),
                 alt.Tooltip("score_low:Q", format=".2f", title="95% CI from"), alt.Tooltip("score_high:Q", format=".2f", title="to")],
    )
    return (bars + line).properties(width=WIDTH, height=HEIGHT, title=title or f"Mean score as {field} changes")


def seat_chart(seats: pd.DataFrame, title: str = "Win rate by seat") -> alt.LayerChart:
    """Win rate per seat from `Results.summary().seats`, with intervals and the fair share."""
    data = seats.assign(who=_who(seats))
    base = alt.Chart(data).encode(y=alt.Y("who:N", title=None, sort=None))
    bars = base.mark_bar(color="#9ecae1").encode(x=alt.X("win_rate:Q", title="win rate (95% CI)", axis=alt.Axis(format="%")))
    ci = base.mark_errorbar(ticks=True).encode(x="win_low:Q", x2="win_high:Q")
    fair = alt.Chart(pd.DataFrame({"fair": [1 / len(seats)]})).mark_rule(strokeDash=[4, 4], color="#555").encode(x="fair:Q")
    return (bars + ci + fair).properties(width=WIDTH, height=30 * len(seats), title=title)


def distribution_chart(dist: Mapping, x_title: str = "value", title: str = "Exact distribution") -> alt.Chart:
    """Bars of an exact distribution {value: Fraction}; tooltips show the fraction itself."""
    items = sorted(dist.items())
    total = sum(Fraction(p) for _, p in items)
    if total != 1:
        raise ValueError(f"probabilities must sum to 1, they sum to {total}")
    data = pd.DataFrame(
        {"value": [v for v, _ in items], "p": [float(p) for _, p in items], "exact": [str(Fraction(p)) for _, p in items]}
    )
    return (
        alt.Chart(data)
        .mark_bar(color="#3c6fb6")
        .encode(
            x=alt.X("value:O", title=x_title),
            y=alt.Y("p:Q", title="probability (exact)", axis=alt.Axis(format="%")),
            tooltip=[alt.Tooltip("value:O", title=x_title), alt.Tooltip("exact:N", title="exact"), alt.Tooltip("p:Q", format=".2%")],
        )
        .properties(width=WIDTH, height=HEIGHT, title=title)
    )
