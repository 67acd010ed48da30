"""What every game module and every tool that plays one builds on: the checks the
protocol (`meeple.rules.PROTOCOL`) asks for, written once.

- `check_seat`: a seat of this game, or a ValueError (every `observation` calls it);
- `resolve_config`: None, a variant file or a Config -> this game's Config (new_game,
  play, simulate, sweep, compare, tune: one message for a wrong one);
- `check_whole`: a whole number in a range (games, workers, a count), or a ValueError
  naming it and the range;
- `bot_rng` and `LazySeatRandom`: each seat's bot draws from its own stream, derived
  from the game seed (`core.play` seeds it at once, `sim.play` on first use);
- `protocol_state`: a game State's `==` and `_copy`, written once for the four games.

This module imports nothing of meeple but `chance`, so a game module can import it
(the game list, `registry`, imports the game modules: nothing here may import that).
A state's own rules (what is legal, how a move changes it) stay in the game module.
"""

from __future__ import annotations

import operator
import os
import _random
import random
import sys
from dataclasses import fields
from typing import Any

from .chance import CHANCE, SEAT, derive, stream

MAX_STEPS = 100_000  # far beyond any real game; stops a rules bug from hanging a run

__all__ = ["check_seat", "resolve_config", "check_whole", "bot_rng", "LazySeatRandom", "SeatRandom", "protocol_state"]


def check_seat(config, player) -> int:
    """`player` if it is a seat of this game (0 to players - 1), else a ValueError saying so.

    Every game's observation() calls it: a seat of -1 must not quietly mean the last one."""
    if type(player) is int and 0 <= player < config.players:
        return player  # the usual case, kept cheap: bots ask for an observation on every move
    if not isinstance(player, bool):
        try:
            seat = operator.index(player)  # numpy integers are seats too
        except TypeError:
            seat = None
        if seat is not None and 0 <= seat < config.players:
            return seat
    raise ValueError(f"seat {player!r} is not allowed: seats are 0 to {config.players - 1} ({config.players} players)")


def resolve_config(game, config, what: str | None = None, files: bool = False):
    """This game's Config from None (the defaults), a Config of this game, or (with `files`)
    a variant file's path; else a ValueError naming the game the value belongs to.

    `game` is a game module or its Config class. `what` starts the message ("config must
    be", "variant 'x' must be"); by default "<game> needs", as new_game says it: a game
    must not be played by another's rules."""
    cls = getattr(game, "Config", game)
    name = getattr(sys.modules.get(cls.__module__), "NAME", cls.__name__)
    if config is None:
        return cls()
    if isinstance(config, cls):
        return config
    if files and isinstance(config, (str, os.PathLike)):
        if isinstance(config, str) and os.path.splitext(config)[1].lower() not in (".json", ".toml"):
            # a preset's name or rule text is read only where a variant's text is (compare, the CLI): say how to
            # get either here, not just that the file name is wrong
            head = "config must be" if what is None else what
            if config in getattr(cls, "presets", dict)():
                hint = f"the preset is {cls.__name__}.presets()[{config!r}]"
            elif "=" in config:
                hint = f"rule text is {cls.__name__}().with_text([{config!r}])"
            else:
                hint = "a variant file's path ends in .json or .toml"
            raise ValueError(f"{head} a {name} Config, None for the defaults, or a variant file (.json or .toml), "
                             f"got {config!r}: {hint}")
        return cls.load(config)
    other = getattr(sys.modules.get(type(config).__module__), "NAME", None)
    got = f"a {other} Config" if other and other != name else f"{type(config).__name__} {config!r}"[:120]
    head = f"{name} needs" if what is None else what
    allowed = "None for the defaults, or a variant file" if files else "None for the defaults"
    raise ValueError(f"{head} a {name} Config (or {allowed}), got {got}")


