"""`make lab` installs what a lab needs; `make test` the rest (issue 39).

Read from `make -n` (what make would run, nothing run) with the venv in a scratch folder, so
the stamps make reads are the test's own.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")


def _installs(target: str, venv: Path) -> list[set[str]]:
    """The extras of each `pip install -e '.[...]'` that `make -n TARGET` would run."""
    done = subprocess.run(["make", "-n", target, f"VENV={venv}", f"LESSONS_COPY={venv}/lessons"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return [set(m.split(",")) for m in re.findall(r"pip install .*-e '\.\[([^\]]*)\]'", done.stdout)]


def test_make_lab_installs_the_lab_extra_only(tmp_path):
    installs = _installs("lab", tmp_path / "venv")
    assert installs == [{"lab"}], f"make lab must install the package and [lab] only, got {installs}"
    assert not {"test", "site", "openspiel", "parquet"} & set().union(*installs)


def test_make_test_after_make_lab_installs_the_extras_the_lab_left_out(tmp_path):
    venv = tmp_path / "venv"
    venv.mkdir()
    (venv / ".meeple-lab").touch()  # a venv `make lab` made: its stamp, newer than pyproject.toml
    assert _installs("lab", venv) == [], "make lab again must not install again"
    installs = _installs("test", venv)
    assert len(installs) == 1 and {"lab", "test", "site", "openspiel", "parquet"} <= installs[0], installs


def test_make_lab_after_make_test_installs_nothing(tmp_path):
    venv = tmp_path / "venv"
    venv.mkdir()
    for stamp in (".meeple-lab", ".meeple-installed"):  # what `make test`'s install leaves
        (venv / stamp).touch()
    assert _installs("lab", venv) == [] and _installs("test", venv) == []


def test_make_site_takes_solutions_yes_or_no_and_refuses_any_other_spelling(tmp_path):
    """`SOLUTIONS=No` built a site with the solutions: only the exact "no" left them out."""
    def site(*settings: str) -> subprocess.CompletedProcess:
        return subprocess.run(["make", "-n", "site", f"VENV={tmp_path / 'venv'}", *settings], cwd=ROOT,
                              capture_output=True, text=True)

    def meeple_site(done: subprocess.CompletedProcess) -> str:
        assert done.returncode == 0, done.stderr
        return next(line for line in done.stdout.splitlines() if "meeple site " in line)

    assert "--graded" in meeple_site(site("SOLUTIONS=no"))
    assert "--graded" not in meeple_site(site("SOLUTIONS=yes"))
    assert "--graded" not in meeple_site(site())  # the default: yes
    for value in ("No", "NO", "false", "0", "", "yes no"):
        done = site(f"SOLUTIONS={value}")
        assert done.returncode == 2 and "meeple site" not in done.stdout and "pip install" not in done.stdout, value
        assert f"SOLUTIONS='{value}' is not allowed" in done.stderr and "SOLUTIONS=no" in done.stderr, done.stderr
