"""Build the course as a static HTML site with Jupyter Book 1 (Sphinx): `make site`.

    python lessons/build_site.py [--out DIR]

Every lesson (`lessons/*.ipynb`, sorted by name) is run from top to bottom and
becomes a page after `intro.md`; the site is written to DIR/html (default
`lessons/_build/html`, ready to copy to any web server). The widgets (Stepper,
Explorer, Altair's JupyterChart) are drawn from the state saved by that run, by
JavaScript the site serves itself: require.js, the Jupyter widgets HTML manager
and MathJax come from npm at build time (into DIR/work/npm, kept between builds),
the anywidget loader from the installed anywidget wheel. No page loads anything
from a CDN.

Nothing is written into the lessons folder except DIR: the book's sources are
staged in DIR/work/src with a generated `_toc.yml` and a `_vendor/` folder
(its files are copied into the site's `_static/`, but, unlike a `_static/` source
folder, Jupyter Book does not add all of its scripts to every page). The staged
sources and Jupyter Book's executed copies are removed after the build; the site's
download buttons offer the lessons as committed (without outputs).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

LESSONS = Path(__file__).resolve().parent
NPM_PACKAGES = ["@jupyter-widgets/html-manager@1", "requirejs@2", "mathjax@3"]
FONTS = (".woff", ".woff2", ".ttf", ".eot", ".svg")
# Runs after require.js, before embed-amd.js. `anywidget` is the loader's AMD module. The two
# @jupyter-widgets paths place the modules that embed-amd.js defines inline in _static/ too:
# webpack derives the URL of the widget icon fonts from the module's address (without them
# the fonts are fetched from /@jupyter-widgets/... next to the page, a 404).
ANYWIDGET_CONFIG = """\
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


def lessons() -> list[Path]:
    return sorted(LESSONS.glob("*.ipynb"))


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
    ]
    if not all(f.exists() for f in wanted):
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


def vendor(modules: Path, dest: Path) -> None:
    """Fill `_vendor/`: require.js, the widgets HTML manager, the anywidget loader, MathJax."""
    import anywidget

    dest.mkdir(parents=True)
    shutil.copy2(modules / "requirejs" / "require.js", dest)
    dist = modules / "@jupyter-widgets" / "html-manager" / "dist"
    for f in dist.iterdir():  # embed-amd.js, libembed-amd.js and the icon fonts they link to
        if f.name in ("embed-amd.js", "libembed-amd.js") or f.suffix in FONTS:
            shutil.copy2(f, dest)
    # The loader from the Python wheel works in static pages (the npm build of anywidget does not).
    shutil.copy2(Path(anywidget.__file__).parent / "nbextension" / "index.js", dest / "anywidget.js")
    (dest / "anywidget-config.js").write_text(ANYWIDGET_CONFIG)
    # MathJax for pages with formulas: the combined TeX build, its fonts and the parts it loads on demand.
    es5, mj = modules / "mathjax" / "es5", dest / "mathjax"
    mj.mkdir()
    shutil.copy2(es5 / "tex-mml-chtml.js", mj)
    for sub in ("input", "output/chtml", "ui", "a11y"):
        shutil.copytree(es5 / sub, mj / sub)


def jupyter_book() -> str:
    exe = Path(sys.executable).parent / "jupyter-book"
    if exe.exists():
        return str(exe)
    found = shutil.which("jupyter-book")
    if found is None:
        sys.exit("build_site: jupyter-book is missing: pip install -e '.[site]'")
    return found


def build(out: Path) -> Path:
    out = out.resolve()
    work, html = out / "work", out / "html"
    try:
        return _build(work, html)
    finally:
        # Only the npm packages are kept between builds: the executed notebooks Jupyter Book
        # leaves behind (work/_build/jupyter_execute) would look like lessons to pytest
        # and to the check that lessons are committed without outputs.
        for tmp in (work / "src", work / "_build"):
            shutil.rmtree(tmp, ignore_errors=True)


def _build(work: Path, html: Path) -> Path:
    src = work / "src"
    start = time.perf_counter()
    modules = npm_install(work / "npm")
    for old in (src, work / "_build"):
        if old.exists():
            shutil.rmtree(old)
    shutil.copytree(LESSONS, src, ignore=SKIP)
    pages = [p.stem for p in lessons()]
    if not pages:
        sys.exit(f"build_site: no lessons (*.ipynb) in {LESSONS}")
    (src / "_toc.yml").write_text(toc_yaml(pages))
    vendor(modules, src / "_vendor")
    built = work / "_build" / "html"
    cmd = [jupyter_book(), "build", str(src), "--path-output", str(work), "--builder", "html"]
    print("build_site:", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)
    if not (built / "index.html").exists():
        sys.exit(f"build_site: jupyter-book wrote no {built / 'index.html'}")
    if html.exists():
        shutil.rmtree(html)
    built.rename(html)  # the old site is replaced only by a finished build
    print(f"build_site: {len(pages)} lessons -> {html}/index.html in {time.perf_counter() - start:.0f} s")
    return html


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=LESSONS / "_build",
                        help="build folder; the site goes to OUT/html (default: lessons/_build)")
    args = parser.parse_args(argv)
    try:
        build(args.out)
    except subprocess.CalledProcessError as e:
        sys.exit(f"build_site: {Path(e.cmd[0]).name} failed (exit {e.returncode}); see the messages above")


if __name__ == "__main__":
    main()
