"""meeple's four games as OpenSpiel games (the optional extra `meeple[openspiel]`).

    import meeple.rules.openspiel            # registers python_meeple_<game> for every game
    game = pyspiel.load_game("python_meeple_bucket_brigade", {"players": 4, "bonus": 6})

The rules stay in meeple: an OpenSpiel state holds a meeple state and calls the
game module's `legal_actions`/`apply`. What OpenSpiel adds is explicit chance.
Every random value the engine asks its `Chance` for (a die roll, one step of a
shuffle, a yes/no fall) comes from a `ScriptedChance`; when the script runs out
it raises `NeedChance`, the OpenSpiel state becomes a chance node with that
draw's outcomes and probabilities, and once the outcome is chosen the same
engine step is run again with the longer script. A shuffle of n cards is n-1
chance nodes (Fisher-Yates: step i picks one of i+1 places), exactly the draws
`Chance.shuffled` makes, so a meeple seed maps to one chance outcome per node
(`seeded_outcome`) and the two engines play the same game: the game of chance version 1
(`play(..., chance=1)`, one stream for every draw). Version 2 deals shuffles and the other
draws from two streams, which a node's position alone does not tell apart.

Judgement calls (README "Design decisions"):
- An action's id is its index in the game's `legal_actions` list. The list
  depends only on what the acting player knows (their hand and the table), so
  an id means the same move in every state of an information set, which is
  what OpenSpiel's search and equilibrium algorithms need. `num_distinct_actions`
  is the game's bound for its Config (the module's `action_bound(config)`, else
  ACTION_CAP), checked on every move, not a codebook.
- Returns are final scores ("score", general-sum) or the win share ("win":
  1/k to each of k tied winners, constant-sum 1; what search bots optimise).
- Information state = the player's meeple observation (their own cards, the
  table, the public history of moves), rendered as text; other hands never appear.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from fractions import Fraction
from types import ModuleType
from typing import Any, Sequence

import numpy as np

from .chance import Chance
from .config import parse_text, split_optional
from .extras import require
from .protocol import resolve_config
from .registry import GAMES, game_module

pyspiel = require("pyspiel", "meeple.rules.openspiel")  # the extra meeple[openspiel]; else one line naming it

ACTION_CAP = 1024  # the most legal moves any state may offer, for a game module without action_bound
MOST_ACTIONS = 2**31 - 1  # OpenSpiel counts actions in a C++ int: a game offering more cannot be encoded
MAX_GAME_LENGTH = 100_000  # decisions and chance draws; DDB's "target" games are long
PREFIX = "python_meeple_"


class IllegalAction(pyspiel.SpielError, ValueError):
    """An action id that is not legal here: OpenSpiel's error type, and a ValueError as meeple's
    other refusals are."""


class NeedChance(Exception):
    """The engine asked for a random value the script does not hold yet."""

    def __init__(self, kind: tuple):
        super().__init__(f"chance node {kind}")
        self.kind = kind  # ("below", n) or ("happens", p): how a seed maps to an outcome

    @property
    def outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) pairs, as OpenSpiel wants them."""
        what, x = self.kind
        if what == "below":
            return [(i, 1.0 / x) for i in range(x)]
        return [(0, 1.0 - x), (1, x)] if 0.0 < x < 1.0 else [(int(x >= 1.0), 1.0)]


