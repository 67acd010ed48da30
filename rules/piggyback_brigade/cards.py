"""The Piggyback Brigade's numbers and actions: the piglets, the track's sections, the die's faces and
their reroll rules, the phases of a turn, `Action` (roll, extend, reroll, stop, move), `Config` and PARAMETERS.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..config import Alias, RuleConfig, need, need_range, need_seats, player_count_alias

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


REROLL_CHOICES = (ROLL_AGAIN, STOP)  # legal_actions' lists, in its order: what the fast loop's bots choose from
TURN_CHOICES = (ROLL, EXTEND)
