"""Measurement (issue 37): how often a classmate's exact answer passes for a student.

    .venv/bin/python tests/bench/collisions.py --codes 60

For every exact exercise (graded.SEALED: the checker takes exactly one value, so a classmate's
answer passes exactly when it equals the student's), the share of ordered pairs of `--codes`
class codes (made with a fresh class key) whose answers are equal, and the exercises whose answer
is the same for the whole class. The issue's bar: at most 2% of pairs for every typed-answer
exercise. Prints one row per exercise, worst first. Not a test (the bar is met for some exercises
only: tests/course/test_collisions.py holds those to it and says why the others are not there yet);
pytest does not collect this folder.
"""

from __future__ import annotations

import argparse
import secrets
from collections import Counter

from meeple.course.classroom import code_of
from meeple.course import exercises as ex
from meeple.course.exercises import graded


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--codes", type=int, default=60)
    args = ap.parse_args()
    key = secrets.token_bytes(32)
    codes = [code_of(key, f"student {i}") for i in range(args.codes)]
    pairs = args.codes * (args.codes - 1)
    rows, hits, total = [], 0, 0
    for k in graded.SEALED:
        counts = Counter(graded.canonical(ex.answer(k, c)) for c in codes)
        same = sum(n * (n - 1) for n in counts.values())
        rows.append((same / pairs, k, len(counts)))
        hits, total = hits + same, total + pairs
    print(f"{args.codes} codes, {len(rows)} exact exercises: a classmate's answer passes in {hits / total:.1%} of pairs")
    for share, k, distinct in sorted(rows, reverse=True):
        print(f"  {k:22} {share:6.1%}  ({distinct} distinct answers{', the same for everyone' if distinct == 1 else ''})")


if __name__ == "__main__":
    main()
