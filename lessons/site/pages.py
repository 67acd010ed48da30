"""The course site's pages after Jupyter Book has written them (issue 24), for lessons/site/build.py:
each function rewrites the built HTML in place and returns what it did, for the build's log.

- the saved widget state: models no view reaches dropped, ipywidgets' empty traits left out,
  each anywidget's module moved into one shared, cached file, Altair charts and Explorers
  compiled to Vega (drawn with the site's one Vega file before any Python starts);
- exercises: no bare True/False under a `check(...)`, one "Show solution" per answer;
- formulas typeset at build time by KaTeX (the pages' and a widget's Markdown);
- the theme trimmed: no source maps, only the Font Awesome icons the pages use (as SVG, and
  the glyphs its CSS names), the search index only on search.html.
"""

from __future__ import annotations

import csv
import html as htmllib
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import vl_convert
from altair.utils._importers import vl_version_for_vl_convert

from meeple.rules.extras import require

from .cells import EDITOR_DIR, module_name
from .vendor import KATEX_DIR, MODULES, PYODIDE_DIR, STATIC, VEGA_DIR, VEGA_LITE_DIR, WIDGETS_STATIC
from meeple.widgets.chart_text import describe

CHART_ESM = STATIC / "meeple-chart.js"  # the front end of every chart on the site
EXPLORER_ESM = WIDGETS_STATIC / "explorer.js"  # the Explorer's one front end, served as it is (no bundled Vega)
INLINE_MAX = 512  # characters: a module this short stays in the page

STATE = re.compile(r'(<script type="application/vnd\.jupyter\.widget-state\+json">)(.*?)(</script>)', re.S)
VIEW = re.compile(r'<script type="application/vnd\.jupyter\.widget-view\+json">(.*?)</script>', re.S)


def write_state(page: Path, text: str, found: re.Match, state: dict) -> int:
    """Write `state` into the page (`text`, whose widget-state script is `found`) as compact
    JSON that never closes the script tag early; returns the length of that JSON."""
    body = json.dumps(state, separators=(",", ":")).replace("</", "<\\/")
    page.write_text(text[: found.start(2)] + body + text[found.end(2):])
    return len(body)


def prune_widget_state(page: Path) -> int:
    """Drop the widget models a page never shows; returns how many were dropped.
    The executed notebook keeps every widget the lesson ever made, closed ones too (nbclient
    never forgets one), and each Altair chart carries ~0.9 MB of Vega: keep the models the
    page's views reach (directly, or through any model id in a reached model's state), drop the rest."""
    text = page.read_text()
    found = STATE.search(text)
    if not found:
        return 0
    state = json.loads(found[2])
    models = state["state"]
    todo = [json.loads(v)["model_id"] for v in VIEW.findall(text)]
    keep: set[str] = set()
    while todo:
        mid = todo.pop()
        if mid in keep or mid not in models:
            continue
        keep.add(mid)
        # children as "IPY_MODEL_<id>", an Output widget's views as {"model_id": "<id>"}: any id will do
        todo += [r for r in re.findall(r"[0-9a-f]{32}", json.dumps(models[mid])) if r in models]
    dropped = len(models) - len(keep)
    if dropped:
        state["state"] = {k: v for k, v in models.items() if k in keep}
        write_state(page, text, found, state)
    return dropped


WIDGET_BOOKKEEPING = {"_model_module", "_model_module_version", "_model_name", "_view_count", "_view_module",
                      "_view_module_version", "_view_name"}


def slim_widget_state(page: Path) -> int:
    """The ipywidgets' saved state, as the site's loader reads it: without the traits left at
    nothing (None, "" or []: every Layout lists ~30 of them) and without the bookkeeping
    the model's name already says. Anywidgets' state is kept whole (their own front ends
    read it). Returns the bytes saved."""
    text = page.read_text()
    found = STATE.search(text)
    if not found:
        return 0
    state = json.loads(found[2])
    for model in state["state"].values():
        if not str(model.get("model_module", "")).startswith("@jupyter-widgets/"):
            continue
        model["state"] = {k: v for k, v in model.get("state", {}).items()
                          if k not in WIDGET_BOOKKEEPING and v is not None and v != "" and v != []}
    return len(found[2]) - write_state(page, text, found, state)




