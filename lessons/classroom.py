"""A class: the teacher's secret key and each student's code (`meeple class new ROSTER.csv DIR`).

The key is 32 random bytes, kept by the teacher (a file of mode 0600). A student's code is an
HMAC-SHA256 of their roster id under the key, cut to 60 bits and written as three groups of four
base32 letters ("K7QF-M2XA-RTDE"): short to type, and without the key nobody can work out a
classmate's code from their name, so nobody can compute a classmate's numbers (the lessons'
numbers derive from the code the student enters, `student("K7QF-M2XA-RTDE")`). Any other text is
still a valid id for self-study; a class code is just one the teacher's key made.

Standard library only: `meeple class new` and `meeple grade` read the key without Jupyter.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import hmac
import io
import json
import os
import re
import secrets
from pathlib import Path

from meeple.rules.files import FileError, read_capped, read_capped_bytes, shown_path

KEY_FILE, CODES_FILE = "class-key.json", "codes.csv"
KEY_FORMAT = "meeple class key"
KEY_VERSION = 1
CODE = re.compile(r"^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$")  # a class code as `same_id` leaves it
_TYPED_CODE = re.compile(r"^([a-z2-7]{4})[- ]?([a-z2-7]{4})[- ]?([a-z2-7]{4})$")


def same_id(text: str) -> str:
    """An id as the lessons' numbers read it (`numbers.normalise` is this): case and runs of spaces do
    not matter, and a class code typed without its dashes, or with spaces, is that code ("k7qf m2xa
    rtde", "K7QFM2XARTDE" -> "k7qf-m2xa-rtde"), so a student's numbers do not hang on how they typed it."""
    text = " ".join(text.casefold().split())
    m = _TYPED_CODE.match(text)
    return "-".join(m.groups()) if m else text


def code_of(key: bytes, student_id: str) -> str:
    """The code of roster id `student_id` in the class of `key`: HMAC-SHA256, 60 bits, base32 groups."""
    if not isinstance(student_id, str) or not student_id.strip():
        raise ValueError(f"a student id is a non-empty name or number as text, got {student_id!r}")
    mac = hmac.new(key, same_id(student_id).encode(), hashlib.sha256).digest()
    letters = base64.b32encode(mac[:10]).decode()[:12]  # 60 of the MAC's bits, 12 letters A-Z 2-7
    return "-".join(letters[i:i + 4] for i in range(0, 12, 4))


class ClassKey:
    """A class's key and roster: `codes` maps each roster id (as written) to its code."""

    def __init__(self, key: bytes, students: "list[str]"):
        if len(key) < 16:
            raise ValueError("a class key is at least 16 bytes")
        self.key, self.students = key, list(students)
        self.codes = {s: code_of(key, s) for s in self.students}

    def code(self, student_id: str) -> str:
        return code_of(self.key, student_id)

    def who(self, text: str) -> "str | None":
        """The roster id that `text` names: the id itself (case and spaces aside) or its code; else None."""
        t = same_id(text)
        for s, c in self.codes.items():
            if t in (same_id(s), same_id(c)):
                return s
        return None

    def to_json(self) -> str:
        return json.dumps({"format": KEY_FORMAT, "version": KEY_VERSION, "key": self.key.hex(),
                           "students": self.students}, indent=1) + "\n"


MAX_KEY = 16 * 2**20  # bytes: a key and a roster's ids; a larger file is not a class key


def read_key(path: Path) -> ClassKey:
    """The class key in file `path` (written by `meeple class new`); ValueError in one line for
    anything else."""
    try:  # a FIFO waited for a writer for ever, a link to /dev/zero filled the memory (issue 33)
        text = read_capped(path, MAX_KEY, "class key")
    except FileError as e:
        raise ValueError(str(e).replace(f"cannot read {shown_path(Path(path))}:",
                                        f"cannot read the class key {shown_path(Path(path))}:")) from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):  # RecursionError: nested too deeply to be a key
        data = None
    if not (isinstance(data, dict) and data.get("format") == KEY_FORMAT and data.get("version") == KEY_VERSION
            and isinstance(data.get("key"), str) and re.fullmatch(r"[0-9a-f]{64}", data["key"])
            and isinstance(data.get("students"), list) and all(isinstance(s, str) and s.strip() for s in data["students"])):
        raise ValueError(f"{path} is not a meeple class key (`meeple class new ROSTER.csv DIR` writes one, "
                         f"{KEY_FILE})")
    return ClassKey(bytes.fromhex(data["key"]), data["students"])


