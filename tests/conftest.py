"""The session's two course-site builds, started in the background as soon as the tests are collected.

Building a site runs `python -m meeple.course.site.build` (npm, a wheel, Jupyter Book; the test site also
runs twelve lessons: minutes on two busy cores), and while it runs the test process only waits.
So when the selected tests include one that reads a build, the build starts right after
collection, in its own process group, and those tests are moved to the end of the run (each
module whole, in its order): the build then runs beside every test that does not need it,
and the fixture that needs it waits for it only if it has not finished yet.

- `site_tree`: the course site every site browser test serves (tests/browser/site_build.py:
  every lesson a page, the lessons with controls or the pages tests' widgets executed);
  MEEPLE_TEST_SITE=DIR reads a site built before instead.
- `graded_tree`: the graded site (`make site SOLUTIONS=no ROSTER=...`: one lesson, not run, a
  two-student roster), which tests/site/test_site_graded.py searches for answers and
  tests/browser/test_site_graded_browser.py has a student use.

A build that fails fails each test that reads it, with the end of its log. A build still
running when the session ends (-x, Ctrl-C) is stopped with its process group. (Under
pytest-xdist each worker would start its own builds: `make test` does not use it.)
"""

from __future__ import annotations

import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

# A shell starts a background job (`make test`'s fast tier: `pytest ... &`) with SIGINT ignored
# (POSIX: a non-interactive shell's asynchronous lists), and an ignored signal stays ignored
# across fork and exec: this process and every `meeple` command a test starts would shrug off the
# Ctrl-C the signal tests send (CI at stop 45: "still running 300 s after Ctrl-C"). A terminal
# gives Python its own default; so does the suite.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# tests/ itself (harness.py, machine.py) and tests/browser (site_build.py, widget_cases.py) for every tier's files
sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent / "browser")]
import rule_ids  # noqa: E402  (tests/rule_ids.py: `pytest -m BB_9` runs rule BB-9's tests)
import site_build  # noqa: E402  (tests/browser/site_build.py: what the builds are)

_BUILDS = pytest.StashKey[dict]()
_RULES = rule_ids.rule_ids()


def pytest_configure(config):
    """Every rule id of seeds/*.md is a registered marker (BB-9 -> BB_9): no unknown-mark warning."""
    for rid, seeds in _RULES.items():
        config.addinivalue_line("markers", f"{rule_ids.marker(rid)}: the tests of rule {rid} (seeds/{seeds})")


def pytest_itemcollected(item):
    """A test is marked with each rule id its source names, and has the id as a keyword (-k BB-9)."""
    for rid in rule_ids.named_in(item, _RULES):
        item.add_marker(rule_ids.marker(rid))
        item.extra_keyword_matches.add(rid)


@dataclass
class Graded:
    html: Path
    log: Path
    lesson: str
    roster: list[str]


def _needs(item) -> set[str]:
    """Which builds a test reads: "site" and/or "graded" (through its fixtures)."""
    names = set(getattr(item, "fixturenames", ()))  # a lesson cell (nbval) has none
    site = "site_tree" in names or ("controls_site" in names and not os.environ.get("MEEPLE_CONTROLS_SITE"))
    return ({"site"} if site else set()) | ({"graded"} if "graded_tree" in names else set())


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """Start the builds the selected tests read; move those tests' modules to the end, in order."""
    needs = {item.nodeid: _needs(item) for item in items}
    wanted = set().union(*needs.values()) if needs else set()
    builds = config.stash.setdefault(_BUILDS, {})
    if not wanted or config.option.collectonly:
        return
    # the session folder the tmp_path_factory fixture gives (pytest keeps its factory on the config)
    base = config._tmp_path_factory.getbasetemp()
    if "site" in wanted and "site" not in builds:
        builds["site"] = site_build.start(base)
    if "graded" in wanted and "graded" not in builds:
        builds["graded"] = site_build.start_graded(base)
    later = {item.path for item in items if needs[item.nodeid]}
    items[:] = [i for i in items if i.path not in later] + [i for i in items if i.path in later]


def pytest_sessionfinish(session):
    for build in session.config.stash.get(_BUILDS, {}).values():
        if build is not None:
            build.stop()


def _wait(config, name: str) -> None:
    build = config.stash.get(_BUILDS, {}).get(name)
    if build is not None:
        try:
            build.wait()
        except RuntimeError as e:
            pytest.fail(str(e), pytrace=False)


def _built(request, tmp_path_factory, name: str, start) -> Path:
    """The session's base folder, once build `name` has ended (started now if the collection hook
    did not see a test that asks for it, e.g. through getfixturevalue)."""
    base = tmp_path_factory.getbasetemp()
    builds = request.config.stash.setdefault(_BUILDS, {})
    if name not in builds:
        builds[name] = start(base)
    _wait(request.config, name)
    return base


@pytest.fixture(scope="session")
def site_tree(request, tmp_path_factory):
    """The session's one course site (site_build.py), once its background build has ended."""
    base = _built(request, tmp_path_factory, "site", site_build.start)
    try:
        return site_build.tree(base)
    except RuntimeError as e:
        pytest.fail(str(e), pytrace=False)


@pytest.fixture(scope="session")
def graded_tree(request, tmp_path_factory):
    """The session's graded site (site_build.start_graded), once its background build has ended."""
    out = _built(request, tmp_path_factory, "graded", site_build.start_graded) / "graded"
    return Graded(out / "site" / "html", out / "build.log", site_build.GRADED_LESSON, site_build.GRADED_ROSTER)


def _shell_now():
    ipython = sys.modules.get("IPython")
    return ipython.get_ipython() if ipython is not None else None


@pytest.fixture(autouse=True)
def _no_site_mode_left_behind():
    """A test that switches this process's Explorers to the site build's (`site_mode()`) must not
    leave it on: every later Explorer of the run would play every value at once."""
    yield
    site = sys.modules.get("meeple.widgets.site_charts")
    if site is not None and site.building_site():
        site.site_mode(False)


@pytest.fixture(autouse=True)
def _no_shell_left_behind():
    """A test that starts an IPython shell in this process (a lesson's cells run in-process) must
    not leave it behind: every later test's `say()` and `check()` would display, not print."""
    before, main = _shell_now(), sys.modules["__main__"]
    yield
    if before is None and _shell_now() is not None:
        from IPython.core.interactiveshell import InteractiveShell

        from harness import close_shell

        close_shell(_shell_now())
        InteractiveShell.clear_instance()
    # An IPython shell puts its own `__main__` (a module without __spec__) in sys.modules and
    # clearing it leaves it there: multiprocessing's spawn (dask's LocalCluster) then fails in
    # every later test of the run.
    sys.modules["__main__"] = main
