"""Altair charts of simulation and exact results, one short function each.

Every chart of a sampled number draws its 95% interval; exact
distributions say they are exact. Functions take the tidy tables that
`meeple.rules.simulate` returns and give back an `alt.Chart` (tests check
`chart.to_dict()`, not pixels).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

import re

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


def _col(field: str) -> str:
    """A column name Vega reads as one name: `hand_sizes[1]` would be read as an element of
    `hand_sizes`, so brackets and dots are escaped."""
    return re.sub(r"([\[\].\\])", r"\\\1", field)


def _x(table: pd.DataFrame, field: str, title: str | None = None, also=()) -> alt.X:
    """The x encoding of `field`; a whole-number field ticks every value from the least to
    the greatest of the table's and `also`'s (every layer of a chart must use the same one)."""
    col = table[field]
    title = title or field.replace("_", " ")
    if pd.api.types.is_bool_dtype(col) or not pd.api.types.is_numeric_dtype(col):
        return alt.X(f"{_col(field)}:O", title=title, axis=alt.Axis(labelAngle=0))  # discrete axes rotate labels by default
    whole = pd.api.types.is_integer_dtype(col)
    axis = alt.Axis()
    if whole and len(col):
        spread = [int(v) for v in (col.min(), col.max(), *also) if v is not None]
        lo, hi = min(spread), max(spread)
        # every whole number as a tick where there are few: Vega's own ticks on [2, 4] fall at
        # half steps (tickMinStep is not always honoured), which "d" labels "2 3 3 4 4"
        axis = alt.Axis(values=list(range(lo, hi + 1)), format="d") if hi - lo <= 30 else alt.Axis(tickMinStep=1, format="d")
    return alt.X(f"{_col(field)}:Q", title=title, axis=axis, scale=alt.Scale(zero=False))


def _varied(table: pd.DataFrame) -> list[str]:
    """The fields a sweep table varies: its columns before `point`."""
    cols = list(table.columns)
    return cols[: cols.index("point")] if "point" in cols else []


def _lines(table: pd.DataFrame, field: str, *measures: str) -> pd.DataFrame:
    """The table with `who`: one line per seat and, in a sweep over several fields, per value
    of each other field (never one line through points that differ in another field).
    With `measures`, only the columns the chart draws (a sweep table has dozens, and
    Altair copies every one into the chart)."""
    varied = _varied(table)
    if measures:
        keep = list(dict.fromkeys([*varied, field, "point", "seat", "bot", "games", *measures]))
        table = table[[c for c in keep if c in table.columns]]
    who = _who(table)
    for other in (f for f in varied if f != field):
        who = who + ", " + other + "=" + table[other].astype(str)
    return table.assign(who=who)


def win_rate_chart(table: pd.DataFrame, field: str, title: str | None = None, *, baseline=None,
                   current=None) -> alt.LayerChart:
    """Win rate of each seat as `field` changes (a sweep table), with 95% Wilson intervals
    and a dashed line at the fair share 1/players. `baseline`: the value the reader started
    from, a grey rule behind the lines; `current`: the value under the slider, ringed (or a
    Vega parameter holding that value's `point`: see `_ring`)."""
    data = _lines(table, field, "win_rate", "win_low", "win_high")
    fair_share = (1 / data.groupby(field)["seat"].nunique()).rename("fair").reset_index()
    x = _x(data, field, also=_marked(baseline, current))
    base = alt.Chart(data).encode(x=x, color=alt.Color("who:N", legend=LEGEND))
    bars = base.mark_errorbar(ticks=True).encode(
        y=alt.Y("win_low:Q", title="win rate (95% CI)", axis=alt.Axis(format="%")), y2="win_high:Q"
    )
    line = base.mark_line(point=True).encode(
        y="win_rate:Q",
        tooltip=[
            alt.Tooltip("who:N", title="seat"),
            alt.Tooltip(_col(field), title=field),
            alt.Tooltip("win_rate:Q", format=".1%", title="win rate"),
            alt.Tooltip("win_low:Q", format=".1%", title="95% CI from"),
            alt.Tooltip("win_high:Q", format=".1%", title="to"),
            alt.Tooltip("games:Q"),
        ],
    )
    if fair_share["fair"].nunique() == 1:  # the same number of players everywhere: one dashed rule
        fair = alt.Chart(fair_share[["fair"]].head(1)).mark_rule(strokeDash=[4, 4], color="#777").encode(y="fair:Q")
    else:  # the player count varies along x: the fair share 1/players follows it
        fair = alt.Chart(fair_share).mark_line(strokeDash=[4, 4], color="#777").encode(x=x, y="fair:Q")
    # the dashed line says what it is (a reader cannot tell it from a seat's line otherwise)
    fair_label = alt.Chart(fair_share[["fair"]].tail(1)).mark_text(align="right", dy=-7, color="#777").encode(
        y="fair:Q", x=alt.value(WIDTH - 2), text=alt.value("fair share"))
    layers = [bars, line, fair, fair_label]
    if baseline is not None:
        layers.insert(0, _rule_at(field, baseline, "baseline", "#aaa", x))
    if current is not None:
        layers.append(_ring(data, field, current, "win_rate", x))
    return _with_param(alt.layer(*layers), current).properties(width=WIDTH, height=HEIGHT,
                                                               title=title or f"Win rate as {field.replace('_', ' ')} changes")


def score_chart(table: pd.DataFrame, field: str, title: str | None = None) -> alt.LayerChart:
    """Mean final score of each seat as `field` changes, with 95% intervals."""
    data = _lines(table, field, "score", "score_low", "score_high")
    base = alt.Chart(data).encode(x=_x(data, field), color=alt.Color("who:N", legend=LEGEND))
    bars = base.mark_errorbar(ticks=True).encode(y=alt.Y("score_low:Q", title="mean score (95% CI)"), y2="score_high:Q")
    line = base.mark_line(point=True).encode(
        y="score:Q",
        tooltip=[alt.Tooltip("who:N", title="seat"), alt.Tooltip(_col(field), title=field), alt.Tooltip("score:Q", format=".2f"),
                 alt.Tooltip("score_low:Q", format=".2f", title="95% CI from"), alt.Tooltip("score_high:Q", format=".2f", title="to")],
    )
    return (bars + line).properties(width=WIDTH, height=HEIGHT, title=title or f"Mean score as {field.replace('_', ' ')} changes")


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

def _per_game(table: pd.DataFrame, measure: str) -> bool:
    """True when a measure is one number per game (every seat's row holds the same value)."""
    keys = _varied(table) or ["point"]
    return bool((table.groupby(keys, dropna=False)[measure].nunique(dropna=False) <= 1).all())


def measure_chart(table: pd.DataFrame, field: str, measure: str = "win_rate", *, label: str | None = None,
                  baseline=None, current=None, title: str | None = None) -> alt.LayerChart:
    """Any measure of a sweep table (`from meeple.rules.simulate import measures`) as `field` changes,
    with its 95% interval: one line per seat, or one line when the measure is one number
    per game (turns, rounds). `baseline`: the value the reader started from, drawn as a grey
    rule behind everything; `current`: the value under the slider, ringed (or a Vega
    parameter holding that value's `point`: see `_ring`)."""
    from meeple.rules.simulate import measure_columns

    value, low, high = measure_columns(measure)
    label = label or measure.replace("_", " ")
    data = _lines(table, field, value, low, high)
    if _per_game(table, measure):
        keys = _varied(table) or [field]
        data = data.drop_duplicates(keys).assign(who="every seat" if len(keys) == 1 else data["who"].str.split(", ", n=1).str[1])
    fmt = ".1%" if measure == "win_rate" else ".2f"
    x = _x(data, field, also=_marked(baseline, current))
    base = alt.Chart(data).encode(x=x, color=alt.Color("who:N", legend=LEGEND))
    bars = base.mark_errorbar(ticks=True).encode(y=alt.Y(f"{low}:Q", title=f"{label} (95% CI)", scale=alt.Scale(zero=False),
                                                         axis=alt.Axis(format="%") if measure == "win_rate" else alt.Axis()),
                                                 y2=f"{high}:Q")
    line = base.mark_line(point=True).encode(
        y=f"{value}:Q",
        tooltip=[alt.Tooltip("who:N", title="seat"), alt.Tooltip(_col(field), title=field),
                 alt.Tooltip(f"{value}:Q", format=fmt, title=label),
                 alt.Tooltip(f"{low}:Q", format=fmt, title="95% CI from"), alt.Tooltip(f"{high}:Q", format=fmt, title="to")],
    )
    layers = []
    if baseline is not None:
        layers.append(_rule_at(field, baseline, "baseline", "#aaa", x))
    layers += [bars, line]
    if current is not None:
        layers.append(_ring(data, field, current, value, x))
    return _with_param(alt.layer(*layers), current).properties(width=WIDTH, height=HEIGHT,
                                                               title=title or f"{label} as {field.replace('_', ' ')} changes")


def _at_current(data: pd.DataFrame, current, match) -> alt.Chart:
    """The rows of the value under the slider. `current` a Vega parameter: every row, kept by
    Vega where `point` equals the parameter, so the Explorer moves the mark by setting the
    parameter (no new spec, no Altair rebuild: a redraw in milliseconds); else the rows `match`
    picks in Python."""
    if isinstance(current, alt.Parameter):
        return alt.Chart(data).transform_filter(f"datum.point == {current.name}")
    return alt.Chart(data[match(data)])


def _with_param(chart, current):
    """The chart declaring `current` when it is a Vega parameter (see `_at_current`)."""
    return chart.add_params(current) if isinstance(current, alt.Parameter) else chart


def _marked(*values) -> list:
    """The whole-number values a chart marks (baseline, current) beside its data, for _x's ticks."""
    return [v for v in values if isinstance(v, int) and not isinstance(v, bool)]


def _ring(data: pd.DataFrame, field: str, current, y: str, x: alt.X) -> alt.Chart:
    """A ring round each line's point at the value under the slider."""
    return _at_current(data, current, lambda d: d[field] == current).mark_point(
        size=160, filled=False, color="#111", strokeWidth=2).encode(x=x, y=f"{y}:Q")


def _rule_at(field: str, value, text: str, colour: str, x: alt.X) -> alt.LayerChart:
    """A vertical rule with a label at x = value (the baseline behind the current curve);
    `x`: the chart's own x encoding (one axis for every layer)."""
    marker = pd.DataFrame({field: [value], "label": [text]})
    rule = alt.Chart(marker).mark_rule(color=colour, strokeDash=[6, 3], strokeWidth=2).encode(x=x)
    label = alt.Chart(marker).mark_text(align="left", dx=4, dy=-4, color="#777", baseline="top").encode(
        x=x, y=alt.value(0), text="label:N")
    return alt.layer(rule, label)


def heatmap_chart(table: pd.DataFrame, x: str, y: str, measure: str = "win_rate", seat: int | None = 0, *,
                  label: str | None = None, current=None, baseline=None, title: str | None = None) -> alt.HConcatChart:
    """Two numbers at once: a sweep over fields `x` and `y` as two maps side by side, the
    measure's value (labelled in each cell) and its 95% interval's width (how sure each cell
    is). `seat`: whose value for a per-seat measure (0 = Player 1; ignored for per-game
    measures). `current`: the (x, y) cell to outline in black (or a Vega parameter holding
    that cell's `point`: see `_at_current`); `baseline`: the cell the reader started from,
    outlined dashed (when it is on the map)."""
    from meeple.rules.simulate import measure_columns

    value, low, high = measure_columns(measure)
    label = label or measure.replace("_", " ")
    data = table if _per_game(table, measure) or seat is None else table[table["seat"] == seat]
    who = "" if _per_game(table, measure) or seat is None else f", Player {seat + 1}"
    keep = [x, y, "seat", value, low, high] + (["point"] if "point" in data.columns else [])
    data = data[keep].drop_duplicates([x, y]).assign(width=lambda d: d[high] - d[low])
    fmt = ".0%" if measure == "win_rate" else ".1f"
    ex, ey = alt.X(f"{_col(x)}:O", title=x.replace("_", " "), axis=alt.Axis(labelAngle=0)), alt.Y(f"{_col(y)}:O", title=y.replace("_", " "), sort="descending")
    tips = [alt.Tooltip(_col(x), title=x), alt.Tooltip(_col(y), title=y), alt.Tooltip(f"{value}:Q", format=fmt, title=label),
            alt.Tooltip(f"{low}:Q", format=fmt, title="95% CI from"), alt.Tooltip(f"{high}:Q", format=fmt, title="to")]

    def panel(colour: str, scheme: str, text: str, heading: str):
        base = alt.Chart(data).encode(x=ex, y=ey)
        cells = base.mark_rect().encode(color=alt.Color(f"{colour}:Q", scale=alt.Scale(scheme=scheme),
                                                        legend=alt.Legend(title=text, format=fmt)), tooltip=tips)
        mid = float(data[colour].min() + data[colour].max()) / 2  # a plain float: numpy 2's repr is np.float64(...), not Vega
        dark = f"datum[{colour!r}] {'<' if scheme == 'viridis' else '>'} {mid!r}"  # viridis is dark low, greys high
        labels = base.mark_text(fontSize=11).encode(text=alt.Text(f"{colour}:Q", format=fmt),
                                                    color=alt.condition(dark, alt.value("white"), alt.value("black")))
        layers = [cells, labels]
        for cell, dash in ((baseline, [5, 3]), (current, [])):
            if cell is not None:
                mark = _at_current(data, cell, lambda d, c=cell: (d[x] == c[0]) & (d[y] == c[1]))
                layers.append(mark.mark_rect(fill=None, stroke="#111" if not dash else "#e45756",
                                             strokeWidth=3, strokeDash=dash).encode(x=ex, y=ey))
        return alt.layer(*layers).properties(width=WIDTH * 0.8, height=HEIGHT, title=heading)

    return _with_param(alt.hconcat(
        panel(value, "viridis", label, f"{label}{who}"),
        panel("width", "greys", "CI width", "width of its 95% interval"),
    ), current).resolve_scale(color="independent").properties(title=title or f"{label} over {x} and {y}")


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
            x=alt.X(f"{lo}:Q", title=heading, axis=alt.Axis(labelExpr=axis_format)), x2=f"{hi}:Q")
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
