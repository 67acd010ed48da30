"""The game cores (issue 21): simulate's fast loop plays exactly the games its protocol loop plays.

A game module with a mutable core defines `play_core` (simulate's play_game hook): the whole game
on the core, the built-in bots choosing there. It must give what play_game's own loop gives from
new_game + legal_actions + bot + step on the public State: the same decisions, draws, turns,
leaders at each turn's end, scores and statistics, in every preset and in odd configs; and it
must leave a line-up it does not know to that loop. The core keeps check_state's conservation
after every decision.
"""

from __future__ import annotations

import hashlib
import random
import types

import pytest

from meeple.rules import bucket_brigade as bb
from meeple.rules import bucket_king as bk
from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import piggyback_brigade as pb
from meeple.rules.chance import game_seed, start
from meeple.rules.core import resolve_bots
from meeple.rules.protocol import LazySeatRandom as _LazySeatRandom
from meeple.rules.sim.play import _leader, play_game

CONFIGS = {
    pb: {**pb.Config.presets(), "2 players": pb.Config(players=2), "7 players": pb.Config(players=7),
         "3 players, 1 reroll": pb.Config(players=3, max_rerolls=1), "one section": pb.Config(players=2, sections=(4,))},
    ddb: {**ddb.Config.presets(), "2 players": ddb.Config(players=2),
          "5 players, lowest total": ddb.Config(players=5, next_start="lowest-total"),
          "no decline, 2-3": ddb.Config(players=3, may_decline=False, min_steal=2, max_steal=3),
          "one suit": ddb.Config(players=2, suits=("red",), numbers=(1, 2), bruce_cards=1, end="target", target=20)},
}
LINEUPS = {pb: ("random", "heuristic", "always-reroll", "heuristic,random"),
           ddb: ("random", "heuristic", "threshold-2", "heuristic,random")}
GAMES = 40


def _cases() -> list:
    return [pytest.param(mod, config, bots, id=f"{mod.NAME}:{name}:{bots}")
            for mod, configs in CONFIGS.items() for name, config in configs.items() for bots in LINEUPS[mod]]


def _protocol_loop(mod, config, funcs, game_seed):
    """play_game's own loop on the public State (new_game + legal_actions + bot + step):
    (final state, leaders at each turn's end, decisions)."""
    leaders = []
    state = mod.new_game(config, game_seed, events=False, turn_end=lambda st: leaders.append(_leader(mod.progress(st))))
    rngs = [_LazySeatRandom(game_seed, s) for s in range(config.players)]
    actions = 0
    while not state.is_over:
        p = state.current_player
        mod.step(state, funcs[p](mod.observation(state, p), mod.legal_actions(state), rngs[p]))
        actions += 1
    return state, leaders, actions


def _without_core(mod):
    """The module as simulate sees it without the hook: play_game then runs its own loop."""
    plain = types.ModuleType(mod.__name__)
    plain.__dict__.update({k: v for k, v in vars(mod).items() if k != "play_core"})
    return plain


@pytest.mark.parametrize("mod,config,bots", _cases())
def test_play_core_plays_the_protocol_loops_games(mod, config, bots):
    lineup = ",".join((bots.split(",") * config.players)[: config.players])
    names, funcs = resolve_bots(mod, lineup, config.players)
    plain = _without_core(mod)
    for i in range(GAMES):
        seed = game_seed(3, i)
        rngs = [_LazySeatRandom(seed, s) for s in range(config.players)]
        core, leaders, actions = mod.play_core(config, start(seed), funcs, rngs, [False] * config.players, names, _leader)
        state, want_leaders, want_actions = _protocol_loop(mod, config, funcs, seed)
        assert (leaders, actions) == (want_leaders, want_actions), f"game {i}"
        for read in (mod.scores, mod.winners, mod.round_scores, mod.game_stats, mod.score_sources):
            assert read(core) == read(state), f"game {i}: {read.__name__}"
        # and through simulate's play_game, with and without the hook: the same GameResult
        assert play_game(mod, config, names, funcs, 3, i, rotate=True) == play_game(plain, config, names, funcs, 3, i, rotate=True)


def test_play_core_leaves_a_bot_it_does_not_know_to_the_protocol_loop():
    def mine(obs, legal, rng):
        return legal[-1]

    for mod in (pb, ddb):
        config = mod.Config()
        rngs = [_LazySeatRandom(1, s) for s in range(config.players)]
        funcs = [mod.BOTS["random"]] * (config.players - 1) + [mine]
        assert mod.play_core(config, start(1), funcs, rngs, [True] * config.players, ("x",) * config.players, _leader) is None
        assert all("_pending" in r.__dict__ for r in rngs), "a stream was drawn from before play_core declined"
        names, funcs = resolve_bots(mod, ["random", "heuristic", "random", mine], 4)
        assert play_game(mod, config, names, funcs, 5, 0) == play_game(_without_core(mod), config, names, funcs, 5, 0)


