"""Files written whole or not at all, and files read with a cap: the one writer and the
one reader every command, a variant file and a report use.

A file is staged in a temp file beside its target (with the mode the target should
get: the old file's, or the umask's) and renamed into place, so a crash, a full disk
or a Ctrl-C never leaves half a file. A file is read up to a cap, so a link to
/dev/zero or a 10 GB file is refused instead of filling the memory. Every problem is
a FileError (a ValueError): one line naming the file and what is wrong.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["FileError", "shown_path", "file_mode", "set_mode", "check_writable", "write_atomic", "write_all",
           "read_capped", "read_capped_bytes", "open_regular", "shown_text", "drop_staged", "stalled", "STALL"]

STALL = "MEEPLE_TEST_STALL"
"""An environment variable for the signal tests (tests/rules/test_signals.py) that makes moments last
(several: comma-separated):
"worker-start" (a pool's worker, forked and not yet set up), "send" (each worker stops half-way
through sending its second result), "chunk" (a pool's worker at the start of its second chunk: its
first comes back, no other does), "write" (a file staged, not yet renamed into place). At that
moment `meeple-test: stalled at WHERE` goes to stderr and the process waits for a signal."""


def stalled(where: str) -> None:
    """Wait here for ever when the STALL variable names `where` (see STALL); a signal ends the wait."""
    if where not in os.environ.get(STALL, "").split(","):
        return
    print(f"meeple-test: stalled at {where}", file=sys.stderr, flush=True)
    while True:
        time.sleep(60)


_STAGED: set[str] = set()  # temp files written and not yet renamed into place or removed


def drop_staged() -> None:
    """Remove every temp file still staged: a second Ctrl-C ends the process at once, from a
    signal handler, and must not leave a hidden `.meeple.*.tmp` behind."""
    for tmp in list(_STAGED):
        try:
            os.unlink(tmp)
        except OSError:
            pass


class FileError(ValueError):
    """A file that cannot be read or written: one line naming the file and why."""


def shown_text(value, most: int = 80) -> str:
    """User text (a name, a value from a saved setup) for a one-line message or a terminal: its
    repr for a non-string, control characters and terminal escapes written out (\\x1b), cut in
    the middle past `most` characters. The one helper every echo of user text goes through."""
    text = value if isinstance(value, str) else repr(value)[:4 * most]
    return shown_path(text, most)


def shown_path(path, most: int = 120) -> str:
    """A path for a one-line message: control characters (a newline) escaped, a long one
    cut in the middle (both ends say which file it is)."""
    text = str(path)
    if not text.isprintable():  # a newline in a name must not break the one line
        text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= most else text[:most // 2] + "..." + text[-(most // 2 - 10):]


def file_mode(path) -> int:
    """The mode a file written at `path` should have: the old file's when it is replaced,
    else what the umask gives a new file (0644 under the usual 022). A temp file from
    mkstemp is 0600; the writer chmods it to this before renaming it into place."""
    try:
        return os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        pass
    try:  # Linux reads the umask without changing it
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def set_mode(fd: int, mode: int) -> None:
    """chmod an open file to `mode` (file_mode's); Windows has no POSIX modes and, before
    Python 3.13, no os.fchmod: there the file keeps what the system gives it."""
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)


def _cannot_write(path, e: OSError) -> FileError:
    return FileError(f"cannot write {shown_path(path)}: {e.strerror or e}")


def _check_target(path: Path) -> None:
    """FileError unless `path` could be a file: a folder that exists, not a folder itself."""
    try:
        if not path.parent.is_dir():
            raise FileError(f"cannot write {shown_path(path)}: folder {shown_path(path.parent)} does not exist")
        if path.is_dir():
            raise FileError(f"cannot write {shown_path(path)}: it is a folder")
    except OSError as e:  # a name longer than the system allows, a loop of links, ...
        raise _cannot_write(path, e) from None


def check_writable(path: str | os.PathLike) -> Path:
    """The path a command will write, checked before any game is played: its name fits the
    file system, its folder exists, and a temp file can be made there (a read-only folder,
    a full disk or a missing permission shows now, not after every game is played)."""
    out = Path(path)
    try:
        limit = os.pathconf(out.parent, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        limit = 255
    if len(os.fsencode(out.name)) > limit:
        raise FileError(f"cannot write {shown_path(out)}: the file name is longer than {limit} bytes")
    _check_target(out)
    try:
        fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=".meeple.", suffix=".tmp")
    except OSError as e:
        raise _cannot_write(out, e) from None
    os.close(fd)
    Path(tmp).unlink(missing_ok=True)
    return out


def _stage(path: Path, data: str | bytes) -> str:
    """`data` in a temp file beside `path`, with the mode `path` should get; returns its name."""
    if not str(path).strip():
        raise FileError("the file name is empty")
    _check_target(path)
    try:
        mode = file_mode(path)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".meeple.", suffix=".tmp")  # short: name limits
    except OSError as e:
        raise _cannot_write(path, e) from None
    _STAGED.add(tmp)
    try:
        with os.fdopen(fd, "wb") if isinstance(data, bytes) else os.fdopen(fd, "w", encoding="utf-8") as f:
            set_mode(f.fileno(), mode)
            f.write(data)
        stalled("write")
    except OSError as e:
        _unstage(tmp)
        raise _cannot_write(path, e) from None
    except BaseException:
        _unstage(tmp)
        raise
    return tmp


def _unstage(tmp: str) -> None:
    Path(tmp).unlink(missing_ok=True)
    _STAGED.discard(tmp)


def write_atomic(path: str | os.PathLike, data: str | bytes) -> None:
    """Write text (UTF-8) or bytes to a temp file beside `path`, then rename: never half a file."""
    write_all({Path(path): data})


def write_all(files: dict[Path, str | bytes]) -> None:
    """Write several files all or none: every temp file first, then the renames."""
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in files.items():
            staged.append((_stage(Path(path), data), Path(path)))
        for tmp, path in staged:
            try:
                os.replace(tmp, path)
            except OSError as e:
                raise _cannot_write(path, e) from None
    finally:
        for tmp, _ in staged:
            _unstage(tmp)


def open_regular(path, what: str):
    """`path` opened for reading in binary, or a FileError if it is not a regular file: a FIFO, a
    device (a link to /dev/zero) or a socket would block or never end. It is opened without
    blocking (a FIFO with no writer would wait for one in open()) and checked before any read."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a plain file")
            raise FileError(f"{shown_path(path)} is {kind}, not a file: not a {what}")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_capped_bytes(path: str | os.PathLike, most: int, what: str) -> bytes:
    """The bytes of a file of at most `most` bytes (a `what`), or a FileError in one line (as
    `read_capped`, for a reader that decodes them itself: a roster may come in Excel's encodings)."""
    path = Path(path)
    shown = shown_path(path)
    try:
        with open_regular(path, what) as f:
            data = f.read(most + 1)  # a 10 GB file must not fill the memory
    except OSError as e:
        where = "" if path.is_absolute() else f" (looked in {shown_path(os.getcwd())})"
        raise FileError(f"cannot read {shown}: {e.strerror or e}{where}") from None
    if len(data) > most:
        size = f"{most // 2**20} MiB" if most >= 2**20 else f"{most:,} bytes"
        raise FileError(f"{shown} is larger than {size}, the most a {what} may be")
    return data


def read_capped(path: str | os.PathLike, most: int, what: str) -> str:
    """A UTF-8 text file of at most `most` bytes (a `what`: "game record", "variant file"),
    or a FileError in one line. A relative name that cannot be read says which folder it
    was looked for in."""
    data = read_capped_bytes(path, most, what)
    shown = shown_path(Path(path))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FileError(f"{shown} is not UTF-8 text (byte {e.start} is not): not a {what}") from None
