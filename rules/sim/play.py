"""One simulated game: `play_game` plays game `index` of a run and keeps what a table needs.

Game i of a run is played with seed `chance.game_seed(seed, i)` (chance version 2: seed * 2**32 + i;
version 1: `derive(seed, "game", i)`) and its bots get `protocol.bot_rng(that seed, seat)`'s
streams, exactly as `core.play` does, so game i of any run can be replayed alone with
`play(game, config, bots, game_seed(seed, i))`.
Besides the scores and winners, it reads who leads at the end of every turn (the game's
`turn_end` hook and `progress(state)`, see `meeple.rules.PROTOCOL`): lead changes, the
leader after each round and after 25/50/75% of the turns. A `GameResult` is small and
picklable: what a worker process sends back.
"""

from __future__ import annotations

import inspect
from operator import add as _add, ne as _ne
from types import ModuleType
from typing import Any, NamedTuple

from .. import bots as _bots
from ..chance import CHANCE, game_seed as _game_seed, start
from ..core import MAX_STEPS
from ..protocol import LazySeatRandom
from .design import game_measures


CHECKPOINTS = (25, 50, 75)  # "leader after k% of the turns" (decisiveness)


_BLIND = (_bots.random_bot,)  # bots that never read their observation: skip building it


class GameResult(NamedTuple):
    """What one simulated game leaves behind (small, picklable)."""

    index: int
    seed: int
    bots: tuple[str, ...]  # bot name in each seat
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: int
    turns: int
    actions: int
    round_leaders: tuple[int | None, ...]  # sole leader after each round but the last (None: tie)
    turn_leaders: tuple[int | None, ...]  # sole leader after CHECKPOINTS % of the turns
    lead_changes: int
    stats: dict
    sources: tuple[dict, ...] | None


def _leader(values) -> int | None:
    """The seat strictly ahead of everyone else, or None on a tie for first."""
    best = max(values)
    return values.index(best) if values.count(best) == 1 else None


def _lead_changes(leaders) -> int:
    """How often the sole leader became someone else (ties in between skipped)."""
    sole = [seat for seat in leaders if seat is not None]
    return sum(map(_ne, sole, sole[1:]))  # each two sole leaders in a row that differ


_TURN_HOOK: dict[Any, bool] = {}  # new_game function -> whether it takes `turn_end`


def _reports_turns(mod: ModuleType) -> bool:
    """Whether the module's new_game takes a `turn_end` callback (the optional hook)."""
    known = _TURN_HOOK.get(mod.new_game)
    if known is None:
        known = _TURN_HOOK[mod.new_game] = "turn_end" in inspect.signature(mod.new_game).parameters
    return known


_TAKES_CHANCE: dict[Any, bool] = {}  # new_game function -> whether it takes `chance`


def _takes_chance(mod: ModuleType) -> bool:
    """Whether the module's new_game takes a `chance` (the package's games do; a user's module
    written to the protocol may take the seed alone, and deals its own chance from it)."""
    known = _TAKES_CHANCE.get(mod.new_game)
    if known is None:
        known = _TAKES_CHANCE[mod.new_game] = "chance" in inspect.signature(mod.new_game).parameters
    return known


_SEATING: dict = {}  # (module, names, funcs, shift) -> _seating's answer: the same for every game of a run


def _seating(mod: ModuleType, names, funcs, n: int, shift: int):
    """(seat_names, seat_funcs, looks, checked) of a line-up seated with `shift`: worked out once per
    line-up rather than once per game (a run plays the same line-up every game). `checked` reads the
    module's BOTS then: a bot is checked unless it is one of the package's own."""
    key = (mod, tuple(names), tuple(funcs), shift)
    try:
        known = _SEATING.get(key)
    except TypeError:  # an unhashable bot (a callable object with its own ==) or module: worked out each game
        known, key = None, None
    if known is None:
        if len(_SEATING) >= 256:  # many line-ups (a tournament): start afresh rather than grow
            _SEATING.clear()
        order = [(s - shift) % n for s in range(n)]
        seat_funcs = tuple(funcs[k] for k in order)
        looks = tuple(f not in _BLIND and getattr(f, "reads_observation", True) for f in seat_funcs)
        # The package's own bots are known to choose among `legal` (core.play checks every move of
        # the stored records); a bot of the user's is checked on every move.
        own = (*(mod.BOTS[b] for b in ("random", "heuristic", "lookahead") if b in mod.BOTS), *_BLIND)
        checked = tuple(all(f is not b for b in own) for f in seat_funcs)
        known = (tuple(names[k] for k in order), seat_funcs, looks, checked)
        if key is not None:
            _SEATING[key] = known
    return known