@pytest.mark.parametrize("mod", [pb, ddb], ids=lambda m: m.NAME)
def test_the_core_conserves_everything_after_every_decision(mod):
    """check_state on the core itself, after every decision of random games in every preset."""
    rng = random.Random(2)
    for config in CONFIGS[mod].values():
        for g in range(15):
            c = mod.core.new_core(config, mod.Chance(g))
            mod.core.begin(c)
            while not c.is_over:
                legal = mod.legal_actions(c)
                mod.core.act(c, legal[rng.randrange(len(legal))])
                mod.check_state(c)


@pytest.mark.parametrize("mod", [pb, ddb], ids=lambda m: m.NAME)
def test_play_core_ends_in_the_protocol_loops_final_state(mod):
    """Issue 35: the fast loop draws the dice and the bots' picks in place (no Chance per draw, bound
    getrandbits); its final core is the protocol loop's final State, the chance's positions and every
    field a view reads included, and each seat's stream is left where the protocol loop leaves it."""
    fields = {pb: ("chance", "stacks", "where", "order", "won", "finish_group", "extensions_left", "rerolls_taken",
                   "rerolls_declined", "round"),
              ddb: ("chance", "round", "start_player", "_left", "row", "discard", "nests", "totals", "history",
                    "taken", "turns_taken", "facts", "phase")}[mod]
    for config in CONFIGS[mod].values():
        for bots in LINEUPS[mod]:
            lineup = ",".join((bots.split(",") * config.players)[: config.players])
            names, funcs = resolve_bots(mod, lineup, config.players)
            for i in range(6):
                seed = game_seed(9, i)
                rngs = [_LazySeatRandom(seed, s) for s in range(config.players)]
                core, _, _ = mod.play_core(config, start(seed), funcs, rngs, [False] * config.players, names, _leader)
                state = mod.new_game(config, seed, events=False)
                want = [_LazySeatRandom(seed, s) for s in range(config.players)]
                while not state.is_over:
                    p = state.current_player
                    mod.step(state, funcs[p](mod.observation(state, p), mod.legal_actions(state), want[p]))
                got = mod.game.state_of(core) if mod is ddb else core
                for name in fields:
                    mine, theirs = getattr(got, name), getattr(state, name)
                    if mod is pb and name in ("stacks", "extensions_left", "rerolls_taken", "rerolls_declined", "where"):
                        mine = tuple(map(tuple, mine)) if name == "stacks" else tuple(mine)
                    assert mine == theirs, f"{config}, {lineup}, game {i}: {name}"
                assert [r.getrandbits(32) for r in rngs] == [r.getrandbits(32) for r in want], f"game {i}: seat streams"


# Fingerprints of simulate's games as the engine before issue 35 played them (f5a9d53): sha256 of the
# GameResults' reprs, games 0-29 of seed 35, seats rotated, base rules, 4 players.
_PLAYED_BEFORE = {
    ("duck-duck-bruce", "random", 1): "e2ba2c43a63ad2e1",
    ("duck-duck-bruce", "random", 2): "75ecb889bbff8108",
    ("duck-duck-bruce", "heuristic,random", 1): "0cdf396e0279e735",
    ("duck-duck-bruce", "heuristic,random", 2): "53e94a7d030b0334",
    ("piggyback-brigade", "random", 1): "7f28870b57ea7eb4",
    ("piggyback-brigade", "random", 2): "3c66ecc3a3566b93",
    ("piggyback-brigade", "heuristic,random", 1): "643a7547e1873ffb",
    ("piggyback-brigade", "heuristic,random", 2): "874f55354a3c747d",
    # Bucket Brigade's and Bucket King's as the engine played them at 264e7d1 (the four games in one
    # shape), before the Bucket Brigade heuristic's numbers were kept on its Box and its leaders noted inline
    ("bucket-brigade", "random", 1): "fe51adde71bd6baf",
    ("bucket-brigade", "random", 2): "d3a4683adfbab9e9",
    ("bucket-brigade", "heuristic,random", 1): "b71c9fe96959c7e3",
    ("bucket-brigade", "heuristic,random", 2): "e75ae9924ed937c7",
    ("bucket-king", "random", 1): "9ccc52eb44a3e4d4",
    ("bucket-king", "random", 2): "8ea9762327013e22",
    ("bucket-king", "heuristic,random", 1): "c89f4d637ffb5428",
    ("bucket-king", "heuristic,random", 2): "3429e1dc38f41bbd",
}


@pytest.mark.parametrize("key", list(_PLAYED_BEFORE), ids=lambda k: f"{k[0]}:{k[1]}:chance{k[2]}")
def test_the_lean_kernels_play_the_games_played_before_them(key):
    """Issue 35: the kernels were made leaner without changing a game: the same seed gives the same
    GameResults (scores, moves, leaders, statistics) as before, on chance 1 and chance 2."""
    name, bots, chance = key
    mod = {pb.NAME: pb, ddb.NAME: ddb, bb.NAME: bb, bk.NAME: bk}[name]
    names, funcs = resolve_bots(mod, ",".join((bots.split(",") * 4)[:4]), 4)
    h = hashlib.sha256()
    for i in range(30):
        h.update(repr(play_game(mod, mod.Config(), names, funcs, 35, i, rotate=True, chance=chance)).encode())
    assert h.hexdigest()[:16] == _PLAYED_BEFORE[key]
