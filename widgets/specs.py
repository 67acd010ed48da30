"""The Explorer's charts as plain Vega-Lite specs (dicts), built from rows (dicts), no Altair.

One builder for every place an Explorer chart is drawn: the kernel's Explorer,
the course site's Pyodide worker (where Altair and pandas do not load) and
`charts.py`, whose `win_rate_chart`, `measure_chart` and `heatmap_chart` hand
readers an `alt.Chart` made from these very specs (a test holds them equal).
The rows are a sweep table's (`sweep(...).to_dict("records")`, or
`ExplorerSession.rows()`); datasets are named by their content and listed once
in the spec's `datasets`, as Altair writes them. Colours follow the Okabe-Ito
palette (told apart with the common colour-vision deficiencies); the maps use
viridis, which reads in grey too.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from fractions import Fraction
from typing import Mapping

from meeple.rules.sim.results import measure_columns  # one definition: the sweep table's columns

from .chart_text import cut, describe

SCHEMA = "https://vega.github.io/schema/vega-lite/v6.1.0.json"  # a name Vega-Lite reads, never fetched
CONFIG = {"view": {"continuousWidth": 300, "continuousHeight": 300}}  # Altair's default theme, written out
WIDTH, HEIGHT = 300, 220  # two charts side by side fit the book's text column (about 780 px)
CURRENT = "meeple_current"  # the Vega parameter holding the `point` of the value under the slider
OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
LEGEND = {"orient": "bottom", "columns": 2, "title": None, "labelLimit": WIDTH}  # a long label whole, not cut off


class Current:
    """The value under the slider as a Vega parameter: `point` is that value's index (the
    table's `point`). A chart drawn with it moves its ring when the parameter is set, with
    no new spec (a redraw in milliseconds)."""

    def __init__(self, point: int, name: str = CURRENT):
        self.point, self.name = point, name


# --- data ------------------------------------------------------------------------

def clean_value(v):
    """A JSON value Vega reads: NaN and infinities (an interval of one game) become null."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):  # a numpy scalar
        return clean_value(v.item())
    return v


class _Data:
    """The spec's datasets: each list of rows once, named by its content."""

    def __init__(self):
        self.sets: dict[str, list] = {}

    def ref(self, rows: list[dict]) -> dict:
        values = [{k: clean_value(v) for k, v in r.items()} for r in rows]
        name = "data-" + hashlib.sha256(json.dumps(values, sort_keys=True, default=str).encode()).hexdigest()[:32]
        self.sets.setdefault(name, values)
        return {"name": name}


def _spec(data: _Data, body: dict) -> dict:
    """The whole spec, with its text alternative (chart_text: the title and the numbers drawn)."""
    spec = {"$schema": SCHEMA, "config": CONFIG, **body, "datasets": data.sets}
    return {**spec, "description": body.get("description") or describe(spec)}


def _col(field: str) -> str:
    """A column name Vega reads as one name: `hand_sizes[1]` would be read as an element of
    `hand_sizes`, so brackets and dots are escaped."""
    return re.sub(r"([\[\].\\])", r"\\\1", field)


def _columns(rows: list[dict]) -> list[str]:
    return list(rows[0]) if rows else []


def _varied(rows: list[dict]) -> list[str]:
    """The fields a sweep table varies: its columns before `point`."""
    cols = _columns(rows)
    return cols[: cols.index("point")] if "point" in cols else []


def _text(v) -> str:
    return str(v)


def _lines(rows: list[dict], field: str, *measures: str) -> list[dict]:
    """The rows with `who`: one line per seat and, in a sweep over several fields, per value
    of each other field (never one line through points that differ in another field).
    With `measures`, only the columns the chart draws."""
    varied = _varied(rows)
    cols = _columns(rows)
    keep = [c for c in dict.fromkeys([*varied, field, "point", "seat", "bot", "games", *measures]) if c in cols] \
        if measures else cols
    out = []
    for r in rows:
        who = f"Player {r['seat'] + 1} ({r['bot']})"
        for other in (f for f in varied if f != field):
            who += f", {other}={_text(r[other])}"
        out.append({**{c: r[c] for c in keep}, "who": who})
    return out


