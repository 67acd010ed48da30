"""meeple.rules: the four games as pure Python, and the tools that play them.

Importable without Jupyter (stdlib, numpy at most). Every game module
follows one protocol, so `play`, `replay`, the bots, simulation and the
widgets work for all of them:

PROTOCOL (names every game module exposes)
  NAME, TITLE               "bucket-brigade", "Bucket Brigade"
  Config                    frozen dataclass (inherits config.RuleConfig); every
                            number of the rules is a field, defaults = the
                            source text's edition; `players` field; invalid
                            values raise ValueError naming field, value and
                            what is allowed (config.need); Config.presets()
                            -> {name: Config}, "base" first; Config.aliases()
                            -> {name: config.Alias}, names for derived numbers
                            (Bucket Brigade's hand_size), set like fields.
  new_game(config, seed)    -> State (chance comes from chance.start(seed): version 2)
  legal_actions(state)      -> list of actions: small immutable values
                            (NamedTuples), str(action) readable and unique
                            among the legal actions (records store the text)
  apply(state, action)      -> new State; never mutates `state`; an illegal
                            action raises ValueError and changes nothing
  state.current_player      seat to act (None once over)
  state.is_over, state.round (0-based), state.events (tuple of readable
                            sentences, oldest first)
  scores(state)             -> list[int], game totals so far, one per seat
  round_scores(state)       -> list[list[int]], points each finished round gave
  winners(state)            -> list[int] seats (ties: several; [] until over)
  observation(state, p)     -> frozen Observation with .player, .config and only
                            what seat p may see (never others' hidden cards
                            or the future of the chance stream)
  determinize(obs, rng)     -> a State consistent with obs: hidden cards sampled,
                            chance reseeded from rng (lookahead bots use it)
  check_state(state)        raises AssertionError if cards/tokens are not
                            conserved (the conformance suite calls it)
  BOTS                      {name: bot}; bot(observation, legal, rng) -> action;
                            at least "random", "heuristic", "lookahead"

OPTIONAL (speed; simulate uses them when present; all four games have them)
  step(state, action)       apply's work done in place, unchecked, on a state
                            no one else holds (apply = checked copy + step)
  new_game(config, seed, events=False)
                            a state that keeps no event text (state.events
                            stays empty): simulate's own states
  bot.reads_observation     False on a bot that never reads its observation
                            (simulate then passes None instead of building it)
  new_game(config, seed, turn_end=f)
                            f(state) is called at the end of every turn (one
                            player's go, decision or not; a round it ended is
                            scored), before the next turn begins: simulate
                            counts turns and reads progress with it
  progress(state)           per seat, how far ahead mid-game (numbers; a list
                            or a tuple): the sole leader after each turn comes
                            from it (lead changes, leader after k% of turns);
                            without it, scores(state)
  game_stats(state), score_sources(state)
                            the game's own columns in simulate's table (per
                            seat lists or per game numbers) and each seat's
                            points by source (they add up to scores)
  rule_usage(config, game), USAGE, ALWAYS_APPLIES
                            per simulated game (simulate's GameResult: its
                            game_stats, turns, rounds), how often each Config
                            number could matter ({"bonus": 2, "hand_sizes[1]":
                            4}); USAGE says what is counted, ALWAYS_APPLIES why
                            the other fields always apply. compare warns when a
                            changed number could matter in under 1% of games. A
                            per-player-count table gives only the game's own
                            entry: the others are not used at that count, and
                            compare shows them n/a, with no warning
SHAPE (the four games; a user's game module need not follow it)
  Each game is a package: cards (Config, cards, actions), core (the kernel: Core,
  the rules in place on plain lists), game (State and the protocol above, and the
  bridge game.core_of(state) -> Core, game.sync(core, state), game.state_of(core)
  -> State), measures, strategy (BOTS, play_core), and its exact maths in its own
  words (bucket_king.pyramid, duck_duck_bruce.odds, piggyback_brigade.track, .dice).
The event log is shared between a state and the next (rules/log.py): appending
costs O(1), and a state still shows only its own events.
"""

import importlib.util
import os
import signal
import sys


def _interrupted_while_starting(signum, frame):
    """Ctrl-C while the `meeple` command is still importing: its one line and 130, no traceback
    (cli.main puts Python's own handler back first thing)."""
    print("meeple: interrupted", file=sys.stderr)
    raise SystemExit(130)


if os.path.basename(getattr(sys.modules.get("__main__"), "__file__", None) or "") == "meeple":
    signal.signal(signal.SIGINT, _interrupted_while_starting)  # the console script only: a notebook keeps its own

# After the Ctrl-C handler above: the imports below are what takes the console script a moment.
from . import bucket_brigade  # noqa: E402 - after the Ctrl-C handler
from . import bucket_king  # noqa: E402 - after the Ctrl-C handler
from . import duck_duck_bruce  # noqa: E402 - after the Ctrl-C handler
from . import piggyback_brigade  # noqa: E402 - after the Ctrl-C handler
from .core import Record, play, replay  # noqa: E402 - after the Ctrl-C handler
from .registry import GAMES  # noqa: E402 - after the Ctrl-C handler
from . import sim  # noqa: E402 - after the Ctrl-C handler
from .sim import Results, balance_report, measures, simulate, sweep  # noqa: E402 - after the Ctrl-C handler
from .workbench import compare, tune  # noqa: E402 - after the Ctrl-C handler


def _ismcts(mod):
    """OpenSpiel's ISMCTS (100 simulations a move) as a meeple bot; OpenSpiel is
    imported on the bot's first move, so `import meeple.rules` stays light."""
    made = []

    def ismcts(observation, legal, rng):
        if not made:
            from .openspiel import ismcts_bot
            made.append(ismcts_bot(mod, simulations=100))
        return made[0](observation, legal, rng)

    return ismcts


if importlib.util.find_spec("pyspiel") is not None:  # the optional extra meeple[openspiel]
    for _mod in GAMES.values():
        _mod.BOTS.setdefault("ismcts", _ismcts(_mod))

__all__ = ["GAMES", "Record", "Results", "balance_report", "compare", "play", "replay", "simulate", "sweep", "tune", "measures"]
