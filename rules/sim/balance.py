"""Is a game fair, long enough, decisive, and how much does skill matter: `balance_report`;
and the one bot-against-the-field measurement, `head_to_head` (what `meeple duel` prints).
"""

from __future__ import annotations

import dataclasses
import math
from concurrent.futures import Executor
from typing import Any

from ..chance import check_seed, derive
from ..core import play
from ..protocol import check_whole
from ..registry import game_module
from ..stats import binomial_two_sided_p, chi_square_uniform, mean_ci, ratio_ci, wilson
from .play import CHECKPOINTS
from .results import load_pandas, rate_row
from .runner import bot_refs, check_games, progress_bar, setup
from .sweep import simulate
from .text import Shown, ci_pct, fmt_table, length_lines, num, pct, seat_name


@dataclasses.dataclass(repr=False)
class BalanceReport(Shown):
    """Is the game fair to every seat, how long and how decisive is it, where
    do points come from, and how much does skill matter. Every rate carries
    a 95% interval; tests give p-values."""

    heading: str
    players: int
    games: int
    seats: Any  # DataFrame: seat, win_rate, win_low, win_high, fair, sole_wins
    seat_test: dict  # first-seat binomial test + chi-square over all seats (sole winners only)
    length: Any  # DataFrame (as Summary.length)
    decisiveness: Any  # DataFrame: checkpoint, games, leader_win_rate, low, high, fair
    lead_changes: dict  # mean, low, high, share_none, share_none_low, share_none_high
    sources: Any  # DataFrame: source, mean_points, low, high, share, share_low, share_high (or None)
    skill: dict  # strong, weak, games, win_rate, low, high, fair, skill, skill_low, skill_high
    partial: bool = False

    def to_dict(self) -> dict:
        def frame(df):
            return None if df is None else df.to_dict(orient="records")

        return {
            "heading": self.heading, "players": self.players, "games": self.games, "partial": self.partial,
            "seats": frame(self.seats), "seat_test": self.seat_test, "length": frame(self.length),
            "decisiveness": frame(self.decisiveness), "lead_changes": self.lead_changes,
            "sources": frame(self.sources), "skill": self.skill,
        }

    def lines(self) -> list[str]:
        """The report as text lines (its tables as fmt_table's): what str() joins and the HTML shows."""
        out = [self.heading]
        if not self.games:
            return out + ["No game finished."]
        fair = 1 / self.players
        out.append(f"Seat advantage (bots rotated through the seats; fair share {pct(fair)}):")
        out.append(
            fmt_table(
                ["seat", "win rate", "95% CI"],
                [[seat_name(int(r.seat)), pct(r.win_rate), ci_pct(r.win_low, r.win_high)] for r in self.seats.itertuples()],
            )
        )
        t = self.seat_test
        out.append(
            f"  First seat vs fair share: {t['first_seat_sole_wins']} sole wins in {t['sole_winner_games']} games "
            f"with one winner, exact binomial p = {t['first_seat_p']:.3g}; all seats equal: chi-square "
            f"{t['chi_square']:.2f} (df {self.players - 1}), p = {t['chi_square_p']:.3g}."
        )
        out += length_lines(self.length)
        out.append(f"Decisiveness: how often the sole leader at a point goes on to win (chance alone: {pct(fair)}):")
        out.append(
            fmt_table(
                ["leader after", "games", "leader wins", "95% CI"],
                [[r.checkpoint, str(r.games), pct(r.leader_win_rate) if r.games else "n/a",
                  ci_pct(r.low, r.high) if r.games else "n/a"] for r in self.decisiveness.itertuples()],
            )
        )
        lc = self.lead_changes
        out.append(
            f"Lead changes per game (turn by turn): {num(lc['mean'])} (95% CI {num(lc['low'])} to {num(lc['high'])}); "
            f"no change at all in {pct(lc['share_none'])} of games ({ci_pct(lc['share_none_low'], lc['share_none_high'])})."
        )
        if self.sources is not None and len(self.sources):
            out.append("Where the points come from (per player per game, and share of all points; 95% CIs):")
            out.append(
                fmt_table(
                    ["source", "points", "95% CI", "share", "95% CI"],
                    [[r.source, num(r.mean_points), f"{num(r.low)} to {num(r.high)}", pct(r.share),
                      ci_pct(r.share_low, r.share_high)] for r in self.sources.itertuples()],
                )
            )
        else:
            out.append("Where the points come from: this game module has no score_sources hook.")
        s = self.skill
        if s:
            out.append(
                f"Skill vs luck: {s['strong']} in one seat against {s['weak']} in the others, seats rotated, "
                f"{s['games']} games: wins {pct(s['win_rate'])} (95% CI {ci_pct(s['low'], s['high'])}; fair share "
                f"{pct(s['fair'])}). Skill index {num(s['skill'])} (95% CI {num(s['skill_low'])} to "
                f"{num(s['skill_high'])}; 0 = pure luck, 1 = the stronger bot always wins)."
            )
        return out


