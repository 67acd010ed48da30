"""What the browser tests share: a Chromium (found by tests/machine.py), a free port, a screenshot folder."""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest


def _machine():
    """tests/machine.py: the one place that knows where a Chromium is (and how to get one)."""
    path = Path(__file__).resolve().parents[1] / "machine.py"
    spec = importlib.util.spec_from_file_location("meeple_test_machine", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MACHINE = _machine()
# As root, headless, and quiet: without the background-networking flags Chromium keeps
# trying hosts this offline machine cannot reach.
# The one time limit of a browser step: an outer deadline for a machine that is merely slow
# (a 2-core box running the whole suite). Each step waits for the condition it needs
# (a server answering, a selector, an idle kernel), never for a fixed time.
DEADLINE_MS = 600_000
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@contextmanager
def serve(cmd, ready_url: str, log_path: Path, name: str, start_timeout: float, env=None):
    """Run a local server in its own process group until `ready_url` answers; stop the group after."""
    log = open(log_path, "w")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env)
    try:
        deadline = time.monotonic() + start_timeout
        while True:
            try:
                urllib.request.urlopen(ready_url, timeout=1)
                break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail(f"{name} exited: " + log_path.read_text()[-2000:])
                if time.monotonic() > deadline:
                    pytest.fail(f"{name} did not answer in {start_timeout:g} s")
                time.sleep(0.1)
        yield proc
    finally:
        # The whole group: `make lab` starts jupyter under make and a shell, and make may be
        # gone long before JupyterLab has shut its kernels down.
        os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 60
        while _group_alive(proc.pid) and time.monotonic() < deadline:
            proc.poll()
            time.sleep(0.2)
        if _group_alive(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        log.close()


def _group_alive(pgid: int) -> bool:
    """Does any process of the group still run? (Zombies do not count: they have ended.)"""
    table = subprocess.run(["ps", "-eo", "pgid=,stat="], capture_output=True, text=True).stdout
    return any(int(g) == pgid and not stat.startswith("Z")
               for g, stat in (line.split(None, 1) for line in table.splitlines() if line.strip()))


@pytest.fixture(scope="session")
def server():
    """`with server(cmd, ready_url, log_path, name, start_timeout):` see `serve`."""
    return serve


@pytest.fixture(scope="session")
def free_port():
    def pick() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]

    return pick


@pytest.fixture(scope="session")
def chromium() -> str:
    """The Chromium to drive (`make test` installs one first where it can: tests/machine.py)."""
    path = MACHINE.find_chromium()
    if path is None:
        pytest.fail(MACHINE.advice("chromium"), pytrace=False)
    return path


@pytest.fixture(scope="module")
def browser(chromium):
    """One Chromium per test module, driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
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
        page.set_default_timeout(DEADLINE_MS)
        page.set_default_navigation_timeout(DEADLINE_MS)
        page.goto(url)
        try:
            yield page
        except Exception:
            page.screenshot(path=str(shots / f"{name}-failure.png"))
            raise
        finally:
            page.close()

    return open_page


@pytest.fixture(scope="session")
def site_tree(tmp_path_factory):
    """The session's one course site (site_build.py): built the first time a test asks for it,
    then read by every site test module. A failed build fails each of them with its log."""
    from site_build import build

    try:
        return build(tmp_path_factory.getbasetemp())
    except RuntimeError as e:
        pytest.fail(str(e), pytrace=False)


@pytest.fixture(scope="module")
def site(site_tree, tmp_path_factory, free_port, server):
    """The session's course site (`site_tree`), served by http.server in its own process group
    on its own port for one test module."""
    import sys

    from site_build import Site

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site_tree.html)]
    with server(cmd, url + "/index.html", tmp_path_factory.getbasetemp() / f"http-{port}.log", "http.server", 10):
        yield Site(url, site_tree.html, site_tree.lessons, site_tree.log, site_tree.pages, site_tree.executed)
