"""Design measures: the figures a designer asks of a game's story, each defined once, here.

Each is computed per game from what `play_game` records when asked (`design=True`): the
scoreboard at the end of every turn (the game's `progress(state)`, default its scores: the
"trail"), the seat whose decision ended that turn, the final scores and the winners. They cost
a trail per game, so a run computes them only when one of them is asked for (`simulate(...,
measures=["margin"])`, `compare(..., measures=...)`, `tune(..., measure="drama")`, `--measure`):
the default table and the Explorer's cold move never pay for them. They then appear as one
column each of the table (one value per game; None where a game has no value, left out of
the means), so every surface that shows a game's columns shows them, with the same name.

Notation: a game has T turns; v_t is the scoreboard after turn t (t = 1..T), W the winners,
s the final scores, lead(v) the seats holding the top value of v.

  leader_at_25_wins, leader_at_half_wins, leader_at_75_wins
      1 if the sole leader after k% of the turns (turn max(1, ceil(k T / 100)), the turn
      `leader_at_<k>pct` reads) is a winner, 0 if another seat leads alone; no value on a tie
      for the lead (or T = 0). "Does the half-time leader win?"
  margin          max_{w in W} s_w - max_{p not in W} s_p: the winner's lead over the runner-up
                  (0 when every seat won). Can be below 0 in a game not won on points.
  score_spread    max(s) - min(s): first to last on the final scores.
  shared_wins     1 if more than one seat won, else 0 (its mean: the share of shared wins).
  decisiveness    (T - i + 1) / T, where i is the first turn from which every v_t (t >= i) has
                  lead(v_t) within W: the share of the game played with the final winners
                  ahead for good (0 if they never were; no value for T = 0). After Ludii's
                  "Decisiveness" (share of moves after a winner's evaluation passes a
                  threshold), with the scoreboard's lead as the threshold.
  drama           mean over t of ( max(v_t) - mean_{w in W} v_t[w] ): how far the eventual
                  winners trailed the leader, on average over the turns (0 if they always
                  led). Ludii's "Drama (average)" (Evaluation/metrics/multiple/metrics/
                  Drama.java: per state, the highest evaluation minus the winners' mean
                  evaluation, averaged), with the scoreboard in place of UCT evaluations;
                  Browne (2008), "Automatic generation and evaluation of recombination games",
                  PhD thesis, QUT, §"Drama". In the game's progress units (points, spaces).
  uncertainty     (number of t with lead(v_t) not exactly {the winner}) / T, for one winner
                  (a shared win: lead(v_t) not within W): the share of the turns at which the
                  scoreboard did not yet name the winner. A scoreboard stand-in for Browne's
                  "Uncertainty" (how long the outcome stays open; his uses a search's
                  evaluation, which these games' bots do not give).
  kingmaking      1 if the game's last turn was ended by a decision of a seat that did not
                  win, and before that turn the leaders were not the final winners (lead(v_{T-1})
                  not within W; v_0 = all equal): a loser's last move decided who won. 0
                  otherwise (no value for T = 0). Our definition (the issue asks for one): a
                  player who is out of the running at that moment, whose move hands the win
                  to someone; "out of the running" is read as "did not win", which the
                  scoreboard can tell, where a player's chances cannot be.
  lead_changes    (already every run's column) how often the sole leader became another seat.
  duration_spread the standard deviation of the turns per game: a figure of the run, not of
                  one game (design_summary; its interval from the chi-square approximation).
"""

from __future__ import annotations

import math
from typing import Sequence

CHECKPOINT_NAMES = {25: "leader_at_25_wins", 50: "leader_at_half_wins", 75: "leader_at_75_wins"}