def _x(rows: list[dict], field: str, title: str | None = None, also=()) -> dict:
    """The x encoding of `field`; a whole-number field ticks every value from the least to
    the greatest of the rows' and `also`'s (every layer of a chart must use the same one)."""
    col = [r[field] for r in rows]
    title = title or field.replace("_", " ")
    numeric = bool(col) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in col)
    if not numeric:  # switches, an optional number's "none", text: one tick per value
        return {"field": _col(field), "type": "ordinal", "title": title, "axis": {"labelAngle": 0}}
    whole = all(isinstance(v, int) for v in col)
    axis: dict = {}
    if whole:
        spread = [int(v) for v in (min(col), max(col), *also) if v is not None]
        lo, hi = min(spread), max(spread)
        # every whole number as a tick where there are few: Vega's own ticks on [2, 4] fall at
        # half steps (tickMinStep is not always honoured), which "d" labels "2 3 3 4 4"
        axis = {"values": list(range(lo, hi + 1)), "format": "d"} if hi - lo <= 30 else {"tickMinStep": 1, "format": "d"}
    return {"field": _col(field), "type": "quantitative", "title": title, "axis": axis, "scale": {"zero": False}}


def _colour() -> dict:
    return {"field": "who", "type": "nominal", "legend": LEGEND, "scale": {"range": OKABE_ITO}}


def _marked(*values) -> list:
    """The whole-number values a chart marks (baseline, current) beside its data, for _x's ticks."""
    return [v for v in values if isinstance(v, int) and not isinstance(v, bool)]


def _with_param(body: dict, current) -> dict:
    if isinstance(current, Current):
        body["params"] = [{"name": current.name, "value": current.point}]
    return body


def _at_current(data: _Data, rows: list[dict], current, match) -> dict:
    """The layer's data and filter for the value under the slider: with a Current, every row,
    kept by Vega where `point` equals the parameter; else the rows `match` picks here."""
    if isinstance(current, Current):
        return {"data": data.ref(rows), "transform": [{"filter": f"datum.point == {current.name}"}]}
    return {"data": data.ref([r for r in rows if match(r)])}


def _ring(data: _Data, rows, field, current, y: str, x: dict) -> dict:
    """A ring round each line's point at the value under the slider."""
    return {**_at_current(data, rows, current, lambda r: r[field] == current),
            "mark": {"type": "point", "size": 160, "filled": False, "color": "#111", "strokeWidth": 2},
            "encoding": {"x": x, "y": {"field": y, "type": "quantitative"}}}


def _rule_at(data: _Data, field: str, value, text: str, colour: str, x: dict) -> dict:
    """A vertical rule with a label at x = value (the baseline behind the current curve)."""
    return {"data": data.ref([{field: value, "label": text}]), "layer": [
        {"mark": {"type": "rule", "color": colour, "strokeDash": [6, 3], "strokeWidth": 2}, "encoding": {"x": x}},
        {"mark": {"type": "text", "align": "left", "dx": 4, "dy": -4, "color": "#777", "baseline": "top"},
         "encoding": {"x": x, "y": {"value": 0}, "text": {"field": "label", "type": "nominal"}}},
    ]}


def _tip(field: str, title: str | None = None, kind: str | None = None, fmt: str | None = None) -> dict:
    out = {"field": field}
    if kind:
        out["type"] = kind
    if fmt:
        out["format"] = fmt
    if title:
        out["title"] = title
    return out


# --- the charts --------------------------------------------------------------------

