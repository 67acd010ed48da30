"""The course site's runnable exercise cells (issue 24 item 3), for lessons/site/build.py.

Every exercise cell (a code cell that calls `check(...)`, not a solution) becomes editable
and runnable on its page: `lessons/site/runtime/static/meeple-cells.js` puts a code editor on it
(CodeMirror 6 from npm, bundled here by esbuild into one file the site serves) and runs
it in the page's Pyodide worker (`meeple.course.site.runtime.cells`), after the lesson's own cells
above it, so `check()` answers there as in JupyterLab. The build:

- tags each exercise cell `meeple-exercise` (its <div> gets the class `tag_meeple-exercise`);
- writes `_static/cells/<lesson>.json`: the lesson's code cells in order, each "context"
  (the lesson's own code) or "exercise" (the reader's), without the solutions;
- bundles the editor into `_static/editor-<version>/meeple-editor.js` (named by version:
  it may be cached for good), loaded only when a reader opens a cell for editing;
- adds meeple-live.js (the worker's front end) and meeple-cells-boot.js (1 kB: an "Edit and
  run" button per cell, which loads meeple-cells.js and the editor on first use) to every page
  with an exercise cell.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import meeple.widgets

EXERCISE_TAG = "meeple-exercise"
EXAMPLE_TAG = "meeple-example"  # a worked example that runs in the browser (dry_run.py ran it so)
LOCAL_TAG = "meeple-local"  # a cell that needs what only a computer's Python has (pandas, altair, widgets)
TAGS = {"exercise": EXERCISE_TAG, "example": EXAMPLE_TAG, "local": LOCAL_TAG}
HIDDEN = "remove-input"  # a cell whose code the page leaves out (prose made by say(...)): nothing to edit
CONTEXT = "context"  # a cell that only runs as the lesson's code above a reader's cell
SOLUTION = "solution"
# CodeMirror 6 and what it needs, every package at an exact version (npm resolves the rest
# of the tree to these), and esbuild to bundle them at build time.
EDITOR_VERSION = "6.0.2"  # the `codemirror` package
EDITOR_PACKAGES = [
    f"codemirror@{EDITOR_VERSION}", "@codemirror/lang-python@6.2.1", "@codemirror/view@6.43.15",
    "@codemirror/state@6.7.6", "@codemirror/commands@6.11.1", "@codemirror/language@6.13.1",
    "@codemirror/autocomplete@6.20.4", "@codemirror/search@6.7.2", "@codemirror/lint@6.9.8",
    "@lezer/common@1.5.5", "@lezer/highlight@1.2.5", "@lezer/lr@1.4.12", "@lezer/python@1.1.19",
    "esbuild@0.24.2",
]
EDITOR_DIR = f"editor-{EDITOR_VERSION}"
CELLS_DIR = "cells"
SCRIPTS = ("meeple-live.js", "meeple-cells-boot.js")  # the boot script loads meeple-cells.js on first use
# What the bundle exposes to meeple-cells.js (globalThis.MeepleEditor).
EDITOR_ENTRY = """import { EditorView, basicSetup } from "codemirror";
import { python } from "@codemirror/lang-python";
import { keymap } from "@codemirror/view";
import { Prec } from "@codemirror/state";
import { indentWithTab } from "@codemirror/commands";
globalThis.MeepleEditor = { EditorView, basicSetup, python, keymap, Prec, indentWithTab };
"""


def _source(cell: dict) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def is_exercise(cell: dict) -> bool:
    """An exercise cell: code that calls check(...) and is not an answer."""
    return (cell.get("cell_type") == "code" and "check(" in _source(cell)
            and SOLUTION not in cell.get("metadata", {}).get("tags", []))


def page_cells(nb: dict) -> list[dict]:
    """The lesson's code cells as the page runs them: [{"kind": "context"|"exercise", "source"}], in order,
    answers left out (a reader's run is the lesson's code above, then their own cell)."""
    out = []
    for cell in nb["cells"]:
        if cell.get("cell_type") != "code" or SOLUTION in cell.get("metadata", {}).get("tags", []):
            continue
        out.append({"kind": "exercise" if is_exercise(cell) else "context", "source": _source(cell)})
    return out


def module_name(data: bytes, suffix: str) -> str:
    """An anywidget module's file name in the site's _static/widgets/: its SHA-256, so the name
    changes only with the content (cached for good) and equal modules are one file."""
    return hashlib.sha256(data).hexdigest()[:20] + suffix


def vendor_stepper(modules: Path) -> dict[str, str]:
    """The Stepper's front end (widgets/static/stepper.js and .css) in the site's widget modules
    folder `modules`, under the names an executed page's saved Stepper gets there: the page draws
    a worked example's Stepper with it. {"esm", "css"}: paths relative to _static/."""
    static = Path(meeple.widgets.__file__).parent / "static"
    out = {}
    for key, suffix in (("esm", ".js"), ("css", ".css")):
        data = (static / f"stepper{suffix}").read_bytes()
        name = module_name(data, suffix)
        modules.mkdir(parents=True, exist_ok=True)
        (modules / name).write_bytes(data)
        out[key] = f"{modules.name}/{name}"
    return out


