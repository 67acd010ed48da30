"""What the browser tests share: a Chromium (found by tests/machine.py), a free port, a screenshot folder."""

from __future__ import annotations

import functools
import importlib.util
import os
import signal
import socket
import subprocess
import sys
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


@functools.cache
def _find_chromium() -> str | None:
    return MACHINE.find_chromium()


def _setup_command() -> str:
    """The command that finds or installs what the browser tests need, as a reader would type it here."""
    root = Path(__file__).resolve().parents[2]
    venv = Path(sys.prefix).resolve()
    py = ".venv/bin/python" if venv == root / ".venv" and Path.cwd().resolve() == root else sys.executable
    return f"{py} tests/machine.py chromium npm"


def pytest_collection_modifyitems(config, items):
    """Every test here is marked `browser`. When any is selected and this machine lacks what it
    needs (a Chromium; npm for the course site's build: `pytest` run straight after cloning,
    where `make test` would have installed them), the run stops before its first test with one
    line naming the command that installs them: a browser test never skips (`make test` must
    run them all), and one line says more than the same error under every test."""
    chosen = [item for item in items if "tests/browser/" in str(item.fspath).replace(os.sep, "/")]
    for item in chosen:
        item.add_marker(pytest.mark.browser)
    missing = []
    if chosen and _find_chromium() is None:
        missing.append(f"a Chromium (MEEPLE_CHROMIUM={os.environ['MEEPLE_CHROMIUM']} does not run)"
                       if os.environ.get("MEEPLE_CHROMIUM") else "a Chromium")
    if any(Path(str(item.fspath)).name.startswith("test_site") for item in chosen) and MACHINE.find_npm() is None:
        missing.append("npm (the course site's build)")
    if missing:
        pytest.exit(f"the browser tests ({len(chosen)} selected) need {' and '.join(missing)}: run "
                    f"`{_setup_command()}` (it installs what is missing), or leave them out with -m 'not browser'",
                    returncode=1)


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
    path = _find_chromium()
    if path is None:
        pytest.fail(f"no Chromium: run `{_setup_command()}`", pytrace=False)
    return path


@pytest.fixture(scope="module")
def browser(chromium):
    """One Chromium per test module, driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def cached_browser(browser, chromium, tmp_path_factory):
    """A browser context with its profile on disk, for a module whose pages all start Python: as a
    reader's browser, it keeps what the site lets it cache, so the pages after the first load
    Pyodide compiled from the cache (measured at load 23: 23 s to load it in a fresh context, 10 s
    from this cache). Playwright's own contexts keep their cache in memory, where an entry as
    large as pyodide.asm.wasm is never stored (test_site_cache.py). Each test site is served on
    its own port: its own origin, its own storage."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path_factory.mktemp("profile")), executable_path=chromium, headless=True, args=CHROMIUM_ARGS,
        viewport={"width": 1280, "height": 900})
    yield context
    context.close()


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


@pytest.fixture(scope="module")
def site(site_tree, tmp_path_factory, free_port, server):
    """The session's course site (`site_tree`, tests/conftest.py), served by http.server in its own
    process group on its own port for one test module."""
    from site_build import Site

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site_tree.html)]
    with server(cmd, url + "/index.html", tmp_path_factory.getbasetemp() / f"http-{port}.log", "http.server", 10):
        yield Site(url, site_tree.html, site_tree.lessons, site_tree.log, site_tree.pages, site_tree.executed)