class ScriptedChance:
    """A `Chance` lookalike whose values come from a list of chance outcomes.

    `script` is shared by the states of one game line; `pos` is how many draws
    came before (the `counter` a seeded `Chance` would have). Every method makes
    the same draws in the same order as `Chance`'s.
    """

    __slots__ = ("script", "pos")

    def __init__(self, script: list[int], pos: int = 0):
        self.script, self.pos = script, pos

    def _draw(self, kind: tuple) -> tuple[int, "ScriptedChance"]:
        if self.pos < len(self.script):
            return self.script[self.pos], ScriptedChance(self.script, self.pos + 1)
        raise NeedChance(kind)

    def below(self, n: int) -> tuple[int, "ScriptedChance"]:
        if n <= 0:
            raise ValueError(f"below() needs n >= 1, got {n}")
        return self._draw(("below", n))

    def happens(self, p: float) -> tuple[bool, "ScriptedChance"]:
        x, nxt = self._draw(("happens", p))
        return bool(x), nxt

    def bits(self):
        raise TypeError("raw random bits have no outcome list; the engine must ask below() or happens()")

    def choice(self, items: Sequence):
        i, nxt = self.below(len(items))
        return items[i], nxt

    def shuffled(self, items: Sequence):
        out, ch = list(items), self
        for i in range(len(out) - 1, 0, -1):  # as Chance.shuffled: step i picks j in 0..i
            j, ch = ch.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out, ch

    def sample(self, items: Sequence, k: int):
        pool, ch = list(items), self
        if not 0 <= k <= len(pool):
            raise ValueError(f"cannot draw {k} from {len(pool)} items")
        for i in range(k):  # as Chance.sample
            j, ch = ch.below(len(pool) - i)
            pool[i], pool[i + j] = pool[i + j], pool[i]
        return pool[:k], ch

    def __deepcopy__(self, memo):
        return ScriptedChance(list(self.script), self.pos)


def seeded_outcome(seed: int, position: int, kind: tuple) -> int:
    """The outcome a meeple game with this seed draws at chance node `position` (chance version 1)."""
    ch = Chance(seed, position)
    if kind[0] == "below":
        return ch.below(kind[1])[0]
    return int(ch.happens(kind[1])[0])


# --- the game ------------------------------------------------------------------

def short_name(game: str | ModuleType) -> str:
    return PREFIX + game_module(game).NAME.replace("-", "_")


NONE = -1  # an optional whole number (`rounds`, `max_rerolls`) set to none: none of them allows -1


def _text(value: Any) -> Any:
    """A Config field as an OpenSpiel parameter. Tuples become space-separated text
    ("15 13 11"; "/" between inner tuples): OpenSpiel's game strings use commas
    between parameters. A one-value tuple ends in a space ("1 "), so that a game
    string (what `serialize` writes) reads it back as text, not as the number 1."""
    if value is None:
        return "none"
    if isinstance(value, tuple):
        if value and isinstance(value[0], tuple):
            return "/".join(_text(v) for v in value)
        text = " ".join("true" if v is True else "false" if v is False else str(v) for v in value)
        return text + " " if len(value) == 1 else text
    return value


def _optional_int(hint) -> bool:
    inner, optional = split_optional(hint)
    return optional and inner is int


def _field_params(config) -> dict[str, Any]:
    """Every field of a Config as an OpenSpiel parameter. An optional whole number is an
    int parameter with NONE (-1) for none: a text parameter would not survive a game
    string, which reads `rounds=2` back as an int."""
    types_ = type(config).field_types()
    params = {}
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if _optional_int(types_.get(f.name)):
            params[f.name] = NONE if value is None else value
        else:
            params[f.name] = _text(value)
    return params


def _parameters(mod: ModuleType) -> dict[str, Any]:
    params = _field_params(mod.Config())
    params["preset"] = "base"
    params["utility"] = "score"
    return params


def config_from(mod: ModuleType, params: dict[str, Any]):
    """The Config a parameter dict asks for: the preset, then every field that differs from base."""
    presets = mod.Config.presets()
    preset = params.get("preset", "base")
    if preset not in presets:
        raise ValueError(f"preset={preset!r} is not allowed: one of {', '.join(presets)}")
    defaults = _parameters(mod)
    types_ = mod.Config.field_types()
    changes = {}
    for name, value in params.items():
        if name in ("preset", "utility") or value == defaults[name]:
            continue
        if name not in types_:
            raise ValueError(f"unknown parameter {name!r}; allowed: {', '.join(defaults)}")
        if _optional_int(types_[name]) and value == NONE:
            value = None
        elif isinstance(value, str) and types_[name] is not str:
            # each "/"-part on its own: a one-value inner tuple is "1 " (see _text), and its space
            # must not join it to the next part ("1 /5 4" is 1/5,4, not "1,/5,4")
            value = parse_text(types_[name], "/".join(",".join(part.split()) for part in value.split("/")), name)
        changes[name] = value
    return dataclasses.replace(presets[preset], **changes)