def externalize_modules(page: Path, static: Path) -> int:
    """Move each anywidget's module (`_esm`, `_css`) out of the page into `_static/widgets/`,
    named by its SHA-256, and leave its path ("./widgets/<hash>.js", which the site's loader
    resolves next to itself) in the state. Returns the bytes taken out of the page.
    Altair's chart module alone is 0.9 MB of Vega: written once, every chart on every page
    shares it, and the browser caches it (the name changes only when the content does)."""
    text = page.read_text()
    found = STATE.search(text)
    if not found:
        return 0
    state = json.loads(found[2])
    saved = 0
    for model in state["state"].values():
        attrs = model.get("state", {})
        for key, suffix in (("_esm", ".js"), ("_css", ".css")):
            body = attrs.get(key)
            if not isinstance(body, str) or len(body) <= INLINE_MAX or body.startswith("./"):
                continue
            data = body.encode()
            name = module_name(data, suffix)
            target = static / MODULES / name
            if not target.exists():
                target.parent.mkdir(exist_ok=True)
                target.write_bytes(data)
            attrs[key] = f"./{MODULES}/{name}"
            saved += len(body)
    if saved:
        write_state(page, text, found, state)
    return saved


CELL = '<div class="cell '
CHECK_CALL = '<span class="n">check</span><span class="p">(</span>'
CHECK_RESULT = re.compile(r'<div class="output text_plain[^"]*"><div class="highlight"><pre><span></span>(?:True|False)\n'
                          r'</pre></div>\n</div>\n?')


def drop_check_results(text: str) -> str:
    """An exercise cell ends with `check(...)`, whose True/False JupyterLab shows as the cell's
    result; its words (above it) already say right or wrong, so the page leaves the bare
    True/False out (issue 24 item 5: a stray "False" under every hint)."""
    parts = text.split(CELL)
    return CELL.join([parts[0]] + [CHECK_RESULT.sub("", p) if CHECK_CALL in p.split("</pre>", 1)[0] else p
                                   for p in parts[1:]])


SOLUTION_BLOCK = re.compile(r'<div class="cell tag_solution[^"]*">\s*(?=<details)|<details class="[^"]*meeple-solution[^"]*">')


def _close(text: str, start: int, tag: str) -> int:
    """The index just after the end tag of the <tag> element that opens at `start`."""
    depth = 0
    for m in re.finditer(rf"<{tag}[\s>]|</{tag}>", text[start:]):
        depth += -1 if m[0].startswith("</") else 1
        if depth == 0:
            return start + m.end()
    raise ValueError(f"unclosed <{tag}> at {start}")


def _solution(text: str, start: int) -> tuple[int, int, str]:
    """A solution fold at `start`: (where it ends, where its <details> closes, what it folds)."""
    details = text.index("<details", start)
    shut = _close(text, details, "details") - len("</details>")
    end = _close(text, start, "div") if text.startswith("<div", start) else shut + len("</details>")
    body = text[text.index("</summary>", details) + len("</summary>"):shut]
    return end, shut, body


def merge_solution_folds(text: str) -> str:
    """One exercise, one "Show solution": where an answer is several cells in a row (its code
    and its words), their folds become one, the first, holding them all (issue 24 item 5)."""
    at = 0
    while found := SOLUTION_BLOCK.search(text, at):
        end, shut, _ = _solution(text, found.start())
        nxt = SOLUTION_BLOCK.match(text, end + len(text[end:]) - len(text[end:].lstrip()))
        if nxt is None:
            at = end
            continue
        after, _, body = _solution(text, nxt.start())
        text = text[:shut] + body + text[shut:end] + text[after:]
        at = found.start()  # the merged fold may be followed by yet another part of the answer
    return text


def edit_widget_state(page: Path, *edits) -> int:
    """Read the page's saved widget state once, let each `edit(model) -> charts compiled` change
    the models it knows, and write the state back once if any did. Returns the charts compiled."""
    text = page.read_text()
    found = STATE.search(text)
    if not found:
        return 0
    state = json.loads(found[2])
    done = sum(edit(model) for model in state["state"].values() for edit in edits)
    if done:
        write_state(page, text, found, state)
    return done


