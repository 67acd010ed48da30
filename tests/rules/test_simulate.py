"""Simulation: per-game seeds, tidy tables, intervals that cover, sweeps, interrupts.

Games are small and few; the process-pool and dask tests use real pools but
a few dozen games, so the whole file runs in seconds.
"""

from __future__ import annotations

import math
import signal
import sys
import types
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction

import pytest

from meeple.rules import GAMES, play
from meeple.rules import bucket_brigade as bb
from meeple.rules.bots import random_bot
from meeple.rules.chance import Chance, game_seed, start
from meeple.rules.config import RuleConfig, need
from meeple.rules.sim import head_to_head
from meeple.rules.sim import balance_report, simulate, sweep
from meeple.rules.sim.results import _per_seat
from meeple.rules.stats import (
    binomial_two_sided_p,
    chi2_sf,
    chi_square_uniform,
    ratio_ci,
)

BB = "bucket-brigade"


def run(*args, **kw):
    kw.setdefault("progress", False)
    return simulate(*args, **kw)


# --- a coin-flip game whose true win rate is known exactly --------------------

@dataclass(frozen=True)
class CoinConfig(RuleConfig):
    players: int = 2
    heads_in_ten: int = 3  # seat 0 wins with probability heads_in_ten / 10

    def __post_init__(self):
        need(self.players == 2, "players", self.players, "2")
        need(0 <= self.heads_in_ten <= 10, "heads_in_ten", self.heads_in_ten, "0 to 10")


@dataclass
class CoinState:
    config: CoinConfig
    chance: Chance
    current_player: int | None = 0
    is_over: bool = False
    round: int = 0
    events: tuple = ()
    winner: int | None = None


def _coin_module() -> types.ModuleType:
    m = types.ModuleType("coin_game_for_tests")
    m.NAME, m.TITLE, m.Config = "coin", "Coin", CoinConfig
    m.new_game = lambda config=None, seed=0: CoinState(config or CoinConfig(), Chance(seed))
    m.legal_actions = lambda s: [] if s.is_over else ["flip"]

    def apply(s, action):
        x, chance = s.chance.below(10)
        w = 0 if x < s.config.heads_in_ten else 1
        return CoinState(s.config, chance, None, True, 0, s.events + (f"Player {w + 1} wins.",), w)

    m.apply = apply
    m.scores = lambda s: [int(s.winner == i) for i in range(2)]
    m.round_scores = lambda s: [m.scores(s)] if s.is_over else []
    m.winners = lambda s: [s.winner] if s.is_over else []
    m.observation = lambda s, p: p
    m.BOTS = {"random": random_bot}
    sys.modules[m.__name__] = m
    return m


COIN = _coin_module()


# --- seeds and workers --------------------------------------------------------

def test_game_i_is_the_game_core_play_gives_with_the_derived_seed():
    """Game i of a run replays alone: play(game, config, lineup, game_seed(seed, i))."""
    cfg = bb.Config(players=3)
    res = run(BB, cfg, ["heuristic", "random", "random"], 6, 11, workers=1, rotate=True)
    for g in res.records:
        rec = play(BB, cfg, list(g.bots), game_seed(11, g.index))
        assert g.seed == game_seed(11, g.index) == 11 * 2**32 + g.index
        assert g.scores == rec.scores and g.winners == rec.winners
        assert g.actions == len(rec.actions)
        assert g.rounds == len(rec.round_scores)


def test_same_table_with_one_two_and_four_worker_processes():
    """Chunks of game indices, sorted back: the split and the order do not matter."""
    cfg = bb.Config(players=3)
    one = run(BB, cfg, "random,heuristic,random", 24, 5, workers=1)
    for n in (2, 4):
        with ProcessPoolExecutor(n) as pool:
            many = run(BB, cfg, "random,heuristic,random", 24, 5, executor=pool, workers=n)
        assert many.table.equals(one.table), f"{n} workers"
        assert many.games.equals(one.games)
    pooled = run(BB, cfg, "random,heuristic,random", 24, 5, workers=2)  # its own pool
    assert pooled.table.equals(one.table)
    assert not pooled.partial and pooled.completed == 24


