"""The course inside the installed package: what `meeple lessons DIR` and `meeple rules GAME` read.

The wheel carries the lessons and the teacher's guide (package `meeple.course`, from
lessons/) and every game's numbered rules (`meeple.rules.seeds`, from seeds/), read
with importlib.resources, so a reader who ran `pip install meeple` has them without a
clone. `meeple lessons DIR` copies the course out and keeps a manifest of what it
wrote (`.meeple-lessons.json`: each file's SHA-256), so a later version adds and
updates lessons without ever writing over one the reader changed.
"""

from __future__ import annotations

import hashlib
import json
import re
import textwrap
from importlib import metadata, resources
from pathlib import Path
from types import ModuleType

from .core import parameter_info
from .files import shown_path, write_all
from .registry import GAMES
from .scrub import NotebookError, scrub_notebook
from .sim.text import value_text

# The numbered lessons: the same glob as pyproject.toml's package data, so an editable
# install (where meeple.course is lessons/ itself) copies what a wheel holds.
LESSON = re.compile(r"^[0-9][0-9]_.*\.ipynb$")
GUIDE = "teachers_guide.md"
MANIFEST = ".meeple-lessons.json"
MANIFEST_FORMAT = "meeple-lessons/1"
RULE_LINE = re.compile(r"^\s*[-*]\s+\*\*([A-Z]+-\d+)\*\*\s*(.*)$")


def version() -> str:
    """This meeple's version, from the installed package's metadata."""
    try:
        return metadata.version("meeple")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


# --- the rule text -------------------------------------------------------------------

def rules_text(mod: ModuleType) -> str:
    """The game's rules file as shipped (seeds/<game>.md in the source tree)."""
    return (resources.files("meeple.rules.seeds") / f"{mod.__name__.rsplit('.', 1)[1]}.md").read_text(encoding="utf-8")


def numbered_rules(text: str) -> dict[str, str]:
    """{"BB-1": "The deck has 55 cards ...", ...} in the order of the file."""
    rules = {}
    for line in text.splitlines():
        m = RULE_LINE.match(line)
        if m:
            rules[m.group(1)] = m.group(2).strip()
    return rules


def _section(text: str, title: str) -> str:
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    return m.group(1) if m else ""


def judgement_calls(text: str, rule: str) -> list[str]:
    """The numbered judgement calls that name `rule`, each as one paragraph."""
    items, current = [], None
    for line in _section(text, "Judgement calls").splitlines():
        if re.match(r"^\d+\.\s", line):
            current = [line.strip()]
            items.append(current)
        elif current is not None and line.strip():
            current.append(line.strip())
        else:
            current = None
    named = re.compile(rf"(?<![\w-]){re.escape(rule)}(?!\d)")
    return [" ".join(i) for i in items if named.search(" ".join(i))]


def _plain(text: str) -> str:
    """Markdown emphasis and code marks dropped, for a terminal."""
    return re.sub(r"\*\*(.+?)\*\*|\*(.+?)\*|`(.+?)`", lambda m: next(g for g in m.groups() if g is not None), text)


def _wrapped(head: str, body: str, indent: int = 2) -> str:
    return textwrap.fill(f"{head} {_plain(body)}", width=100, initial_indent=" " * indent,
                         subsequent_indent=" " * (indent + len(head) + 1), break_on_hyphens=False)


def print_rules(mod: ModuleType, rule: str | None = None, full: bool = False) -> None:
    """`meeple rules GAME`'s rule text: every numbered rule, one (`--rule BB-8`) or the whole file."""
    text = rules_text(mod)
    if full:
        print(text, end="" if text.endswith("\n") else "\n")
        return
    rules = numbered_rules(text)
    ids = list(rules)
    if rule is None:
        print(f"{mod.TITLE}: the rules as meeple plays them ({ids[0]} to {ids[-1]}; the whole text with "
              f"judgement calls and bots: meeple rules {mod.NAME} --full)")
        for rid, body in rules.items():
            print(_wrapped(rid, body))
        return
    wanted = rule.strip().upper()
    if not re.fullmatch(r"[A-Z]+-\d+", wanted):
        raise NotebookError(f"--rule takes a rule number such as {ids[7 if len(ids) > 7 else 0]}, got {rule!r}")
    if wanted not in rules:
        prefix = ids[0].split("-")[0]
        other = ""
        if wanted.split("-")[0] != prefix:
            owner = next((m for m in GAMES.values() if numbered_rules(rules_text(m)).get(wanted)), None)
            if owner is not None:
                other = f"; {wanted} is {owner.TITLE}'s: meeple rules {owner.NAME} --rule {wanted}"
        raise NotebookError(f"{mod.TITLE} has no rule {rule.strip()!r}: its rules are {ids[0]} to {ids[-1]}{other}")
    print(_wrapped(wanted, rules[wanted], indent=0))
    cites = re.compile(rf"(?<![\w-]){re.escape(wanted)}(?!\d)")
    aliases = list(mod.Config.aliases()) if hasattr(mod.Config, "aliases") else []
    params = [n for n in [*mod.Config.field_types(), *aliases] if cites.search(parameter_info(mod, n)[1])]
    if params:
        base = mod.Config()
        print("Its numbers (--set NAME=VALUE): " + ", ".join(f"{p} (now {value_text(base.get(p))})" for p in params))
    calls = judgement_calls(text, wanted)
    if calls:
        print(f"Judgement calls about {wanted}:")
        for call in calls:
            number, _, body = call.partition(" ")
            print(_wrapped(number, body))


# --- the lessons ---------------------------------------------------------------------

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


def read_manifest(dest: Path) -> dict:
    """The manifest `meeple lessons` left in `dest`, or an empty one; NotebookError if it is not one."""
    path = dest / MANIFEST
    if not path.exists():
        return {"format": MANIFEST_FORMAT, "files": {}}
    problem = None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
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
            current = _sha(path.read_bytes())
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
