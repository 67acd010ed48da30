"""`meeple simulate`, `sweep` and `balance` as a user types them (rules/cli/sim.py, and
rules/cli/common.py's saving): tables, measures, bad input; a Ctrl-C never replaces a file
with less (the old file is kept, a partial table is marked as one); the summary is on screen
before the file is written.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness import run, stop_after
from meeple.rules import sim as SIM
from meeple.rules.cli import common as SIM_CLI  # where the commands look measures up and write_atomic
from meeple.rules.cli import main
from meeple.rules.cli.common import CliError
from meeple.rules.sim import runner as RUNNER

# RUNNER: where a run looks play_game up, for monkeypatching it; SIM_CLI: where the commands look measures up

BB = "bucket-brigade"


def test_simulate_prints_rates_with_intervals_and_saves_each_format(capsys, tmp_path):
    for suffix in (".csv", ".parquet", ".json"):
        path = tmp_path / f"runs{suffix}"
        code, out, err = run(capsys, "simulate", "bucket-brigade", "--games", "12", "--seed", "3",
                             "--bots", "heuristic,random,random", "--set", "bonus=6", "--workers", "1", "--out", str(path),
                             "--no-rotate")
        assert code == 0 and err == ""
        assert "Bucket Brigade, 12 games, seed 3, bots heuristic, random, random, rules: players=3, bonus=6" in out
        assert "95% CI" in out and "Player 1  heuristic" in out
        if suffix == ".csv":
            table = pd.read_csv(path)
        elif suffix == ".parquet":
            table = pd.read_parquet(path)
        else:
            data = json.loads(path.read_text())
            assert data["format"] == "meeple-simulation/1" and data["config"]["bonus"] == 6 and not data["partial"]
            table = pd.DataFrame(data["rows"])
        assert len(table) == 36 and set(table["game"]) == set(range(12))
        assert {"points_hand", "points_ender_bonus", "rounds_ended"} <= set(table.columns)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runs.csv", "runs.json", "runs.parquet"]  # no temp files left


def test_sweep_takes_scalar_values_with_commas_and_tuple_values_with_semicolons(capsys, tmp_path):
    path = tmp_path / "grid.csv"
    code, out, err = run(capsys, "sweep", "bucket-brigade", "--vary", "bonus=0,6", "--vary",
                         "track=0,-1,-1,0,1,2,3;-1,-1,-1,0,1,2,3", "--games", "6", "--workers", "1", "--out", str(path))
    assert code == 0 and err == ""
    table = pd.read_csv(path)
    assert len(table) == 2 * 2 * 4
    assert set(table["track"]) == {"0,-1,-1,0,1,2,3", "-1,-1,-1,0,1,2,3"} and set(table["bonus"]) == {0, 6}
    assert "bonus  track" in out and "0,-1,-1,0,1,2,3" in out


def test_sweep_repeating_vary_adds_values_to_the_same_parameter(capsys):
    code, out, _ = run(capsys, "sweep", "bucket-brigade", "--vary", "track=0,0,1,2,3", "--vary", "track=0,-1,1,2,3",
                       "--vary", "players=3;4", "--games", "4", "--workers", "1")
    assert code == 0
    lines = [ln for ln in out.splitlines() if ln.strip().startswith("0,")]
    assert len(lines) == 2 * (3 + 4)  # two tracks; 3 + 4 seats


def test_balance_prints_the_report_and_saves_json(capsys, tmp_path):
    path = tmp_path / "balance.json"
    code, out, err = run(capsys, "balance", "bucket-brigade", "--games", "30", "--bots", "heuristic,random,random",
                         "--workers", "1", "--out", str(path))
    assert code == 0 and err == ""
    for part in ("Seat advantage", "binomial p", "Decisiveness", "Lead changes", "Where the points come from",
                 "Skill vs luck: heuristic"):
        assert part in out
    data = json.loads(path.read_text())
    assert data["games"] == 30 and data["skill"]["strong"] == "heuristic"


# Same shape as test_cli's bad-input table on purpose: each file lists its own commands' messages.
@pytest.mark.parametrize(
    "argv, message",
    [
        (["simulate", "bucket-brigade", "--games", "0"], "--games must be a whole number from 1"),
        (["simulate", "bucket-brigade", "--games", "many"], "--games must be a whole number"),
        (["simulate", "bucket-brigade", "--workers", "0"], "--workers must be a whole number from 1"),
        (["simulate", "bucket-brigade", "--bots", "genius"], "unknown bot 'genius'"),
        (["simulate", "bucket-brigade", "--set", "bonus=-1"], "bonus=-1 is not allowed"),
        (["simulate", "piggyback-brigade", "--set", "max_rerolls="],
         "empty value for max_rerolls: write max_rerolls=none for no limit, or a whole number"),
        (["simulate", "bucket-brigade", "--set", "rounds="],
         "empty value for rounds: write rounds=none for one per player, or a whole number"),
        (["simulate", "bucket-brigade", "--set", "hand_sizes="], "empty value for hand_sizes: write 3 comma-separated"),
        (["simulate", "bucket-king", "--set", "end_rule="], "empty value for end_rule: write one of the names"),
        (["sweep", "bucket-brigade", "--vary", "rounds=2,"], "empty value for rounds: write rounds=none for one per"),
        (["simulate", "bucket-brigade", "--seed", "x"], "--seed must be a whole number"),
        (["simulate", "bucket-brigade", "--out", "OUT/runs.xlsx"], "--out must end in .csv, .parquet, .json"),
        (["simulate", "bucket-brigade", "--out", "OUT/missing/runs.csv"], "folder"),
        (["simulate", "chess"], "unknown game 'chess'"),
        (["sweep", "bucket-brigade"], "sweep needs at least one --vary"),
        (["sweep", "bucket-brigade", "--vary", "bonus"], "is not of the form FIELD=V1,V2"),
        (["sweep", "bucket-brigade", "--vary", "wings=1,2"], "unknown parameter 'wings'"),
        (["sweep", "bucket-brigade", "--vary", "bonus=3,-1,lots"], "bonus=-1 is not allowed"),
        (["sweep", "bucket-brigade", "--vary", "bonus=3,-1,lots"], "bonus: 'lots' is not a whole number"),
        (["sweep", "bucket-brigade", "--vary", "bonus=1,2", "--vary", "bonus=01"], "--vary bonus gives '1' and '01': the same value twice"),
        (["sweep", "bucket-brigade", "--vary", "track=0,1;5"], "Start plus at least one space"),
        (["sweep", "bucket-brigade", "--vary", "players=3,4", "--bots", "random,random,random"], "[players=4] need 4 bots"),
        (["sweep", "bucket-brigade", "--vary", "bonus=1", "--out", "OUT/grid.txt"], "--out must end in"),
        (["balance", "bucket-brigade", "--skill", "heuristic"], "--skill needs two bot names"),
        (["balance", "bucket-brigade", "--skill", "heuristic,genius"], "unknown bot 'genius'"),
        (["balance", "bucket-brigade", "--skill", "heuristic, heuristic"], "--skill names the bot 'heuristic' twice"),
        (["balance", "bucket-brigade", "--bots", "heuristic,random,random", "--skill", "heuristic,random"],
         "--skill is used only when --bots names one bot; --bots names heuristic, random"),
        (["balance", "bucket-brigade", "--out", "OUT/report.csv"], "--out must end in .json"),
    ],
)
def test_bad_input_is_one_line_a_nonzero_exit_and_nothing_written(capsys, tmp_path, monkeypatch, argv, message):
    def no_games(*a, **k):
        raise AssertionError("a game was played despite bad input")

    monkeypatch.setattr(RUNNER, "play_game", no_games)
    argv = [a.replace("OUT", str(tmp_path)) for a in argv]
    code, out, err = run(capsys, *argv, *(["--workers", "1"] if "--workers" not in argv else []))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("meeple: error:") and message in err
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_prints_the_finished_part_and_exits_130(capsys, tmp_path, monkeypatch):
    stop_after(monkeypatch, 5)
    path = tmp_path / "runs.json"
    code, out, err = run(capsys, "simulate", "bucket-brigade", "--games", "50", "--workers", "1", "--out", str(path))
    assert code == 130
    assert "interrupted: 5 of 50 games" in out and "Player 4" in out
    assert "finished games" in err
    data = json.loads(path.read_text())
    assert data["partial"] and data["completed"] == 5 and len(data["rows"]) == 20


def test_vary_splits_tuple_of_tuple_values_on_semicolons_only():
    """A tuple-of-tuples value uses ',' inside a tuple and '/' between tuples; ';' between values."""
    from meeple.rules.cli.sim import parse_vary

    class Config:
        @staticmethod
        def field_types():
            return {"rows": tuple[tuple[int, ...], ...], "track": tuple[int, ...], "bonus": int, "rounds": int | None}

    mod = type("FakeGame", (), {"Config": Config})
    grid = parse_vary(["rows=5,4/3,2;4,3/2,1", "track=0,1,2", "track=0,0,3", "bonus=1,2;3", "rounds=none,2"], mod)
    assert grid == {"rows": ["5,4/3,2", "4,3/2,1"], "track": ["0,1,2", "0,0,3"], "bonus": ["1", "2", "3"],
                    "rounds": ["none", "2"]}


@pytest.mark.parametrize("command", ["simulate", "sweep", "balance"])
def test_help_prints_and_exits_zero(capsys, command):
    with pytest.raises(SystemExit) as e:
        main([command, "--help"])
    assert e.value.code == 0 and "--games" in capsys.readouterr().out


# --- issue 15.6: pick any measure the game records, each with its 95% CI ----------------

DDB = "duck-duck-bruce"


def test_simulate_measure_shows_each_chosen_figure_per_seat_and_overall_with_an_interval(capsys):
    code, out, err = run(capsys, "simulate", DDB, "--games", "12", "--workers", "1", "--bots", "heuristic",
                         "--measure", "steals_tried", "--measure", "mean_backfires", "--measure", "turns")
    assert code == 0 and err == ""
    section = out.split("Chosen measures")[1].splitlines()[2:]
    seats = [ln.split()[0:3] for ln in section]
    assert seats[:5] == [["steals_tried", "Player", "1"], ["steals_tried", "Player", "2"], ["steals_tried", "Player", "3"],
                         ["steals_tried", "Player", "4"], ["steals_tried", "all", section[4].split()[2]]]
    assert [ln.split()[0] for ln in section] == ["steals_tried"] * 5 + ["backfires"] * 5 + ["turns"]
    assert all(" to " in ln for ln in section)  # every figure with its interval
    assert "The game's own figures" not in out  # the chosen ones replace the full list


def test_sweep_measure_puts_the_chosen_figures_in_the_table(capsys):
    code, out, _ = run(capsys, "sweep", DDB, "--vary", "max_steal=2,3", "--games", "6", "--workers", "1",
                       "--measure", "cards_stolen", "--measure", "win_rate")
    assert code == 0
    header = next(ln for ln in out.splitlines() if ln.strip().startswith("max_steal"))
    assert header.split() == ["max_steal", "seat", "bot", "games", "cards_stolen", "win_rate"]
    rows = [ln for ln in out.splitlines() if ln.strip()[:1] in ("2", "3") and "Player" in ln]
    assert len(rows) == 8 and all(ln.count(" to ") == 2 for ln in rows)


@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_an_unknown_measure_is_one_line_before_any_game(capsys, monkeypatch, command):
    def no_games(*a, **k):
        raise AssertionError("a game was played despite bad input")

    extra = ["--vary", "bonus=1,2"] if command == "sweep" else []
    known = SIM.measures(BB)  # it plays one probe game to name the game's columns: before play_game is blocked
    monkeypatch.setattr(SIM_CLI, "measures", lambda game, config=None: known)
    monkeypatch.setattr(RUNNER, "play_game", no_games)
    code, out, err = run(capsys, command, BB, *extra, "--measure", "wings", "--workers", "1")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "unknown measure 'wings' for bucket-brigade; known: win_rate, score, turns" in err and "points_hand" in err


def test_simulate_help_lists_every_games_measures(capsys):
    from meeple.rules import GAMES
    from meeple.rules.sim import measures

    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    out = capsys.readouterr().out
    assert "--measure NAME" in out
    for name, mod in GAMES.items():
        assert f"  {name}:\n" in out
        for m, what in measures(mod).items():
            if m.startswith("mean_"):
                line = next(ln for ln in out.splitlines() if ln.split()[:1] == [m.removeprefix("mean_")])
                assert what.split()[0] in line  # each measure with what it counts


def test_summary_measures_carry_intervals_and_refuse_unknown_names():
    from meeple.rules.sim import simulate
    from meeple.rules.stats import mean_ci

    res = simulate(DDB, None, "heuristic", 10, 2, workers=1, progress=False)
    m = res.summary(["turns", "cards_stolen", "win_rate"]).measures
    turns = m[m["measure"] == "turns"].iloc[0]
    assert (turns["mean"], turns["low"], turns["high"]) == mean_ci(res.games["turns"].tolist())
    stolen = m[m["measure"] == "mean_cards_stolen"]
    assert len(stolen) == 5 and stolen["seat"].isna().sum() == 1 and (stolen["low"] <= stolen["mean"]).all()
    seat0 = res.table[res.table["seat"] == 0]["cards_stolen"].tolist()
    assert tuple(stolen.iloc[0][["mean", "low", "high"]]) == mean_ci(seat0)
    assert len(m[m["measure"] == "win_rate"]) == 4
    with pytest.raises(ValueError, match="unknown measure 'wings'; known: win_rate, score"):
        res.summary(["wings"])
    assert res.summary().measures is None


# --- an interrupted run never replaces a file with less -----------------------------

RUNS = {
    "simulate": ["simulate", BB, "--games", "8", "--workers", "1"],
    "sweep": ["sweep", BB, "--vary", "bonus=0,6", "--games", "4", "--workers", "1"],
    "balance": ["balance", BB, "--games", "6", "--workers", "1"],
}


@pytest.mark.parametrize("command, suffix", [("simulate", ".csv"), ("simulate", ".json"), ("simulate", ".parquet"),
                                             ("sweep", ".csv"), ("sweep", ".json"), ("balance", ".json")])
def test_ctrl_c_before_any_game_writes_nothing_and_keeps_the_old_file(capsys, tmp_path, monkeypatch, command, suffix):
    out = tmp_path / f"results{suffix}"
    out.write_text("a good table from yesterday\n")
    stop_after(monkeypatch, 0)
    code, _, err = run(capsys, *RUNS[command], "--out", out)
    assert code == 130 and err.count("\n") == 1 and "nothing written" in err and "kept" in err
    assert out.read_text() == "a good table from yesterday\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]  # no partial file, no temp file
    out.unlink()
    code, _, err = run(capsys, *RUNS[command], "--out", out)
    assert code == 130 and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_ctrl_c_after_some_games_keeps_the_old_file_and_saves_a_marked_partial_csv(capsys, tmp_path, monkeypatch, command):
    out = tmp_path / "results.csv"
    out.write_text("a good table from yesterday\n")
    stop_after(monkeypatch, 3)
    code, stdout, err = run(capsys, *RUNS[command], "--out", out)
    assert code == 130 and "results of the 3 finished games" in err
    assert out.read_text() == "a good table from yesterday\n"
    partial = tmp_path / "results.partial.csv"
    assert f"saved to {partial} (partial: 3 of 8 games, interrupted); {out} kept as it was" in stdout
    first = partial.read_text().splitlines()[0]
    assert first == "# partial: 3 of 8 games, interrupted"  # 8 games, or 2 points x 4 games
    table = pd.read_csv(partial, comment="#")  # the documented way to read it
    if command == "simulate":
        assert sorted(set(table["game"])) == [0, 1, 2]
    else:
        assert table.drop_duplicates("point")["games"].sum() == 3


def test_a_partial_table_in_a_new_file_is_marked_in_csv_parquet_and_json(capsys, tmp_path, monkeypatch):
    for suffix in (".csv", ".parquet", ".json"):
        with pytest.MonkeyPatch.context() as mp:
            stop_after(mp, 2)
            assert run(capsys, *RUNS["simulate"], "--out", tmp_path / f"new{suffix}")[0] == 130
        assert run(capsys, *RUNS["simulate"], "--out", tmp_path / f"whole{suffix}")[0] == 0
    assert (tmp_path / "new.csv").read_text().startswith("# partial: 2 of 8 games, interrupted\n")
    assert pd.read_parquet(tmp_path / "new.parquet").attrs["partial"] == "partial: 2 of 8 games, interrupted"
    data = json.loads((tmp_path / "new.json").read_text())
    assert data["partial"] and data["completed"] == 2 and len(data["rows"]) == 2 * 4
    assert not (tmp_path / "whole.csv").read_text().startswith("#")  # a whole table reads as plain CSV
    assert pd.read_parquet(tmp_path / "whole.parquet").attrs["partial"] is False
    assert json.loads((tmp_path / "whole.json").read_text())["partial"] is False


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    finished=st.integers(0, 6),
    existing=st.sampled_from([None, "", "old,table\n1,2\n" * 40]),
    command=st.sampled_from(["simulate", "sweep"]),
    suffix=st.sampled_from([".csv", ".json"]),
)
def test_property_an_interrupted_write_never_shrinks_or_replaces_a_file(capsys, tmp_path_factory, finished, existing,
                                                                      command, suffix):
    """Whatever finished before the Ctrl-C, an existing --out file is unchanged, and a
    file appears only if a game finished (then marked partial)."""
    folder = tmp_path_factory.mktemp("out")
    out = folder / f"r{suffix}"
    if existing is not None:
        out.write_text(existing)
    with pytest.MonkeyPatch.context() as mp:
        stop_after(mp, finished)
        code, _, _ = run(capsys, *RUNS[command], "--out", out)
    assert code == 130
    if existing is not None:
        assert out.read_text() == existing
    names = sorted(p.name for p in folder.iterdir())
    written = folder / f"r.partial{suffix}" if existing is not None else out
    if finished:
        assert written.name in names
        text = written.read_text()
        assert text.startswith("# partial:") if suffix == ".csv" else json.loads(text)["partial"]
    else:
        assert names == ([out.name] if existing is not None else [])


# --- the summary comes before the file ----------------------------------------------------

@pytest.mark.parametrize(
    "argv, summary",
    [
        (["simulate", BB, "--games", "6", "--workers", "1", "--out", "t.csv"], "Win rate"),
        (["sweep", BB, "--vary", "bonus=0,3", "--games", "4", "--workers", "1", "--out", "t.csv"], "win rate"),
        (["balance", BB, "--games", "6", "--workers", "1", "--out", "t.json"], "Seat advantage"),
    ],
    ids=lambda a: a[0] if isinstance(a, list) else "",
)
def test_the_summary_is_printed_before_the_file_is_written(capsys, tmp_path, monkeypatch, argv, summary):
    """A write that fails after the games (a disk that filled meanwhile) still leaves the summary on screen."""
    monkeypatch.chdir(tmp_path)

    def full_disk(path, data):
        raise CliError(f"cannot write {path}: No space left on device")

    monkeypatch.setattr(SIM_CLI, "write_atomic", full_disk)
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and summary in out, (code, out, err)
    assert err == f"meeple: error: cannot write {argv[-1]}: No space left on device\n"


def test_one_game_says_an_interval_needs_two_not_minus_inf_to_inf(capsys):
    """`simulate --games 1` printed every mean's 95% CI as '-inf to inf' (mean_ci of one value),
    on the command line and in the summary text alike; compare's columns too."""
    code, out, err = run(capsys, "simulate", "bucket-brigade", "--games", "1", "--workers", "1")
    assert code == 0 and "inf" not in out and "n/a (1 game)" in out, out + err
    assert out.startswith("Bucket Brigade, 1 game, seed 0"), out  # not "1 games"
    text = str(SIM.simulate("bucket-brigade", None, "random", 1, 0, progress=False, workers=1).summary())
    assert "inf" not in text and "n/a (1 game)" in text
    code, out, err = run(capsys, "compare", "bucket-brigade", "--variant", "a:", "--variant", "b:bonus=5",
                         "--games", "1", "--workers", "1")
    assert code == 0 and "inf" not in out and "(n/a: 1 game)" in out, out + err
    code, out, err = run(capsys, "simulate", "bucket-brigade", "--games", "2", "--workers", "1")
    assert "n/a (1 game)" not in out and out.startswith("Bucket Brigade, 2 games, seed 0"), out