def action_count(mod: ModuleType, config) -> int:
    """num_distinct_actions for this game and Config: the module's `action_bound(config)` (the most
    legal moves any of its states can offer), else ACTION_CAP. Refused if OpenSpiel cannot hold it."""
    bound = getattr(mod, "action_bound", None)
    count = ACTION_CAP if bound is None else bound(config)
    if count > MOST_ACTIONS:
        raise ValueError(f"{mod.NAME}: this config allows up to {count:,} legal moves in one state, more than "
                         f"OpenSpiel can number ({MOST_ACTIONS:,}); fewer max_cards, hand_size or draw_per_turn would do")
    return count


def _chance_bound(cfg) -> int:
    sizes = [2]
    for name in ("deck", "faces", "die"):
        value = getattr(cfg, name, None)
        if callable(value):
            value = value()
        if isinstance(value, (tuple, list)):
            sizes.append(len(value))
    return max(sizes)


class MeepleGame(pyspiel.Game):
    """One meeple game (module + Config) as an OpenSpiel game."""

    def __init__(self, mod: ModuleType, params: dict | None = None):
        params = dict(params or {})
        utility = params.get("utility", "score")
        if utility not in ("score", "win"):
            raise ValueError(f"utility={utility!r} is not allowed: 'score' or 'win'")
        config = config_from(mod, {**_parameters(mod), **params})
        n = config.players
        win = utility == "win"
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(mod, config),
            max_chance_outcomes=_chance_bound(config),
            num_players=n,
            min_utility=0.0 if win else -1e9,
            max_utility=1.0 if win else 1e9,
            utility_sum=1.0 if win else None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(mod, utility), info, params)
        self.name, self.config, self.utility = mod.NAME, config, utility

    @property
    def mod(self) -> ModuleType:
        return GAMES[self.name]

    def new_initial_state(self):
        return MeepleState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return MeepleObserver(self, iig_obs_type)


def _game_type(mod: ModuleType, utility: str = "score") -> pyspiel.GameType:
    """The game's type: with utility="win" constant-sum (the win shares add up to 1,
    as GameInfo's utility_sum says), with "score" general-sum."""
    sizes = [c.players for c in mod.Config.presets().values()]
    low = getattr(mod, "MIN_PLAYERS", min(sizes))
    high = getattr(mod, "MAX_PLAYERS", max(sizes))
    return pyspiel.GameType(
        short_name=short_name(mod),
        long_name=f"meeple {mod.TITLE}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM if utility == "win" else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=_parameters(mod),
    )


