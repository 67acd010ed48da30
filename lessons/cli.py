"""The course's commands of `meeple`: `scrub` (student copies of a folder of lessons),
`lessons DIR` (the course copied out of the package), `answers` (the teacher's answer key),
`class new ROSTER.csv DIR` (a class's secret key and each student's code), `grade SUBMISSIONS
--key KEYFILE --out grades.csv` (the gradebook from submitted notebooks) and `site DIR` (the
course as a static site, built from the installed package).

meeple.rules.cli adds them with `register(sub)` when it builds its parser (meeple.rules never
imports the course at module level). A new course command is one more `sub.add_parser` in
`register` below, with its `cmd_*` function here.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from meeple.rules.cli.common import MAX_READ, CliError, check_writable
from meeple.rules.files import read_capped, shown_path, shown_text, write_all
from meeple.rules.rulebook import version

from . import classroom
from .copying import copy_course
from .scrub import NotebookError, scrub_notebook


def cmd_scrub(args) -> int:
    """Copy lessons for students: the cells tagged "solution" are left out.

    Every notebook is read and checked, and every target checked, before the
    first file is written; the copies are then renamed into place together."""
    src, out = Path(args.lessons), Path(args.out)
    if not src.is_dir():
        raise CliError(f"{shown_path(src)} is not a folder of notebooks")
    books = sorted(b for b in src.glob("*.ipynb"))
    if not books:
        raise CliError(f"{shown_path(src)} holds no .ipynb notebooks")
    try:
        same = out.resolve() == src.resolve()
    except (OSError, RuntimeError) as e:
        raise CliError(f"cannot use {shown_path(out)} for the copies: {e}") from None
    if same:
        raise CliError("the student copy must go to another folder than the lessons")
    try:
        scrubbed = [(b, *scrub_notebook(read_capped(b, MAX_READ, "notebook"), b.name)) for b in books]
    except NotebookError as e:
        raise CliError(str(e)) from None  # all checked first
    try:
        if out.exists() and not out.is_dir():
            raise CliError(f"cannot write the copies to {shown_path(out)}: it is a file, not a folder")
        for book, _, _ in scrubbed:
            if (out / book.name).is_dir():
                raise CliError(f"cannot write {shown_path(out / book.name)}: it is a folder")
        made = not out.exists()
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CliError(f"cannot make the folder {shown_path(out)}: {e.strerror or e}") from None
    try:
        write_all({out / book.name: text for book, text, _ in scrubbed})
    except BaseException:
        if made:
            try:
                out.rmdir()  # only if we made it and it is still empty
            except OSError:
                pass
        raise
    for book, _, removed in scrubbed:
        print(f"{book.name}: {removed} solution cell(s) removed")
    return 0


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


def read_class_key(path: "str | None", command: str) -> classroom.ClassKey:
    """The class key of `--key`; CliError in one line without one (the key is the teacher's)."""
    if not path:
        raise CliError(f"{command} needs the class key: --key KEYFILE (the {classroom.KEY_FILE} that "
                       "`meeple class new ROSTER.csv DIR` wrote; it is the teacher's, not the students')")
    try:
        return classroom.read_key(Path(path))
    except ValueError as e:
        raise CliError(str(e)) from None


def cmd_answers(args) -> int:
    """The teacher's answer key: every exercise's answer, for one student of the class or all of it.
    It needs the class key: a student's numbers come from their code, which the key makes."""
    from . import exercises  # the four games, exact and workbench: only `meeple answers` needs them

    cls = read_class_key(args.key, "answers")
    try:
        if args.student is None:
            names = cls.students
        else:
            one = cls.who(args.student)
            if one is None:
                raise CliError(f"--student {shown_text(repr(args.student), 60)} is neither an id nor a code of this class's roster "
                               f"({len(cls.students)} students)")
            names = [one]
        for name in names:
            code = cls.codes[name]
            print(f"== {shown_text(name)} (code {code})")  # a roster's name may hold a terminal escape
            for key, text in exercises.answer_key(code):
                print(f"{key}: {text}")
    except ValueError as e:
        raise CliError(str(e)) from None
    return 0


def cmd_class_new(args) -> int:
    if not args.dir.strip():
        raise CliError("class new needs a folder for the class key and codes, got an empty name")
    try:
        cls = classroom.new_class(classroom.roster_text(Path(args.roster), MAX_READ), Path(args.dir))
    except ValueError as e:
        raise CliError(str(e)) from None
    folder = Path(args.dir)
    print(f"a class of {len(cls.students)}: the key in {folder / classroom.KEY_FILE} (yours alone: `meeple "
          f"answers` and `meeple grade` need it), each student's code in "
          f"{folder / classroom.CODES_FILE} (give each student their own; they run student(\"CODE\"))")
    return 0


def cmd_grade(args) -> int:
    from . import grading  # it re-checks with the exercises (the four games, exact, workbench)

    cls = read_class_key(args.key, "grade")
    out = check_writable(args.out, "--out")  # as every command's --out: before anything is graded or written
    try:
        report = grading.grade_folder(Path(args.submissions), cls, out)
    except ValueError as e:
        raise CliError(str(e)) from None
    for line in report:
        print(line)
    return 0


def cmd_site(args) -> int:
    """The course site into DIR/html (what `make site` writes to lessons/_build/html)."""
    from . import exercises  # (as `meeple answers`) a roster is read as student() reads a name
    from .site import build  # the builder: only `meeple site` needs it (it imports altair: seconds)

    if not args.dir.strip():
        raise CliError("site needs a folder to build the site in, got an empty name")
    if args.roster and not args.graded:
        raise CliError("--roster is for a graded site: add --graded")
    try:  # every name checked before npm installs anything or a lesson runs
        build.check_out(Path(args.dir))
        build.chosen_lessons(args.lessons)
    except ValueError as e:
        raise CliError(str(e)) from None
    try:
        roster = exercises.read_roster(classroom.roster_text(Path(args.roster), MAX_READ)) if args.roster else None
    except ValueError as e:
        raise CliError(f"--roster {args.roster}: {e}") from None
    try:
        build.build(Path(args.dir), solutions=not args.graded, patterns=args.lessons, roster=roster)
    except SystemExit as e:  # the builder's one line: what is missing, what went wrong
        if isinstance(e.code, str):
            raise CliError(e.code.removeprefix("build_site: ")) from None
        raise
    except subprocess.CalledProcessError as e:
        raise CliError(f"{Path(str(e.cmd[0])).name} failed (exit {e.returncode}); see the messages above") from None
    return 0


def register(sub) -> None:
    """Add the course's commands (scrub, lessons, answers, class new, grade, site) to the `meeple` command's subparsers."""
    p = sub.add_parser("scrub", help="copy the lessons for students, without the cells tagged 'solution'")
    p.add_argument("lessons", help="folder of lesson notebooks")
    p.add_argument("out", help="folder for the student copies")
    p.set_defaults(func=cmd_scrub)

    p = sub.add_parser("lessons", help="copy the course's lessons (and the teacher's guide) into a folder")
    p.add_argument("dir", help="the folder for your copy (made if missing; lessons you changed there are kept)")
    p.add_argument("--student", action="store_true",
                   help="a copy for a class: without the cells tagged 'solution', outputs or the teacher's guide")
    p.set_defaults(func=cmd_lessons)

    p = sub.add_parser("answers", help="print the teacher's answer key for a class (needs its key): every exercise")
    p.add_argument("--key", metavar="KEYFILE", help="the class key (class-key.json from `meeple class new`); required")
    p.add_argument("--student", metavar="ID", help="one student of the roster, by id or code (default: the whole class)")
    p.set_defaults(func=cmd_answers)

    p = sub.add_parser("class", help="a class: a secret key and each student's code (class new ROSTER.csv DIR)")
    csub = p.add_subparsers(dest="class_command", required=True)
    n = csub.add_parser("new", help="make a class's key (mode 0600) and each student's code from a roster CSV")
    n.add_argument("roster", help="a CSV with a column 'id' or 'name', one student a row")
    n.add_argument("dir", help="a new folder for class-key.json and codes.csv")
    n.set_defaults(func=cmd_class_new)

    p = sub.add_parser("grade", help="grade submitted notebooks: one CSV row per student, one column per exercise")
    p.add_argument("submissions", help="a folder of submitted notebooks (STUDENT.ipynb, or STUDENT/*.ipynb)")
    p.add_argument("--key", metavar="KEYFILE", help="the class key (class-key.json from `meeple class new`)")
    p.add_argument("--out", metavar="grades.csv", required=True,
                   help="the gradebook CSV; feedback files go in a folder beside it (grades-feedback/)")
    p.set_defaults(func=cmd_grade)

    p = sub.add_parser("site", help="build the course as a static web site into DIR/html (pip install 'meeple[site]', and npm)")
    p.add_argument("dir", help="the build folder: the site goes to DIR/html, npm's packages and the staging to DIR/work")
    p.add_argument("--graded", action="store_true",
                   help="leave the cells tagged 'solution' out and seal the exact answers (a graded class)")
    p.add_argument("--roster", metavar="ROSTER.csv",
                   help="with --graded: a CSV with a column 'name' or 'id'; each student's own answers are sealed too")
    p.add_argument("--lessons", nargs="+", metavar="GLOB", help="only the lessons matching these names or globs")
    p.set_defaults(func=cmd_site)
