"""BENCHMARKS.md is the current table and how to reproduce it (issue 39), not a diary: at most 300
lines, and every section `make bench` rewrites is there for it to rewrite."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 300


def test_benchmarks_md_is_short_and_holds_every_section_make_bench_writes():
    text = (ROOT / "BENCHMARKS.md").read_text(encoding="utf-8")
    assert text.count("\n") <= LIMIT, f"BENCHMARKS.md has {text.count(chr(10))} lines (at most {LIMIT}): history stays in git"
    recipe = (ROOT / "Makefile").read_text(encoding="utf-8").split("\nbench:", 1)[1].split("\n\n", 1)[0]
    scripts = set(re.findall(r"tests/bench/(\w+)\.py", recipe))
    # each bench script's --update writes between markers this file must carry
    wanted = {"bench_simulate": ["bench"], "bench_engine": ["engine", "explorer21", "rss"], "bench_agreement": ["agreement", "chance-agreement"],
              "bench_lookahead": ["lookahead"], "bench_sealed": ["sealed"], "bench_site": ["site-games"]}
    assert scripts <= set(wanted), f"a bench script this test does not know: {sorted(scripts - set(wanted))}"
    for script in scripts:
        for tag in wanted[script]:
            assert f"<!-- {tag}:start -->" in text and f"<!-- {tag}:end -->" in text, (script, tag)