class MeepleState(pyspiel.State):
    """A meeple state, or a meeple step waiting for its chance outcomes."""

    def __init__(self, game: MeepleGame, state=None, moves: tuple = ()):
        super().__init__(game)
        self._game_name, self._config, self._utility = game.mod.NAME, game.config, game.utility
        self._script: list[int] = []
        self._start = 0  # where in the script the pending step's draws begin
        self._pending = None  # the decision waiting for chance, or None
        self._chance = None  # (outcomes, kind) of the NeedChance while at a chance node
        self._state = state
        self._legal_list = None  # legal_actions(self._state), asked once per completed step
        self._bound = game.num_distinct_actions()
        self._moves = moves  # texts of the decisions so far (for the history string)
        if state is None:
            self._advance()

    # the engine step, run again with each new outcome until it needs no more
    def _advance(self) -> None:
        ch = ScriptedChance(self._script, self._start)
        try:
            if self._state is None:
                st = self._mod.new_game(self._config, chance=ch)
            else:
                st = self._mod.apply(_with_chance(self._state, ch), self._pending)
        except NeedChance as need:
            self._chance = (need.outcomes, need.kind)
            return
        self._state, self._pending, self._chance, self._legal_list = st, None, None, None
        self._start = len(self._script)

    @property
    def _mod(self) -> ModuleType:  # by name: states are pickled when OpenSpiel clones them
        return GAMES[self._game_name]

    def current_player(self):
        if self._chance is not None:
            return pyspiel.PlayerId.CHANCE
        if self._state.is_over:
            return pyspiel.PlayerId.TERMINAL
        return self._state.current_player

    def _legal(self) -> list:
        # OpenSpiel asks for the legal ids, then applies one: list the engine's moves once per step
        if self._legal_list is None:
            legal = self._mod.legal_actions(self._state)
            if len(legal) > self._bound:  # a wrong action_bound: a bug
                raise pyspiel.SpielError(f"{len(legal)} legal moves exceed the game's bound of {self._bound}")
            self._legal_list = legal
        return self._legal_list

    def _legal_actions(self, player):
        return list(range(len(self._legal())))

    def chance_outcomes(self):
        return list(self._chance[0])

    def chance_kind(self) -> tuple:
        """("below", n) or ("happens", p) at a chance node (seeded_outcome uses it)."""
        return self._chance[1]

    def chance_position(self) -> int:
        return len(self._script)

    def _apply_action(self, action):
        if self._chance is not None:
            if not any(o == action for o, _ in self._chance[0]):
                shown = [o for o, _ in self._chance[0]]
                raise IllegalAction(f"chance outcome {action} is not one of the {len(shown)} here "
                                    f"({', '.join(map(str, shown[:8]))}{', ...' if len(shown) > 8 else ''})")
            self._script.append(int(action))
        else:
            legal = self._legal()
            if not 0 <= action < len(legal):
                raise IllegalAction(f"action {action} is not legal here: the legal ids are 0 to {len(legal) - 1}")
            self._pending = legal[action]
            self._moves += (f"P{self._state.current_player + 1}: {legal[action]}",)
        self._advance()

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {action}"
        return str(self._legal()[action])

    def is_terminal(self):
        return self._chance is None and self._state.is_over

    def returns(self):
        n = self._config.players
        if not self.is_terminal():
            return [0.0] * n
        if self._utility == "win":
            won = self._mod.winners(self._state)
            return [1.0 / len(won) if p in won else 0.0 for p in range(n)]
        return [float(x) for x in self._mod.scores(self._state)]

    def meeple_state(self):
        """The meeple state (the last completed step while at a chance node)."""
        return self._state

    def information_state_string(self, player=None):
        player = self.current_player() if player is None else player
        return _observation_text(self._mod.observation(self._state, player)) + " | " + " ; ".join(self._moves)

    def observation_string(self, player=None):
        player = self.current_player() if player is None else player
        return _observation_text(self._mod.observation(self._state, player))

    def resample_from_infostate(self, player, sampler):
        """A state the player cannot tell from this one: hidden cards and future chance resampled."""
        rng = random.Random(int(sampler() * 2**53))
        st = self._mod.determinize(self._mod.observation(self._state, player), rng)
        out = MeepleState(self.get_game(), _with_chance(st, ScriptedChance([], 0)), self._moves)
        return out

    def __deepcopy__(self, memo):
        # OpenSpiel clones a Python state with copy.deepcopy. meeple states are never
        # changed once made (apply returns a new one), so the clone shares it; only the
        # chance script, which grows at chance nodes, is copied.
        new = MeepleState(self.get_game(), self._state, self._moves)
        new._script, new._start = list(self._script), self._start
        new._pending, new._chance = self._pending, self._chance
        return new

    def __str__(self):
        events = getattr(self._state, "events", ())
        return "\n".join(list(events)[-3:]) + f"\nmoves: {len(self._moves)}, chance draws: {len(self._script)}"


def _with_chance(state, chance):
    st = copy.copy(state)
    st.chance = chance
    return st


def _observation_text(obs) -> str:
    fields = obs._asdict() if hasattr(obs, "_asdict") else {f.name: getattr(obs, f.name) for f in dataclasses.fields(obs)}
    return " ".join(f"{k}={_plain(v)}" for k, v in fields.items() if k != "config")


def _plain(value) -> str:
    if isinstance(value, (tuple, list)):
        return "[" + ",".join(_plain(v) for v in value) + "]"
    return str(value)


class MeepleObserver:
    """Observation strings only (no tensors): what `player` may see."""

    def __init__(self, game: MeepleGame, iig_obs_type):
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