def win_rate(rows: list[dict], field: str, title: str | None = None, *, baseline=None, current=None) -> dict:
    """Win rate of each seat as `field` changes, with 95% Wilson intervals and a dashed line at
    the fair share 1/players. `baseline`: the value the reader started from (a grey rule);
    `current`: the value under the slider, ringed (a value, or a Current)."""
    d = _Data()
    data = _lines(rows, field, "win_rate", "win_low", "win_high")
    seats: dict = {}
    for r in data:
        if r[field] is not None:  # as a table's groupby: no group for a missing value
            seats.setdefault(r[field], set()).add(r["seat"])
    fair_share = [{field: v, "fair": 1 / len(s)} for v, s in sorted(seats.items())]
    x = _x(data, field, also=_marked(baseline, current))
    enc = {"x": x, "color": _colour()}
    bars = {"data": d.ref(data), "mark": {"type": "errorbar", "ticks": True}, "encoding": {
        **enc, "y": {"field": "win_low", "type": "quantitative", "title": "win rate (95% CI)", "axis": {"format": "%"}},
        "y2": {"field": "win_high"}}}
    line = {"data": d.ref(data), "mark": {"type": "line", "point": True}, "encoding": {
        **enc, "y": {"field": "win_rate", "type": "quantitative"},
        "tooltip": [_tip("who", "seat", "nominal"), _tip(_col(field), field), _tip("win_rate", "win rate", "quantitative", ".1%"),
                    _tip("win_low", "95% CI from", "quantitative", ".1%"), _tip("win_high", "to", "quantitative", ".1%"),
                    _tip("games", None, "quantitative")]}}
    if len({f["fair"] for f in fair_share}) <= 1:  # the same number of players everywhere: one dashed rule
        fair = {"data": d.ref([{"fair": f["fair"]} for f in fair_share[:1]]),
                "mark": {"type": "rule", "strokeDash": [4, 4], "color": "#777"},
                "encoding": {"y": {"field": "fair", "type": "quantitative"}}}
    else:  # the player count varies along x: the fair share 1/players follows it
        fair = {"data": d.ref(fair_share), "mark": {"type": "line", "strokeDash": [4, 4], "color": "#777"},
                "encoding": {"x": x, "y": {"field": "fair", "type": "quantitative"}}}
    # the dashed line says what it is (a reader cannot tell it from a seat's line otherwise)
    fair_label = {"data": d.ref([{"fair": f["fair"]} for f in fair_share[-1:]]),
                  "mark": {"type": "text", "align": "right", "dy": -7, "color": "#777"},
                  "encoding": {"y": {"field": "fair", "type": "quantitative"}, "x": {"value": WIDTH - 2},
                               "text": {"value": "fair share"}}}
    layers = [bars, line, fair, fair_label]
    if baseline is not None:
        layers.insert(0, _rule_at(d, field, baseline, "baseline", "#aaa", x))
    if current is not None:
        layers.append(_ring(d, data, field, current, "win_rate", x))
    body = _with_param({"layer": layers}, current)
    body |= {"width": WIDTH, "height": HEIGHT, "title": title or f"Win rate as {field.replace('_', ' ')} changes"}
    return _spec(d, body)


def per_game(rows: list[dict], measure: str) -> bool:
    """True when a measure is one number per game (every seat's row holds the same value)."""
    keys = _varied(rows) or ["point"]
    seen: dict = {}
    for r in rows:
        v = r.get(measure)
        seen.setdefault(tuple(_text(r[k]) for k in keys), set()).add("nan" if v is None or v != v else v)
    return all(len(v) <= 1 for v in seen.values())


def measure(rows: list[dict], field: str, measure: str = "win_rate", *, label: str | None = None, baseline=None,
            current=None, title: str | None = None) -> dict:
    """Any measure of a sweep table as `field` changes, with its 95% interval: one line per seat,
    or one line when the measure is one number per game (turns, rounds)."""
    d = _Data()
    value, low, high = measure_columns(measure)
    label = label or measure.replace("_", " ")
    data = _lines(rows, field, value, low, high)
    if per_game(rows, measure):
        keys = _varied(rows) or [field]
        first: dict = {}
        for r in data:
            first.setdefault(tuple(_text(r[k]) for k in keys), r)
        data = [{**r, "who": "every seat" if len(keys) == 1 else r["who"].split(", ", 1)[1]} for r in first.values()]
    fmt = ".1%" if measure == "win_rate" else ".2f"
    x = _x(data, field, also=_marked(baseline, current))
    enc = {"x": x, "color": _colour()}
    bars = {"data": d.ref(data), "mark": {"type": "errorbar", "ticks": True}, "encoding": {
        **enc, "y": {"field": low, "type": "quantitative", "title": f"{label} (95% CI)", "scale": {"zero": False},
                     "axis": {"format": "%"} if measure == "win_rate" else {}},
        "y2": {"field": high}}}
    line = {"data": d.ref(data), "mark": {"type": "line", "point": True}, "encoding": {
        **enc, "y": {"field": value, "type": "quantitative"},
        "tooltip": [_tip("who", "seat", "nominal"), _tip(_col(field), field), _tip(value, label, "quantitative", fmt),
                    _tip(low, "95% CI from", "quantitative", fmt), _tip(high, "to", "quantitative", fmt)]}}
    layers = []
    if baseline is not None:
        layers.append(_rule_at(d, field, baseline, "baseline", "#aaa", x))
    layers += [bars, line]
    if current is not None:
        layers.append(_ring(d, data, field, current, value, x))
    body = _with_param({"layer": layers}, current)
    body |= {"width": WIDTH, "height": HEIGHT, "title": title or f"{label} as {field.replace('_', ' ')} changes"}
    return _spec(d, body)


