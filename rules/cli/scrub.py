"""`meeple scrub LESSONS OUT`: student copies of a folder of lessons, without the cells
tagged "solution" (rules/scrub.py does each notebook)."""

from __future__ import annotations

from pathlib import Path

from ..files import read_capped, shown_path, write_all
from ..scrub import NotebookError, scrub_notebook
from .common import MAX_READ, CliError


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


def register(sub) -> None:
    """Add scrub to the `meeple` command's subparsers."""
    p = sub.add_parser("scrub", help="copy the lessons for students, without the cells tagged 'solution'")
    p.add_argument("lessons", help="folder of lesson notebooks")
    p.add_argument("out", help="folder for the student copies")
    p.set_defaults(func=cmd_scrub)
