"""The README's examples run as written (issue 15, item 3), and the design notes' too (issue 39
moved most of the README there, lessons/design_notes.md: a page of the course site).

Every ```python and ```sh block of README.md and the design notes is run, in order, in a scratch copy of the
repository (its tracked and new files, with `.venv` linked to the venv running the tests),
so a reader who pastes the blocks at the top of a fresh clone gets what the README promises:

- a python block runs top to bottom in one fresh interpreter; a top-level expression whose
  comment is a literal (`state.events[-1]  # 'Player 1 plays ...'`) must give that repr, where
  `...` stands for anything;
- an sh block runs in bash with `set -e`, in the copy's top folder; `make ...` lines are
  left out (`make test` is this very run; `make lab` opens a browser);
- whatever a block writes must be ignored by the repository's .gitignore (e.g. under out/),
  so following the README never leaves untracked files.

The blocks that play many games run a second time on a machine made slow: a patched
clock (`sitecustomize` on PYTHONPATH) that moves a second at every read meeple's own code
makes, so no game ever finishes within a time limit and every timing decision takes its
slow path (issue 19); each of them must read that clock, or the check would prove nothing.

A block that truly cannot run here (it needs a cluster) carries the line
`<!-- readme-test: skip (reason) -->` just before it; the skip and its reason are reported.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = (README, ROOT / "lessons" / "design_notes.md")  # read top to bottom, in this order
FENCE = re.compile(r"^(\s*)```\s*([\w+-]*)\s*$")
SKIP = re.compile(r"^\s*<!--\s*readme-test:\s*skip\s*\((?P<reason>[^)]+)\)\s*-->\s*$")
RUN = {"python": "python", "py": "python", "sh": "sh", "bash": "sh", "shell": "sh"}
DEADLINE_S = 600  # outer limit for one block on a loaded machine; README sizes keep each to seconds

# Runs a python block statement by statement (stdin: the code; argv[1]: its first line in the README).
RUNNER = r'''
import ast, re, sys
src = sys.stdin.read()
first, doc = int(sys.argv[1]), sys.argv[2]
tree = ast.parse(src)
lines = src.splitlines()
ns = {"__name__": "__main__"}
for node in tree.body:
    expected = None
    if isinstance(node, ast.Expr):
        rest = lines[node.end_lineno - 1].encode()[node.end_col_offset:].decode()
        m = re.match(r"\s*#\s*(['\"\[({].*?)\s*$", rest)
        if m:
            expected = m.group(1)
    if expected is None:
        exec(compile(ast.Module([node], []), doc, "exec"), ns)
        continue
    got = repr(eval(compile(ast.Expression(node.value), doc, "eval"), ns))
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    if not re.fullmatch(pattern, got, re.S):
        sys.exit(f"{doc} line {first + node.lineno - 1}: the comment shows {expected}\n"
                 f"but the code gives {got[:400]}")
'''


# The slow machine: time.perf_counter, read from a meeple module, moves a second per read (a
# count in MEEPLE_SLOW_CLOCK_LOG says it was read); every other caller gets the real clock.
SLOW_CLOCK = r'''
import os, sys, time
_real, _reads = time.perf_counter, [0]


def perf_counter():
    if sys._getframe(1).f_globals.get("__name__", "").startswith("meeple."):
        _reads[0] += 1
        with open(os.environ["MEEPLE_SLOW_CLOCK_LOG"], "a") as log:
            log.write(".")
        return _real() + _reads[0]
    return _real()


time.perf_counter = perf_counter
'''
# the blocks that play games in bulk (simulate, sweep, balance, compare, tune)
BULK = re.compile(r"\b(simulate|sweep|balance(_report)?|compare|tune)\b")


@dataclass(frozen=True)
class Block:
    line: int  # the block's first code line in its file
    lang: str  # "python" or "sh"
    code: str
    skip: str | None  # the reason given in a readme-test: skip comment
    doc: str = "README.md"  # the file it is in

    @property
    def id(self) -> str:
        return f"{self.lang}-line{self.line}" if self.doc == "README.md" else f"{Path(self.doc).stem}-{self.lang}-line{self.line}"


def readme_blocks(text: str, doc: str = "README.md") -> list[Block]:
    """The runnable fenced blocks, in order (other languages and plain ``` are left alone)."""
    lines = text.splitlines()
    blocks, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang = len(m.group(1)), m.group(2).lower()
        j = i + 1
        while j < len(lines) and not FENCE.match(lines[j]):
            j += 1
        if j == len(lines):
            raise AssertionError(f"{doc} line {i + 1}: a ``` block that never closes")
        prev = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        skip = SKIP.match(prev)
        if lang in RUN:
            code = "\n".join(line[indent:] for line in lines[i + 1:j]) + "\n"
            blocks.append(Block(i + 2, RUN[lang], code, skip.group("reason").strip() if skip else None, doc))
        i = j + 1
    return blocks


BLOCKS = [b for path in DOCS for b in readme_blocks(path.read_text(), str(path.relative_to(ROOT)))]


def _scratch(tmp_path: Path) -> Path:
    """A copy of the repository's files (tracked, and new ones not ignored) with .venv linked in."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, check=True).stdout.decode().split("\0")
    top = tmp_path / "meeple"
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file():
            (top / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, top / name)
    (top / ".venv").symlink_to(sys.prefix, target_is_directory=True)
    return top


def _files(top: Path) -> set[str]:
    found = set()
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = [d for d in dirnames if not (Path(dirpath) == top and d == ".venv")]
        found.update(str(Path(dirpath, f).relative_to(top)) for f in filenames)
    return found


def _not_ignored(paths: set[str]) -> list[str]:
    """The paths the repository's .gitignore does not ignore (they would show as untracked)."""
    if not paths:
        return []
    ignored = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "--no-index", "--stdin"],
                             input="\n".join(sorted(paths)) + "\n", capture_output=True, text=True).stdout.split()
    return sorted(paths - set(ignored))


