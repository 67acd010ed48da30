"""One self-contained HTML file of a comparison, to hand to a co-designer (issue 25).

    from meeple.widgets.report import write_report, report_html
    write_report(comparison, "out/report.html")      # a Comparison from workbench.compare_run

`meeple compare ... --report out/report.html`, `meeple report ...` and the course site's
variant lab (in the reader's browser: `lab.report()`) all make it here, with one builder.
Everything is inside the file: the charts are SVG drawn here with the standard library (no
altair, pandas or Vega: the site's Pyodide has none of them), the styles inline, no script,
no font or image from anywhere, so it opens offline in any browser. It carries the game,
each variant as its variant file, every measure paired with the baseline with its 95%
interval, rule usage, seat advantage, the game-length distribution, the seed, the command
that reproduces it, the package version and the chance stream's fingerprint (the same
fingerprint after an upgrade: the same games). The same games give the same file, byte for
byte, wherever it is made.
"""

from __future__ import annotations

import html
import math
import re
from pathlib import Path

from meeple.rules.files import shown_path, write_atomic
from meeple.rules.reproduce import chance_fingerprint, command_for, package_version
from meeple.rules.comparison import sameness_lines
from meeple.rules.workbench import Comparison, format_comparison, usage_lines

from .specs import OKABE_ITO

__all__ = ["report_html", "write_report", "read_stamp", "charts", "REPORT_FORMAT", "package_version",
           "chance_fingerprint"]

REPORT_FORMAT = "meeple-report/1"
MAX_STAMP = 120  # a version or a chance fingerprint is far shorter (chance2-mt19937- and 16 hex digits)


def read_stamp(page: str) -> tuple[str, str]:
    """(package version, chance fingerprint) a report was made with; ValueError if it is not a report."""
    version = re.search(r'<meta name="generator" content="meeple ([^;"]+); ' + REPORT_FORMAT, page)
    chance = re.search(r'<meta name="meeple-chance" content="([^"]+)">', page)
    if not version or not chance:
        raise ValueError(f"not a meeple report (no {REPORT_FORMAT} stamp)")
    made = html.unescape(version.group(1)), html.unescape(chance.group(1))
    for name, text in zip(("generator", "meeple-chance"), made):
        # `meeple check-report` prints both: a terminal escape in one would act on the reader's terminal
        if not text.isprintable() or len(text) > MAX_STAMP:
            raise ValueError(f"not a meeple report: its {name} stamp is not printable text of at most {MAX_STAMP} "
                             f"characters (it holds control characters or terminal escapes, or is too long), "
                             f"got {shown_path(repr(text), 60)}")
    return made


# --- charts: SVG text, drawn here ---------------------------------------------------------

WIDTH = 640  # the drawing's own width (it scales down to the page: viewBox)
ROW = 24
AXIS = "#555"
ZERO = "#777"


def _n(x: float) -> str:
    """A coordinate as text: one decimal, no "-0.0" (the same text on every Python)."""
    text = f"{x:.1f}"
    return "0.0" if text == "-0.0" else text


def _finite(*xs) -> bool:
    return all(isinstance(x, (int, float)) and math.isfinite(x) for x in xs)


def nice_ticks(lo: float, hi: float, count: int = 6) -> list[float]:
    """Round tick values covering [lo, hi]: steps of 1, 2, 2.5 or 5 times a power of ten."""
    if not _finite(lo, hi):
        return [0.0]
    if hi <= lo:
        lo, hi = lo - 1, hi + 1
    raw = (hi - lo) / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.floor(lo / step + 1e-9)
    last = math.ceil(hi / step - 1e-9)
    return [round(k * step, 10) for k in range(first, last + 1)]


def _tick_text(t: float, signed: bool) -> str:
    text = f"{t:+g}" if signed and t else f"{t:g}"
    return text.replace("-", "−")


def _svg(width: int, height: int, label: str, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" role="img" aria-label="{html.escape(label)}" font-family="system-ui, sans-serif" '
            f'font-size="12">' + "".join(body) + "</svg>")


