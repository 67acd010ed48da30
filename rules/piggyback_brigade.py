"""The Piggyback Brigade (Alex Randolph; first published as Ruesselbande): a piglet race.

Piglets race down a narrow track of sections. A roll moves one piglet; a
piglet that lands on an occupied space climbs on top, and a piglet carries
every piglet above it when it moves. Some faces allow a reroll. Once per
game each player may move the empty first section to the end of the track.
The first piglet past the finish wins, with every piglet riding on it.
Rules are numbered as in seeds/piggyback_brigade.md (PB-1, ...).

Chance is only the die: every roll is an event inside `apply`; the
decisions (extend or roll, which piglet takes a roll, reroll or stop) are
the actions.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any, NamedTuple

from . import bots as _bots
from . import log as _log
from .chance import Chance, Chance2, below_at, check_seed, roll_in_place, start, stream_key
from .config import Alias, RuleConfig, need, need_range, need_seats, player_count_alias
from .protocol import MAX_STEPS, check_seat, protocol_state, resolve_config

NAME = "piggyback-brigade"
TITLE = "The Piggyback Brigade"
MIN_PLAYERS, MAX_PLAYERS = 2, 7

PIGLET_COLOURS = (
    "red", "blue", "yellow", "green", "purple", "orange", "pink",
    "brown", "grey", "teal", "white", "black", "gold", "navy",
)
SECTION_NAMES = "ABCDEFGHIJKLMNOP"
FACE_COLOURS = ("white", "black")
YES, NO, IF_LAST = "yes", "no", "if-last"  # reroll rules of a face (PB-6, PB-7)
REROLL_RULES = (YES, NO, IF_LAST)
BEFORE, INSTEAD = "before", "instead"  # when an extension is made (PB-12)

# PB-1: eight double-sided sections of 2 or 3 spaces; exact layout unknown.
SOURCE_SECTIONS = (2, 3, 2, 3, 2, 3, 2, 3)
# PB-5/PB-6/PB-7: white 1-4, black 1 and black 3 (RULES-NOTES section 3).
SOURCE_FACES = (1, 2, 3, 4, 1, 3)
SOURCE_FACE_COLOURS = ("white", "white", "white", "white", "black", "black")
SOURCE_REROLLS = (YES, YES, YES, YES, IF_LAST, IF_LAST)
# PB-16: the published die and rule: a 1 of either colour rerolls, a black 3 only when last.
PUBLISHED_FACES = (1, 1, 2, 3, 3, 4)
PUBLISHED_FACE_COLOURS = ("white", "black", "white", "white", "black", "white")
PUBLISHED_REROLLS = (YES, YES, NO, NO, IF_LAST, NO)

EXACT_REROLL_BOUND = 20  # exact_turn_distance's cap when the rules set none

# Phases of a turn: what the current player is deciding.
TURN = "turn"  # start of a turn with an extension possible: extend or roll
CHOOSE = "choose"  # a face is rolled; which of my piglets takes it
REROLL = "reroll"  # my piglet moved on a reroll face: reroll or stop
OVER = "over"


class Action(NamedTuple):
    """A decision: "roll", "extend", "reroll", "stop", or "move" (which piglet takes the roll)."""

    kind: str
    piglet: int = -1

    def __str__(self) -> str:
        if self.kind == "move":
            return f"move the {PIGLET_COLOURS[self.piglet]} piglet"
        if self.kind == "extend":
            return "extend the track"
        return self.kind


ROLL = Action("roll")
EXTEND = Action("extend")
ROLL_AGAIN = Action("reroll")
STOP = Action("stop")
MOVES = tuple(Action("move", i) for i in range(len(PIGLET_COLOURS)))


@dataclass(frozen=True)
class Config(RuleConfig):
    """Every number of The Piggyback Brigade; defaults are the source text's game."""

    players: int = 4
    piglets: int = 7  # figures in the box (PB-2)
    piglets_each: tuple[int, int, int, int, int, int] = (2, 2, 1, 1, 1, 1)  # for 2..7 players
    sections: tuple[int, ...] = SOURCE_SECTIONS  # spaces per section, in track order (PB-1)
    faces: tuple[int, ...] = SOURCE_FACES  # PB-5
    face_colours: tuple[str, ...] = SOURCE_FACE_COLOURS
    rerolls: tuple[str, ...] = SOURCE_REROLLS  # per face: yes / no / if-last (PB-6, PB-7)
    max_rerolls: int | None = None  # per piglet per turn; None: unlimited (PB-8)
    extensions: tuple[int, int, int, int, int, int] = (2, 2, 1, 1, 1, 1)  # each, for 2..7 players
    extend_timing: str = BEFORE  # PB-12
    seat_spaces: tuple[int, ...] = ()  # the space each seat's piglets start on, Player 1 first; empty: none (PB-17)

    def __post_init__(self):
        need_range(self, "players", MIN_PLAYERS, MAX_PLAYERS)
        need(
            1 <= self.piglets <= len(PIGLET_COLOURS),
            "piglets", self.piglets, f"1 to {len(PIGLET_COLOURS)} piglet figures",
        )
        need(
            all(1 <= k <= 4 for k in self.piglets_each),
            "piglets_each", self.piglets_each, "1 to 4 piglets per player, for 2..7 players",
        )
        each = self.piglets_per_player
        need(
            self.players * each <= self.piglets,
            "players", self.players,
            f"at most {self.piglets // each} players: each runs {each} piglet(s) "
            f"and there are only {self.piglets} piglets",
        )
        need(
            1 <= len(self.sections) <= len(SECTION_NAMES),
            "sections", self.sections, f"1 to {len(SECTION_NAMES)} sections",
        )
        need(
            all(1 <= n <= 9 for n in self.sections),
            "sections", self.sections, "every section has 1 to 9 spaces (an empty section is not a track)",
        )
        need(
            1 <= len(self.faces) <= 20,
            "faces", self.faces, "a die with 1 to 20 faces (a die with no faces cannot be rolled)",
        )
        need(
            all(1 <= v <= 9 for v in self.faces),
            "faces", self.faces, "face values 1 to 9 (every roll moves forward)",
        )
        need(
            len(self.face_colours) == len(self.faces) and all(c in FACE_COLOURS for c in self.face_colours),
            "face_colours", self.face_colours,
            f"one of {'/'.join(FACE_COLOURS)} for each of the {len(self.faces)} faces",
        )
        need(
            len(self.rerolls) == len(self.faces) and all(r in REROLL_RULES for r in self.rerolls),
            "rerolls", self.rerolls,
            f"one of {'/'.join(REROLL_RULES)} for each of the {len(self.faces)} faces",
        )
        need(
            self.max_rerolls is None or 0 <= self.max_rerolls <= 99,
            "max_rerolls", self.max_rerolls, "0 to 99, or none (unlimited)",
        )
        need(
            all(0 <= k <= 9 for k in self.extensions),
            "extensions", self.extensions, "0 to 9 extensions per player, for 2..7 players",
        )
        need(
            self.extend_timing in (BEFORE, INSTEAD),
            "extend_timing", self.extend_timing, f"{BEFORE} (then roll) or {INSTEAD} (of the whole turn)",
        )
        need_seats(self, "seat_spaces", 0, self.spaces, f" (0: before the start; {self.spaces}: the last space)")

    @classmethod
    def presets(cls) -> dict[str, "Config"]:
        return {
            "base": cls(),
            "published-die": cls(
                faces=PUBLISHED_FACES, face_colours=PUBLISHED_FACE_COLOURS, rerolls=PUBLISHED_REROLLS
            ),
            "long-track": cls(sections=(3,) * 8),
            "no-extension": cls(extensions=(0,) * 6),
            "extend-instead": cls(extend_timing=INSTEAD),
        }

    @classmethod
    def aliases(cls) -> dict[str, Alias]:
        """Names a designer uses for the per-player-count tables (PB-2, PB-12)."""
        return {
            "piglets_per_player": player_count_alias("piglets_each", MIN_PLAYERS, "piglets each player runs (PB-2)"),
            "extensions_per_player": player_count_alias("extensions", MIN_PLAYERS, "extensions each player may use (PB-12)"),
        }

    @property
    def piglets_per_player(self) -> int:
        return self.piglets_each[self.players - MIN_PLAYERS]

    @property
    def extensions_per_player(self) -> int:
        return self.extensions[self.players - MIN_PLAYERS]

    @property
    def spaces(self) -> int:
        return sum(self.sections)

    def owner(self, piglet: int) -> int:
        return piglet // self.piglets_per_player

    def face_text(self, face: int) -> str:
        return f"{self.face_colours[face]} {self.faces[face]}"