def _sh_script(code: str) -> tuple[str, list[str]]:
    """The block as a bash script without its `make` lines (and which were left out)."""
    logical, keep, left_out = code.replace("\\\n", " ").splitlines(), [], []
    for line in logical:
        if re.match(r"^\s*make(\s|$)", line):
            left_out.append(line.strip())
        else:
            keep.append(line)
    return "set -euo pipefail\n" + "\n".join(keep) + "\n", left_out


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_the_readme_has_blocks_and_every_skip_says_why(path):
    mine = [b for b in BLOCKS if b.doc == str(path.relative_to(ROOT))]
    assert any(b.lang == "python" for b in mine) and any(b.lang == "sh" for b in mine)
    text = path.read_text()
    markers = [line for line in text.splitlines() if "readme-test" in line]
    assert all(SKIP.match(m) for m in markers), f"a readme-test marker must read <!-- readme-test: skip (reason) -->: {markers}"
    assert len(markers) == sum(1 for b in mine if b.skip), "a readme-test marker is not right before a block"


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """One scratch copy for the whole README: a reader goes top to bottom, and a later block
    may use what an earlier one wrote (a variant file, a record)."""
    return _scratch(tmp_path_factory.mktemp("readme"))


def _run_block(block: Block, top: Path, env: dict) -> subprocess.CompletedProcess:
    if block.lang == "python":
        done = subprocess.run([sys.executable, "-c", RUNNER, str(block.line), block.doc], input=block.code, cwd=top, env=env,
                              capture_output=True, text=True, timeout=DEADLINE_S)
    else:
        script, left_out = _sh_script(block.code)
        if not re.sub(r"(?m)^\s*(#.*)?$", "", script.replace("set -euo pipefail", "")).strip():
            pytest.skip(f"{block.doc} line {block.line}: only make commands ({'; '.join(left_out)}), "
                        "which the suite itself stands for")
        done = subprocess.run(["bash", "-c", script], cwd=top, env=env, capture_output=True, text=True,
                              timeout=DEADLINE_S)
    return done


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.id)
def test_readme_block_runs_as_written(block, clone):
    if block.skip:
        pytest.skip(f"{block.doc} line {block.line}: {block.skip}")
    _check_block(block, clone, {})