def _game_class(mod: ModuleType) -> type:
    """A MeepleGame subclass for one game: OpenSpiel's registry wants a class
    (a plain function as factory crashes the interpreter at exit)."""

    def __init__(self, params=None):
        MeepleGame.__init__(self, mod, params)

    name = "".join(part.title() for part in mod.NAME.split("-")) + "Game"
    return type(name, (MeepleGame,), {"__init__": __init__, "__module__": __name__})


GAME_CLASSES = {}
for _mod in GAMES.values():
    GAME_CLASSES[_mod.NAME] = _game_class(_mod)
    pyspiel.register_game(_game_type(_mod), GAME_CLASSES[_mod.NAME])


def load(game: str | ModuleType, config=None, utility: str = "score") -> MeepleGame:
    """The OpenSpiel game for a meeple game and Config (every field passed as a parameter)."""
    mod = game_module(game)
    config = resolve_config(mod, config, "config must be")
    params = _field_params(config)
    params["utility"] = utility
    return pyspiel.load_game(short_name(mod), params)


# --- bots, both ways -------------------------------------------------------------

class MeepleBot(pyspiel.Bot):
    """A meeple bot (by name) playing in OpenSpiel (e.g. `evaluate_bots`)."""

    def __init__(self, game: MeepleGame, player: int, bot: str = "heuristic", seed: int = 0):
        pyspiel.Bot.__init__(self)
        self._mod, self._player = game.mod, player
        if bot not in self._mod.BOTS:
            raise ValueError(f"bot={bot!r} is not allowed: one of {', '.join(self._mod.BOTS)}")
        self._bot, self._rng = self._mod.BOTS[bot], random.Random(seed)

    def step(self, state):
        st = state.meeple_state()
        legal = self._mod.legal_actions(st)
        choice = self._bot(self._mod.observation(st, self._player), legal, self._rng)
        return legal.index(choice)

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def provides_policy(self):
        return False


def ismcts_bot(game: str | ModuleType, simulations: int = 100, uct_c: float = 2.0, rollouts: int = 1):
    """OpenSpiel's information-set MCTS as a meeple bot `(observation, legal, rng) -> action`.

    It searches a determinised copy of what the player saw, with the win share as
    utility, `simulations` playouts per move from random rollouts; the bot's rng seeds it.
    """
    from open_spiel.python.algorithms import ismcts, mcts

    mod = game_module(game)
    games: dict = {}

    def bot(observation, legal, rng):
        if len(legal) == 1:
            return legal[0]
        key = observation.config
        if key not in games:
            games[key] = load(mod, key, utility="win")
        ogame = games[key]
        np_rng = np.random.RandomState(rng.getrandbits(32))
        evaluator = mcts.RandomRolloutEvaluator(rollouts, np_rng)
        searcher = ismcts.ISMCTSBot(ogame, evaluator, uct_c, simulations, random_state=np_rng,
                                    allow_inconsistent_action_sets=True)
        st = mod.determinize(observation, rng)
        root = MeepleState(ogame, _with_chance(st, ScriptedChance([], 0)))
        return legal[searcher.step(root)]

    bot.__name__ = f"ismcts_{simulations}"
    return bot


def exact_value(state: MeepleState, policies) -> list[Fraction]:
    """Expected returns under per-player policies `f(state) -> {action: Fraction}`,
    summed over every chance outcome with Fractions (for small configs)."""
    if state.is_terminal():
        return [Fraction(r).limit_denominator() for r in state.returns()]
    if state.is_chance_node():
        kind = state.chance_kind()
        if kind[0] == "below":
            probs = [(o, Fraction(1, kind[1])) for o, _ in state.chance_outcomes()]
        else:
            p = Fraction(kind[1]).limit_denominator(10**9)
            probs = [(o, p if o == 1 else 1 - p) for o, _ in state.chance_outcomes()]
    else:
        probs = list(policies[state.current_player()](state).items())
    total = [Fraction(0)] * state.num_players()
    for action, p in probs:
        if p:
            child = state.child(action)
            total = [t + p * v for t, v in zip(total, exact_value(child, policies))]
    return total


__all__ = ["IllegalAction", "MeepleBot", "MeepleGame", "MeepleState", "NeedChance", "ScriptedChance", "exact_value",
           "ismcts_bot", "load", "seeded_outcome", "short_name"]