# What each Config number means and the rule it comes from (seeds/piggyback_brigade.md): one source
# for `meeple rules`, the Explorer and the docs (a test checks every field has one).
PARAMETERS = {
    "players":       ("players at the table, 2 to 7", "PB-2"),
    "piglets":       ("piglet figures in the box", "PB-2"),
    "piglets_each":  ("piglets each player runs, for 2, 3, 4, 5, 6, 7 players", "PB-2, PB-11"),
    "sections":      ("spaces in each track section, in track order", "PB-1"),
    "faces":         ("the die's faces: spaces moved", "PB-4, PB-5"),
    "face_colours":  ("each face's colour, white or black", "PB-5"),
    "rerolls":       ("after each face: reroll yes, no, or if-last (only when the piglet was last)", "PB-6, PB-7"),
    "max_rerolls":   ("rerolls per piglet per turn; none = no limit", "PB-8"),
    "extensions":    ("times each player may move the first section to the end, for 2 to 7 players", "PB-12"),
    "extend_timing": ("an extension comes before the roll, or instead of the whole turn", "PB-12"),
    "seat_spaces":   ("the space each seat's piglets start on, Player 1 first (0 = before the start); empty = none", "PB-17"),
}


@protocol_state("events")
@dataclass(slots=True)
class State:
    """The whole race at one moment (nothing is hidden but the future rolls)."""

    config: Config
    chance: Chance
    current_player: int | None
    phase: str  # TURN, CHOOSE, REROLL or OVER
    face: int  # index of the face rolled last (-1 before any roll)
    piglet: int  # the piglet now rolling (-1 none)
    rerolls: int  # rerolls that piglet has used this turn
    pending: tuple[int, ...]  # current player's piglets still to roll this turn
    order: tuple[int, ...]  # section ids in track order (PB-12 rotates it)
    stacks: tuple[tuple[int, ...], ...]  # per space along the track: piglets bottom to top
    where: tuple[int, ...]  # per piglet: -1 start, a space index, or len(stacks) = finished
    extensions_left: tuple[int, ...]
    won: tuple[int, ...] = ()  # winning seats, once over
    round: int = 0  # one race: always 0
    is_over: bool = False
    # Bookkeeping for statistics (game_stats); no rule reads it:
    rerolls_taken: tuple[int, ...] = ()  # per seat, rerolls chosen in the whole race
    rerolls_declined: tuple[int, ...] = ()  # per seat, "stop" when a reroll was allowed
    finish_group: tuple[int, ...] = ()  # the piglets that crossed the finish, bottom to top
    # The event log, shared with the states before and after this one (rules/log.py): O(1) appends;
    # None in simulate's own states and in sampled worlds, where nobody reads it.
    _events: list | None = field(default_factory=list, compare=False, repr=False)
    _n_events: int = field(default=0, compare=False, repr=False)
    # Called with the state at the end of every turn (new_game's `turn_end`; simulate counts turns with it).
    _turn_end: Any = field(default=None, compare=False, repr=False)
    # _setup_of(config), kept at hand: the engine reads it on every roll (a lookup costs ~3% of a game).
    _setup: Any = field(default=None, compare=False, repr=False)

    events = _log.events_property()


@dataclass(frozen=True, slots=True)
class Observation:
    """What a seat sees: everything on the table (only the future rolls are unknown)."""

    player: int
    config: Config
    current_player: int | None
    phase: str
    face: int
    piglet: int
    rerolls: int
    pending: tuple[int, ...]
    order: tuple[int, ...]
    stacks: tuple[tuple[int, ...], ...]
    where: tuple[int, ...]
    extensions_left: tuple[int, ...]
    won: tuple[int, ...]
    is_over: bool


# --- the track ----------------------------------------------------------------

def _seat(p: int) -> str:
    return f"Player {p + 1}"


def _names(piglets) -> str:
    names = [PIGLET_COLOURS[q] for q in piglets]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _move(stacks: list, where: list, piglet: int, steps: int):
    """PB-9/PB-10/PB-13 in place: move `piglet` with everything above it.

    `stacks` is a list of lists (per space, bottom to top) and `where` a list (per
    piglet); both change. Returns (group moved, destination index, how many piglets
    it landed on: stacks[dest][:that]); a destination of len(stacks) means the group
    crossed the finish.
    """
    i = where[piglet]
    if i < 0:
        group = [piglet]  # piglets before the start stand in a line, never stacked
    else:
        stack = stacks[i]
        h = stack.index(piglet)
        group = stack[h:]
        del stack[h:]
    dest = i + steps
    if dest >= len(stacks):
        dest, under = len(stacks), 0
    else:
        stack = stacks[dest]
        under = len(stack)
        stack += group
    for q in group:
        where[q] = dest
    return group, dest, under


def _moved(stacks, where, piglet: int, steps: int) -> tuple[list, list]:
    """(stacks, where) after _move, as new lists; the given ones (lists or tuples) are
    left as they were: a bot's what-if copies only the two spaces a move touches."""
    stacks, where = list(stacks), list(where)
    i = where[piglet]
    for k in (i, i + steps):
        if 0 <= k < len(stacks):
            stacks[k] = list(stacks[k])
    _move(stacks, where, piglet, steps)
    return stacks, where


def move(stacks, piglet: int, steps: int):
    """Move `piglet` `steps` spaces on `stacks` (for each space, the piglets
    bottom to top) and return the new stacks. The piglet carries every piglet
    above it (PB-10); it lands on top of whatever stands there (PB-9). A
    piglet found on no space stands before the start. A group that moves
    past the last space has crossed the finish and leaves the track (PB-13).
    """
    stacks = tuple(tuple(s) for s in stacks)
    if type(steps) is not int or steps < 1:
        raise ValueError(f"steps must be a whole number >= 1, got {steps!r}")
    found = {q: i for i, s in enumerate(stacks) for q in s}
    if len(found) != sum(map(len, stacks)):
        raise ValueError("a piglet stands on two spaces at once")
    size = max([piglet, *found]) + 1
    where = [found.get(q, -1) for q in range(size)]
    return tuple(map(tuple, _moved(stacks, where, piglet, steps)[0]))


