"""One self-contained HTML file of a comparison, to hand to a co-designer (issue 25).

    from meeple.widgets.report import write_report
    write_report(comparison, "out/report.html")      # a Comparison from workbench._compare

`meeple compare ... --report out/report.html` and `meeple report ...` write it.
Everything is inside the file: the charts are SVG drawn here by vl-convert (the
Vega that ships with it), the styles inline, no script, no font or image from
anywhere, so it opens offline in any browser. It carries the game, each variant
as its variant file, every measure paired with the baseline with its 95%
interval, rule usage, seat advantage, the game-length distribution, the seed,
the command that reproduces it, the package version and the chance stream's
fingerprint (the same fingerprint after an upgrade: the same games).
"""

from __future__ import annotations

import html
import math
import re
from pathlib import Path

import altair as alt
import pandas as pd
import vl_convert as vlc

from meeple.rules.files import write_atomic
from meeple.rules.reproduce import chance_fingerprint, command_for, package_version  # noqa: F401 (shared with the lab)
from meeple.rules.workbench import Comparison, format_comparison, usage_lines

from .charts import compare_chart

REPORT_FORMAT = "meeple-report/1"


def read_stamp(page: str) -> tuple[str, str]:
    """(package version, chance fingerprint) a report was made with; ValueError if it is not a report."""
    version = re.search(r'<meta name="generator" content="meeple ([^;"]+); ' + REPORT_FORMAT, page)
    chance = re.search(r'<meta name="meeple-chance" content="([^"]+)">', page)
    if not version or not chance:
        raise ValueError(f"not a meeple report (no {REPORT_FORMAT} stamp)")
    return html.unescape(version.group(1)), chance.group(1)


# --- charts -------------------------------------------------------------------------

def _svg(chart) -> str:
    svg = vlc.vegalite_to_svg(chart.to_dict())
    return svg[svg.index("<svg"):]  # no XML prolog inside HTML


def _interval_chart(rows: pd.DataFrame, x: str, lo: str, hi: str, title: str, scale: float = 1.0):
    data = rows.assign(v=rows[x] * scale, lo=rows[lo] * scale, hi=rows[hi] * scale)
    base = alt.Chart(data).encode(y=alt.Y("variant:N", sort=None, title=None))
    zero = alt.Chart(pd.DataFrame({"zero": [0]})).mark_rule(color="#777", strokeDash=[4, 4]).encode(x="zero:Q")
    bars = base.mark_errorbar(ticks=True).encode(x=alt.X("lo:Q", title=title), x2="hi:Q")
    dots = base.mark_point(filled=True, size=60).encode(x="v:Q")
    return alt.layer(zero, bars, dots).properties(width=420, height=max(60, 32 * len(data)))


def _length_chart(cmp: Comparison):
    frames = [pd.DataFrame({"variant": name, "turns": fig["turns"].to_numpy()}) for name, fig in cmp.per_game.items()]
    data = pd.concat(frames, ignore_index=True)
    return alt.Chart(data).mark_bar(opacity=0.8).encode(
        x=alt.X("turns:Q", bin=alt.Bin(maxbins=30), title="turns per game"),
        y=alt.Y("count():Q", title="games"),
        row=alt.Row("variant:N", sort=list(cmp.per_game), title=None),
    ).properties(width=420, height=90)


def charts(cmp: Comparison) -> list[tuple[str, str]]:
    """(title, svg) for each chart of the report."""
    t = cmp.table
    per = t.drop_duplicates("variant")
    others = per[~per["baseline"]]
    out = [
        ("Seat advantage: seat 1's win rate minus the fair share, % points (95% CI)",
         _svg(_interval_chart(per, "first_seat_adv", "first_seat_adv_low", "first_seat_adv_high",
                              "first-seat advantage, % points", 100))),
        ("Seat advantage against the baseline, paired game by game, % points (95% CI)",
         _svg(_interval_chart(others, "diff_first_seat_adv", "diff_first_seat_adv_low", "diff_first_seat_adv_high",
                              "difference in first-seat advantage, % points", 100))),
        ("Each seat's win rate and score against the baseline, paired game by game (95% CI)",
         _svg(compare_chart(t))),
        ("Game length: turns per game", _svg(_length_chart(cmp))),
    ]
    return out


# --- the page -------------------------------------------------------------------------

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.8em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .5em 0; } td, th { padding: .2em .7em; border-bottom: 1px solid #eee;
text-align: left; } th { background: #f4f4f4; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f7f7f7; padding: .7em; overflow-x: auto; font-size: 13px; }
.warn { background: #fff4e0; border-left: 4px solid #e0a030; padding: .4em .8em; }
figure { margin: 1em 0; } figcaption { font-weight: 600; margin-bottom: .3em; }
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
    return f"<table><tr>{head}</tr>{body}</table>"


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
        mixed = ('<p class="warn">The seats hold different bots: seat figures mix the bot\'s skill with the seat. '
                 "Run with --rotate to seat the bots in turn.</p>")
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
