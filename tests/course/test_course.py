"""The course in the package (issue 26): `meeple lessons DIR`, `meeple rules GAME`, `--version`,
and a missing optional package named in one line (issue 19.6). The wheel itself is built and
installed into a fresh venv by tests/site/test_install.py."""

from __future__ import annotations

import ast
import fnmatch
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from meeple.rules import GAMES
from harness import run
from meeple.rules.cli import main
from meeple.course.copying import GUIDE, LESSON, MANIFEST, copy_course, packaged_course
from meeple.course.site.build import GUIDES

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())




def _solutions(nb_text: str) -> list[dict]:
    return [c for c in json.loads(nb_text)["cells"] if "solution" in c.get("metadata", {}).get("tags", [])]


# --- what ships -----------------------------------------------------------------------

def test_the_package_data_glob_ships_every_numbered_lesson_and_nothing_else():
    """pyproject's glob and course.LESSON agree on every file in lessons/, so a lesson
    added later (15_..., 21_...) ships without a list to update."""
    globs = PYPROJECT["tool"]["setuptools"]["package-data"]["meeple.course"]
    # the site's own sources (`meeple site`), with images/*.png, and every guide page it builds
    site = {"intro.md", "_config.yml"} | {f"{name}.md" for name in GUIDES}
    for f in (ROOT / "lessons").iterdir():
        shipped = any(fnmatch.fnmatchcase(f.name, g) for g in globs)
        assert shipped == bool(LESSON.match(f.name) or f.name == GUIDE or f.name in site), f.name
    assert all(any(fnmatch.fnmatchcase(f"images/{p.name}", g) for g in globs) for p in (ROOT / "lessons" / "images").iterdir())
    for name in ("15_new_topic.ipynb", "21_last.ipynb"):
        assert LESSON.match(name) and any(fnmatch.fnmatchcase(name, g) for g in globs)
    course = packaged_course()
    assert set(course) == {p.name for p in (ROOT / "lessons").glob("[0-9][0-9]_*.ipynb")} | {GUIDE}
    assert course["01_first_interval.ipynb"] == (ROOT / "lessons" / "01_first_interval.ipynb").read_bytes()


def test_the_extras_hold_what_a_notebook_host_does_not_need():
    deps = " ".join(PYPROJECT["project"]["dependencies"])
    for heavy in ("jupyterlab", "pyarrow", "open-spiel", "jupyter-book", "notebook", "ipykernel", "pytest"):
        assert heavy not in deps, f"{heavy} is a hard dependency"
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert {"lab", "parquet", "site", "openspiel", "test"} <= set(extras)
    assert any(d.startswith("jupyterlab") for d in extras["lab"]) and any(d.startswith("pyarrow") for d in extras["parquet"])
    make = (ROOT / "Makefile").read_text()
    installed = set(re.search(r"^EXTRAS := (.*)$", make, re.M).group(1).split(","))
    assert installed == set(extras), "make lab / make test install every extra"