def _x_axis(body: list, ticks: list[float], x, top: float, bottom: float, title: str, signed: bool,
            left: float, right: float) -> None:
    """Grid lines, tick labels and the axis title under a panel from `top` to `bottom`."""
    for t in ticks:
        body.append(f'<line x1="{_n(x(t))}" y1="{_n(top)}" x2="{_n(x(t))}" y2="{_n(bottom)}" stroke="#e4e4e4"/>')
        body.append(f'<text x="{_n(x(t))}" y="{_n(bottom + 15)}" text-anchor="middle" fill="{AXIS}">'
                    f"{_tick_text(t, signed)}</text>")
    body.append(f'<line x1="{_n(left)}" y1="{_n(bottom)}" x2="{_n(right)}" y2="{_n(bottom)}" stroke="{AXIS}"/>')
    body.append(f'<text x="{_n((left + right) / 2)}" y="{_n(bottom + 32)}" text-anchor="middle" fill="#222">'
                f"{html.escape(title)}</text>")


def _intervals(body: list, rows: list, top: float, title: str, signed: bool, left: float) -> float:
    """One panel of points with 95% intervals, a row each: (label, value, low, high, colour); a dashed
    rule at 0. Returns the panel's bottom (after its axis)."""
    right = WIDTH - 16
    xs = [v for _, v, lo, hi, _ in rows if _finite(v, lo, hi) for v in (lo, hi)] + [0.0]
    ticks = nice_ticks(min(xs), max(xs))
    lo_t, hi_t = ticks[0], ticks[-1]

    def x(v: float) -> float:
        return left + (v - lo_t) / ((hi_t - lo_t) or 1) * (right - left)

    bottom = top + ROW * len(rows) + 8
    _x_axis(body, ticks, x, top, bottom, title, signed, left, right)
    if lo_t <= 0 <= hi_t:
        body.append(f'<line x1="{_n(x(0))}" y1="{_n(top)}" x2="{_n(x(0))}" y2="{_n(bottom)}" stroke="{ZERO}" '
                    'stroke-dasharray="4 4"/>')
    for k, (label, v, lo, hi, colour) in enumerate(rows):
        y = top + 4 + ROW * k + ROW / 2
        body.append(f'<text x="{_n(left - 8)}" y="{_n(y + 4)}" text-anchor="end" fill="#222">{html.escape(label)}</text>')
        if not _finite(v, lo, hi):
            body.append(f'<text x="{_n(left + 4)}" y="{_n(y + 4)}" fill="{AXIS}">n/a</text>')
            continue
        tip = f"{label}: {_tick_text(v, signed)} (95% CI {_tick_text(lo, signed)} to {_tick_text(hi, signed)})"
        body.append(f"<g><title>{html.escape(tip)}</title>"
                    f'<line x1="{_n(x(lo))}" y1="{_n(y)}" x2="{_n(x(hi))}" y2="{_n(y)}" stroke="{colour}" stroke-width="2"/>'
                    f'<line x1="{_n(x(lo))}" y1="{_n(y - 5)}" x2="{_n(x(lo))}" y2="{_n(y + 5)}" stroke="{colour}" stroke-width="2"/>'
                    f'<line x1="{_n(x(hi))}" y1="{_n(y - 5)}" x2="{_n(x(hi))}" y2="{_n(y + 5)}" stroke="{colour}" stroke-width="2"/>'
                    f'<circle cx="{_n(x(v))}" cy="{_n(y)}" r="4.5" fill="{colour}"/></g>')
    return bottom + 40


def _left(labels) -> float:
    return 16 + 6.6 * max((len(str(t)) for t in labels), default=4)


def interval_chart(rows: list, title: str, signed: bool = True) -> str:
    """Points with 95% intervals, one row each: (label, value, low, high, colour)."""
    body: list[str] = []
    bottom = _intervals(body, rows, 8, title, signed, _left(r[0] for r in rows))
    return _svg(WIDTH, int(bottom), title, body)


def _who(r: dict, by: str) -> str:
    return f"Player {int(r['seat']) + 1}" if by == "seat" else str(r["bot"])


