"""A chart's text alternative: what a Vega-Lite spec shows, said in words with its numbers.

A screen reader (or a reader who cannot tell the colours apart) gets from a chart only its
`description` (Vega writes it as the SVG's aria-label). `describe(spec)` writes one from the
spec itself, so every chart gets one without its author writing it: the title, what is
drawn against what, and the rows of the data behind the marks (the encoded columns only),
numbers rounded to three significant figures. A large table is cut after LIMIT characters,
saying how many rows were left out: a page stays small, and the numbers table beside an
Explorer (or the notebook's own table) has them all. Pure Python: it also runs in the course
site's Pyodide, where specs.py builds the Explorer's charts.
"""

from __future__ import annotations

import math

LIMIT = 1200  # characters of rows in one description
CHANNELS = ("column", "row", "facet", "color", "x", "y", "y2", "x2", "xOffset", "yOffset", "text", "size", "shape",
            "tooltip")
UNITS = ("layer", "hconcat", "vconcat", "concat")


def _title(t) -> str:
    if isinstance(t, dict):
        t = t.get("text", "")
    if isinstance(t, list):
        t = " ".join(str(x) for x in t)
    return str(t or "").strip()


def _number(v) -> str:
    if isinstance(v, bool) or not isinstance(v, float):
        return str(v)
    if not math.isfinite(v):
        return "none"
    return f"{v:.3g}" if v else "0"


def _cell(value, column: str, label: str) -> str:
    """One value with its label; a colour's own words ("Player 1 (heuristic)") stand alone,
    a colour of numbers or switches is named by its column."""
    if not label:
        return str(value) if isinstance(value, str) else f"{column.replace('_', ' ')} {_number(value)}"
    return f"{label} {_number(value)}"


def _unescape(field: str) -> str:
    """specs._col escapes brackets and dots in a column name: the row holds the plain name."""
    return field.replace("\\", "")


def _units(spec: dict, data=None):
    """Every unit chart of a spec (layers, concatenations, a facet's inner spec) with the data
    it draws (a unit without its own data draws its parent's)."""
    data = spec.get("data", data)
    if "mark" in spec:
        yield spec, data
    for key in UNITS:
        for part in spec.get(key, []) or []:
            yield from _units(part, data)
    if isinstance(spec.get("spec"), dict):
        yield from _units(spec["spec"], data)


def _rows(data, datasets: dict) -> list[dict] | None:
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("values"), list):
        return data["values"]
    return datasets.get(data.get("name")) if data.get("name") else None


def _fields(encoding: dict, facet=None) -> list[tuple[str, str]]:
    """(column, label) of each encoded channel, in CHANNELS order. A channel's title names its
    column, except where it spans an interval (y with y2: the title is the whole band's) and
    for the colour, whose values name themselves ("Player 1 (heuristic)")."""
    out = []
    drawn_only = _drawn_only(encoding)
    for ch in CHANNELS:
        e = facet if ch == "facet" else encoding.get(ch)
        if ch in drawn_only:
            continue
        for one in (e if isinstance(e, list) else [e]):
            if isinstance(one, str):  # a tooltip's bare column name
                one = {"field": one.split(":")[0]}
            if not (isinstance(one, dict) and isinstance(one.get("field"), str)):
                continue
            field = _unescape(one["field"])
            spans = ch in ("x", "y") and (ch + "2") in encoding
            label = "" if ch == "color" and one.get("type") == "nominal" else \
                str(one.get("title") or "") if one.get("title") and not spans and ch not in ("x2", "y2") else \
                field.replace("_", " ")
            out.append((field, label))
    return out


def _drawn_only(encoding: dict) -> set[str]:
    """Position channels with no axis (a drawing's coordinates: where each bucket of a pyramid
    sits), and their x2/y2: they say nothing to a reader."""
    hidden = {ch for ch in ("x", "y") if isinstance(encoding.get(ch), dict) and encoding[ch].get("axis", 1) is None}
    return hidden | {ch + "2" for ch in hidden}


def describe(spec: dict) -> str:
    """The text alternative of a Vega-Lite spec (see the module docstring)."""
    datasets = spec.get("datasets") or {}
    title = _title(spec.get("title"))
    axes, groups = [], {}  # (x title, y title) of each unit; rows' id -> (rows, columns)
    for unit, data in _units(spec):
        enc = unit.get("encoding") or {}
        if isinstance(enc.get("x"), dict) and isinstance(enc.get("y"), dict) and not _drawn_only(enc):
            pair = tuple(str(enc[c].get("title") or enc[c].get("field") or "") for c in ("x", "y"))
            if all(pair) and pair[0] not in [a[0] for a in axes]:  # a layer of the same x adds nothing
                axes.append(pair)
        if not title:
            title = _title(unit.get("title"))
        rows = _rows(data, datasets)
        if not rows:
            continue
        cols = [f for f in _fields(enc, spec.get("facet") if unit is spec.get("spec") else None) if f[0] in rows[0]]
        rows_id = id(rows)
        have = groups.setdefault(rows_id, (rows, []))[1]
        have.extend(c for c in cols if c[0] not in [h[0] for h in have])
    words = [f"Chart: {title}." if title else "Chart."]
    if axes:
        words.append(" ".join(f"{y} against {x}." for x, y in axes))
    told = []
    for rows, cols in sorted(groups.values(), key=lambda g: -len(g[0])):  # the main data first
        if not cols:
            continue
        told.append("; ".join(", ".join(_cell(r.get(c), c, t) for c, t in cols) for r in rows))
    text = " ".join(words)
    if told:
        text += " Values: " + cut(" | ".join(told)) + "."
    return text


def cut(rows: str) -> str:
    """Rows joined by "; ", cut after LIMIT characters at a row's end, saying how many are left out."""
    if len(rows) <= LIMIT:
        return rows
    kept = rows[:LIMIT].rsplit(";", 1)[0]
    return f"{kept}; and {rows[len(kept):].count(';')} more rows"
