"""The cache headers the site ships (issue 24 item 7): a reload starts Python from the cache.

The build writes `_headers` (Netlify, Cloudflare Pages) and `.htaccess` (Apache) into the
site. Here a server applies `_headers` as those hosts do and records every request: after
"Play live" once, a reload of the page and "Play live" again must not fetch Pyodide's
9.6 MB pyodide.asm.wasm (or any Pyodide file, the Vega file or a widget module) again.
"""

from __future__ import annotations

import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import CHROMIUM_ARGS
from site_build import lessons_with

pytestmark = pytest.mark.browser


def read_headers(text: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """`_headers`: a path pattern on its own line, then its headers indented ("Name: value")."""
    rules: list[tuple[str, list[tuple[str, str]]]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            rules.append((line.strip(), []))
        else:
            name, _, value = line.strip().partition(":")
            assert rules and value, f"_headers: a header outside a rule or without a value: {line!r}"
            rules[-1][1].append((name.strip(), value.strip()))
    return rules


def matches(pattern: str, path: str) -> bool:
    return path.startswith(pattern[:-1]) if pattern.endswith("*") else path == pattern


class Host(SimpleHTTPRequestHandler):
    rules: list = []
    asked: list = []

    def end_headers(self):
        path = self.path.split("?")[0]
        for pattern, headers in self.rules:
            if matches(pattern, path):
                for name, value in headers:
                    self.send_header(name, value)
        super().end_headers()

    def send_header(self, keyword, value):
        # No Last-Modified: a browser may keep a file it has a date for a while on its own
        # (heuristic freshness), which would hide whether the shipped headers do the work.
        if keyword.lower() != "last-modified":
            super().send_header(keyword, value)

    def do_GET(self):
        self.asked.append(self.path.split("?")[0])
        super().do_GET()

    def log_message(self, *args):
        pass


def test_the_headers_the_site_ships_keep_python_in_the_cache(site, browser, chromium, tmp_path):
    headers = site.html / "_headers"
    assert headers.exists() and (site.html / ".htaccess").exists()
    rules = read_headers(headers.read_text())
    kept = [p for p, hs in rules if ("Cache-Control", "public, max-age=31536000, immutable") in hs]
    assert any("pyodide" in p for p in kept) and any("widgets" in p for p in kept)
    # no two rules overlap: both hosts join the values of every rule that matches a path
    assert not [(a, b) for a, _ in rules for b, _ in rules if a != b and matches(a, b.rstrip("*"))]
    steppers = lessons_with("Stepper", site.lessons)
    if not steppers:
        pytest.skip("the test build has no Stepper")
    Host.rules, Host.asked = rules, []  # (with no rules it fails: checked by hand, 2026-12-01)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(Host, directory=str(site.html)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    # A profile on disk, as a reader's browser has: Playwright's default contexts keep their
    # cache in memory, where an entry as large as pyodide.asm.wasm is never stored.
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(600_000)
        url = f"http://127.0.0.1:{httpd.server_address[1]}/{steppers[0]}.html"
        for visit in ("first", "reload"):
            if visit == "first":
                page.goto(url)
            else:
                first = list(Host.asked)
                page.reload()
            page.locator(".meeple-play-live").first.click()
            page.wait_for_selector(".meeple-stepper[data-meeple-live=live]")
        again = Host.asked[len(first):]
    finally:
        context.close()
        httpd.shutdown()
        httpd.server_close()
    assert any(p.endswith("/pyodide.asm.wasm") for p in first)
    # A refetch is a file the first visit fetched too: a file the page loads lazily (the live
    # Explorer's Vega-Lite, after its first redraw) may come after the first visit's reload on a
    # busy machine, and its first fetch then falls in the second visit (seen at load ~8).
    refetched = [p for p in again if p in first
                 and any(f"/_static/{d}" in p for d in ("pyodide-", "widgets/", "vega-", "katex-"))]
    assert not refetched, f"fetched again after a reload: {refetched}"
    assert f"/{steppers[0]}.html" in again  # the page itself is asked for again (a new build shows)