def test_a_different_seed_gives_different_games():
    a = run(BB, None, "random", 10, 1, workers=1)
    b = run(BB, None, "random", 10, 2, workers=1)
    assert not a.table.equals(b.table)


def test_dask_cluster_runs_the_same_simulation_and_sweep():
    """A dask.distributed Client's executor is just another Executor."""
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=True, dashboard_address=":0"
    ) as cluster, distributed.Client(cluster) as client:
        ex = client.get_executor()
        res = run(BB, None, "random", 30, 8, executor=ex)
        grid = sweep(BB, None, {"bonus": [0, 6]}, "random", 12, 8, executor=ex, progress=False)
    assert res.table.equals(run(BB, None, "random", 30, 8, workers=1).table)
    local = sweep(BB, None, {"bonus": [0, 6]}, "random", 12, 8, workers=1, progress=False)
    assert grid.equals(local)


# --- the tables ---------------------------------------------------------------

def test_table_has_one_row_per_game_and_seat_with_the_protocol_columns():
    res = run(BB, bb.Config(players=3), "random", 20, 3, workers=1)
    t = res.table
    assert len(t) == 60 and len(res.games) == 20
    assert list(t.columns[:8]) == ["game", "seat", "bot", "score", "won", "win_share", "rounds", "turns"]
    assert sorted(t["game"].unique()) == list(range(20))
    assert (t.groupby("game")["win_share"].sum().round(9) == 1).all()  # one whole win shared out per game
    assert (t["won"] == (t["win_share"] > 0)).all()
    assert (res.games["turns"] <= res.games["actions"]).all() and (res.games["rounds"] == 3).all()


def test_bucket_brigade_columns_add_up():
    """Hooks: score_sources parts add up to the score; every round has one ender or none."""
    res = run(BB, bb.Config(players=4, floor_zero=False), "heuristic,random,random,random", 30, 4, workers=1)
    t = res.table
    assert (t["points_hand"] + t["points_ender_bonus"] == t["score"]).all()
    enders = t.groupby("game")["rounds_ended"].sum() + t.groupby("game")["rounds_unended"].first()
    assert (enders == 4).all()
    # with the floor off the bonus always counts: bonus points = bonus x rounds ended
    assert (t["points_ender_bonus"] == 3 * t["rounds_ended"]).all()


def test_score_sources_with_the_floor_count_nothing_for_a_round_left_at_zero():
    """BB-11: a floored round gives neither source a point; otherwise bonus + hand = points."""
    res = run(BB, bb.Config(), "random", 40, 9, workers=1)
    t = res.table
    assert (t["points_hand"] + t["points_ender_bonus"] == t["score"]).all()
    assert (t["points_ender_bonus"] <= 3 * t["rounds_ended"]).all()


def test_rotation_puts_every_bot_in_every_seat_equally_often():
    res = run(BB, bb.Config(players=3), "heuristic,random,random", 12, 1, workers=1, rotate=True)
    counts = res.table[res.table["bot"] == "heuristic"].groupby("seat").size()
    assert counts.tolist() == [4, 4, 4]
    fixed = run(BB, bb.Config(players=3), "heuristic,random,random", 6, 1, workers=1)
    assert set(fixed.table[fixed.table["bot"] == "heuristic"]["seat"]) == {0}


def test_leaders_and_lead_changes_follow_the_round_scores():
    res = run(BB, bb.Config(players=3), "random", 15, 6, workers=1)
    for g in res.records:
        rec = play(BB, bb.Config(players=3), "random", g.seed)
        totals = [0, 0, 0]
        for k, pts in enumerate(rec.round_scores[:-1]):
            totals = [a + b for a, b in zip(totals, pts)]
            best = max(totals)
            expect = totals.index(best) if totals.count(best) == 1 else None
            assert g.round_leaders[k] == expect
        # scores only change at round ends, so turn-by-turn lead changes are round-by-round ones
        leaders = [x for x in g.round_leaders if x is not None]
        final = [a + b for a, b in zip(totals, rec.round_scores[-1])]
        if final.count(max(final)) == 1:
            leaders.append(final.index(max(final)))
        assert g.lead_changes == sum(1 for a, b in zip(leaders, leaders[1:]) if a != b)


