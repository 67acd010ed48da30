"""`meeple lessons DIR` (the course copied out of the package) and `meeple answers`
(the teacher's answer key)."""

from __future__ import annotations

from pathlib import Path

from ..course import copy_course, version
from ..scrub import NotebookError
from .common import CliError


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
    """The teacher's answer key: every exercise's answer, for one student of the class or all of it.
    It needs the class key: a student's numbers come from their code, which the key makes."""
    from meeple.widgets import exercises

    from .classroom import read_class_key

    cls = read_class_key(args.key, "answers")
    try:
        if args.student is None:
            names = cls.students
        else:
            one = cls.who(args.student)
            if one is None:
                raise CliError(f"{args.student!r} is neither an id nor a code of this class's roster "
                               f"({len(cls.students)} students)")
            names = [one]
        for name in names:
            code = cls.codes[name]
            print(f"== {name} (code {code})")
            for key, text in exercises.answer_key(code):
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

    p = sub.add_parser("answers", help="print the teacher's answer key for a class (needs its key): every exercise")
    p.add_argument("--key", metavar="KEYFILE", help="the class key (class-key.json from `meeple class new`); required")
    p.add_argument("--student", metavar="ID", help="one student of the roster, by id or code (default: the whole class)")
    p.set_defaults(func=cmd_answers)
