"""The course inside the installed package: what `meeple lessons DIR` copies out.

The wheel carries the lessons and the teacher's guide (package `meeple.course`, from
lessons/), read with importlib.resources, so a reader who ran `pip install meeple` has them without a
clone. `meeple lessons DIR` copies the course out and keeps a manifest of what it
wrote (`.meeple-lessons.json`: each file's SHA-256), so a later version adds and
updates lessons without ever writing over one the reader changed.
"""

from __future__ import annotations

import hashlib
import json
import re
from importlib import resources
from pathlib import Path

from meeple.rules.files import FileError, open_regular, read_capped, shown_path, write_all
from meeple.rules.rulebook import version

from .scrub import NotebookError, scrub_notebook

# The numbered lessons: the same glob as pyproject.toml's package data, so an editable
# install (where meeple.course is lessons/ itself) copies what a wheel holds.
LESSON = re.compile(r"^[0-9][0-9]_.*\.ipynb$")
GUIDE = "teachers_guide.md"
MANIFEST = ".meeple-lessons.json"
MANIFEST_FORMAT = "meeple-lessons/1"


def packaged_course() -> dict[str, bytes]:
    """{file name: bytes} of the numbered lessons and the teacher's guide in the package."""
    root = resources.files("meeple.course")
    found = {f.name: f.read_bytes() for f in root.iterdir() if LESSON.match(f.name) or f.name == GUIDE}
    if not any(LESSON.match(n) for n in found):
        raise NotebookError("this meeple installation holds no lessons (meeple.course is empty): reinstall it")
    return dict(sorted(found.items()))


def fold_solutions(text: str, name: str) -> str:
    """The teacher's notebook with each cell tagged "solution" folded: its code hidden
    behind a "..." the reader clicks (nbformat's `jupyter.source_hidden`, which
    JupyterLab and Notebook 7 honour); the cell still runs with the others."""
    scrub_notebook(text, name)  # the same checks as a student copy: a broken notebook is refused
    nb = json.loads(text)
    for cell in nb["cells"]:
        meta = cell.setdefault("metadata", {})
        if "solution" in meta.get("tags", []):
            meta.setdefault("jupyter", {})["source_hidden"] = True
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def edition(course: dict[str, bytes], student: bool) -> dict[str, bytes]:
    """What `meeple lessons` writes: the student copy (`meeple scrub`: no solution cells,
    no teacher's guide) or the teacher's (solutions folded, with the guide)."""
    out = {}
    for name, data in course.items():
        if name == GUIDE:
            if not student:
                out[name] = data
            continue
        text = data.decode("utf-8")
        out[name] = (scrub_notebook(text, name)[0] if student else fold_solutions(text, name)).encode("utf-8")
    return out


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _edition_name(student: bool) -> str:
    return "student" if student else "teacher"


MAX_MANIFEST = 2**20  # a manifest lists a few dozen files


def read_manifest(dest: Path) -> dict:
    """The manifest `meeple lessons` left in `dest`, or an empty one; NotebookError if it is not one."""
    path = dest / MANIFEST
    if not path.exists():
        return {"format": MANIFEST_FORMAT, "files": {}}
    problem = None
    try:
        data = json.loads(read_capped(path, MAX_MANIFEST, "manifest"))
    except FileError as e:
        raise NotebookError(str(e)) from None
    except RecursionError:  # a manifest nests two levels; 100,000 is not one
        data, problem = None, "nested too deeply"
    except (OSError, UnicodeDecodeError, ValueError) as e:
        data, problem = None, f"unreadable ({e.__class__.__name__})"
    if problem is None and not (isinstance(data, dict) and data.get("format") == MANIFEST_FORMAT
                                and isinstance(data.get("files"), dict)
                                and all(isinstance(v, dict) and isinstance(v.get("sha256"), str)
                                        for v in data["files"].values())
                                and data.get("edition") in ("student", "teacher")):
        problem = f"not a {MANIFEST_FORMAT} manifest"
    if problem:
        raise NotebookError(f"{shown_path(path)} is {problem}: delete it and run again (notebooks you changed are kept either way)")
    return data


def copy_course(dest: Path, student: bool, course: dict[str, bytes] | None = None) -> dict[str, list[str]]:
    """Copy the course into `dest`; {status: [file names]} for copied, updated, unchanged, kept, kept_new.

    A file is written only where the reader cannot lose anything: it is missing, or
    it is exactly what an earlier `meeple lessons` wrote there (its SHA-256 in the
    manifest). A file the reader changed, or one meeple did not write, is kept
    (`kept_new`: the package has another version of it). Everything is checked first;
    the new files and the manifest are then written together."""
    wanted = edition(packaged_course() if course is None else course, student)
    try:
        if dest.exists() and not dest.is_dir():
            raise NotebookError(f"cannot copy the lessons into {shown_path(dest)}: it is a file, not a folder")
        manifest = read_manifest(dest) if dest.is_dir() else {"format": MANIFEST_FORMAT, "files": {}}
        if manifest.get("edition", _edition_name(student)) != _edition_name(student):
            had = manifest["edition"]
            raise NotebookError(f"{shown_path(dest)} holds the {had} copy of the lessons ({'with' if had == 'teacher' else 'without'} "
                           f"solutions); give another folder for the {_edition_name(student)} copy")
        status: dict[str, list[str]] = {k: [] for k in ("copied", "updated", "unchanged", "kept", "kept_new")}
        files, entries = {}, dict(manifest["files"])
        for name, data in wanted.items():
            path, sha, before = dest / name, _sha(data), manifest["files"].get(name)
            if path.is_dir():
                raise NotebookError(f"cannot write {shown_path(path)}: it is a folder")
            if not path.exists():
                files[path], entries[name] = data, {"sha256": sha}
                status["copied"].append(name)
                continue
            with open_regular(path, "lesson") as f:  # a FIFO or a link to /dev/zero would never end
                current = _sha(f.read())
            if current == sha:
                entries[name] = {"sha256": sha}
                status["unchanged"].append(name)
            elif before is not None and current == before["sha256"]:  # ours, untouched: the new version
                files[path], entries[name] = data, {"sha256": sha}
                status["updated"].append(name)
            else:
                status["kept_new" if before is None or before["sha256"] != sha else "kept"].append(name)
        made = not dest.exists()
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise NotebookError(f"cannot copy the lessons into {shown_path(dest)}: {e.strerror or e}") from None
    record = {"format": MANIFEST_FORMAT, "meeple": version(), "edition": _edition_name(student),
              "note": "what `meeple lessons` copied here (SHA-256 of each file as written); a file whose "
                      "hash differs was changed by you and is never replaced",
              "files": dict(sorted(entries.items()))}
    files[dest / MANIFEST] = json.dumps(record, indent=1) + "\n"
    try:
        write_all(files)
    except BaseException:
        if made:
            try:
                dest.rmdir()
            except OSError:
                pass
        raise
    return status