# --- intervals ----------------------------------------------------------------

def test_win_rate_and_mean_score_intervals_cover_a_known_rate_about_95_percent_of_the_time():
    """Coin game: seat 0 wins with p = 0.3 exactly. 250 seeded runs of 40 games:
    the 95% Wilson interval (and the mean-score interval) must cover 0.3 in
    roughly 95% of runs (not 60%, not 100%)."""
    runs, rate_hits, score_hits = 250, 0, 0
    for rep in range(runs):
        s = run(COIN, None, "random", 40, rep, workers=1).summary()
        row = s.seats.iloc[0]
        rate_hits += row.win_low <= 0.3 <= row.win_high
        score_hits += row.score_low <= 0.3 <= row.score_high
    assert 0.90 <= rate_hits / runs <= 0.99
    assert 0.88 <= score_hits / runs <= 0.99


def test_summary_rates_with_intervals_per_seat_and_per_bot():
    res = run(BB, bb.Config(players=3), "heuristic,random,random", 60, 2, workers=1)
    s = res.summary()
    assert len(s.seats) == 3 and abs(s.seats["win_rate"].sum() - 1) < 1e-9
    assert ((s.seats.win_low <= s.seats.win_rate) & (s.seats.win_rate <= s.seats.win_high)).all()
    assert ((s.seats.score_low <= s.seats.score) & (s.seats.score <= s.seats.score_high)).all()
    bots = s.bots.set_index("bot")
    assert bots.loc["random", "seats_per_game"] == 2 and bots.loc["heuristic", "seats_per_game"] == 1
    assert abs(bots.loc["heuristic", "win_rate"] - s.seats.iloc[0]["win_rate"]) < 1e-12
    text = str(s)
    assert "Player 1" in text and "95% CI" in text and "turns" in text
    assert set(s.length["measure"]) == {"rounds", "turns"}


def test_stats_extensions_match_exact_values():
    """chi2_sf closed forms; the binomial test past float range equals exact Fractions."""
    for x in (0.1, 1.0, 3.0, 10.0):
        assert math.isclose(chi2_sf(x, 2), math.exp(-x / 2), rel_tol=1e-12)
        assert math.isclose(chi2_sf(x, 1), math.erfc(math.sqrt(x / 2)), rel_tol=1e-12)
    for df, x95 in ((3, 7.814727903251178), (4, 9.487729036781154), (7, 14.067140449340169)):
        assert math.isclose(chi2_sf(x95, df), 0.05, rel_tol=1e-9)
    assert chi_square_uniform([25, 25, 25, 25]) == (0.0, 1.0)
    n, k = 1200, 330  # comb(1200, 600) does not fit a float: the log-space path
    pmf = [Fraction(math.comb(n, i) * 3 ** (n - i), 4**n) for i in range(n + 1)]
    exact = float(sum(q for q in pmf if q <= pmf[k]))
    assert math.isclose(binomial_two_sided_p(k, n, 0.25), exact, rel_tol=1e-9)
    assert binomial_two_sided_p(3, 10, 0.25) == pytest.approx(sum(
        float(Fraction(math.comb(10, i) * 3 ** (10 - i), 4**10)) for i in range(11)
        if Fraction(math.comb(10, i) * 3 ** (10 - i), 4**10) <= Fraction(math.comb(10, 3) * 3**7, 4**10)))
    r, lo, hi = ratio_ci([1, 2, 3, 4], [2, 4, 6, 8])
    assert r == 0.5 and lo == hi == 0.5  # a constant ratio has no uncertainty
    r, lo, hi = ratio_ci([1, 3, 2, 5], [4, 4, 5, 6])
    assert lo < r == 11 / 19 < hi


# --- checking input -----------------------------------------------------------

@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"games": 0}, "games must be a whole number"),
        ({"games": True}, "games must be a whole number"),
        ({"seed": -1}, "seed must be a whole number"),
        ({"bots": "genius"}, "unknown bot 'genius'"),
        ({"bots": "random,random"}, "need 4 bots"),
        ({"config": CoinConfig()}, "config must be a bucket-brigade Config"),
    ],
)
def test_bad_simulate_arguments_raise_clear_errors(kwargs, message):
    args = {"game": BB, "config": None, "bots": "random", "games": 5, "seed": 0}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        simulate(**args, progress=False, workers=1)


