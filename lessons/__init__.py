"""The course (`meeple.course`): the numbered lessons and the teacher's guide (package data),
and the Python that serves them.

- `exercises`: the lessons' self-checks, per-student numbers and answer key
  (`from meeple.course.exercises import check, say, student`);
- `copying`, `scrub`: `meeple lessons DIR` (the course copied out of the package) and student
  copies without the solution cells; `cli`: the course's `meeple` commands;
- `site`: the static site's builder and the runtime it ships to the reader's browser.

Nothing is imported here: `meeple lessons` and the site's Pyodide worker load only what they use.
"""