def place(state, piglet: int):
    """Where a piglet is: "start", "finish", or (section name, space 1-based in that section).

    The place names a section and a space, so an extension (PB-12) does not
    change the place of any piglet on the track.
    """
    i = state.where[piglet]
    if i < 0:
        return "start"
    if i >= len(state.stacks):
        return "finish"
    for sec in state.order:
        size = state.config.sections[sec]
        if i < size:
            return (SECTION_NAMES[sec], i + 1)
        i -= size
    raise AssertionError("space beyond the track")


_LABELS: dict[tuple, tuple[str, ...]] = {}


def _place_text(state, piglet: int) -> str:
    """"space 7 (section C, space 2)", "the start" or "the finish" (labels cached per layout)."""
    i = state.where[piglet]
    if i < 0:
        return "the start"
    key = (state.config.sections, state.order)
    labels = _LABELS.get(key)
    if labels is None:
        if len(_LABELS) > 4096:  # many custom layouts: start afresh rather than grow
            _LABELS.clear()
        labels = [f"space {k + 1} (section {SECTION_NAMES[sec]}, space {j + 1})"
                  for k, (sec, j) in enumerate((sec, j) for sec in state.order
                                               for j in range(state.config.sections[sec]))]
        labels = _LABELS[key] = tuple(labels) + ("the finish",)
    return labels[i]


def can_extend(state) -> bool:
    """PB-12: the first section may move to the end when no piglet stands on it."""
    k = state.config.sections[state.order[0]]
    for w in state.where:
        if 0 <= w < k:
            return False
    return True


def is_last(where, piglet: int) -> bool:
    """PB-7: no piglet stands on an earlier space (riders on the same stack are not behind)."""
    return where[piglet] == min(where)


class _Setup:
    """What a Config fixes for the whole race, worked out once per Config: the
    engine and the heuristic read it on every roll (a Config's properties and
    sums cost more than a tuple lookup, and simulate plays thousands of games)."""

    __slots__ = ("config", "spaces", "n_faces", "steps", "again", "max_rerolls",
                 "owner", "piglets_of", "next_seat", "face_sum", "mean_face", "finish_likely", "_turn_mean",
                 "players", "order", "extensions", "seat_spaces")

    def __init__(self, cfg: Config):
        k = cfg.piglets_per_player
        self.config = cfg
        self.spaces = cfg.spaces
        self.n_faces = len(cfg.faces)
        self.steps = cfg.faces  # spaces each face moves (PB-5)
        # PB-6/PB-7 per face: True rerolls, False does not, None only if the piglet was last
        self.again = tuple(True if r == YES else None if r == IF_LAST else False for r in cfg.rerolls)
        self.max_rerolls = cfg.max_rerolls  # PB-8
        self.owner = tuple(cfg.owner(q) for q in range(cfg.players * k))
        self.piglets_of = tuple(tuple(range(p * k, p * k + k)) for p in range(cfg.players))  # PB-2
        self.next_seat = tuple((p + 1) % cfg.players for p in range(cfg.players))  # PB-3
        # what _start lays out for every race
        self.players = cfg.players
        self.order = tuple(range(len(cfg.sections)))
        self.extensions = cfg.extensions_per_player
        self.seat_spaces = cfg.seat_spaces
        # for the heuristic
        self.face_sum = sum(cfg.faces)
        self.mean_face = self.face_sum / self.n_faces
        self.finish_likely = tuple(_finish_chance(cfg, d) >= 0.5 for d in range(cfg.spaces + 1))
        self._turn_mean = None

    @property
    def turn_mean(self) -> float:
        """_turn_mean(config), computed on first use (exact sums: only the heuristic needs it)."""
        if self._turn_mean is None:
            self._turn_mean = _turn_mean(self.config)
        return self._turn_mean


_SETUPS: dict[int, _Setup] = {}  # id(config) -> its _Setup; an entry keeps its Config alive, so ids stay unique


def _setup_of(cfg: Config) -> _Setup:
    setup = _SETUPS.get(id(cfg))
    if setup is None:
        if len(_SETUPS) > 256:  # many configs (a sweep): start afresh rather than grow
            _SETUPS.clear()
        setup = _SETUPS[id(cfg)] = _Setup(cfg)
    return setup


# --- the game -----------------------------------------------------------------

class Core:
    """The race as a lean loop holds it (issue 21): plain lists and ints, the rules applied in place.

    Every rule below works on a Core. A State is a view of one: new_game, apply and step read
    the State into a Core (`_core_of`), play the rules on it and write it back (`_put`), and
    simulate's fast loop (`play_core`) plays a whole race on one Core with no State until the
    end. The fields are the State's, under the same names (so `place`, `can_extend`,
    `progress`, `game_stats` and `check_state` read either), with lists for what changes:
    `stacks` (a list per space), `where`, `extensions_left`, `rerolls_taken`,
    `rerolls_declined`. Chance: the seeded stream as (`key`, `counter`), drawn in place
    (`_roll`: the values Chance(seed, counter).below gives), or `chance`, any Chance lookalike
    the State held (a test's script, the OpenSpiel wrapper's). `sink` is the State whose
    event log the rules append to (None: no text); `turn_end(core)` is called at every
    turn's end."""

    __slots__ = ("config", "setup", "chance", "seed", "key", "counter", "current_player", "phase", "face",
                 "piglet", "rerolls", "pending", "order", "stacks", "where", "extensions_left", "won", "round",
                 "is_over", "rerolls_taken", "rerolls_declined", "finish_group", "sink", "turn_end", "leaders")


_new = object.__new__


def _core_of(s: State) -> Core:
    """A Core holding what State `s` holds (lists copied out of its tuples)."""
    c = _new(Core)
    c.config = s.config
    c.setup = s._setup or _setup_of(s.config)
    ch = s.chance
    if type(ch) is Chance:  # the seeded stream: drawn in place
        c.chance, c.seed, c.counter, c.key = None, ch.seed, ch.counter, stream_key(ch.seed)
    else:
        c.chance = ch
    c.current_player, c.phase, c.face, c.piglet, c.rerolls = s.current_player, s.phase, s.face, s.piglet, s.rerolls
    c.pending, c.order, c.won, c.round, c.is_over = s.pending, s.order, s.won, s.round, s.is_over
    c.stacks = [list(x) for x in s.stacks]
    c.where = list(s.where)
    c.extensions_left = list(s.extensions_left)
    c.rerolls_taken, c.rerolls_declined = list(s.rerolls_taken), list(s.rerolls_declined)
    c.finish_group = s.finish_group
    c.sink = s if s._events is not None else None
    f = s._turn_end
    c.turn_end = None if f is None else (lambda core: f(_put(core, s)))  # the callback sees the State then
    return c


def _put(c: Core, s: State) -> State:
    """Write Core `c` into State `s` (tuples) and return `s`."""
    s.chance = Chance(c.seed, c.counter) if c.chance is None else c.chance
    s.current_player, s.phase, s.face, s.piglet, s.rerolls = c.current_player, c.phase, c.face, c.piglet, c.rerolls
    s.pending, s.order, s.won, s.round, s.is_over = c.pending, c.order, c.won, c.round, c.is_over
    s.stacks = tuple(map(tuple, c.stacks))
    s.where = tuple(c.where)
    s.extensions_left = tuple(c.extensions_left)
    s.rerolls_taken, s.rerolls_declined = tuple(c.rerolls_taken), tuple(c.rerolls_declined)
    s.finish_group = c.finish_group
    s._setup = c.setup
    return s


