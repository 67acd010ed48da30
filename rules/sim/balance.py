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
from .text import Shown, ci_num, ci_pct, fmt_table, length_lines, num, pct, seat_name


MIN_ROW_GAMES = 10  # a decisiveness row with fewer games (with a sole leader there) shows no rate
MAX_ROUND_ROWS = 8  # rounds shown one row each only when the median game has at most this many


def compact_checkpoints(decisiveness, length):
    """(the rows to print, a note on those left out): the 25/50/75%-of-turns rows always; one row per
    round only when the median game has at most MAX_ROUND_ROWS rounds, and then only the rounds
    at least MIN_ROW_GAMES games reached with a sole leader. The full table stays in `decisiveness`."""
    turns = decisiveness[~decisiveness["checkpoint"].str.startswith("round ")]
    rounds = decisiveness[decisiveness["checkpoint"].str.startswith("round ")]
    med = length[length["measure"] == "rounds"]["median"]
    many = len(med) and float(med.iloc[0]) > MAX_ROUND_ROWS
    kept = rounds.iloc[0:0] if many else rounds[rounds["games"] >= MIN_ROW_GAMES]
    note = ""
    if many and len(rounds):
        note = (f"Per round: left out ({len(rounds)} rounds; the median game has {float(med.iloc[0]):g}); the "
                "shares of turns above say it per stage of the game (every round: BalanceReport.decisiveness, --out).")
    elif len(rounds) > len(kept):
        note = (f"{len(rounds) - len(kept)} later rounds left out: fewer than {MIN_ROW_GAMES} games had a sole "
                "leader there (BalanceReport.decisiveness keeps every round).")
    # a share of the turns that falls on a round's end reads the same games: one row, both names
    kept, turns = kept.copy(), turns.copy()
    for i, r in turns.iterrows():
        same = kept[(kept["games"] == r["games"]) & (kept["leader_win_rate"] == r["leader_win_rate"])]
        if len(same) and r["games"]:
            kept.loc[same.index[0], "checkpoint"] += f" = {r['checkpoint']}"
            turns = turns.drop(index=i)
    return load_pandas().concat([kept, turns]), note


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
    measures: Any = None  # DataFrame (as Summary.measures): the chosen measures, design ones included

    def to_dict(self) -> dict:
        def frame(df):
            return None if df is None else df.to_dict(orient="records")

        return {
            "heading": self.heading, "players": self.players, "games": self.games, "partial": self.partial,
            "seats": frame(self.seats), "seat_test": self.seat_test, "length": frame(self.length),
            "decisiveness": frame(self.decisiveness), "lead_changes": self.lead_changes,
            "sources": frame(self.sources), "skill": self.skill, "measures": frame(self.measures),
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
        shown, left = compact_checkpoints(self.decisiveness, self.length)
        out.append(f"Decisiveness: how often the sole leader at a point goes on to win (chance alone: {pct(fair)}; "
                   "games with a sole leader there):")
        out.append(
            fmt_table(
                ["leader after", "games", "leader wins", "95% CI"],
                [[r.checkpoint, str(r.games), pct(r.leader_win_rate), ci_pct(r.low, r.high)]
                 if r.games >= MIN_ROW_GAMES else [r.checkpoint, str(r.games), "too few games", ""]
                 for r in shown.itertuples()],
            )
        )
        if left:
            out.append(f"  {left}")
        lc = self.lead_changes
        out.append(
            f"Lead changes per game (turn by turn): {num(lc['mean'])} (95% CI {ci_num(lc['low'], lc['high'])}); "
            f"no change at all in {pct(lc['share_none'])} of games ({ci_pct(lc['share_none_low'], lc['share_none_high'])})."
        )
        if self.sources is not None and len(self.sources):
            mixed = self.sources["share"].isna().all()
            if mixed:  # shares of a net total that sources add to and take from are not shares
                gives = ", ".join(r.source for r in self.sources.itertuples() if r.mean_points > 0)
                takes = ", ".join(r.source for r in self.sources.itertuples() if r.mean_points < 0)
                out.append(f"Where the points come from (per player per game, 95% CIs). No shares: the sources mix "
                           f"signs (points from {gives}; taken away by {takes}), so a source's share of the net "
                           "total could pass 100% or fall below 0 and would mean nothing:")
                out.append(fmt_table(["source", "points", "95% CI"],
                                     [[r.source, num(r.mean_points), f"{ci_num(r.low, r.high)}"]
                                      for r in self.sources.itertuples()]))
            else:
                out.append("Where the points come from (per player per game, and share of all points; 95% CIs):")
                out.append(
                    fmt_table(
                        ["source", "points", "95% CI", "share", "95% CI"],
                        [[r.source, num(r.mean_points), f"{ci_num(r.low, r.high)}", pct(r.share),
                          ci_pct(r.share_low, r.share_high)] for r in self.sources.itertuples()],
                    )
                )
        else:
            out.append("Where the points come from: this game module has no score_sources hook.")
        if self.measures is not None and len(self.measures):
            out.append("Chosen measures (mean with 95% CI; 'all': per game):")
            out.append(fmt_table(["measure", "seat", "mean", "95% CI"],
                                 [[r.measure.removeprefix("mean_"), "all" if load_pandas().isna(r.seat)
                                   else seat_name(int(r.seat)), num(r.mean),
                                   f"{ci_num(r.low, r.high)}"] for r in self.measures.itertuples()]))
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
    measures=None,
) -> BalanceReport:
    """Seat advantage, length, decisiveness, lead changes, scoring sources and
    skill vs luck, each with its uncertainty.

    The main run rotates `bots` through the seats (each bot holds each seat
    equally often), so a seat difference is the seat's, not a bot's. Skill vs
    luck: the strongest bot of the lineup (highest win rate in the main run)
    in one seat against the weakest in all others, seats rotated, `games`
    more games; with one bot in the lineup, `skill` (default
    ("heuristic", "random")) names the pair: two different bots (one bot
    twice is refused: against copies of itself it wins the fair share by
    construction). `skill=()` skips it.
    `measures`: names from `measures(game)` to add with their 95% intervals
    (design measures such as "drama" are played only when named here).
    """
    pd = load_pandas()
    mod, config, refs = setup(game, config, bots)
    games = check_games(games)
    seed = check_seed(seed)
    n = config.players
    if skill and len({r if isinstance(r, str) else id(r) for r in refs}) > 1:
        # a lineup of two or more bots measures its own strongest against its weakest (below): a pair named
        # as well would be dropped without a word, so it is refused instead
        raise ValueError(f"skill={skill!r} is used only when the lineup has one bot; this lineup has several "
                         "(its strongest and weakest bots are the pair): leave skill out, or give one bot")
    if skill is None:
        skill = ("heuristic", "random")
    if skill:
        if len(skill) != 2:
            raise ValueError(f"skill must name two bots (strong, weak), got {skill!r}")
        pair = tuple(bot_refs(mod, [b], n)[0] for b in skill)  # names checked before any game is played
        # A judgement call: the same bot twice is refused, not measured. Against copies of itself a bot
        # wins the fair share by construction (skill index 0 whatever the game), so the figure would say
        # nothing about skill vs luck; `meeple balance --skill X,X` refuses it the same way.
        if pair[0] == pair[1]:
            raise ValueError(same_bot_twice("skill", pair[0], "('heuristic', 'random')"))
    res = simulate(mod, config, refs, games, seed, executor, progress, workers=workers, rotate=True, measures=measures)
    summary = res.summary()
    chosen = res.summary(measures).measures if measures else None
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
        totals = [per_game[c].sum() for c in point_cols]
        if any(x > 0 for x in totals) and any(x < 0 for x in totals):  # mixed signs: no share means anything
            sources[["share", "share_low", "share_high"]] = math.nan

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
            # The strong bot's rows by seat, not by name (two bots may share a name, e.g. two lambdas):
            # rotated, game g seats lineup[0] in seat g mod n (play.py's _seating).
            h = h2h.table
            per_game = h[h["seat"] == h["game"] % n].groupby("game")["win_share"].sum().tolist()
            share = field_share(per_game, n)
            rate, (lo, hi) = share["win_share"], share["ci95"]
            scale = 1 - fair
            skill_out = {  # bots by name (a callable's own name), as every other figure shows them
                "strong": _bot_name(strong), "weak": _bot_name(weak), "games": h2h.completed, "win_rate": rate, "low": lo, "high": hi,
                "fair": fair, "skill": (rate - fair) / scale, "skill_low": (lo - fair) / scale,
                "skill_high": (hi - fair) / scale,
            }
        res.partial = res.partial or h2h.partial
    heading = res.describe()
    return BalanceReport(heading, n, res.completed, seats, seat_test, summary.length, decisiveness, lead, sources,
                         skill_out, res.partial, chosen)


__all__ = ["BalanceReport", "balance_report", "head_to_head", "field_share"]


def _bot_name(bot) -> str:
    return bot if isinstance(bot, str) else getattr(bot, "__name__", type(bot).__name__)


def same_bot_twice(option: str, bot, example: str) -> str:
    """The one-line refusal of a skill pair that names one bot twice (balance_report's `skill`,
    `meeple balance --skill`)."""
    name = bot if isinstance(bot, str) else getattr(bot, "__name__", repr(bot))
    return (f"{option} names the bot {name!r} twice: a bot against copies of itself wins the fair share by "
            f"construction (skill index 0), which says nothing about skill vs luck; name two different bots, "
            f"strong then weak, e.g. {example}")


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
