"""Build the course as a static HTML site with Jupyter Book 1 (Sphinx): `make site`.

    python -m meeple.course.site.build [--out DIR] [--no-solutions] [--lessons GLOB ...] [--execute GLOB ...]

Every lesson (`lessons/*.ipynb`, sorted by name) is run from top to bottom and
becomes a page after `intro.md`; the site is written to DIR/html (default
`lessons/_build/html`, ready to copy to any web server). The widgets (Stepper,
Explorer, Altair's JupyterChart) are drawn from the state saved by that run, by
JavaScript the site serves itself: the project's own widget loader
(`lessons/site/runtime/static/meeple-widgets.js`, no timeout and no CDN fallback: a late file only
delays), each anywidget's module moved out of the pages into one shared, cached file
(`_static/widgets/<sha256>.js`), each Altair chart compiled to Vega and drawn with one
cached Vega file, the formulas typeset at build time by KaTeX; Vega, KaTeX and Pyodide
come from npm at build time (into DIR/work/npm, kept between builds). No page loads
anything from another host, and no source map ships. The site folder also gets `_headers`
and `.htaccess`: which files a browser may keep for good (issue 24 item 7).

The widgets are live on the site (issues 12 and 22). The lessons' kernels start
with `meeple.widgets.site_mode()` called (KERNEL_STARTUP, an IPython startup file in
the build's own IPython folder, DIR/work/ipython), so every Explorer plays every value
on its slider and saves them with the page: its own front end (`static/explorer.js`, one module shared by
every Explorer) draws them before any Python starts, and its slider moves over
them. For the rest the site carries Python itself: Pyodide from npm, at the
version pinned in vendor.py with the SHA-256 of every file checked, and a wheel of this
project built with the site; `_static/meeple-live.js` starts them in a Web
Worker when a reader presses "Play live" or "Start Python" (once for the page),
and the widgets' own sessions (`meeple.course.site.runtime.transport`) run there.

Cells tagged `solution` are folded behind "Show solution"; with --no-solutions
they are left out of the pages and of the notebooks offered for download.

Nothing is written into the lessons folder except DIR: the book's sources are
staged in DIR/work/src with a generated `_toc.yml` and a `_vendor/` folder
(its files are copied into the site's `_static/`, but, unlike a `_static/` source
folder, Jupyter Book does not add all of its scripts to every page). The staged
sources and Jupyter Book's executed copies are removed after the build; the site's
download buttons offer the lessons as committed (without outputs).

One job a file: this one is the command line and the build's steps in order (the lessons
staged, Jupyter Book run, the pages finished); `vendor.py` the packages the site
serves (npm's, pinned; the wheel; the cache headers); `pages.py` the built pages
rewritten (widget state, Vega, KaTeX, the theme trimmed); `cells.py` the runnable
exercise cells; `lab.py` the variant lab page; `graded.py` a graded build's wheel.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from meeple.rules.files import shown_path

from ..classroom import roster_text
from ..exercises import read_roster
from ..scrub import scrub_notebook
from . import cells as site_cells  # the runnable exercise cells: editor, cells files, scripts
from . import dry_run  # which worked examples run in the browser, found by running them so
from . import graded as site_graded  # a graded build's wheel: sealed answers, no answer key
from . import lab as site_lab  # the variant lab page
from . import pages as site_pages  # the built pages rewritten: widget state, Vega, KaTeX, the theme trimmed
from . import vendor as site_vendor  # the packages the site serves: npm's, pinned; the wheel; cache headers

LESSONS = Path(__file__).resolve().parent.parent  # the course package's folder: the lessons, _config.yml, intro.md

ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colours in Sphinx's output
SOLUTION = "solution"  # the cell tag of an exercise's answer (as `meeple scrub` reads it)
# Not staged: build output, helpers and editor leftovers.
SKIP = shutil.ignore_patterns("_build", "_vendor", ".ipynb_checkpoints", "__pycache__", "*.py", ".*", "exercises", "site")


# The builder tells the widgets the site is being built: every kernel Jupyter Book starts runs this
# first (IPYTHONDIR=kernel_ipython_dir(...)), so each Explorer plays every value and saves them with
# the page. A fresh IPython folder a build: no startup file of the builder's own account runs in a lesson.
KERNEL_STARTUP = "from meeple.widgets import site_mode\n\nsite_mode()\n"


def kernel_ipython_dir(folder: Path) -> Path:
    """Write `folder` afresh as an IPython folder whose one startup file is KERNEL_STARTUP; return it."""
    if folder.exists():
        shutil.rmtree(folder)
    startup = folder / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-meeple-site.py").write_text(KERNEL_STARTUP)
    return folder


def chosen_lessons(patterns: list[str] | None = None) -> list[Path]:
    """The lessons to build, sorted by name: all, or those matching any of `patterns` (globs);
    ValueError in one line (without a prefix: `meeple site` and this module's main add theirs)
    when a pattern matches nothing or there are no lessons."""
    every = sorted(LESSONS.glob("*.ipynb"))
    if not every:
        raise ValueError(f"no lessons (*.ipynb) in {LESSONS}")
    if not patterns:
        return every
    chosen = [p for p in every if any(fnmatch.fnmatch(p.name, pat) or fnmatch.fnmatch(p.stem, pat) for pat in patterns)]
    if not chosen:
        raise ValueError(f"no lesson matches {' '.join(map(repr, patterns))}; lessons: {', '.join(p.stem for p in every)}")
    return chosen


def lessons(patterns: list[str] | None = None) -> list[Path]:
    """chosen_lessons, or the build's one-line exit."""
    try:
        return chosen_lessons(patterns)
    except ValueError as e:
        sys.exit(f"build_site: {e}")


def check_out(out: Path) -> None:
    """ValueError in one line unless `out` can be the build folder: it, DIR/work and DIR/html are
    folders or missing, and its nearest existing parent is a folder (checked before anything runs)."""
    def refuse(why: str) -> ValueError:
        return ValueError(f"cannot build the site in {shown_path(out)}: {why}")

    try:
        for p in (out / "html", out / "work"):
            if p.exists() and not p.is_dir():
                raise refuse(f"{shown_path(p)} is a file, not a folder")
        for p in (out, *out.parents):
            if p.exists():
                if not p.is_dir():
                    raise refuse("it is a file, not a folder" if p == out else f"{shown_path(p)} is a file, not a folder")
                break
    except OSError as e:
        raise refuse(e.strerror or str(e)) from None


# The pages after the lessons, each if its .md is there (issue 39: what the README leaves out): the
# teacher's guide (the course map, times, exercises to set, publishing), the designer's guide, the
# design notes and the command reference (written from the parser: meeple.rules.cli.reference).
GUIDES = ("teachers_guide", "designers_guide", "design_notes", "commands")


def guide_pages(folder: Path) -> list[str]:
    """The GUIDES whose Markdown file is in `folder`, in that order."""
    return [name for name in GUIDES if (folder / f"{name}.md").exists()]


def toc_yaml(pages: list[str]) -> str:
    """`_toc.yml` for the book: the intro, then one chapter per lesson, in name order."""
    return "format: jb-book\nroot: intro\nchapters:\n" + "".join(f"- file: {p}\n" for p in pages)


def stage_notebook(path: Path, dest: Path, solutions: bool) -> int:
    """Copy a lesson for the book; returns how many solution cells it has.
    With `solutions`, an answer's code cell is folded (myst-nb's hide-cell, prompt "Show
    solution") and its text in a "Show solution" dropdown; without, they are removed
    (by `meeple scrub`'s own function, so the downloadable notebook has none either)."""
    text = path.read_text()
    if not solutions:
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


def jupyter_book() -> str:
    exe = Path(sys.executable).parent / "jupyter-book"
    if exe.exists():
        return str(exe)
    found = shutil.which("jupyter-book")
    if found is None:
        sys.exit("build_site: jupyter-book is missing: pip install 'meeple[site]' (in a clone: pip install -e '.[site]')")
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
    chosen = lessons(patterns)  # a name that matches nothing stops here, before npm or the seals run
    try:
        check_out(out)
    except ValueError as e:
        sys.exit(f"build_site: {e}")
    sealed = None if solutions else site_graded.seal_table(roster or [])
    try:
        return _build(work, html, solutions, chosen, execute, sealed)
    finally:
        # Only the npm packages are kept between builds: the executed notebooks Jupyter Book
        # leaves behind (work/_build/jupyter_execute) would look like lessons to pytest
        # and to the check that lessons are committed without outputs.
        for tmp in (work / "src", work / "_build", work / "ipython"):
            shutil.rmtree(tmp, ignore_errors=True)


def _build(work: Path, html: Path, solutions: bool, chosen: list[Path], execute: "bool | list[str]" = True,
           sealed: "dict | None" = None) -> Path:
    src = work / "src"
    start = time.perf_counter()
    modules = site_vendor.npm_install(work / "npm")
    for old in (src, work / "_build"):
        if old.exists():
            shutil.rmtree(old)
    shutil.copytree(LESSONS, src, ignore=SKIP)
    for nb in src.glob("*.ipynb"):  # only the chosen lessons are pages (and executed)
        nb.unlink()
    answers = sum(stage_notebook(nb, src / nb.name, solutions) for nb in chosen)
    pages = [p.stem for p in chosen]
    pages += guide_pages(src)
    pages += site_lab.stage(src)  # the variant lab (issue 25)
    (src / "_toc.yml").write_text(toc_yaml(pages))
    site_vendor.vendor(modules, src / "_vendor", sealed)
    kinds = dry_run.run([src / nb.name for nb in chosen])  # which worked examples run in the browser
    stepper = site_cells.vendor_stepper(src / "_vendor" / site_vendor.MODULES)  # a worked example's Stepper
    counted = [site_cells.stage(src / nb.name, src / "_vendor", kinds[nb.stem], stepper) for nb in chosen]
    exercises = sum(c["exercise"] for c in counted)
    examples = sum(c["example"] for c in counted)
    local = sum(c["local"] for c in counted)
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
    env = {**os.environ, "IPYTHONDIR": str(kernel_ipython_dir(work / "ipython"))}  # KERNEL_STARTUP: site_mode()
    run_book(cmd, env)
    if not (built / "index.html").exists():
        sys.exit(f"build_site: jupyter-book wrote no {built / 'index.html'}")
    dropped = sum(site_pages.prune_widget_state(page) for page in built.glob("*.html"))
    print(f"build_site: {dropped} widget models no page shows left out of the pages", flush=True)
    unplayed = [page.name for page in sorted(built.glob("*.html")) if site_pages.unplayed_explorers(page)]
    if unplayed:
        sys.exit(f"build_site: the Explorers of {', '.join(unplayed)} were saved without every value played: the "
                 "lessons' kernel did not run meeple.widgets.site_mode() (KERNEL_STARTUP; is its Python this meeple's?)")
    for page in built.glob("*.html"):
        page.write_text(site_pages.merge_solution_folds(site_pages.drop_check_results(page.read_text())))
    charts = sum(site_pages.edit_widget_state(page, site_pages.compile_chart, site_pages.compile_explorer,
                                                 site_pages.compile_panel)
                 for page in built.glob("*.html"))
    slimmed = sum(site_pages.slim_widget_state(page) for page in built.glob("*.html"))
    moved = sum(site_pages.externalize_modules(page, built / "_static") for page in built.glob("*.html"))
    small = site_cells.minify(modules, built / "_static" / site_vendor.MODULES, "*.*")
    print(f"build_site: the widgets' modules minified ({small / 1e3:.0f} kB less)", flush=True)
    shared = sorted(p.name for p in (built / "_static" / site_vendor.MODULES).glob("*"))
    print(f"build_site: {moved / 1e6:.1f} MB of widget modules moved out of the pages into "
          f"{len(shared)} shared files in _static/{site_vendor.MODULES}/", flush=True)
    formulas = site_pages.typeset_math(sorted(built.glob("*.html")), modules)
    formulas += sum(site_pages.markdown_outputs(page, modules) for page in built.glob("*.html"))
    maps = site_pages.drop_source_maps(built)
    icons = site_pages.trim_fontawesome(built)
    css_cut, font_cut = site_pages.trim_theme_fonts(built)
    print(f"build_site: {icons} Font Awesome icons kept as SVG, {css_cut / 1e3:.0f} kB of glyph rules and "
          f"{font_cut / 1e3:.0f} kB of icon fonts left out, the search index only on search.html "
          f"({site_pages.drop_search_index(built)} pages lighter)", flush=True)
    files, cut = site_pages.minify_theme(built, modules)
    print(f"build_site: {files} of the theme's scripts and styles minified ({cut / 1e3:.0f} kB less)", flush=True)
    site_vendor.write_cache_headers(built)
    runnable = sum(site_cells.add_scripts(page) for page in built.glob("*.html"))
    site_lab.add_scripts(built)
    print(f"build_site: {exercises} exercise cells and {examples} worked examples editable and runnable in the "
          f"browser, on {runnable} pages ({local} cells need pandas, altair or a widget: they say how to run them "
          "on a computer)", flush=True)
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
        try:
            roster = read_roster(roster_text(args.roster))
        except (OSError, ValueError) as e:
            sys.exit(f"build_site: --roster {args.roster}: {e}")
    try:
        build(args.out, solutions=not args.no_solutions, patterns=args.lessons, execute=args.execute or not args.no_execute,
              roster=roster)
    except subprocess.CalledProcessError as e:
        sys.exit(f"build_site: {Path(e.cmd[0]).name} failed (exit {e.returncode}); see the messages above")


if __name__ == "__main__":
    main()