@pytest.mark.parametrize("command", ["simulate", "balance"])
def test_the_header_names_the_bots_alike_from_the_api_and_the_command_line(capsys, command):
    """balance's header said 'bots heuristic x4' on the command line but 'bots heuristic' from
    balance_report(...): the API's one name for every seat is counted by the player count."""
    code, out, err = run(capsys, command, "piggyback-brigade", "--games", "4", "--seed", "1", "--bots", "heuristic",
                         "--workers", "1")
    assert code == 0, err
    api = (SIM.balance_report if command == "balance" else SIM.simulate)(
        "piggyback-brigade", None, "heuristic", 4, 1, progress=False, workers=1)
    head = str(api if command == "balance" else api.summary()).splitlines()[0]
    assert "bots heuristic x4" in head and out.splitlines()[0] == head


def test_one_game_compare_claims_no_interval_it_does_not_have(capsys):
    """compare at one game said 'b differs from a only by chance ... every paired 95% interval holds 0':
    one game has no interval at all (each bound infinite), so no such claim; it says so and asks for 2."""
    code, out, err = run(capsys, "compare", "bucket-brigade", "--variant", "a:", "--variant", "b:bonus=5",
                         "--games", "1", "--workers", "1")
    assert code == 0, out + err
    assert out.startswith("bucket-brigade: 1 game per variant,"), out  # not "1 games"
    assert "only by chance" not in out and "1 game per variant: no paired interval exists" in out, out
    code, out, err = run(capsys, "compare", "bucket-brigade", "--variant", "a:", "--variant", "b:bonus=5",
                         "--games", "2", "--workers", "1")
    assert "no paired interval exists" not in out and "2 games per variant" in out, out
