"""Build the course as a static HTML site with Jupyter Book 1 (Sphinx): `make site`.

    python lessons/build_site.py [--out DIR] [--no-solutions] [--lessons GLOB ...] [--execute GLOB ...]

Every lesson (`lessons/*.ipynb`, sorted by name) is run from top to bottom and
becomes a page after `intro.md`; the site is written to DIR/html (default
`lessons/_build/html`, ready to copy to any web server). The widgets (Stepper,
Explorer, Altair's JupyterChart) are drawn from the state saved by that run, by
JavaScript the site serves itself: the project's own widget loader
(`widgets/static/meeple-widgets.js`, no timeout and no CDN fallback: a late file only
delays), each anywidget's module moved out of the pages into one shared, cached file
(`_static/widgets/<sha256>.js`), each Altair chart compiled to Vega and drawn with one
cached Vega file, the formulas typeset at build time by KaTeX; Vega, KaTeX and Pyodide
come from npm at build time (into DIR/work/npm, kept between builds). No page loads
anything from another host, and no source map ships. The site folder also gets `_headers`
and `.htaccess`: which files a browser may keep for good (issue 24 item 7).

The widgets are live on the site (issues 12 and 22). The lessons run with
MEEPLE_SITE=1, so every Explorer plays every value on its slider and saves them
with the page: its own front end (`static/explorer.js`, one module shared by
every Explorer) draws them before any Python starts, and its slider moves over
them. For the rest the site carries Python itself: Pyodide from npm, at the
version pinned below with the SHA-256 of every file checked, and a wheel of this
project built with the site; `_static/meeple-live.js` starts them in a Web
Worker when a reader presses "Play live" or "Start Python" (once for the page),
and the widgets' own sessions (`meeple.widgets.transport`) run there.

Cells tagged `solution` are folded behind "Show solution"; with --no-solutions
they are left out of the pages and of the notebooks offered for download.

Nothing is written into the lessons folder except DIR: the book's sources are
staged in DIR/work/src with a generated `_toc.yml` and a `_vendor/` folder
(its files are copied into the site's `_static/`, but, unlike a `_static/` source
folder, Jupyter Book does not add all of its scripts to every page). The staged
sources and Jupyter Book's executed copies are removed after the build; the site's
download buttons offer the lessons as committed (without outputs).
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LESSONS = Path(__file__).resolve().parent
sys.path.insert(0, str(LESSONS))
import site_cells  # noqa: E402  (the runnable exercise cells: editor, cells files, scripts)
import site_lab  # noqa: E402  (the variant lab page)
import site_graded  # noqa: E402  (a graded build's wheel: sealed answers, no answer key)

ROOT = LESSONS.parent
STATIC = ROOT / "widgets" / "static"
# Pyodide, pinned: its version and the SHA-256 of each file the site serves. A new version
# is a deliberate change here (and a new row in BENCHMARKS.md), never a silent upgrade.
PYODIDE_VERSION = "314.0.7"
PYODIDE_FILES = {
    "pyodide.mjs": "6f1d60f7bf529beb300f0f47983c921d3982363640ba20af0e38efdddbc66109",
    "pyodide.asm.mjs": "f7cdc8ece80678ceb712f8e65ebe6d3a83203a180c399865f49612a051693635",
    "pyodide.asm.wasm": "cc36e3cab04fdfc9a63ff13eb52eae2b911bf46c025cc7b281f394bd3de1d5e6",
    "python_stdlib.zip": "fa1957e5777068fc4f7437f96d860ae2fbe9c19732ba06c84e004ec16dd7dd7a",
    "pyodide-lock.json": "5dc2fc119108bc148c7457dc86e7675b5c87e1cafd420b9c34c1eaef7b36c010",
}
# Vega draws the charts (their Vega-Lite is compiled at build time); KaTeX typesets the formulas
# at build time (the pages carry its CSS and fonts, not a TeX engine). Exact versions, like Pyodide.
VEGA_VERSION, KATEX_VERSION = "6.4.0", "0.16.47"
# Vega-Lite compiles, in the reader's browser, the charts an Explorer's Python sends after "Start Python"
# (the charts saved with a page are compiled at build time): loaded only then, never with the page.
VEGA_LITE_VERSION = "6.4.3"
# The vendored folders are named by version, so a host may let browsers keep them for good
# (the _headers and .htaccess the build writes): a new version is a new address.
PYODIDE_DIR, VEGA_DIR, KATEX_DIR = f"pyodide-{PYODIDE_VERSION}", f"vega-{VEGA_VERSION}", f"katex-{KATEX_VERSION}"
VEGA_LITE_DIR = f"vega-lite-{VEGA_LITE_VERSION}"
NPM_PACKAGES = [f"vega@{VEGA_VERSION}", f"katex@{KATEX_VERSION}", f"pyodide@{PYODIDE_VERSION}",
                f"vega-lite@{VEGA_LITE_VERSION}", *site_cells.EDITOR_PACKAGES]
# From widgets/static/: the widget loader (issue 24: it replaces require.js and the widgets HTML
# manager) and the live runtime.
# vega-embed.js: the one vega-embed (with Vega-Lite) the controls' charts share (panel.js loads it from _static/)
LIVE_FILES = ["meeple-widgets.js", "meeple-live.js", "meeple-worker.js", "meeple-live.css", "favicon.svg", "vega-embed.js"]
CHART_ESM = STATIC / "meeple-chart.js"  # the front end of every chart on the site
EXPLORER_ESM = STATIC / "explorer.js"  # the Explorer's one front end, served as it is (no bundled Vega)
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colours in Sphinx's output
SOLUTION = "solution"  # the cell tag of an exercise's answer (as `meeple scrub` reads it)
# Not staged: build output, helpers and editor leftovers.
SKIP = shutil.ignore_patterns("_build", "_vendor", ".ipynb_checkpoints", "__pycache__", "*.py", ".*")


def lessons(patterns: list[str] | None = None) -> list[Path]:
    """The lessons to build, sorted by name: all, or those matching any of `patterns` (globs)."""
    every = sorted(LESSONS.glob("*.ipynb"))
    if not patterns:
        return every
    chosen = [p for p in every if any(fnmatch.fnmatch(p.name, pat) or fnmatch.fnmatch(p.stem, pat) for pat in patterns)]
    if not chosen:
        sys.exit(f"build_site: no lesson matches {' '.join(patterns)}; lessons: {', '.join(p.stem for p in every)}")
    return chosen


def toc_yaml(pages: list[str]) -> str:
    """`_toc.yml` for the book: the intro, then one chapter per lesson, in name order."""
    return "format: jb-book\nroot: intro\nchapters:\n" + "".join(f"- file: {p}\n" for p in pages)


def npm_install(npm: Path) -> Path:
    """The npm packages, installed once into `npm` (one command: npm drops what it was not asked for)."""
    modules = npm / "node_modules"
    wanted = [
        modules / "vega" / "build" / "vega.min.js",
        modules / "vega-lite" / "build" / "vega-lite.min.js",
        modules / "katex" / "dist" / "katex.min.css",
        *(modules / "pyodide" / f for f in PYODIDE_FILES),
        *site_cells.wanted(modules),
    ]
    if (not all(f.exists() for f in wanted)
            or _versions(modules) != (PYODIDE_VERSION, VEGA_VERSION, KATEX_VERSION, VEGA_LITE_VERSION)
            or not site_cells.installed(modules)):
        npm.mkdir(parents=True, exist_ok=True)
        exe = shutil.which("npm")
        if exe is None:
            sys.exit("build_site: npm is missing (install Node.js; the widget JavaScript comes from npm)")
        cmd = [exe, "install", "--prefix", str(npm), "--no-save", "--no-package-lock", "--no-audit", "--no-fund",
               "--loglevel=error", *NPM_PACKAGES]
        print("build_site:", " ".join(cmd[1:]), flush=True)
        subprocess.run(cmd, check=True)
        missing = [str(f) for f in wanted if not f.exists()]
        if missing:
            sys.exit(f"build_site: npm install did not provide {missing}")
    return modules


def _version(modules: Path, package: str) -> str | None:
    try:
        return json.loads((modules / package / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


def _pyodide_version(modules: Path) -> str | None:
    return _version(modules, "pyodide")


def _versions(modules: Path) -> tuple:
    return tuple(_version(modules, p) for p in ("pyodide", "vega", "katex", "vega-lite"))


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check_pyodide(folder: Path) -> None:
    """Every vendored Pyodide file has the pinned version and SHA-256, or the build stops."""
    version = _pyodide_version(folder.parent)
    if version != PYODIDE_VERSION:
        sys.exit(f"build_site: npm gave pyodide {version}, the site pins {PYODIDE_VERSION}")
    bad = [name for name, digest in PYODIDE_FILES.items() if sha256(folder / name) != digest]
    if bad:
        sys.exit(f"build_site: pyodide {PYODIDE_VERSION} files do not match their pinned SHA-256: {', '.join(bad)} "
                 f"(in {folder}); delete that folder to fetch them again, or pin the new hashes deliberately")


def build_wheel(dest: Path, sealed: "dict | None" = None) -> Path:
    """The project's wheel (pure Python), built from a copy of the sources so the tree stays clean;
    with a `sealed` table, the graded one (site_graded: no exact answer's checker, hashes instead)."""
    with tempfile.TemporaryDirectory(prefix="meeple-wheel-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for name in ("pyproject.toml", "README.md", "LICENSE"):
            shutil.copy2(ROOT / name, src)
        # every folder pyproject.toml maps to a package (lessons/ and seeds/ are package data)
        for pkg in ("rules", "widgets", "seeds", "lessons"):
            shutil.copytree(ROOT / pkg, src / pkg, ignore=shutil.ignore_patterns(
                "__pycache__", "*.pyc", "_build", ".ipynb_checkpoints", "images"))
        if sealed is not None:
            site_graded.make_graded(src, sealed)
        cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
               "--disable-pip-version-check", "-w", str(dest), str(src)]
        print("build_site: pip wheel (meeple, for Python in the browser)", flush=True)
        subprocess.run(cmd, check=True, cwd=tmp)
    wheels = sorted(dest.glob("meeple-*.whl"))
    if len(wheels) != 1:
        sys.exit(f"build_site: expected one meeple wheel in {dest}, found {[w.name for w in wheels]}")
    return wheels[0]


def vendor(modules: Path, dest: Path, sealed: "dict | None" = None) -> None:
    """Fill `_vendor/`: the widget loader, Vega, KaTeX's CSS and fonts, Pyodide (hashes checked), the meeple wheel
    and the live runtime. (The anywidgets' own modules are written out of the pages after
    the build: `externalize_modules`.)"""
    dest.mkdir(parents=True)
    # Vega for the charts, KaTeX's stylesheet and fonts for the formulas typeset at build time.
    (dest / VEGA_DIR).mkdir()
    shutil.copy2(modules / "vega" / "build" / "vega.min.js", dest / VEGA_DIR)
    (dest / VEGA_LITE_DIR).mkdir()
    shutil.copy2(modules / "vega-lite" / "build" / "vega-lite.min.js", dest / VEGA_LITE_DIR)
    kx = dest / KATEX_DIR
    kx.mkdir()
    shutil.copy2(modules / "katex" / "dist" / "katex.min.css", kx)
    shutil.copytree(modules / "katex" / "dist" / "fonts", kx / "fonts")
    # Python for the reader's browser: Pyodide's core (no packages) and this project's wheel.
    check_pyodide(modules / "pyodide")
    py = dest / PYODIDE_DIR  # named by its version: its files may be cached for good (_headers)
    py.mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(modules / "pyodide" / name, py)
    check_pyodide_copy(py)
    wheel = build_wheel(dest / "meeple", sealed)
    for name in LIVE_FILES:
        shutil.copy2(STATIC / name, dest)
    site_cells.bundle_editor(modules, dest)  # the exercise cells' editor, loaded when a reader edits one
    site_cells.vendor_files(STATIC, dest)
    site_lab.vendor_files(STATIC, dest)
    print(f"build_site: the site's own scripts minified ({site_cells.minify(modules, dest) / 1e3:.0f} kB less)", flush=True)
    site = {
        "pyodide": PYODIDE_VERSION,
        "pyodide_dir": f"{PYODIDE_DIR}/",
        "wheel": f"meeple/{wheel.name}",
        "bytes": {"pyodide": sum((py / n).stat().st_size for n in PYODIDE_FILES), "wheel": wheel.stat().st_size},
    }
    (dest / "meeple-site.json").write_text(json.dumps(site, indent=1) + "\n")


def check_pyodide_copy(folder: Path) -> None:
    bad = [name for name, digest in PYODIDE_FILES.items() if sha256(folder / name) != digest]
    if bad:
        sys.exit(f"build_site: copying pyodide changed {', '.join(bad)}")


def stage_notebook(path: Path, dest: Path, solutions: bool) -> int:
    """Copy a lesson for the book; returns how many solution cells it has.
    With `solutions`, an answer's code cell is folded (myst-nb's hide-cell, prompt "Show
    solution") and its text in a "Show solution" dropdown; without, they are removed
    (by `meeple scrub`'s own function, so the downloadable notebook has none either)."""
    text = path.read_text()
    if not solutions:
        from meeple.rules.scrub import scrub_notebook

        scrubbed, removed = scrub_notebook(text, path.name)
        dest.write_text(scrubbed)
        return removed
    nb = json.loads(text)
    found = 0
    for cell in nb["cells"]:
        meta = cell.setdefault("metadata", {})
        if SOLUTION not in meta.get("tags", []):
            continue
        found += 1
        if cell["cell_type"] == "code":
            meta["tags"] = [*meta["tags"], "hide-cell"]
            meta["mystnb"] = {**meta.get("mystnb", {}), "code_prompt_show": "Show solution",
                              "code_prompt_hide": "Hide solution"}
        else:
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            fence = ":" * max(3, 1 + max((len(m) for m in re.findall(r"^:+", source, re.M)), default=0))
            cell["source"] = f"{fence}{{dropdown}} Show solution\n:class-container: meeple-solution\n\n{source}\n{fence}\n"
    dest.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    return found


STATE = re.compile(r'(<script type="application/vnd\.jupyter\.widget-state\+json">)(.*?)(</script>)', re.S)
VIEW = re.compile(r'<script type="application/vnd\.jupyter\.widget-view\+json">(.*?)</script>', re.S)


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
        body = json.dumps(state, separators=(",", ":")).replace("</", "<\\/")  # never close the script tag early
        page.write_text(text[: found.start(2)] + body + text[found.end(2):])
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
    body = json.dumps(state, separators=(",", ":")).replace("</", "<\\/")
    page.write_text(text[: found.start(2)] + body + text[found.end(2):])
    return len(found[2]) - len(body)


MODULES = "widgets"  # _static/widgets/: the anywidgets' front ends, one file per distinct module
INLINE_MAX = 512  # characters: a module this short stays in the page


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
            name = hashlib.sha256(data).hexdigest()[:20] + suffix
            target = static / MODULES / name
            if not target.exists():
                target.parent.mkdir(exist_ok=True)
                target.write_bytes(data)
            attrs[key] = f"./{MODULES}/{name}"
            saved += len(body)
    if saved:
        body = json.dumps(state, separators=(",", ":")).replace("</", "<\\/")
        page.write_text(text[: found.start(2)] + body + text[found.end(2):])
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


def _edit_widget_state(page: Path, *edits) -> int:
    """Read the page's saved widget state once, let each `edit(model) -> charts compiled` change
    the models it knows, and write the state back once if any did. Returns the charts compiled."""
    text = page.read_text()
    found = STATE.search(text)
    if not found:
        return 0
    state = json.loads(found[2])
    done = sum(edit(model) for model in state["state"].values() for edit in edits)
    if done:
        body = json.dumps(state, separators=(",", ":")).replace("</", "<\\/")
        page.write_text(text[: found.start(2)] + body + text[found.end(2):])
    return done


def _to_vega(spec: dict) -> dict:
    """Vega-Lite compiled to Vega by vl-convert, the compiler Altair itself uses, at the
    Vega-Lite version Altair names."""
    import vl_convert
    from altair.utils._importers import vl_version_for_vl_convert

    return vl_convert.vegalite_to_vega(spec, vl_version=vl_version_for_vl_convert())


def compile_chart(model: dict) -> int:
    """An Altair chart (JupyterChart) on a page becomes Vega, drawn by meeple-chart.js with
    the site's one Vega file, in place of a chart module that carries Vega, Vega-Lite and
    vega-embed itself (0.9 MB). Returns the charts compiled (0 or 1)."""
    attrs = model.get("state", {})
    if model.get("model_name") != "AnyModel" or "_vl_selections" not in attrs or not attrs.get("spec"):
        return 0  # not an Altair chart
    attrs["spec"] = _to_vega(attrs["spec"])
    attrs["_esm"] = CHART_ESM.read_text().replace("../vega/", f"../{VEGA_DIR}/")
    return 1


def _is_explorer(model: dict) -> bool:
    attrs = model.get("state", {})
    return (model.get("model_name") == "AnyModel" and isinstance(attrs.get("charts"), dict)
            and isinstance(attrs.get("setup"), dict) and "sliders" in (attrs.get("view") or {}))


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
        charts[name] = _to_vega(charts[name])
        done += 1
    charts["format"] = "vega"
    # the comment lines stay in the source: a page has 1.5 MB cold and the browser reads no comment
    code = "\n".join(line for line in EXPLORER_ESM.read_text().splitlines() if not line.lstrip().startswith("//"))
    attrs["_esm"] = code.replace("../vega/", f"../{VEGA_DIR}/").replace("../vega-lite/", f"../{VEGA_LITE_DIR}/")
    return done


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
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

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
    body = json.dumps(state, separators=(",", ":")).replace("</", "<\\/")
    page.write_text(text[: found.start(2)] + body + text[found.end(2):])
    if typeset and '<link rel="stylesheet" type="text/css" href="_static/' + KATEX_DIR not in text:
        page.write_text(page.read_text().replace(
            "</head>", f'<link rel="stylesheet" type="text/css" href="_static/{KATEX_DIR}/katex.min.css" />\n</head>', 1))
    return len(rendered)


def typeset_math(pages: list[Path], modules: Path) -> int:
    """Typeset every formula at build time with KaTeX (node, from npm): the pages carry the
    typeset HTML (with MathML for screen readers) and KaTeX's 24 kB stylesheet, not a 1.2 MB
    TeX engine run in every reader's browser. A formula KaTeX cannot read stays visible in red
    and is named in the build's output. Returns how many formulas were typeset."""
    import html as htmllib

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
// written by lessons/build_site.py from the theme's Font Awesome build (1.5 MB, every icon).
// Each <i class="fa-... fa-NAME"> becomes the same inline SVG Font Awesome would make.
(function () {
  "use strict";
  const ICONS = %s;
  const NS = "http://www.w3.org/2000/svg";
  function swap(i) {
    const name = [...i.classList].map((c) => c.slice(3)).find((n) => ICONS[n]);
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
  const scan = (root) => root.querySelectorAll && root.querySelectorAll("i[class*='fa-']").forEach(swap);
  const style = document.createElement("style");
  style.textContent = ".svg-inline--fa{display:inline-block;height:1em;overflow:visible;vertical-align:-.125em;" +
    "box-sizing:content-box}.svg-inline--fa.fa-lg{font-size:1.25em;line-height:.05em;vertical-align:-.2em}" +
    ".svg-inline--fa.fa-fw{width:1.25em;text-align:center}";
  document.head.appendChild(style);
  scan(document);
  new MutationObserver((ms) => ms.forEach((m) => m.addedNodes.forEach((n) => {
    if (n.nodeType !== 1) return;
    if (n.matches("i[class*='fa-']")) swap(n); else scan(n);
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
    from fontTools import subset

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


FOREVER = "public, max-age=31536000, immutable"


def cache_rules() -> list[tuple[str, str]]:
    """(folder, Cache-Control): the files whose address changes whenever they do (named by
    their content or their version) may be kept for good. Everything else is left to the
    host's default, which makes the browser ask again (a new build shows at once)."""
    return [(f"/_static/{d}/", FOREVER) for d in (MODULES, PYODIDE_DIR, VEGA_DIR, VEGA_LITE_DIR, KATEX_DIR,
                                                  site_cells.EDITOR_DIR)]


def write_cache_headers(html: Path) -> None:
    """`_headers` (Netlify, Cloudflare Pages) and `.htaccess` (Apache) in the site folder,
    saying which files browsers may keep for good: later pages, and "Play live" on them,
    start from the cache (issue 24 item 7). Hosts with neither (GitHub Pages) use their own
    short default: the site works, it only fetches more again."""
    lines = ["# Cache headers for the meeple course site (written by lessons/build_site.py), read by",
             "# Netlify and Cloudflare Pages. Only folders named by content or version are listed (the",
             "# rules do not overlap: both hosts join the values of every rule that matches).", ""]
    for folder, value in cache_rules():
        lines += [folder + "*", f"  Cache-Control: {value}", ""]
    (html / "_headers").write_text("\n".join(lines))
    ht = ["# Cache headers for the meeple course site on Apache (written by lessons/build_site.py):",
          "# files named by content or version are kept for good, the rest is asked for again.",
          "# Needs mod_headers; Pyodide's files need the two types below.",
          "AddType application/wasm .wasm",
          "AddType text/javascript .mjs",
          "<IfModule mod_headers.c>",
          '  Header set Cache-Control "no-cache"']
    for folder, value in cache_rules():
        ht.append(f'  <If "%{{REQUEST_URI}} =~ m#{re.escape(folder)}#">\n    Header set Cache-Control "{value}"\n  </If>')
    ht.append("</IfModule>")
    (html / ".htaccess").write_text("\n".join(ht) + "\n")


def jupyter_book() -> str:
    exe = Path(sys.executable).parent / "jupyter-book"
    if exe.exists():
        return str(exe)
    found = shutil.which("jupyter-book")
    if found is None:
        sys.exit("build_site: jupyter-book is missing: pip install -e '.[site]'")
    return found


def run_book(cmd: list[str], env: dict) -> None:
    """Run jupyter-book, echoing its output except the lines that name the temporary
    folder it built in (Sphinx's "The HTML pages are in ..." and Jupyter Book's closing
    box): that folder is moved into place and deleted just after, so we name the real one."""
    print("build_site:", " ".join(cmd), flush=True)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    held: list[str] = []  # a box's top rule (and blank lines), until we know what the box says
    closing = False
    for line in proc.stdout:
        plain = ANSI.sub("", line).strip()
        if "Finished generating HTML" in plain:
            closing = True
        if closing or plain.startswith("The HTML pages are in"):
            continue
        if (plain and set(plain) == {"="}) or (held and not plain):
            held.append(line)
            continue
        sys.stdout.write("".join(held) + line)
        sys.stdout.flush()
        held = []
    if proc.wait():
        raise subprocess.CalledProcessError(proc.returncode, cmd)


def build(out: Path, solutions: bool = True, patterns: list[str] | None = None, execute: "bool | list[str]" = True,
          roster: "list[str] | None" = None) -> Path:
    """Build the site; without `solutions` a graded one, whose exact answers are sealed for the
    lessons' own numbers and each student id of `roster` (site_graded). `execute`: run every
    lesson (True), none (False), or only those matching these globs (the rest are pages
    without outputs: the test suite's one shared build)."""
    out = out.resolve()
    work, html = out / "work", out / "html"
    if roster and solutions:
        sys.exit("build_site: --roster is for a graded build: add --no-solutions (make site SOLUTIONS=no ROSTER=FILE)")
    sealed = None if solutions else site_graded.seal_table(roster or [])
    try:
        return _build(work, html, solutions, patterns, execute, sealed)
    finally:
        # Only the npm packages are kept between builds: the executed notebooks Jupyter Book
        # leaves behind (work/_build/jupyter_execute) would look like lessons to pytest
        # and to the check that lessons are committed without outputs.
        for tmp in (work / "src", work / "_build"):
            shutil.rmtree(tmp, ignore_errors=True)


def _build(work: Path, html: Path, solutions: bool, patterns: list[str] | None, execute: "bool | list[str]" = True,
           sealed: "dict | None" = None) -> Path:
    src = work / "src"
    start = time.perf_counter()
    modules = npm_install(work / "npm")
    for old in (src, work / "_build"):
        if old.exists():
            shutil.rmtree(old)
    chosen = lessons(patterns)
    if not chosen:
        sys.exit(f"build_site: no lessons (*.ipynb) in {LESSONS}")
    shutil.copytree(LESSONS, src, ignore=SKIP)
    for nb in src.glob("*.ipynb"):  # only the chosen lessons are pages (and executed)
        nb.unlink()
    answers = sum(stage_notebook(nb, src / nb.name, solutions) for nb in chosen)
    pages = [p.stem for p in chosen]
    if (src / "teachers_guide.md").exists():  # the course map, times, exercises to set, publishing
        pages.append("teachers_guide")
    pages += site_lab.stage(src)  # the variant lab (issue 25)
    (src / "_toc.yml").write_text(toc_yaml(pages))
    vendor(modules, src / "_vendor", sealed)
    exercises = sum(site_cells.stage(src / nb.name, src / "_vendor") for nb in chosen)
    if not execute:
        site_cells.no_execute(src / "_config.yml")
    elif execute is not True:
        run = lessons(execute)
        if not set(run) <= set(chosen):
            sys.exit(f"build_site: --execute {' '.join(execute)} names lessons that --lessons leaves out")
        skip = [nb.name for nb in chosen if nb not in run]
        config = src / "_config.yml"  # Jupyter Book's execute.exclude_patterns: pages without outputs
        text = config.read_text()
        if "\nexecute:\n" not in text:
            sys.exit(f"build_site: --execute needs an 'execute:' section in {LESSONS / '_config.yml'}")
        config.write_text(text.replace("\nexecute:\n", f"\nexecute:\n  exclude_patterns: {json.dumps(skip)}\n", 1))
    built = work / "_build" / "html"
    cmd = [jupyter_book(), "build", str(src), "--path-output", str(work), "--builder", "html"]
    env = {**os.environ, "MEEPLE_SITE": "1"}  # Explorers play every value and save them with the page
    run_book(cmd, env)
    if not (built / "index.html").exists():
        sys.exit(f"build_site: jupyter-book wrote no {built / 'index.html'}")
    dropped = sum(prune_widget_state(page) for page in built.glob("*.html"))
    print(f"build_site: {dropped} widget models no page shows left out of the pages", flush=True)
    for page in built.glob("*.html"):
        page.write_text(merge_solution_folds(drop_check_results(page.read_text())))
    charts = sum(_edit_widget_state(page, compile_chart, compile_explorer) for page in built.glob("*.html"))
    slimmed = sum(slim_widget_state(page) for page in built.glob("*.html"))
    moved = sum(externalize_modules(page, built / "_static") for page in built.glob("*.html"))
    shared = sorted(p.name for p in (built / "_static" / MODULES).glob("*"))
    print(f"build_site: {moved / 1e6:.1f} MB of widget modules moved out of the pages into "
          f"{len(shared)} shared files in _static/{MODULES}/", flush=True)
    formulas = typeset_math(sorted(built.glob("*.html")), modules)
    formulas += sum(markdown_outputs(page, modules) for page in built.glob("*.html"))
    maps = drop_source_maps(built)
    icons = trim_fontawesome(built)
    css_cut, font_cut = trim_theme_fonts(built)
    print(f"build_site: {icons} Font Awesome icons kept as SVG, {css_cut / 1e3:.0f} kB of glyph rules and "
          f"{font_cut / 1e3:.0f} kB of icon fonts left out, the search index only on search.html "
          f"({drop_search_index(built)} pages lighter)", flush=True)
    write_cache_headers(built)
    runnable = sum(site_cells.add_scripts(page) for page in built.glob("*.html"))
    site_lab.add_scripts(built)
    print(f"build_site: {exercises} exercise cells editable and runnable in the browser, on {runnable} pages", flush=True)
    print(f"build_site: {charts} charts compiled to Vega, {slimmed / 1e3:.0f} kB of empty widget traits left out, "
          f"{formulas} formulas typeset with KaTeX, "
          f"{maps} source maps left out", flush=True)
    for nb in chosen:  # the download button offers the lesson itself, not the staged copy with folds
        source = built / "_sources" / nb.name
        if source.exists():
            source.write_text(nb.read_text() if solutions else (src / nb.name).read_text())
    if html.exists():
        shutil.rmtree(html)
    built.rename(html)  # the old site is replaced only by a finished build
    what = ("solutions folded behind 'Show solution'" if solutions else "solutions left out") + f" ({answers} cells)"
    print(f"build_site: {len(chosen)} lessons, {what}, in {time.perf_counter() - start:.0f} s.\n"
          f"build_site: the site is the folder {html}\n"
          f"build_site: to publish it, copy that folder to any static web host; to look at it here:\n"
          f"    python -m http.server --directory {html}   (then open http://localhost:8000)")
    return html


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=LESSONS / "_build",
                        help="build folder; the site goes to OUT/html (default: lessons/_build)")
    parser.add_argument("--no-solutions", action="store_true",
                        help="leave the cells tagged 'solution' out (pages and downloads), e.g. for a graded class")
    parser.add_argument("--no-execute", action="store_true",
                        help="do not run the lessons (pages without outputs: a quick build, e.g. to test the exercise cells)")
    parser.add_argument("--lessons", nargs="+", metavar="GLOB",
                        help="build only the lessons matching these names or globs (default: every lesson)")
    parser.add_argument("--execute", nargs="+", metavar="GLOB",
                        help="run only the lessons matching these (the others become pages without outputs; "
                             "the test suite builds one site this way for all its browser tests)")
    parser.add_argument("--roster", type=Path, metavar="CSV",
                        help="with --no-solutions: a class roster (a column 'id' or 'name'); each student's own "
                             "numbers are sealed too, so their check() answers on the site")
    args = parser.parse_args(argv)
    if args.execute and args.no_execute:
        parser.error("--execute and --no-execute: choose one")
    roster = None
    if args.roster is not None:
        from meeple.widgets.exercises import read_roster

        try:
            roster = read_roster(args.roster.read_text())
        except (OSError, ValueError) as e:
            sys.exit(f"build_site: --roster {args.roster}: {e}")
    try:
        build(args.out, solutions=not args.no_solutions, patterns=args.lessons, execute=args.execute or not args.no_execute,
              roster=roster)
    except subprocess.CalledProcessError as e:
        sys.exit(f"build_site: {Path(e.cmd[0]).name} failed (exit {e.returncode}); see the messages above")


if __name__ == "__main__":
    main()