def _third_party_imports(path: Path) -> list[tuple[str, int, bool]]:
    """(top-level name, line, inside a function) of every absolute import in a module."""
    tree = ast.parse(path.read_text())
    found = []

    def visit(node, nested):
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.Import):
                found.extend((a.name.partition(".")[0], child.lineno, nested) for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                found.append((child.module.partition(".")[0], child.lineno, nested))
            visit(child, inner)

    visit(tree, False)
    return [(n, ln, nested) for n, ln, nested in found if n not in sys.stdlib_module_names and n not in ("meeple", "__future__")]


def test_every_import_is_a_dependency_or_goes_through_require():
    """rules/ and widgets/ import only what `pip install meeple` brings; an optional package
    (an extra) only through meeple.rules.extras.require, which names the extra in one line."""
    from meeple.rules.extras import EXTRAS

    # import name -> the dependency that brings it (IPython and comm come with ipywidgets)
    core = {"numpy": "numpy", "pandas": "pandas", "altair": "altair", "vl_convert": "vl-convert-python",
            "anywidget": "anywidget", "ipywidgets": "ipywidgets", "traitlets": "traitlets", "tqdm": "tqdm",
            "IPython": "ipywidgets"}
    deps = {re.split(r"[<>=!~\[ ]", d)[0] for d in PYPROJECT["project"]["dependencies"]}
    assert set(core.values()) <= deps
    for folder in ("rules", "widgets"):
        for path in sorted((ROOT / folder).glob("*.py")):
            for name, line, _ in _third_party_imports(path):
                where = f"{folder}/{path.name}:{line} imports {name}"
                assert name in core or name == "open_spiel" and path.name == "openspiel.py", where
                assert name not in EXTRAS or path.name == "openspiel.py", where
    text = (ROOT / "rules" / "openspiel.py").read_text()
    assert re.search(r'^pyspiel = require\("pyspiel"', text, re.M) and not re.search(r"^import pyspiel", text, re.M)


# --- meeple lessons ---------------------------------------------------------------------

def test_lessons_copies_the_teacher_version_with_solutions_folded(capsys, tmp_path):
    code, out, _ = run(capsys, "lessons", tmp_path / "course")
    assert code == 0
    copied = sorted(p.name for p in (tmp_path / "course").iterdir())
    assert copied == sorted([MANIFEST, *packaged_course()])
    for name, data in packaged_course().items():
        mine = (tmp_path / "course" / name).read_text()
        if name == GUIDE:
            assert mine == data.decode()
            continue
        orig, folded = json.loads(data), json.loads(mine)
        assert [c["source"] for c in folded["cells"]] == [c["source"] for c in orig["cells"]], "nothing is left out"
        assert _solutions(mine) and all(c["metadata"]["jupyter"]["source_hidden"] is True for c in _solutions(mine))
        assert not any(c["metadata"].get("jupyter") for c in folded["cells"] if c not in _solutions(mine))
    assert "copied: 01_first_interval.ipynb" in out and "teachers_guide.md" in out


def test_lessons_student_copy_is_what_scrub_makes(capsys, tmp_path):
    assert run(capsys, "scrub", ROOT / "lessons", tmp_path / "scrubbed")[0] == 0
    code, out, _ = run(capsys, "lessons", tmp_path / "class", "--student")
    assert code == 0 and "student copy" in out
    names = sorted(p.name for p in (tmp_path / "class").glob("*.ipynb"))
    assert names == sorted(p.name for p in (tmp_path / "scrubbed").glob("*.ipynb")) and names
    for name in names:
        assert (tmp_path / "class" / name).read_text() == (tmp_path / "scrubbed" / name).read_text()
        assert not _solutions((tmp_path / "class" / name).read_text())
    assert not (tmp_path / "class" / GUIDE).exists(), "the teacher's guide stays with the teacher"


def test_lessons_never_replace_a_changed_notebook_and_say_which_were_kept(capsys, tmp_path):
    dest = tmp_path / "course"
    assert run(capsys, "lessons", dest)[0] == 0
    mine = dest / "03_rerolls.ipynb"
    mine.write_text(mine.read_text().replace('"cells": [', '"cells": [{"cell_type": "markdown", "metadata": {}, "source": "my notes"},', 1))
    work = mine.read_bytes()
    (dest / "02_one_die.ipynb").unlink()  # deleted: copied again
    code, out, _ = run(capsys, "lessons", dest)
    assert code == 0 and mine.read_bytes() == work
    assert re.search(r"^  kept as you changed them: 03_rerolls\.ipynb$", out, re.M)
    assert re.search(r"^  copied: 02_one_die\.ipynb$", out, re.M) and (dest / "02_one_die.ipynb").exists()
    everything = len(list(dest.glob("*.ipynb"))) + 1  # the lessons and the teacher's guide
    assert re.search(rf"^  already up to date: {everything - 2} files$", out, re.M)


def test_a_later_version_adds_and_updates_lessons_but_keeps_the_readers(tmp_path):
    """A newer meeple (here: a changed course) updates what the reader left as copied, adds
    new lessons, and keeps a changed lesson, saying this version has another."""
    dest = tmp_path / "course"
    old = packaged_course()
    copy_course(dest, student=False, course=old)
    changed = dest / "01_first_interval.ipynb"
    changed.write_bytes(changed.read_bytes().replace(b'"cells": [', b'"cells": [{"cell_type": "raw", "metadata": {}, "source": "x"},', 1))
    work = changed.read_bytes()
    new = dict(old)
    for name in ("01_first_interval.ipynb", "02_one_die.ipynb"):  # both changed upstream
        nb = json.loads(new[name])
        nb["cells"].append({"cell_type": "markdown", "metadata": {}, "source": "a new paragraph"})
        new[name] = json.dumps(nb).encode()
    new["15_new_topic.ipynb"] = old["02_one_die.ipynb"]
    status = copy_course(dest, student=False, course=new)
    assert status["copied"] == ["15_new_topic.ipynb"] and status["updated"] == ["02_one_die.ipynb"]
    assert status["kept_new"] == ["01_first_interval.ipynb"] and changed.read_bytes() == work
    assert "a new paragraph" in (dest / "02_one_die.ipynb").read_text()
    manifest = json.loads((dest / MANIFEST).read_text())
    assert manifest["edition"] == "teacher" and "15_new_topic.ipynb" in manifest["files"]
    # the reader's file is still recorded as what was copied, so it stays "changed" next time too
    assert copy_course(dest, student=False, course=new)["kept_new"] == ["01_first_interval.ipynb"]


def test_a_folder_of_lessons_meeple_did_not_copy_is_adopted_or_kept(tmp_path):
    """A `make lab` copy (no manifest): identical files are adopted, others kept as they are."""
    dest = tmp_path / "old-copy"
    dest.mkdir()
    course = packaged_course()
    (dest / "04_markov_race.ipynb").write_text("my own notebook")
    status = copy_course(dest, student=True, course=course)
    assert status["kept_new"] == ["04_markov_race.ipynb"] and (dest / "04_markov_race.ipynb").read_text() == "my own notebook"
    assert len(status["copied"]) == len([n for n in course if n != GUIDE]) - 1
    assert copy_course(dest, student=True, course=course)["unchanged"] == status["copied"]


@pytest.mark.parametrize("setup, message", [
    (lambda d: d.write_text("x"), "it is a file, not a folder"),
    (lambda d: (d.mkdir(), (d / MANIFEST).write_text("{not json")), "is unreadable (JSONDecodeError): delete it and run again"),
    (lambda d: (d.mkdir(), (d / MANIFEST).write_text('{"format": "other"}')), "is not a meeple-lessons/1 manifest"),
    (lambda d: (d.mkdir(), (d / "01_first_interval.ipynb").mkdir()), "01_first_interval.ipynb: it is a folder"),
])
def test_lessons_refuses_a_bad_folder_in_one_line_and_writes_nothing(capsys, tmp_path, setup, message):
    dest = tmp_path / "course"
    setup(dest)
    before = sorted(p.name for p in dest.iterdir()) if dest.is_dir() else None
    code, out, err = run(capsys, "lessons", dest)
    assert code == 2 and message in err and err.count("\n") == 1 and not out
    assert (sorted(p.name for p in dest.iterdir()) if dest.is_dir() else None) == before


def test_a_teacher_copy_and_a_student_copy_never_share_a_folder(capsys, tmp_path):
    assert run(capsys, "lessons", tmp_path / "c")[0] == 0
    code, _, err = run(capsys, "lessons", tmp_path / "c", "--student")
    assert code == 2 and "holds the teacher copy of the lessons (with solutions); give another folder for the student copy" in err
    assert _solutions((tmp_path / "c" / "01_first_interval.ipynb").read_text()), "the teacher copy is untouched"


def test_a_broken_lesson_in_the_package_is_refused_before_anything_is_written(tmp_path):
    from meeple.course.scrub import NotebookError

    course = dict(packaged_course(), **{"05_how_many_games.ipynb": b'{"cells": 3}'})
    with pytest.raises(NotebookError, match="05_how_many_games.ipynb is not a notebook"):
        copy_course(tmp_path / "c", student=False, course=course)
    assert not (tmp_path / "c").exists()


# --- meeple rules, --version -------------------------------------------------------------

def _seed_rules(name: str) -> dict[str, str]:
    text = (ROOT / "seeds" / (name.replace("-", "_") + ".md")).read_text()
    return dict(re.findall(r"^- \*\*([A-Z]+-\d+)\*\* (.*)$", text, re.M))


def _unwrap(out: str) -> str:
    return re.sub(r"\s+", " ", out)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_rules_shows_every_numbered_rule_from_the_package(capsys, name):
    code, out, _ = run(capsys, "rules", name)
    assert code == 0
    flat = _unwrap(out)
    for rid, body in _seed_rules(name).items():
        plain = re.sub(r"\*\*(.+?)\*\*|\*(.+?)\*|`(.+?)`", lambda m: next(g for g in m.groups() if g), body)
        assert f" {rid} {_unwrap(plain).strip()}" in flat, rid
    assert "parameters (set with --set FIELD=VALUE" in out and "Presets: " in out


def test_rules_rule_shows_one_rule_its_numbers_and_judgement_calls(capsys):
    code, out, _ = run(capsys, "rules", "bucket-brigade", "--rule", "BB-3")
    assert code == 0 and out.startswith("BB-3 The track has 14 spaces.")
    assert "BB-4" not in out and "track (now 0,-1,-1,-1,-1,-1,-1,0,0,1,1,2,2,3)" in out and "last_space_value (now 3)" in out
    code, out, _ = run(capsys, "rules", "bucket-brigade", "--rule", "bb-14")
    assert code == 0 and "Judgement calls about BB-14:" in out and "8. Hands that run out (BB-14)." in out
    code, out, _ = run(capsys, "rules", "bucket-brigade", "--rule", "BB-1")
    assert "BB-14" not in out, "BB-1 does not pick up BB-14's judgement call"


@pytest.mark.parametrize("argv, message", [
    (["--rule", "BB-99"], "Bucket Brigade has no rule 'BB-99': its rules are BB-1 to BB-15"),
    (["--rule", "PB-3"], "PB-3 is The Piggyback Brigade's: meeple rules piggyback-brigade --rule PB-3"),
    (["--rule", "8"], "--rule takes a rule number such as BB-8, got '8'"),
    (["--rule", "BB-3", "--full"], "give one of --rule, --full and --measures"),
])
def test_rules_refuses_a_bad_rule_in_one_line(capsys, argv, message):
    code, out, err = run(capsys, "rules", "bucket-brigade", *argv)
    assert code == 2 and message in err and err.count("\n") == 1 and not out


def test_rules_full_is_the_whole_shipped_text(capsys):
    code, out, _ = run(capsys, "rules", "duck-duck-bruce", "--full")
    assert code == 0 and out == (ROOT / "seeds" / "duck_duck_bruce.md").read_text()


def test_version_is_the_package_version(capsys):
    """The package's version, and the chance version the records it writes carry (issue 35)."""
    from meeple.rules.chance import CHANCE
    from meeple.rules.core import play

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == (f"meeple {PYPROJECT['project']['version']} "
                                       f"(chance {CHANCE}: the records it writes carry it)\n")
    assert play("piggyback-brigade").to_dict()["chance"] == CHANCE


# --- issue 19.6: a missing optional package is one line naming the extra -----------------

BLOCKED = ("import sys\nfor name in sys.argv[1].split(','):\n    sys.modules[name] = None  # as if not installed\n"
           "from meeple.rules.cli import main\nsys.exit(main(sys.argv[2:]))\n")


def _without(tmp_path, modules: str, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCKED, modules, *argv], capture_output=True, text=True,
                          cwd=tmp_path, timeout=600)


