"""The course site's packages (issue 24), for lessons/site/build.py: what the site serves besides
its pages, each pinned and served from the site itself.

- the npm packages at exact versions (Pyodide with the SHA-256 of every file it serves, Vega,
  Vega-Lite, KaTeX, the exercise cells' editor), installed once into the build folder;
- the project's wheel, built for Python in the reader's browser (a graded build's: sealed);
- the `_vendor/` folder the pages' `_static/` is made from, and `meeple-site.json` naming them;
- the folders under `_static/` named by version or content, and the cache headers (`_headers`,
  `.htaccess`) that let a browser keep those for good (issue 24 item 7).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from meeple.rules.rulebook import version

from . import cells as site_cells  # the runnable exercise cells: editor, cells files, scripts
from . import graded as site_graded  # a graded build's wheel: sealed answers, no answer key
from . import lab as site_lab  # the variant lab page

# the source tree in a clone (the site's wheel is built from it), the installed meeple/ folder otherwise
ROOT = Path(__file__).resolve().parents[2]
STATIC = Path(__file__).resolve().parent / "runtime" / "static"  # the site's own scripts (meeple-*.js, .css)
WIDGETS_STATIC = ROOT / "widgets" / "static"  # the notebook widgets' files the site serves too
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
# (vega-embed.js is not among them: on the site the controls' charts are drawn with the site's one
# Vega, as the Explorer's and the lesson charts are; it carried a second Vega, 0.9 MB a page.)
# meeple-nav.js: the theme's sidebar buttons made to work (every page; lessons/_config.yml).
LIVE_FILES = ["meeple-widgets.js", "meeple-live.js", "meeple-worker.js", "meeple-live.css", "meeple-nav.js"]
WIDGET_FILES = ["favicon.svg"]  # from widgets/static/
MODULES = "widgets"  # _static/widgets/: the anywidgets' front ends, one file per distinct module (site_pages)


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


# The folders of the source tree and the packages they are, as pyproject.toml maps them.
TREE = {"rules": "meeple.rules", "widgets": "meeple.widgets", "seeds": "meeple.rules.seeds", "lessons": "meeple.course"}
COPY_SKIP = ("__pycache__", "*.pyc", "_build", ".ipynb_checkpoints", "images")


def _installed_sources(src: Path) -> None:
    """An installed meeple (no clone: `meeple site`; ROOT is then the installed meeple/ folder)
    laid out as the source tree, with a pyproject.toml naming its packages, so the same wheel is
    built from it."""
    where = {"rules": ROOT / "rules", "widgets": ROOT / "widgets", "seeds": ROOT / "rules" / "seeds", "lessons": ROOT / "course"}
    for folder, path in where.items():
        skip = ("seeds",) if folder == "rules" else ()  # seeds/ is its own folder, as in the clone
        shutil.copytree(path, src / folder, ignore=shutil.ignore_patterns(*COPY_SKIP, *skip))
    packages = sorted(name + "".join("." + part for part in d.relative_to(src / folder).parts)
                      for folder, name in TREE.items() for d in [src / folder, *(src / folder).rglob("*")]
                      if d.is_dir() and (d / "__init__.py").exists())
    data = ["*.md", "*.ipynb", "*.yml", "*.js", "*.css", "*.svg", "static/*.js", "static/*.css", "static/*.svg"]
    (src / "README.md").write_text("meeple, built for the course site's browser Python.\n")
    (src / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=77"]\nbuild-backend = "setuptools.build_meta"\n\n'
        f'[project]\nname = "meeple"\nversion = "{version()}"\nreadme = "README.md"\nrequires-python = ">=3.11"\n\n'
        f"[tool.setuptools]\npackages = {json.dumps(packages)}\n"
        "package-dir = { " + ", ".join(f"{json.dumps(n)} = {json.dumps(f)}" for f, n in TREE.items()) + " }\n\n"
        "[tool.setuptools.package-data]\n" + "".join(f"{json.dumps(p)} = {json.dumps(data)}\n" for p in packages))


def build_wheel(dest: Path, sealed: "dict | None" = None) -> Path:
    """The project's wheel (pure Python), built from a copy of the sources so the tree stays clean
    (from a clone; else from the installed package); with a `sealed` table, the graded one
    (site_graded: no exact answer's checker, hashes instead)."""
    with tempfile.TemporaryDirectory(prefix="meeple-wheel-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        if (ROOT / "pyproject.toml").exists():  # a clone: its own pyproject, README and LICENSE
            for name in ("pyproject.toml", "README.md", "LICENSE"):
                shutil.copy2(ROOT / name, src)
            # every folder pyproject.toml maps to a package (lessons/ and seeds/ are package data)
            for pkg in TREE:
                shutil.copytree(ROOT / pkg, src / pkg, ignore=shutil.ignore_patterns(*COPY_SKIP))
        else:
            _installed_sources(src)
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
    for name in WIDGET_FILES:
        shutil.copy2(WIDGETS_STATIC / name, dest)
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
    lines = ["# Cache headers for the meeple course site (written by lessons/site/build.py), read by",
             "# Netlify and Cloudflare Pages. Only folders named by content or version are listed (the",
             "# rules do not overlap: both hosts join the values of every rule that matches).", ""]
    for folder, value in cache_rules():
        lines += [folder + "*", f"  Cache-Control: {value}", ""]
    (html / "_headers").write_text("\n".join(lines))
    ht = ["# Cache headers for the meeple course site on Apache (written by lessons/site/build.py):",
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
