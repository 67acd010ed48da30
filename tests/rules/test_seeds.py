"""Every parameter and every measure a game records says what it is and cites rules of its
seed file (seeds/*.md) (issue 15 items 15.5 and 15.6).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from harness import run

from meeple.rules import GAMES

BB = "bucket-brigade"
SEEDS = Path(__file__).resolve().parents[2] / "seeds"


def _seed_file(mod) -> str:
    return (SEEDS / f"{mod.__name__.rsplit('.', 1)[1]}.md").read_text()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_config_field_has_a_description_and_a_rule_of_the_seed_file(name):
    import dataclasses

    mod = GAMES[name]
    seed = _seed_file(mod)
    rules = set(re.findall(r"^- \*\*([A-Z]+-\d+)\*\*", seed, re.M))
    fields = [f.name for f in dataclasses.fields(mod.Config)]
    assert list(mod.PARAMETERS) == fields, "PARAMETERS lists every Config field, in order"
    table = re.search(r"## Parameters\n(.*?)\n\n", seed, re.S).group(1)
    assert set(re.findall(r"^\| `(\w+)` \|", table, re.M)) == set(fields), "the seed's parameter table names every field"
    for field, (what, refs) in mod.PARAMETERS.items():
        assert len(what) > 10, field
        cited = refs.split(", ")
        assert cited and all(r in rules for r in cited), f"{field}: {refs} must be rules of seeds/{name}.md"


def test_rules_prints_each_parameter_with_its_value_meaning_and_rule(capsys):
    code, out, _ = run(capsys, "rules", BB)
    assert code == 0
    assert re.search(r"^  hand_sizes += 15,13,11 +hands for 3, 4, 5 players .*\(BB-2\)$", out, re.M)
    assert re.search(r"^  advanced += false +advanced scoring.*\(BB-10\)$", out, re.M)
    assert re.search(r"^  rounds += none +rounds in a game.*\(BB-12\)$", out, re.M)
    for name in sorted(GAMES):
        code, out, _ = run(capsys, "rules", name)
        lines = [ln for ln in out.splitlines() if " = " in ln]
        for field, (what, refs) in GAMES[name].PARAMETERS.items():
            assert any(ln.split("=")[0].strip() == field and ln.endswith(f"{what} ({refs})") for ln in lines), field


def test_parameter_info_reads_fields_elements_and_named_numbers():
    from meeple.rules.core import parameter_info

    assert parameter_info(BB, "hand_sizes[1]") == GAMES[BB].PARAMETERS["hand_sizes"]
    what, rule = parameter_info(BB, "hand_size")
    assert "hand" in what and rule == "BB-2"
    with pytest.raises(ValueError, match="unknown parameter 'wings'"):
        parameter_info(BB, "wings")


# --- issue 15.6: every measure a game records says what it counts, with its rule --------------

@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_column_has_words_and_rules_of_the_seed_file(name):
    from meeple.rules.sim.design import DESIGN
    from meeple.rules.sim import measures

    mod = GAMES[name]
    rules = set(re.findall(r"^- \*\*([A-Z]+-\d+)\*\*", _seed_file(mod), re.M))
    # the design measures (rules/sim/design.py) are every game's, not a game_stats column
    own = {m.removeprefix("mean_"): what for m, what in measures(mod).items()
           if m.startswith("mean_") and m.removeprefix("mean_") not in DESIGN}
    assert own and set(own) == set(mod.MEASURES), "MEASURES names every game_stats / score_sources column"
    for column, what in own.items():
        assert what == mod.MEASURES[column]
        cited = re.findall(r"[A-Z]+-\d+", what)
        assert cited and all(r in rules for r in cited), f"{column}: {what}"
