"""Running totals: a run's summary without its games (`simulate(..., keep="summary")`).

A `RunningTotals` folds each game into histograms as it finishes (memory flat in the number of
games); tallies of chunks played apart add up in any order. `Totals` is what such a run
returns: its `summary()` has the very numbers of the full `Results.summary()`, bit for bit.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Sequence

from ..stats import Z95, wilson
from .design import DESIGN
from .play import GameResult
from .results import PER_GAME, RunInfo, Summary, load_pandas, measure_name


def _gather(columns: dict, name: str, seen, values: list, sourced: int) -> None:
    """Add one game's row of a column to `columns` (name -> [first seen, rows, sourced games])."""
    col = columns.get(name)
    if col is None:
        columns[name] = [seen, [values], sourced]
    else:
        if seen < col[0]:
            col[0] = seen
        col[1].append(values)
        col[2] += sourced


def _kahan(values) -> float:
    """A sum as pandas' groupby sum and mean make it (Kahan, in row order): the summary-only
    path's per-game figures are then the very floats the table's groupby gives."""
    total = comp = 0.0
    for v in values:
        y = v - comp
        t = total + y
        comp = t - total - y
        total = t
    return total


def _exact_sum(hist) -> float:
    """math.fsum of the values a histogram {value: count} stands for (both round the exact sum once)."""
    return float(sum(Fraction(v) * c for v, c in hist.items()))


def _hist_mean_ci(hist) -> tuple[float, float, float]:
    """stats.mean_ci of the values a histogram {value: count} stands for, bit for bit."""
    n = sum(hist.values())
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = _exact_sum(hist) / n
    if n == 1:
        return (m, -math.inf, math.inf)
    var = float(sum(Fraction((v - m) ** 2) * c for v, c in hist.items())) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return (m, m - half, m + half)


def _hist_rate(hist) -> tuple[float, float, float]:
    """rate_row of the per-game shares a histogram stands for."""
    n = sum(hist.values())
    if n == 0:
        return (math.nan, 0.0, 1.0)
    total = _exact_sum(hist)
    lo, hi = wilson(total, n)
    return (total / n, lo, hi)


def _hist_quantiles(hist, qs=(0.1, 0.5, 0.9)) -> list[float]:
    """pandas' Series.quantile(qs) (numpy's linear method) of the values a histogram stands for."""
    values = sorted(hist)
    n = sum(hist.values())

    def nth(i: int):
        for v in values:
            i -= hist[v]
            if i < 0:
                return v
        raise IndexError(i)

    out = []
    for q in qs:
        at = (n - 1) * q
        if at >= n - 1:
            out.append(float(nth(n - 1)))
            continue
        lo = math.floor(at)
        t = at - lo
        a, b = nth(lo), nth(lo + 1)
        d = b - a
        out.append(float(b - d * (1 - t) if t >= 0.5 else a + d * t))
    return out


