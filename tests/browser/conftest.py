"""What the browser tests share: Debian's Chromium, a free port, a screenshot folder."""

from __future__ import annotations

import os
import socket
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
# As root, headless, and quiet: without the background-networking flags Chromium keeps
# trying hosts this offline machine cannot reach.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def free_port():
    def pick() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]

    return pick


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module (Playwright drives Debian's build: its own download is offline)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (see .ci/run)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path):
    """Where screenshots go: $MEEPLE_SCREENSHOTS, or the test's tmp folder."""
    out = Path(os.environ.get("MEEPLE_SCREENSHOTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.fixture
def page_for(browser, shots):
    """`with page_for(url, name) as page:` a fresh page; on failure a screenshot `name-failure.png`."""

    @contextmanager
    def open_page(url: str, name: str, width: int = 1280, height: int = 1000):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(url)
        try:
            yield page
        except Exception:
            page.screenshot(path=str(shots / f"{name}-failure.png"))
            raise
        finally:
            page.close()

    return open_page
