"""The gradebook (`meeple grade SUBMISSIONS --key KEYFILE --out grades.csv`): submitted notebooks
checked again, as data, against each student's own numbers.

A submission is a notebook saved with its outputs: `SUBMISSIONS/<student>.ipynb`, or every
notebook in `SUBMISSIONS/<student>/` (an LMS download's folder per student). The student is the
roster id (or class code) the notebook's `metadata.meeple.student` names, else the file's or
folder's name. The answers are the data each `check(...)` output carries (meeple.course.submission
says the convention); nothing of the notebook is executed here, and no saved verdict is read:

- each answer is decoded by a strict reader (JSON tags, never eval or pickle);
- a run of games is played again here from its seed, rules and bots (at most MAX_GAMES games),
  so only games the engine really deals count;
- each exercise's own checker judges it with the student's numbers (`as_student(code)`).

The CSV has one row per roster student (one who submitted nothing is all "missing"), a column
per exercise of the lessons anyone submitted ("pass", "fail" or "missing"), the number passed
("Total") and "Flags": answers worked with another student's code, identical evidence (the same
games) in two students' work that their numbers do not explain (`_explained`), and a notebook
handed in that cannot be read (else that row would look as if nothing was handed in). A flag is a question for the teacher, not a verdict. Beside the
CSV, a folder of feedback files: each exercise's verdict line as `check()` would show it.
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
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


def collect(folder: Path, cls: ClassKey) -> "tuple[dict[str, dict], dict[str, list[str]], list[str]]":
    """({roster id: {exercise: (answer data, id in use)}}, {roster id: [why a notebook they handed in
    cannot be read]}, problems): every submission in `folder` matched to a roster student (see the
    module's docstring). A student is in the first only if a notebook of theirs was read; an
    unreadable one is theirs all the same (the gradebook flags it: it was handed in). Problems are
    one line each: a submission that names nobody."""
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder of submissions (STUDENT.ipynb or STUDENT/*.ipynb)")
    subs: dict[str, dict] = {}
    unreadable: dict[str, list[str]] = {}
    problems: list[str] = []
    entries = sorted(folder.iterdir())
    for entry in entries:
        files = sorted(entry.glob("*.ipynb")) if entry.is_dir() else [entry] if entry.suffix == ".ipynb" else []
        if not files:
            continue
        merged: dict = {}
        named = None
        read, bad = 0, []
        for f in files:
            shown = f.name if f == entry else f"{entry.name}/{f.name}"
            try:
                found, meta_name = notebook_answers(_read(f), shown)
            except ValueError as e:
                bad.append(str(e))
                continue
            read += 1
            merged.update(found)
            named = named or meta_name
        student = (cls.who(named) if named else None) or cls.who(entry.stem if entry.is_file() else entry.name)
        if student is None:
            problems += [f"{entry.name}: {why}" for why in bad]
            problems.append(f"{entry.name}: names no student of the roster (name the file or folder by the "
                            "student's roster id, or set the notebook's metadata.meeple.student)")
            continue
        if bad:
            unreadable.setdefault(student, []).extend(bad)
        if not read:
            continue
        if student in subs:
            problems.append(f"{entry.name}: a second submission of {student}; its answers are added to the first")
        subs.setdefault(student, {}).update(merged)
    return subs, unreadable, problems


def grade(subs: "dict[str, dict]", cls: ClassKey, exercises: "list[str] | None" = None,
          unreadable: "dict[str, list[str]] | None" = None) -> "tuple[list[str], dict]":
    """(the exercise columns, {roster id: {"marks": {ex: pass|fail|missing}, "lines": {ex: text},
    "flags": [text]}}) for every roster student. `unreadable` (collect's): each notebook a student
    handed in that cannot be read is a flag, so their row does not look like nothing was handed in."""
    lessons = {k.split(".", 1)[0] for s in subs.values() for k in s}
    known = checking.keys()
    columns = exercises or [k for k in known if k.split(".", 1)[0] in lessons]
    codes = {c.casefold(): s for s, c in cls.codes.items()}
    out: dict = {}
    evidence: dict = {}  # (exercise, evidence as JSON) -> students
    for student in cls.students:
        code = cls.codes[student]
        answers = subs.get(student, {})
        marks, lines = {}, {}
        flags = [f"unreadable notebook handed in: {why}" for why in (unreadable or {}).get(student, [])]
        others = set()
        for key in columns:
            if key not in answers:
                marks[key], lines[key] = "missing", "no check() output for this exercise in the submission"
                continue
            data, used = answers[key]
            if used is None or same_id(used) != same_id(code):
                others.add(codes.get(same_id(used or ""), None) or f"the id {used!r}")
            if is_evidence(data):
                evidence.setdefault((key, json.dumps(data, sort_keys=True)), []).append(student)
            try:
                value = decode(data)
                with as_student(code):
                    ok, line = checking.judge(key, value)
            except Unreadable as e:
                ok, line = False, f"✗ The saved answer cannot be read back: {e}"
            except Exception as e:  # a checker that breaks on an odd answer fails that answer, not the gradebook
                ok, line = False, f"✗ The grader could not check this answer ({type(e).__name__}: {e})"
            marks[key], lines[key] = ("pass" if ok else "fail"), line
        for other in sorted(others - {student}):
            flags.append(f"answers worked with {other}'s numbers" if other in cls.codes else f"answers worked with {other}")
        out[student] = {"marks": marks, "lines": lines, "flags": flags}
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
    subs, unreadable, problems = collect(Path(folder), cls)
    if not subs:
        if unreadable:
            why = next(iter(unreadable.values()))[0]
            raise ValueError(f"no submission in {folder} can be read: {why}")
        raise ValueError(f"no submission in {folder} names a student of the roster" + (f": {problems[0]}" if problems else ""))
    columns, graded = grade(subs, cls, unreadable=unreadable)
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
    bad = sum(len(v) for v in unreadable.values())
    return [*(f"skipped {p}" for p in problems),
            *(f"flagged {student}: unreadable notebook handed in: {why}" for student, whys in unreadable.items() for why in whys),
            f"graded {_plural(len(subs), 'submission')} of {_plural(len(cls.students), 'student')}"
            + (f"; {_plural(bad, 'unreadable notebook')}" if bad else "")
            + f"; {_plural(len(columns), 'exercise')}: {out}; feedback in {fb}/"
            + (f"; {_plural(flagged, 'student')} flagged (see the Flags column)" if flagged else "")]
