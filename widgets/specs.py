"""Vega-Lite specs as plain dicts: the charts drawn inside widgets.

Altair does not load in the site's Pyodide, so the charts a widget draws are
written here as plain Vega-Lite (v5 grammar, which Altair 5 and 6 both read),
with the standard library only. The widget's front end (`static/panel.js`)
draws them with one vega-embed; `charts.py` hands readers `alt.Chart` objects
made from these same specs (`alt.Chart.from_dict`), checked equal by a test.

Colours are the Okabe-Ito palette, which readers with the common colour-vision
deficiencies can tell apart.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

WIDTH, HEIGHT = 340, 220
# Okabe & Ito (2008): safe for deuteranopia, protanopia and tritanopia
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
BAR, MARK = PALETTE[0], PALETTE[5]
FAIR = "#777"


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
    said = f"{title}: {len(values)} values from {values[0]} to {values[-1]}" + (
        f", mean {float(mean):.3g}" if mean is not None else "")
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
        "width": WIDTH,
        "height": HEIGHT,
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
            {"mark": {"type": "bar", "color": PALETTE[4]},
             "encoding": {"x": x, "y": {"field": "exact", "type": "quantitative", "axis": {"format": "%"},
                                        "title": y_title},
                          "tooltip": [{"field": "fraction", "type": "nominal", "title": "exact"}]}},
            # every layer's y names the same title (Vega-Lite would join the layers' field names onto it)
            {"mark": {"type": "errorbar", "ticks": True, "color": MARK},
             "encoding": {"x": x, "y": {"field": "low", "type": "quantitative", "title": y_title}, "y2": {"field": "high"}}},
            {"mark": {"type": "point", "filled": True, "color": MARK},
             "encoding": {"x": x, "y": {"field": "sampled", "type": "quantitative", "title": y_title}, "tooltip": pct}},
        ],
        "width": WIDTH,
        "height": HEIGHT,
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
    colour = {"field": "rule", "type": "nominal", "scale": {"range": list(PALETTE)},
              "legend": {"orient": "bottom", "columns": 1, "title": None, "labelLimit": WIDTH}}
    return {
        "layer": [
            {"data": {"values": rows}, "mark": {"type": "errorbar", "ticks": True},
             "encoding": {"x": x, "color": colour,
                          "y": {"field": "low", "type": "quantitative", "title": "leader goes on to win (95% CI)",
                                "axis": {"format": "%"}}, "y2": {"field": "high"}}},
            {"data": {"values": rows}, "mark": {"type": "line", "point": True},
             "encoding": {"x": x, "color": colour, "y": {"field": "leader_win_rate", "type": "quantitative",
                                                         "title": "leader goes on to win (95% CI)"}}},
            {"data": {"values": [{"fair": fair}]}, "mark": {"type": "rule", "strokeDash": [4, 4], "color": FAIR},
             "encoding": {"y": {"field": "fair", "type": "quantitative", "title": "leader goes on to win (95% CI)"}}},
        ],
        "width": 360,
        "height": 240,
        "title": title,
        "description": f"{title}: " + "; ".join(
            f"{r['rule']} at {r['when']:.0%}: {r['leader_win_rate']:.0%}" for r in rows),
    }
