"""The course site's variant lab page (issue 25), for lessons/site/build.py.

`lab.html`: pick a game, set rule numbers by the names `--set` takes, play both rule sets in the
browser (progress, Cancel) and read compare's own comparison (paired, with intervals and rule
usage); a link that restores the lab, a variant file for `meeple compare --variant`, and the
command that prints the same figures, and the HTML report (one self-contained file, made in the
page's Python by the builder `meeple compare --report` uses). The page's
script is lessons/site/runtime/static/meeple-lab.js; the work is meeple.widgets.lab in the page's Pyodide.
"""

from __future__ import annotations

import shutil
from pathlib import Path

PAGE = "lab"
SCRIPTS = ("meeple-live.js", "meeple-lab.js")
TEXT = """# Variant lab

Change one or more rule numbers of a game and play the changed rules against the base game,
here in your browser. Both rule sets play the same games (game *i* of each is dealt from the
same seed), so every difference below is measured game by game, with its 95% interval, as
`meeple compare` measures it; the rule-usage lines say whether the bots ever used the number
you changed (a rule no bot uses cannot show an effect).

Name a number as `--set` does: a field (`bonus=6`), one entry of a list (`hand_sizes[1]=12`),
a whole list (`track=2,-1,0,1`) or a named number (`hand_size=9`). *Common numbers* are shared:
the base rules and every variant start from them (as `meeple compare --set` gives them), and a
variant's own numbers win over them. The page's address then
holds your variant: share it, and whoever opens it sees the same lab. The variant file is
what `meeple compare --variant FILE.toml` reads; the command under the table prints the same
figures from the same seeds. *Download report* saves the comparison as one HTML file to share
(charts, variant files, every paired figure, rule usage and that command; it opens offline),
the same file `--report report.html` writes from the command line.
Links and files carry this site's meeple version and chance fingerprint, and say so when they
are opened with another.

<div id="meeple-lab" class="meeple-lab">The lab needs JavaScript (it runs Python in your browser).</div>
"""


def stage(src: Path) -> list[str]:
    """Write the lab's page into the staged book; the pages to add to the table of contents."""
    (src / f"{PAGE}.md").write_text(TEXT)
    return [PAGE]


def vendor_files(static: Path, vendor: Path) -> None:
    shutil.copy2(static / "meeple-lab.js", vendor)


def add_scripts(html: Path) -> bool:
    page = html / f"{PAGE}.html"
    if not page.exists():
        return False
    text = page.read_text()
    tags = "".join(f'<script src="_static/{s}"></script>\n' for s in SCRIPTS if f'src="_static/{s}"' not in text)
    # at the end of the body: the lab's <div> is there by then
    page.write_text(text.replace("</body>", tags + "</body>", 1))
    return True
