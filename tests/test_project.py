"""Project-wide promises: every rule is tested, notebooks are clean, rules stay pure."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULE = re.compile(r"^\s*[-*]\s+\*\*([A-Z]+-\d+)\*\*", re.M)
SEEDS = sorted((ROOT / "seeds").glob("*.md"))


def _rule_ids(path: Path) -> list[str]:
    return RULE.findall(path.read_text())


def test_each_game_has_a_seeds_file_with_numbered_rules():
    from meeple.rules import GAMES

    for name in GAMES:
        path = ROOT / "seeds" / (name.replace("-", "_") + ".md")
        assert path.exists(), f"missing {path}"
        ids = _rule_ids(path)
        assert ids, f"{path.name} has no numbered rules"
        assert len(ids) == len(set(ids)), f"{path.name} numbers a rule twice"
        prefix = ids[0].split("-")[0]
        assert ids == [f"{prefix}-{i}" for i in range(1, len(ids) + 1)], f"{path.name}: rules not numbered 1..n"


@pytest.mark.parametrize("seeds_file", SEEDS, ids=lambda p: p.name)
def test_every_numbered_rule_is_named_by_a_test(seeds_file):
    tests_text = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py") if p.name != "test_project.py")
    missing = [r for r in _rule_ids(seeds_file) if not re.search(rf"\b{re.escape(r)}\b", tests_text)]
    assert not missing, f"rules with no test naming them: {missing}"


def _lesson_paths() -> list[Path]:
    return sorted(p for p in (ROOT / "lessons").rglob("*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts and "_build" not in p.parts)  # the site's executed copies


def _committed_lessons() -> dict[str, str]:
    """Each lesson as git stores it (`git show :path`, the index: what the next commit holds),
    so a lesson run and saved in `make lab-edit` does not count until it is added. Outside a
    git checkout (an unpacked archive) the files themselves are what is shipped."""
    git = ["git", "-C", str(ROOT)]
    listed = subprocess.run(git + ["ls-files", "-z", "--", "lessons"], capture_output=True)
    if listed.returncode:
        return {str(p.relative_to(ROOT)): p.read_text() for p in _lesson_paths()}
    names = [n for n in listed.stdout.decode().split("\0")
             if n.endswith(".ipynb") and "/_build/" not in n and ".ipynb_checkpoints" not in n]
    return {n: subprocess.run(git + ["show", f":{n}"], capture_output=True, text=True, check=True).stdout
            for n in names}


def test_notebooks_are_committed_without_outputs():
    committed = _committed_lessons()
    assert committed, "no lessons in git"
    dirty = []
    for name, text in committed.items():
        cells = json.loads(text)["cells"]
        if any(c.get("outputs") or c.get("execution_count") for c in cells if c["cell_type"] == "code"):
            dirty.append(name)
    assert not dirty, f"outputs committed in {dirty}: `make git-filter` strips them at `git add` (then add again)"


# ipykernel's own spec: JupyterLab writes it into a notebook it opens, so a lesson that carries
# it exactly is unchanged by being opened, run and saved (make lab-edit).
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def test_every_lesson_opens_with_the_python3_kernel():
    """Issue 15: a lesson names its kernel, so JupyterLab starts it without a "Select Kernel" dialog."""
    wrong = {}
    for nb in _lesson_paths():
        spec = json.loads(nb.read_text()).get("metadata", {}).get("kernelspec", {})
        if spec != KERNELSPEC:
            wrong[nb.name] = spec
    assert _lesson_paths() and not wrong, f"set metadata.kernelspec to {KERNELSPEC} in {wrong}"


def test_the_kernelspec_is_the_one_the_venv_installs():
    from ipykernel.kernelspec import get_kernel_dict

    spec = get_kernel_dict()
    assert {"display_name": spec["display_name"], "language": spec["language"]} == {
        k: KERNELSPEC[k] for k in ("display_name", "language")}


def _make(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """This tree's Makefile, run in `cwd`, against the venv running the tests (never reinstalled)."""
    venv = Path(sys.prefix)
    return subprocess.run(["make", "-s", "-f", str(ROOT / "Makefile"), "-C", str(cwd), f"VENV={venv}",
                           "-o", str(venv / ".meeple-installed"), *args],
                          capture_output=True, text=True, timeout=300)


