"""Numbers as the summaries print them: percentages, intervals, seats, aligned tables.

Plain text only (no pandas): `Summary`, `BalanceReport`, the workbench's comparisons and
the CLI's tables all format through here, so a figure reads the same everywhere.
"""

from __future__ import annotations

import math
from typing import Sequence

from ..config import show_value


def seat_name(s: int) -> str:
    """'Player 1' for seat 0: seats are 0-based in code, 1-based in print."""
    return f"Player {s + 1}"


def pct(x: float) -> str:
    """A share as a percentage with one decimal: 0.4567 -> '45.7%'."""
    return f"{100 * x:.1f}%"


def ci_pct(lo: float, hi: float) -> str:
    """An interval of shares in percent: '41.2 to 50.3%'."""
    return f"{100 * lo:.1f} to {100 * hi:.1f}%"


def num(x: float, digits: int = 2) -> str:
    """A number with `digits` decimals; 'n/a' for None or NaN, 'inf' / '-inf' for an open interval's end."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    return f"{x:.{digits}f}"


def lineup_text(bots: Sequence[str]) -> str:
    """The bots of a run in a few words: 'heuristic x4', or the names in seat order."""
    names = [b if isinstance(b, str) else getattr(b, "__name__", "custom") for b in bots]
    if len(set(names)) == 1:
        return f"{names[0]} x{len(names)}" if len(names) > 1 else names[0]
    return ", ".join(names)


def fmt_table(headers: list[str], rows: list[list[str]]) -> str:
    """Rows of text cells as an aligned, indented plain-text table under its headers."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    def line(cells):
        return "  " + "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    return "\n".join([line(headers)] + [line(r) for r in rows])


def length_lines(length) -> list[str]:
    """The game-length table (mean with its CI, and the spread of single games) as text lines."""
    return [
        "Game length (mean with 95% CI; spread of single games):",
        fmt_table(
            ["", "mean", "95% CI", "min", "10%", "median", "90%", "max"],
            [
                [r.measure, num(r.mean), f"{num(r.low)} to {num(r.high)}", str(r.min),
                 num(r.p10, 1), num(r.median, 1), num(r.p90, 1), str(r.max)]
                for r in length.itertuples()
            ],
        ),
    ]


def value_text(value) -> str:
    """A value as --set takes it: 15,13,11 / true / none."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(show_value(value))


__all__ = ["seat_name", "pct", "ci_pct", "num", "lineup_text", "fmt_table", "length_lines", "show_value", "value_text"]
