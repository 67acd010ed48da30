"""What `make test` and `make site` need from the machine beyond Python: a Chromium and npm.

    python tests/machine.py chromium npm

finds each one; where one is missing it installs it if it can (Debian's package through
apt-get as root or with passwordless sudo; for Chromium, Playwright's own download as a
fallback), and where nothing can be installed it stops at once with one line naming the
command to run. The browser tests find Chromium through `find_chromium` here (their
conftest imports this file), so both look in the same places:

1. $MEEPLE_CHROMIUM, if set (a path to any Chromium or Chrome);
2. `chromium` or `chromium-browser` on PATH (Debian's /usr/bin/chromium);
3. Playwright's own build ($PLAYWRIGHT_BROWSERS_PATH or its cache).

A candidate counts only if `<it> --version` answers: Ubuntu's chromium-browser is a
wrapper that needs a snap, which containers do not have.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys

APT_PACKAGES = {"chromium": ["chromium"], "npm": ["nodejs", "npm"]}


def _answers(exe: str) -> bool:
    try:
        return subprocess.run([exe, "--version"], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def playwright_chromium() -> str | None:
    """Playwright's own Chromium, if it has been downloaded (`playwright install chromium`)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    try:
        with sync_playwright() as p:
            path = p.chromium.executable_path
    except Exception:  # the driver itself could not start: no Playwright browser either
        return None
    return path if os.path.isfile(path) and _answers(path) else None


def find_chromium() -> str | None:
    """The Chromium the browser tests drive, or None (see the module docstring for the order)."""
    chosen = os.environ.get("MEEPLE_CHROMIUM")
    if chosen:
        return chosen if _answers(chosen) else None
    for name in ("chromium", "chromium-browser"):
        exe = shutil.which(name)
        if exe and _answers(exe):
            return exe
    return playwright_chromium()


def find_npm() -> str | None:
    exe = shutil.which("npm")
    return exe if exe and _answers(exe) else None


FIND = {"chromium": find_chromium, "npm": find_npm}


def _as_admin() -> list[str] | None:
    """The prefix that runs a command as root here ([] for root, sudo -n), or None."""
    if os.geteuid() == 0:
        return []
    sudo = shutil.which("sudo")
    if sudo and subprocess.run([sudo, "-n", "true"], capture_output=True).returncode == 0:
        return [sudo, "-n"]
    return None


def _run(cmd: list[str], timeout: float) -> bool:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    try:
        return subprocess.run(cmd, capture_output=True, timeout=timeout, env=env).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def install(what: str) -> None:
    """Try the ways this machine allows, quietly; the caller looks again afterwards."""
    admin = _as_admin()
    apt = shutil.which("apt-get")
    if apt and admin is not None:
        print(f"machine: installing {' '.join(APT_PACKAGES[what])} with apt-get ...", file=sys.stderr, flush=True)
        _run(admin + [apt, "update", "-qq"], 900)
        if _run(admin + [apt, "install", "-y", "-qq", *APT_PACKAGES[what]], 1800) and FIND[what]():
            return
    if what == "chromium":
        _run([sys.executable, "-m", "playwright", "install", "chromium"], 1800)


def advice(what: str) -> str:
    """One line: what is missing and the exact command that installs it."""
    need = {"chromium": "Chromium for its browser tests", "npm": "npm (Node.js) for the course site"}[what]
    if shutil.which("apt-get"):
        prefix = "" if os.geteuid() == 0 else "sudo "
        todo = f"run `{prefix}apt-get install -y {' '.join(APT_PACKAGES[what])}`"
    elif what == "chromium":
        todo = f"run `{shlex.quote(sys.executable)} -m playwright install chromium`"
    else:
        todo = "install Node.js 18 or newer with npm (your system's package, or nodejs.org)"
    if what == "chromium":
        todo += " (or set MEEPLE_CHROMIUM to a Chromium or Chrome)"
    return f"make needs {need} and could not install it here: {todo}, then run make again."


def ensure(what: str) -> str | None:
    """The path of `what`, installing it if need be; None if it is still missing."""
    found = FIND[what]()
    if found is None and not (what == "chromium" and os.environ.get("MEEPLE_CHROMIUM")):
        install(what)
        found = FIND[what]()
    return found


def main(argv: list[str]) -> int:
    wanted = argv or ["chromium", "npm"]
    unknown = [w for w in wanted if w not in FIND]
    if unknown:
        print(f"machine: unknown need {unknown[0]!r}; choose from {', '.join(FIND)}", file=sys.stderr)
        return 2
    for what in wanted:
        if ensure(what) is None:
            if what == "chromium" and os.environ.get("MEEPLE_CHROMIUM"):
                print(f"make needs Chromium: MEEPLE_CHROMIUM={os.environ['MEEPLE_CHROMIUM']} does not run "
                      "(`--version` failed); point it at a Chromium or Chrome, or unset it.", file=sys.stderr)
            else:
                print(advice(what), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