_roll = roll_in_place  # PB-4: the die: below(n) of the game's chance, drawn in place (one function for both cores)


def new_game(config: Config | None = None, seed: int = 0, chance: Chance | None = None, events: bool = True,
             turn_end=None) -> State:
    """A new race; `events=False` keeps no event text (simulate's own states, never shown).
    `turn_end(state)` is called at the end of every turn, decision or not (PB-3, see _turn_over)."""
    config = resolve_config(Config, config)
    c = _start(config, start(check_seed(seed)) if chance is None else chance)
    state = _new(State)
    state.config, state._events, state._n_events, state._turn_end = config, [] if events else None, 0, turn_end
    _put(c, state)
    if events:
        c.sink = state
        _log.say(
            state,
            f"The race starts: {config.players} players, "
            + (
                "one piglet each"
                if config.piglets_per_player == 1
                else f"{config.piglets_per_player} piglets each"
            )
            + f", {config.spaces} spaces in {len(config.sections)} sections.",
        )
    if turn_end is not None:
        c.turn_end = lambda core: turn_end(_put(core, state))  # the callback sees the State then
    _begin(c)
    return _put(c, state)


def _begin(c: Core) -> None:
    """Play a race just set up (_start) to its first decision: Player 1's turn (PB-3)."""
    _run(c, None, fresh=True)


def _start(config: Config, chance) -> Core:
    """The race before its first roll (PB-2, PB-3): every piglet before the start, no text, no turn hook."""
    c = _new(Core)
    setup = c.setup = _setup_of(config)
    c.config = config
    if type(chance) is Chance:  # the seeded stream: drawn in place
        c.chance, c.seed, c.counter, c.key = None, chance.seed, chance.counter, stream_key(chance.seed)
    else:
        c.chance = chance
    players = setup.players
    c.current_player = players - 1  # _run starts the next seat: Player 1 (PB-3)
    c.phase, c.face, c.piglet, c.rerolls, c.pending = TURN, -1, -1, 0, ()
    c.order = setup.order
    c.stacks = [[] for _ in range(setup.spaces)]
    c.where = [-1] * len(setup.owner)
    if setup.seat_spaces:  # PB-17: a head start, stacked in seat order (Player 1's piglets lowest)
        for p, space in enumerate(setup.seat_spaces):
            for q in setup.piglets_of[p] if space else ():
                c.stacks[space - 1].append(q)
                c.where[q] = space - 1
    c.extensions_left = [setup.extensions] * players
    c.rerolls_taken, c.rerolls_declined = [0] * players, [0] * players
    c.won, c.round, c.is_over, c.finish_group = (), 0, False, ()
    c.sink = c.turn_end = None
    return c


def _turn_over(c: Core) -> None:
    """PB-3: a player's turn is over (its last roll moved, or an extension was the whole
    turn, PB-12); the next turn has not begun. A turn may hold no decision at all (a
    single roll with no reroll allowed), so it can end inside another player's action."""
    if c.turn_end is not None:
        c.turn_end(c)


def _said_roll(c: Core, face: int, piglet: int, group, dest: int, under: int, before: str, chosen: bool) -> None:
    """The event of a roll that moved `group` to `dest`, onto `under` piglets (PB-9 to PB-13)."""
    cfg = c.config
    p = c.current_player
    if chosen:  # the roll was already announced (PB-11)
        text = f"{_seat(p)} gives the {cfg.face_text(face)} to the {PIGLET_COLOURS[piglet]} piglet: it"
    else:
        text = f"{_seat(p)} rolls a {cfg.face_text(face)}: the {PIGLET_COLOURS[piglet]} piglet"
    if len(group) > 1:
        text += f" carrying {_names(group[1:])}"
    if dest >= len(c.stacks):
        _log.say(c.sink, text + f" moves {cfg.faces[face]} from {before} past the finish.")
    else:
        text += f" moves {cfg.faces[face]} from {before} to {_place_text(c, piglet)}"
        _log.say(c.sink, text + (f", onto {_names(c.stacks[dest][:under])}." if under else "."))


def _finish(c: Core, group) -> None:
    """PB-14: the group that crossed the finish wins; its owners are the winners."""
    owner = c.setup.owner
    c.won = tuple(sorted({owner[q] for q in group}))
    c.finish_group = tuple(group)
    c.is_over = True
    c.phase = OVER
    c.current_player = None
    c.pending = ()
    if c.sink is not None:
        riders = f" carrying {_names(group[1:])}" if len(group) > 1 else ""
        _log.say(
            c.sink,
            f"Race over: the {PIGLET_COLOURS[group[0]]} piglet{riders} wins; "
            + " and ".join(_seat(p) for p in c.won)
            + (" win." if len(c.won) > 1 else " wins."),
        )


