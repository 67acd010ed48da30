"""balance_report (issue 36): shares only where they mean something, decisiveness one compact row
per checkpoint, and the chosen measures (design ones included)."""

import math

from meeple.rules import bucket_king as bk
from meeple.rules.sim import balance_report
from meeple.rules.sim.balance import MIN_ROW_GAMES, compact_checkpoints


def test_sources_of_mixed_sign_get_no_share_and_the_report_says_why():
    rep = balance_report("bucket-king", bk.Config(players=5), "heuristic", 30, 1, progress=False, workers=1, skill=())
    assert (rep.sources["mean_points"] > 0).any() and (rep.sources["mean_points"] < 0).any()
    assert rep.sources["share"].map(math.isnan).all()
    text = str(rep)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "No shares: the sources mix signs" in line)
    assert lines[at + 1].split() == ["source", "points", "95%", "CI"]  # no share column
    # many rounds a game: no row per round (the full table stays in rep.decisiveness)
    assert "round 1 " not in text and "Per round: left out" in text
    assert len(rep.decisiveness) > 3


def test_sources_of_one_sign_keep_their_shares():
    rep = balance_report("duck-duck-bruce", None, "heuristic", 30, 1, progress=False, workers=1, skill=())
    assert abs(rep.sources["share"].sum() - 1) < 1e-9


def test_decisiveness_prints_each_checkpoint_once_and_no_rate_from_a_few_games():
    rep = balance_report("duck-duck-bruce", None, "heuristic", 60, 1, progress=False, workers=1, skill=(),
                         measures=["leader_at_half_wins", "drama"])
    text = str(rep)
    table = text.split("Decisiveness")[1].split("Lead changes")[0]
    shown, _ = compact_checkpoints(rep.decisiveness, rep.length)
    assert len(set(shown["checkpoint"])) == len(shown)  # no repeated row
    for r in shown.itertuples():  # a row from fewer than MIN_ROW_GAMES games shows no rate
        line = next(line for line in table.splitlines() if line.strip().startswith(r.checkpoint + "  "))
        assert ("too few games" in line) == (r.games < MIN_ROW_GAMES)
    assert (shown["games"] < MIN_ROW_GAMES).any()  # DDB's 25% of turns: scores still tied
    # a round's end that is also a share of the turns (the same games): one row, both names
    assert "round 1 = 50% of turns" in table
    assert set(rep.measures["measure"]) == {"mean_leader_at_half_wins", "mean_drama"}
    assert "leader_at_half_wins" in text.split("Chosen measures")[1]
