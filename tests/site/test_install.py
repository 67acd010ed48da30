"""`pip install meeple` as a reader outside the clone gets it (issue 26).

Builds the wheel and sdist, checks them as a package index would (`twine check`, no
setuptools warnings), installs the wheel with no extras into a fresh venv outside the
clone, and uses it there: no JupyterLab or pyarrow, `meeple lessons DIR --student`,
`meeple rules bucket-brigade --rule BB-3`, a missing extra in one line; then nbval and
ipykernel are added and one copied lesson runs; the conformance suite runs from the
unpacked sdist against the installed wheel. It needs PyPI or a warm pip cache: without
them it fails saying so (it never skips). Slow (pip installs): about a minute or two.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from meeple.rules.chance import CHANCE

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
VERSION = PROJECT["version"]
NOT_IN_A_LEAN_INSTALL = ("jupyterlab", "pyarrow", "open-spiel", "notebook", "jupyter-server", "ipykernel",
                         "pytest", "dask", "playwright", "jupyter-book")


def _env() -> dict[str, str]:
    """The environment of a reader's shell: nothing pointing at this clone or its venv."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE") and not k.startswith("JUPYTER")}
    return env


def _run(cmd, cwd, what: str, timeout: float = 900, ok=(0,), env=None) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=env or _env())
    if proc.returncode not in ok:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-25:])
        pytest.fail(f"{what} failed with exit {proc.returncode}:\n{tail}", pytrace=False)
    return proc


def _pip(py: Path, *args: str, what: str) -> None:
    """pip install into the fresh venv; a network or index failure is said as such."""
    proc = subprocess.run([str(py), "-m", "pip", "install", "--disable-pip-version-check", *args],
                          capture_output=True, text=True, timeout=1800, env=_env())
    if proc.returncode:
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        pytest.fail(f"pip could not install {what} into a fresh venv (it needs PyPI or pip's cache; "
                    f"is the network down?):\n{tail}", pytrace=False)


