"""Build the course as a static HTML site with Jupyter Book 1 (Sphinx): `make site`.

    python lessons/build_site.py [--out DIR] [--no-solutions] [--lessons GLOB ...]

Every lesson (`lessons/*.ipynb`, sorted by name) is run from top to bottom and
becomes a page after `intro.md`; the site is written to DIR/html (default
`lessons/_build/html`, ready to copy to any web server). The widgets (Stepper,
Explorer, Altair's JupyterChart) are drawn from the state saved by that run, by
JavaScript the site serves itself: require.js, the Jupyter widgets HTML manager
and MathJax come from npm at build time (into DIR/work/npm, kept between builds),
the anywidget loader from the installed anywidget wheel. No page loads anything
from a CDN.

The widgets are live on the site (issue 12). The lessons run with MEEPLE_SITE=1,
so every Explorer simulates every value on its slider and adds a chart whose
slider is a Vega parameter (it redraws with no Python). For the Steppers (and
other game counts in an Explorer) the site carries Python itself: Pyodide from
npm, at the version pinned below with the SHA-256 of every file checked, and a
wheel of this project built with the site; `_static/meeple-live.js` starts them
in a Web Worker when a reader presses "Play live".

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
NPM_PACKAGES = ["@jupyter-widgets/html-manager@1", "requirejs@2", "mathjax@3", f"pyodide@{PYODIDE_VERSION}"]
LIVE_FILES = ["meeple-live.js", "meeple-worker.js", "meeple-live.css"]  # from widgets/static/
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colours in Sphinx's output
SOLUTION = "solution"  # the cell tag of an exercise's answer (as `meeple scrub` reads it)
FONTS = (".woff", ".woff2", ".ttf", ".eot", ".svg")
# Runs after require.js, before embed-amd.js. `anywidget` is the loader's AMD module. The two
# @jupyter-widgets paths place the modules that embed-amd.js defines inline in _static/ too:
# webpack derives the URL of the widget icon fonts from the module's address (without them
# the fonts are fetched from /@jupyter-widgets/... next to the page, a 404).
ANYWIDGET_CONFIG = """\
// The widgets HTML manager (1.x) typesets widget labels with MathJax 2's API,
// MathJax.Hub.Queue; the site runs MathJax 3, which has no Hub: a page with a formula
// and a labelled widget threw "reading 'Queue'". Give whatever window.MathJax becomes
// (the config object, then MathJax 3 itself) a Hub that typesets with MathJax 3.
(function () {
  var current = window.MathJax;
  function shim(mj) {
    if (mj && typeof mj === "object" && !mj.Hub) {
      mj.Hub = {Queue: function (job) {
        var el = job && job[2];
        if (el && mj.typesetPromise) mj.typesetPromise([el]).catch(function () {});
      }};
    }
    return mj;
  }
  shim(current);
  Object.defineProperty(window, "MathJax", {
    configurable: true,
    get: function () { return current; },
    set: function (v) { current = shim(v); }
  });
})();
(function () {
  var here = document.currentScript.src.replace(/[^/]*$/, "");
  require.config({paths: {
    "anywidget": here + "anywidget",
    "@jupyter-widgets": here.slice(0, -1),
    "@jupyter-widgets/html-manager/dist": here.slice(0, -1)
  }});
})();
"""
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
        modules / "requirejs" / "require.js",
        modules / "@jupyter-widgets" / "html-manager" / "dist" / "embed-amd.js",
        modules / "mathjax" / "es5" / "tex-mml-chtml.js",
        *(modules / "pyodide" / f for f in PYODIDE_FILES),
    ]
    if not all(f.exists() for f in wanted) or _pyodide_version(modules) != PYODIDE_VERSION:
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


def _pyodide_version(modules: Path) -> str | None:
    try:
        return json.loads((modules / "pyodide" / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


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


def build_wheel(dest: Path) -> Path:
    """The project's wheel (pure Python), built from a copy of the sources so the tree stays clean."""
    with tempfile.TemporaryDirectory(prefix="meeple-wheel-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for name in ("pyproject.toml", "README.md", "LICENSE"):
            shutil.copy2(ROOT / name, src)
        # every folder pyproject.toml maps to a package (lessons/ and seeds/ are package data)
        for pkg in ("rules", "widgets", "seeds", "lessons"):
            shutil.copytree(ROOT / pkg, src / pkg, ignore=shutil.ignore_patterns(
                "__pycache__", "*.pyc", "_build", ".ipynb_checkpoints", "images"))
        cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
               "--disable-pip-version-check", "-w", str(dest), str(src)]
        print("build_site: pip wheel (meeple, for Python in the browser)", flush=True)
        subprocess.run(cmd, check=True, cwd=tmp)
    wheels = sorted(dest.glob("meeple-*.whl"))
    if len(wheels) != 1:
        sys.exit(f"build_site: expected one meeple wheel in {dest}, found {[w.name for w in wheels]}")
    return wheels[0]


