"""lessons/site/build.py without building a site: solutions, pinned Pyodide, its messages."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from harness import vega_reads

ROOT = Path(__file__).resolve().parents[2]


def _build_site():
    return importlib.import_module("meeple.course.site.build")


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
    (folder / "package.json").write_text(json.dumps({"version": bs.site_vendor.PYODIDE_VERSION}))
    for name in bs.site_vendor.PYODIDE_FILES:
        (folder / name).write_bytes(b"not the real file")
    with pytest.raises(SystemExit) as e:
        bs.site_vendor.check_pyodide(folder)
    assert "do not match their pinned SHA-256" in str(e.value) and "pyodide.asm.wasm" in str(e.value)
    (folder / "package.json").write_text(json.dumps({"version": "0.0.1"}))
    with pytest.raises(SystemExit) as e:
        bs.site_vendor.check_pyodide(folder)
    assert f"the site pins {bs.site_vendor.PYODIDE_VERSION}" in str(e.value)


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
    assert "no lesson matches 'no_such_lesson'" in str(e.value)


def test_meeple_site_checks_the_lesson_names_and_the_folder_before_anything_runs(tmp_path, monkeypatch, capsys):
    """`--lessons 99_nope` started an npm install before saying no lesson matched, and a file as the
    build folder was a NotADirectoryError traceback: one line each, exit 2, nothing run or made."""
    from meeple.rules.cli import main

    def no_npm(folder):
        raise AssertionError(f"npm install started for {folder}")

    monkeypatch.setattr(bs.site_vendor, "npm_install", no_npm)
    (tmp_path / "roster.csv").write_text("id\nAda\n")
    (tmp_path / "half").mkdir()
    (tmp_path / "half" / "html").write_text("")
    for args, why in (([str(tmp_path / "s3"), "--lessons", "99_nope"], "no lesson matches '99_nope'; lessons: 01_"),
                      ([str(tmp_path / "roster.csv")], "roster.csv: it is a file, not a folder"),
                      ([str(tmp_path / "roster.csv" / "site")], "roster.csv is a file, not a folder"),
                      ([str(tmp_path / "half")], "html is a file, not a folder")):
        before = sorted(tmp_path.rglob("*"))
        assert main(["site", *args]) == 2, args
        err = capsys.readouterr().err
        assert err.startswith("meeple: error: ") and why in err and err.count("\n") == 1, err
        assert sorted(tmp_path.rglob("*")) == before, args


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
    assert bs.site_pages.prune_widget_state(page) == 1
    text = page.read_text()
    body = text[text.index(">") + 1:text.index("</script>")]
    kept = json.loads(body)["state"]
    assert set(kept) == {ids["a"], ids["b"], ids["d"], ids["e"]} and kept[ids["b"]]["state"]["value"] == "</b>kept</b>"
    assert "<p>text</p>" in text and bs.site_pages.prune_widget_state(page) == 0


def test_an_explorer_saved_without_every_value_played_stops_the_build(tmp_path):
    """If a lesson's kernel missed the builder's KERNEL_STARTUP (site_mode()), its Explorers are saved
    with one value: the build says so (build.py) instead of shipping them silently."""
    def explorer(view):
        return {"model_name": "AnyModel", "state": {"charts": {}, "setup": {}, "view": {"sliders": [], **view}}}

    page = tmp_path / "p.html"
    for views, unplayed in (([{"saved_numbers": {"0": {}}}], 0), ([{"saved_numbers": {}}, {}], 1), ([], 0)):
        state = {"version_major": 2, "version_minor": 0,
                 "state": {str(k) * 32: explorer(v) for k, v in enumerate(views)}}
        page.write_text(f'<script type="application/vnd.jupyter.widget-state+json">{json.dumps(state)}</script>')
        assert bs.site_pages.unplayed_explorers(page) == unplayed, views
    page.write_text("<p>no widgets</p>")
    assert bs.site_pages.unplayed_explorers(page) == 0


def test_a_check_cells_bare_true_or_false_is_left_out_but_nothing_else():
    """Issue 24 item 5: the stray "False" under every exercise hint."""
    result = ('<div class="output text_plain highlight-myst-ansi notranslate"><div class="highlight"><pre><span></span>'
              'False\n</pre></div>\n</div>\n')
    check = ('<div class="cell docutils container">\n<div class="cell_input"><pre><span class="n">check</span>'
             '<span class="p">(</span>"01.x", ...)</pre></div>\n<div class="cell_output"><p>✗ No answer yet</p>\n'
             + result + '</div></div>\n')
    other = '<div class="cell docutils container">\n<div class="cell_input"><pre>x == 2</pre></div>\n' + result + '</div>\n'
    page = "<main>" + check + other + "</main>"
    out = bs.site_pages.drop_check_results(page)
    assert out.count("False\n</pre>") == 1 and "No answer yet" in out  # the other cell's False stays
    assert out.index("x == 2") < out.index("False\n</pre>")


def test_an_answer_in_several_cells_is_one_show_solution_fold():
    """Issue 24 item 5: code then words of one answer, two "Show solution" bars; now one."""
    code = ('<div class="cell tag_solution tag_hide-cell docutils container">\n<details class="admonition hide">\n'
            '<summary><p>Show solution</p></summary>\n<div class="cell_input"><div>answer = 42</div></div>\n'
            '</details>\n</div>')
    words = ('<details class="sd-sphinx-override sd-dropdown meeple-solution">\n<summary><span>Show solution</span>'
             '</summary><div class="sd-summary-content"><p>Because <details><summary>x</summary>y</details></p></div>\n'
             '</details>')
    page = f"<p>before</p>{code}\n{words}<p>after</p>{code}"
    out = bs.site_pages.merge_solution_folds(page)
    assert out.count("Show solution") == 2  # the pair became one fold; the lone one after stays
    first = out[: out.index("<p>after</p>")]
    assert first.count("<details") == 2 and first.count("</details>") == 2  # the answer's own fold inside
    assert first.index("answer = 42") < first.index("Because") < first.rindex("</details>")
    assert out.endswith(code) and out.startswith("<p>before</p>")


def test_anywidget_modules_leave_the_page_for_one_shared_file(tmp_path):
    """Issue 24 item 2: a chart's module is written once, named by its content, and the page
    keeps its path (which the site's loader resolves next to itself)."""
    big = "export default {render(){}};" + "//" + "v" * 2000
    models = {k * 32: {"model_name": "AnyModel", "state": {"_esm": big, "_css": "small {}"}} for k in "ab"}
    static = tmp_path / "_static"
    static.mkdir()
    pages = []
    for n in (1, 2):
        page = tmp_path / f"p{n}.html"
        page.write_text('<script type="application/vnd.jupyter.widget-state+json">'
                        + json.dumps({"state": models}) + "</script>")
        pages.append(page)
        assert bs.site_pages.externalize_modules(page, static) == 2 * len(big)
    files = list((static / bs.site_vendor.MODULES).iterdir())
    assert len(files) == 1 and files[0].read_text() == big and files[0].name.endswith(".js")
    for page in pages:
        state = json.loads(page.read_text().split(">", 1)[1].rsplit("<", 1)[0])["state"]
        assert {m["state"]["_esm"] for m in state.values()} == {f"./{bs.site_vendor.MODULES}/{files[0].name}"}
        assert {m["state"]["_css"] for m in state.values()} == {"small {}"}  # short ones stay inline


def test_only_the_font_awesome_icons_the_site_names_are_kept(tmp_path):
    fa = tmp_path / "_static" / "scripts" / "fontawesome.js"
    fa.parent.mkdir(parents=True)
    fa.write_text('var a={bars:[448,512,["navicon"],"f0c9","M0 96C0"],"arrow-up":[384,512,[],"f062","M214 41"],'
                  'unused:[1,2,[],"f000","M1 1"]};')
    (tmp_path / "page.html").write_text('<i class="fa-solid fa-bars"></i>')
    (tmp_path / "_static" / "theme.js").write_text('x.className = "fa-solid fa-arrow-up"')
    assert bs.site_pages.trim_fontawesome(tmp_path) == 2
    text = fa.read_text()
    assert '"bars":[448,512,"M0 96C0"]' in text and '"arrow-up"' in text and "unused" not in text


def test_empty_ipywidget_traits_leave_the_page_but_anywidgets_keep_theirs(tmp_path):
    state = {"state": {
        "a" * 32: {"model_name": "LayoutModel", "model_module": "@jupyter-widgets/base",
                   "state": {"_model_name": "LayoutModel", "width": "50%", "height": None, "border": "", "grid_area": None}},
        "b" * 32: {"model_name": "AnyModel", "model_module": "anywidget",
                   "state": {"_vl_selections": {}, "spec": None, "_esm": "./widgets/x.js"}},
    }}
    page = tmp_path / "p.html"
    page.write_text(f'<script type="application/vnd.jupyter.widget-state+json">{json.dumps(state)}</script>')
    assert bs.site_pages.slim_widget_state(page) > 0
    kept = json.loads(page.read_text().split(">", 1)[1].rsplit("<", 1)[0])["state"]
    assert kept["a" * 32]["state"] == {"width": "50%"}
    assert kept["b" * 32]["state"] == state["state"]["b" * 32]["state"]


def test_the_cache_headers_keep_only_versioned_or_hashed_folders_for_good(tmp_path):
    bs.site_vendor.write_cache_headers(tmp_path)
    headers = (tmp_path / "_headers").read_text()
    folders = [line for line in headers.splitlines() if line.startswith("/")]
    sv = bs.site_vendor
    assert sorted(folders) == sorted(f"/_static/{d}/*" for d in (sv.MODULES, sv.PYODIDE_DIR, sv.VEGA_DIR, sv.VEGA_LITE_DIR,
                                                                 sv.KATEX_DIR, bs.site_cells.EDITOR_DIR))
    assert bs.site_cells.EDITOR_VERSION in bs.site_cells.EDITOR_DIR
    assert bs.site_vendor.PYODIDE_VERSION in bs.site_vendor.PYODIDE_DIR and headers.count("immutable") == len(folders)
    ht = (tmp_path / ".htaccess").read_text()
    assert "AddType application/wasm .wasm" in ht and ht.count("immutable") == len(folders)


def test_exercise_cells_are_tagged_and_listed_without_their_answers(tmp_path):
    """Issue 24 item 3: the page's exercise cells get the tag meeple-cells.js looks for, and the
    cells file holds the lesson's code in order, each context or exercise, and no answer."""
    src = _notebook(tmp_path)
    nb = json.loads(src.read_text())
    nb["cells"].insert(2, {"cell_type": "code", "metadata": {}, "source": ["answer = ...\n", "check('01.x', answer)\n"],
                           "outputs": [], "execution_count": None})
    src.write_text(json.dumps(nb))
    vendor = tmp_path / "_vendor"
    vendor.mkdir()
    kinds = bs.dry_run.run([src])["01_lesson"]
    assert kinds == [{"kind": "example", "needs": ""}, {"kind": "exercise", "needs": ""}]
    assert bs.site_cells.stage(src, vendor, kinds) == {"exercise": 1, "example": 1, "local": 0}
    cells = json.loads(src.read_text())["cells"]
    assert [bs.site_cells.EXERCISE_TAG in c["metadata"].get("tags", []) for c in cells] == [False, False, True, False, False]
    assert [bs.site_cells.EXAMPLE_TAG in c["metadata"].get("tags", []) for c in cells] == [False, True, False, False, False]
    listed = json.loads((vendor / "cells" / "01_lesson.json").read_text())
    assert listed == {"page": "01_lesson", "stepper": None,
                      "cells": [{"kind": "example", "needs": "", "source": "x = 1\n"},
                                {"kind": "exercise", "needs": "", "source": "answer = ...\ncheck('01.x', answer)\n"}]}
    assert "answer = 42" not in json.dumps(listed)  # the solution cell is left out


def test_the_dry_run_finds_which_worked_examples_run_in_the_browser(tmp_path):
    """Issue 38: a worked example is runnable on the page exactly when it runs in a Python without
    pandas, altair, numpy or a widget library (the site's Pyodide core); a cell that needs one is
    marked with the module, so the page can say so; a cell whose code the page hides is not offered."""
    def code(source, *tags):
        return {"cell_type": "code", "metadata": {"tags": list(tags)}, "source": source, "outputs": [],
                "execution_count": None}

    nb = {"cells": [
        code("from fractions import Fraction\nfrom meeple.rules import simulate\nimport pandas as pd\n"),
        code("res = simulate('bucket-brigade', bots='random', games=5, seed=1, progress=False)\nres"),
        code("frame = pd.DataFrame({'x': [1]})"),
        code("frame.x.sum()"),  # needs pandas through the name the cell above could not make
        code("Fraction(1, 3) + 1"),
        code("import numpy as np\nnp.zeros(2)"),
        code("answer = ...\ncheck('01.x', answer)"),
        code("print('prose')", "remove-input"),
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    src = tmp_path / "09_lesson.ipynb"
    src.write_text(json.dumps(nb))
    kinds = bs.dry_run.run([src])["09_lesson"]
    assert [(k["kind"], k["needs"]) for k in kinds] == [
        ("local", "pandas"), ("example", ""), ("local", "pandas"), ("local", "pandas"), ("example", ""),
        ("local", "numpy"), ("exercise", ""), ("example", "")]
    vendor = tmp_path / "_vendor"
    assert bs.site_cells.stage(src, vendor, kinds) == {"exercise": 1, "example": 2, "local": 4}
    tags = [c["metadata"]["tags"] for c in json.loads(src.read_text())["cells"]]
    assert tags[0] == ["meeple-local", "meeple-needs-pandas"] and tags[7] == ["remove-input"]
    listed = json.loads((vendor / "cells" / "09_lesson.json").read_text())["cells"]
    assert listed[7]["kind"] == "context"  # the page shows its output only: nothing to edit


def test_the_site_has_the_pages_the_readme_sends_readers_to():
    """The README links the design notes and the command reference as pages of the course site
    (issue 39): they follow the lessons in the book's table of contents, with the guides."""
    pages = bs.guide_pages(ROOT / "lessons")
    assert {"teachers_guide", "design_notes", "commands"} <= set(pages)
    toc = bs.toc_yaml(["01_first_interval", *pages])
    assert "- file: design_notes\n" in toc and "- file: commands\n" in toc


def test_a_charts_rows_become_csv_that_vega_reads_back_as_the_same_rows():
    """A lesson page has 1.5 MB cold, and a saved Explorer's three charts repeated every column name
    on every row (issue 24's budget, lesson 11 78 bytes under): the rows go as CSV, which Vega
    reads into the very same rows (types, nulls, "", text that looks like a number, commas, quotes,
    newlines), and rows CSV cannot say exactly stay as they were."""
    csv_values = bs.site_pages.csv_values
    rows = [{"fall_probability": p / 4, "point": p, "seat": s, "bot": "heuristic" if s == 0 else "random",
             "games": 200, "win_rate": 0.7975 - s / 7, "win_low": None if p == 1 else 0.0273826, "win_high": 1e-05,
             "who": f'Player {s + 1} ("a", b)\nnext', "label": "0.5" if s else "", "note": None if s else "x",
             "best": s == 0, "empty": None}
            for p in range(5) for s in range(4)]
    data = {"name": "data-1", "format": {}, "values": rows}
    out = csv_values(data)
    assert out["format"]["type"] == "csv" and isinstance(out["values"], str)
    assert out["format"]["parse"] == {"fall_probability": "number", "point": "number", "seat": "number", "games": "number",
                                      "win_rate": "number", "win_low": "number", "win_high": "number", "note": "string",
                                      "best": "boolean", "empty": "number"}  # "bot", "who", "label": text as it is
    assert vega_reads({**data, **out}) == rows
    assert [list(r) for r in vega_reads({**data, **out})] == [list(r) for r in rows]  # the fields in their order
    assert len(json.dumps(out)) < len(json.dumps(rows)) / 2
    for bad in ([{**rows[0], "seat": "1"}, *rows[1:]],  # a field of numbers and text
                [{**rows[0], "label": None}, *rows[1:]],  # a text field with both "" and null
                [{**rows[0], "who": "#111"}, *rows[1:]],  # explorer.js recolours "#111" for a dark page
                [{**rows[0], "who": "#777"}, *rows[1:]],  # and "#777"
                [{**rows[0], "win_rate": float("nan")}, *rows[1:]],
                [{**rows[0], "seat": [1, 2]}, *rows[1:]],  # nested
                [{k: v for k, v in rows[0].items() if k != "games"}, *rows[1:]],  # a field missing from a row
                [dict(reversed(list(rows[0].items()))), *rows[1:]],  # another order
                [{"x": 1}],  # nothing saved
                []):
        assert csv_values({"name": "d", "values": bad}) == {}, bad
    assert csv_values({"name": "d", "format": {"type": "json"}, "values": rows}) == {}
    assert csv_values({"name": "d", "source": "data-1"}) == {}


def test_a_compiled_chart_carries_its_rows_as_csv_and_no_schema_where_its_front_end_knows_it_is_vega():
    spec = {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "mark": "point",
            "data": {"values": [{"x": i, "y": i / 3, "who": f"Player {i}"} for i in range(10)]},
            "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"}}}
    vega = bs.site_pages._to_vega(spec)
    inline = [d for d in vega["data"] if "values" in d]
    assert len(inline) == 1 and inline[0]["format"] == {"type": "csv", "parse": {"x": "number", "y": "number"}}
    assert vega_reads(inline[0]) == [{"x": i, "y": float(f"{i / 3:.6g}"), "who": f"Player {i}"} for i in range(10)]
    chart = {"model_name": "AnyModel", "state": {"_vl_selections": {}, "spec": spec}}
    assert bs.site_pages.compile_chart(chart) == 1 and "$schema" not in chart["state"]["spec"]  # meeple-chart.js: always Vega
    panel = {"model_name": "AnyModel", "state": {"_esm": "", "view": {"kind": "k", "inputs": [], "chart": spec}}}
    assert bs.site_pages.compile_panel(panel) == 1
    assert "/schema/vega/" in panel["state"]["view"]["chart"]["$schema"]  # panel.js tells Vega from Vega-Lite by it


def test_the_themes_unminified_files_are_minified_and_the_rest_left_alone(tmp_path):
    """Sphinx's and the theme's own scripts and styles ship unminified (~40 kB a page): each is replaced
    by esbuild's output when that is 10% smaller; the versioned folders and the widgets' modules are
    not touched. A stand-in esbuild (it drops the spaces) shows which files it was given."""
    sv = bs.site_vendor
    exe = tmp_path / "npm" / ".bin" / "esbuild"
    exe.parent.mkdir(parents=True)
    exe.write_text(f"#!{sys.executable}\nimport sys\nsrc = sys.argv[1]\nout = [a for a in sys.argv if a.startswith('--outfile=')][0][10:]\n"
                   "assert '--minify' in sys.argv and '--legal-comments=inline' in sys.argv\n"
                   "open(out, 'w').write(open(src).read().replace(' ', ''))\n")
    exe.chmod(0o755)
    static = tmp_path / "html" / "_static"
    files = {"basic.css": "a { color: red; }\n", "scripts/theme.js": "var x = 1;\n", "dense.css": "a{color:red} b{x:y}\n",
             f"{sv.VEGA_DIR}/vega.min.js": "var v = 1;\n", f"{sv.MODULES}/abc.js": "let m = 1;\n",
             f"{sv.PYODIDE_DIR}/pyodide.js": "let p = 1;\n", "page.html.txt": "a b c\n"}
    for name, text in files.items():
        (static / name).parent.mkdir(parents=True, exist_ok=True)
        (static / name).write_text(text)
    assert bs.site_pages.minify_theme(tmp_path / "html", tmp_path / "npm") == (2, 4 + 3)
    assert (static / "basic.css").read_text() == "a{color:red;}\n" and (static / "scripts/theme.js").read_text() == "varx=1;\n"
    for name in ("dense.css", f"{sv.VEGA_DIR}/vega.min.js", f"{sv.MODULES}/abc.js", f"{sv.PYODIDE_DIR}/pyodide.js", "page.html.txt"):
        assert (static / name).read_text() == files[name], name


def test_the_colours_kept_out_of_csv_are_the_ones_explorer_js_swaps_for_a_dark_page():
    """csv_values keeps a data set holding a colour explorer.js recolours (its text swaps '"#111"'
    and '"#777"' for a dark page) as JSON: the list in pages.py is the script's own."""
    import re

    from meeple.course.site import pages

    js = (ROOT / "widgets" / "static" / "explorer.js").read_text()
    swapped = set(re.findall(r'replace\(/"(#[0-9a-fA-F]+)"/g', js))
    assert swapped and swapped == pages.DARK_SWAPPED, swapped