def stage(staged: Path, vendor: Path, kinds: list[dict], stepper: dict | None = None) -> dict[str, int]:
    """Tag the staged lesson's code cells by kind (`kinds`: dry_run.py's, one per page cell) and
    write its cells file (with `stepper`, where the Stepper's front end is); returns how many
    cells of each kind."""
    nb = json.loads(staged.read_text())
    cells = page_cells(nb)
    if len(kinds) != len(cells) or any((k["kind"] == "exercise") != (c["kind"] == "exercise") for k, c in zip(kinds, cells)):
        sys.exit(f"build_site: the dry run of {staged.name} does not match its cells (it ran another copy?)")
    counts = dict.fromkeys(TAGS, 0)
    kinds = [dict(k) for k in kinds]  # the page's own copy: a hidden cell's kind becomes "context"
    mine = iter(kinds)
    for cell in nb["cells"]:
        if cell.get("cell_type") != "code" or SOLUTION in cell.get("metadata", {}).get("tags", []):
            continue
        found = next(mine)
        kind = found["kind"]
        meta = cell.setdefault("metadata", {})
        if HIDDEN in meta.get("tags", []) and kind != "exercise":  # the page shows its output, not its code
            found.update(kind=CONTEXT, needs="")
            continue
        # a local cell also names what it needs (meeple-cells-boot.js says it): tag_meeple-needs-pandas
        needs = [f"meeple-needs-{found['needs']}"] if found.get("needs") else []
        meta["tags"] = [*meta.get("tags", []), TAGS[kind], *needs]
        counts[kind] += 1
    staged.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    for cell, kind in zip(cells, kinds):
        cell.update(kind)
    folder = vendor / CELLS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{staged.stem}.json").write_text(json.dumps({"page": staged.stem, "cells": cells, "stepper": stepper})
                                                + "\n")
    return counts


def wanted(modules: Path) -> list[Path]:
    """Files npm must have provided for the editor."""
    return [modules / "codemirror" / "package.json", modules / "@codemirror" / "lang-python" / "package.json",
            modules / "esbuild" / "package.json"]


def installed(modules: Path) -> bool:
    """Is every editor package there at its pinned version?"""
    for spec in EDITOR_PACKAGES:
        name, version = spec.rsplit("@", 1)
        try:
            if json.loads((modules / name / "package.json").read_text())["version"] != version:
                return False
        except (OSError, ValueError, KeyError):
            return False
    return True


def bundle_editor(modules: Path, vendor: Path) -> Path:
    """CodeMirror 6 (Python mode) as one minified file, by esbuild from node_modules."""
    exe = modules / ".bin" / "esbuild"
    if not exe.exists():
        sys.exit(f"build_site: esbuild is missing from {modules} (npm did not install it)")
    entry = modules.parent / "meeple-editor-entry.js"
    entry.write_text(EDITOR_ENTRY)
    out = vendor / EDITOR_DIR / "meeple-editor.js"
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(exe), str(entry), "--bundle", "--minify", "--format=iife", "--legal-comments=none",
                    "--log-level=warning", f"--outfile={out}"], check=True, cwd=modules.parent)
    return out


def minify(modules: Path, vendor: Path, pattern: str = "meeple-*.js") -> int:
    """The site's own scripts in `vendor` (meeple-*.js; the widgets' modules and styles in
    _static/widgets/ with pattern "*.*") minified by esbuild, in place: every lesson page loads
    several of them, and a page may transfer at most 1.5 MB cold (issue 24 item 2, issue 38).
    A module stays a module (esbuild keeps its format). No source map is written. Returns the
    bytes saved."""
    exe = modules / ".bin" / "esbuild"
    saved = 0
    for js in sorted(p for p in vendor.glob(pattern) if p.suffix in (".js", ".css")):
        before = js.stat().st_size
        subprocess.run([str(exe), str(js), "--minify", "--legal-comments=none", "--log-level=warning",
                        f"--outfile={js}", "--allow-overwrite"], check=True)
        saved += before - js.stat().st_size
    return saved


def vendor_files(static: Path, vendor: Path) -> None:
    """meeple-cells.js, told where the editor is (its folder is named by version)."""
    text = (static / "meeple-cells.js").read_text()
    if "__EDITOR_DIR__" not in text:
        sys.exit("build_site: meeple-cells.js no longer names __EDITOR_DIR__ (where the editor is)")
    (vendor / "meeple-cells.js").write_text(text.replace("__EDITOR_DIR__", EDITOR_DIR))
    shutil.copy2(static / "meeple-cells-boot.js", vendor)


def add_scripts(page: Path) -> bool:
    """A page with code cells (exercises, worked examples) loads the worker's front end and meeple-cells.js; True if it has any."""
    text = page.read_text()
    if not any(f"tag_{tag}" in text for tag in TAGS.values()):
        return False
    # a script the page already names (Sphinx adds meeple-live.js to widget pages as "...js?v=<hash>")
    # is not named twice: it would run twice, its state (the page's one Python) made twice
    tags = "".join(f'<script src="_static/{s}"></script>\n' for s in SCRIPTS
                   if not re.search(f'src="_static/{re.escape(s)}(\\?[^"]*)?"', text))
    if tags:
        page.write_text(text.replace("</head>", tags + "</head>", 1))
    return True


def no_execute(config: Path) -> None:
    """The staged book's _config.yml with execution off (a quick build with no outputs: the exercise test)."""
    text = config.read_text()
    text = text.replace("execute_notebooks: force", "execute_notebooks: \"off\"")
    config.write_text(text)
