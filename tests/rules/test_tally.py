"""simulate(..., keep="summary"): running totals instead of every game (issue 11's memory goal).

The summary-only path keeps histograms, not games; its summary must be the full
path's, number for number, on the same seed (however the games are split among
worker processes), and it must not grow with the games the way a table does.
How much memory each path uses per game is measured by
`tests/bench/bench_engine.py --memory`, not here.
"""

from __future__ import annotations

import pickle

import pandas as pd
import pytest

from meeple.rules import GAMES, simulate
from meeple.rules.sim import Results, RunningTotals, Totals, measures

SUMMARY_FRAMES = ("seats", "bots", "length", "columns", "measures")


def _same_summary(a, b) -> None:
    for name in SUMMARY_FRAMES:
        x, y = getattr(a, name), getattr(b, name)
        if x is None or y is None:
            assert x is None and y is None, name
        else:
            pd.testing.assert_frame_equal(x, y, check_exact=True, obj=name)
    assert (a.heading, a.games, a.partial) == (b.heading, b.games, b.partial)
    assert str(a) == str(b)


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("players, bots", [(4, "random"), (3, "heuristic,random,random")])
def test_summary_only_gives_the_full_summary_number_for_number(name, players, bots):
    """Same seed, same games: win rates, scores, game length, the game's own columns and
    every chosen measure agree exactly (bots holding several seats, shared wins included)."""
    config = GAMES[name].Config(players=players)
    chosen = list(measures(name, config))
    # every measure, design ones included (played only when named: rules/sim/design.py)
    full = simulate(name, config, bots, 60, 4, workers=1, progress=False, rotate=True, measures=chosen)
    totals = simulate(name, config, bots, 60, 4, workers=1, progress=False, rotate=True, keep="summary",
                      measures=chosen)
    assert isinstance(full, Results) and isinstance(totals, Totals)
    _same_summary(full.summary(), totals.summary())
    _same_summary(full.summary(chosen), totals.summary(chosen))


def test_summary_only_is_the_same_however_the_games_are_split():
    """Chunks played by worker processes come back as tallies in any order; added up they
    give the summary of the games played in one process."""
    one = simulate("piggyback-brigade", None, "heuristic,random,random,random", 80, 9, workers=1,
                   progress=False, rotate=True, keep="summary")
    two = simulate("piggyback-brigade", None, "heuristic,random,random,random", 80, 9, workers=2,
                   progress=False, rotate=True, keep="summary")
    _same_summary(one.summary(), two.summary())


def test_tallies_add_up_in_any_order():
    """A tally of games 0..59 equals the sum of tallies of parts, added in any order."""
    res = simulate("duck-duck-bruce", None, "random", 60, 2, workers=1, progress=False)
    whole = RunningTotals(4)
    whole.extend(res.records)
    parts = [RunningTotals(4) for _ in range(3)]
    for g in res.records:
        parts[g.index % 3].append(g)
    merged = RunningTotals(4)
    for p in reversed(parts):
        merged.extend(pickle.loads(pickle.dumps(p)))  # as a worker process sends it
    assert merged.__dict__ == whole.__dict__


def _entries(t: RunningTotals) -> int:
    hists = t.seat_share + t.seat_score + [*t.bot_share.values(), *t.bot_score.values(), *t.per_game.values()]
    for col in t.cols.values():
        hists += [col[3], *col[4]]
    return sum(len(h) for h in hists)


def test_the_tally_grows_with_distinct_values_not_with_games():
    """Four times the games, hardly more to hold: a tally keeps one entry per distinct value
    (Piggyback: 100 games 224 entries, 400 games 249), where the table grows fourfold."""
    small = simulate("piggyback-brigade", None, "random", 100, 3, workers=1, progress=False, keep="summary").tally
    large = simulate("piggyback-brigade", None, "random", 400, 3, workers=1, progress=False, keep="summary").tally
    assert large.games == 400 == sum(large.per_game["turns"].values()) == sum(large.seat_score[0].values())
    assert _entries(large) < 1.25 * _entries(small)


def test_summary_only_keeps_no_table_and_says_so():
    totals = simulate("bucket-brigade", None, "random", 5, 1, workers=1, progress=False, keep="summary")
    assert totals.completed == 5 and "5 games" in totals.describe()
    with pytest.raises(AttributeError, match=r"keep='summary'\) keeps running totals, not the games: no 'table'"):
        totals.table  # noqa: B018 - reading it is the test


@pytest.mark.parametrize("keep", ["rows", "", None, "Summary"])
def test_keep_must_be_games_or_summary(keep):
    with pytest.raises(ValueError, match="keep must be 'games' .* or 'summary' .*, got"):
        simulate("bucket-brigade", None, "random", 5, 1, workers=1, progress=False, keep=keep)


def test_ctrl_c_keeps_the_finished_games_in_the_totals(monkeypatch):
    """An interrupted summary-only run keeps what it tallied and says it is partial."""

    from meeple.rules.sim import runner as sim  # where a run looks play_game up
    real = sim.play_game
    played = []

    def stop_after_five(*args, **kw):
        if len(played) == 5:
            raise KeyboardInterrupt
        played.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(sim, "play_game", stop_after_five)
    totals = simulate("bucket-brigade", None, "random", 50, 1, workers=1, progress=False, keep="summary")
    assert totals.partial and totals.completed == 5 and "interrupted: 5 of 50" in totals.summary().heading
