"""`meeple lessons DIR` (the course copied out of the package) and `meeple answers`
(the teacher's answer key)."""

from __future__ import annotations

from pathlib import Path

from ..course import copy_course, version
from ..files import read_capped
from ..scrub import NotebookError
from .common import MAX_READ, CliError


def cmd_lessons(args) -> int:
    if not args.dir.strip():
        raise CliError("lessons needs a folder to copy the course into, got an empty name")
    dest = Path(args.dir)
    try:
        status = copy_course(dest, args.student)
    except NotebookError as e:
        raise CliError(str(e)) from None
    kind = ("student copy: no solutions, no outputs" if args.student
            else "solution cells folded; --student for a class copy without them")
    print(f"meeple {version()}: the course in {dest} ({kind})")
    labels = {"copied": "copied", "updated": "updated (you had not changed them)", "unchanged": "already up to date",
              "kept": "kept as you changed them",
              "kept_new": f"kept as you left them, though meeple {version()} has another version"}
    for key, label in labels.items():
        names = status[key]
        if names:
            print(f"  {label}: {len(names)} files" if key == "unchanged" else f"  {label}: {', '.join(names)}")
    if status["kept_new"]:
        print("  (to get this version of a kept file, rename yours and run `meeple lessons` again)")
    print(f"Open the folder in any notebook host, e.g. `jupyter lab {dest}` (pip install 'meeple[lab]'), "
          "Notebook 7, VS Code or Colab.")
    return 0


def cmd_answers(args) -> int:
    """The teacher's answer key: every exercise's answer, for one student, a class or the defaults."""
    from meeple.widgets import exercises

    try:
        names = ([args.student] if args.student is not None else
                 exercises.read_roster(read_capped(Path(args.roster), MAX_READ, "roster")) if args.roster else [None])
        for name in names:
            print(f"== {name} (id {exercises.normalise(name)!r})" if name is not None else "== the lessons' own numbers")
            for key, text in exercises.answer_key(name):
                print(f"{key}: {text}")
    except ValueError as e:
        raise CliError(str(e)) from None
    return 0


def register(sub) -> None:
    """Add lessons and answers to the `meeple` command's subparsers."""
    p = sub.add_parser("lessons", help="copy the course's lessons (and the teacher's guide) into a folder")
    p.add_argument("dir", help="the folder for your copy (made if missing; lessons you changed there are kept)")
    p.add_argument("--student", action="store_true",
                   help="a copy for a class: without the cells tagged 'solution', outputs or the teacher's guide")
    p.set_defaults(func=cmd_lessons)

    p = sub.add_parser("answers", help="print the teacher's answer key: every exercise, for a student or a class")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--student", metavar="NAME", help="the name or id the student passes to student(...)")
    who.add_argument("--class", dest="roster", metavar="ROSTER.csv", help="a CSV with a column 'name' or 'id'")
    p.set_defaults(func=cmd_answers)