@pytest.mark.parametrize("modules, argv, extra", [
    ("pyarrow", ["simulate", "bucket-brigade", "--games", "2", "--out", "t.parquet"], "parquet"),
    ("pyarrow", ["sweep", "bucket-brigade", "--vary", "bonus=0,3", "--games", "2", "--out", "t.parquet"], "parquet"),
    ("pyarrow", ["compare", "bucket-brigade", "--variant", "base:", "--variant", "b:bonus=6", "--games", "2", "--out", "t.parquet"], "parquet"),
    ("pyspiel", ["duel", "bucket-brigade", "--bot", "ismcts", "--games", "2"], "openspiel"),
    ("pyspiel", ["simulate", "piggyback-brigade", "--bots", "ismcts,random", "--games", "2"], "openspiel"),
])
def test_a_missing_extra_is_one_line_naming_it_and_exit_2(tmp_path, modules, argv, extra):
    proc = _without(tmp_path, modules, *argv)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.endswith(f"which is not installed: pip install 'meeple[{extra}]'\n"), proc.stderr
    assert list(tmp_path.iterdir()) == [], "nothing is played or written"


def test_importing_the_openspiel_wrapper_without_openspiel_names_the_extra():
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "try:\n    import meeple.rules.openspiel\nexcept ModuleNotFoundError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "meeple.rules.openspiel needs OpenSpiel (open-spiel), which is not installed: pip install 'meeple[openspiel]'\n"


