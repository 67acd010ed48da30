"""The gradebook (`meeple grade SUBMISSIONS --key KEYFILE --out grades.csv`): submitted notebooks
checked again, as data, against each student's own numbers.

A submission is a notebook saved with its outputs: `SUBMISSIONS/<student>.ipynb`, or every
notebook in `SUBMISSIONS/<student>/` (an LMS download's folder per student); `.ipynb` in any case.
The student is the roster id (or class code) the notebook's `metadata.meeple.student` names, else
the file's or folder's name, else (a name an LMS made up) the one student whom its check() outputs'
ids name, said on the console (`collect`). The answers are the data each `check(...)` output carries (meeple.course.submission
says the convention); nothing of the notebook is executed here, and no saved verdict is read:

- each answer is decoded by a strict reader (JSON tags, never eval or pickle);
- a run of games is played again here from its seed, rules and bots (at most MAX_GAMES games),
  so only games the engine really deals count;
- each exercise's own checker judges it with the student's numbers (`as_student(code)`).

The CSV has one row per roster student (one who submitted nothing is all "missing"), a column
per exercise of the lessons anyone handed in ("pass", "fail" or "missing"; a lesson handed in
without a single answer is known by its cells' ids, and has its columns too), the number passed
("Total") and "Flags": answers worked with another student's code or with the lesson's own
numbers, identical evidence (the same games) in two students' work that their numbers do not
explain (`_explained`), and what a student handed in that cannot be graded: a notebook that cannot
be read, a file that is not a notebook, a notebook with no check() output (else that row would look
as if nothing was handed in). A flag is a question for the teacher, not a verdict. An exercise's
cell run unchanged (the checker's "No answer yet") is "missing". Beside the
CSV, a folder of feedback files: each exercise's verdict line as `check()` would show it.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from meeple.rules.files import FileError, read_capped, shown_path, write_all
from meeple.rules.registry import game_module
from meeple.course.exercises import Evidence, as_student, checking, exercise_numbers

from .classroom import ClassKey, same_id
from .submission import MIMETYPE_KEY

MAX_GAMES = 20_000  # a run's games the grader replays at most (the lessons' largest run is well under)
MAX_NOTEBOOK = 64 * 2**20  # bytes: a larger file is not a lesson notebook


class Unreadable(ValueError):
    """An answer the grader cannot read back as data (the reason is the feedback)."""


def _fraction(text: Any) -> Fraction:
    if not isinstance(text, str) or text.count("/") != 1:
        raise Unreadable(f"a fraction is saved as 'n/d', got {text!r:.40}")
    n, d = text.split("/")
    try:
        return Fraction(int(n), int(d))
    except (ValueError, ZeroDivisionError):
        raise Unreadable(f"a fraction is saved as 'n/d', got {text!r:.40}") from None


def _config(data: Any):
    if not (isinstance(data, dict) and set(data) == {"game", "fields"} and isinstance(data["game"], str)):
        raise Unreadable("a game's rules are saved as {'game', 'fields'}")
    try:
        return game_module(data["game"]).Config.from_dict(data["fields"])
    except (ValueError, TypeError) as e:
        raise Unreadable(f"the saved rules do not read back: {e}") from None


_RUNS: dict = {}  # a run's parameters -> its games, played once however many students share them


def _run(data: Any) -> Evidence:
    want = {"game", "config", "bots", "seed", "rotate", "games", "partial"}
    if not (isinstance(data, dict) and set(data) == want):
        raise Unreadable(f"a run of games is saved as {sorted(want)}")
    games, seed = data["games"], data["seed"]
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise Unreadable(f"a run of 1 to {MAX_GAMES} games, got {games!r:.20}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise Unreadable(f"a run's seed is a whole number from 0, got {seed!r:.20}")
    if not (isinstance(data["bots"], list) and all(isinstance(b, str) for b in data["bots"])):
        raise Unreadable("a run's bots are saved as a list of names")
    config = decode(data["config"])
    ident = json.dumps(data, sort_keys=True)
    if ident not in _RUNS:
        try:
            ev = Evidence.play(data["game"], config, list(data["bots"]), games, seed, bool(data["rotate"]))
        except (ValueError, TypeError) as e:
            raise Unreadable(f"the saved run does not play: {e}") from None
        _RUNS[ident] = ev
    ev = _RUNS[ident]
    # a fresh Evidence each time (a checker may look at it), of the same replayed games
    return Evidence(ev.game, ev.config, ev.bots, ev.seed, ev.rotate, ev.records, bool(data["partial"]))


def decode(data: Any, depth: int = 0) -> Any:
    """A saved answer (submission.encode's data) as the value check() was given; Unreadable
    for anything else."""
    if depth > 20:
        raise Unreadable("an answer nested too deep")
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, list):
        return [decode(v, depth + 1) for v in data]
    if not (isinstance(data, dict) and len(data) == 1):
        raise Unreadable(f"not a saved answer: {data!r:.60}")
    (tag, value), = data.items()
    if tag == "ellipsis":
        return ...  # a part the student left as `...`: the checker says what is missing
    if tag == "fraction":
        return _fraction(value)
    if tag == "float":
        try:
            return float(value)
        except (TypeError, ValueError):
            raise Unreadable(f"a float is saved as its text, got {value!r:.40}") from None
    if tag == "tuple" and isinstance(value, list):
        return tuple(decode(v, depth + 1) for v in value)
    if tag == "dict" and isinstance(value, list) and all(isinstance(p, list) and len(p) == 2 for p in value):
        out = {}
        for k, v in value:
            k = decode(k, depth + 1)
            try:
                out[k] = decode(v, depth + 1)
            except TypeError:
                raise Unreadable("a dict's key is a list") from None
        return out
    if tag == "config":
        return _config(value)
    if tag == "run":
        return _run(value)
    if tag == "unreadable":
        raise Unreadable(f"check() was given a {value!s:.40}, which a notebook cannot save as data")
    raise Unreadable(f"not a saved answer: {data!r:.60}")


def is_evidence(data: Any) -> bool:
    """Whether a saved answer holds evidence: a run of games, or a table ({seed: count}, ...)."""
    if isinstance(data, list):
        return any(is_evidence(v) for v in data)
    if isinstance(data, dict):
        return "run" in data or "dict" in data or any(is_evidence(v) for v in data.values())
    return False


def notebook_answers(text: str, name: str) -> "tuple[dict, str | None]":
    """({exercise: (answer data, student id in use)}, notebook's metadata.meeple.student) of a
    notebook's text: the last check() output of each exercise. ValueError for a file that is not a
    notebook."""
    try:
        nb = json.loads(text)
    except json.JSONDecodeError:
        raise ValueError(f"{name} is not a notebook (not JSON)") from None
    except RecursionError:  # json.loads of "[[[[..." 100,000 deep: a traceback otherwise
        raise ValueError(f"{name} is not a notebook (nested too deeply)") from None
    if not (isinstance(nb, dict) and isinstance(nb.get("cells"), list)):
        raise ValueError(f"{name} is not a notebook (no cells)")
    meta = nb.get("metadata")
    meta = meta.get(MIMETYPE_KEY) if isinstance(meta, dict) else None
    named = meta.get("student") if isinstance(meta, dict) and isinstance(meta.get("student"), str) else None
    found: dict = {}
    for cell in nb["cells"]:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code" or not isinstance(cell.get("outputs"), list):
            continue
        for out in cell["outputs"]:
            rec = out.get("metadata", {}).get(MIMETYPE_KEY) if isinstance(out, dict) and isinstance(out.get("metadata"), dict) else None
            if isinstance(rec, dict) and isinstance(rec.get("check"), str) and "answer" in rec:
                who = rec.get("student") if isinstance(rec.get("student"), str) else None
                found[rec["check"]] = (rec["answer"], who)
    return found, named


def _read(path: Path) -> str:
    """A submitted notebook's text; a FIFO or a link to a device (which blocked or never ended, issue 33), a
    file over MAX_NOTEBOOK or one not UTF-8 is a one-line ValueError."""
    try:
        return read_capped(path, MAX_NOTEBOOK, "lesson notebook")
    except FileError as e:
        raise ValueError(str(e).replace(shown_path(path), path.name, 1)) from None


NOTEBOOK = ".ipynb"  # a submission's suffix, in any case (`Name.IPYNB` too)


def _is_notebook(path: Path) -> bool:
    return path.suffix.casefold() == NOTEBOOK


def _stem(path: Path) -> str:
    """The name a file hands in under: `Ada Lovelace` of `Ada Lovelace.pdf`, and of `Ada Lovelace.ipynb.pdf`."""
    stem = path.stem
    return stem[:-len(NOTEBOOK)] if stem.casefold().endswith(NOTEBOOK) else stem


@lru_cache(maxsize=1)
def _lesson_cells() -> "dict[str, str]":
    """{cell id: lesson ("07")} of the course's lessons: a notebook with no answer is known by its cells."""
    out = {}
    for f in resources.files("meeple.course").iterdir():
        if f.name.endswith(NOTEBOOK) and f.name[:2].isdigit():
            for cell in json.loads(f.read_text(encoding="utf-8"))["cells"]:
                if isinstance(cell.get("id"), str):
                    out[cell["id"]] = f.name[:2]
    return out


def notebook_lesson(text: str) -> "str | None":
    """The course's lesson ("07") a notebook is a copy of, by its cells' ids (which a copy keeps), if
    they name exactly one lesson; else None."""
    try:
        cells = json.loads(text)["cells"]
    except (ValueError, RecursionError, KeyError, TypeError):
        return None
    ids = _lesson_cells()
    found = {ids.get(c.get("id")) for c in cells if isinstance(c, dict) and isinstance(c.get("id"), str)} - {None}
    return found.pop() if len(found) == 1 else None


@dataclass
class Collected:
    """What `collect` found in a folder of submissions."""
    subs: "dict[str, dict]" = field(default_factory=dict)  # roster id -> {exercise: (answer data, id in use)}
    flags: "dict[str, list[str]]" = field(default_factory=dict)  # roster id -> flags of what they handed in
    lines: "list[str]" = field(default_factory=list)  # what to print: skipped files, students read from outputs
    lessons: "set[str]" = field(default_factory=set)  # lessons handed in ("07"), answered or not
    unreadable: "list[str]" = field(default_factory=list)  # why each notebook handed in cannot be read
    unmatched: int = 0  # notebooks read that name no student of the roster

    def flag(self, student: str, text: str) -> None:
        self.flags.setdefault(student, []).append(text)


def collect(folder: Path, cls: ClassKey) -> Collected:
    """Every submission in `folder` matched to a roster student (see the module's docstring): a
    notebook is `*.ipynb` (any case), in `folder` or in a student's folder in it; a name starting
    with "." (.ipynb_checkpoints, .DS_Store) is not looked at. The student is the one that the
    notebooks' metadata.meeple.student names, else the file's or folder's name. A submission that
    names nobody (an LMS's name, `lovelaceada_1234_5678_07_without_replacement.ipynb`) is the one
    student whom the ids in use of all its check() outputs name, if that student handed in nothing
    under their own name (the console says so); else it is skipped, saying why. No name is guessed
    at: a file named like no roster id is never matched by resemblance. A student is in `subs` only
    if a notebook of theirs was read; what they handed in that cannot be graded is theirs all the
    same, flagged (it was handed in: else their row would look as if nothing was): a notebook that
    cannot be read, a file that is not a notebook (a PDF or HTML export) and a notebook with no
    check() output."""
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder of submissions (STUDENT.ipynb or STUDENT/*.ipynb)")
    got = Collected()
    example = f"`{cls.students[0]}.ipynb`"
    rename = f"rename it to its student's roster id (e.g. {example}) or set the notebook's metadata.meeple.student"
    by_outputs = []  # (entry, its reading, the one student its outputs name): placed after every named submission
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        sub = _read_entry(entry)
        got.lessons |= sub["lessons"]
        student = (cls.who(sub["named"]) if sub["named"] else None) or cls.who(sub["own"])
        outputs = sorted({s for s in (cls.who(used) for _, used in sub["answers"].values() if used) if s})
        if student is None and len(outputs) == 1 and sub["read"]:
            by_outputs.append((entry, sub, outputs[0]))
            continue
        if student is None:
            for shown in sub["others"]:
                got.lines.append(f"skipped {shown}: not a notebook (a .ipynb file), and it names no student of the roster")
            got.lines += [f"skipped {entry.name}: {why}" for why in sub["bad"]]
            got.unreadable += sub["bad"]
            if sub["read"]:
                got.unmatched += 1
                why = ("names no student of the roster, nor do its check() outputs" if not outputs else
                       f"names no student of the roster, and its check() outputs were worked with the numbers of "
                       f"{len(outputs)} students ({', '.join(outputs)})")
                got.lines.append(f"skipped {entry.name}: {why}: {rename}")
            continue
        _take(got, student, entry, sub)
    for entry, sub, student in by_outputs:
        if student in got.subs or student in got.flags:
            got.unmatched += 1
            got.lines.append(f"skipped {entry.name}: it names no student of the roster, and its check() outputs were worked "
                             f"with {student}'s numbers, but {student} handed in under their own name too: {rename}")
            continue
        got.lines.append(f"read {entry.name} as {student}'s: its name names no student of the roster, and its check() "
                         f"outputs were worked with {student}'s numbers (if it is someone else's, {rename})")
        _take(got, student, entry, sub)
    return got


def _read_entry(entry: Path) -> dict:
    """One entry of a submissions folder read: its notebooks' answers merged, the name it hands in
    under, what is not a notebook or cannot be read, and the lessons it holds."""
    if entry.is_dir():
        inside = [f for f in sorted(entry.iterdir()) if not f.name.startswith(".")]
        files = [f for f in inside if f.is_file() and _is_notebook(f)]
        others = [f"{entry.name}/{f.name}" + ("/" if f.is_dir() else "") for f in inside if f not in files]
        own = entry.name
    else:
        files = [entry] if _is_notebook(entry) else []
        others = [] if files else [entry.name]
        own = _stem(entry)
    sub = {"own": own, "others": others, "answers": {}, "named": None, "read": [], "bad": [], "empty": [], "lessons": set()}
    for f in files:
        shown = f.name if f == entry else f"{entry.name}/{f.name}"
        try:
            text = _read(f)
            found, meta_name = notebook_answers(text, shown)
        except ValueError as e:
            sub["bad"].append(str(e))
            continue
        sub["read"].append(shown)
        sub["answers"].update(found)
        sub["lessons"] |= {k.split(".", 1)[0] for k in found}
        if not found:
            sub["empty"].append(shown)
            lesson = notebook_lesson(text)
            if lesson:
                sub["lessons"].add(lesson)
        sub["named"] = sub["named"] or meta_name
    return sub


def _take(got: Collected, student: str, entry: Path, sub: dict) -> None:
    """Entry `entry` (read as `sub`) is `student`'s: its answers, and a flag for each thing in it that cannot be graded."""
    for shown in sub["others"]:
        got.flag(student, f"not a notebook handed in: {shown}")
        got.lines.append(f"skipped {shown}: not a notebook (a .ipynb file); flagged in {student}'s row")
    for why in sub["bad"]:
        got.flag(student, f"unreadable notebook handed in: {why}")
        got.lines.append(f"flagged {student}: unreadable notebook handed in: {why}")
    got.unreadable += sub["bad"]
    for shown in sub["empty"]:
        got.flag(student, f"notebook with no check() output handed in: {shown}")
        got.lines.append(f"flagged {student}: {shown} holds no check() output (its cells were not run, or it was saved "
                         "without outputs): its exercises count as missing")
    if not sub["read"]:
        return
    if student in got.subs:
        got.lines.append(f"{entry.name}: a second submission of {student}; its answers are added to the first")
    got.subs.setdefault(student, {}).update(sub["answers"])


NO_STUDENT = "the lesson's own numbers (student() was not run)"


def grade(subs: "dict[str, dict]", cls: ClassKey, exercises: "list[str] | None" = None,
          flags: "dict[str, list[str]] | None" = None, lessons: "set[str] | frozenset[str]" = frozenset()) -> "tuple[list[str], dict]":
    """(the exercise columns, {roster id: {"marks": {ex: pass|fail|missing}, "lines": {ex: text},
    "flags": [text]}}) for every roster student. The columns: `exercises`, else every exercise of
    the lessons answered in `subs` or handed in (`lessons`: collect's, which knows a lesson handed in
    with no answer by its cells). `flags` (collect's): what each student handed in that cannot be
    graded, so their row does not look like nothing was handed in. An answer its checker calls "no
    answer yet" (the exercise's cell run as the lesson gives it) is missing, not failed."""
    lessons = set(lessons) | {k.split(".", 1)[0] for s in subs.values() for k in s}
    known = checking.keys()
    columns = exercises or [k for k in known if k.split(".", 1)[0] in lessons]
    codes = {c.casefold(): s for s, c in cls.codes.items()}
    out: dict = {}
    evidence: dict = {}  # (exercise, evidence as JSON) -> students
    for student in cls.students:
        code = cls.codes[student]
        answers = subs.get(student, {})
        marks, lines = {}, {}
        flagged = list((flags or {}).get(student, []))
        others = set()
        for key in columns:
            if key not in answers:
                marks[key], lines[key] = "missing", "no check() output for this exercise in the submission"
                continue
            data, used = answers[key]
            if used is None:
                others.add(NO_STUDENT)
            elif same_id(used) != same_id(code):
                others.add(codes.get(same_id(used), None) or f"the id {used!r}")
            try:
                value = decode(data)
                with as_student(code):
                    ok, line = checking.judge(key, value)
            except Unreadable as e:
                ok, line = False, f"✗ The saved answer cannot be read back: {e}"
            except Exception as e:  # a checker that breaks on an odd answer fails that answer, not the gradebook
                ok, line = False, f"✗ The grader could not check this answer ({type(e).__name__}: {e})"
            if not ok and line.startswith(checking.NO_ANSWER):
                marks[key], lines[key] = "missing", line  # the cell run unchanged: nothing was answered
                continue
            if is_evidence(data):
                evidence.setdefault((key, json.dumps(data, sort_keys=True)), []).append(student)
            marks[key], lines[key] = ("pass" if ok else "fail"), line
        for other in sorted(others - {student}):
            flagged.append(f"answers worked with {other}'s numbers" if other in cls.codes else f"answers worked with {other}")
        out[student] = {"marks": marks, "lines": lines, "flags": flagged}
    for (key, _), who in sorted(evidence.items()):
        for s in who:
            mates = [w for w in who if w != s and not _explained(key, s, w, cls, out)]
            if mates:
                out[s]["flags"].append(f"identical evidence in {key} with {', '.join(mates)}")
    return columns, out


def _explained(key: str, a: str, b: str, cls: ClassKey, graded: dict) -> bool:
    """Whether equal numbers explain that students `a` and `b` handed in the same evidence for `key`:
    the lessons prescribe each run's seed, so two students whose numbers ask for the same games
    play the same games. That holds when their numbers for the lesson are all equal, or when the
    evidence passes for both (the checker replays it against each one's own numbers: rules,
    bots, games and, where the numbers give one, the seed). Anything else (evidence that is right
    for one student's numbers and handed in by another too) is flagged (judgement call, issue 37:
    students who shared a deck were flagged for the games the lesson told them to play)."""
    lesson = key.split(".", 1)[0]
    if exercise_numbers(lesson, cls.codes[a]) == exercise_numbers(lesson, cls.codes[b]):
        return True
    return graded[a]["marks"].get(key) == "pass" == graded[b]["marks"].get(key)


def gradebook_csv(columns: "list[str]", graded: dict) -> str:
    """The CSV: Student, one column per exercise, Total (passed), Out of, Flags."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["Student", *columns, "Total", "Out of", "Flags"])
    for student, g in graded.items():
        passed = sum(1 for k in columns if g["marks"][k] == "pass")
        w.writerow([student, *(g["marks"][k] for k in columns), passed, len(columns), "; ".join(g["flags"])])
    return buf.getvalue()


def feedback_text(student: str, columns: "list[str]", g: dict) -> str:
    passed = sum(1 for k in columns if g["marks"][k] == "pass")
    lines = [f"# {student}: {passed} of {len(columns)} exercises", ""]
    lines += [f"- **{k}** ({g['marks'][k]}): {g['lines'][k]}" for k in columns]
    if g["flags"]:
        lines += ["", "For your teacher to look at: " + "; ".join(g["flags"]) + "."]
    return "\n".join(lines) + "\n"


def _file_name(student: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in student).strip("._") or "student"
    return safe + ".md"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def feedback_folder(out: Path) -> Path:
    """The feedback folder beside the gradebook `out` (`<out stem>-feedback`), checked before anything
    is graded or written: ValueError in one line if it is a file (or cannot be looked at)."""
    fb = out.with_name(out.stem + "-feedback")
    try:
        if fb.exists() and not fb.is_dir():
            raise ValueError(f"cannot write the feedback to {shown_path(fb)}: it is a file, not a folder")
    except OSError as e:
        raise ValueError(f"cannot write the feedback to {shown_path(fb)}: {e.strerror or e}") from None
    return fb


def grade_folder(folder: Path, cls: ClassKey, out: Path) -> list[str]:
    """Grade every submission in `folder`: write `out` (the CSV) and `<out stem>-feedback/<id>.md`,
    all or nothing (a feedback folder this made is removed again if the files cannot be written);
    the lines to print (what was written, and any submission that could not be matched or read).
    `out` is checked by the caller (`check_writable`); its feedback folder here, before any grading."""
    fb = feedback_folder(out)
    got = collect(Path(folder), cls)
    subs = got.subs
    if not subs:  # nothing to grade: say why, from what was found
        if not got.lines:
            raise ValueError(f"no submission in {folder} (STUDENT.ipynb or STUDENT/*.ipynb, named by roster id)")
        if len(got.unreadable) == len(got.lines):  # every notebook found is damaged
            raise ValueError(f"no submission in {folder} can be read: {got.unreadable[0]}")
        why = [re.sub(r"; flagged in .*'s row$", "", line.removeprefix("skipped ").removeprefix("flagged ")) for line in got.lines]
        raise ValueError(f"no notebook in {folder} can be graded: " + "; ".join(why[:3])
                         + (f"; and {len(why) - 3} more" if len(why) > 3 else ""))
    columns, graded = grade(subs, cls, flags=got.flags, lessons=got.lessons)
    files = {out: gradebook_csv(columns, graded)}
    names: dict = {}
    for student, g in graded.items():
        name = _file_name(student)
        names[name] = names.get(name, 0) + 1
        if names[name] > 1:
            name = name[:-3] + f"-{names[name]}.md"
        files[fb / name] = feedback_text(student, columns, g)
    made = not fb.exists()
    try:
        fb.mkdir(exist_ok=True)
    except OSError as e:
        raise ValueError(f"cannot make the folder {shown_path(fb)}: {e.strerror or e}") from None
    try:
        write_all(files)
    except BaseException:
        if made:
            try:
                fb.rmdir()  # only if this made it and it is still empty
            except OSError:
                pass
        raise
    flagged = sum(1 for g in graded.values() if g["flags"])
    bad = len(got.unreadable)
    return [*got.lines,
            f"graded {_plural(len(subs), 'submission')} of {_plural(len(cls.students), 'student')}"
            + (f"; {_plural(bad, 'unreadable notebook')}" if bad else "")
            + f"; {_plural(len(columns), 'exercise')}: {out}; feedback in {fb}/"
            + (f"; {_plural(flagged, 'student')} flagged (see the Flags column)" if flagged else "")]