def play_game(mod: ModuleType, config, names, funcs, seed: int, index: int, rotate: bool = False,
              design: bool = False, chance: int = CHANCE) -> GameResult:
    """Game `index` of a run: `playing(...)` played to its end at once (see there). The game's own
    loop (`play_core`) is called here directly, without the generator, when it plays the line-up."""
    n = config.players
    seat_names, seat_funcs, looks, checked = _seating(mod, names, funcs, n, index % n if rotate else 0)
    game_seed = _game_seed(seed, index, chance)
    rngs = [LazySeatRandom(game_seed, s, chance) for s in range(n)]  # bot_rng's streams, seeded when first drawn from
    core = getattr(mod, "play_core", None)
    if core is not None and not design:
        played = core(config, start(game_seed, chance), list(seat_funcs), rngs, list(checked), seat_names, _leader)
        if played is not None:
            state, leaders, actions = played
            return _result(mod, state, index, game_seed, seat_names, leaders, actions, n, False, (), ())
    try:
        next(_playing(mod, config, seat_names, seat_funcs, looks, checked, game_seed, rngs, index, design, chance,
                      None, None))
    except StopIteration as done:
        return done.value
    raise AssertionError("playing yields only when given a `pause`")  # pragma: no cover


def playing(mod: ModuleType, config, names, funcs, seed: int, index: int, rotate: bool = False,
            design: bool = False, chance: int = CHANCE, pause=None):
    """Game `index` of a run, played as a generator: it returns (StopIteration.value) the game's
    GameResult, and, given `pause` (a function of no argument), yields between two decisions
    whenever pause() is true, to go on at the next `next()`: the variant lab plays a game of slow
    bots in steps of a fraction of a second, so the page sees Cancel within a second (issue 36).
    Without `pause` it never yields (play_game); the same game either way.

    Game `index` of a run: the same moves as `core.play(mod, config, lineup,
    game_seed(seed, index, chance), chance=chance)`, plus turn-by-turn leader tracking.
    `chance` is the chance version (1 replays the tables made before version 2).

    With `rotate`, game i seats the bots shifted by i (bot k in seat
    (k + i) mod players), so each bot sits in each seat equally often.

    The engine hook: a game module may define `play_core(config, chance, seat_funcs, rngs,
    checked, seat_names, leader)`, its own loop on its mutable core, from `chance` (the game's start,
    `chance.start(game seed, version)`). It plays the game with
    `seat_funcs[p]` choosing for seat p and drawing from `rngs[p]` exactly as a call
    `seat_funcs[p](observation, legal, rngs[p])` would (same draws, same order), and raises
    ValueError naming `seat_names[p]` for a move outside the legal actions where `checked[p]`.
    It returns (final state, leaders, actions): the public State at the game's end (is_over;
    scores, round_scores, winners, game_stats and score_sources read it), `leader(progress)` at
    each turn's end in order, and the number of decisions: exactly what the loop below gets, so
    every GameResult and record is the same. It returns None, before drawing from any stream,
    for a line-up or config it does not play itself (a user's bot); the loop below plays it then.
    Past MAX_STEPS decisions it raises RuntimeError as the loop does.

    With `design`, the scoreboard is kept at every turn's end and the design measures
    (rules/sim/design.py) join the game's stats; the loop below then plays the game (its
    turn_end sees each turn's scoreboard and mover), whatever play_core the game has: the same
    game, a little slower, and only when a design measure was asked for.
    """
    n = config.players
    seat_names, seat_funcs, looks, checked = _seating(mod, names, funcs, n, index % n if rotate else 0)
    game_seed = _game_seed(seed, index, chance)
    rngs = [LazySeatRandom(game_seed, s, chance) for s in range(n)]  # bot_rng's streams, seeded when first drawn from
    return (yield from _playing(mod, config, seat_names, seat_funcs, looks, checked, game_seed, rngs, index, design,
                                chance, pause, getattr(mod, "play_core", None)))