def _run(c: Core, action: Action | None, fresh: bool = False, bots=None) -> int:
    """The rules' one loop: apply the decision `action` to the Core (None: no decision), then
    roll on (PB-3 to PB-14) until the next decision or the race's end. Returns the decisions
    the loop took itself (below).

    Turns pass by seat (PB-3); each pending piglet rolls in turn (PB-11). `fresh`: no turn is
    under way yet (the race starts). Without `bots` (new_game, step) the loop stops at the next
    decision, the Core's phase saying which. simulate's fast loop (play_core) passes `bots` =
    (how, draws, rngs, seat_funcs, checked, seat_names): each seat's bot then chooses inline, on the
    Core (how 1: random_bot's draw, written out; 2: the heuristic's _decide on its narrow view;
    3: a bot that reads no observation, handed None), and the loop plays the race to its end.
    The turn's pending piglets, the moving piglet and its rerolls are held in locals, written
    back before anything else reads the Core (a turn_end callback, the race's end, the return).
    """
    setup = c.setup
    n_faces, again_of, steps, spaces, max_rerolls = (setup.n_faces, setup.again, setup.steps, setup.spaces,
                                                     setup.max_rerolls)
    next_seat, piglets_of = setup.next_seat, setup.piglets_of
    seeded = c.chance is None  # the seeded stream, drawn in place (_roll, inlined: the commonest draw)
    key = c.key if seeded else None
    # simulate's fast loop on chance version 2: the dice drawn in place too (Chance2.below's values, without
    # a Chance2 per roll); c.chance is written back when the race ends (nothing reads it before)
    dice = c.chance.streams if bots is not None and type(c.chance) is Chance2 else None
    if dice is not None:
        rolled, at, deal = dice.dice, c.chance.dice, c.chance.deal
    sink, turn_end = c.sink, c.turn_end
    note = c.leaders.append if turn_end is _note_leader else None  # simulate's fast loop: the leaders noted inline
    owner = setup.owner
    stacks, where = c.stacks, c.where  # (the Core's own lists: an extension makes new ones, read again)
    if bots is not None:
        how, draws, rngs, seat_funcs, checked, seat_names = bots
    p = c.current_player
    pending, piglet, rerolls = c.pending, c.piglet, c.rerolls
    decisions = 0
    face = None
    chosen = False
    while True:
        if action is ROLL:  # the commonest decisions first, by identity: on to the roll
            pass
        elif action is not None:  # the decision (PB-6 to PB-8, PB-11, PB-12)
            kind = action.kind
            if kind == "reroll":
                rerolls += 1
                c.rerolls_taken[p] += 1
                if seeded:
                    counter = c.counter
                    c.counter = counter + 1
                    face = below_at(key, counter, n_faces)
                elif dice is not None:
                    face = ((rolled[at] if at < len(rolled) else dice.more_dice(at)) * n_faces) >> 64
                    at += 1
                else:
                    face = _roll(c, n_faces)
            elif kind == "move":
                piglet = action.piglet
                pending = tuple(q for q in pending if q != piglet)
                rerolls = 0
                face, chosen = c.face, True
            elif kind == "stop":
                c.rerolls_declined[p] += 1
            elif kind == "extend":
                _extend(c)
                stacks, where = c.stacks, c.where
                if c.config.extend_timing == INSTEAD:
                    pending = ()  # the extension was the whole turn
            # "roll": on to the roll
        while True:  # the rolls, up to the next decision
            if face is not None:  # move the piglet by the rolled face
                again = again_of[face]  # PB-6
                if again is None:
                    again = where[piglet] == min(where)  # PB-7: judged before this roll (is_last, inlined)
                if sink is not None:  # simulate's own races keep no event text: skip building it
                    before = _place_text(c, piglet)
                    group, dest, under = _move(stacks, where, piglet, steps[face])
                    _said_roll(c, face, piglet, group, dest, under, before, chosen)
                else:  # _move, inlined (PB-9, PB-10, PB-13): the commonest step of a race
                    i = where[piglet]
                    if i < 0:
                        group = [piglet]
                    else:
                        stack = stacks[i]
                        h = stack.index(piglet)
                        group = stack[h:]
                        del stack[h:]
                    dest = i + steps[face]
                    if dest < spaces:
                        stacks[dest] += group
                    else:
                        dest = spaces
                    for q in group:
                        where[q] = dest
                if dest >= spaces:
                    if dice is not None:
                        c.chance = Chance2(dice, deal, at)
                    c.pending, c.piglet, c.rerolls = pending, piglet, rerolls
                    _turn_over(c)  # the winning roll ends the last turn
                    _finish(c, group)
                    return decisions
                if again and (max_rerolls is None or rerolls < max_rerolls):  # PB-8
                    c.phase = REROLL
                    c.face = face
                    break
            chosen = False
            if not pending:
                if fresh:
                    fresh = False
                elif note is not None:  # play_core's _note_leader, inlined (no piglet is past the finish here)
                    top = max(where)
                    note(owner[stacks[top][-1]] if top >= 0 else None)
                elif turn_end is not None:  # _turn_over, inlined: every turn passes here
                    c.pending, c.piglet, c.rerolls = pending, piglet, rerolls
                    turn_end(c)
                p = next_seat[p]
                c.current_player = p
                pending = piglets_of[p]
                piglet = -1
                rerolls = 0
                if c.extensions_left[p] and can_extend(c):
                    c.phase = TURN
                    break
            if seeded:
                counter = c.counter
                c.counter = counter + 1
                face = below_at(key, counter, n_faces)
            elif dice is not None:
                face = ((rolled[at] if at < len(rolled) else dice.more_dice(at)) * n_faces) >> 64
                at += 1
            else:
                face = _roll(c, n_faces)
            if len(pending) > 1:
                c.phase = CHOOSE
                c.face = face
                if sink is not None:
                    _log.say(sink, f"{_seat(p)} rolls a {c.config.face_text(face)}.")
                break
            piglet = pending[0]
            pending = ()
            rerolls = 0
        if bots is None:
            c.pending, c.piglet, c.rerolls = pending, piglet, rerolls
            return decisions
        # simulate's fast loop: the seat's bot chooses here (what play_game's loop would ask it)
        if decisions >= MAX_STEPS:
            raise RuntimeError(f"{NAME} did not end within {MAX_STEPS} actions")
        phase = c.phase
        legal = _REROLL_CHOICES if phase is REROLL else _TURN_CHOICES if phase is TURN else \
            tuple([MOVES[q] for q in pending])
        kind = how[p]
        if kind == 1:  # random_bot's draw, written out (the same getrandbits calls), on purpose:
            # a call into bots.random_bot per decision is measured overhead in the hot loop (BENCHMARKS.md);
            # tests/test_game_cores.py checks this loop plays exactly the protocol loop's games
            draw = draws[p]  # the seat stream's getrandbits, bound once it was seeded (play_core)
            if phase is CHOOSE:
                n = len(legal)
                k = n.bit_length()
                r = draw(k)
                while r >= n:
                    r = draw(k)
            else:  # two choices: getrandbits(2), as random_bot's draw for 2
                r = draw(2)
                while r >= 2:
                    r = draw(2)
            action = legal[r]
        elif kind == 2:
            if phase is REROLL:  # _decide's commonest case written out: its finish test, then _good_ride's carriers
                i = where[piglet]
                if setup.finish_likely[spaces - i]:
                    action = ROLL_AGAIN
                else:
                    carriers = 0
                    if 0 <= i < len(stacks):
                        stack = stacks[i]
                        h = stack.index(piglet)
                        if h:
                            carriers = sum(1 for b in stack[:h] if owner[b] != p or b in pending)
                    action = STOP if carriers * setup.face_sum / n_faces > setup.turn_mean else ROLL_AGAIN
            else:
                action = _decide(setup, phase, p, piglet, c.face, where, stacks, pending, legal, rngs[p])
        else:
            action = seat_funcs[p](None, list(legal), rngs[p])
            if checked[p] and action not in legal:
                raise ValueError(f"bot {seat_names[p]!r} chose {action!r}, which is not legal here")
        decisions += 1
        face = None


def _extend(c: Core) -> None:
    """PB-12: the first section moves to the end; every piglet keeps its section and space."""
    cfg = c.config
    sec = c.order[0]
    k = cfg.sections[sec]
    p = c.current_player
    c.order = c.order[1:] + c.order[:1]
    c.stacks = c.stacks[k:] + c.stacks[:k]
    c.where = [w - k if w >= 0 else w for w in c.where]
    c.extensions_left[p] -= 1
    if c.sink is not None:
        left = c.extensions_left[p]
        _log.say(
            c.sink,
            f"{_seat(p)} extends the track: section {SECTION_NAMES[sec]} ({k} spaces) moves from the start "
            f"to the end; every piglet on the track is {k} spaces further from the finish "
            f"({left} extension{'s' if left != 1 else ''} left).",
        )


_REROLL_CHOICES = (ROLL_AGAIN, STOP)  # legal_actions' lists, in its order: what the fast loop's bots choose from
_TURN_CHOICES = (ROLL, EXTEND)


def legal_actions(state: State) -> list[Action]:
    ph = state.phase
    if ph == REROLL:
        return [ROLL_AGAIN, STOP]
    if ph == CHOOSE:
        return [MOVES[q] for q in state.pending]
    if ph == TURN:
        return [ROLL, EXTEND]
    return []


