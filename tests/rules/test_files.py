"""The files meeple writes and reads (rules/files.py: one atomic writer, one capped reader),
as the commands meet them: a new file gets the umask's mode and a replaced one keeps its
own; an --out that cannot be written is refused before any game; a file read is capped,
UTF-8 and not nested too deeply, each refusal one line.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path

import pytest

from harness import notebook, one_line_error, run
from meeple.rules import cli as CLI
from meeple.rules.cli import game as GAME_CLI  # where `meeple play` plays
from meeple.rules.cli.common import MAX_READ
from meeple.rules.sim import runner as RUNNER  # where a run looks play_game up (patched below)

BB = "bucket-brigade"


# --- modes: a new file gets the umask's, a replaced file keeps its own ------------

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
    (lessons / "a.ipynb").write_text(json.dumps(notebook()))
    assert run(capsys, "scrub", lessons, tmp_path / "students")[0] == 0
    assert _mode(tmp_path / "students" / "a.ipynb") == 0o644


# --- an --out that cannot be written: one line, before any game -----------------------

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


# --- the capped reader: at most MAX_READ bytes of UTF-8 ----------------------------------

def test_replay_refuses_non_utf8_deep_json_and_endless_files_in_one_line(capsys, tmp_path):
    bad = tmp_path / "latin1.json"
    bad.write_bytes('{"game": "bücket"}'.encode("latin-1"))
    one_line_error(*run(capsys, "replay", bad), "is not UTF-8 text")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    one_line_error(*run(capsys, "replay", deep), "nested too deeply")
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:  # sparse: no disk is filled
        f.truncate(MAX_READ + 1)
    one_line_error(*run(capsys, "replay", huge), f"larger than {MAX_READ // 2**20} MiB")
    one_line_error(*run(capsys, "replay", "/dev/zero"), "/dev/zero is a device, not a file")  # never read (issue 33)
    one_line_error(*run(capsys, "replay", tmp_path), "is a folder, not a file")