def _playing(mod: ModuleType, config, seat_names, seat_funcs, looks, checked, game_seed: int, rngs, index: int,
             design: bool, chance: int, pause, core):
    """playing's game, seated (_seating) and seeded: `core` (the module's play_core, or None: the
    loop below plays) first unless `design`, then the protocol loop; returns the GameResult."""
    n = config.players
    legal_actions, apply, observation = mod.legal_actions, mod.apply, mod.observation
    progress = getattr(mod, "progress", mod.scores)
    leaders: list[int | None] = []  # the sole leader at the end of each turn
    shown = [None, None]  # last progress seen, and its leader
    note = leaders.append
    trail: list[tuple] = []  # with `design`: the scoreboard after each turn
    movers: list = []  # with `design`: the seat whose decision ended each turn
    mover = [None]  # the seat of the decision being played

    def turn_end(st) -> None:  # called at every turn's end
        values = progress(st)
        if values != shown[0]:
            shown[0], shown[1] = values, _leader(values)
        note(shown[1])
        if design:
            trail.append(tuple(values))
            movers.append(mover[0])

    # A game's own loop on its mutable core (the engine hook: see playing's docstring), or None.
    played = core(config, start(game_seed, chance), list(seat_funcs), rngs, list(checked), seat_names, _leader) \
        if core is not None and not design else None
    # A module with a `step` hook plays in place on this private state, which keeps
    # no event text (nobody reads it): the same moves as apply, without a copy per move.
    step = getattr(mod, "step", None)
    hooked = _reports_turns(mod)  # the game calls turn_end itself, at every turn's end
    if played is not None:
        state, leaders, actions = played  # over: the loop below does nothing
    else:
        kwargs = ({"events": False} if step else {}) | ({"turn_end": turn_end} if hooked else {}) \
            | ({"chance": start(game_seed, chance)} if _takes_chance(mod) else {})
        state, actions = mod.new_game(config, game_seed, **kwargs), 0
    while not state.is_over:
        if actions >= MAX_STEPS:
            raise RuntimeError(f"{mod.NAME} did not end within {MAX_STEPS} actions")
        p, r = state.current_player, state.round
        legal = legal_actions(state)
        action = seat_funcs[p](observation(state, p) if looks[p] else None, legal, rngs[p])
        if checked[p] and action not in legal:
            raise ValueError(f"bot {seat_names[p]!r} chose {action!r}, which is not legal here")
        mover[0] = p
        if step:
            step(state, action)
        else:
            state = apply(state, action)
        actions += 1
        if not hooked and (state.current_player != p or state.round != r):  # a guess: the turn is over
            turn_end(state)
        if pause is not None and pause():
            yield
    return _result(mod, state, index, game_seed, seat_names, leaders, actions, n, design, trail, movers)


_tuple_new = tuple.__new__


def _result(mod: ModuleType, state, index: int, game_seed: int, seat_names, leaders, actions: int, n: int,
            design: bool, trail, movers) -> GameResult:
    """The GameResult of a finished game: what its final state and the leaders at each turn's end say."""
    game_stats, score_sources = getattr(mod, "game_stats", None), getattr(mod, "score_sources", None)
    round_pts = mod.round_scores(state)
    round_leaders = []
    if len(round_pts) > 1:
        totals = list(getattr(state.config, "seat_points", ()) or [0] * n)  # a head start counts (BB-15, DDB-14)
        note = round_leaders.append
        for pts in round_pts[:-1]:  # _leader(totals after each round), written out: a call less a round
            totals = list(map(_add, totals, pts))
            best = max(totals)
            note(totals.index(best) if totals.count(best) == 1 else None)
    turns = len(leaders)
    turn_leaders = tuple([leaders[max(1, -(-pct * turns // 100)) - 1] for pct in CHECKPOINTS]) if turns \
        else (None,) * len(CHECKPOINTS)
    stats = dict(game_stats(state)) if game_stats is not None else {}
    sources = tuple([dict(d) for d in score_sources(state)]) if score_sources is not None else None
    scores, winners = tuple(mod.scores(state)), tuple(mod.winners(state))
    if design:
        stats |= game_measures(trail, movers, scores, winners)
    return _tuple_new(GameResult, (  # GameResult(index=..., ..., sources=...) in field order, without its __new__'s call
        index, game_seed, seat_names, scores, winners, len(round_pts) or state.round + 1, turns, actions,
        tuple(round_leaders), turn_leaders, _lead_changes(leaders), stats, sources,
    ))


__all__ = ["CHECKPOINTS", "GameResult", "play_game", "playing"]
