"""lessons/build_site.py without building a site: solutions, pinned Pyodide, its messages."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _build_site():
    spec = importlib.util.spec_from_file_location("build_site", ROOT / "lessons" / "build_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bs = _build_site()


def _notebook(tmp_path: Path) -> Path:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# A lesson\n"]},
        {"cell_type": "code", "metadata": {}, "source": ["x = 1\n"], "outputs": [], "execution_count": None},
        {"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": ["answer = 42\n"], "outputs": [],
         "execution_count": None},
        {"cell_type": "markdown", "metadata": {"tags": ["solution"]},
         "source": ["Because:\n", ":::{note}\nnested\n:::\n"]},
    ]
    nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "01_lesson.ipynb"
    path.write_text(json.dumps(nb))
    return path


def test_solutions_are_folded_behind_show_solution(tmp_path):
    src = _notebook(tmp_path)
    out = tmp_path / "staged.ipynb"
    assert bs.stage_notebook(src, out, solutions=True) == 2
    cells = json.loads(out.read_text())["cells"]
    code, text = cells[2], cells[3]
    assert "hide-cell" in code["metadata"]["tags"] and code["metadata"]["mystnb"]["code_prompt_show"] == "Show solution"
    # the dropdown's fence is longer than any fence inside the answer, so the answer stays whole
    assert text["source"].startswith("::::{dropdown} Show solution\n") and text["source"].rstrip().endswith("\n::::")
    assert ":::{note}\nnested\n:::" in text["source"]
    assert cells[:2] == json.loads(src.read_text())["cells"][:2]  # other cells untouched


def test_no_solutions_leaves_them_out(tmp_path):
    src = _notebook(tmp_path)
    out = tmp_path / "staged.ipynb"
    assert bs.stage_notebook(src, out, solutions=False) == 2
    cells = json.loads(out.read_text())["cells"]
    assert len(cells) == 2 and not any("answer" in "".join(c["source"]) for c in cells)


def test_the_pinned_pyodide_is_checked_file_by_file(tmp_path, capsys):
    folder = tmp_path / "node_modules" / "pyodide"
    folder.mkdir(parents=True)
    (folder / "package.json").write_text(json.dumps({"version": bs.PYODIDE_VERSION}))
    for name in bs.PYODIDE_FILES:
        (folder / name).write_bytes(b"not the real file")
    with pytest.raises(SystemExit) as e:
        bs.check_pyodide(folder)
    assert "do not match their pinned SHA-256" in str(e.value) and "pyodide.asm.wasm" in str(e.value)
    (folder / "package.json").write_text(json.dumps({"version": "0.0.1"}))
    with pytest.raises(SystemExit) as e:
        bs.check_pyodide(folder)
    assert f"the site pins {bs.PYODIDE_VERSION}" in str(e.value)


def test_the_build_does_not_repeat_messages_naming_its_temporary_folder(capsys):
    """Issue 15 item 7: Sphinx's and Jupyter Book's closing lines name a folder that is deleted."""
    script = ("print('reading sources'); print(); print('\\x1b[92m' + '=' * 20 + '\\x1b[0m'); print();"
              "print('Finished generating HTML for book.'); print('Your book\\'s HTML pages are here:');"
              "print('    /tmp/work/_build/html/'); print('=' * 20);"
              "print('The HTML pages are in ../work/_build/html.')")
    bs.run_book([sys.executable, "-c", script], env=None)
    out = capsys.readouterr().out
    echoed = out[out.index("\nreading sources") + 1:]  # after the command line itself
    assert echoed.startswith("reading sources")
    assert "_build/html" not in echoed and "Finished generating" not in echoed and "=" not in echoed


def test_a_lesson_subset_must_match_something():
    assert bs.lessons(["*"]) == bs.lessons()
    with pytest.raises(SystemExit) as e:
        bs.lessons(["no_such_lesson"])
    assert "no lesson matches no_such_lesson" in str(e.value)


def test_widgets_no_view_reaches_are_left_out_of_the_page(tmp_path):
    """nbclient keeps every widget a lesson made (closed ones too), ~0.9 MB per chart: only
    the models a view reaches, directly or through IPY_MODEL_ references, stay."""
    ids = {k: k * 32 for k in "abcde"}
    state = {"version_major": 2, "version_minor": 0, "state": {
        ids["a"]: {"model_name": "VBoxModel", "state": {"children": [f"IPY_MODEL_{ids['b']}", f"IPY_MODEL_{ids['d']}"]}},
        ids["d"]: {"model_name": "OutputModel", "state": {"outputs": [{"output_type": "display_data", "data": {
            "application/vnd.jupyter.widget-view+json": {"model_id": ids["e"]}}}]}},
        ids["e"]: {"model_name": "HTMLModel", "state": {"value": "shown only inside the Output"}},
        ids["b"]: {"model_name": "HTMLModel", "state": {"value": "</b>kept</b>"}},
        ids["c"]: {"model_name": "AnyModel", "state": {"_esm": "x" * 1000}},
    }}
    view = json.dumps({"version_major": 2, "version_minor": 0, "model_id": ids["a"]})
    page = tmp_path / "p.html"
    page.write_text(f'<script type="application/vnd.jupyter.widget-state+json">{json.dumps(state)}</script>'
                    f'<p>text</p><script type="application/vnd.jupyter.widget-view+json">{view}</script>')
    assert bs.prune_widget_state(page) == 1
    text = page.read_text()
    body = text[text.index(">") + 1:text.index("</script>")]
    kept = json.loads(body)["state"]
    assert set(kept) == {ids["a"], ids["b"], ids["d"], ids["e"]} and kept[ids["b"]]["state"]["value"] == "</b>kept</b>"
    assert "<p>text</p>" in text and bs.prune_widget_state(page) == 0