class NoWork(Executor):
    def submit(self, fn, *args, **kwargs):
        raise AssertionError("work started before the grid was checked")


def test_bad_sweep_grid_is_reported_whole_before_any_game():
    with pytest.raises(ValueError) as e:
        sweep(BB, None, {"bonus": [3, -1, "lots"], "wings": [2], "hand_sizes": [(15, 13)]}, "random", 5, 0, executor=NoWork())
    text = str(e.value)
    for part in ("bonus: 'lots' is not a whole number", "unknown parameter 'wings'", "hand_sizes: expected 3 values"):
        assert part in text
    with pytest.raises(ValueError) as e:
        sweep(BB, None, {"bonus": [3, -1, 200], "players": [3, 6]}, "random", 5, 0, executor=NoWork())
    text = str(e.value)
    assert text.startswith("5 of 6 sweep points are invalid")
    assert "[bonus=-1, players=3] bonus=-1 is not allowed" in text and "[bonus=200, players=3]" in text
    assert "[bonus=3, players=6] players=6 is not allowed" in text
    for grid in ({}, {"bonus": []}, {"bonus": 3}, {"bonus": "3,6"}, None):
        with pytest.raises(ValueError, match="grid|non-empty list"):
            sweep(BB, None, grid, "random", 5, 0, executor=NoWork())
    with pytest.raises(ValueError, match="need 3 bots"):  # the bots must fit every point's players
        sweep(BB, None, {"players": [3, 4]}, "random,random,random,random", 5, 0, executor=NoWork())


def test_sweep_points_are_the_simulations_of_each_config():
    """Each point uses the same seed (common random numbers) and equals a plain simulate."""
    table = sweep(BB, bb.Config(players=3), {"bonus": [0, 6], "track": ["0,-1,0,1,2", (0, 0, 1, 2, 3)]},
                  "heuristic", 12, 3, workers=1, progress=False)
    assert len(table) == 4 * 3 and table["point"].nunique() == 4
    assert set(table["track"]) == {"0,-1,0,1,2", "0,0,1,2,3"}
    row = table[(table.bonus == 6) & (table.track == "0,0,1,2,3") & (table.seat == 1)].iloc[0]
    single = run(BB, bb.Config(players=3, bonus=6, track=(0, 0, 1, 2, 3)), "heuristic", 12, 3, workers=1)
    seat = single.summary().seats.iloc[1]
    assert row.win_rate == seat.win_rate and row.score == seat.score and row.games == 12
    assert row.turns == single.games["turns"].mean()
    assert "mean_points_ender_bonus" in table.columns and not table.attrs["partial"]


def test_sweep_spreads_points_over_a_process_pool_with_the_same_result():
    grid = {"bonus": [0, 9]}
    local = sweep(BB, None, grid, "random", 10, 2, workers=1, progress=False)
    with ProcessPoolExecutor(2) as pool:
        pooled = sweep(BB, None, grid, "random", 10, 2, executor=pool, workers=2, progress=False)
    assert pooled.equals(local)


# --- interrupting -------------------------------------------------------------

def test_ctrl_c_in_process_returns_the_finished_games_marked_partial():
    calls = {"n": 0}

    def stops_on_call_400(obs, legal, rng):
        calls["n"] += 1
        if calls["n"] == 400:
            raise KeyboardInterrupt
        return random_bot(obs, legal, rng)

    res = run(BB, bb.Config(players=3), [stops_on_call_400, "random", "random"], 50, 7, workers=1)
    full = run(BB, bb.Config(players=3), "random", 50, 7, workers=1)
    assert res.partial and 0 < res.completed < 50
    assert list(res.games["game"]) == list(range(res.completed))
    assert res.table.drop(columns="bot").equals(full.table[full.table.game < res.completed].drop(columns="bot"))
    assert "interrupted" in res.describe() and "interrupted" in str(res.summary())


