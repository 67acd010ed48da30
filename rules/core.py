"""Playing a game to the end, recording it, and replaying a record.

Every game module (see `meeple.rules.PROTOCOL`) exposes the same names, so
`play` and `replay` work for all of them. A record stores each action as
its text; replay matches the text against the legal actions at that step,
so a saved game is readable and a tampered one fails loudly.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Iterable, Mapping, Sequence

from .chance import CHANCE, check_seed, check_version, start, version_of
from .config import SEAT_HANDICAPS, DuplicateKey, too_many_digits, unique_keys, without_bom
from .extras import OPTIONAL_BOTS, missing
from .files import shown_path
from .protocol import bot_rng, resolve_config
from .protocol import MAX_STEPS
from .registry import game_module

RECORD_FORMAT = "meeple-record/1"
RECORD_KEYS = ("format", "game", "config", "seed", "chance", "bots", "actions", "round_scores", "scores", "winners")  # Record.to_dict

Bot = Callable[[Any, list, random.Random], Any]
MAX_BOT_NAME = 80  # `meeple replay` prints every seat's bot name on one line


def parameter_info(game, name: str) -> tuple[str, str]:
    """(what it is, its rule numbers) for a Config parameter: a field (`bonus`), an
    element of a list field (`hand_sizes[1]`: the field's text) or a named number
    (an alias: its own text). From the game module's PARAMETERS, next to its Config;
    the CLI (`meeple rules`), the Explorer and the docs all read it here."""
    mod = game_module(game)
    name = name.strip()
    alias = mod.Config.aliases().get(name) if hasattr(mod.Config, "aliases") else None
    if alias is not None:
        return alias.doc, ", ".join(re.findall(r"\b[A-Z]+-\d+\b", alias.doc))
    field = name.split("[", 1)[0].strip()
    if field not in mod.PARAMETERS:
        raise ValueError(f"unknown parameter {name!r} for {mod.NAME}; allowed: {', '.join(mod.PARAMETERS)}")
    return mod.PARAMETERS[field]


def check_bots_arg(mod: ModuleType, bots) -> None:
    """ValueError unless `bots` is text or a list of names / functions (None, a number, a dict are not)."""
    if isinstance(bots, (bytes, Mapping)) or not isinstance(bots, (str, Iterable)):
        raise ValueError(f"bots must be bot names (text, comma-separated) or a list of names or functions, "
                         f"got {type(bots).__name__}; known: {', '.join(mod.BOTS)}")


def check_bot_name(mod: ModuleType, name, what: str) -> str:
    """`name` if a record may hold it and a terminal may print it: printable text of 1 to
    MAX_BOT_NAME characters. Not only the game's bots: the Stepper records the reader's seat as
    "you", and a custom bot function is recorded by its own name (`resolve_bots`)."""
    if isinstance(name, str) and name.strip() and name.isprintable() and len(name) <= MAX_BOT_NAME:
        return name
    # printed by every replay: a terminal escape in it would act on the reader's terminal
    raise ValueError(f"{what} must be printable text of 1 to {MAX_BOT_NAME} characters (no control characters or "
                     f"terminal escapes), got {shown_path(repr(name), 60)}; a bot of {mod.NAME} ({', '.join(mod.BOTS)}), "
                     f"'you' or a custom bot function's name")


def split_bots(mod: ModuleType, text: str, what: str = "bots") -> list[str]:
    """Comma-separated bot names, each stripped; ValueError for an empty one: "heuristic," is not two
    bots (it was counted as a second player: 'need 4 bots, got 2'). `what` names the field
    ("--bots" on the command line), the same words at every door."""
    bots = [b.strip() for b in text.split(",")]
    if len(bots) > 1 and not all(bots):
        flag = f"{what} " if what.startswith("-") else ""
        raise ValueError(f"{what} {shown_path(repr(text))} has an empty name (a comma at an end or two in a row): "
                         f"name one bot per seat, e.g. {flag}heuristic,random,random; known bots: {', '.join(mod.BOTS)}")
    return bots


def resolve_bots(mod: ModuleType, bots: Sequence[str | Bot] | str, players: int):
    """(names, callables) for a list of bot names/callables, one per player."""
    if isinstance(bots, str):
        bots = split_bots(mod, bots)
    check_bots_arg(mod, bots)
    bots = list(bots)
    if len(bots) == 1 and players > 1:
        bots = bots * players
    if len(bots) != players:
        raise ValueError(f"need {players} bots (one per player), got {len(bots)}")
    names, funcs = [], []
    for b in bots:
        if callable(b):  # its name goes into the record: one that could not be replayed is refused now
            names.append(check_bot_name(mod, getattr(b, "__name__", "custom"), "a bot function's __name__"))
            funcs.append(b)
        elif b in mod.BOTS:
            names.append(b)
            funcs.append(mod.BOTS[b])
        elif b in OPTIONAL_BOTS:  # a bot of an extra that is not installed: name the extra
            raise ValueError(str(missing(OPTIONAL_BOTS[b], f"the {b} bot")))
        else:
            raise ValueError(f"unknown bot {b!r} for {mod.NAME}; known bots: {', '.join(mod.BOTS)}")
    return tuple(names), funcs


@dataclass(frozen=True)
class Record:
    """One game: what was chosen and what came of it. JSON round-trips exactly."""

    game: str
    config: Any
    seed: int
    bots: tuple[str, ...]
    actions: tuple[str, ...]
    round_scores: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    chance: int = CHANCE  # the chance version the game was dealt from (a record without one: 1)
    state: Any = field(default=None, compare=False, repr=False)

    @property
    def events(self) -> tuple[str, ...]:
        return tuple(self.state.events) if self.state is not None else ()

    @property
    def finished(self) -> bool:
        return self.state is None or self.state.is_over

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "config": self.config.to_dict(),
            "seed": self.seed,
            # version 1's records never named it: written as they always were
            **({"chance": self.chance} if self.chance != 1 else {}),
            "bots": list(self.bots),
            "actions": list(self.actions),
            "round_scores": [list(r) for r in self.round_scores],
            "scores": list(self.scores),
            "winners": list(self.winners),
        }

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent)


def make_record(mod, config, seed, names, actions, state, chance: int | None = None) -> Record:
    """The Record of a game played to `state` by the seated `names` with `actions` (the replay file
    `meeple play --record` writes and the Stepper saves). `chance`: its chance version (by default
    the version of the state's own stream)."""
    if chance is None:
        chance = version_of(getattr(state, "chance", None)) or CHANCE
    return Record(
        chance=chance,
        game=mod.NAME,
        config=config,
        seed=seed,
        bots=tuple(names),
        actions=tuple(actions),
        round_scores=tuple(tuple(r) for r in mod.round_scores(state)),
        scores=tuple(mod.scores(state)),
        winners=tuple(mod.winners(state)),
        state=state,
    )


def play(game, config=None, bots: Sequence[str | Bot] | str = "random", seed: int = 0,
         on_move: Callable[[Any], None] | None = None, chance: int = CHANCE) -> Record:
    """Play one whole game with bots and return its Record (`chance`: the chance version, 1 or 2).

    `on_move(state)` is called after every action (the CLI counts moves with it:
    a game of lookahead bots can take a while)."""
    mod = game_module(game)
    config = resolve_config(mod, config, "config must be", files=True)
    check_seed(seed)
    names, funcs = resolve_bots(mod, bots, config.players)
    check_version(chance)
    rngs = [bot_rng(seed, seat, chance) for seat in range(config.players)]
    state = mod.new_game(config, seed, chance=start(seed, chance))
    actions: list[str] = []
    while not state.is_over:
        if len(actions) >= MAX_STEPS:
            raise RuntimeError(f"{mod.NAME} did not end within {MAX_STEPS} actions")
        p = state.current_player
        legal = mod.legal_actions(state)
        action = funcs[p](mod.observation(state, p), legal, rngs[p])
        if action not in legal:
            raise ValueError(f"bot {names[p]!r} chose {action!r}, which is not legal here")
        actions.append(str(action))
        state = mod.apply(state, action)
        if on_move is not None:
            on_move(state)
    return make_record(mod, config, seed, names, actions, state, chance)


def apply_text(mod, state, text: str):
    """Apply the legal action whose text is `text`, or raise a clear ValueError."""
    legal = mod.legal_actions(state)
    for a in legal:
        if str(a) == text:
            return mod.apply(state, a)
    shown = ", ".join(str(a) for a in legal[:12]) + (" ..." if len(legal) > 12 else "")
    raise ValueError(f"action {quote_short(text)} is not legal here; legal: {shown or 'none (game over)'}")


def quote_short(text, limit: int = 80) -> str:
    """repr(text), or of its first `limit` characters and how long it was (a 1 MB action
    text is not echoed back whole into a message)."""
    if not isinstance(text, str) or len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def replay(json_text: str) -> Record:
    """Rebuild a Record from its JSON, replaying every action; raises ValueError if it does not fit."""
    if not isinstance(json_text, (str, bytes, bytearray)):
        raise ValueError(f"not a meeple record: expected its JSON text, got {type(json_text).__name__}")
    try:
        return _replay(json_text)
    except RecursionError:  # json nests deeper than Python's stack; no record nests more than 3 levels
        raise ValueError("not a meeple record: the JSON is nested too deeply") from None


def _replay(json_text) -> Record:
    try:
        data = json.loads(without_bom(json_text), object_pairs_hook=unique_keys)
    except DuplicateKey as e:
        raise ValueError(f"not a meeple record: {e}") from None
    except (json.JSONDecodeError, UnicodeDecodeError, TypeError) as e:
        raise ValueError(f"not a meeple record: malformed JSON ({e})") from None
    except ValueError as e:
        if too_many_digits(e):
            raise ValueError(f"not a meeple record: {too_many_digits(e)}; no seed or score is that large") from None
        raise
    if not isinstance(data, dict):
        raise ValueError("not a meeple record: expected a JSON object")
    if data.get("format") != RECORD_FORMAT:
        raise ValueError(f"not a meeple record: format must be {RECORD_FORMAT!r}, got {data.get('format')!r}")
    unknown = sorted(set(data) - set(RECORD_KEYS))
    if unknown:
        raise ValueError(f"not a meeple record: unknown key(s) {', '.join(map(quote_short, unknown[:5]))}{' ...' if len(unknown) > 5 else ''}; "
                         f"allowed: {', '.join(RECORD_KEYS)}")
    for key, kind in [("game", str), ("config", dict), ("seed", int), ("bots", list), ("actions", list)]:
        if key not in data:
            raise ValueError(f"record is missing {key!r}")
        if key == "seed":
            check_seed(data[key], "record seed")  # "must be a whole number >= 0, got '7'", not "a int"
        elif not isinstance(data[key], kind) or isinstance(data[key], bool):
            raise ValueError(f"record field {key!r} must be a {kind.__name__}")
    mod = game_module(data["game"])
    config = mod.Config.from_dict(data["config"])
    # A record names every field: one left out would replay under this meeple's default, not the rules
    # the game was played by (a variant file is partial on purpose; a record is not). An empty seat
    # handicap is the one exception: to_dict leaves it out, and the records written before the
    # handicaps existed (issue 40; every other field is as old as the record format) lack it.
    lacking = [f for f in config.field_types() if f not in data["config"] and f not in SEAT_HANDICAPS]
    if lacking:
        raise ValueError(f"record config lacks field(s) {', '.join(lacking)}; a saved record names every field of its "
                         f"rules (only an empty seat handicap may be left out)")
    bots = data["bots"]
    if len(bots) != config.players or not all(isinstance(b, str) and b for b in bots):
        raise ValueError(f"record field 'bots' must name one bot per player ({config.players}), got {bots!r}")
    for i, name in enumerate(bots):
        check_bot_name(mod, name, f"record field 'bots': bot {i + 1}'s name")
    seed = check_seed(data["seed"], "record seed")
    # a record without "chance" was written before version 2 existed: version 1 replays it
    version = check_version(data.get("chance", 1), "record field 'chance'")
    if len(data["actions"]) > MAX_STEPS:  # play() stops there too: no record of ours is longer
        raise ValueError(f"record has {len(data['actions']):,} actions; a game ends within {MAX_STEPS:,}")
    state = mod.new_game(config, seed, chance=start(seed, version))
    for i, text in enumerate(data["actions"]):
        if not isinstance(text, str):
            raise ValueError(f"record action {i} must be text, got {text!r}")
        try:
            state = apply_text(mod, state, text)
        except ValueError as e:
            raise ValueError(f"record action {i}: {e}") from None
    rec = make_record(mod, config, seed, bots, data["actions"], state, version)
    for key in ("round_scores", "scores", "winners"):
        if key in data and data[key] != rec.to_dict()[key]:
            raise ValueError(
                f"record says {key} {data[key]} but replaying its actions gives {rec.to_dict()[key]}"
            )
    return rec
