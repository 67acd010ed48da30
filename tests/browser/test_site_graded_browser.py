"""Issue 24 item 4, in the browser: a graded site (`make site SOLUTIONS=no ROSTER=...`) checks a
student's exact answers against the sealed hashes in the page's own Python.

The site: one lesson (07, three sealed exercises), not run (--no-execute), graded with a roster of
two students: the session's graded build (tests/conftest.py's `graded_tree`, which
tests/site/test_site_graded.py searches too), served on its own port. A student edits an
exercise cell on the page and runs it: their own answer says "✓ Right", a wrong one and their
neighbour's answer say "✗", and the page has no solution cell and no "Show solution". Every wait
is on a condition (the cell's data-meeple-cell="done"), bounded only by the suite's outer deadline.
"""

from __future__ import annotations

import sys
from fractions import Fraction

import pytest
from site_build import local
from site_exercises import type_code

from meeple.course import exercises as ex

LESSON = "07_without_replacement"
ROSTER = ["Ada Lovelace", "Alan Turing"]
ME, NEIGHBOUR = ROSTER


@pytest.fixture(scope="module")
def graded_site(graded_tree, free_port, server, tmp_path_factory):
    """The session's graded build (tests/conftest.py's `graded_tree`), served on its own port."""
    assert graded_tree.lesson == LESSON and graded_tree.roster == ROSTER, graded_tree
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(graded_tree.html)]
    with server(cmd, url + "/index.html", tmp_path_factory.getbasetemp() / f"http-{port}.log", "http.server", 10):
        yield url, graded_tree.html


def _key() -> str:
    """A sealed exercise of the lesson whose answer differs between the two students (so a
    neighbour's answer is a real test)."""
    for key in ("07.third", "07.no_double", "07.bruces"):
        if ex.answer(key, ME) != ex.answer(key, NEIGHBOUR):
            return key
    raise AssertionError("lesson 7 gives both students the same answers: pick other roster ids")


def _run(page, cell, code: str) -> str:
    """Type `code` into the cell's editor, run it in the page's Python, and return what it printed."""
    type_code(page, cell, code)
    cell.locator(".meeple-cell-run").click()
    page.wait_for_function("c => c.dataset.meepleCell === 'done'", arg=cell.element_handle())
    return cell.locator(".meeple-cell-output").inner_text()


def test_a_student_checks_their_own_answer_on_a_graded_page(graded_site, browser, shots):
    url, html = graded_site
    text = (html / f"{LESSON}.html").read_text()
    assert "Show solution" not in text and "tag_solution" not in text and "meeple-solution" not in text
    key = _key()
    mine, theirs = Fraction(ex.answer(key, ME)), Fraction(ex.answer(key, NEIGHBOUR))

    def cell_code(value: Fraction) -> str:
        return (f"from fractions import Fraction\nfrom meeple.course.exercises import check, student\n"
                f"student({ME!r})\ncheck({key!r}, Fraction({value.numerator}, {value.denominator}))\n")

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(600_000)
    requests, errors = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{url}/{LESSON}.html")
        cell = page.locator(".cell.tag_meeple-exercise").first
        cell.wait_for()
        assert page.get_by_text("Show solution").count() == 0 and page.locator(".tag_solution").count() == 0
        said = _run(page, cell, cell_code(mine))
        assert "✓ Right" in said and "✗" not in said, said
        page.screenshot(path=str(shots / "graded-right-1280.png"), full_page=False)
        said = _run(page, cell, cell_code(mine + Fraction(1, 1000)))
        assert "✗" in said and "✓" not in said, said
        said = _run(page, cell, cell_code(theirs))
        assert "✗" in said and "✓" not in said, said  # the neighbour's answer is not mine
        # the graded Python has no answer key and no recipe to hand out
        said = _run(page, cell, f"from meeple.course import exercises as ex\ntry:\n    ex.answer({key!r})\n"
                                "except ValueError as e:\n    print('no key:', e)\n")
        assert "no key:" in said, said
        assert page.get_by_text("Show solution").count() == 0
        for width in (390, 1400):
            page.set_viewport_size({"width": width, "height": 900})
            cell.scroll_into_view_if_needed()
            page.screenshot(path=str(shots / f"graded-{width}.png"))
    finally:
        page.close()
    assert not errors, errors
    assert all(local(u) for u in requests), [u for u in requests if not local(u)]