def _check_block(block: Block, top: Path, extra_env: dict) -> None:
    before = _files(top)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "Agg", **extra_env}
    done = _run_block(block, top, env)
    assert done.returncode == 0, (f"{block.doc} block at line {block.line} failed:\n{block.code}\n"
                                  f"--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}")
    left = _not_ignored(_files(top) - before)
    assert not left, (f"{block.doc} block at line {block.line} leaves files git would list as untracked: {left} "
                      "(write examples under out/, which .gitignore ignores)")


SLOW_BLOCKS = [b for b in BLOCKS if not b.skip and BULK.search(b.code)]


def test_the_slow_machine_check_covers_the_blocks_that_play_in_bulk():
    assert len(SLOW_BLOCKS) >= 3 and {b.lang for b in SLOW_BLOCKS} == {"python", "sh"}


@pytest.mark.parametrize("block", SLOW_BLOCKS, ids=lambda b: b.id)
def test_readme_block_runs_on_a_slow_machine(block, clone, tmp_path):
    """The same block with meeple's clock moving a second at every read (issue 19: the probe
    that divided by the games finished in time, when none had)."""
    (tmp_path / "sitecustomize.py").write_text(SLOW_CLOCK)
    log = tmp_path / "clock-reads"
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    _check_block(block, clone, {"PYTHONPATH": path, "MEEPLE_SLOW_CLOCK_LOG": str(log)})
    assert log.exists() and log.read_text(), f"{block.doc} block at line {block.line} never read the slow clock"


def test_the_local_cluster_block_runs_as_a_script(clone, tmp_path):
    """Pasted into a file and run (`python example.py`), where dask's spawned workers import the
    script again: the block's `if __name__ == "__main__":` guard is what lets it run (issue 19)."""
    block = next(b for b in BLOCKS if "LocalCluster(" in b.code and not b.skip)
    script = tmp_path / "cluster_example.py"
    script.write_text(block.code)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, str(script)], cwd=clone, env=env, capture_output=True, text=True,
                          timeout=DEADLINE_S)
    assert done.returncode == 0, f"--- stdout\n{done.stdout[-2000:]}\n--- stderr\n{done.stderr[-3000:]}"


def _prose_calls(text: str) -> list[str]:
    """The calls the README's prose names in `inline code` (fenced blocks run above)."""
    prose, inside = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
        elif not inside:
            prose.append(line)
    spans = (" ".join(s.split()) for s in re.findall(r"`([^`]+)`", "\n".join(prose)))
    return [s for s in spans if re.match(r"^[A-Za-z_][\w.]*\(", s)]


# Names the prose uses for what a reader has at hand there; a call on anything else (pandas, pyodide,
# a builtin, a method named alone) is not meeple's to check.
def _names() -> dict:
    import meeple.rules
    import meeple.widgets
    from meeple.rules import bucket_brigade, simulate, workbench
    from meeple.rules.chance import Chance
    from meeple.course import exercises
    from meeple.widgets import charts

    return {"meeple": sys.modules["meeple"], "Config": bucket_brigade.Config, "charts": charts,
            "Explorer": meeple.widgets.Explorer, "check": exercises.check, "say": exercises.say,
            "determinize": bucket_brigade.determinize, "new_game": bucket_brigade.new_game, "simulate": simulate,
            "compare": workbench.compare, "tune": workbench.tune, "Chance": Chance,
            "res": simulate("duck-duck-bruce", None, "heuristic", games=20, seed=1, workers=1, progress=False),
            "game": "duck-duck-bruce", "path": None}


