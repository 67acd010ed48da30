"""The course site on a phone, a small laptop and a desktop (issue 24 item 6).

At 390, 1024 and 1400 px wide, each lesson with a widget kind (a Stepper, an Explorer, a
plain chart) is opened and drawn: the page never scrolls sideways, no widget or chart
is wider than the column it sits in (the Explorer's chart was 787 px in a 755 px column,
its ring cut off), the Explorer's numbers stay whole words in a box at most 600 px tall,
and every space of a Stepper's track is in view (issue 38). Screenshots of each go to $MEEPLE_SCREENSHOTS for a person to look at.
"""

from __future__ import annotations

import pytest
from site_build import lessons_with
from test_site import ALL_DRAWN

pytestmark = pytest.mark.browser
WIDTHS = (390, 1024, 1400)
# Every drawn widget and chart, measured against the element it sits in (its column).
TOO_WIDE = """() => {
    const out = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) out.push(`the page scrolls sideways: ${doc.scrollWidth} > ${doc.clientWidth}`);
    document.querySelectorAll('.widget-subarea').forEach((area, i) => {
        const column = area.closest('.cell_output') || area.parentElement;
        const room = column.getBoundingClientRect();
        const drawn = 'svg.marks, .meeple-stepper, .meeple-explorer, .meeple-explorer-controls, .widget-box, .meeple-live-bar';
        area.querySelectorAll(drawn).forEach((e) => {
            const r = e.getBoundingClientRect();
            if (r.width > 0 && (r.right > room.right + 1 || r.left < room.left - 1))
                out.push(`widget ${i}: ${e.className.baseVal ?? e.className} spans ${r.left.toFixed(0)}-${r.right.toFixed(0)}` +
                         ` in a column ${room.left.toFixed(0)}-${room.right.toFixed(0)}`);
        });
    });
    return out;
}"""


# Issue 38, on a phone: the Explorer's numbers at most about 600 px tall (scrolling inside their
# box beyond that), no word of theirs broken across lines (the table was one letter a line, 1,500
# px tall), and every space of a Stepper's track in view (a scrolled row showed 7 of 13).
SQUEEZED = """() => {
    const out = [];
    document.querySelectorAll('.meeple-explorer-numbers').forEach((box, i) => {
        const tall = box.getBoundingClientRect().height;
        if (tall > 601) out.push(`Explorer ${i}: its numbers are ${tall.toFixed(0)} px tall`);
        box.querySelectorAll('th, td').forEach((c) => {
            const words = c.textContent.trim().split(/\\s+/).filter(Boolean).length;
            const text = document.createRange();  // the cell's own text (a row is as tall as its tallest cell)
            text.selectNodeContents(c);
            const lines = new Set([...text.getClientRects()].map((r) => Math.round(r.top))).size;
            if (words && lines > words) out.push(`Explorer ${i}: '${c.textContent}' broken over ${lines} lines`);
        });
    });
    document.querySelectorAll('.meeple-track').forEach((track, i) => {
        const room = track.getBoundingClientRect();
        track.querySelectorAll('.meeple-space').forEach((sp, k) => {
            const r = sp.getBoundingClientRect();
            if (r.right > room.right + 1 || r.left < room.left - 1 || r.width < 30)
                out.push(`Stepper ${i}: space ${k} is out of view (${r.left.toFixed(0)}-${r.right.toFixed(0)}` +
                         ` in ${room.left.toFixed(0)}-${room.right.toFixed(0)})`);
        });
    });
    return out;
}"""


def _lessons(site) -> list[str]:
    """One lesson for each widget kind the test build ran (a lesson may show several): the first
    of each, lesson 1's Stepper with its track of spaces among them."""
    chosen: list[str] = []
    for kind in ("Stepper", "Explorer"):
        found = lessons_with(kind, site.executed)
        if found and found[0] not in chosen:
            chosen.append(found[0])
    return chosen or site.lessons[:1]


@pytest.mark.parametrize("width", WIDTHS)
def test_no_widget_or_chart_overflows_its_column(site, browser, shots, width):
    for lesson in _lessons(site):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        try:
            page.goto(f"{site.url}/{lesson}.html")
            page.wait_for_function(ALL_DRAWN)
            page.wait_for_function("() => [...document.querySelectorAll('.meeple-explorer')].every("
                                   "e => e.querySelector('.meeple-explorer-chart svg'))")
            assert page.locator(".widget-subarea").count() > 0
            assert page.evaluate(TOO_WIDE) == [], f"{lesson} at {width} px"
            assert page.evaluate(SQUEEZED) == [], f"{lesson} at {width} px"
            for kind, sel in (("stepper", ".meeple-stepper"), ("explorer", ".meeple-explorer"),
                              ("chart", ".cell_output .meeple-chart")):
                found = page.locator(sel)
                if found.count():
                    found.first.scroll_into_view_if_needed()
                    found.first.screenshot(path=str(shots / f"site-{width}-{lesson}-{kind}.png"))
            page.screenshot(path=str(shots / f"site-{width}-{lesson}.png"), full_page=True)
            if page.locator(".meeple-explorer").count():
                _keys_move_the_saved_slider(page.locator(".meeple-explorer").first, f"{lesson} at {width} px")
        finally:
            context.close()


def _keys_move_the_saved_slider(explorer, where: str) -> None:
    """Before Python starts, the Explorer's slider moves over the saved numbers with the keys a
    keyboard reader uses (issue 38): each key moves it, the numbers shown follow, focus stays."""
    slider = explorer.locator("input.meeple-explorer-range").first
    top = int(slider.get_attribute("max"))
    slider.focus()
    for key, want in (("Home", lambda v: v == 0), ("ArrowRight", lambda v: v == 1), ("End", lambda v: v == top),
                      ("ArrowLeft", lambda v: v == top - 1), ("PageDown", lambda v: v < top - 1),
                      ("ArrowUp", lambda v: v > 0)):
        caption = explorer.locator(".meeple-explorer-numbers caption").inner_text()
        slider.press(key)
        now = int(slider.input_value())
        assert want(now), f"{where}: {key} left the Explorer's slider at {now}"
        assert explorer.locator(".meeple-explorer-numbers caption").inner_text() != caption, f"{where}: {key}"
        assert slider.evaluate("el => document.activeElement === el"), f"{where}: {key} took focus from the slider"
