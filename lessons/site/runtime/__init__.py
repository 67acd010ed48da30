"""The course site's runtime in the reader's browser (`meeple.course.site.runtime`).

`live` and `transport` run the widgets' sessions in the page's Pyodide worker (`static/meeple-worker.js`
imports them), `cells` runs a lesson's exercise cells; `static/` holds the site's own scripts
(meeple-*.js, meeple-live.css), which the builder copies into every site. Only the standard library
and meeple.rules / meeple.widgets' plain classes are imported: no Jupyter, no pandas.
"""