# The keyword list simulate, sweep, compare and balance_report share is written out in each on
# purpose: a public signature help() and an editor show (a **kwargs pass-through would hide it).
def balance_report(
    game,
    config=None,
    bots="random",
    games: int = 1000,
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool = True,
    *,
    workers: int | None = None,
    skill: tuple[str, str] | None = None,
) -> BalanceReport:
    """Seat advantage, length, decisiveness, lead changes, scoring sources and
    skill vs luck, each with its uncertainty.

    The main run rotates `bots` through the seats (each bot holds each seat
    equally often), so a seat difference is the seat's, not a bot's. Skill vs
    luck: the strongest bot of the lineup (highest win rate in the main run)
    in one seat against the weakest in all others, seats rotated, `games`
    more games; with one bot in the lineup, `skill` (default
    ("heuristic", "random")) names the pair. `skill=()` skips it.
    """
    pd = load_pandas()
    mod, config, refs = setup(game, config, bots)
    games = check_games(games)
    seed = check_seed(seed)
    n = config.players
    if skill is None:
        skill = ("heuristic", "random")
    if skill:
        if len(skill) != 2:
            raise ValueError(f"skill must name two bots (strong, weak), got {skill!r}")
        for b in skill:
            bot_refs(mod, [b], n)  # names checked before any game is played
    res = simulate(mod, config, refs, games, seed, executor, progress, workers=workers, rotate=True)
    summary = res.summary()
    t, g = res.table, res.games

    fair = 1 / n
    seats = summary.seats[["seat", "win_rate", "win_low", "win_high"]].copy()
    seats["fair"] = fair
    sole = g[g["winners"].map(len) == 1]
    sole_counts = [int((sole["winners"].map(lambda w: w[0]) == s).sum()) for s in range(n)]
    seats["sole_wins"] = sole_counts
    chi, chi_p = chi_square_uniform(sole_counts)
    seat_test = {
        "sole_winner_games": len(sole),
        "first_seat_sole_wins": sole_counts[0] if sole_counts else 0,
        "first_seat_p": binomial_two_sided_p(sole_counts[0], len(sole), fair) if len(sole) else 1.0,
        "chi_square": chi,
        "chi_square_p": chi_p,
        "shared_win_games": int(res.completed - len(sole)),
    }

    dec_rows = []
    share_of = {}  # (game, seat) -> win share
    for r in t[["game", "seat", "win_share"]].itertuples(index=False):
        share_of[(r.game, r.seat)] = r.win_share
    checkpoints = [c for c in g.columns if c.startswith("leader_after_round_")] + [f"leader_at_{p}pct" for p in CHECKPOINTS]
    for col in checkpoints:
        led = g[["game", col]].dropna()
        wins = [share_of[(int(a), int(b))] for a, b in zip(led["game"], led[col])]
        lo, hi = wilson(sum(wins), len(wins))
        label = (
            f"round {col.rsplit('_', 1)[1]}" if col.startswith("leader_after_round_")
            else f"{col.split('_')[2][:-3]}% of turns"
        )
        dec_rows.append([label, len(wins), sum(wins) / len(wins) if wins else math.nan, lo, hi, fair])
    decisiveness = pd.DataFrame(dec_rows, columns=["checkpoint", "games", "leader_win_rate", "low", "high", "fair"])

    m, lo, hi = mean_ci(g["lead_changes"].tolist()) if len(g) else (math.nan,) * 3
    still = int((g["lead_changes"] == 0).sum())
    none_lo, none_hi = wilson(still, len(g))
    lead = {
        "mean": m, "low": lo, "high": hi, "share_none": still / len(g) if len(g) else math.nan,
        "share_none_low": none_lo, "share_none_high": none_hi,
    }

    sources = None
    point_cols = [c for c in t.columns if c.startswith("points_")]
    if point_cols and len(t):
        per_game = t.groupby("game")[point_cols + ["score"]].sum()
        rows = []
        for c in point_cols:
            pm, plo, phi = mean_ci((per_game[c] / n).tolist())  # games are the independent units
            sh, slo, shi = ratio_ci(per_game[c].tolist(), per_game["score"].tolist())
            rows.append([c[len("points_"):], pm, plo, phi, sh, slo, shi])
        sources = pd.DataFrame(rows, columns=["source", "mean_points", "low", "high", "share", "share_low", "share_high"])

    skill_out = {}
    if skill and res.completed:
        distinct = list(dict.fromkeys(res.bots))
        if len(distinct) >= 2:
            ranked = summary.bots.sort_values("win_rate", ascending=False)
            strong, weak = ranked["bot"].iloc[0], ranked["bot"].iloc[-1]
        else:
            strong, weak = skill
        lineup = [strong] + [weak] * (n - 1)
        h2h = simulate(mod, config, lineup, games, derive(seed, "skill"), executor, progress, workers=workers, rotate=True)
        if h2h.completed:
            per_game = h2h.table[h2h.table["bot"] == strong].groupby("game")["win_share"].sum().tolist()
            share = field_share(per_game, n)
            rate, (lo, hi) = share["win_share"], share["ci95"]
            scale = 1 - fair
            skill_out = {
                "strong": strong, "weak": weak, "games": h2h.completed, "win_rate": rate, "low": lo, "high": hi,
                "fair": fair, "skill": (rate - fair) / scale, "skill_low": (lo - fair) / scale,
                "skill_high": (hi - fair) / scale,
            }
        res.partial = res.partial or h2h.partial
    heading = res.describe()
    return BalanceReport(heading, n, res.completed, seats, seat_test, summary.length, decisiveness, lead, sources,
                         skill_out, res.partial)


