"""A late file only delays (issue 24 item 1): the course site on a slow or stalled network.

The site is served by a server of this module that holds back one kind of file for
DELAY seconds: the widget loader, the anywidgets' modules (Altair's Vega bundle, the
Stepper), the live runtime, the Web Worker, the meeple wheel or Pyodide. Each kind is
held back in its own browser page under its own URL prefix (/slow/<kind>/...), all pages
at once, and every request that would leave this machine is refused and recorded.
In each page every widget must be drawn once the late file arrives, with no error and
nothing asked of another host; where the late file is Python's, "Play live" must still
end in a playable Stepper. (The old loader gave up after 7 s and asked a CDN for anywidget.)
"""

from __future__ import annotations

import re
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from site_build import lessons_with, local
from test_site import ALL_DRAWN

pytestmark = pytest.mark.browser
DELAY = 30.0  # seconds each late file is held back: well past any loader's give-up time
# kind -> the files held back (paths under the site's root)
LATE = {
    "loader": r"_static/meeple-widgets\.js",
    "modules": r"_static/widgets/.*",
    "live": r"_static/meeple-live\.js",
    "worker": r"_static/meeple-worker\.js",
    "wheel": r"_static/meeple/.*\.whl",
    "pyodide": r"_static/pyodide-[^/]+/.*",
}
PYTHON = ("worker", "wheel", "pyodide")  # late files that only "Play live" asks for


class Slow(SimpleHTTPRequestHandler):
    """Serves /slow/<kind>/<path> as <path>, after DELAY seconds if <path> is of that kind."""

    held: list = []  # (kind, path) of every request held back

    def do_GET(self):
        m = re.match(r"/slow/([a-z]+)/(.*)", self.path)
        if not m or m[1] not in LATE:
            self.send_error(404, "not a /slow/<kind>/ path")
            return
        kind, rest = m[1], m[2].split("?")[0]
        if re.fullmatch(LATE[kind], rest):
            self.held.append((kind, rest))
            time.sleep(DELAY)
        self.path = "/" + m[2]
        super().do_GET()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def slow_site(site):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(Slow, directory=str(site.html)))
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_every_widget_is_drawn_whichever_file_is_late(site, slow_site, browser):
    both = [n for n in lessons_with("Stepper", site.lessons) if n in lessons_with("Explorer", site.lessons)]
    lesson = (both or lessons_with("Stepper", site.lessons) or site.lessons)[0]
    pages, outside, errors = {}, [], []
    Slow.held.clear()
    context = browser.new_context(viewport={"width": 1300, "height": 1000})

    def route(r):
        if local(r.request.url):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    try:
        for kind in LATE:  # every page loads at once: the delays overlap
            page = context.new_page()
            page.set_default_timeout(600_000)
            page.on("pageerror", lambda e, k=kind: errors.append(f"{k}: uncaught {e}"))
            page.on("console", lambda m, k=kind: errors.append(f"{k}: {m.text}") if m.type == "error" else None)
            page.goto(f"{slow_site}/slow/{kind}/{lesson}.html", wait_until="commit")
            pages[kind] = page
        # Python's pages first: their widgets draw without a late file, and "Play live" starts at
        # once, so their late files (a chain: the worker, then pyodide.mjs, then the files it
        # loads) are held while the other pages wait for theirs, not after
        for kind in [*PYTHON, *(k for k in LATE if k not in PYTHON)]:
            page = pages[kind]
            page.wait_for_function(ALL_DRAWN)
            assert page.locator(".meeple-widget-error").count() == 0, kind
            if page.locator(".meeple-stepper").count():
                assert page.locator(".meeple-play-live").count() == page.locator(".meeple-stepper").count(), kind
            if kind in PYTHON:
                page.locator(".meeple-play-live").first.click()
        for kind in PYTHON:
            pages[kind].wait_for_selector(".meeple-stepper[data-meeple-live=live]")
            assert pages[kind].locator(".meeple-stepper[data-meeple-live=live] .meeple-status").inner_text()
    finally:
        context.close()
    assert not outside, f"requests left this machine: {outside}"
    assert not errors, errors
    # each kind's file was really asked for, and held back
    assert {k for k, _ in Slow.held} == set(LATE), Slow.held