def vendor(modules: Path, dest: Path) -> None:
    """Fill `_vendor/`: require.js, the widgets HTML manager, the anywidget loader, MathJax,
    Pyodide (hashes checked), the meeple wheel and the live runtime."""
    import anywidget

    dest.mkdir(parents=True)
    shutil.copy2(modules / "requirejs" / "require.js", dest)
    dist = modules / "@jupyter-widgets" / "html-manager" / "dist"
    for f in dist.iterdir():  # embed-amd.js, libembed-amd.js and the icon fonts they link to
        if f.name in ("embed-amd.js", "libembed-amd.js") or f.suffix in FONTS:
            shutil.copy2(f, dest)
    # The loader from the Python wheel works in static pages (the npm build of anywidget does not).
    loader = (Path(anywidget.__file__).parent / "nbextension" / "index.js").read_text()
    # anywidget gives a widget 2 s to load its module, then logs "Failed to initialize model"
    # (the widget still draws). A page with several charts on a busy machine takes longer.
    (dest / "anywidget.js").write_text(loader.replace("AbortSignal.timeout(2e3)", "AbortSignal.timeout(6e4)"))
    (dest / "anywidget-config.js").write_text(ANYWIDGET_CONFIG)
    # MathJax for pages with formulas: the combined TeX build, its fonts and the parts it loads on demand.
    es5, mj = modules / "mathjax" / "es5", dest / "mathjax"
    mj.mkdir()
    shutil.copy2(es5 / "tex-mml-chtml.js", mj)
    for sub in ("input", "output/chtml", "ui", "a11y"):
        shutil.copytree(es5 / sub, mj / sub)
    # Python for the reader's browser: Pyodide's core (no packages) and this project's wheel.
    check_pyodide(modules / "pyodide")
    py = dest / "pyodide"
    py.mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(modules / "pyodide" / name, py)
    check_pyodide_copy(py)
    wheel = build_wheel(dest / "meeple")
    for name in LIVE_FILES:
        shutil.copy2(STATIC / name, dest)
    site = {
        "pyodide": PYODIDE_VERSION,
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
        from meeple.rules.cli import scrub_notebook

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
        body = json.dumps(state).replace("</", "<\\/")  # never close the script tag early
        page.write_text(text[: found.start(2)] + body + text[found.end(2):])
    return dropped


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


def build(out: Path, solutions: bool = True, patterns: list[str] | None = None) -> Path:
    out = out.resolve()
    work, html = out / "work", out / "html"
    try:
        return _build(work, html, solutions, patterns)
    finally:
        # Only the npm packages are kept between builds: the executed notebooks Jupyter Book
        # leaves behind (work/_build/jupyter_execute) would look like lessons to pytest
        # and to the check that lessons are committed without outputs.
        for tmp in (work / "src", work / "_build"):
            shutil.rmtree(tmp, ignore_errors=True)


def _build(work: Path, html: Path, solutions: bool, patterns: list[str] | None) -> Path:
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
    (src / "_toc.yml").write_text(toc_yaml(pages))
    vendor(modules, src / "_vendor")
    built = work / "_build" / "html"
    cmd = [jupyter_book(), "build", str(src), "--path-output", str(work), "--builder", "html"]
    env = {**os.environ, "MEEPLE_SITE": "1"}  # Explorers simulate every value and add the no-Python chart
    run_book(cmd, env)
    if not (built / "index.html").exists():
        sys.exit(f"build_site: jupyter-book wrote no {built / 'index.html'}")
    dropped = sum(prune_widget_state(page) for page in built.glob("*.html"))
    print(f"build_site: {dropped} widget models no page shows left out of the pages", flush=True)
    for nb in chosen:  # the download button offers the lesson itself, not the staged copy with folds
        source = built / "_sources" / nb.name
        if source.exists():
            source.write_text(nb.read_text() if solutions else (src / nb.name).read_text())
    if html.exists():
        shutil.rmtree(html)
    built.rename(html)  # the old site is replaced only by a finished build
    what = ("solutions folded behind 'Show solution'" if solutions else "solutions left out") + f" ({answers} cells)"
    print(f"build_site: {len(pages)} lessons, {what}, in {time.perf_counter() - start:.0f} s.\n"
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
    parser.add_argument("--lessons", nargs="+", metavar="GLOB",
                        help="build only the lessons matching these names or globs (default: every lesson)")
    args = parser.parse_args(argv)
    try:
        build(args.out, solutions=not args.no_solutions, patterns=args.lessons)
    except subprocess.CalledProcessError as e:
        sys.exit(f"build_site: {Path(e.cmd[0]).name} failed (exit {e.returncode}); see the messages above")


if __name__ == "__main__":
    main()
