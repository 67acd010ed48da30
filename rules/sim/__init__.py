"""meeple.rules.sim: many games at once, with the uncertainty shown.

    res = simulate("bucket-brigade", None, "random", games=2000, seed=1)
    res.table             # one row per game x seat (pandas)
    print(res.summary())  # win rates and mean scores with 95% intervals
    balance_report("bucket-brigade", None, "heuristic", 2000, 1)
    sweep("bucket-brigade", None, {"bonus": [0, 3, 6, 9]}, "heuristic", 1000, 1)

The modules, in the order a run goes through them:
  play.py     one game (`play_game`): the moves of `core.play`, plus who led when
  runner.py   jobs, chunks, process pools and progress: the contract the workbench,
              the site's worker and the Explorer's prefetch build on
  tally.py    running totals of a run (`keep="summary"`: memory flat in the games)
  results.py  `Results` (the tables), `Summary`, `measures(game)`
  sweep.py    the entry points `simulate` and `sweep`
  balance.py  `balance_report` and the one bot-against-the-field measurement (`head_to_head`)
  text.py     number formatting for every printed summary

Game i of a run is played with seed `chance.game_seed(seed, i)` and its bots get
`protocol.bot_rng(that seed, seat)`, so the table is the same whether one process, a pool
or a dask cluster played it. (`meeple.rules.simulate` is the function only: the module-path
alias to this package that older notebooks used is gone, issue 34; no lesson used it.)

OPTIONAL HOOKS a game module may define (simulate works without them):
  game_stats(state) -> dict       extra columns for the table, read from the final state:
                                  one number or text for the whole game, or a list with one
                                  entry per seat (bucket-brigade: rounds_ended, rounds_unended).
  score_sources(state) -> list[dict[str, int]]
                                  per seat, the game's points split by where they came from
                                  ({"hand": 17, "ender_bonus": 6}); they add up to
                                  scores(state)[seat]. Columns points_<source>; balance_report
                                  shows each source's share of all points.
  progress(state) -> list[float]  who is ahead in mid-game, one number per seat (default:
                                  scores(state)); read at the end of every turn for lead
                                  changes and the "leader after k% of the turns" figures.
  new_game(..., turn_end=f)       the game calls f(state) at the end of every turn its rules
                                  define (one player's go, with a decision or not), before the
                                  next begins: the turns column counts these calls and progress
                                  is read in them. All four games have it. Without it a turn is
                                  guessed to end when an action changes the player or round,
                                  which misses a turn with no decision played inside another
                                  player's action.

pandas and tqdm are imported only when a table or a bar is made, so `meeple.rules` stays
importable with the standard library alone.
"""

from .balance import BalanceReport, balance_report, head_to_head
from .play import CHECKPOINTS, GameResult, play_game
from .results import Results, Summary, measure_columns, measure_name, measures
from .runner import MAX_GAMES, MAX_WORKERS, default_workers, play_chunk, shared_pool, worker_pool
from .sweep import simulate, sweep
from .tally import RunningTotals, Totals

__all__ = ["simulate", "sweep", "balance_report", "head_to_head", "measures", "measure_columns", "measure_name",
           "Results", "Summary", "BalanceReport", "GameResult", "play_game", "play_chunk", "RunningTotals", "Totals",
           "CHECKPOINTS", "MAX_GAMES", "MAX_WORKERS", "default_workers", "shared_pool", "worker_pool"]