def test_the_git_filter_stores_lessons_without_outputs(tmp_path):
    """`make lab-edit`'s filter: a teacher runs a lesson and saves it; git sees no change, and
    `git add` of a real edit stores it without outputs, counts or the kernel's version."""
    lesson = _lesson_paths()[0]
    repo = tmp_path / "clone"
    (repo / "lessons").mkdir(parents=True)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(git + ["init", "-q"], check=True)
    (repo / "lessons" / ".gitattributes").write_text((ROOT / "lessons" / ".gitattributes").read_text())
    target = repo / "lessons" / lesson.name
    target.write_text(lesson.read_text())
    done = _make("git-filter", cwd=repo)
    assert done.returncode == 0, done.stderr
    subprocess.run(git + ["add", "lessons"], check=True)  # each filter run costs a Python start: few of them
    subprocess.run(git + ["commit", "-q", "-m", "lesson"], check=True)

    nb = json.loads(lesson.read_text())
    nb["metadata"]["language_info"] = {"name": "python", "version": "3.11.2"}
    nb["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    for i, cell in enumerate(c for c in nb["cells"] if c["cell_type"] == "code"):
        cell["execution_count"] = i + 1
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["ran\n"]}]
        cell["metadata"]["execution"] = {"iopub.status.idle": "2026-11-30T17:00:00Z"}
    target.write_text(json.dumps(nb, indent=2))  # not even nbformat's layout
    # Until `git add`, git may list the file (its size changed); adding it stores nothing new.
    subprocess.run(git + ["add", "lessons"], check=True)
    status = subprocess.run(git + ["status", "--porcelain"], capture_output=True, text=True, check=True).stdout
    assert status == "", f"a run and saved lesson is a change to commit:\n{status}"

    nb["cells"].append({"cell_type": "markdown", "id": "added", "metadata": {}, "source": ["A new paragraph."]})
    target.write_text(json.dumps(nb, indent=2))
    subprocess.run(git + ["add", "lessons"], check=True)
    staged = json.loads(subprocess.run(git + ["show", f":lessons/{lesson.name}"], capture_output=True,
                                       text=True, check=True).stdout)
    assert staged["cells"][-1]["source"] == ["A new paragraph."]
    assert all(not c.get("outputs") and not c.get("execution_count") for c in staged["cells"] if c["cell_type"] == "code")
    assert "language_info" not in staged["metadata"] and "widgets" not in staged["metadata"]