DESIGN = {
    "leader_at_25_wins": "1 if the sole leader after 25% of the turns wins (a tie for the lead: no value)",
    "leader_at_half_wins": "1 if the sole leader at half time (50% of the turns) wins (a tie for the lead: no value)",
    "leader_at_75_wins": "1 if the sole leader after 75% of the turns wins (a tie for the lead: no value)",
    "margin": "the winner's final lead over the best non-winner (0 when every seat won)",
    "score_spread": "final scores, highest minus lowest",
    "shared_wins": "1 if more than one seat won (its mean: the share of games with a shared win)",
    "decisiveness": "share of the turns played with the final winners ahead for good",
    "drama": "how far the eventual winners trailed the leader, averaged over the turns (Ludii's Drama)",
    "uncertainty": "share of the turns at which the scoreboard did not yet name the winner",
    "kingmaking": "1 if a non-winner's decision ended the last turn and turned the lead to the winners",
}
"""Every per-game design measure, with what it means (rules/sim/design.py's docstring has the formulas)."""

RUN_LEVEL = {"duration_spread": "standard deviation of the turns per game (a figure of the run)"}


def wanted(names: Sequence[str] | None) -> bool:
    """Whether any of `names` (measure names, with or without mean_) is a design measure."""
    return any(isinstance(n, str) and n.strip().removeprefix("mean_") in DESIGN for n in names or ())


def _lead(values) -> frozenset:
    top = max(values)
    return frozenset(s for s, v in enumerate(values) if v == top)


def game_measures(trail: Sequence[tuple], movers: Sequence[int | None], scores: Sequence[int],
                  winners: Sequence[int]) -> dict:
    """The design measures of one game: `trail` is the scoreboard after each turn, `movers` the
    seat whose decision ended each turn (None: no decision yet), `scores` the final scores,
    `winners` the winning seats. None where a game has no value (see the module's docstring)."""
    n = len(scores)
    w = frozenset(winners)
    T = len(trail)
    out: dict = {}
    for pct, name in CHECKPOINT_NAMES.items():
        if not T:
            out[name] = None
            continue
        lead = _lead(trail[max(1, -(-pct * T // 100)) - 1])
        out[name] = None if len(lead) != 1 else float(next(iter(lead)) in w)
    others = [scores[s] for s in range(n) if s not in w]
    out["margin"] = float(max(scores[s] for s in w) - max(others)) if w and others else 0.0
    out["score_spread"] = float(max(scores) - min(scores))
    out["shared_wins"] = float(len(w) > 1)
    if not T or not w:
        out |= {"decisiveness": None, "drama": None, "uncertainty": None, "kingmaking": None}
        return out
    leads = [_lead(v) for v in trail]
    i = T  # first turn (0-based) of the final stretch with the winners ahead
    while i > 0 and leads[i - 1] <= w:
        i -= 1
    out["decisiveness"] = (T - i) / T
    out["drama"] = math.fsum(max(v) - math.fsum(v[s] for s in w) / len(w) for v in trail) / T
    named = (lambda lead: lead == w) if len(w) == 1 else (lambda lead: lead <= w)
    out["uncertainty"] = sum(not named(lead) for lead in leads) / T
    before = leads[-2] if T > 1 else frozenset(range(n))
    last = movers[-1] if movers else None
    out["kingmaking"] = float(last is not None and last not in w and not before <= w)
    return out


def duration_spread(turns: Sequence[int]) -> tuple[float, float, float]:
    """(sd, low, high): the standard deviation of the turns per game with a 95% interval
    (normal approximation of the chi-square: sd / (1 +- 1.96 / sqrt(2 (n - 1))))."""
    n = len(turns)
    if n < 2:
        return (math.nan, math.nan, math.nan)
    m = math.fsum(turns) / n
    sd = math.sqrt(math.fsum((t - m) ** 2 for t in turns) / (n - 1))
    k = 1.96 / math.sqrt(2 * (n - 1))
    return (sd, sd / (1 + k), sd / (1 - k) if k < 1 else math.inf)


__all__ = ["DESIGN", "RUN_LEVEL", "CHECKPOINT_NAMES", "wanted", "game_measures", "duration_spread"]