def seat_chart(rows: list[dict], by: str) -> str:
    """Each seat's (or bot's) paired difference from the baseline in win rate (% points) and in mean
    score, two panels, a row per variant and seat; a colour per seat."""
    others = [r for r in rows if not r["baseline"]]
    whos = list(dict.fromkeys(_who(r, by) for r in others))
    colour = {w: OKABE_ITO[k % len(OKABE_ITO)] for k, w in enumerate(whos)}
    labels = [f"{r['variant']} · {_who(r, by)}" for r in others]
    win = [(lab, 100 * r["diff_win_rate"], 100 * r["diff_win_low"], 100 * r["diff_win_high"], colour[_who(r, by)])
           for lab, r in zip(labels, others)]
    score = [(lab, r["diff_score"], r["diff_score_low"], r["diff_score_high"], colour[_who(r, by)])
             for lab, r in zip(labels, others)]
    body: list[str] = []
    left = _left(labels)
    middle = _intervals(body, win, 8, "win rate minus the baseline's, % points (95% CI)", True, left)
    bottom = _intervals(body, score, middle, "mean score minus the baseline's (95% CI)", True, left)
    return _svg(WIDTH, int(bottom), "each seat against the baseline", body)


def length_chart(turns: dict[str, list[int]]) -> str:
    """Game length: a histogram of turns per game for each variant, one above the other, on the same bins."""
    every = [t for ts in turns.values() for t in ts]
    lo, hi = (min(every), max(every)) if every else (0, 1)
    width = next(w * 10 ** k for k in range(8) for w in (1, 2, 5) if (hi - lo + 1) / (w * 10 ** k) <= 30)
    start = lo // width * width
    bins = (hi - start) // width + 1
    counts = {name: [0] * bins for name in turns}
    for name, ts in turns.items():
        for t in ts:
            counts[name][(t - start) // width] += 1
    top_count = max((max(c) for c in counts.values() if c), default=1) or 1
    y_ticks = [t for t in nice_ticks(0, top_count, 3) if t >= 0]
    labels = list(turns)
    names_end = _left(labels) - 8  # the variants' names end here; the count axis comes after them
    left = names_end + 40
    right = WIDTH - 16
    panel, gap = 80, 24

    def x(v: float) -> float:
        return left + (v - start) / (bins * width) * (right - left)

    body: list[str] = []
    top = 18
    for k, name in enumerate(labels):
        y0 = top + k * (panel + gap)
        base = y0 + panel
        body.append(f'<text x="{_n(names_end)}" y="{_n(y0 + panel / 2 + 4)}" text-anchor="end" fill="#222">'
                    f"{html.escape(name)}</text>")
        for t in y_ticks:
            y = base - t / y_ticks[-1] * panel
            body.append(f'<line x1="{_n(left - 4)}" y1="{_n(y)}" x2="{_n(right)}" y2="{_n(y)}" stroke="#eee"/>')
            body.append(f'<text x="{_n(left - 7)}" y="{_n(y + 4)}" text-anchor="end" fill="{AXIS}">{t:g}</text>')
        c = OKABE_ITO[k % len(OKABE_ITO)]
        for b, n in enumerate(counts[name]):
            if not n:
                continue
            h = n / y_ticks[-1] * panel
            a = start + b * width
            tip = f"{name}: {n} games of {a}" + (f" to {a + width - 1}" if width > 1 else "") + " turns"
            body.append(f'<rect x="{_n(x(a) + 0.5)}" y="{_n(base - h)}" width="{_n(max(1.0, x(a + width) - x(a) - 1))}" '
                        f'height="{_n(h)}" fill="{c}" fill-opacity="0.85"><title>{html.escape(tip)}</title></rect>')
        body.append(f'<line x1="{_n(left)}" y1="{_n(base)}" x2="{_n(right)}" y2="{_n(base)}" stroke="{AXIS}"/>')
    bottom = top + len(labels) * (panel + gap) - gap
    ticks = [t for t in nice_ticks(start, start + bins * width) if start <= t <= start + bins * width]
    _x_axis(body, ticks, x, bottom, bottom, "turns per game (games in each bin)", False, left, right)
    body.insert(0, f'<text x="{_n(left - 7)}" y="{_n(top - 2)}" fill="{AXIS}" font-size="11" text-anchor="end">games</text>')
    return _svg(WIDTH, int(bottom + 40), "turns per game", body)


def charts(cmp: Comparison) -> list[tuple[str, str]]:
    """(title, svg) for each chart of the report."""
    a = cmp.table.attrs
    rows = cmp.table.to_dict(orient="records")
    per = cmp.table.drop_duplicates("variant").to_dict(orient="records")
    colour = {r["variant"]: OKABE_ITO[k % len(OKABE_ITO)] for k, r in enumerate(per)}
    adv = [(r["variant"], 100 * r["first_seat_adv"], 100 * r["first_seat_adv_low"], 100 * r["first_seat_adv_high"],
            colour[r["variant"]]) for r in per]
    diff = [(r["variant"], 100 * r["diff_first_seat_adv"], 100 * r["diff_first_seat_adv_low"],
             100 * r["diff_first_seat_adv_high"], colour[r["variant"]]) for r in per if not r["baseline"]]
    turns = {name: [g.turns for g in res.records] for name, res in cmp.results.items() if res.completed}
    return [
        ("Seat advantage: seat 1's win rate minus the fair share, % points (95% CI)",
         interval_chart(adv, "first-seat advantage, % points")),
        ("Seat advantage against the baseline, paired game by game, % points (95% CI)",
         interval_chart(diff, "difference in first-seat advantage, % points")),
        ("Each seat's win rate and score against the baseline, paired game by game (95% CI)",
         seat_chart(rows, a.get("by", "seat"))),
        ("Game length: turns per game", length_chart(turns)),
    ]


# --- the page -------------------------------------------------------------------------

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.8em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .5em 0; } td, th { padding: .2em .7em; border-bottom: 1px solid #eee;
text-align: left; } th { background: #f4f4f4; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f7f7f7; padding: .7em; overflow-x: auto; font-size: 13px; }
.warn { background: #fff4e0; border-left: 4px solid #e0a030; padding: .4em .8em; }
figure { margin: 1em 0; } figcaption { font-weight: 600; margin-bottom: .3em; }
figure svg { max-width: 100%; height: auto; display: block; }
.scroll { overflow-x: auto; }
"""


def _ci(v, lo, hi, scale=1.0, digits=2, sign=False) -> str:
    if any(isinstance(x, float) and math.isnan(x) for x in (v, lo, hi)):
        return "n/a"
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    return f"{f.format(scale * v)} ({f.format(scale * lo)} to {f.format(scale * hi)})"


def _table(headers, rows) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td{' class=n' if k > 1 and str(c)[:1] in '+-0123456789' else ''}>"
                                    f"{html.escape(str(c))}</td>"
                                    for k, c in enumerate(r)) + "</tr>" for r in rows)
    return f"<div class=scroll><table><tr>{head}</tr>{body}</table></div>"


def _measures_html(cmp: Comparison) -> str:
    t = cmp.table
    a = t.attrs
    seat_rows = []
    for r in t.to_dict(orient="records"):
        base = r["baseline"]
        who = f"Player {int(r['seat']) + 1} ({r['bot']})" if "seat" in r and r.get("seat") is not None else r["bot"]
        seat_rows.append([r["variant"], who, _ci(r["win_rate"], r["win_low"], r["win_high"], 100, 1),
                          "baseline" if base else _ci(r["diff_win_rate"], r["diff_win_low"], r["diff_win_high"],
                                                      100, 1, True),
                          _ci(r["score"], r["score_low"], r["score_high"]),
                          "baseline" if base else _ci(r["diff_score"], r["diff_score_low"], r["diff_score_high"],
                                                      sign=True)])
    out = ["<h3>Win rate (%) and mean score per seat, paired difference from the baseline</h3>",
           _table(["variant", "seat" if a.get("by", "seat") == "seat" else "bot", "win rate % (95% CI)",
                   "vs baseline, % points", "mean score (95% CI)", "vs baseline"], seat_rows)]
    per = t.drop_duplicates("variant").to_dict(orient="records")
    measures = [("first_seat_adv", "first-seat advantage, % points", 100, 1), ("turns", "turns per game", 1, 2),
                ("rounds", "rounds per game", 1, 2)] + [(m, m.removeprefix("mean_") + " (per game)", 1, 2)
                                                         for m in a.get("measures", [])]
    rows = []
    for col, label, scale, digits in measures:
        for r in per:
            rows.append([label, r["variant"], _ci(r[col], r[f"{col}_low"], r[f"{col}_high"], scale, digits),
                         "baseline" if r["baseline"] else _ci(r[f"diff_{col}"], r[f"diff_{col}_low"],
                                                              r[f"diff_{col}_high"], scale, digits, True)])
    out += ["<h3>Seat advantage, game length and chosen measures</h3>",
            _table(["measure", "variant", "mean (95% CI)", "vs baseline, paired (95% CI)"], rows)]
    return "\n".join(out)


def _usage_html(cmp: Comparison) -> str:
    a = cmp.table.attrs
    usage, always, words = a.get("usage") or {}, a.get("always_applies") or {}, a.get("usage_words") or {}
    done = a.get("completed") or {}
    keys = sorted({k for u in usage.values() for k in u})
    if not keys:
        return "<p>This game counts no rule usage.</p>"
    rows = []
    for k in keys:
        row = [k]
        for v in usage:
            g, occ = usage[v].get(k, (0, 0))
            row.append(f"{g:,} of {done.get(v, 0):,} ({occ / max(1, done.get(v, 0)):.2f} a game)")
        row.append(words.get(k.split("[", 1)[0], ""))
        rows.append(row)
    changed = {k for ks in (a.get("changed") or {}).values() for k in ks}
    text = [line for line in usage_lines(cmp.table) if line.startswith("Warning")]
    warn = "".join(f'<p class="warn">{html.escape(line)}</p>' for line in text)
    always_rows = [[f, why] for f, why in always.items()]
    return (f"<p>Changed here: {html.escape(', '.join(sorted(changed)) or 'nothing')}. Games in which each counted "
            "number could matter, per variant:</p>" + warn + _table(["number", *usage, "what is counted"], rows)
            + "<p>Numbers that apply in every game:</p>" + _table(["field", "why"], always_rows))


def report_html(cmp: Comparison, command: str | None = None) -> str:
    """The report as one HTML document (text)."""
    a = cmp.table.attrs
    command = command or command_for(cmp)
    title = f"{a['game']}: {', '.join(cmp.configs)} ({a['games']} games per variant, seed {a['seed']})"
    variants = "".join(
        f"<h3>{html.escape(name)}</h3><pre>{html.escape(cfg.variant_text(name, '.toml'))}</pre>"
        for name, cfg in cmp.configs.items())
    figures = "".join(f"<figure class=chart><figcaption>{html.escape(t)}</figcaption>{svg}</figure>"
                      for t, svg in charts(cmp))
    mixed = ""
    if a.get("mixed") and not a.get("rotate"):
        mixed = ('<p class="warn">The seats hold different bots, each kept in its seat (--no-rotate): seat figures '
                 "mix the bot\'s skill with the seat. Without --no-rotate, compare seats the bots in turn.</p>")
    # a variant that plays the baseline's games, or differs only by chance: said before any figure
    mixed += "".join(f'<p class="warn same">{html.escape(line)}</p>' for line in sameness_lines(cmp.table))
    version, chance = package_version(), chance_fingerprint()
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="generator" content="meeple {html.escape(version)}; {REPORT_FORMAT}">
<meta name="meeple-chance" content="{chance}">
<title>{html.escape(title)}</title><style>{STYLE}</style></head>
<body>
<h1>{html.escape(title)}</h1>
<p>Every variant played the same {a['games']} game seeds (seed {a['seed']}; common random numbers), bots
{html.escape(a.get('bots', ''))}{', rotated' if a.get('rotate') else ''}; differences are paired, game by game, from
the baseline {html.escape(repr(a['baseline']))}, with 95% intervals.{' Interrupted: partial figures.' if a.get('partial') else ''}</p>
{mixed}
<h2>Reproduce</h2>
<pre id="command">{html.escape(command)}</pre>
<p>meeple {html.escape(version)}; chance stream {chance} (the same fingerprint deals the same games; another one
means this command will not reproduce these figures exactly). <code>meeple check-report THIS-FILE.html</code> says
which holds for an install.</p>
<h2>Variants</h2>
<p>Each as its variant file (<code>meeple compare --variant FILE.toml</code> reads it):</p>
{variants}
<h2>Paired measures</h2>
{_measures_html(cmp)}
<h2>Rule usage</h2>
{_usage_html(cmp)}
<h2>Charts</h2>
{figures}
<h2>The comparison as text</h2>
<pre>{html.escape(format_comparison(cmp.table))}</pre>
</body></html>
"""


def write_report(cmp: Comparison, path, command: str | None = None) -> Path:
    """Write the report to `path` (.html) atomically and return the path."""
    path = Path(path)
    write_atomic(path, report_html(cmp, command))
    return path