def heatmap(rows: list[dict], x: str, y: str, measure: str = "win_rate", seat: int | None = 0, *,
            label: str | None = None, current=None, baseline=None, title: str | None = None) -> dict:
    """Two numbers at once: two maps side by side, the measure's value (labelled in each cell)
    and its 95% interval's width (how sure each cell is). `seat`: whose value for a per-seat
    measure. `current`: the (x, y) cell outlined in black (or a Current); `baseline`: the cell
    the reader started from, outlined dashed."""
    d = _Data()
    value, low, high = measure_columns(measure)
    label = label or measure.replace("_", " ")
    whole = per_game(rows, measure) or seat is None
    data = rows if whole else [r for r in rows if r["seat"] == seat]
    who = "" if whole else f", Player {seat + 1}"
    keep = [x, y, "seat", value, low, high] + (["point"] if "point" in _columns(rows) else [])
    first: dict = {}
    for r in data:
        first.setdefault((_text(r[x]), _text(r[y])), r)
    data = [{**{k: r[k] for k in keep}, "width": (r[high] - r[low]) if None not in (r[high], r[low]) else None}
            for r in first.values()]
    fmt = ".0%" if measure == "win_rate" else ".1f"
    ex = {"field": _col(x), "type": "ordinal", "title": x.replace("_", " "), "axis": {"labelAngle": 0}}
    ey = {"field": _col(y), "type": "ordinal", "title": y.replace("_", " "), "sort": "descending"}
    tips = [_tip(_col(x), x), _tip(_col(y), y), _tip(value, label, "quantitative", fmt),
            _tip(low, "95% CI from", "quantitative", fmt), _tip(high, "to", "quantitative", fmt)]

    def panel(colour: str, scheme: str, text: str, heading: str) -> dict:
        cells = {"data": d.ref(data), "mark": {"type": "rect"}, "encoding": {
            "x": ex, "y": ey, "color": {"field": colour, "type": "quantitative", "scale": {"scheme": scheme},
                                        "legend": {"title": text, "format": fmt}}, "tooltip": tips}}
        got = [float(r[colour]) for r in data if isinstance(r[colour], (int, float)) and math.isfinite(r[colour])]
        mid = (min(got) + max(got)) / 2 if got else 0.0
        dark = f"datum[{colour!r}] {'<' if scheme == 'viridis' else '>'} {mid!r}"  # viridis is dark low, greys high
        labels = {"data": d.ref(data), "mark": {"type": "text", "fontSize": 11}, "encoding": {
            "x": ex, "y": ey, "text": {"field": colour, "type": "quantitative", "format": fmt},
            "color": {"condition": {"test": dark, "value": "white"}, "value": "black"}}}
        layers = [cells, labels]
        for cell, dash in ((baseline, [5, 3]), (current, [])):
            if cell is not None:
                at = _at_current(d, data, cell, lambda r, c=cell: r[x] == c[0] and r[y] == c[1])
                layers.append({**at, "mark": {"type": "rect", "fill": None, "stroke": "#111" if not dash else "#e45756",
                                              "strokeWidth": 3, "strokeDash": dash}, "encoding": {"x": ex, "y": ey}})
        return {"layer": layers, "width": WIDTH * 0.8, "height": HEIGHT, "title": heading}

    body = {"hconcat": [panel(value, "viridis", label, f"{label}{who}"),
                        panel("width", "greys", "CI width", "width of its 95% interval")]}
    body = _with_param(body, current)
    body |= {"resolve": {"scale": {"color": "independent"}}, "title": title or f"{label} over {x} and {y}"}
    return _spec(d, body)