__all__ = ["BalanceReport", "balance_report", "head_to_head", "field_share"]


# --- one bot against the field ----------------------------------------------------

def field_share(shares, players: int) -> dict:
    """The bot-against-the-field measurement: a bot's win share per game (1/k of a k-way
    shared win, its seat moving round the table game by game), as its mean with a 95%
    Wilson interval and the fair share 1/players it should beat. `head_to_head` (`meeple
    duel`) and the skill figure of `balance_report` both report it."""
    rate, low, high = rate_row(list(shares))
    return {"games": len(shares), "win_share": rate, "ci95": (low, high), "fair_share": 1.0 / players}


def head_to_head(game, config, bot: str, others: str, games: int, seed: int, progress: bool = True) -> dict:
    """Win share of one `bot` against `others` in every other seat (`field_share`).

    The tested bot sits in each seat equally often (game g puts it in seat
    g mod players, as `simulate(..., rotate=True)` seats the first bot), so seat
    advantage cannot pass for skill. Game g is `play(game, config, lineup,
    derive(seed, "h2h", g))`: the seeds the bot audits in seeds/<game>.md were
    measured with. `progress` shows a bar (tqdm); Ctrl-C stops early and returns
    the games that finished (`games` says how many).
    """
    check_whole(games, "games", 1)
    mod = game_module(game)
    n = config.players
    shares: list[float] = []
    bar = progress_bar(games, f"{mod.TITLE}: {bot} vs {others}", progress)
    try:
        for g in range(games):
            seat = g % n
            lineup = [others] * n
            lineup[seat] = bot
            rec = play(mod, config, lineup, derive(seed, "h2h", g))
            shares.append(1.0 / len(rec.winners) if seat in rec.winners else 0.0)
            bar.update(1)
    except KeyboardInterrupt:
        pass  # keep the finished games; the caller sees games < asked
    finally:
        bar.close()
    return {"bot": bot, "others": others, **field_share(shares, n)}
