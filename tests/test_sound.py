"""Sound under load and attack (issue 19): a busy machine, a huge seed, a Ctrl-C, an unwritable --out.

Every place where the clock decides something in rules/ and widgets/ is run here under a
patched clock, so none of these tests depends on how busy the machine is:

- simulate.py `_short_run` / `_play_here(until=...)`: the probe that decides whether a run
  without `workers` stays in this process or goes to the pool (a clock that jumps past the
  probe before any game ends, one that jumps after the first game, one that stands still);
- simulate.py `_worker_init`'s parent watch (`time.sleep` between looks at the parent id):
  run with `sleep` doing nothing, so only the parent id decides.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from meeple.rules import sim as SIM
from meeple.rules.sim import runner as RUNNER  # the runner: its clock, pool and play_game are patched below
from meeple.rules import GAMES, play, replay
from procs import alive, children, cpu_ticks, needs_proc, wait_for  # tests/procs.py: the /proc harness test_edges.py shares

BB = "bucket-brigade"
MEEPLE = [sys.executable, "-m", "meeple.rules.cli"]


class JumpingClock:
    """perf_counter that moves only when read: by `steps[k]` seconds at the k-th read (the last step repeats)."""

    def __init__(self, *steps: float):
        self.now, self.steps, self.reads = 1000.0, list(steps), 0

    def __call__(self) -> float:
        step = self.steps[min(self.reads, len(self.steps) - 1)]
        self.reads += 1
        self.now += step
        return self.now


def _job(games: int, bots="random"):
    mod = GAMES[BB]
    config = mod.Config()
    return RUNNER.Job(0, mod, config, RUNNER.bot_refs(mod, bots, config.players), 1, games, False)


# --- item 1: the probe, at any speed ------------------------------------------------

@pytest.mark.parametrize(
    "steps, here, played",
    [
        ((0.0, 1.0), False, 0),        # time is up before the first game: the "no game yet" path
        ((0.0, 0.0, 1.0), False, 1),   # one game in a second: the rest would take long, a pool pays
        ((0.0,), True, 40),            # a clock that stands still: all here (the rest "takes no time")
        ((0, 0, .01, .01, .01, .01, .01, 0), True, 40),  # 5 games in 50 ms: 35 more take 0.35 s < 0.4 s: here
    ],
    ids=["no-game-yet", "one-slow-game", "clock-stands-still", "fast-enough"],
)
def test_the_probe_decides_without_dividing_by_zero_at_any_speed(monkeypatch, steps, here, played):
    clock = JumpingClock(*steps)
    monkeypatch.setattr(RUNNER.time, "perf_counter", clock)
    job = _job(40)
    out, start = {0: []}, {0: 0}
    assert RUNNER._short_run([job], out, start, RUNNER.NoBar(), 40) is here
    assert start[0] == len(out[0]) == played


def test_a_run_whose_probe_sees_no_game_gives_the_same_table(monkeypatch):
    """The clock jumps a second at every read (a machine made very slow): `simulate` without
    `workers` used to raise ZeroDivisionError; now the pool plays it, and the table is the
    one a single process gives."""
    alone = SIM.simulate(BB, None, "random", games=12, seed=5, workers=1, progress=False).table
    clock = JumpingClock(1.0)
    monkeypatch.setattr(RUNNER.time, "perf_counter", clock)
    slow = SIM.simulate(BB, None, "random", games=12, seed=5, progress=False).table
    assert clock.reads >= 1 and slow.equals(alone)


def test_the_parent_watch_ends_a_worker_by_the_parent_id_not_by_time(tmp_path):
    """The watch sleeps between looks; with sleep doing nothing the worker still ends
    exactly when its parent is gone (and not before)."""
    script = (
        "import os, time, threading\n"
        "from meeple.rules.sim import runner as SIM\n"
        "parent = os.getppid(); looks = [0]\n"
        "def ppid():\n"
        "    looks[0] += 1\n"
        "    return parent if looks[0] < 50 else 1\n"  # the parent 'goes' at the 50th look
        "SIM.os.getppid = ppid\n"
        "SIM.time.sleep = lambda s: None\n"
        "SIM._worker_init(parent, False)\n"
        "while True: threading.Event().wait(0.01)\n"  # the watch thread must end the process
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr


# --- item 2: Ctrl-C stops the running chunks ------------------------------------------

@needs_proc
@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", BB, "--bots", "lookahead", "--games", "1000", "--workers", "2"],
        ["tune", BB, "--field", "bonus", "--measure", "ender_win_rate", "--target", "0.5", "--values", "2..8",
         "--bisect", "--games", "1000", "--bots", "lookahead", "--workers", "2"],
    ],
    ids=["simulate", "tune-bisect"],
)
def test_ctrl_c_stops_the_running_chunks_and_leaves_no_worker(argv):
    """Each worker is inside a chunk of 125 lookahead games (minutes of work) when Ctrl-C
    comes: the command ends well within 30 s with 130 and "interrupted", and no worker is left."""
    proc = subprocess.Popen(MEEPLE + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # its own process group, as a terminal's job
    workers: set[int] = set()
    try:
        workers = wait_for(lambda: len(children(proc.pid)) >= 2 and children(proc.pid), 120, "two workers start")
        # both are playing (they have used CPU beyond their start-up): the chunks are running
        wait_for(lambda: all(cpu_ticks(w) > 150 for w in workers), 120, "both workers play")
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole group
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            raise AssertionError("the command was still running 30 s after Ctrl-C") from None
        assert proc.returncode == 130, (proc.returncode, err)
        assert "interrupted" in err and "Traceback" not in err, err
        wait_for(lambda: not any(alive(w) for w in workers), 10, f"workers {sorted(workers)} end")
    finally:  # a failing run must not leave orphans behind: end them by the ids seen
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for w in workers:
            if alive(w):
                os.kill(w, signal.SIGKILL)


def test_an_interrupted_pool_is_made_afresh_for_the_next_run():
    """After a Ctrl-C killed the shared pool's workers, the next run (and the Explorer's
    background, which asks shared_pool at each submit) gets a working pool."""
    pool = RUNNER.shared_pool(2)
    pool.submit(int, "1").result()
    RUNNER.drop_pool(wait=False, kill=True)
    assert RUNNER._POOL[0] is None
    res = SIM.simulate(BB, None, "random", games=8, seed=2, workers=2, progress=False)
    assert res.completed == 8 and RUNNER._POOL[0] is not pool


# --- item 3: every seed the checker accepts plays ----------------------------------------

# (the huge seeds' draws and games: tests/test_chance.py)


def test_a_stepper_restart_with_a_huge_seed_is_a_whole_new_game():
    from meeple.widgets.session import StepperSession

    s = StepperSession(BB, None, seed=3, bots="random", seat=0)
    s.act(s.view["actions"][0])
    s.handle({"do": "restart", "seed": 2**130})
    assert s.error == "" and s.seed == 2**130 and s.actions == [] and s.setup()["seed"] == 2**130
    s.act(s.view["actions"][0])
    rec = s.record()
    assert rec.seed == 2**130 and replay(rec.to_json()) == rec
    again = StepperSession.from_setup(s.setup())
    assert again.view == StepperSession(BB, None, seed=2**130, bots="random", seat=0).view
    # a seed the checker refuses changes nothing
    s.handle({"do": "restart", "seed": -1})
    assert "seed must be a whole number" in s.error and s.seed == 2**130 and len(s.actions) == 1


# --- item 5: --out is checked before playing; the summary comes before the file ---------------

from meeple.rules import cli as CLI
from meeple.rules.cli import common as SIM_CLI  # where save_table writes
from meeple.rules.cli import game as GAME_CLI  # where `meeple play` plays
from meeple.rules.cli.common import CliError


def _refuse_folder(monkeypatch, folder: Path):
    """The folder refuses new files (a read-only folder; chmod would not stop root, who runs CI here)."""
    real = tempfile.mkstemp

    def mkstemp(*args, dir=None, **kwargs):
        if dir is not None and Path(dir).resolve() == folder.resolve():
            raise PermissionError(13, "Permission denied")
        return real(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", BB, "--games", "20000", "--out", "ro/t.csv"],
        ["sweep", BB, "--vary", "bonus=0,3", "--games", "20000", "--out", "ro/t.csv"],
        ["balance", BB, "--games", "20000", "--out", "ro/t.json"],
        ["compare", BB, "--variant", "base:", "--variant", "b6:bonus=6", "--games", "20000", "--out", "ro/t.csv"],
        ["tune", BB, "--field", "bonus", "--measure", "ender_win_rate", "--target", "0.5", "--values", "2..4",
         "--games", "20000", "--out", "ro/t.csv"],
        ["play", BB, "--record", "ro/game.json"],
    ],
    ids=lambda a: a[0],
)
def test_an_unwritable_out_is_one_line_before_any_game(capsys, tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ro").mkdir()
    _refuse_folder(monkeypatch, tmp_path / "ro")
    played = []
    monkeypatch.setattr(RUNNER, "play_game", lambda *a, **k: played.append(a) or pytest.fail("a game was played"))
    monkeypatch.setattr(GAME_CLI, "play", lambda *a, **k: pytest.fail("a game was played"))
    code = CLI.main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and not played, (code, out, err)
    assert err.count("\n") == 1 and err.startswith("meeple: error: cannot write ro/") and "Permission denied" in err, err
    assert list((tmp_path / "ro").iterdir()) == []  # the probe file is gone again


@pytest.mark.parametrize(
    "argv, summary",
    [
        (["simulate", BB, "--games", "6", "--workers", "1", "--out", "t.csv"], "Win rate"),
        (["sweep", BB, "--vary", "bonus=0,3", "--games", "4", "--workers", "1", "--out", "t.csv"], "win rate"),
        (["balance", BB, "--games", "6", "--workers", "1", "--out", "t.json"], "Seat advantage"),
    ],
    ids=lambda a: a[0] if isinstance(a, list) else "",
)
def test_the_summary_is_printed_before_the_file_is_written(capsys, tmp_path, monkeypatch, argv, summary):
    """A write that fails after the games (a disk that filled meanwhile) still leaves the summary on screen."""
    monkeypatch.chdir(tmp_path)

    def full_disk(path, data):
        raise CliError(f"cannot write {path}: No space left on device")

    monkeypatch.setattr(SIM_CLI, "write_atomic", full_disk)
    code = CLI.main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and summary in out, (code, out, err)
    assert err == f"meeple: error: cannot write {argv[-1]}: No space left on device\n"


# --- item 6: the smaller ones -------------------------------------------------------------

def test_python_simulate_draws_no_bar_into_a_log_file(capsys):
    """stderr is not a terminal here (pytest captures it, as a log file would): no bar in it."""
    SIM.simulate(BB, None, "random", games=30, seed=1, workers=1)
    SIM.sweep(BB, None, {"bonus": [0, 3]}, "random", games=5, seed=1, workers=1)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "argv, message",
    [
        (["play", BB, "--set", "bonus=3", "--set", "bonus=4"], "bonus is set twice (bonus=3 and bonus=4): give each name once"),
        (["compare", BB, "--variant", "base:", "--variant", "a:bonus=3,bonus=4"], "--variant a: bonus is set twice"),
        (["tune", BB, "--field", "bonus", "--measure", "ender_win_rate", "--target", "0.5", "--values", "٣..٥"],
         "--values must be whole numbers"),
        (["tune", BB, "--field", "bonus", "--measure", "ender_win_rate", "--target", "٠.5", "--values", "3..4"],
         "--target must be a number"),
        (["simulate", BB, "--games", "٣"], "--games must be a whole number"),
        (["play", BB, "--seed", "1_0"], "--seed must be a whole number"),
        (["play", BB, "--config", "out/a\nb.toml"], "cannot read out/a\\nb.toml: No such file or directory (looked in "),
        (["replay", "a\nb.json"], "cannot read a\\nb.json"),
        (["simulate", BB, "--out", "no\ndir/t.csv"], "cannot write no\\ndir/t.csv"),
    ],
    ids=["set-twice", "variant-twice", "values-arabic-digits", "target-arabic-digits", "games-arabic-digits",
         "seed-underscore", "variant-relative-newline", "replay-newline", "out-newline"],
)
def test_one_rule_and_one_line_for_odd_command_input(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    code = CLI.main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, (code, out, err)
    if "looked in" in message:
        assert f"(looked in {tmp_path})" in err


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_a_5000_digit_number_in_a_variant_file_is_named_with_the_file(tmp_path, suffix):
    from meeple.rules import bucket_brigade as bb

    path = tmp_path / f"huge{suffix}"
    big = "9" * 5000
    path.write_text(f'{{"game": "bucket-brigade", "set": {{"bonus": {big}}}}}' if suffix == ".json"
                    else f'game = "bucket-brigade"\n[set]\nbonus = {big}\n')
    with pytest.raises(ValueError) as e:
        bb.Config.load(path)
    assert str(e.value).startswith(f"{path}: holds a number of more than 4,300 digits") and "\n" not in str(e.value)


def test_api_refusals_are_value_errors_that_say_what_is_allowed():
    from meeple.rules import bucket_brigade as bb
    from meeple.widgets import live

    cases = [
        (lambda: bb.Config.from_dict({1: 2}), "config field names are text; got 1 (int); allowed: players"),
        (lambda: SIM.simulate(BB, None, "random", games=4, seed=1, executor=object(), progress=False),
         "executor must be a concurrent.futures.Executor"),
        (lambda: SIM.simulate(BB, None, None, games=4, seed=1, progress=False), "bots must be bot names"),
        (lambda: play(BB, None, None, 1), "bots must be bot names"),
        (lambda: live.stepper_do(10**6, "{}"), "no live Stepper has id 1000000"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            call()


def test_an_openspiel_action_out_of_range_is_a_value_error():
    mo = pytest.importorskip("meeple.rules.openspiel", reason="OpenSpiel is the optional extra meeple[openspiel]")
    state = mo.load(BB).new_initial_state()
    with pytest.raises(ValueError, match="chance outcome 5000 is not one of the"):
        state.apply_action(5000)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    n = len(state.legal_actions())
    with pytest.raises(ValueError, match=f"action {n + 7} is not legal here: the legal ids are 0 to {n - 1}"):
        state.apply_action(n + 7)


def test_the_stepper_quotes_a_short_prefix_of_a_huge_action_text():
    from meeple.widgets.session import StepperSession

    s = StepperSession(BB, None, seed=3, bots="random", seat=0)
    s.handle({"do": "act", "action": "x" * 1_000_000})
    assert "is not legal here" in s.error and "(1,000,000 characters)" in s.error and len(s.error) < 2000


def test_ctrl_c_while_the_command_starts_is_one_line_and_130(tmp_path):
    """SIGINT arrives while `meeple` still imports its games (a sitecustomize sends it then)."""
    (tmp_path / "sitecustomize.py").write_text(
        "import os, signal, sys\n"
        "class _Finder:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'meeple.rules.bucket_king':\n"
        "            os.kill(os.getpid(), signal.SIGINT)\n"
        "        return None\n"
        "sys.meta_path.insert(0, _Finder())\n")
    script = Path(sys.executable).parent / "meeple"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([str(script), "rules", BB], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 130 and done.stderr == "meeple: interrupted\n" and done.stdout == "", done