@pytest.fixture(scope="module")
def outside():
    """A folder outside the clone, as a reader's machine is (pytest's own folder is inside it
    under `make test`: build/pytest), removed after the module."""
    path = Path(tempfile.mkdtemp(prefix="meeple-install-test-")).resolve()
    assert not path.is_relative_to(ROOT), f"TMPDIR is inside the clone: {path}"
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def built(outside):
    """(wheel, sdist, the build's output) built from this tree into a folder outside it."""
    dist = outside / "dist"
    dist.mkdir()
    proc = _run([sys.executable, "-m", "build", "--outdir", dist, ROOT], ROOT, "python -m build", timeout=1200)
    wheels, sdists = sorted(dist.glob("meeple-*.whl")), sorted(dist.glob("meeple-*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted(p.name for p in dist.iterdir())
    return wheels[0], sdists[0], proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def venv(built, outside):
    """A fresh venv (no system site-packages) outside the clone with the wheel, no extras."""
    home = outside / "reader"
    home.mkdir()
    _run([sys.executable, "-m", "venv", home / "venv"], home, "python -m venv")
    py = home / "venv" / ("Scripts" if os.name == "nt" else "bin") / "python"
    _pip(py, str(built[0]), what=f"{built[0].name} and its dependencies")
    return home, py


def test_build_has_no_setuptools_warning_and_twine_check_passes(built):
    wheel, sdist, log = built
    warnings = [ln for ln in log.splitlines() if re.search(r"warn|deprecat", ln, re.I)]
    assert not warnings, "\n".join(warnings)
    proc = _run([sys.executable, "-m", "twine", "check", "--strict", wheel, sdist], ROOT, "twine check")
    assert proc.stdout.count("PASSED") == 2


def test_the_sdist_carries_every_test_file(built):
    """A packager runs the suite from the sdist: every file git tracks under tests/ is in it (issue 39:
    51 of 89 were), and no file a run leaves (__pycache__)."""
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "tests"], capture_output=True, text=True,
                             check=True).stdout.split()
    with tarfile.open(built[1]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert len(tracked) > 90 and "tests/data/records.json" in tracked
    assert sorted(set(tracked) - names) == [], "test files missing from the sdist"
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_the_wheel_holds_the_course_the_rules_and_the_metadata(built):
    wheel, sdist, _ = built
    names = set(zipfile.ZipFile(wheel).namelist())
    lessons = sorted(p.name for p in (ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))
    assert lessons and {f"meeple/course/{n}" for n in lessons} <= names
    # every guide page `make site` builds (the teacher's, the designer's, the notes, the commands)
    assert {f"meeple/course/{p.name}" for p in (ROOT / "lessons").glob("*.md")} <= names
    assert {f"meeple/rules/seeds/{p.name}" for p in (ROOT / "seeds").glob("*.md")} <= names
    assert {f"meeple/widgets/static/{p.name}" for p in (ROOT / "widgets" / "static").iterdir()} <= names
    assert f"meeple-{VERSION}.dist-info/licenses/LICENSE" in names
    meta = zipfile.ZipFile(wheel).read(f"meeple-{VERSION}.dist-info/METADATA").decode()
    assert "License-Expression: MIT" in meta and "Classifier: Framework :: Jupyter" in meta
    for extra in ("lab", "parquet", "site", "openspiel", "test"):
        assert f"Provides-Extra: {extra}" in meta
    description = meta.split("\n\n", 1)[1]
    with tarfile.open(sdist) as tar:
        members = {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name}
    # The README's picture and pages are files of the repository (issue 39: the project has no public
    # home yet to give them a web address), so each is in the sdist too. A package index shows them
    # only once they are web addresses: the first upload replaces them (the lead's release step).
    relative = [t.split("#")[0].rstrip("/") for t in re.findall(r"\]\(([^)\s]+)", description)
                if not re.match(r"https?://|#", t)]
    missing = [t for t in relative if t not in members and not any(m.startswith(t + "/") for m in members)]
    assert relative and not missing, f"the README links to files the sdist does not carry: {missing}"
    assert {"LICENSE", "README.md", "pyproject.toml", "tests/rules/test_conformance.py"} <= members
    assert {f"lessons/{n}" for n in lessons} <= members


def test_the_lean_install_has_no_front_end_and_no_extras(venv):
    home, py = venv
    listed = json.loads(_run([py, "-m", "pip", "list", "--format=json"], home, "pip list").stdout)
    names = {p["name"].lower().replace("_", "-") for p in listed}
    assert "meeple" in names
    assert not names & set(NOT_IN_A_LEAN_INSTALL), sorted(names & set(NOT_IN_A_LEAN_INSTALL))
    where = _run([py, "-c", "import meeple.rules, meeple.widgets, meeple.course; print(meeple.rules.__file__)"],
                 home, "import meeple").stdout.strip()
    assert Path(where).is_relative_to(home / "venv"), f"meeple came from {where}, not the fresh venv"


def test_every_module_of_the_wheel_imports_in_the_lean_install(built, venv):
    """Every module the wheel ships imports with `pip install meeple` alone (issue 34: two of the
    site builder's modules could not be imported from the wheel); a module that needs an extra
    asks for it when it is used (meeple.rules.extras.require), not at import."""
    home, py = venv
    names = zipfile.ZipFile(built[0]).namelist()
    modules = sorted(n[:-3].replace("/", ".").removesuffix(".__init__") for n in names
                     if n.startswith("meeple/") and n.endswith(".py") and not n.endswith("__main__.py"))
    modules.remove("meeple.rules.openspiel")  # the openspiel extra itself: it says so in one line (the test below)
    assert "meeple.course.site.build" in modules and "meeple.course.site.runtime.live" in modules, modules
    code = "import importlib, sys\nfor m in sys.argv[1:]:\n    importlib.import_module(m)\nprint(len(sys.argv) - 1)\n"
    out = _run([py, "-c", code, *modules], home, "import every module of the wheel").stdout
    assert out == f"{len(modules)}\n", out


def test_meeple_lessons_and_rules_work_from_the_wheel(venv):
    home, py = venv
    meeple = py.with_name("meeple.exe" if os.name == "nt" else "meeple")
    # the records a wheel writes carry the chance version it names (issue 39)
    assert _run([meeple, "--version"], home, "meeple --version").stdout == \
        f"meeple {VERSION} (chance {CHANCE}: the records it writes carry it)\n"
    out = _run([meeple, "lessons", "class", "--student"], home, "meeple lessons class --student").stdout
    copied = sorted(p.name for p in (home / "class").glob("*.ipynb"))
    assert copied == sorted(p.name for p in (ROOT / "lessons").glob("[0-9][0-9]_*.ipynb")), out
    for name in copied:
        cells = json.loads((home / "class" / name).read_text())["cells"]
        assert not any("solution" in c.get("metadata", {}).get("tags", []) for c in cells), name
    again = _run([meeple, "lessons", "class", "--student"], home, "meeple lessons (again)").stdout
    assert f"already up to date: {len(copied)} files" in again
    rule = _run([meeple, "rules", "bucket-brigade", "--rule", "BB-3"], home, "meeple rules --rule BB-3").stdout
    assert rule.startswith("BB-3 The track has 14 spaces. Space 0 is Start and is worth 0;"), rule
    assert "track (now 0,-1,-1,-1,-1,-1,-1,0,0,1,1,2,2,3)" in rule


@pytest.mark.parametrize("argv, extra", [
    (["simulate", "bucket-brigade", "--games", "2", "--out", "t.parquet"], "parquet"),
    (["duel", "bucket-brigade", "--bot", "ismcts", "--games", "1"], "openspiel"),
])
def test_a_missing_extra_is_one_line_in_the_lean_install(venv, argv, extra):
    home, py = venv
    proc = _run([py.with_name("meeple"), *argv], home, "meeple " + " ".join(argv), ok=(2,))
    assert proc.stderr.count("\n") == 1 and proc.stderr.endswith(f"pip install 'meeple[{extra}]'\n"), proc.stderr
    assert not (home / "t.parquet").exists()


def test_a_copied_lesson_runs_in_the_fresh_venv(venv):
    """nbval and ipykernel added (a notebook host brings its own kernel); the student copy
    of lesson 1 (a Stepper, charts, a simulation) runs top to bottom."""
    home, py = venv
    if not (home / "class").is_dir():
        _run([py.with_name("meeple"), "lessons", "class", "--student"], home, "meeple lessons class --student")
    _pip(py, "nbval>=0.11", "ipykernel>=6.29", "pytest>=8", what="nbval, ipykernel and pytest")
    proc = _run([py, "-m", "pytest", "--nbval-lax", "--nbval-current-env", "-q", "-p", "no:cacheprovider",
                 "class/01_first_interval.ipynb"], home, "nbval on the copied lesson 1")
    assert re.search(r"\b\d+ passed\b", proc.stdout) and "failed" not in proc.stdout and "skipped" not in proc.stdout


def test_the_conformance_suite_runs_from_the_unpacked_sdist(built, venv):
    home, py = venv
    with tarfile.open(built[1]) as tar:
        tar.extractall(home / "sdist", filter="data")
    src = home / "sdist" / f"meeple-{VERSION}"
    _pip(py, "pytest>=8", what="pytest")
    where = _run([py, "-c", "import meeple.rules; print(meeple.rules.__file__)"], src, "import meeple").stdout.strip()
    assert Path(where).is_relative_to(home / "venv"), "the suite tests the installed wheel, not the sdist's sources"
    proc = _run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/rules/test_conformance.py"], src,
                "the conformance suite from the sdist")
    assert re.search(r"\b\d+ passed\b", proc.stdout) and "skipped" not in proc.stdout and "failed" not in proc.stdout


