"""The README fits on two screens and every link in it goes somewhere; the pages it sends the
reader to are current (issue 39).

- README.md has at most README_LINES lines (it had 761: the rest became pages of the course site,
  lessons/design_notes.md and lessons/commands.md);
- every Markdown link and image of the README (and of the pages it links in lessons/) that is not
  a web address names a file of the repository, and its #anchor a heading of that file (as GitHub
  and Jupyter Book make them); a web address is https and not an invented home of this project;
- lessons/commands.md is what `python -m meeple.rules.cli.reference` writes today.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from meeple.rules.cli.reference import reference_markdown

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
README_LINES = 250
PAGES = [README, ROOT / "lessons" / "design_notes.md", ROOT / "lessons" / "commands.md"]
LINK = re.compile(r"!?\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)\)")
FENCE = re.compile(r"^\s*```")


def _prose(text: str) -> str:
    """The text outside fenced code blocks (a link in code is not a link)."""
    out, inside = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
        elif not inside:
            out.append(line)
    return "\n".join(out)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub (and MyST's heading anchors) make it: lower case, code marks
    and punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(m[1]) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", _prose(path.read_text()), re.M)}


def links(path: Path) -> list[str]:
    return [m["target"] for m in LINK.finditer(_prose(path.read_text()))]


def test_the_readme_fits_its_limit():
    lines = README.read_text().count("\n")
    assert lines <= README_LINES, (f"README.md has {lines} lines, more than {README_LINES}: move the detail to a page "
                                   "of the course site (lessons/design_notes.md) and link it")


def test_the_slug_is_githubs():
    assert slug("For researchers: the four games in OpenSpiel") == "for-researchers-the-four-games-in-openspiel"
    assert slug("Setting up: what `make lab` and `make test` do") == "setting-up-what-make-lab-and-make-test-do"
    assert slug("The designer's workbench") == "the-designers-workbench"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_goes_somewhere(page):
    found = links(page)
    if page == README:
        assert len(found) >= 10 and any(t.endswith(".png") for t in found), found  # the picture
    bad = []
    for target in found:
        if re.match(r"^[a-z]+:", target):
            if not target.startswith("https://") or "meeple" in target.split("/")[2]:
                bad.append(f"{target}: a web address must be https and not an invented home of meeple")
            continue
        file, _, anchor = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        if not dest.exists():
            bad.append(f"{target}: no such file {dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest}")
        elif anchor and (dest.suffix != ".md" or anchor not in anchors(dest)):
            bad.append(f"{target}: no heading #{anchor} in {dest.relative_to(ROOT)}")
    assert not bad, f"{page.name}: " + "; ".join(bad)


def test_the_readmes_image_is_a_file_of_the_repository():
    images = [m["target"] for m in LINK.finditer(_prose(README.read_text())) if m[0].startswith("!")]
    assert images and all((ROOT / t).is_file() and t.startswith("lessons/images/") for t in images), images


def test_the_command_reference_is_current():
    page = ROOT / "lessons" / "commands.md"
    assert page.read_text() == reference_markdown(), (
        "lessons/commands.md is not what the parser says: run "
        "`.venv/bin/python -m meeple.rules.cli.reference --write lessons/commands.md`")


def test_the_command_reference_names_every_command_and_argument():
    from meeple.rules.cli import build_parser

    text = reference_markdown()
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, command in sub.choices.items():
        assert f"## `meeple {name}`" in text and f"(#meeple-{name})" in text
        for action in command._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert f"`{flag}" in text or f", {flag}" in text, f"meeple {name} {flag} is not in the reference"