class InterruptedOnThirdChunk(Executor):
    """Runs chunks at once; the third one 'receives' Ctrl-C while we wait for it."""

    def __init__(self):
        self.calls = 0

    def submit(self, fn, *args, **kwargs):
        self.calls += 1
        fut = Future()
        if self.calls == 3:
            fut.set_exception(KeyboardInterrupt())
        else:
            fut.set_result(fn(*args, **kwargs))
        return fut


def test_ctrl_c_on_an_executor_keeps_every_finished_chunk():
    res = run(BB, None, "random", 40, 3, executor=InterruptedOnThirdChunk(), workers=4)
    full = run(BB, None, "random", 40, 3, workers=1)
    # every chunk but the third finished; as_completed may hand them out after the interrupted one
    from meeple.rules.sim.runner import chunks

    a, b = chunks(40, 4)[2]
    assert res.partial and res.completed == 40 - (b - a)
    kept = full.table[full.table.game.isin(res.games["game"])].reset_index(drop=True)
    assert res.table.equals(kept)


def test_a_real_sigint_while_waiting_for_worker_processes_returns_partial_results(monkeypatch):
    """SIGINT to the main thread mid-run: the pool is stopped, the finished chunks kept.

    Conditions, not timers, at any machine speed or load: each worker's first chunk comes back
    and every later one stalls for ever (STALL "chunk", rules/files.py), and the signal is sent
    when the first chunk is back. So the run is under way with chunks that would never finish:
    it can only come back by stopping them, and exactly the chunks already played are kept. (On a
    machine at load 12 a starved main thread once saw every chunk done before its first look, so
    nothing was left to interrupt.)"""
    import threading

    from meeple.rules.sim import runner
    from meeple.rules.sim.runner import chunks

    sent = []

    class Bar(runner.NoBar):
        def update(self, k=1):
            if not sent:
                sent.append(True)
                signal.raise_signal(signal.SIGINT)  # a real SIGINT, handled by Python's own handler

    monkeypatch.setattr(runner, "progress_bar", lambda total, desc, show: Bar())
    runner.drop_pool(wait=True, kill=True)  # the workers must be forked with the stall in their environment
    monkeypatch.setenv("MEEPLE_TEST_STALL", "chunk")
    # a run that waited for its stalled chunks would hang: after 10 minutes the watchdog ends the workers
    # (the run then fails below, as a broken pool, instead of never ending)
    watchdog = threading.Timer(600, lambda: runner.drop_pool(wait=False, kill=True))
    watchdog.start()
    try:
        res = run(BB, None, "heuristic", 5000, 1, workers=2)
    finally:
        watchdog.cancel()
        runner.drop_pool(wait=True, kill=True)  # no stalled worker is left for the next test
        monkeypatch.delenv("MEEPLE_TEST_STALL")
    sizes = [b - a for a, b in chunks(5000, 2)]
    assert res.partial and 0 < res.completed <= sizes[0] + sizes[1], res.completed  # only first chunks came back
    assert set(res.table["game"]) == set(res.games["game"])
    assert res.table["game"].is_monotonic_increasing


def test_a_bot_error_in_a_worker_is_raised_not_swallowed():
    with pytest.raises(ValueError, match="unknown bot"):
        run(BB, None, ["random", "random", "random", "random"], 4, 0, executor=_BadBotExecutor())


class _BadBotExecutor(Executor):
    def submit(self, fn, game, config, bots, *rest):
        fut = Future()
        try:
            fut.set_result(fn(game, config, ["genius"] * 4, *rest))
        except Exception as e:  # noqa: BLE001 - handed to the caller like a real executor
            fut.set_exception(e)
        return fut


def test_a_bot_that_cannot_reach_worker_processes_is_named_before_any_game():
    with pytest.raises(ValueError, match="bot '<lambda>' cannot be sent to worker processes"):
        run(BB, None, [lambda o, legal, rng: legal[0], "random", "random", "random"], 10, 0, workers=2)
    res = run(BB, None, [lambda o, legal, rng: legal[0], "random", "random", "random"], 3, 0, workers=1)
    assert res.completed == 3 and res.table["bot"][0] == "<lambda>"