def paired(rows: list[dict], field: str, measure: str = "win_rate", *, label: str | None = None, reference=None,
           reference_text: str | None = None, current=None, title: str | None = None) -> dict:
    """Each value's paired difference from the reference value (the Explorer's `paired`: the measure
    at that value minus the reference's, game by game on the same seeds), as a point with its 95%
    interval (an error bar) and a rule at 0, no difference: the Altair gallery's "error bars showing
    confidence interval" over a zero line. rows: {field, "point", "who", "diff", "diff_low",
    "diff_high"} (ExplorerSession.paired_rows()); a value whose difference is unknown is left out.
    `reference`: the reference value on x (a dashed rule labelled "reference"); `current`: ringed."""
    d = _Data()
    label = label or measure.replace("_", " ")
    data = [r for r in rows if all(isinstance(r.get(k), (int, float)) and math.isfinite(r[k])
                                   for k in ("diff", "diff_low", "diff_high"))]
    fmt = "+.1%" if measure == "win_rate" else "+.2f"
    x = _x(data, field, also=_marked(reference, current))
    enc = {"x": x, "color": _colour()}
    y_title = f"{label} minus the reference (95% CI)"
    axis = {"format": "%"} if measure == "win_rate" else {}
    zero = {"data": d.ref([{"zero": 0}]), "mark": {"type": "rule", "color": "#777", "strokeDash": [4, 4]},
            "encoding": {"y": {"field": "zero", "type": "quantitative"}}}
    bars = {"data": d.ref(data), "mark": {"type": "errorbar", "ticks": True}, "encoding": {
        **enc, "y": {"field": "diff_low", "type": "quantitative", "title": y_title, "axis": axis},
        "y2": {"field": "diff_high"}}}
    points = {"data": d.ref(data), "mark": {"type": "point", "filled": True, "size": 50}, "encoding": {
        **enc, "y": {"field": "diff", "type": "quantitative"},
        "tooltip": [_tip("who", "seat", "nominal"), _tip(_col(field), field),
                    _tip("diff", f"{label} minus the reference", "quantitative", fmt),
                    _tip("diff_low", "95% CI from", "quantitative", fmt),
                    _tip("diff_high", "to", "quantitative", fmt)]}}
    layers = [zero, bars, points]
    if reference is not None:
        layers.insert(0, _rule_at(d, field, reference, "reference", "#aaa", x))
    if current is not None:
        layers.append(_ring(d, data, field, current, "diff", x))
    body = _with_param({"layer": layers}, current)
    ref = reference_text or (f"{field.replace('_', ' ')} = {reference}" if reference is not None else "the reference")
    body |= {"width": WIDTH, "height": HEIGHT,
             "title": title or {"text": [f"{label}:", f"each value minus {ref}"],  # two lines: as narrow as the others
                                "subtitle": "paired game by game on the same seeds, 95% CI; 0: no difference"}}
    return _spec(d, body)




# --- the lessons' small controls (widgets/controls.py): exact distributions, dealt hands, decisiveness ---
# Inline data ({"values": [...]}), drawn by panel.js; `charts.distribution_chart` is Altair's reading of
# `distribution`'s spec. Bars are Okabe-Ito blue, sampled marks vermillion.
DIST_WIDTH, DIST_HEIGHT = 340, 220
BAR, MARK, FAIR = OKABE_ITO[0], OKABE_ITO[5], "#777"


def distribution(dist: Mapping, x_title: str = "value", title: str = "Exact distribution") -> dict:
    """Bars of an exact distribution {value: Fraction}; tooltips show the fraction itself.
    Refuses probabilities that do not sum to 1."""
    items = sorted(dist.items())
    total = sum(Fraction(p) for _, p in items)
    if total != 1:
        raise ValueError(f"probabilities must sum to 1, they sum to {total}")
    values = [v for v, _ in items]
    axis: dict = {"labelAngle": 0}
    if len(values) > 20 and all(isinstance(v, int) for v in values):
        # dozens of bars: label every fifth (or tenth) value, not every bar (labels would overlap)
        step = 5 if len(values) <= 60 else 10
        axis = {"labelAngle": 0, "values": [v for v in values if v % step == 0]}
    mean = sum(Fraction(v) * Fraction(p) for v, p in items) if all(isinstance(v, int) for v in values) else None
    span = f"1 value, {values[0]}" if len(values) == 1 else f"{len(values)} values from {values[0]} to {values[-1]}"
    said = f"{title}: {span}" + (
        f", mean {float(mean):.3g}" if mean is not None else "") + ". Exact probabilities: " + cut(
        "; ".join(f"{x_title} {v}: {Fraction(p)}" for v, p in items)) + "."
    return {
        "data": {"values": [{"value": v, "p": float(p), "exact": str(Fraction(p))} for v, p in items]},
        "mark": {"type": "bar", "color": BAR},
        "encoding": {
            "x": {"field": "value", "type": "ordinal", "title": x_title, "axis": axis},
            "y": {"field": "p", "type": "quantitative", "title": "probability (exact)", "axis": {"format": "%"}},
            "tooltip": [{"field": "value", "type": "ordinal", "title": x_title},
                        {"field": "exact", "type": "nominal", "title": "exact"},
                        {"field": "p", "type": "quantitative", "format": ".2%"}],
        },
        "width": DIST_WIDTH,
        "height": DIST_HEIGHT,
        "title": title,
        "description": said,
    }