def _to_vega(spec: dict) -> dict:
    """Vega-Lite compiled to Vega by vl-convert, the compiler Altair itself uses, at the
    Vega-Lite version Altair names."""
    vega = vl_convert.vegalite_to_vega(spec, vl_version=vl_version_for_vl_convert())
    for data in vega.get("data", []):
        if isinstance(data.get("values"), list):
            data["values"] = [_drawn(row) for row in data["values"]]
            data.update(csv_values(data))
    return vega


# How Vega reads a field of CSV text (vega-loader's typeParsers): "" and a missing value are null.
# A field whose every value is a number (or null) is parsed as "number", every value a bool as
# "boolean"; a text field is parsed only if it has nulls ("string": "" -> null), else left as the text.
CSV_TYPES = ((lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "number"),
             (lambda v: isinstance(v, bool), "boolean"), (lambda v: isinstance(v, str), "string"))


def _compact(x) -> int:
    """The length of x as the page's compact JSON."""
    return len(json.dumps(x, separators=(",", ":")))


# The colours widgets/static/explorer.js swaps in a spec's JSON text for a dark page ('"#111"', '"#777"'):
# a value in CSV text is not quoted so, and would keep its light-page colour
DARK_SWAPPED = frozenset({"#111", "#777"})


def csv_values(data: dict) -> dict:
    """A Vega data set's inline rows as CSV text (`values` a string, `format` {"type": "csv",
    "parse": ...}), which Vega reads back into the very same rows: the column names once, not once
    a row (a saved Explorer's three charts repeat ~10 names on each of their rows; a page has
    1.5 MB cold). Returns the keys to update, or {} where the rows are not exactly CSV's: rows
    with other keys or in another order, a nested value, a value NaN or infinite, a field of
    mixed types, a text field with both null and "" (CSV has one empty), a colour explorer.js
    swaps for a dark page (DARK_SWAPPED), a format already set, or no saving."""
    rows, fmt = data.get("values"), data.get("format")
    if not isinstance(rows, list) or not rows or fmt not in (None, {}) or not all(isinstance(r, dict) for r in rows):
        return {}
    names = list(rows[0])
    if not names or any(list(r) != names for r in rows):
        return {}
    parse = {}
    for name in names:
        column = [r[name] for r in rows]
        given = [v for v in column if v is not None]
        kind = next((k for test, k in CSV_TYPES if given and all(test(v) for v in given)), None)
        if kind is None and given:
            return {}  # mixed, nested, or a type CSV cannot say
        if kind == "number" and not all(math.isfinite(v) for v in given):
            return {}
        if kind == "string":
            if any(v in DARK_SWAPPED for v in given) or (len(given) < len(column) and "" in given):
                return {}
            if len(given) == len(column):
                continue  # text with no null: left as it is read
        parse[name] = kind or "number"  # a column of nulls only: read as null

    def cell(v) -> str:
        return "" if v is None else v if isinstance(v, str) else json.dumps(v)

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    writer.writerows([cell(r[n]) for n in names] for r in rows)
    text = out.getvalue()
    fmt = {"type": "csv", **({"parse": parse} if parse else {})}
    if _compact(text) + _compact(fmt) >= _compact(rows) + _compact(data.get("format", {})):
        return {}
    return {"values": text, "format": fmt}


DRAWN_DIGITS = 6  # significant digits of a number a chart draws: far finer than a pixel, a third of the bytes