def apply(state: State, action: Action) -> State:
    """One decision; the die rolls that follow it are resolved until the next decision."""
    if state.is_over:
        raise ValueError("the race is over; no more actions")
    if not isinstance(action, Action) or action not in legal_actions(state):
        raise ValueError(
            f"{action!r} is not legal for {_seat(state.current_player)}; "
            f"legal: {', '.join(map(str, legal_actions(state)))}"
        )
    s = state._copy()
    step(s, action)
    return s


def step(s: State, action: Action) -> None:
    """Play a legal `action` on `s` in place: apply's work without the copy and
    without checking the action. Everything else holds a state only through apply."""
    c = _core_of(s)
    _run(c, action)
    _put(c, s)


def _play_on(s: State, action: Action | None = None) -> None:
    """Play on from a hand-built State (a test's table): `action` if given, then the rolls up to
    the next decision, written back into `s`."""
    c = _core_of(s)
    _run(c, action)
    _put(c, s)


def _act(c: Core, action: Action) -> None:
    """One legal decision on the Core, and the rolls that follow it (_run, stopping at the next decision)."""
    _run(c, action)


def _note_leader(c: Core) -> None:
    """play_core's turn_end: note simulate's `_leader(progress(c))` (the seat strictly ahead,
    None on a tie), read from the stacks without building progress's numbers: progress orders
    piglets by space and, on a space, by height, so the top piglet of the furthest stack leads
    alone. Before the start every piglet counts 0 (all there: a tie); across the finish every
    one counts spaces + 1, so a seat leads there alone only when every piglet across is its own
    (tests/test_game_cores.py checks the leaders against _leader(progress) in every preset)."""
    where = c.where
    top = max(where)
    if top < 0:
        c.leaders.append(None)
    elif top < len(c.stacks):
        c.leaders.append(c.setup.owner[c.stacks[top][-1]])
    else:  # the winning roll's turn ends before _finish
        owner = c.setup.owner
        seats = {owner[q] for q, w in enumerate(where) if w == top}
        c.leaders.append(seats.pop() if len(seats) == 1 else None)


def play_core(config: Config, chance, seat_funcs, rngs, checked, seat_names, leader):
    """simulate's fast loop (play_game's `play_core` hook): the whole race on one Core.

    Returns (the final Core, the sole leader at each turn's end, decisions), exactly what
    play_game's own loop of new_game + legal_actions + bot + step gives: the same rolls, the
    same draws from each seat's stream `rngs[p]`, the same turns. The package's bots choose
    on the Core: `random` draws its index as random_bot does, `heuristic` reads the race
    through _decide's narrow view, a bot that never reads its observation gets None. Any
    other bot (a user's, the lookahead): None, before any draw, and play_game plays it.
    `leader` is simulate's _leader; the leaders come from _note_leader, its value here."""
    fast = []
    for f in seat_funcs:
        if f is _bots.random_bot:
            fast.append(1)
        elif f is heuristic_bot:
            fast.append(2)
        elif not getattr(f, "reads_observation", True):
            fast.append(3)
        else:
            return None
    # A random seat's stream, bound once: getrandbits(0) draws nothing and seeds a LazySeatRandom (its
    # first call of any method does), so the bound method is then the seeded stream's own
    draws = [None] * len(rngs)
    for p, kind in enumerate(fast):
        if kind == 1:
            rngs[p].getrandbits(0)
            draws[p] = rngs[p].getrandbits
    c = _start(config, chance)
    c.turn_end = _note_leader
    c.leaders = leaders = []
    actions = _run(c, None, True, (fast, draws, rngs, seat_funcs, checked, seat_names))
    return c, leaders, actions  # the final Core: scores, winners, game_stats... read it as a State


def scores(state: State) -> list[int]:
    """PB-15: 1 for each winning player once the race is over, else 0."""
    return [1 if p in state.won else 0 for p in range(state.config.players)]


def round_scores(state: State) -> list[list[int]]:
    """One row for the one race, once it is over."""
    return [scores(state)] if state.is_over else []


def winners(state: State) -> list[int]:
    """PB-14: every player owning a piglet of the group that crossed the finish."""
    return list(state.won)


def progress(state: State) -> list[float]:
    """Who is ahead mid-race, for simulate's lead changes and "leader after k%"
    figures: per seat, how far its best piglet has come. Spaces covered (0
    before the start, the space number on the track, spaces + 1 across the
    finish; an extension takes a section back, PB-12), plus a fraction for
    each piglet under it on its space: a rider moves whenever a piglet under
    it moves (PB-10), and it wins with it (PB-14). A seat's carried piglet
    counts where its stack is."""
    stacks, where = state.stacks, state.where
    n, size = len(stacks), len(where)
    values = []  # per piglet (a plain loop: about 1.5x a comprehension's speed here, once a turn)
    for q, w in enumerate(where):
        if w < 0:
            values.append(0.0)
        elif w >= n:
            values.append(w + 1.0)
        else:
            values.append(w + 1 + stacks[w].index(q) / size)
    players = state.config.players
    if size == players:  # one piglet each (4 players and more): its value is the seat's
        return values
    k = size // players  # seat p runs piglets p*k .. p*k+k-1 (PB-2)
    return [max(values[first : first + k]) for first in range(0, size, k)]


# What each column of game_stats / score_sources (points_<source>) counts, and the rule it
# follows: `meeple simulate --measure`, the summary and the Explorer show these words.
MEASURES = {
    "rerolls":          "rerolls this seat took (PB-6 to PB-8)",
    "rerolls_declined": "rerolls this seat could have taken and did not (PB-6, PB-7)",
    "extensions":       "times this seat moved the first section to the end (PB-12)",
    "won_carried":      "1 if this seat won riding on another player's piglet (PB-14)",
    "finish_stack":     "piglets that crossed the finish together (PB-10, PB-14)",
    "points_moved":     "wins with this seat's own piglet carrying the group across (PB-14, PB-15)",
    "points_carried":   "wins riding on another player's piglet (PB-14, PB-15)",
}


def game_stats(state: State) -> dict:
    """Columns for simulate's table: per seat, rerolls taken and declined
    (PB-6 to PB-8), extensions used (PB-12), and whether the seat won riding
    on another player's piglet (PB-14: carried across, not moving itself);
    for the race, how many piglets crossed the finish together."""
    made = state.config.extensions_per_player
    return {
        "rerolls": list(state.rerolls_taken),
        "rerolls_declined": list(state.rerolls_declined),
        "extensions": [made - e for e in state.extensions_left],
        "won_carried": _won_carried(state),
        "finish_stack": len(state.finish_group),
    }


# Rule usage (issue 25): per game, how often each number of the rules could matter, so a
# comparison can say when a changed number was never used (e.g. a second extension no bot
# takes). Counted from game_stats (the hook simulate reads): the games play as before. An
# upper bound where the exact occasion is not kept ("could matter" never undercounts).
ALWAYS_APPLIES = {
    "players": "the seats and their piglets (PB-2)",
    "piglets": "the piglets in the box (PB-2)",
    "sections": "the track every piglet runs (PB-1)",
    "faces": "every roll of the die (PB-5)",
    "face_colours": "every roll of the die moves the piglet of the face's colour (PB-5)",
    "rerolls": "every roll: whether its face may be rerolled (PB-6, PB-7)",
    "seat_spaces": "where every piglet starts the race (PB-17)",
}
USAGE = {
    "piglets_each": "races run with this entry (the one for the player count, PB-2)",
    "max_rerolls": "rerolls taken under a limit (PB-8; an upper bound of the times it stopped one)",
    "extensions": "seats that used every extension this entry allows: the allowance bound them (PB-12)",
    "extend_timing": "extensions taken (PB-12)",
}


