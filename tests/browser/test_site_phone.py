"""The course site on a phone (390 x 844, touch): a student can open the list of lessons, and no
page is wider than the screen.

- The header's menu button ("Toggle primary sidebar") shows its icon and a tap opens the lessons:
  with pydata-sphinx-theme 0.17 and sphinx-book-theme 1.3 (upstream pydata-sphinx-theme#2451)
  it drew a 0x0 icon (the theme names it on a <span>, which the site's trimmed Font Awesome did
  not draw) and a tap showed only its tooltip (the theme's listener sat on a hidden twin button);
  the site's meeple-nav.js and fontawesome.js put that right. The "On this page" button alike.
- Every page of the site is at most as wide as the screen (design_notes.html was 444 px wide:
  long inline code ran past the edge).
The site: the session's one build (conftest.py's `site`). Waits are on conditions, never sleeps.
"""

from __future__ import annotations

import pytest
from site_build import local

pytestmark = pytest.mark.browser
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DEADLINE_MS = 600_000
# the size of the icon inside the visible button of a kind (.primary-toggle, .secondary-toggle)
ICON = """(kind) => {
    const button = [...document.querySelectorAll(kind)].find((b) => b.offsetParent !== null);
    if (!button) return null;
    const icon = button.querySelector("svg, i, span");
    const r = icon ? icon.getBoundingClientRect() : {width: 0, height: 0};
    return {width: r.width, height: r.height};
}"""
WIDE = """() => {
    const W = document.documentElement.clientWidth;
    const past = [...document.querySelectorAll("article *")].filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width && r.right > W + 1 && !e.closest("pre, .highlight, table, .meeple-explorer-numbers, .vega-embed");
    }).slice(0, 5).map((e) => e.tagName + "." + e.className + ": " + (e.textContent || "").slice(0, 60));
    return {scroll: document.documentElement.scrollWidth, width: W, past};
}"""


@pytest.fixture
def phone(browser, shots):
    """A phone's browser page; requests off this machine refused and recorded; JavaScript errors recorded."""
    context = browser.new_context(**PHONE)
    outside, errors = [], []

    def route(r):
        if local(r.request.url):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.set_default_timeout(DEADLINE_MS)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page
    finally:
        context.close()
    assert not outside, f"requests left this machine: {outside}"
    assert not errors, f"JavaScript errors: {errors}"


def _visible_button(page, kind: str):
    buttons = page.locator(f"button{kind}")
    shown = [buttons.nth(i) for i in range(buttons.count()) if buttons.nth(i).is_visible()]
    assert len(shown) == 1, f"{len(shown)} visible {kind} buttons"
    return shown[0]


def test_on_a_phone_the_menu_button_shows_its_icon_and_opens_the_list_of_lessons(site, phone, shots):
    lesson = site.pages[0]
    phone.goto(f"{site.url}/{lesson}.html")
    phone.wait_for_load_state("load")
    for kind in (".primary-toggle", ".secondary-toggle"):  # the icon is drawn (an inline SVG, once the script ran)
        phone.wait_for_function(f"() => {{ const s = ({ICON})('{kind}'); return s && s.width >= 8 && s.height >= 8; }}")
    phone.screenshot(path=str(shots / "phone-header.png"))
    menu = _visible_button(phone, ".primary-toggle")
    menu.tap()
    phone.wait_for_function("() => { const d = document.getElementById('pst-primary-sidebar-modal');"
                            " return d && d.open; }")
    dialog = phone.locator("#pst-primary-sidebar-modal")
    for other in site.pages:  # every lesson of the site is listed, and the reader can see it
        href = "a.current" if other == lesson else f"a[href$='{other}.html']"  # this page's link is "#"
        dialog.locator(href).first.wait_for(state="visible")
    assert dialog.locator("a.current").first.inner_text().strip()
    phone.screenshot(path=str(shots / "phone-menu-open.png"))
    target = next(p for p in site.pages if p != lesson)
    dialog.locator(f"a[href$='{target}.html']").first.tap()
    phone.wait_for_url(f"**/{target}.html")  # a lesson link works from the menu

    phone.wait_for_load_state("load")
    _visible_button(phone, ".secondary-toggle").tap()  # "On this page"
    phone.wait_for_function("() => { const d = document.getElementById('pst-secondary-sidebar-modal');"
                            " return d && d.open; }")
    assert phone.locator("#pst-secondary-sidebar-modal nav a").first.is_visible()
    phone.screenshot(path=str(shots / "phone-on-this-page-open.png"))


def test_on_a_phone_no_page_is_wider_than_the_screen(site, phone, shots):
    pages = sorted(p.stem for p in site.html.glob("*.html")  # index.html only sends the reader to intro.html
                   if p.stem not in ("genindex", "search") and 'http-equiv="Refresh"' not in p.read_text()[:200])
    assert "design_notes" in pages and site.pages[0] in pages
    wide = []
    for name in pages:
        phone.goto(f"{site.url}/{name}.html")
        phone.wait_for_load_state("load")
        phone.evaluate("document.fonts.ready.then(() => true)")
        seen = phone.evaluate(WIDE)
        if seen["scroll"] > seen["width"]:
            phone.screenshot(path=str(shots / f"phone-wide-{name}.png"), full_page=True)
            wide.append(f"{name}: {seen['scroll']} px wide at {seen['width']}: {seen['past']}")
    phone.goto(f"{site.url}/design_notes.html")
    phone.screenshot(path=str(shots / "phone-design-notes.png"))
    assert not wide, "\n".join(wide)
