"""The `meeple` command line, as a user types it (rules/cli/__init__.py, rules/cli/game.py):
play, record and replay, rules, duel; the process's edges (a closed pipe, a Ctrl-C while it
starts); and the progress bar every long command shows on a terminal.
Filed elsewhere: `simulate`/`sweep`/`balance` in test_sim_cli.py, `scrub` in test_scrub.py,
odd input in test_cli_input.py, the files commands write in test_files.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness import MEEPLE, run
from meeple.rules.cli import main
from meeple.rules.sim import balance  # head_to_head plays each game with core.play, as balance imports it

BB = "bucket-brigade"


def test_play_prints_the_game_turn_by_turn_and_the_final_scores(capsys):
    code, out, err = run(capsys, "play", "bucket-brigade", "--seed", "7", "--bots", "heuristic,random,random", "--set", "bonus=6")
    assert code == 0 and err == ""
    assert "Bucket Brigade, seed 7, rules: players=3, bonus=6" in out
    assert "Player 1 plays" in out and "Round 3 scores:" in out
    assert "Final scores: Player 1 (heuristic)" in out


def test_record_and_replay_print_the_same_game(capsys, tmp_path):
    path = tmp_path / "game.json"
    code, out, _ = run(capsys, "play", "bucket-brigade", "--seed", "3", "--record", str(path))
    assert code == 0 and path.exists()
    assert json.loads(path.read_text())["seed"] == 3
    code, again, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert again == out.replace(f"Record saved to {path}\n", "")


def test_replay_of_a_game_saved_mid_game_says_it_is_unfinished_not_a_final_result(capsys, tmp_path):
    """The Stepper saves records mid-game by design: replay prints the scores so far and whose
    turn it is, never "Final scores" and an empty "Winner:"."""
    from meeple.widgets.session import StepperSession

    s = StepperSession(BB, None, seed=7, bots="random", seat=None)
    for _ in range(10):
        s.step()
    path = tmp_path / "mid.json"
    path.write_text(s.record().to_json())
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0 and err == ""
    assert "Final scores" not in out and "Winner" not in out
    assert "Not finished: the record stops after 10 actions, mid-game (no final result)\n" in out
    assert "Scores so far: Player 1 (random) 0, Player 2 (random) 0, Player 3 (random) 0, Player 4 (random) 0\n" in out
    assert out.endswith(f"To move: Player {s.state.current_player + 1}\n")


def test_replay_refuses_a_bot_name_with_terminal_escapes_and_prints_none(capsys, tmp_path):
    """Bot names come from the file: an escape code in one must not reach the reader's terminal."""
    path = tmp_path / "r.json"
    assert run(capsys, "play", BB, "--seed", "7", "--record", str(path))[0] == 0
    data = json.loads(path.read_text())
    data["bots"][0] = "\x1b]0;pwned\x07\x1b[2Jheuristic"
    (tmp_path / "esc.json").write_text(json.dumps(data))
    code, out, err = run(capsys, "replay", str(tmp_path / "esc.json"))
    assert code == 2 and out == "" and "\x1b" not in err and "\x07" not in err
    assert err.count("\n") == 1 and "bot 1's name must be printable text" in err and "'\\x1b]0;pwned" in err