def _drawn(value):
    """`value` (a row of a chart's data) with every float cut to DRAWN_DIGITS significant digits:
    a page has 1.5 MB cold, and 0.26523327997278395 draws where 0.265233 does. The numbers a
    reader reads (the tables, the text alternatives) are made before, from the full values."""
    if isinstance(value, float):
        return float(f"{value:.{DRAWN_DIGITS}g}") if math.isfinite(value) else value
    if isinstance(value, dict):
        return {k: _drawn(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_drawn(v) for v in value]
    return value


def _no_schema(vega: dict) -> dict:
    """A compiled spec without its "$schema" (a URL Vega never reads), for the front ends that know
    it is Vega: meeple-chart.js (always Vega) and explorer.js (charts["format"]); panel.js tells
    Vega from Vega-Lite by it, so a control's chart keeps it."""
    return {k: v for k, v in vega.items() if k != "$schema"}


def compile_chart(model: dict) -> int:
    """An Altair chart (JupyterChart) on a page becomes Vega, drawn by meeple-chart.js with
    the site's one Vega file, in place of a chart module that carries Vega, Vega-Lite and
    vega-embed itself (0.9 MB). Returns the charts compiled (0 or 1)."""
    attrs = model.get("state", {})
    if model.get("model_name") != "AnyModel" or "_vl_selections" not in attrs or not attrs.get("spec"):
        return 0  # not an Altair chart
    # its text alternative (what it shows, with its numbers) where the lesson wrote none:
    # meeple-chart.js makes it the chart's aria-label
    attrs["spec"] = _no_schema(_to_vega({**attrs["spec"], "description": attrs["spec"].get("description") or describe(attrs["spec"])}))
    attrs["_esm"] = CHART_ESM.read_text().replace("../vega/", f"../{VEGA_DIR}/")
    return 1


def _is_explorer(model: dict) -> bool:
    attrs = model.get("state", {})
    return (model.get("model_name") == "AnyModel" and isinstance(attrs.get("charts"), dict)
            and isinstance(attrs.get("setup"), dict) and "sliders" in (attrs.get("view") or {}))


def unplayed_explorers(page: Path) -> int:
    """How many Explorers the page saved without every value played: their lesson's kernel was not
    in site mode (it did not run the builder's KERNEL_STARTUP, meeple.widgets.site_mode())."""
    found = STATE.search(page.read_text())
    if not found:
        return 0
    models = json.loads(found[2])["state"].values()
    return sum(1 for m in models if _is_explorer(m) and "saved_numbers" not in m["state"]["view"])


def compile_explorer(model: dict) -> int:
    """An Explorer's saved charts become Vega (as compile_chart), drawn before any Python starts
    with the site's one Vega file; its module becomes static/explorer.js as it is (the kernel's
    carries vega-embed, Vega-Lite and Vega: 0.9 MB), which loads Vega-Lite only after "Start
    Python", to compile the charts the browser's Python sends. Returns the charts compiled."""
    if not _is_explorer(model):
        return 0
    attrs = model["state"]
    charts = attrs["charts"]
    done = 0
    for name in [k for k in charts if k not in ("key", "format")]:
        # its text alternative is the chart box's (explorer.js: the title and the numbers of the
        # value shown): the spec's own, of every value, would only weigh on the page
        charts[name] = _no_schema(_to_vega({k: v for k, v in charts[name].items() if k != "description"}))
        done += 1
    charts["format"] = "vega"
    # the comment lines stay in the source: a page has 1.5 MB cold and the browser reads no comment
    code = "\n".join(line for line in EXPLORER_ESM.read_text().splitlines() if not line.lstrip().startswith("//"))
    attrs["_esm"] = code.replace("../vega/", f"../{VEGA_DIR}/").replace("../vega-lite/", f"../{VEGA_LITE_DIR}/")
    return done


def _is_panel(model: dict) -> bool:
    view = model.get("state", {}).get("view")
    return model.get("model_name") == "AnyModel" and isinstance(view, dict) and "kind" in view and "inputs" in view


def compile_panel(model: dict) -> int:
    """A lesson control's saved chart becomes Vega (as compile_chart), drawn before any Python
    starts with the site's one Vega file, the Explorer's and the charts' own: its module
    (static/panel.js) names that file's folder (it loaded vega-embed.js, a second Vega: 0.9 MB
    where a control sits beside an Explorer), and Vega-Lite's, loaded only after "Start Python"
    to compile what the browser's Python sends. Returns 1 for a control (its module is edited,
    whether or not it saved a chart), else 0."""
    if not _is_panel(model):
        return 0
    attrs = model["state"]
    attrs["_esm"] = attrs["_esm"].replace("../vega/", f"../{VEGA_DIR}/").replace("../vega-lite/", f"../{VEGA_LITE_DIR}/")
    if isinstance(attrs["view"].get("chart"), dict):
        attrs["view"]["chart"] = _to_vega(attrs["view"]["chart"])
    return 1


MATH = re.compile(r'<(span|div) class="math notranslate nohighlight"([^>]*)>(.*?)</\1>', re.S)
MATHJAX_TAG = re.compile(r'<script[^>]*src="_static/mathjax/[^"]*"[^>]*></script>\n?')
KATEX_JS = """
const katex = require(process.argv[2]);
let input = "";
process.stdin.on("data", (d) => { input += d; });
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(([tex, display]) => {
    try { return [katex.renderToString(tex, { displayMode: display, throwOnError: true }), ""]; }
    catch (e) { return [katex.renderToString(tex, { displayMode: display, throwOnError: false }), e.message]; }
  });
  process.stdout.write(JSON.stringify(out));
});
"""


def katex(items: list[list], modules: Path) -> list[list[str]]:
    """[tex, display] -> [html, error] for each, by KaTeX under node (one process for all)."""
    if not items:
        return []
    node = shutil.which("node")
    if node is None:
        sys.exit("build_site: node is missing (install Node.js; KaTeX typesets the formulas at build time)")
    with tempfile.NamedTemporaryFile("w", suffix=".js", delete=False) as js:
        js.write(KATEX_JS)
    try:
        done = subprocess.run([node, js.name, str(modules / "katex")], input=json.dumps(items), capture_output=True,
                              text=True, check=True)
    finally:
        os.unlink(js.name)
    return json.loads(done.stdout)


def markdown_outputs(page: Path, modules: Path) -> int:
    """Markdown that a widget shows (say(...) inside an Output widget: the die editor's
    sentence) becomes HTML at build time, its $TeX$ typeset by KaTeX like the page's own:
    the site's loader has no Markdown renderer, and JupyterLab shows it typeset (issue 24
    item 5: "**7/3**" on the site). Returns the outputs rendered."""
    MarkdownIt = require("markdown_it", "the site's Markdown outputs").MarkdownIt
    dollarmath_plugin = require("mdit_py_plugins.dollarmath", "the site's Markdown outputs").dollarmath_plugin

    text = page.read_text()
    found = STATE.search(text)
    if not found:
        return 0
    state = json.loads(found[2])
    formulas: list[list] = []

    def hold(content: str, options: dict) -> str:  # a placeholder until KaTeX has typeset them all
        formulas.append([content, bool(options.get("display_mode"))])
        return f"\x00{len(formulas) - 1}\x00"

    md = MarkdownIt("commonmark").use(dollarmath_plugin, renderer=hold)
    rendered = []
    for model in state["state"].values():
        for out in model.get("state", {}).get("outputs", None) or []:
            data = out.get("data", {})
            if "text/markdown" in data and "text/html" not in data:
                source = data["text/markdown"]
                rendered.append((data, md.render(source if isinstance(source, str) else "".join(source))))
    if not rendered:
        return 0
    typeset = katex(formulas, modules)
    for data, html_text in rendered:
        data["text/html"] = re.sub("\x00(\\d+)\x00", lambda m: typeset[int(m[1])][0], html_text)
    write_state(page, text, found, state)
    if typeset and '<link rel="stylesheet" type="text/css" href="_static/' + KATEX_DIR not in text:
        page.write_text(page.read_text().replace(
            "</head>", f'<link rel="stylesheet" type="text/css" href="_static/{KATEX_DIR}/katex.min.css" />\n</head>', 1))
    return len(rendered)


def typeset_math(pages: list[Path], modules: Path) -> int:
    """Typeset every formula at build time with KaTeX (node, from npm): the pages carry the
    typeset HTML (with MathML for screen readers) and KaTeX's 24 kB stylesheet, not a 1.2 MB
    TeX engine run in every reader's browser. A formula KaTeX cannot read stays visible in red
    and is named in the build's output. Returns how many formulas were typeset."""

    found = {}
    for page in pages:
        found[page] = list(MATH.finditer(page.read_text()))
    items = []
    for matches in found.values():
        for m in matches:
            tex = htmllib.unescape(m[3]).strip()
            display = m[1] == "div"
            for a, b in ((r"\(", r"\)"), (r"\[", r"\]")):
                if tex.startswith(a) and tex.endswith(b):
                    tex = tex[len(a):-len(b)].strip()
            items.append([tex, display])
    if not items:
        return 0
    typeset = iter(katex(items, modules))
    for page, matches in found.items():
        text = page.read_text()
        out, at = [], 0
        for m in matches:
            rendered, error = next(typeset)
            if error:
                print(f"build_site: {page.name}: KaTeX cannot typeset {m[3][:80]!r}: {error}", flush=True)
            tag = "div" if m[1] == "div" else "span"
            out += [text[at:m.start()], f'<{tag} class="math"{m[2]}>{rendered}</{tag}>']
            at = m.end()
        text = "".join(out) + text[at:]
        link = f'<link rel="stylesheet" type="text/css" href="_static/{KATEX_DIR}/katex.min.css" />\n'
        if matches:
            text = text.replace("</head>", link + "</head>", 1)
        page.write_text(MATHJAX_TAG.sub("", text))
    return len(items)


def drop_source_maps(html: Path) -> int:
    """No source maps on the site: the .map files go, and the comments pointing to them."""
    gone = 0
    for f in html.rglob("*.map"):
        f.unlink()
        gone += 1
    for f in [*html.rglob("*.js"), *html.rglob("*.css")]:
        if f.is_relative_to(html / "_static" / PYODIDE_DIR):
            continue  # hashed and pinned as npm has them
        text = f.read_text(errors="surrogateescape")
        cut = re.sub(r"\n?/[/*][#@] sourceMappingURL=[^\n]*?(\*/)?\s*$", "\n", text)
        if cut != text:
            f.write_text(cut, errors="surrogateescape")
    return gone


FA_ICON = re.compile(r'[{,]"?([a-z0-9-]+)"?:\[(\d+),(\d+),\[[^\]]*\],"[0-9a-f]*","(M[^"]*)"\]')
FA_JS = """// The theme's icons (issue 24 item 2): the few Font Awesome icons the site's pages use,
// written by lessons/site/build.py from the theme's Font Awesome build (1.5 MB, every icon).
// Each <i class="fa-... fa-NAME"> (or <span ...>: the theme's menu buttons) becomes the same
// inline SVG Font Awesome would make.
(function () {
  "use strict";
  const ICONS = %s;
  const NS = "http://www.w3.org/2000/svg";
  function swap(i) {
    const name = [...i.classList].filter((c) => c.startsWith("fa-")).map((c) => c.slice(3)).find((n) => ICONS[n]);
    if (!name) return;
    const [w, h, d] = ICONS[name];
    const svg = document.createElementNS(NS, "svg");
    [...i.attributes].forEach((a) => svg.setAttribute(a.name, a.value));
    svg.setAttribute("class", "svg-inline--fa " + i.className);
    svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS(NS, "path");
    path.setAttribute("fill", "currentColor");
    path.setAttribute("d", d);
    svg.appendChild(path);
    i.replaceWith(svg);
  }
  // <span class="fa-solid fa-bars">: the theme's header buttons (the menu, "On this page") name
  // their icon on a span; left as it was, it was 0x0 and the phone's menu button invisible
  const ICON = "i[class*='fa-'], span[class*='fa-']";
  const scan = (root) => root.querySelectorAll && root.querySelectorAll(ICON).forEach(swap);
  const style = document.createElement("style");
  style.textContent = ".svg-inline--fa{display:inline-block;height:1em;overflow:visible;vertical-align:-.125em;" +
    "box-sizing:content-box}.svg-inline--fa.fa-lg{font-size:1.25em;line-height:.05em;vertical-align:-.2em}" +
    ".svg-inline--fa.fa-fw{width:1.25em;text-align:center}";
  document.head.appendChild(style);
  scan(document);
  new MutationObserver((ms) => ms.forEach((m) => m.addedNodes.forEach((n) => {
    if (n.nodeType !== 1) return;
    if (n.matches(ICON)) swap(n); else scan(n);
  }))).observe(document.documentElement, { childList: true, subtree: true });
})();
"""


def trim_fontawesome(html: Path) -> int:
    """Replace the theme's Font Awesome build (every icon, 1.5 MB on every page) with the
    icons the pages and the theme's scripts name. Returns the icons kept."""
    fa = html / "_static" / "scripts" / "fontawesome.js"
    if not fa.exists():
        return 0
    icons = {m[1]: [int(m[2]), int(m[3]), m[4]] for m in FA_ICON.finditer(fa.read_text())}
    used: set[str] = set()
    sources = [*html.glob("*.html"), *(p for p in html.rglob("*.js") if p != fa and PYODIDE_DIR not in p.parts)]
    for f in sources:
        used |= set(re.findall(r"\bfa-([a-z0-9-]+)", f.read_text(errors="replace")))
    kept = {k: icons[k] for k in sorted(used) if k in icons}
    fa.write_text(FA_JS % json.dumps(kept, separators=(",", ":")))
    return len(kept)


FA_RULE = re.compile(r"\.fa-[a-z0-9-]+:before\{content:\"[^\"]*\"\}")
PST_ICON = re.compile(r"--pst-icon-[a-z0-9-]+:\"([^\"]*)\"")


def trim_theme_fonts(html: Path) -> tuple[int, int]:
    """The theme's CSS still draws a few icons from Font Awesome's fonts (an admonition's
    mark: its --pst-icon-* variables) and lists a glyph rule for each of ~1,900 icons. The
    icons in the pages are inline SVG now (trim_fontawesome), so the glyph rules go, and each
    font keeps only the glyphs the variables name (fontTools): 157 kB of font becomes ~2 kB.
    Returns (CSS bytes cut, font bytes cut)."""
    subset = require("fontTools.subset", "trimming the site's icon fonts")

    css = html / "_static" / "styles" / "pydata-sphinx-theme.css"
    fonts = sorted(f for f in (html / "_static" / "vendor").rglob("*.woff2") if "fontawesome" in f.parts)
    if not css.exists():
        return 0, 0
    text = css.read_text()
    codepoints = {ord(c) for value in PST_ICON.findall(text) for c in value if 0xE000 <= ord(c) <= 0xF8FF}
    trimmed = FA_RULE.sub("", text)
    css.write_text(trimmed)
    cut = 0
    for font in fonts:
        before = font.stat().st_size
        options = subset.Options()
        options.flavor = "woff2"
        options.layout_features = []
        options.notdef_outline = True
        face = subset.load_font(str(font), options)
        sub = subset.Subsetter(options)
        sub.populate(unicodes=sorted(codepoints))
        sub.subset(face)
        subset.save_font(face, str(font), options)
        cut += before - font.stat().st_size
    return len(text) - len(trimmed), cut


SEARCH_TAGS = re.compile(r'<script src="(?:_static/searchtools\.js|_static/language_data\.js|searchindex\.js)"></script>\n?')


def drop_search_index(html: Path) -> int:
    """Sphinx puts the search index (and its code) on every page; only search.html uses it
    (the theme's search box sends the reader there). Returns the pages that lost it."""
    done = 0
    for page in html.glob("*.html"):
        if page.name == "search.html":
            continue
        text = page.read_text()
        cut = SEARCH_TAGS.sub("", text)
        if cut != text:
            page.write_text(cut)
            done += 1
    return done


MINIFY_SKIP = (PYODIDE_DIR, VEGA_DIR, VEGA_LITE_DIR, KATEX_DIR, EDITOR_DIR, MODULES)  # pinned, or minified already
MINIFY_GAIN = 0.1  # a file is replaced by esbuild's only if that is at least this much smaller


def minify_theme(html: Path, modules: Path) -> tuple[int, int]:
    """The theme's and Sphinx's scripts and styles that ship as their authors wrote them (mystnb's
    CSS, basic.css, pygments.css, togglebutton, copybutton, sphinx-design's tabs, doctools, ...:
    ~40 kB a lesson page loads, and a page has 1.5 MB cold) minified by esbuild in place, their
    licence comments kept. A file esbuild cannot make 10% smaller (the theme's own minified
    bundles) is left as it is, byte for byte; the versioned folders (Vega, KaTeX, Pyodide, the
    editor) and the widgets' modules (minified by the build) are not touched. A script stays a
    classic script: esbuild renames no top-level name without --format or --bundle. Returns
    (files minified, bytes saved)."""
    exe = modules / ".bin" / "esbuild"
    static = html / "_static"
    done = saved = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in sorted(p for p in static.rglob("*") if p.suffix in (".js", ".css") and p.is_file()):
            if f.relative_to(static).parts[0] in MINIFY_SKIP:
                continue
            out = Path(tmp) / f"min{f.suffix}"
            subprocess.run([str(exe), str(f), "--minify", "--legal-comments=inline", "--log-level=error",
                            f"--outfile={out}", "--allow-overwrite"], check=True)
            before, after = f.stat().st_size, out.stat().st_size
            if after <= before * (1 - MINIFY_GAIN):
                shutil.copyfile(out, f)
                done += 1
                saved += before - after
    return done, saved
