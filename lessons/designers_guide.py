"""The designer's guide (lessons/designers_guide.md): one real design question answered end to end
with the design measures (rules/sim/design.py), every number in it computed here, none typed.

    .venv/bin/python lessons/designers_guide.py          # writes lessons/designers_guide.md
    .venv/bin/python lessons/designers_guide.py --check  # exit 1 if the page differs from a fresh run

tests/test_designers_guide.py runs `page()` and holds the committed page equal to it, so a change in
the games, the bots or a measure that moves a number makes the test fail until the page is written
again. The games: Duck, Duck, Bruce, heuristic bots, GAMES games on seed SEED.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

from meeple.rules import duck_duck_bruce as ddb
from meeple.rules.comparison import compare_run, sameness_lines
from meeple.rules.workbench import tune

GAMES, SEED, BOTS = 500, 1, "heuristic"
MEASURES = ["leader_at_half_wins", "decisiveness", "drama", "margin", "kingmaking", "shared_wins"]
PAGE = Path(__file__).with_name("designers_guide.md")


def _row(table, variant: str, m: str) -> dict:
    return table[table["variant"] == variant].iloc[0].to_dict() | {"m": m}


def _ci(r: dict, col: str, digits: int = 2) -> str:
    return f"{r[col]:.{digits}f} (95% CI {r[col + '_low']:.{digits}f} to {r[col + '_high']:.{digits}f})"


def _diff(r: dict, col: str, digits: int = 2) -> str:
    return (f"{r['diff_' + col]:+.{digits}f} (95% CI {r['diff_' + col + '_low']:+.{digits}f} to "
            f"{r['diff_' + col + '_high']:+.{digits}f})")


def _holds_zero(r: dict, col: str) -> bool:
    return r[f"diff_{col}_low"] <= 0 <= r[f"diff_{col}_high"]


def page() -> str:
    """The guide's markdown, every number from a run made now."""
    small = ddb.Config(max_steal=1)
    run = compare_run("duck-duck-bruce", {"base": ddb.Config(), "small": small}, BOTS, GAMES, SEED, progress=False,
                      measures=MEASURES)
    t = run.table
    cols = {m: f"mean_{m}" for m in MEASURES}
    base = {m: _row(t, "base", m) for m in MEASURES}
    var = {m: _row(t, "small", m) for m in MEASURES}
    half, margin = "leader_at_half_wins", "margin"
    rows = "\n".join(
        f"| `{m}` | {_ci(base[m], cols[m])} | {_ci(var[m], cols[m])} | {_diff(var[m], cols[m])} |"
        for m in MEASURES)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the page says it in its own words below
        same = compare_run("duck-duck-bruce", {"base": ddb.Config(), "b5": ddb.Config().with_values({"best_face": 5})},
                           BOTS, 100, SEED, progress=False)
    same_said = sameness_lines(same.table)[0]
    tuned = tune("duck-duck-bruce", None, "best_face+max_steal", "mean_margin", 8.0, BOTS, 200, SEED, progress=False,
                 values=[2, 3, 4, 5])
    moved = "does not move" if _holds_zero(var[margin], cols[margin]) else "moves"
    lead = "holds 0" if _holds_zero(var[half], cols[half]) else "does not hold 0"
    verdict = ("Steals decide by how much the winner wins more than who wins: a designer who wants the second "
               "half to matter more needs another lever than the size of a steal." if lead == "holds 0" and
               moved == "moves" else "Read the table for the rest: each row says whether its interval holds 0.")
    return f"""# The designer's guide: is the game decided too early?

*Every number on this page is computed by `lessons/designers_guide.py` from {GAMES} games of each
rule set (seed {SEED}, {BOTS} bots); the test suite runs it again and fails if the page and the
games disagree.*

**The question.** In Duck, Duck, Bruce a player may steal from another (DDB-7): up to
`max_steal` cards, 3 by default. A steal is meant to pull the leader back. Does it? If the
player ahead at half time nearly always wins, the second half is a formality; if the winner's
lead is large, the game feels lopsided. A designer would ask: with smaller steals (`max_steal=1`),
is the game decided earlier, and by more?

**The measures** (each defined once, with its formula, in `meeple.rules.sim.design`; `meeple rules
duck-duck-bruce --measures` lists them; they are played only when asked for):

- `leader_at_half_wins`: 1 when the sole leader after half the turns wins (chance alone: 1/4).
- `decisiveness`: the share of the turns played with the final winner ahead for good.
- `drama`: how far the eventual winner trailed the leader, on average over the turns (Ludii's
  Drama, the scoreboard in place of a search's evaluation).
- `margin`: the winner's final lead over the best other player.
- `kingmaking`: 1 when a player who does not win ends the game with a move that turns the lead
  to the winner.
- `shared_wins`: 1 when the win is shared.

**The run.** Both rule sets play the same {GAMES} game seeds, so each difference is paired, game by
game:

```
meeple compare duck-duck-bruce --bots {BOTS} --games {GAMES} --seed {SEED} --variant base: \\
  --variant small:max_steal=1 {' '.join('--measure ' + m for m in MEASURES)}
```

| measure | base (`max_steal=3`) | small (`max_steal=1`) | small minus base, paired |
|---|---|---|---|
{rows}

**The answer.** The half-time leader wins {100 * base[half][cols[half]]:.0f}% of the games with the
base rules, {base[half][cols[half]] / 0.25:.1f} times the 25% chance alone would give. With small
steals the paired difference in that rate {lead}{", so the size of a steal does not show in who wins" if lead == "holds 0" else ""}.
The winner's margin {moved}: {_diff(var[margin], cols[margin])} points, game by game. {verdict}

**Before trusting a variant, check that it plays other games.** Change the die's best face to 5
and leave `max_steal` at 3: compare says in one line whether the bots' games change at all:

> {same_said}

**Coupled numbers move together.** `best_face` and `max_steal` are coupled (a claim above the best
face could never succeed), so tune them as one number, `--field best_face+max_steal`. Aiming the
winner's margin at 8 points:

```
{tuned.message}
```

**Next steps.** `meeple balance duck-duck-bruce --measure leader_at_half_wins --measure drama` puts
the same measures beside the seat advantage; the variant lab and the Explorer show them too
(pick a measure), each paired against the current rules on the same seeds.
"""


if __name__ == "__main__":
    text = page()
    if "--check" in sys.argv:
        sys.exit(0 if PAGE.read_text() == text else "lessons/designers_guide.md differs from a fresh run")
    PAGE.write_text(text)
    print(f"wrote {PAGE}")
