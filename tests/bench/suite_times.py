"""Where `make test`'s time goes: the JUnit XML of its two sessions summed per test file.

    .venv/bin/python tests/bench/suite_times.py                 # build/test-fast.xml and build/test-slow.xml
    .venv/bin/python tests/bench/suite_times.py --top 15 a.xml  # any JUnit files, 15 files each

`make test` runs two pytest sessions side by side, one a core (the fast tier in the background,
the rest in front); its wall time is the longer session's. This prints each session's total and
its heaviest files, so a file can be moved from the longer session to the shorter one with figures.
A test's time here is pytest's (set-up, call and tear-down), not the session's waits between tests.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path


def per_file(xml: Path) -> tuple[dict[str, float], dict[str, int], float]:
    """({file: seconds}, {file: tests}, the session's own total) of one JUnit XML file."""
    root = ET.parse(xml).getroot()
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    seconds: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    total = 0.0
    for suite in suites:
        total += float(suite.get("time", 0))
        for case in suite.iter("testcase"):
            # pytest writes classname "tests.rules.test_x" (or "lessons.01_first_interval" for nbval's cells)
            name = case.get("file") or case.get("classname", "?").replace(".", "/")
            seconds[name] += float(case.get("time", 0))
            count[name] += 1
    return dict(seconds), dict(count), total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("xml", nargs="*", type=Path, default=[Path("build/test-fast.xml"), Path("build/test-slow.xml")])
    ap.add_argument("--top", type=int, default=12, help="files shown per session (default: %(default)s)")
    args = ap.parse_args(argv)
    missing = [str(p) for p in args.xml if not p.is_file()]
    if missing:
        print(f"suite_times: no such file: {', '.join(missing)} (`make test` writes build/test-*.xml)", file=sys.stderr)
        return 2
    for xml in args.xml:
        seconds, count, total = per_file(xml)
        print(f"{xml}: {total:,.0f} s, {sum(count.values()):,} tests in {len(count)} files")
        for name, s in sorted(seconds.items(), key=lambda kv: -kv[1])[: args.top]:
            print(f"  {s:8,.0f} s  {count[name]:5,} tests  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
