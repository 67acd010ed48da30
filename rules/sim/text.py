"""Numbers as the summaries print them: percentages, intervals, seats, aligned tables.

No pandas: `Summary`, `BalanceReport`, the workbench's comparisons and the CLI's tables all
format through here, so a figure reads the same everywhere. `Shown` gives a result the two
displays a notebook asks for, made from the same lines: plain text (a console, the site's
Python, which has no pandas) and an HTML table (`_repr_html_`), where each `fmt_table` is a
table and every other line a paragraph.
"""

from __future__ import annotations

import html
import math
import re
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


ONE_GAME = "n/a (1 game)"  # an interval of one value: the normal approximation has no spread to work from


def ci_num(lo: float, hi: float, digits: int = 2) -> str:
    """A 95% interval of a mean: '3.10 to 4.25', or 'n/a (1 game)' where one value gave it (-inf to inf:
    an interval needs at least 2 games; printing '-inf to inf' read as a result)."""
    if math.isinf(lo) and math.isinf(hi):
        return ONE_GAME
    return f"{num(lo, digits)} to {num(hi, digits)}"


def ci_paren(lo: float, hi: float, digits: int = 2) -> str:
    """ci_num in parentheses, after its mean: '(3.10 to 4.25)' or '(n/a: 1 game)'."""
    return "(n/a: 1 game)" if math.isinf(lo) and math.isinf(hi) else f"({ci_num(lo, hi, digits)})"


def lineup_text(bots: Sequence[str], players: int | None = None) -> str:
    """The bots of a run in a few words: 'heuristic x4', or the names in seat order. One name for
    every seat (the API's bots="heuristic") is counted by `players`, so the API and the command line,
    which names every seat, describe the same run alike."""
    names = [b if isinstance(b, str) else getattr(b, "__name__", "custom") for b in bots]
    if len(set(names)) == 1:
        count = players if len(names) == 1 and players else len(names)
        return f"{names[0]} x{count}" if count > 1 else names[0]
    return ", ".join(names)


class TextTable(str):
    """fmt_table's text, keeping its cells (`headers`, `rows`) for the HTML of the same table."""

    headers: list[str]
    rows: list[list[str]]


def fmt_table(headers: list[str], rows: list[list[str]]) -> TextTable:
    """Rows of text cells as an aligned, indented plain-text table under its headers."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    def line(cells):
        return "  " + "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    out = TextTable("\n".join([line(headers)] + [line(r) for r in rows]))
    out.headers, out.rows = list(headers), [list(r) for r in rows]
    return out


# a cell that is a number, a percentage or an interval of them: right-aligned, so digits line up
_NUMERIC = re.compile(r"^[-+]?(\d[\d,]*(\.\d+)?%?|n/a|inf|-inf)( to [-+]?(\d[\d,]*(\.\d+)?%?|inf|-inf))?%?$")
# 1000 px wide at most (a notebook's cell), scrolled sideways rather than squeezed; the host's colours
_STYLE = "max-width:1000px;overflow-x:auto;font-size:13px;line-height:1.4"
_TABLE = "border-collapse:collapse;margin:4px 0 10px 0;font-variant-numeric:tabular-nums"
_CELL = "padding:2px 10px;border-bottom:1px solid rgba(128,128,128,0.35);white-space:nowrap;text-align:{}"


def html_lines(lines: Sequence[str]) -> str:
    """Lines as HTML, every text escaped: a TextTable as a <table>, other lines as paragraphs."""
    out = []
    for line in lines:
        if isinstance(line, TextTable):
            # a column of numbers (percentages, intervals) is right-aligned, its header too, so digits line up
            align = ["right" if line.rows and all(_NUMERIC.match(r[i].strip()) for r in line.rows) else "left"
                     for i in range(len(line.headers))]
            head = "".join(f'<th style="{_CELL.format(a)}">{html.escape(h)}</th>' for h, a in zip(line.headers, align))
            body = "".join("<tr>" + "".join(f'<td style="{_CELL.format(a)}">{html.escape(c)}</td>' for c, a in zip(r, align))
                           + "</tr>" for r in line.rows)
            out.append(f'<table style="{_TABLE}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>')
        else:
            out += [f'<p style="margin:4px 0">{html.escape(part.strip())}</p>' for part in str(line).split("\n") if part.strip()]
    return f'<div class="meeple-result" style="{_STYLE}">' + "".join(out) + "</div>"


class Shown:
    """A result that shows itself: `lines()` (text lines, some of them `fmt_table`s) printed as
    plain text (str, repr, IPython) and as an HTML table in a notebook (`_repr_html_`)."""

    def lines(self) -> list[str]:
        raise NotImplementedError

    def __str__(self) -> str:
        return "\n".join(self.lines())

    __repr__ = __str__

    def _repr_pretty_(self, p, cycle):  # IPython's plain text
        p.text(str(self))

    def _repr_html_(self) -> str:
        return html_lines(self.lines())


def length_lines(length) -> list[str]:
    """The game-length table (mean with its CI, and the spread of single games) as text lines."""
    return [
        "Game length (mean with 95% CI; spread of single games):",
        fmt_table(
            ["", "mean", "95% CI", "min", "10%", "median", "90%", "max"],
            [
                [r.measure, num(r.mean), f"{ci_num(r.low, r.high)}", str(r.min),
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


__all__ = ["seat_name", "pct", "ci_pct", "num", "ci_num", "ci_paren", "ONE_GAME", "lineup_text", "fmt_table",
           "TextTable", "html_lines", "Shown", "length_lines", "show_value", "value_text"]