class RunningTotals:
    """Running totals of a run's games: every number `Summary` shows, in memory that
    stays flat in the number of games (issue 11). Each figure is kept as a histogram
    {value: games} (scores, turns and the games' own counts are small whole numbers,
    win shares a few fractions), so the intervals and quantiles computed from it are
    bit for bit those of the full table (an exact sum rounded once, as math.fsum does).
    Tallies of chunks played apart add up (`extend`) to the tally of the whole run,
    in whatever order the chunks come."""

    def __init__(self, players: int):
        self.players = players
        self.games = 0
        self.seat_share = [Counter() for _ in range(players)]  # win_share per seat
        self.seat_score = [Counter() for _ in range(players)]
        self.seat_bots = [{} for _ in range(players)]  # bot -> first game (index) it sat there
        self.bot_first: dict[str, tuple[int, int]] = {}  # bot -> (first game, its seats in that game)
        self.bot_share: dict[str, Counter] = {}  # per game: the bot's win shares / its seats
        self.bot_score: dict[str, Counter] = {}  # per game: the mean score of its seats
        self.per_game = {"rounds": Counter(), "turns": Counter(), "lead_changes": Counter()}
        # the game's own columns: name -> [first seen (game, position), numeric so far, any value,
        # per-game mean over seats, per-seat values]
        self.cols: dict[str, list] = {}
        self.first: tuple[int, frozenset] | None = None  # lowest game index, its stats that are per seat
        self.sourced = 0  # games with score_sources; a points_ column absent from some of them is 0 there
        self._batch: list[GameResult] = []  # appended, not yet folded in (see _fold)

    def __len__(self) -> int:
        return self.games + len(self._batch)

    FOLD_EVERY = 256  # games held before they are folded in: a batch counts in C (Counter.update)

    def append(self, g: GameResult) -> None:
        """Fold one game in (it is not kept: games wait in a batch of at most FOLD_EVERY)."""
        self._batch.append(g)
        if len(self._batch) >= self.FOLD_EVERY:
            self._fold()

    def _fold(self) -> None:
        """Count the waiting games into the histograms (a batch at a time: the same
        histograms as one game at a time, in a fraction of the time)."""
        batch = self._batch
        if not batch:
            return
        self._batch = []
        n = self.players
        self.games += len(batch)
        shares = []  # per game, each seat's win share
        for g in batch:
            w = g.winners
            share = 1.0 / len(w) if w else 0.0
            shares.append([share if s in w else 0.0 for s in range(n)])
        for s in range(n):
            self.seat_share[s].update([row[s] for row in shares])
            self.seat_score[s].update([g.scores[s] for g in batch])
        lineups: dict[tuple, list[int]] = {}  # seat order of bots -> the batch's games with it
        for k, g in enumerate(batch):
            lineups.setdefault(g.bots, []).append(k)
        for bots, games in lineups.items():
            first = min(batch[k].index for k in games)
            by_bot: dict[str, list[int]] = {}
            for s, b in enumerate(bots):
                if first < self.seat_bots[s].get(b, math.inf):
                    self.seat_bots[s][b] = first
                by_bot.setdefault(b, []).append(s)
            for b, seats in by_bot.items():
                k = len(seats)
                if first < self.bot_first.get(b, (math.inf, 0))[0]:
                    self.bot_first[b] = (first, k)
                share_h = self.bot_share.setdefault(b, Counter())
                score_h = self.bot_score.setdefault(b, Counter())
                if k == 1:
                    (s,) = seats
                    share_h.update([shares[i][s] for i in games])
                    score_h.update([float(batch[i].scores[s]) for i in games])
                else:  # scores are whole numbers: their float sum is exact, as _kahan's is
                    share_h.update([_kahan([shares[i][s] for s in seats]) / k for i in games])
                    score_h.update([float(sum(batch[i].scores[s] for s in seats)) / k for i in games])
        per_game = self.per_game
        per_game["rounds"].update([g.rounds for g in batch])
        per_game["turns"].update([g.turns for g in batch])
        per_game["lead_changes"].update([g.lead_changes for g in batch])
        # A column a game lacks is None in its rows (counted nowhere), as in the table.
        columns: dict[str, list] = {}  # name -> [first seen, per-seat rows, sourced]
        for g in batch:
            for pos, (k, v) in enumerate(g.stats.items()):
                row = v if type(v) is list and len(v) == n else (
                    [v[s] for s in range(n)] if isinstance(v, (list, tuple)) else [v] * n)
                _gather(columns, k, (g.index, 0, pos), row, 0)
            if g.sources:  # a source another game names and this one does not is 0 here: see `sourced`
                self.sourced += 1
                for pos, k in enumerate(dict.fromkeys(k for d in g.sources for k in d)):
                    _gather(columns, f"points_{k}", (g.index, 1, pos), [d.get(k, 0) for d in g.sources], 1)
            if self.first is None or g.index < self.first[0]:
                self.first = (g.index, frozenset(k for k, v in g.stats.items() if isinstance(v, (list, tuple))))
        for name, (seen, rows, sourced) in columns.items():
            self._column_rows(name, seen, rows, sourced)

    def __getstate__(self):  # a worker sends its chunk's tally whole
        self._fold()
        return self.__dict__

    def _column_rows(self, name: str, seen, rows: list[list], sourced: int) -> None:
        """Count one of the game's columns: `rows` holds each game's value per seat (None: none)."""
        col = self.cols.get(name)
        if col is None:
            col = self.cols[name] = [seen, True, False, Counter(), [Counter() for _ in range(self.players)], 0]
        elif seen < col[0]:
            col[0] = seen
        col[5] += sourced  # games with score_sources that name this source
        if name in DESIGN:
            col[2] = True  # a number column even when no game has a value (as make_tables makes it)
        n = self.players
        if all(len(values) == n and all(type(v) is int for v in values) for values in rows):
            # the usual case, whole numbers in every seat: their float sum is exact, as _kahan's is
            col[2] = True
            col[3].update([float(sum(values)) / n for values in rows])
            for s, h in enumerate(col[4]):
                h.update([values[s] for values in rows])
            return
        means, seats = [], [[] for _ in range(n)]
        for values in rows:
            got = [v for v in values if v is not None]
            if not all(type(v) is int for v in got):  # floats, text or flags: the careful way
                if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in got):
                    col[1] = False  # text or flags: not a numeric column (the table leaves it out of the summary)
                    continue
                if got:
                    means.append(_kahan(float(v) for v in got) / len(got))
            elif got:  # whole numbers: their float sum is exact, as _kahan's is
                means.append(float(sum(got)) / len(got))
            for s, v in enumerate(values):
                if v is not None:
                    seats[s].append(v)
        if means:
            col[2] = True
            col[3].update(means)
        for h, values in zip(col[4], seats):
            h.update(values)

    def extend(self, other: "RunningTotals | Sequence[GameResult]") -> None:
        """Fold in another tally (a chunk played elsewhere) or some games."""
        if not isinstance(other, RunningTotals):
            for g in other:
                self.append(g)
            self._fold()
            return
        self._fold()
        other._fold()
        self.games += other.games
        for s in range(self.players):
            self.seat_share[s].update(other.seat_share[s])
            self.seat_score[s].update(other.seat_score[s])
            for b, i in other.seat_bots[s].items():
                self.seat_bots[s][b] = min(i, self.seat_bots[s].get(b, i))
        for b, first in other.bot_first.items():
            self.bot_first[b] = min(first, self.bot_first.get(b, first))
            self.bot_share.setdefault(b, Counter()).update(other.bot_share[b])
            self.bot_score.setdefault(b, Counter()).update(other.bot_score[b])
        for k, h in other.per_game.items():
            self.per_game[k].update(h)
        self.sourced += other.sourced
        for name, (seen, numeric, any_value, per_game, per_seat, named) in other.cols.items():
            col = self.cols.get(name)
            if col is None:
                col = self.cols[name] = [seen, numeric, any_value, Counter(), [Counter() for _ in range(self.players)], 0]
            elif seen < col[0]:
                col[0] = seen
            col[1] = col[1] and numeric
            col[2] = col[2] or any_value
            col[3].update(per_game)
            for s in range(self.players):
                col[4][s].update(per_seat[s])
            col[5] += named
        if other.first is not None and (self.first is None or other.first[0] < self.first[0]):
            self.first = other.first

    def own_columns(self) -> list[str]:
        """The game's numeric columns, in the table's order (game_stats keys, then points_<source>)."""
        self._fold()
        return [name for _, name in sorted((c[0], name) for name, c in self.cols.items() if c[1] and c[2])]

    def column(self, name: str) -> tuple[Counter, list[Counter]]:
        """(per-game mean over seats, per-seat values) of one of the game's columns, as histograms."""
        self._fold()
        col = self.cols[name]
        per_game, per_seat = Counter(col[3]), [Counter(h) for h in col[4]]
        if name.startswith("points_") and self.sourced > col[5]:  # games that named other sources only: 0
            per_game[0.0] += self.sourced - col[5]
            for h in per_seat:
                h[0] += self.sourced - col[5]
        return per_game, per_seat


