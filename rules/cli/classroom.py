"""`meeple class new ROSTER.csv DIR` (a class's secret key and each student's code) and
`meeple grade SUBMISSIONS --key KEYFILE --out grades.csv` (the gradebook from submitted notebooks)."""

from __future__ import annotations

from pathlib import Path

from meeple.course import classroom

from ..files import read_capped
from .common import MAX_READ, CliError


def read_class_key(path: "str | None", command: str) -> classroom.ClassKey:
    """The class key of `--key`; CliError in one line without one (the key is the teacher's)."""
    if not path:
        raise CliError(f"{command} needs the class key: --key KEYFILE (the {classroom.KEY_FILE} that "
                       "`meeple class new ROSTER.csv DIR` wrote; it is the teacher's, not the students')")
    try:
        return classroom.read_key(Path(path))
    except ValueError as e:
        raise CliError(str(e)) from None


def cmd_class_new(args) -> int:
    try:
        cls = classroom.new_class(read_capped(Path(args.roster), MAX_READ, "roster"), Path(args.dir))
    except ValueError as e:
        raise CliError(str(e)) from None
    folder = Path(args.dir)
    print(f"a class of {len(cls.students)}: the key in {folder / classroom.KEY_FILE} (keep it: it is what makes "
          f"the numbers and `meeple answers`/`meeple grade` need it), each student's code in "
          f"{folder / classroom.CODES_FILE} (give each student their own; they run student(\"CODE\"))")
    return 0


def cmd_grade(args) -> int:
    from meeple.course import grading

    cls = read_class_key(args.key, "grade")
    try:
        report = grading.grade_folder(Path(args.submissions), cls, Path(args.out))
    except ValueError as e:
        raise CliError(str(e)) from None
    for line in report:
        print(line)
    return 0


def register(sub) -> None:
    """Add `class new` and `grade` to the `meeple` command's subparsers."""
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