# Same shape in every game module (the registry's contract, rules/protocol.py): each game's own rule numbers and counts.
def rule_usage(config: Config, game) -> dict[str, int]:
    """For one simulated game (its game_stats in `game.stats`): how often each USAGE number could matter."""
    stats, here = game.stats, config.players - MIN_PLAYERS
    allowed = config.extensions_per_player
    bound = sum(taken >= allowed for taken in stats["extensions"])
    return {
        **{f"piglets_each[{i}]": int(i == here) for i in range(len(config.piglets_each))},
        "max_rerolls": sum(stats["rerolls"]) if config.max_rerolls is not None else 0,
        **{f"extensions[{i}]": bound if i == here else 0 for i in range(len(config.extensions))},
        "extend_timing": sum(stats["extensions"]),
    }


def _won_carried(state: State) -> list[int]:
    """Per seat, 1 if it won riding on another player's piglet (PB-14)."""
    group, won = state.finish_group, state.won
    mover = state.config.owner(group[0]) if group else None
    return [int(p in won and p != mover) for p in range(state.config.players)]


def score_sources(state: State) -> list[dict[str, int]]:
    """Per seat, its point (PB-15) split by how it won (PB-14): "moved" when its
    own piglet carried the winning group across, "carried" when it rode on
    another player's piglet (the simulate hook; the parts add up to scores)."""
    carried = _won_carried(state)
    return [{"moved": score - c, "carried": c} for score, c in zip(scores(state), carried)]


def observation(state: State, player: int) -> Observation:
    return _observe(state, check_seat(state.config, player))


def _observer():
    """observation()'s builder: Observation(player, state's fields...) with each slot set
    directly. The frozen class's own __init__ goes through object.__setattr__ once per
    field, about three times the cost, and a heuristic bot gets one on every decision.
    The fields are set by name; a test checks every one against the constructor's."""
    put = {f.name: getattr(Observation, f.name).__set__ for f in fields(Observation)}
    new = object.__new__
    player, config, current_player, phase = put["player"], put["config"], put["current_player"], put["phase"]
    face, piglet, rerolls, pending = put["face"], put["piglet"], put["rerolls"], put["pending"]
    order, stacks, where = put["order"], put["stacks"], put["where"]
    extensions_left, won, is_over = put["extensions_left"], put["won"], put["is_over"]
    if len(put) != 14:
        raise AssertionError("Observation gained a field that _observer does not set")

    # each field set by its own line on purpose: written out, a view costs a third of dataclasses.replace's
    def observe(s: State, seat: int) -> Observation:
        obs = new(Observation)
        player(obs, seat)
        config(obs, s.config)
        current_player(obs, s.current_player)
        phase(obs, s.phase)
        face(obs, s.face)
        piglet(obs, s.piglet)
        rerolls(obs, s.rerolls)
        pending(obs, s.pending)
        order(obs, s.order)
        stacks(obs, s.stacks)
        where(obs, s.where)
        extensions_left(obs, s.extensions_left)
        won(obs, s.won)
        is_over(obs, s.is_over)
        return obs

    return observe


_observe = _observer()


# Same shape in every game module (the lookahead's contract): each game rebuilds its own State's fields from what a seat sees.
def determinize(obs: Observation, rng: random.Random) -> State:
    """The table as seen, with the future rolls reseeded from `rng`."""
    return State(
        config=obs.config,
        chance=Chance(rng.getrandbits(63)),
        current_player=obs.current_player,
        phase=obs.phase,
        face=obs.face,
        piglet=obs.piglet,
        rerolls=obs.rerolls,
        pending=obs.pending,
        order=obs.order,
        stacks=obs.stacks,
        where=obs.where,
        extensions_left=obs.extensions_left,
        won=obs.won,
        is_over=obs.is_over,
        rerolls_taken=(0,) * obs.config.players,  # statistics bookkeeping starts afresh in a sampled world
        rerolls_declined=(0,) * obs.config.players,
        finish_group=tuple(q for q, w in enumerate(obs.where) if w == len(obs.stacks)),  # order not kept
        _events=None,  # a sampled world: nobody reads its events
        _setup=_setup_of(obs.config),
    )


def check_state(state: State) -> None:
    """Every piglet is in exactly one place; stacks and positions agree; the track is conserved."""
    cfg = state.config
    n = len(state.stacks)
    assert n == cfg.spaces, "the track changed length"
    assert sorted(state.order) == list(range(len(cfg.sections))), "a section went missing"
    used = [cfg.extensions_per_player - e for e in state.extensions_left]
    assert all(0 <= u <= cfg.extensions_per_player for u in used), "extensions out of range"
    k = sum(used) % len(cfg.sections)
    assert state.order == tuple(range(len(cfg.sections)))[k:] + tuple(range(len(cfg.sections)))[:k], (
        "track order does not match the extensions made"
    )
    assert len(state.where) == cfg.players * cfg.piglets_per_player, "wrong number of piglets"
    seen = {}
    for i, stack in enumerate(state.stacks):
        for q in stack:
            assert q not in seen, f"piglet {q} stands twice"
            seen[q] = i
    for q, w in enumerate(state.where):
        assert -1 <= w <= n, "piglet off the track"
        if 0 <= w < n:
            assert seen.get(q) == w, f"piglet {q} is not on its space"
        else:
            assert q not in seen, f"piglet {q} is both on and off the track"
    assert len(seen) == sum(1 for w in state.where if 0 <= w < n)
    finished = [q for q, w in enumerate(state.where) if w == n]
    assert bool(finished) == state.is_over == bool(state.won), "the race ends exactly when a piglet finishes"
    assert len(state.rerolls_taken) == len(state.rerolls_declined) == cfg.players, "statistics have the wrong shape"
    assert min(state.rerolls_taken + state.rerolls_declined) >= 0
    assert sorted(state.finish_group) == finished, "the finish group is not the piglets past the finish"
    if state.is_over:
        assert state.current_player is None and state.phase == OVER
        assert set(state.won) == {cfg.owner(q) for q in finished}
    else:
        assert state.phase in (TURN, CHOOSE, REROLL)
        assert all(cfg.owner(q) == state.current_player for q in state.pending)


# --- exact maths --------------------------------------------------------------

class TurnDistance(dict):
    """{distance: Fraction} with `max_rerolls` (the cap used) and `capped`
    (the probability that the piglet was stopped by the cap, not by the die)."""

    max_rerolls: int
    capped: Fraction

    def mean(self) -> Fraction:
        return sum((d * p for d, p in self.items()), Fraction(0))


