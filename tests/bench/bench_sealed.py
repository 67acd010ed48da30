"""Benchmark (issue 37): what one sealed answer costs to check, and so to brute-force.

    .venv/bin/python tests/bench/bench_sealed.py --update BENCHMARKS.md        # run by `make bench`

A graded build seals each exact answer as PBKDF2-HMAC-SHA256 (graded.ITERATIONS rounds) under the
student's own salt. One guess costs one digest, so the search the issue ran (every fraction with
numerator and denominator up to a bound, 131,589 candidates an exercise) costs 131,589 digests per
exercise and student. Measured here, CPU time (time.process_time), the best of `--rounds`:

- `hashlib`: CPython's hashlib.pbkdf2_hmac (OpenSSL): the fastest a searcher has in Python;
- `python loop`: graded's own hmac loop, what a Python without OpenSSL's PBKDF2 runs (the site's
  Pyodide, whose speed in Chromium this file does not measure: that is bench_site's browser).

A real check hashes two forms (exact and decimal) only when it must: one digest per check. Not a
test: pytest does not collect this folder.
"""

from __future__ import annotations

import argparse
import platform
import re
import time
from fractions import Fraction
from pathlib import Path

from meeple.course.exercises import graded

CANDIDATES = 131_589  # the search: the small fractions it tried for one exercise


def best(f, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t = time.process_time()
        f()
        times.append(time.process_time() - t)
    return min(times)


def measure(rounds: int) -> str:
    salt = "a5" * 16
    text = graded.canonical(Fraction(10150, 729))
    fast = best(lambda: graded.slow_digest(salt, "03.chase", "exact", text, graded.ITERATIONS), rounds)
    loop = best(lambda: graded._pbkdf2_python(b"03.chase\0exact\0" + text.encode(), bytes.fromhex(salt), graded.ITERATIONS),
                max(1, rounds // 3))
    hours = fast * CANDIDATES / 3600
    lines = [
        f"Sealed answers (issue 37): PBKDF2-HMAC-SHA256, {graded.ITERATIONS:,} rounds, a salt per student. "
        f"CPU seconds for one check, best of {rounds} (Python {platform.python_version()}, {platform.machine()}):",
        "",
        "| path | one check | one exercise's 131,589 candidates, one student |",
        "|---|---|---|",
        f"| hashlib.pbkdf2_hmac (OpenSSL) | {fast:.3f} s | {hours:.1f} h of one core |",
        f"| graded's hmac loop (Python without OpenSSL's PBKDF2) | {loop:.3f} s | {loop * CANDIDATES / 3600:.1f} h |",
        "",
        "Before (version 1, one SHA-256): the issue's search recovered 18 of 32 sealed answers in 12 s.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--update", metavar="FILE.md", help="replace the text between <!-- sealed:start/end -->")
    args = ap.parse_args()
    text = measure(args.rounds)
    print(text)
    if args.update:
        path = Path(args.update)
        doc = path.read_text(encoding="utf-8")
        pat = re.compile(r"(<!-- sealed:start -->\n).*?(<!-- sealed:end -->)", re.S)
        if not pat.search(doc):
            raise SystemExit(f"{path} has no <!-- sealed:start --> ... <!-- sealed:end --> section")
        path.write_text(pat.sub(lambda m: m.group(1) + text + m.group(2), doc), encoding="utf-8")


if __name__ == "__main__":
    main()
