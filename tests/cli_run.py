"""`meeple` run in-process for the tests, and the shape of its one-line errors (exit 2, one
line on stderr naming what is wrong, no traceback)."""

from __future__ import annotations

from meeple.rules.cli import main


def run(capsys, *argv):
    """(exit code, stdout, stderr) of `meeple *argv`, read through pytest's capsys."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, out, err, message):
    """Assert a refusal: exit 2, nothing on stdout, one `meeple: error:` line containing `message`."""
    assert code == 2 and out == "", (code, out, err)
    assert err.count("\n") == 1 and err.startswith("meeple: error:") and "Traceback" not in err, err
    assert message in err, err