def exact_turn_distance(config: Config, from_last: bool, max_rerolls: int | None = None) -> TurnDistance:
    """Exact distribution of how far one piglet moves in a turn when it rerolls
    whenever allowed, ignoring other piglets and the finish.

    `from_last` says whether the piglet counts as last before every roll
    (so "if-last" faces allow a reroll) or never. The number of rerolls is
    bounded so the answer is finite: by `max_rerolls` if given, else by the
    config's `max_rerolls`, else by EXACT_REROLL_BOUND (20); the smaller
    bound wins when both are set. The distribution is truncated there: the
    piglet stops after that many rerolls, exactly as in a game with that
    `max_rerolls`; `.capped` is the probability that the cap stopped it.
    """
    bounds = [b for b in (max_rerolls, config.max_rerolls) if b is not None]
    bound = min(bounds) if bounds else EXACT_REROLL_BOUND
    if type(bound) is not int or bound < 0:
        raise ValueError(f"max_rerolls must be a whole number >= 0, got {max_rerolls!r}")
    n = len(config.faces)
    each = Fraction(1, n)
    goes_on = [r == YES or (r == IF_LAST and from_last) for r in config.rerolls]
    dist = {0: Fraction(1)}  # rerolls left 0: the last roll, then stop
    for _ in range(bound + 1):  # build from the last allowed roll backwards
        nxt: dict[int, Fraction] = {}
        for v, more in zip(config.faces, goes_on):
            if more:
                for d, p in dist.items():
                    nxt[v + d] = nxt.get(v + d, 0) + each * p
            else:
                nxt[v] = nxt.get(v, 0) + each
        dist = nxt
    out = TurnDistance(sorted(dist.items()))
    out.max_rerolls = bound
    out.capped = Fraction(sum(goes_on), n) ** (bound + 1)
    return out


# --- bots ---------------------------------------------------------------------

_MEANS: dict[Config, float] = {}


def _turn_mean(cfg: Config) -> float:
    """Expected distance of a turn that always rerolls (piglet not last): what a reroll is worth."""
    m = _MEANS.get(cfg)
    if m is None:
        m = _MEANS[cfg] = float(exact_turn_distance(cfg, False, 12).mean())
    return m


def _finish_chance(cfg: Config, distance: int) -> float:
    """Chance that one roll moves at least `distance` spaces."""
    return sum(1 for v in cfg.faces if v >= distance) / len(cfg.faces)


def _carriers(setup: _Setup, stacks, where, piglet: int, me: int, pending=()) -> int:
    """Piglets under `piglet` that move before my next turn (others', or mine still to roll)."""
    i = where[piglet]
    if i < 0 or i >= len(stacks):
        return 0
    stack = stacks[i]
    h = stack.index(piglet)
    if h == 0:  # nothing under it (the usual case)
        return 0
    owner = setup.owner
    return sum(1 for b in stack[:h] if owner[b] != me or b in pending)


def _good_ride(setup: _Setup, stacks, where, piglet: int, me: int, pending) -> bool:
    """PB-10 for the heuristic: the piglets under mine will carry it at least one roll
    each before my next turn; a ride is good when that beats what a reroll is worth."""
    carriers = _carriers(setup, stacks, where, piglet, me, pending)
    return carriers * setup.face_sum / setup.n_faces > setup.turn_mean


def _value(setup: _Setup, stacks, where, me: int) -> float:
    """My piglets' progress; a good ride counts one roll per carrier; my best piglet counts most."""
    n = len(stacks)
    mean_face = setup.mean_face
    values = []
    for q in setup.piglets_of[me]:
        w = where[q]
        if w >= n:
            return 1e9  # across the finish: the race is won
        values.append(w + 1 + mean_face * _carriers(setup, stacks, where, q, me))
    values.sort(reverse=True)
    return values[0] + 0.25 * sum(values[1:])


def heuristic_bot(obs: Observation, legal: list[Action], rng: random.Random) -> Action:
    """The reviews' tips as rules of thumb (each was measured; see the seeds file).

    Reroll unless the piglet now sits on a good ride (piglets under it that
    move before my next turn carry it further than a reroll is worth), but
    always reroll when one roll is likely to cross the finish. Give a roll
    to the piglet it helps most. Extend the track when it hurts the leaders
    most: with `before` timing, when every piglet of mine still stands
    before the start, so the extension costs me nothing and costs every
    piglet on the track a section; with `instead` timing never (losing a
    whole turn costs more than the section costs the leaders).
    """
    return _decide(_setup_of(obs.config), obs.phase, obs.player, obs.piglet, obs.face, obs.where, obs.stacks,
                   obs.pending, legal, rng)


def _decide(setup: _Setup, phase: str, me: int, piglet: int, face: int, where, stacks, pending, legal, rng) -> Action:
    """heuristic_bot's choice from the narrow view it reads: the race on the table (lists or
    tuples), never the chance. simulate's fast loop passes the Core's own lists (play_core)."""
    if phase == REROLL:
        if setup.finish_likely[setup.spaces - where[piglet]]:  # one roll likely crosses the finish
            return ROLL_AGAIN
        return STOP if _good_ride(setup, stacks, where, piglet, me, pending) else ROLL_AGAIN
    if phase == CHOOSE:
        best, best_value = [], None
        steps = setup.steps[face]
        for a in legal:
            v = _value(setup, *_moved(stacks, where, a.piglet, steps), me)
            if best_value is None or v > best_value:
                best, best_value = [a], v
            elif v == best_value:
                best.append(a)
        # equal values (e.g. two piglets before the start): the bot's rng decides, not the listing order
        return best[0] if len(best) == 1 else best[_bots.below(rng, len(best))]
    if phase == TURN:
        if setup.config.extend_timing == BEFORE and max(where) >= 0:
            if max(where[q] for q in setup.piglets_of[me]) < 0:  # all mine before the start
                return EXTEND
        return ROLL
    return legal[0]


def always_reroll_bot(obs: Observation, legal: list[Action], rng: random.Random) -> Action:
    """Rerolls whenever allowed; every other choice at random."""
    if ROLL_AGAIN in legal:
        return ROLL_AGAIN
    return legal[rng.randrange(len(legal))]


always_reroll_bot.reads_observation = False  # simulate passes None instead of building one


def lookahead_bot(samples: int = 48, z: float = 2.0, name: str = "lookahead"):
    """Determinised Monte Carlo that trusts the heuristic unless the rollouts disagree clearly.

    For each of `samples` worlds (the table as seen, future rolls reseeded)
    every legal action is played out to the end of the race by heuristic
    players, with the same world and rollout randomness for every action.
    The heuristic's own choice is kept unless another action wins more
    often by more than `z` standard errors of the paired differences: the
    true differences between choices here are a few percent, far below the
    noise of a few dozen rollouts, and picking the raw best average would
    turn close calls into coin flips.
    """
    mod = sys.modules[__name__]

    def bot(obs: Observation, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        k = legal.index(heuristic_bot(obs, legal, rng))
        diffs = [[] for _ in legal]
        for _ in range(samples):
            world = determinize(obs, rng)
            roll_seed = rng.getrandbits(63)
            values = [
                _bots.rollout(mod, apply(world, a), obs.player, random.Random(roll_seed), heuristic_bot, "game")
                for a in legal
            ]
            for i, v in enumerate(values):
                diffs[i].append(v - values[k])
        best, best_mean = k, 0.0
        for i, d in enumerate(diffs):
            mean = sum(d) / samples
            var = sum((x - mean) ** 2 for x in d) / max(1, samples - 1)
            if mean > best_mean and mean > z * (var / samples) ** 0.5:
                best, best_mean = i, mean
        return legal[best]

    bot.__name__ = name
    return bot


BOTS = {
    "random": _bots.random_bot,
    "always-reroll": always_reroll_bot,
    "heuristic": heuristic_bot,
    "lookahead": lookahead_bot(),
}