MAX_ROSTER = 64 * 2**20  # bytes: a larger file is not a class roster


def roster_text(path: "str | os.PathLike", most: int = MAX_ROSTER) -> str:
    """The text of roster file `path`: UTF-8, with or without the byte-order mark that Excel's "CSV
    UTF-8" puts first. A file in another encoding (Excel's plain "CSV" on Windows saves Windows-1252,
    so an accented name is one byte that UTF-8 has not) is a ValueError in one line saying how to save
    it as UTF-8: guessing the encoding could change a name, and so that student's code."""
    try:
        data = read_capped_bytes(path, most, "roster")
    except FileError as e:
        raise ValueError(str(e)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ValueError(f"{shown_path(Path(path))} is not UTF-8 text (byte {e.start} is not: a legacy encoding such as "
                         "Windows-1252?): save the roster as UTF-8 (Excel: Save As, 'CSV UTF-8 (Comma delimited)'; "
                         "LibreOffice: Text CSV, character set 'Unicode (UTF-8)')") from None


def read_roster(text: str) -> list[str]:
    """Student ids from a class roster CSV: the column headed `code` (the codes.csv that `meeple
    class new` writes: a graded site seals each code's answers), else `id`, else `name` (case
    ignored), one student a row. A byte-order mark before the header (Excel's "CSV UTF-8") is not
    part of it. ValueError naming the row for a missing column, an empty id or a repeat."""
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    if not rows:
        raise ValueError("the roster is empty: a CSV with a header row naming a column 'name' or 'id' (or 'code')")
    head = [h.strip().casefold() for h in rows[0]]
    col = next((head.index(c) for c in ("code", "id", "name") if c in head), None)
    if col is None:
        raise ValueError(f"the roster's header {rows[0]!r} has no column 'name' or 'id' (or 'code')")
    names, seen = [], {}
    for n, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue  # a blank line
        if col >= len(row) or not row[col].strip():
            raise ValueError(f"roster row {n} has no {head[col]}")
        key = same_id(row[col])
        if key in seen:
            raise ValueError(f"roster rows {seen[key]} and {n} are the same student ({row[col].strip()!r})")
        seen[key] = n
        names.append(row[col].strip())
    if not names:
        raise ValueError("the roster lists no students")
    return names


def _write_private(path: Path, text: str) -> None:
    """Write `text` to a new file readable by its owner alone (mode 0600 from the start)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def new_class(roster_text: str, folder: Path) -> ClassKey:
    """Make a class: a fresh key for the roster, written to `folder`/class-key.json (mode 0600,
    the teacher's) and each student's code to `folder`/codes.csv (mode 0600: hand each student
    their own row). Refuses (ValueError) to replace a class key already there: that would change
    every student's numbers."""
    students = read_roster(roster_text)
    folder = Path(folder)
    key_path, codes_path = folder / KEY_FILE, folder / CODES_FILE
    try:
        for p in (folder, *folder.parents):  # the folder, or the nearest of its parents that exists
            if p.exists():
                if not p.is_dir():
                    raise ValueError(f"cannot make the class in {shown_path(folder)}: "
                                     + ("it is a file, not a folder" if p == folder else f"{shown_path(p)} is a file, not a folder"))
                break
        for p in (key_path, codes_path):
            if p.exists():
                raise ValueError(f"{p} already exists: a new key would give every student new numbers; "
                                 "pick another folder (or delete the old class on purpose)")
        made = [p for p in (folder, *folder.parents) if not p.exists()]
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"cannot make the class in {shown_path(folder)}: {e.strerror or e}") from None
    cls = ClassKey(secrets.token_bytes(32), students)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["id", "code"])
    w.writerows([s, c] for s, c in cls.codes.items())
    written = []
    try:
        for path, text in ((key_path, cls.to_json()), (codes_path, out.getvalue())):
            _write_private(path, text)
            written.append(path)
    except BaseException as e:  # both files or neither: a key without its codes is half a class
        for path in written:
            path.unlink(missing_ok=True)
        for p in made:  # the folders this made, innermost first, if still empty
            try:
                p.rmdir()
            except OSError:
                break
        if isinstance(e, OSError):
            raise ValueError(f"cannot write {shown_path(path)}: {e.strerror or e}") from None
        raise
    return cls