def check_whole(value: Any, what: str, low: int, high: int | None = None) -> int:
    """`value` if it is an int from `low` to `high` (no upper bound when None; True and 3.0
    are not whole numbers here), else a ValueError naming `what` and the range."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        span = f"from {low:,} to {high:,}" if high is not None else f">= {low:,}"
        shown = repr(value)  # echoed cut: a saved setup may hand a megabyte
        raise ValueError(f"{what} must be a whole number {span}, got {shown if len(shown) <= 60 else shown[:57] + '...'}")
    return value


# --- each seat's bot stream ---------------------------------------------------------

def bot_rng(seed: int, seat: int, chance: int = CHANCE) -> random.Random:
    """Each seat's bot gets its own stream, from the game seed: chance version 1 derives its seed
    (blake2b of the labels), version 2 is `chance.stream(seed, SEAT + seat)`."""
    if chance == 1:
        return random.Random(derive(seed, "bot", seat))
    return stream(seed, SEAT + seat)


class SeatRandom(random.Random):
    """bot_rng(seed, seat)'s stream: what a LazySeatRandom becomes on first use."""


class LazySeatRandom(random.Random):
    """bot_rng(seed, seat, chance), seeded on first use (simulate gives one to every seat of every game).

    Seeding a Mersenne Twister and deriving its seed cost about 8 µs per seat per game
    (a tenth of a short race), and a rule-of-thumb bot that never breaks a tie never
    draws. The first call of any Random method seeds it and turns it into a
    SeatRandom in place, so every value it gives is bot_rng(seed, seat)'s."""

    def __init__(self, seed: int, seat: int, chance: int = CHANCE):  # not seeded yet: see _wake
        self._pending = (seed, seat, chance)

    def _wake(self) -> None:
        seed, seat, chance = self.__dict__.pop("_pending")
        self.__class__ = SeatRandom
        # random.Random(x).__init__ for an int x, without its two Python-level calls: the C seed
        # and gauss_next, exactly what Random.seed(x) does for an int (the same stream)
        _seed_mt(self, derive(seed, "bot", seat) if chance == 1 else seed * _PURPOSES + SEAT + seat)
        self.gauss_next = None

    def __reduce__(self):  # a copy or a pickle is of the seeded stream
        self._wake()
        return random.Random.__reduce__(self)


_seed_mt = _random.Random.seed
_PURPOSES = 256  # chance.stream's seed: game seed * 256 + purpose (tests/rules/test_chance2.py: the same stream)


def _waking(name: str):
    def method(self, *args, **kwargs):
        self._wake()
        return getattr(self, name)(*args, **kwargs)

    method.__name__ = name
    return method


for _name in dir(random.Random):  # every Random method, public or the _randbelow family, seeds first
    if not _name.startswith("__") and callable(getattr(random.Random, _name)):
        setattr(LazySeatRandom, _name, _waking(_name))


def protocol_state(*also: str):
    """A class decorator for a game's `State` dataclass, written above its `@dataclass`: the two
    methods each game's State had written out by hand, written once.

    - `==`: the same class, equal compared fields (the dataclass's `compare=True` ones) and
      equal `also`: properties over fields that are not compared as they are (`events`, a
      view of a log shared with the states before and after; Duck's `pile` and `facts`);
    - `_copy()`: a shallow copy, every field as it is (each is immutable, or shared on
      purpose: the logs). Its body is written out once per class, field by field, as
      dataclasses write `__init__`: the protocol's `step` copies the state on every move, and
      a loop of setattr takes five times as long (Bucket King's 27 fields: 7 us written out,
      38 us looped, 21 us through `__init__`; timeit, loaded machine).

    The State stays unhashable, as a dataclass with its own `__eq__` is."""
    def make(cls):
        names = [f.name for f in fields(cls)]
        compared = operator.attrgetter(*(f.name for f in fields(cls) if f.compare))
        shown = operator.attrgetter(*also) if also else (lambda state: ())

        def __eq__(self, other):
            if other.__class__ is not cls:
                return NotImplemented
            return compared(self) == compared(other) and shown(self) == shown(other)

        body = "".join(f"    new.{name} = self.{name}\n" for name in names)
        scope = {"new_object": object.__new__, "cls": cls}
        exec(f"def _copy(self):\n    new = new_object(cls)\n{body}    return new\n", scope)  # once per class
        copy = scope["_copy"]
        copy.__doc__ = f"A shallow copy: {', '.join(names)} (written out by protocol.protocol_state)."
        for name, method in (("__eq__", __eq__), ("_copy", copy)):
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            method.__module__ = cls.__module__
            setattr(cls, name, method)
        cls.__hash__ = None
        return cls

    return make
