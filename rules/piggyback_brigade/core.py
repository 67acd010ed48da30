"""The Piggyback Brigade's game core (issue 21): the rules applied in place on plain lists, their only copy.
`Core` holds the race and `Setup` what its Config fixes; `new_core` and `begin` start it, `act` plays one
decision and the rolls after it (`run`, the rules' one loop, which simulate's fast loop also runs with the
bots choosing inline).
"""

from __future__ import annotations

from .. import log as _log
from ..chance import Chance, Chance2, below_at, roll_in_place, stream_key
from ..protocol import MAX_STEPS
from .cards import (
    CHOOSE, IF_LAST, INSTEAD, MOVES, NAME, OVER, PIGLET_COLOURS, REROLL, REROLL_CHOICES, ROLL, ROLL_AGAIN,
    SECTION_NAMES, STOP, TURN, TURN_CHOICES, YES, Action, Config,
)
from .dice import finish_chance, turn_mean_of
from .track import can_extend, move_group, place_text


def seat_name(p: int) -> str:
    return f"Player {p + 1}"


def _names(piglets) -> str:
    names = [PIGLET_COLOURS[q] for q in piglets]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class Setup:
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
        # what new_core lays out for every race
        self.players = cfg.players
        self.order = tuple(range(len(cfg.sections)))
        self.extensions = cfg.extensions_per_player
        self.seat_spaces = cfg.seat_spaces
        # for the heuristic
        self.face_sum = sum(cfg.faces)
        self.mean_face = self.face_sum / self.n_faces
        self.finish_likely = tuple(finish_chance(cfg, d) >= 0.5 for d in range(cfg.spaces + 1))
        self._turn_mean = None

    @property
    def turn_mean(self) -> float:
        """turn_mean_of(config), computed on first use (exact sums: only the heuristic needs it)."""
        if self._turn_mean is None:
            self._turn_mean = turn_mean_of(self.config)
        return self._turn_mean


_SETUPS: dict[int, Setup] = {}  # id(config) -> its Setup; an entry keeps its Config alive, so ids stay unique


def setup_of(cfg: Config) -> Setup:
    setup = _SETUPS.get(id(cfg))
    if setup is None:
        if len(_SETUPS) > 256:  # many configs (a sweep): start afresh rather than grow
            _SETUPS.clear()
        setup = _SETUPS[id(cfg)] = Setup(cfg)
    return setup


class Core:
    """The race as a lean loop holds it (issue 21): plain lists and ints, the rules applied in place.

    Every rule below works on a Core. A State is a view of one: new_game, apply and step read
    the State into a Core (`core_of`), play the rules on it and write it back (`sync`), and
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


_roll = roll_in_place  # PB-4: the die: below(n) of the game's chance, drawn in place (one function for both cores)


def begin(c: Core) -> None:
    """Play a race just set up (new_core) to its first decision: Player 1's turn (PB-3)."""
    run(c, None, fresh=True)


def new_core(config: Config, chance) -> Core:
    """The race before its first roll (PB-2, PB-3): every piglet before the start, no text, no turn hook."""
    c = _new(Core)
    setup = c.setup = setup_of(config)
    c.config = config
    if type(chance) is Chance:  # the seeded stream: drawn in place
        c.chance, c.seed, c.counter, c.key = None, chance.seed, chance.counter, stream_key(chance.seed)
    else:
        c.chance = chance
    players = setup.players
    c.current_player = players - 1  # run starts the next seat: Player 1 (PB-3)
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
        text = f"{seat_name(p)} gives the {cfg.face_text(face)} to the {PIGLET_COLOURS[piglet]} piglet: it"
    else:
        text = f"{seat_name(p)} rolls a {cfg.face_text(face)}: the {PIGLET_COLOURS[piglet]} piglet"
    if len(group) > 1:
        text += f" carrying {_names(group[1:])}"
    if dest >= len(c.stacks):
        _log.say(c.sink, text + f" moves {cfg.faces[face]} from {before} past the finish.")
    else:
        text += f" moves {cfg.faces[face]} from {before} to {place_text(c, piglet)}"
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
            + " and ".join(seat_name(p) for p in c.won)
            + (" win." if len(c.won) > 1 else " wins."),
        )


def run(c: Core, action: Action | None, fresh: bool = False, bots=None) -> int:
    """The rules' one loop: apply the decision `action` to the Core (None: no decision), then
    roll on (PB-3 to PB-14) until the next decision or the race's end. Returns the decisions
    the loop took itself (below).

    Turns pass by seat (PB-3); each pending piglet rolls in turn (PB-11). `fresh`: no turn is
    under way yet (the race starts). Without `bots` (new_game, step) the loop stops at the next
    decision, the Core's phase saying which. simulate's fast loop (play_core) passes `bots` =
    (how, draws, rngs, seat_funcs, checked, seat_names, decide): each seat's bot then chooses inline, on the
    Core (how 1: random_bot's draw, written out; 2: the heuristic's `decide` on its narrow view;
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
    note = c.leaders.append if turn_end is note_leader else None  # simulate's fast loop: the leaders noted inline
    owner = setup.owner
    stacks, where = c.stacks, c.where  # (the Core's own lists: an extension makes new ones, read again)
    if bots is not None:
        how, draws, rngs, seat_funcs, checked, seat_names, decide = bots
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
                    before = place_text(c, piglet)
                    group, dest, under = move_group(stacks, where, piglet, steps[face])
                    _said_roll(c, face, piglet, group, dest, under, before, chosen)
                else:  # move_group, inlined (PB-9, PB-10, PB-13): the commonest step of a race
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
                elif note is not None:  # play_core's note_leader, inlined (no piglet is past the finish here)
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
                    _log.say(sink, f"{seat_name(p)} rolls a {c.config.face_text(face)}.")
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
        legal = REROLL_CHOICES if phase is REROLL else TURN_CHOICES if phase is TURN else \
            tuple([MOVES[q] for q in pending])
        kind = how[p]
        if kind == 1:  # random_bot's draw, written out (the same getrandbits calls), on purpose:
            # a call into bots.random_bot per decision is measured overhead in the hot loop (BENCHMARKS.md);
            # tests/rules/test_game_cores.py checks this loop plays exactly the protocol loop's games
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
                action = decide(setup, phase, p, piglet, c.face, where, stacks, pending, legal, rngs[p])
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
            f"{seat_name(p)} extends the track: section {SECTION_NAMES[sec]} ({k} spaces) moves from the start "
            f"to the end; every piglet on the track is {k} spaces further from the finish "
            f"({left} extension{'s' if left != 1 else ''} left).",
        )


def act(c: Core, action: Action) -> None:
    """One legal decision on the Core, and the rolls that follow it (run, stopping at the next decision)."""
    run(c, action)


def note_leader(c: Core) -> None:
    """play_core's turn_end: note simulate's `_leader(progress(c))` (the seat strictly ahead,
    None on a tie), read from the stacks without building progress's numbers: progress orders
    piglets by space and, on a space, by height, so the top piglet of the furthest stack leads
    alone. Before the start every piglet counts 0 (all there: a tie); across the finish every
    one counts spaces + 1, so a seat leads there alone only when every piglet across is its own
    (tests/rules/test_game_cores.py checks the leaders against _leader(progress) in every preset)."""
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