NOT_OURS = ("pandas.", "pyodide.", "mo.", "sum(", "close(")  # mo: marimo


def test_every_call_the_readme_names_exists_and_the_plain_ones_run():
    """Each `name(...)` of the prose resolves as written (issue 19: `meeple.rules.simulate.measures`
    named the function `simulate`'s attribute); one with literal arguments, or `game`, also runs."""
    import ast

    text = "\n".join(path.read_text() for path in DOCS)
    calls = [c for c in _prose_calls(text) if not c.startswith(NOT_OURS)]
    assert 'res.summary(["steals_tried", "turns"])' in calls and len(calls) >= 12, calls
    ns = _names()
    for line in re.findall(r"`((?:from \S+ )?import [^`]+)`", " ".join(text.split())):  # the imports it shows
        exec(line, {}, ns)
    ran = []
    for call in calls:
        callee = call.split("(", 1)[0]
        try:
            target = eval(callee, {}, ns)  # a dotted name only (checked by the match above)
        except AttributeError as e:
            raise AssertionError(f"README names {call}, but {callee} does not exist: {e}") from None
        assert callable(target), f"README names {call}, but {callee} is not callable"
        try:
            node = ast.parse(call, mode="eval").body
        except SyntaxError:
            continue  # a signature sketch: `new_game(..., turn_end=f)`
        args = [*node.args, *(k.value for k in node.keywords)]
        plain = all(isinstance(a, ast.Constant) and a.value is not Ellipsis or isinstance(a, (ast.List, ast.Tuple))
                    and all(isinstance(e, ast.Constant) for e in a.elts) or isinstance(a, ast.Name) and a.id == "game"
                    for a in args)
        # a widget plays games (and its methods need one made); a check needs an answer; site_mode()
        # switches every later Explorer of this process to the site build's (it is named, not run)
        if plain and callee.split(".")[0] not in ("Explorer", "check") and callee.split(".")[-1] != "site_mode":
            eval(call, {}, ns)
            ran.append(call)
    assert "measures(game)" in ran and 'res.summary(["steals_tried", "turns"])' in ran, ran


FLAG_DOCS = (README, *sorted((ROOT / "lessons").glob("*.md")))  # the teacher's guide and the command reference too
MEEPLE_CALL = re.compile(r"meeple[ \t]+([a-z][\w-]*)((?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s`|;&)]+))*)")
PROSE = {"or", "and", "then"}  # "meeple report or compare --report": a sentence, not one command


def _subcommands(parser) -> dict:
    import argparse

    return next((a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction)), {})


def test_every_meeple_flag_the_docs_name_exists():
    """The teacher's guide told teachers to run `meeple answers --class` ("unrecognized arguments:
    --class"): every `meeple COMMAND [SUBCOMMAND] ... --flag` in README.md and lessons/*.md names an
    option that command's --help lists."""
    from meeple.rules.cli import build_parser

    commands = _subcommands(build_parser())
    seen, wrong = 0, []
    for doc in FLAG_DOCS:
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for m in MEEPLE_CALL.finditer(line):
                if m.group(1) not in commands:
                    continue  # "meeple package", "meeple teaches": prose
                parser, words = commands[m.group(1)], m.group(2).split()
                inner = _subcommands(parser)
                if words and words[0] in inner:
                    parser = inner[words[0]]
                options = {o for a in parser._actions for o in a.option_strings}
                for word in words:
                    if word in PROSE:
                        break
                    flag = word.split("=")[0].rstrip(".,:`)")
                    if flag.startswith("--") and flag != "--":
                        seen += 1
                        if flag not in options:
                            wrong.append(f"{doc.relative_to(ROOT)} line {n}: meeple {m.group(1)} {flag}")
    assert seen >= 20 and not wrong, wrong