def test_rules_import_without_jupyter():
    code = (
        "import sys, meeple.rules\n"
        "bad = [m for m in ('IPython', 'ipywidgets', 'anywidget', 'altair', 'pandas', 'jupyterlab') if m in sys.modules]\n"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_readme_starts_with_the_two_commands():
    head = (ROOT / "README.md").read_text().split("\n## ")[0]
    assert "make lab" in head and "make test" in head


def test_widget_assets_are_local_files():
    """Nothing loads from a CDN: no http(s) URLs in widget JS/CSS/SVG. An XML namespace
    (`xmlns="http://www.w3.org/2000/svg"`) is a name, never fetched, so it is the one exception."""
    # The vendored vega-embed bundle (vl-convert's) names a few addresses it never fetches: XML
    # namespaces, the Vega spec's $schema id, a link in an error text, and the Vega Editor link
    # that only its "actions" menu shows (every embed here passes actions: false, checked below).
    names = {"http://www.w3.org/1999/xlink", "http://www.w3.org/2000/svg", "http://www.w3.org/2000/xmlns/",
             "https://vega.github.io/schema/vega/v6.json", "https://github.com/vega/vega-lite/issues/2415",
             "https://vega.github.io/editor/"}
    for f in (ROOT / "widgets" / "static").glob("*"):
        text = re.sub(r'xmlns(:\w+)?="http://www\.w3\.org/[\w/.]+"', "", f.read_text())
        text = re.sub(r"http://localhost:\d+", "", text)  # loopback, in a message telling the reader how to serve the site
        if f.name == "vega-embed.js":
            for url in names:
                text = text.replace(url, "")
        assert not re.search(r"https?://", text), f"{f.name} loads from the network"
    for f in ("panel.js", "explorer.js"):
        calls = re.findall(r"embed\w*\([^;]*?\{([^}]*)\}", (ROOT / "widgets" / "static" / f).read_text())
        assert calls and all("actions: false" in c for c in calls), f"{f}: an embed shows vega-embed's actions menu"


# tests/machine.py: what `make test` sets up before pytest (issue 9, "Fresh machine").
MACHINE = ROOT / "tests" / "machine.py"


def _machine(tmp_path: Path, bindir: Path, *needs: str, **env: str) -> subprocess.CompletedProcess:
    """tests/machine.py with PATH = `bindir` alone: no chromium, apt-get, sudo or npm unless put there,
    and Playwright's browser folder empty with its download host refusing connections."""
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused at once
    env = {"HOME": str(tmp_path), "PATH": str(bindir), "PLAYWRIGHT_BROWSERS_PATH": str(tmp_path / "pw"),
           "PLAYWRIGHT_DOWNLOAD_HOST": f"http://127.0.0.1:{closed.getsockname()[1]}", **env}
    try:
        return subprocess.run([sys.executable, str(MACHINE), *needs], env=env, capture_output=True, text=True,
                              timeout=600)
    finally:
        closed.close()


def _script(path: Path, body: str) -> Path:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def test_make_test_stops_with_one_line_when_no_browser_can_be_installed(tmp_path):
    """No Chromium, no apt-get, no sudo, and Playwright's download fails: one line naming the command.
    A chromium-browser that does not run (Ubuntu's wrapper without its snap) is not taken."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    _script(bindir / "chromium-browser", "echo 'requires the chromium snap' >&2; exit 1\n")
    done = _machine(tmp_path, bindir, "chromium")
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("make needs Chromium") and f"`{sys.executable} -m playwright install chromium`" in lines[0]
    assert done.stdout == ""


def test_npm_missing_and_not_installable_is_one_line(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    done = _machine(tmp_path, bindir, "npm")
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "npm (Node.js)" in done.stderr and "Node.js 18 or newer" in done.stderr


def test_a_chromium_on_path_is_found_and_nothing_installed(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    _script(bindir / "chromium", 'echo "Chromium 1.0"\n')
    _script(bindir / "apt-get", f'echo "$@" >> {tmp_path}/apt.log; exit 1\n')
    done = _machine(tmp_path, bindir, "chromium")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert not (tmp_path / "apt.log").exists()


def test_meeple_chromium_names_the_browser_and_a_bad_one_is_one_line(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    good = _script(tmp_path / "my-chrome", 'echo "Chrome 1.0"\n')
    assert _machine(tmp_path, bindir, "chromium", MEEPLE_CHROMIUM=str(good)).returncode == 0
    done = _machine(tmp_path, bindir, "chromium", MEEPLE_CHROMIUM=str(tmp_path / "nowhere"))
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert f"MEEPLE_CHROMIUM={tmp_path / 'nowhere'} does not run" in done.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="apt-get is tried only as root or with passwordless sudo")
def test_as_root_chromium_comes_from_apt_get(tmp_path):
    """apt-get update, then apt-get install chromium; the browser it installed is then found."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    apt = bindir / "apt-get"
    apt.write_text(f"#!{sys.executable}\n"
                   "import pathlib, sys\n"
                   f"log, chromium = pathlib.Path({str(tmp_path / 'apt.log')!r}), pathlib.Path({str(bindir / 'chromium')!r})\n"
                   "log.open('a').write(' '.join(sys.argv[1:]) + '\\n')\n"
                   "if 'install' in sys.argv:\n"
                   "    chromium.write_text('#!/bin/sh\\necho Chromium 2.0\\n'); chromium.chmod(0o755)\n")
    apt.chmod(0o755)
    done = _machine(tmp_path, bindir, "chromium")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "apt.log").read_text().splitlines() == ["update -qq", "install -y -qq chromium"]


@pytest.mark.skipif(os.geteuid() != 0, reason="apt-get is tried only as root or with passwordless sudo")
def test_as_root_a_failing_apt_get_ends_in_the_apt_command(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    _script(bindir / "apt-get", f'echo "$@" >> {tmp_path}/apt.log; exit 100\n')
    done = _machine(tmp_path, bindir, "chromium", "npm")
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert lines[0].startswith("machine: installing chromium with apt-get")
    assert lines[-1].startswith("make needs Chromium") and "`apt-get install -y chromium`" in lines[-1]
    assert len(lines) == 2, done.stderr  # the attempt, then the one line; npm is not reached