# --- Windows and macOS: nothing POSIX-only outside what is tested -----------------------

def test_files_are_written_where_os_has_no_fchmod(capsys, tmp_path, monkeypatch):
    """Windows before Python 3.13 has no os.fchmod: a record, a variant file and the
    lessons are still written (with the mode the system gives)."""
    import os

    monkeypatch.delattr(os, "fchmod")
    record, variant = tmp_path / "game.json", tmp_path / "v.toml"
    assert run(capsys, "play", "bucket-brigade", "--seed", "1", "--record", record)[0] == 0 and record.exists()
    assert run(capsys, "variant", "save", "v", "--game", "bucket-brigade", "--set", "bonus=6", "--out", variant)[0] == 0
    assert "bonus = 6" in variant.read_text()
    assert run(capsys, "lessons", tmp_path / "course", "--student")[0] == 0 and (tmp_path / "course" / MANIFEST).exists()


SPAWNED = '''
import multiprocessing
from meeple.rules import simulate

if __name__ == "__main__":  # spawn (macOS, Windows) starts each worker by importing this file
    multiprocessing.set_start_method("spawn")
    apart = simulate("piggyback-brigade", None, "heuristic", games=12, seed=5, workers=2, progress=False)
    here = simulate("piggyback-brigade", None, "heuristic", games=12, seed=5, workers=1, progress=False)
    assert multiprocessing.get_start_method() == "spawn"
    assert apart.table.equals(here.table), "spawned workers play the same games"
    print("same", len(apart.table))
'''