def test_progress_bar_goes_to_stderr(capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # a terminal: the bar is drawn (not into a log file)
    res = simulate(BB, None, "random", 3, 0, progress=True, workers=1)
    assert res.completed == 3
    assert "game" in capsys.readouterr().err


def test_python_simulate_draws_no_bar_into_a_log_file(capsys):
    """stderr is not a terminal here (pytest captures it, as a log file would): no bar in it."""
    simulate(BB, None, "random", games=30, seed=1, workers=1)
    sweep(BB, None, {"bonus": [0, 3]}, "random", games=5, seed=1, workers=1)
    assert capsys.readouterr().err == ""


# --- balance ------------------------------------------------------------------

def test_head_to_head_in_python_shows_progress_by_default_and_can_be_quiet(capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # a terminal (a log file gets no bar: the test above)

    r = head_to_head(BB, GAMES[BB].Config(), "heuristic", "random", 4, seed=1)
    assert r["games"] == 4 and "heuristic vs random" in capsys.readouterr().err
    head_to_head(BB, GAMES[BB].Config(), "heuristic", "random", 4, seed=1, progress=False)
    assert capsys.readouterr().err == ""


def test_balance_report_carries_intervals_and_tests():
    rep = balance_report(BB, bb.Config(players=3), "heuristic,random,random", 90, 4, workers=1, progress=False)
    assert rep.games == 90 and len(rep.seats) == 3
    assert ((rep.seats.win_low <= rep.seats.win_rate) & (rep.seats.win_rate <= rep.seats.win_high)).all()
    t = rep.seat_test
    assert 0 <= t["first_seat_p"] <= 1 and 0 <= t["chi_square_p"] <= 1
    assert t["sole_winner_games"] + t["shared_win_games"] == 90
    assert list(rep.decisiveness["checkpoint"][:2]) == ["round 1", "round 2"]
    assert ((rep.decisiveness.low <= rep.decisiveness.leader_win_rate) | (rep.decisiveness.games == 0)).all()
    assert rep.lead_changes["low"] <= rep.lead_changes["mean"] <= rep.lead_changes["high"]
    assert set(rep.sources["source"]) == {"hand", "ender_bonus"}
    assert abs(rep.sources["share"].sum() - 1) < 1e-9
    assert rep.skill["strong"] == "heuristic" and rep.skill["weak"] == "random"
    assert rep.skill["skill_low"] <= rep.skill["skill"] <= rep.skill["skill_high"]
    text = str(rep)
    for part in ("Seat advantage", "binomial p", "Decisiveness", "Lead changes", "ender_bonus", "Skill vs luck"):
        assert part in text
    assert rep.to_dict()["skill"]["games"] == 90


@pytest.mark.parametrize("skill", [("heuristic", "heuristic"), (GAMES[BB].BOTS["heuristic"], "heuristic")])
def test_balance_refuses_a_skill_pair_that_names_one_bot_twice(skill):
    """Against copies of itself a bot wins the fair share by construction: no skill figure (it read
    every seat as the 'strong' bot's and said 100% wins, skill index 1.00)."""
    with pytest.raises(ValueError, match=r"^skill names the bot 'heuristic' twice: .* name two different bots"):
        balance_report(BB, None, "random", 10, 1, workers=1, progress=False, skill=skill)


def test_balance_skill_reads_the_strong_bots_seat_not_its_name():
    """Two bots of one name (two wrapped functions): the strong one's rotated seat is read, so the
    figure is the named pair's, game for game (it was every seat's: 100% wins)."""
    bots = GAMES[BB].BOTS

    def twin(f):
        def bot(*a, **k):
            return f(*a, **k)
        bot.__name__ = "twin"
        return bot

    named = balance_report(BB, None, "random", 40, 2, workers=1, progress=False, skill=("heuristic", "random")).skill
    twins = balance_report(BB, None, "random", 40, 2, workers=1, progress=False,
                           skill=(twin(bots["heuristic"]), twin(bots["random"]))).skill
    assert twins["win_rate"] == named["win_rate"] < 1 and twins["skill"] == named["skill"]
    assert twins["strong"] == twins["weak"] == "twin"  # names, as every other figure shows bots (not reprs)


def test_balance_refuses_a_skill_pair_it_would_not_use():
    """A lineup of two bots measures its own strongest against its weakest: a skill pair named as well
    was dropped without a word (API and CLI alike); now it is refused, and one bot still takes it."""
    lineup = ["heuristic", "random", "random", "random"]
    with pytest.raises(ValueError, match=r"is used only when the lineup has one bot"):
        balance_report(BB, None, lineup, 10, 1, workers=1, progress=False, skill=("heuristic", "random"))
    assert balance_report(BB, None, lineup, 10, 1, workers=1, progress=False).skill["strong"] in lineup
    assert balance_report(BB, None, "random", 10, 1, workers=1, progress=False,
                          skill=("heuristic", "random")).skill["weak"] == "random"


def test_balance_finds_a_first_seat_advantage_when_there_is_one():
    """Coin game at 7 in 10 for seat 0: the binomial test must flag it; at 5 in 10 it must not."""
    biased = balance_report(COIN, CoinConfig(heads_in_ten=7), "random", 400, 1, workers=1, progress=False, skill=())
    assert biased.seat_test["first_seat_p"] < 1e-6 and biased.seats.iloc[0].win_low > 0.5
    fair = balance_report(COIN, CoinConfig(heads_in_ten=5), "random", 400, 1, workers=1, progress=False, skill=())
    assert fair.seat_test["first_seat_p"] > 0.01 and fair.skill == {}
    assert "no score_sources hook" in str(fair)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_registered_game_simulates_through_the_protocol(name):
    res = run(name, None, "random", 4, 0, workers=1)
    assert res.completed == 4 and len(res.table) == 4 * GAMES[name].Config().players
    assert str(res.summary())


def test_importing_the_simulation_modules_needs_no_pandas():
    """meeple.rules stays importable with the standard library: pandas/tqdm load on use."""
    import subprocess

    code = "import sys, meeple.rules.sim, meeple.rules.exact, meeple.rules.cli.sim; " \
           "print(sorted(m for m in ('pandas', 'tqdm', 'numpy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_summary_shows_the_games_own_figures_with_intervals_over_games():
    """game_stats / score_sources columns reach the summary: one row each, a mean with a
    95% CI computed over games (a game's seats are averaged first: they are not independent)."""
    from meeple.rules.stats import mean_ci

    res = simulate("bucket-brigade", None, "heuristic", 60, 4, workers=1, progress=False)
    summary = res.summary()
    cols = summary.columns.set_index("column")
    assert {"rounds_ended", "points_hand", "points_ender_bonus"} <= set(cols.index)
    per_game = res.table.groupby("game")["points_ender_bonus"].mean().tolist()
    assert tuple(cols.loc["points_ender_bonus", ["mean", "low", "high"]]) == pytest.approx(mean_ci(per_game))
    assert "The game's own figures" in str(summary) and "points_ender_bonus" in str(summary)


def test_sweep_refuses_a_value_given_twice():
    """A repeated grid value would be played twice and drawn as two points of one value."""
    with pytest.raises(ValueError, match=r"bonus: each value once, got 1 more than once"):
        sweep("bucket-brigade", None, {"bonus": [1, 1, 2]}, "random", games=4, seed=1, progress=False)


def test_a_users_bot_that_chooses_an_illegal_action_is_stopped_with_its_name():
    """simulate trusts the package's own bots (the stored records check them move by move)
    and checks every move of a bot it does not know."""
    def cheat(obs, legal, rng):
        return "take everything"

    with pytest.raises(ValueError, match="bot 'cheat' chose 'take everything', which is not legal here"):
        simulate("duck-duck-bruce", None, [cheat, "random", "random", "random"], 3, 1, workers=1, progress=False)


def test_the_engine_hook_plays_a_game_modules_own_loop_and_falls_back_on_none():
    """play_game hands a game to `mod.play_core` when the module has one (its own loop on its core):
    what it returns is the game; None leaves the game to simulate's loop, with the same result."""
    from meeple.rules import sim
    from meeple.rules.core import resolve_bots

    mod = GAMES["piggyback-brigade"]
    names, funcs = resolve_bots(mod, "heuristic", mod.Config().players)
    plain = sim.play_game(mod, mod.Config(), names, funcs, 7, 3)
    calls = []

    def declines(config, chance, seat_funcs, rngs, checked, seat_names, leader):
        calls.append(chance.seed)
        return None

    def own_loop(config, chance, seat_funcs, rngs, checked, seat_names, leader):
        # the protocol's own moves, as a core would play them, with one turn fewer seen
        leaders = []
        state = mod.new_game(config, chance.seed, chance=chance, turn_end=lambda st: leaders.append(leader(mod.progress(st))))
        actions = 0
        while not state.is_over:
            p = state.current_player
            state = mod.apply(state, seat_funcs[p](mod.observation(state, p), mod.legal_actions(state), rngs[p]))
            actions += 1
        return state, leaders[1:], actions

    for hook, turns in ((declines, plain.turns), (own_loop, plain.turns - 1)):
        fake = types.ModuleType(mod.__name__)
        fake.__dict__.update({k: v for k, v in vars(mod).items() if not k.startswith("__")}, play_core=hook)
        got = sim.play_game(fake, mod.Config(), names, funcs, 7, 3)
        assert (got.scores, got.actions, got.seed, got.turns) == (plain.scores, plain.actions, plain.seed, turns)
    assert calls == [plain.seed]


def _without_core(mod):
    """The game module as simulate's own loop sees it: without play_core."""
    plain = types.ModuleType(mod.__name__)
    plain.__dict__.update({k: v for k, v in vars(mod).items() if not k.startswith("__") and k != "play_core"})
    return plain


CORE_CASES = [(name, preset) for name, mod in GAMES.items() if hasattr(mod, "play_core") for preset in mod.Config.presets()]


@pytest.mark.parametrize("name,preset", CORE_CASES, ids=[f"{n}-{p}" for n, p in CORE_CASES])
def test_a_games_core_loop_gives_exactly_the_results_of_simulates_loop(name, preset):
    """The engine hook's contract: a game's play_core gives the same GameResult, field by field, as
    new_game + legal_actions + bot + step, for random, heuristic and mixed line-ups, rotated or not;
    a line-up with any other bot is left to simulate's loop."""
    from meeple.rules import sim
    from meeple.rules.core import resolve_bots
    from meeple.rules.sim.play import _leader

    mod = GAMES[name]
    cfg = mod.Config.presets()[preset]
    n = cfg.players
    for lineup in ("random", "heuristic", ["heuristic", "random"] * n):
        names, funcs = resolve_bots(mod, lineup if isinstance(lineup, str) else lineup[:n], n)
        for i in range(12):
            rotate = i % 2 == 1
            assert sim.play_game(mod, cfg, names, funcs, 11, i, rotate) == \
                sim.play_game(_without_core(mod), cfg, names, funcs, 11, i, rotate), (lineup, i)
    names, funcs = resolve_bots(mod, "lookahead", n)
    assert mod.play_core(cfg, start(5), funcs, [None] * n, [False] * n, names, _leader) is None


def test_a_stat_column_is_a_value_per_seat_or_one_for_every_seat():
    """make_tables' stat columns (results._per_seat, one extend a game): the same cells as reading
    v[s] for a list or tuple and v itself otherwise, a short list failing as it did (issue 35)."""
    values = [[1, 2, 3], (4, 5, 6), 7, None, 0.5, [8, 9, 10, 11], "x"]
    assert _per_seat(values, 3) == [v[s] if isinstance(v, (list, tuple)) else v for v in values for s in range(3)]
    assert _per_seat([], 3) == []
    with pytest.raises(IndexError):
        _per_seat([[1, 2]], 3)


def test_round_leaders_count_a_head_start():
    cfg = bb.Config(players=3, seat_points=(0, 0, 40))  # far ahead from the start: leads after every round
    res = run(BB, cfg, "random", 6, 2, workers=1)
    assert all(len(g.round_leaders) >= 1 for g in res.records)
    for g in res.records:
        rec = play(BB, cfg, "random", g.seed)
        totals = [0, 0, 40]
        for k, pts in enumerate(rec.round_scores[:-1]):
            totals = [a + b for a, b in zip(totals, pts)]
            best = max(totals)
            assert g.round_leaders[k] == (totals.index(best) if totals.count(best) == 1 else None)