class Totals(RunInfo):
    """What `simulate(..., keep="summary")` returns: the run's running totals (a RunningTotals),
    no table. `summary()` gives the same numbers as the full Results' summary() of the
    same run; `table`, `games` and `records` are not kept."""

    def __init__(self, mod, config, bots, seed, requested, rotate, tally: RunningTotals, partial=False):
        super().__init__(mod, config, bots, seed, requested, rotate, partial)
        tally._fold()  # the run is over: every game counted
        self.tally = tally

    @property
    def completed(self) -> int:
        return self.tally.games

    def seat_figures(self) -> list[tuple]:
        t = self.tally
        return [(s, ",".join(b for b, _ in sorted(t.seat_bots[s].items(), key=lambda kv: kv[1])),
                 _hist_rate(t.seat_share[s]), _hist_mean_ci(t.seat_score[s])) for s in range(t.players)]

    def length_figures(self) -> dict[str, tuple]:
        return {k: _hist_mean_ci(self.tally.per_game[k]) for k in ("rounds", "turns")}

    def __getattr__(self, name):
        if name in ("table", "games", "records"):
            raise AttributeError(
                f"simulate(..., keep='summary') keeps running totals, not the games: no {name!r}; "
                "run with keep='games' (the default) for the per-game table")
        raise AttributeError(name)

    def summary(self, measures: Sequence[str] | None = None) -> "Summary":
        """As Results.summary: win rates, scores, game length and the game's own figures, with 95% intervals."""
        pd = load_pandas()
        t = self.tally
        n_games = t.games
        cols = ["win_rate", "win_low", "win_high", "score", "score_low", "score_high"]
        seat_rows = []
        for s in range(t.players) if n_games else []:
            bots = [b for b, _ in sorted(t.seat_bots[s].items(), key=lambda kv: kv[1])]
            seat_rows.append([s, ",".join(bots), n_games, *_hist_rate(t.seat_share[s]), *_hist_mean_ci(t.seat_score[s])])
        seats = pd.DataFrame(seat_rows, columns=["seat", "bot", "games", *cols])
        bot_rows = []
        for b in sorted(t.bot_first) if n_games else []:
            games = sum(t.bot_share[b].values())
            bot_rows.append([b, t.bot_first[b][1], games, *_hist_rate(t.bot_share[b]), *_hist_mean_ci(t.bot_score[b])])
        bots = pd.DataFrame(bot_rows, columns=["bot", "seats_per_game", "games", *cols])
        length_rows = []
        for measure in ("rounds", "turns") if n_games else ():
            h = t.per_game[measure]
            length_rows.append([measure, *_hist_mean_ci(h), int(min(h)), *_hist_quantiles(h), int(max(h))])
        length = pd.DataFrame(length_rows, columns=["measure", "mean", "low", "high", "min", "p10", "median", "p90", "max"])
        own = [[c, *_hist_mean_ci(t.column(c)[0])] for c in t.own_columns()] if n_games else []
        columns = pd.DataFrame(own, columns=["column", "mean", "low", "high"])
        chosen = None
        if measures is not None:
            known = ["win_rate", "score", *PER_GAME, *(f"mean_{c}" for c in t.own_columns())]
            chosen = self._chosen(seats, [measure_name(known, m) for m in measures] if n_games else [])
        return Summary(self.describe(), n_games, seats, bots, length, self.partial, columns, chosen)

    def _chosen(self, seats, names: list[str]):
        """As _chosen_measures, from the running totals."""
        pd = load_pandas()
        t = self.tally
        rows = []
        for name in dict.fromkeys(names):
            if name in ("win_rate", "score"):
                low, high = ("win_low", "win_high") if name == "win_rate" else ("score_low", "score_high")
                rows += [[name, int(r["seat"]), r[name], r[low], r[high]] for _, r in seats.iterrows()]
            elif name in PER_GAME:
                rows.append([name, None, *_hist_mean_ci(t.per_game[name])])
            else:
                col = name[len("mean_"):]
                per_game, per_seat = t.column(col)
                if col.startswith("points_") or (t.first is not None and col in t.first[1]):
                    for s in range(t.players):
                        rows.append([name, s, *_hist_mean_ci(per_seat[s])])
                rows.append([name, None, *_hist_mean_ci(per_game)])
        out = pd.DataFrame(rows, columns=["measure", "seat", "mean", "low", "high"])
        out["seat"] = out["seat"].astype("Int64")
        return out


__all__ = ["RunningTotals", "Totals"]