def test_simulation_workers_under_the_spawn_start_method_play_the_same_games(tmp_path):
    """macOS and Windows spawn worker processes (Linux forks): the same table either way."""
    script = tmp_path / "spawned.py"
    script.write_text(SPAWNED)
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split()[0] == "same"


@pytest.mark.parametrize("argv, message", [
    (["lessons", ""], "lessons needs a folder to copy the course into, got an empty name"),
    (["simulate", "bucket-brigade", "--games", "0"], "--games must be a whole number from 1 to 10,000,000, got '0'"),
])
def test_python_m_cli_gives_the_same_one_line_errors(tmp_path, argv, message):
    """`python -m meeple.rules.cli` (the README's way when `meeple` is not on PATH): an error
    raised by another command module is still one line, exit 2 (it was a traceback)."""
    proc = subprocess.run([sys.executable, "-m", "meeple.rules.cli", *argv], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    assert proc.returncode == 2 and proc.stderr == f"meeple: error: {message}\n"


def test_require_names_the_extra_only_when_the_package_itself_is_missing(monkeypatch):
    from meeple.rules.extras import MissingExtra, require

    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(MissingExtra, match=r"^--out FILE.parquet needs pyarrow, which is not installed: pip install 'meeple\[parquet\]'$"):
        require("pyarrow", "--out FILE.parquet")
    import meeple.rules.extras as extras

    def broken(name):  # pyarrow installed, but a part of it missing: Python's own message stays
        raise ModuleNotFoundError("No module named 'pyarrow.lib'", name="pyarrow.lib")

    monkeypatch.setattr(extras, "importlib", __import__("types").SimpleNamespace(import_module=broken))
    with pytest.raises(ModuleNotFoundError) as raised:
        require("pyarrow", "--out FILE.parquet")
    assert not isinstance(raised.value, MissingExtra) and raised.value.name == "pyarrow.lib"
