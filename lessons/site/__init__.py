"""The course as a static HTML site (`meeple.course.site`): the builder and the in-browser runtime.

- `build`: the builder (`python -m meeple.course.site.build`, `make site`), with `vendor` (the
  packages the site serves), `pages` (the built pages rewritten), `cells` (the runnable exercise
  cells), `lab` (the variant lab page) and `graded` (a graded build's wheel);
- `runtime`: what runs in the reader's browser (the Pyodide worker's Python and the site's own
  scripts in runtime/static/).

Nothing is imported here: the worker imports `meeple.course.site.runtime.*` in Pyodide, where the
builder's packages do not exist.
"""
