"""The edges a user meets first (issue 9): files, interrupts, pipes, odd input.

Sections are headed by the issue item they hold (9.1, 15.4, ...); the tests run in
seconds (a few dozen small games at most; the worker-death test starts one real `meeple`).
Filed by module elsewhere: 9.9 (the Python API's refusals) in test_protocol.py, 15.5 and
15.6 (parameters and measures name their rules) in test_seeds.py.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple.rules import GAMES
from meeple.rules import sim as SIM
from meeple.rules.sim import runner as RUNNER  # where a run looks play_game up (patched below)
from meeple.rules.cli.common import MAX_READ
from cli_run import one_line_error, run  # tests/cli_run.py: `meeple` in-process, its one-line errors
from procs import alive, children, needs_proc, wait_for  # tests/procs.py: the /proc harness test_sound.py shares

BB = "bucket-brigade"


def stop_after(monkeypatch, n: int):
    """play_game raises KeyboardInterrupt (a Ctrl-C) once n games have finished."""
    real, calls = RUNNER.play_game, {"n": 0}

    def play_game(*a, **k):
        if calls["n"] >= n:
            raise KeyboardInterrupt
        calls["n"] += 1
        return real(*a, **k)

    monkeypatch.setattr(RUNNER, "play_game", play_game)


# --- 9.1: an interrupted run never replaces a file with less --------------------

RUNS = {
    "simulate": ["simulate", BB, "--games", "8", "--workers", "1"],
    "sweep": ["sweep", BB, "--vary", "bonus=0,6", "--games", "4", "--workers", "1"],
    "balance": ["balance", BB, "--games", "6", "--workers", "1"],
}


@pytest.mark.parametrize("command, suffix", [("simulate", ".csv"), ("simulate", ".json"), ("simulate", ".parquet"),
                                             ("sweep", ".csv"), ("sweep", ".json"), ("balance", ".json")])
def test_ctrl_c_before_any_game_writes_nothing_and_keeps_the_old_file(capsys, tmp_path, monkeypatch, command, suffix):
    out = tmp_path / f"results{suffix}"
    out.write_text("a good table from yesterday\n")
    stop_after(monkeypatch, 0)
    code, _, err = run(capsys, *RUNS[command], "--out", out)
    assert code == 130 and err.count("\n") == 1 and "nothing written" in err and "kept" in err
    assert out.read_text() == "a good table from yesterday\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]  # no partial file, no temp file
    out.unlink()
    code, _, err = run(capsys, *RUNS[command], "--out", out)
    assert code == 130 and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_ctrl_c_after_some_games_keeps_the_old_file_and_saves_a_marked_partial_csv(capsys, tmp_path, monkeypatch, command):
    out = tmp_path / "results.csv"
    out.write_text("a good table from yesterday\n")
    stop_after(monkeypatch, 3)
    code, stdout, err = run(capsys, *RUNS[command], "--out", out)
    assert code == 130 and "results of the 3 finished games" in err
    assert out.read_text() == "a good table from yesterday\n"
    partial = tmp_path / "results.partial.csv"
    assert f"saved to {partial} (partial: 3 of 8 games, interrupted); {out} kept as it was" in stdout
    first = partial.read_text().splitlines()[0]
    assert first == "# partial: 3 of 8 games, interrupted"  # 8 games, or 2 points x 4 games
    table = pd.read_csv(partial, comment="#")  # the documented way to read it
    if command == "simulate":
        assert sorted(set(table["game"])) == [0, 1, 2]
    else:
        assert table.drop_duplicates("point")["games"].sum() == 3


def test_a_partial_table_in_a_new_file_is_marked_in_csv_parquet_and_json(capsys, tmp_path, monkeypatch):
    for suffix in (".csv", ".parquet", ".json"):
        with pytest.MonkeyPatch.context() as mp:
            stop_after(mp, 2)
            assert run(capsys, *RUNS["simulate"], "--out", tmp_path / f"new{suffix}")[0] == 130
        assert run(capsys, *RUNS["simulate"], "--out", tmp_path / f"whole{suffix}")[0] == 0
    assert (tmp_path / "new.csv").read_text().startswith("# partial: 2 of 8 games, interrupted\n")
    assert pd.read_parquet(tmp_path / "new.parquet").attrs["partial"] == "partial: 2 of 8 games, interrupted"
    data = json.loads((tmp_path / "new.json").read_text())
    assert data["partial"] and data["completed"] == 2 and len(data["rows"]) == 2 * 4
    assert not (tmp_path / "whole.csv").read_text().startswith("#")  # a whole table reads as plain CSV
    assert pd.read_parquet(tmp_path / "whole.parquet").attrs["partial"] is False
    assert json.loads((tmp_path / "whole.json").read_text())["partial"] is False


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    finished=st.integers(0, 6),
    existing=st.sampled_from([None, "", "old,table\n1,2\n" * 40]),
    command=st.sampled_from(["simulate", "sweep"]),
    suffix=st.sampled_from([".csv", ".json"]),
)
def test_property_an_interrupted_write_never_shrinks_or_replaces_a_file(capsys, tmp_path_factory, finished, existing,
                                                                      command, suffix):
    """Whatever finished before the Ctrl-C, an existing --out file is unchanged, and a
    file appears only if a game finished (then marked partial)."""
    folder = tmp_path_factory.mktemp("out")
    out = folder / f"r{suffix}"
    if existing is not None:
        out.write_text(existing)
    with pytest.MonkeyPatch.context() as mp:
        stop_after(mp, finished)
        code, _, _ = run(capsys, *RUNS[command], "--out", out)
    assert code == 130
    if existing is not None:
        assert out.read_text() == existing
    names = sorted(p.name for p in folder.iterdir())
    written = folder / f"r.partial{suffix}" if existing is not None else out
    if finished:
        assert written.name in names
        text = written.read_text()
        assert text.startswith("# partial:") if suffix == ".csv" else json.loads(text)["partial"]
    else:
        assert names == ([out.name] if existing is not None else [])


# --- 9.2: file modes --------------------------------------------------------

@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_files_get_the_umask_mode_and_replaced_files_keep_theirs(capsys, tmp_path, umask_022):
    record, table = tmp_path / "game.json", tmp_path / "runs.csv"
    assert run(capsys, "play", BB, "--record", record)[0] == 0
    assert run(capsys, "simulate", BB, "--games", "3", "--workers", "1", "--out", table)[0] == 0
    assert _mode(record) == 0o644 and _mode(table) == 0o644
    record.chmod(0o664)
    table.chmod(0o640)
    assert run(capsys, "play", BB, "--seed", "2", "--record", record)[0] == 0
    assert run(capsys, "simulate", BB, "--games", "3", "--workers", "1", "--out", table)[0] == 0
    assert _mode(record) == 0o664 and _mode(table) == 0o640
    os.umask(0o077)
    private = tmp_path / "private.json"
    assert run(capsys, "play", BB, "--record", private)[0] == 0
    assert _mode(private) == 0o600


def test_variant_files_get_the_umask_mode_and_keep_a_replaced_files_mode(capsys, tmp_path, umask_022):
    path = tmp_path / "big.toml"
    assert run(capsys, "variant", "save", "big", "--game", BB, "--set", "bonus=6", "--out", path)[0] == 0
    assert _mode(path) == 0o644
    path.chmod(0o664)
    assert run(capsys, "variant", "save", "big", "--game", BB, "--set", "bonus=7", "--out", path)[0] == 0
    assert _mode(path) == 0o664 and "7" in path.read_text()


def test_scrub_copies_get_the_umask_mode(capsys, tmp_path, umask_022):
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "a.ipynb").write_text(json.dumps(_notebook()))
    assert run(capsys, "scrub", lessons, tmp_path / "students")[0] == 0
    assert _mode(tmp_path / "students" / "a.ipynb") == 0o644


# --- 9.6: replay reads at most MAX_READ bytes of UTF-8 --------------------------

def test_replay_refuses_non_utf8_deep_json_and_endless_files_in_one_line(capsys, tmp_path):
    bad = tmp_path / "latin1.json"
    bad.write_bytes('{"game": "bücket"}'.encode("latin-1"))
    one_line_error(*run(capsys, "replay", bad), "is not UTF-8 text")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    one_line_error(*run(capsys, "replay", deep), "nested too deeply")
    one_line_error(*run(capsys, "replay", "/dev/zero"), f"larger than {MAX_READ // 2**20} MiB")
    one_line_error(*run(capsys, "replay", tmp_path), "cannot read")


def test_replay_function_refuses_deep_json_with_a_value_error():
    from meeple.rules import replay

    with pytest.raises(ValueError, match="nested too deeply"):
        replay("[" * 200_000 + "]" * 200_000)
    with pytest.raises(ValueError, match="nested too deeply"):
        replay('{"format": "meeple-record/1", "config": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(ValueError, match="expected its JSON text"):
        replay({"format": "meeple-record/1"})
    from meeple.rules import play
    from meeple.rules.core import MAX_STEPS

    data = play(BB, None, "random", 1).to_dict()
    data["actions"] = ["red +1"] * (MAX_STEPS + 1)  # 1.2 MB: well under the CLI's 64 MiB, refused at once
    with pytest.raises(ValueError, match=f"record has {MAX_STEPS + 1:,} actions; a game ends within {MAX_STEPS:,}"):
        replay(json.dumps(data))


# --- 9.7: scrub -----------------------------------------------------------------

def _notebook(cells=None):
    cells = cells if cells is not None else [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Lesson"]},
        {"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": "x = 1", "outputs": [], "execution_count": 1},
    ]
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


@pytest.mark.parametrize(
    "content, message",
    [
        (json.dumps({"cells": 5}), "no JSON object with a 'cells' list"),
        (json.dumps([1, 2]), "no JSON object with a 'cells' list"),
        ("{not json", "not JSON"),
        (json.dumps(_notebook([5])), "cell 1 is int, not an object"),
        (json.dumps(_notebook([{"cell_type": "code", "metadata": {}}])), "cell 1 has no 'source'"),
        (json.dumps(_notebook([{"source": "x"}])), "cell 1 has no 'cell_type'"),
        (json.dumps(_notebook([{"cell_type": "code", "source": 3}])), "neither text nor a list of lines"),
        (json.dumps(_notebook([{"cell_type": "code", "source": "", "metadata": []}])), "'metadata' that is not an object"),
        (json.dumps(_notebook([{"cell_type": "code", "source": "", "metadata": {"tags": "solution"}}])),
         "'tags' that are not a list"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (b"\xff\xfe{}", "is not UTF-8 text"),
    ],
)
def test_scrub_refuses_a_malformed_notebook_in_one_line_and_writes_nothing(capsys, tmp_path, content, message):
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "a_good.ipynb").write_text(json.dumps(_notebook()))
    bad = lessons / "b_bad.ipynb"
    bad.write_bytes(content) if isinstance(content, bytes) else bad.write_text(content)
    code, out, err = run(capsys, "scrub", lessons, tmp_path / "students")
    one_line_error(code, out, err, message)
    assert "b_bad.ipynb" in err  # the message names the notebook
    assert not (tmp_path / "students").exists()


def test_scrub_refuses_bad_output_paths_in_one_line_and_writes_nothing(capsys, tmp_path):
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    for name in ("a.ipynb", "b.ipynb"):
        (lessons / name).write_text(json.dumps(_notebook()))
    a_file = tmp_path / "students.txt"
    a_file.write_text("not a folder")
    one_line_error(*run(capsys, "scrub", lessons, a_file), "it is a file, not a folder")
    one_line_error(*run(capsys, "scrub", lessons, a_file / "inside"), "cannot make the folder")
    out = tmp_path / "students"
    (out / "b.ipynb").mkdir(parents=True)  # the second copy cannot be written: the first must not be either
    one_line_error(*run(capsys, "scrub", lessons, out), "b.ipynb: it is a folder")
    assert sorted(p.name for p in out.iterdir()) == ["b.ipynb"]
    (lessons / "c.ipynb").mkdir()  # a folder named like a notebook among the lessons
    one_line_error(*run(capsys, "scrub", lessons, tmp_path / "new"), "c.ipynb")
    assert not (tmp_path / "new").exists()


# --- 9.8: pipes, limits, names ------------------------------------------------------

MEEPLE = [sys.executable, "-m", "meeple.rules.cli"]


@pytest.mark.parametrize("argv", [["play", BB, "--seed", "1"], ["simulate", BB, "--games", "4", "--workers", "1"]])
def test_a_closed_pipe_ends_quietly(argv):
    """`meeple ... | head -c 1`: the reader goes away; no BrokenPipeError, no traceback."""
    proc = subprocess.Popen(MEEPLE + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.read(1)
    proc.stdout.close()  # as head does after its byte
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert err == "" and proc.returncode in (0, 141), (proc.returncode, err)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["play", BB, "--record", ""], "--record needs a file name"),
        (["play", BB, "--record", "x" * 300 + ".json"], "longer than 255 bytes"),
        (["play", BB, "--record", "d" * 300 + "/game.json"], "cannot write"),
        (["simulate", BB, "--out", "x" * 300 + ".csv"], "longer than 255 bytes"),
        (["simulate", BB, "--out", ""], "--out must end in"),
        (["simulate", BB, "--games", "2", "--workers", "512"], "--workers must be a whole number from 1 to 64"),
        (["duel", BB, "--bot", "random", "--games", "1000000000000"], "--games must be a whole number from 1 to 10,000,000"),
        (["replay", "x" * 300 + ".json"], "cannot read"),
    ],
)
def test_bad_names_and_limits_are_one_line_before_any_game(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    one_line_error(code, out, err, message)
    assert list(tmp_path.iterdir()) == []
    assert len(err) < 250  # a 300-character name is shortened in the message


def test_workers_never_outnumber_the_games(monkeypatch):
    started = []
    real = RUNNER.ProcessPoolExecutor

    def counting(max_workers=None, **kw):
        started.append(max_workers)
        return real(max_workers, **kw)

    monkeypatch.setattr(RUNNER, "ProcessPoolExecutor", counting)
    RUNNER.drop_pool()  # the pool earlier tests left for reuse: this run must start its own
    res = SIM.simulate(BB, None, "random", games=2, seed=1, workers=8, progress=False)
    assert res.completed == 2 and started and max(started) <= 2
    with pytest.raises(ValueError, match="workers must be a whole number from 1 to 64"):
        SIM.simulate(BB, None, "random", games=2, seed=1, workers=512, progress=False)


# --- 9.3: worker processes die with the main process -----------------------------

# the pool is made in a thread that is not the main one: no PDEATHSIG, so the parent watch must do it
IN_A_THREAD = (
    "import threading; from meeple.rules import simulate; "
    "t = threading.Thread(target=simulate, args=('bucket-brigade', None, 'random', 1_000_000, 1), "
    "kwargs={'workers': 2, 'progress': False}); t.start(); t.join()"
)


@needs_proc
@pytest.mark.parametrize(
    "sig, argv",
    [(signal.SIGTERM, None), (signal.SIGHUP, None), (signal.SIGKILL, None), (signal.SIGKILL, IN_A_THREAD)],
    ids=["SIGTERM", "SIGHUP", "SIGKILL", "SIGKILL-pool-made-in-a-thread"],
)
def test_property_workers_never_outlive_the_main_process(sig, argv):
    """However the main process ends (what a kernel restart or a closed terminal does),
    its worker processes end too, within a couple of seconds."""
    cmd = MEEPLE + ["simulate", BB, "--games", "1000000", "--workers", "2"] if argv is None else [sys.executable, "-c", argv]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    try:
        workers = wait_for(lambda: len(children(proc.pid)) >= 2 and children(proc.pid), 60, "two workers start")
        # no pause here: a worker signalled before its set-up ends at set-up (the initializer is
        # given the parent's id, so it sees the orphaning), which is the case this must cover too
        proc.send_signal(sig)
        proc.wait(timeout=30)
        wait_for(lambda: not any(alive(w) for w in workers), 10, f"workers {sorted(workers)} end after {sig.name}")
    finally:  # a failing run must not leave orphans behind: end them by the ids seen
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for w in workers | children(proc.pid):
            if alive(w):
                os.kill(w, signal.SIGKILL)


# --- issue 15.4: long work shows progress and stops cleanly on Ctrl-C -------------------

def test_duel_ctrl_c_prints_the_finished_games_share_and_exits_130(capsys, monkeypatch):
    from meeple.rules.sim import balance  # head_to_head plays each game with core.play, as balance imports it

    real, calls = balance.play, {"n": 0}

    def play(*a, **k):
        if calls["n"] >= 6:
            raise KeyboardInterrupt
        calls["n"] += 1
        return real(*a, **k)

    monkeypatch.setattr(balance, "play", play)
    code, out, err = run(capsys, "duel", BB, "--bot", "heuristic", "--games", "40")
    assert code == 130 and "6 games (interrupted: 6 of 40)" in out and "win share" in out
    assert err == "meeple: interrupted: results of the 6 finished games of 40\n"
    calls["n"] = 99
    code, out, err = run(capsys, "duel", BB, "--bot", "heuristic", "--games", "40")
    assert code == 130 and out == "" and err == "meeple: interrupted: no game of 40 finished\n"


@pytest.mark.parametrize(
    "argv, bar",
    [
        (["duel", BB, "--bot", "heuristic", "--games", "3"], "heuristic vs random"),
        (["sweep", BB, "--vary", "bonus=0,3", "--games", "2", "--workers", "1"], "Bucket Brigade sweep"),
        (["balance", BB, "--games", "3", "--workers", "1"], "Bucket Brigade"),
        (["simulate", BB, "--games", "3", "--workers", "1"], "Bucket Brigade"),
        (["play", BB, "--bots", "random"], "moves"),
    ],
)
def test_every_long_command_shows_a_progress_bar_on_a_terminal(capsys, monkeypatch, argv, bar):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = run(capsys, *argv)
    assert code == 0 and bar in err and "Traceback" not in err
    assert "\r" in err or "it/s" in err or "game" in err or "moves" in err


def test_no_bar_when_stderr_is_not_a_terminal(capsys):
    code, _, err = run(capsys, "duel", BB, "--bot", "heuristic", "--games", "3")
    assert code == 0 and err == ""


def test_head_to_head_in_python_shows_progress_by_default_and_can_be_quiet(capsys, monkeypatch):
    from meeple.rules.sim import head_to_head

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # a terminal (a log file gets no bar: test_sound)

    r = head_to_head(BB, GAMES[BB].Config(), "heuristic", "random", 4, seed=1)
    assert r["games"] == 4 and "heuristic vs random" in capsys.readouterr().err
    head_to_head(BB, GAMES[BB].Config(), "heuristic", "random", 4, seed=1, progress=False)
    assert capsys.readouterr().err == ""
