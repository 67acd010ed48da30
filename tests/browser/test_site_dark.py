"""The course site in the book theme's dark mode: the Explorer a reader sees is readable.

The theme (pydata-sphinx-theme) puts a widget's output on a light card in dark mode, meant for
light-only widgets; the Explorer draws itself dark there, so its text was light on that light
card, and its saved charts (compiled to Vega with their own white background) drew white labels
on white. Here every text of the Explorer and every label of its charts must stand out from what
is behind it (WCAG's 4.5:1 for text, 3:1 for the charts' small grey notes). One page load, no
Python started.
"""

from __future__ import annotations

import pytest
from site_build import lessons_with

pytestmark = pytest.mark.browser

# The contrast of each text against the colour behind it: the nearest ancestor with a background
# (for a chart's text, its SVG's). [what, colour, background, ratio]
CONTRASTS = """([root, texts, charts]) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const behind = (e) => { for (let x = e; x; x = x.parentElement) { const c = getComputedStyle(x).backgroundColor;
    const v = rgb(c); if (v.length === 3 || (v.length === 4 && v[3] > 0.5)) return c; } return "rgb(255, 255, 255)"; };
  const out = [];
  for (const e of root.querySelectorAll(texts)) {
    const c = getComputedStyle(e).color, b = behind(e);
    out.push([e.className || e.tagName, c, b, ratio(c, b)]);
  }
  for (const svg of root.querySelectorAll(charts)) {
    const b = behind(svg);
    for (const t of svg.querySelectorAll("text")) {
      if (!t.textContent.trim()) continue;
      const c = getComputedStyle(t).fill;
      out.push(["chart: " + t.textContent, c, b, ratio(c, b)]);
    }
  }
  return out;
}"""


EXPLORER_TEXTS = ".meeple-explorer-head, .meeple-explorer-status, .meeple-live-status, .meeple-explorer-slider-name, caption, th, td"


def _poor(found: list) -> list:
    return [f for f in found if f[3] < (3 if f[0].startswith("chart: ") else 4.5)]


def test_the_explorer_and_its_saved_charts_read_in_the_dark_theme(site, browser, shots):
    lessons = lessons_with("Explorer", site.lessons) or lessons_with("Explorer", site.executed)  # the pages tests' lessons: executed
    if not lessons:
        pytest.skip("no lesson with an Explorer was executed in this site build")
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.add_init_script("localStorage.setItem('mode', 'dark')")  # the theme's switch, as a reader left it
    try:
        page.goto(f"{site.url}/{lessons[0]}.html")
        page.wait_for_function("document.documentElement.dataset.theme === 'dark'")
        root = page.locator(".meeple-explorer").first
        page.wait_for_function("el => el.querySelector('.meeple-explorer-charts').dataset.drawn", arg=root.element_handle())
        root.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "site-dark-explorer.png"))
        found = page.evaluate(CONTRASTS, [root.element_handle(), EXPLORER_TEXTS, ".meeple-explorer-chart svg"])
        assert any(w.startswith("chart: ") for w, *_ in found) and any(not w.startswith("chart: ") for w, *_ in found)
        assert not _poor(found), _poor(found)[:8]
    finally:
        page.close()


def test_the_variant_labs_words_and_chart_read_in_the_dark_theme(site, browser, shots):
    """The lab's status and list of names were #555 on the dark page (2.4:1); its chart, the
    report's own SVG with #222 labels for a white page, was drawn on the dark page. The chart is
    the one the lab's Python makes (here in CPython), put where the page puts it: no Python
    started in the browser."""
    from meeple.widgets.lab import VariantLab

    lab = VariantLab("bucket-brigade", ["bonus=6"], bots="random", games=10, seed=1)
    lab.step(10)
    chart = lab.summary()["chart"]
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.add_init_script("localStorage.setItem('mode', 'dark')")
    try:
        page.goto(f"{site.url}/lab.html")
        page.wait_for_function("document.documentElement.dataset.theme === 'dark' && "
                               "document.getElementById('meeple-lab').dataset.meepleLab === 'static'")
        root = page.locator("#meeple-lab")
        page.evaluate("([out, svg]) => { const f = document.createElement('figure'); f.className = 'meeple-lab-chart';"
                      " f.innerHTML = svg; out.replaceChildren(f);"
                      " document.querySelector('.meeple-lab-names').textContent = 'Numbers you can set: bonus'; }",
                      [page.locator(".meeple-lab-out").element_handle(), chart])
        root.screenshot(path=str(shots / "site-dark-lab.png"))
        found = page.evaluate(CONTRASTS, [root.element_handle(), ".meeple-lab-status, .meeple-lab-names, .meeple-lab-field span",
                                          ".meeple-lab-chart svg"])
        assert any(w.startswith("chart: ") for w, *_ in found) and any(not w.startswith("chart: ") for w, *_ in found)
        assert not _poor(found), _poor(found)[:8]
    finally:
        page.close()


def test_the_stepper_and_its_start_button_read_in_the_dark_theme(site, browser, shots):
    """The Stepper is drawn in light colours on the theme's light card; its buttons (white fills) and
    the page's "Start Python" button (#f7f7f7) took the browser's dark-scheme text, white: empty
    boxes. Each button's text must stand out from its fill (3:1: most are disabled before Python), and
    the bar's line from the card it sits on."""
    lessons = lessons_with("Stepper", site.lessons) or lessons_with("Stepper", site.executed)  # the pages tests' lessons: executed
    if not lessons:
        pytest.skip("no lesson with a Stepper was executed in this site build")
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.add_init_script("localStorage.setItem('mode', 'dark')")
    try:
        page.goto(f"{site.url}/{lessons[0]}.html")
        page.wait_for_function("document.documentElement.dataset.theme === 'dark' && document.querySelector('.meeple-stepper button')")
        stepper = page.locator(".meeple-stepper").first
        stepper.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "site-dark-stepper.png"))
        found = page.evaluate(CONTRASTS, [page.locator("body").element_handle(),
                                          ".meeple-live-bar button, .meeple-live-bar .meeple-live-status, .meeple-stepper button",
                                          ".none"])
        assert len(found) > 5, found
        poor = [f for f in found if f[3] < 3]
        assert not poor, poor[:8]
    finally:
        page.close()