def dealt_vs_exact(rows: list[dict], title: str, counted: str = "red cards") -> dict:
    """Exact shares of hands as bars, sampled shares as dots with their 95% intervals.
    rows: {counted, "exact", "fraction", "sampled", "low", "high"}."""
    x = {"field": counted, "type": "ordinal", "title": f"{counted} in Player 1's hand", "axis": {"labelAngle": 0}}
    pct = [{"field": k, "type": "quantitative", "format": ".1%"} for k in ("sampled", "low", "high")]
    y_title = "share of hands (bars exact, dots sampled, 95% CI)"
    return {
        "data": {"values": rows},
        "layer": [
            {"mark": {"type": "bar", "color": OKABE_ITO[4]},
             "encoding": {"x": x, "y": {"field": "exact", "type": "quantitative", "axis": {"format": "%"},
                                        "title": y_title},
                          "tooltip": [{"field": "fraction", "type": "nominal", "title": "exact"}]}},
            # every layer's y names the same title (Vega-Lite would join the layers' field names onto it)
            {"mark": {"type": "errorbar", "ticks": True, "color": MARK},
             "encoding": {"x": x, "y": {"field": "low", "type": "quantitative", "title": y_title}, "y2": {"field": "high"}}},
            {"mark": {"type": "point", "filled": True, "color": MARK},
             "encoding": {"x": x, "y": {"field": "sampled", "type": "quantitative", "title": y_title}, "tooltip": pct}},
        ],
        "width": DIST_WIDTH,
        "height": DIST_HEIGHT,
        "title": title,
        "description": f"{title}: " + "; ".join(
            f"{r[counted]} {counted}: exact {r['exact']:.1%}, sampled {r['sampled']:.1%}" for r in rows),
    }


def decisiveness(rows: list[dict], title: str, fair: float) -> dict:
    """How often the leader at each point of the game goes on to win, one line per rule,
    with 95% intervals and a dashed line at the fair share. rows: {"rule", "when",
    "leader_win_rate", "low", "high"}."""
    x = {"field": "when", "type": "quantitative", "title": "point of the game (share of turns played)",
         "axis": {"format": "%", "values": [0.25, 0.5, 0.75]}, "scale": {"domain": [0.15, 0.85]}}
    colour = {"field": "rule", "type": "nominal", "scale": {"range": list(OKABE_ITO)},
              "legend": {"orient": "bottom", "columns": 1, "title": None, "labelLimit": DIST_WIDTH}}
    # a share: 0 to 100% whatever is drawn, so two rules' charts compare by eye, and a chart with no
    # rule measured yet is the empty axes (an errorbar over no rows gave Vega infinite extents:
    # an SVG 1.8e308 px wide, its title cut, in every host)
    y = {"type": "quantitative", "title": "leader goes on to win (95% CI)", "axis": {"format": "%"},
         "scale": {"domain": [0, 1]}}
    # the line's ends as fields, not datums: Vega-Lite drops a datum's axis title, and before any rule is
    # measured this layer alone draws the axes
    ends = x["scale"]["domain"]
    fair_line = {"data": {"values": [{"fair": fair, "when": ends[0], "until": ends[1]}]},
                 "mark": {"type": "rule", "strokeDash": [4, 4], "color": FAIR},
                 "encoding": {"x": x, "x2": {"field": "until"}, "y": {"field": "fair", **y}}}
    measured = [
        {"data": {"values": rows}, "mark": {"type": "errorbar", "ticks": True},
         "encoding": {"x": x, "color": colour, "y": {"field": "low", **y}, "y2": {"field": "high"}}},
        {"data": {"values": rows}, "mark": {"type": "line", "point": True},
         "encoding": {"x": x, "color": colour, "y": {"field": "leader_win_rate", **y}}},
    ] if rows else []
    return {
        "layer": measured + [fair_line],
        "width": 360,
        "height": 240,
        "title": title,
        "description": f"{title}: " + "; ".join(
            f"{r['rule']} at {r['when']:.0%}: {r['leader_win_rate']:.0%}" for r in rows),
    }


__all__ = ["Current", "heatmap", "measure", "paired", "per_game", "win_rate", "CURRENT", "WIDTH", "HEIGHT", "OKABE_ITO",
           "distribution", "dealt_vs_exact", "decisiveness"]