# Same shape as test_sim_cli's bad-input table on purpose: each file lists its own commands' messages.
@pytest.mark.parametrize(
    "argv, message",
    [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "bucket-brigade", "--bots", "genius"], "unknown bot 'genius'"),
        (["play", "bucket-brigade", "--set", "wings=2"], "unknown parameter 'wings'"),
        (["play", "bucket-brigade", "--set", "bonus=lots"], "bonus: 'lots' is not a whole number"),
        (["play", "bucket-brigade", "--set", "players=2"], "players=2 is not allowed: 3 to 5"),
        (["play", "bucket-brigade", "--set", "bonus"], "not of the form field=value"),
        (["play", "bucket-brigade", "--seed", "-3"], "--seed must be a whole number >= 0"),
        (["play", "bucket-brigade", "--seed", "1e3"], "--seed must be a whole number >= 0"),
        (["play", "bucket-brigade", "--preset", "deluxe"], "unknown preset 'deluxe'"),
        (["replay", "/nonexistent/game.json"], "cannot read"),
        (["duel", "bucket-brigade", "--bot", "genius"], "unknown bot 'genius'"),
        (["duel", "bucket-brigade", "--bot", "random", "--games", "0"], "--games must be a whole number from 1 to 10,000,000"),
        (["duel", "bucket-brigade", "--bot", "random", "--games", "1000000000000"], "--games must be a whole number from 1 to 10,000,000"),
        (["frobnicate"], "invalid choice"),
        (["duel", "bucket-king", "--bot", "heuristic", "--others", "random,heuristic"], "--others takes one bot name"),
        (["play", "bucket-brigade", "--record", "/"], "--record must end in .json; got '/'"),
        (["play", "bucket-brigade", "--record", "/proc/meeple.json"], "cannot write /proc/meeple.json"),
        (["replay", ""], "got an empty one"),  # not "cannot read .: Is a directory"
        (["variant", "show", ""], "got an empty one"),
        (["variant", "save", "x", "--game", "bucket-brigade", "--out", ""], "--out needs a file name"),
        (["sweep", "bucket-brigade", "--vary", "players=3,4", "--bots", "heuristic,random"],
         "--bots names 2 bots, one per player, so players=2 is not allowed"),
    ],
)
def test_bad_input_is_one_line_and_a_nonzero_exit(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("meeple: error:") and message in err


def test_a_bad_record_file_is_refused(capsys, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "meeple-record/1", "game": "bucket-brigade"}')
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "missing 'config'" in err


def test_replay_of_a_missing_relative_file_names_the_folder_it_looked_in(capsys, tmp_path, monkeypatch):
    """Issue 19's leftover: a relative name is read from the current folder, so the message says which."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "replay", "games/seven.json")
    assert code == 2 and out == ""
    assert err == f"meeple: error: cannot read games/seven.json: No such file or directory (looked in {tmp_path})\n"
    code, _, err = run(capsys, "replay", str(tmp_path / "games" / "seven.json"))  # an absolute name says it all
    assert code == 2 and "looked in" not in err


def test_play_writes_its_record_only_to_a_json_file(capsys, tmp_path, monkeypatch):
    """--record rec.toml wrote JSON under a TOML name; it is refused before the game, as --out's wrong
    extensions are, and nothing is written. A folder named like a record is refused too."""
    monkeypatch.chdir(tmp_path)
    for name in ("rec.toml", "rec.txt", "rec"):
        code, out, err = run(capsys, "play", BB, "--record", name)
        assert (code, out) == (2, "") and err == f"meeple: error: --record must end in .json; got '{name}'\n"
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "games.json").mkdir()
    code, _, err = run(capsys, "play", BB, "--record", "games.json")
    assert code == 2 and "cannot write games.json: it is a folder" in err
    assert run(capsys, "play", BB, "--record", "REC.JSON")[0] == 0 and (tmp_path / "REC.JSON").exists()


def test_a_failed_play_writes_no_record(capsys, tmp_path):
    path = tmp_path / "game.json"
    code, _, _ = run(capsys, "play", "bucket-brigade", "--set", "players=9", "--record", str(path))
    assert code == 2 and not path.exists() and list(tmp_path.iterdir()) == []


def test_rules_lists_parameters_presets_and_bots(capsys):
    code, out, _ = run(capsys, "rules", "bucket-brigade")
    assert code == 0 and "honeybears" in out and "lookahead" in out
    assert any(ln.split()[:3] == ["bonus", "=", "3"] for ln in out.splitlines())


def test_duel_reports_a_share_with_its_interval(capsys):
    code, out, _ = run(capsys, "duel", "bucket-brigade", "--bot", "heuristic", "--games", "8", "--seed", "1")
    assert code == 0 and "win share" in out and "95% CI" in out


def test_the_console_script_is_installed_and_has_no_traceback_on_error():
    exe = __import__("shutil").which("meeple", path=str(__import__("pathlib").Path(sys.executable).parent))
    assert exe, "the meeple console script is installed with the package"
    proc = subprocess.run([exe, "play", "nope"], capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"], ["duel", "--help"], ["simulate", "--help"], ["sweep", "--help"],
                                  ["balance", "--help"]])
def test_help_pages_print(capsys, argv):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 0
    assert "usage: meeple" in capsys.readouterr().out


def test_duel_reads_a_variant_file_as_every_game_command_does(capsys, tmp_path):
    variant = tmp_path / "bonus6.toml"
    assert run(capsys, "variant", "save", "bonus6", "--game", "bucket-brigade", "--set", "bonus=6", "--out", str(variant))[0] == 0
    code, out, err = run(capsys, "duel", "bucket-brigade", "--bot", "heuristic", "--games", "2", "--config", str(variant))
    assert code == 0 and "bonus=6" in out, err


# --- the process: a closed pipe, a Ctrl-C while it starts -------------------------------

@pytest.mark.parametrize("argv", [["play", BB, "--seed", "1"], ["simulate", BB, "--games", "4", "--workers", "1"]])
def test_a_closed_pipe_ends_quietly(argv):
    """`meeple ... | head -c 1`: the reader goes away; no BrokenPipeError, no traceback."""
    proc = subprocess.Popen(MEEPLE + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.read(1)
    proc.stdout.close()  # as head does after its byte
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert err == "" and proc.returncode in (0, 141), (proc.returncode, err)


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


# --- long work shows progress and stops cleanly on Ctrl-C --------------------------------

def test_duel_ctrl_c_prints_the_finished_games_share_and_exits_130(capsys, monkeypatch):
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