MODEL_ID = re.compile(r"[0-9a-f]{32}")  # a widget model's id (IPY_MODEL_...): new in every kernel


def test_meeple_site_from_the_wheel_builds_the_pages_make_site_builds(built, venv, outside):
    """`pip install 'meeple[site]'` then `meeple site DIR` (no clone) builds lesson 1's page as the
    clone's builder (`make site`'s) does, widget model ids aside (issue 34). Last in this file:
    the venv then holds the site extra, which the lean-install tests above must not see."""
    home, py = venv
    _pip(py, f"{built[0]}[site]", what="meeple[site]")
    _run([py.with_name("meeple"), "site", home / "site", "--lessons", "01_first_interval"], home, "meeple site",
         timeout=1800)
    _run([sys.executable, "-m", "meeple.course.site.build", "--lessons", "01_first_interval", "--out", outside / "clone"],
         ROOT, "the clone's site build", timeout=1800)
    ours, theirs = home / "site" / "html", outside / "clone" / "html"
    files = sorted(str(p.relative_to(theirs)) for p in theirs.rglob("*") if p.is_file())
    assert sorted(str(p.relative_to(ours)) for p in ours.rglob("*") if p.is_file()) == files
    for page in ("01_first_interval.html", "index.html", "intro.html", "lab.html"):
        a, b = (MODEL_ID.sub("ID", (d / page).read_text()) for d in (ours, theirs))
        assert a == b, page
