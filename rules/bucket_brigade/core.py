"""Bucket Brigade's game core: the game as a lean loop holds it (plain lists and ints), with the
rules applied to it in place: the deal (BB-2, BB-4, BB-12), a card played (BB-5 to BB-8, BB-14),
a round's scoring (BB-9 to BB-11) and the game's end (BB-12). These functions are the only copy
of those rules: simulate's `play_core` (strategy.py) plays on a Core directly; the public `State`
(game.py) is a view of one, and `step`/`apply` build a Core from a State, play the move here and
write the State's tuples back.

Also here: what the game's box holds for one Config (`Box`, `box_for`), worked out once.
"""

from __future__ import annotations

from .. import log as _log
from ..chance import Chance
from ..config import seat_values
from .cards import CardPlays, Config, Play, colour_index, counts_by_colour, hand_order, hand_plays, hand_score, times_counted
from .measures import winners


class Box:
    """What the game's box holds for one Config, worked out once rather than on every move:
    the deck (the same Card objects every round), the track and its last space, each
    colour's place, the order a hand is sorted in and the plays each card allows."""

    __slots__ = ("config", "colours", "index", "deck", "track", "end", "order", "plays", "counted", "heuristic")

    def __init__(self, config: Config):
        self.config = config
        self.colours = config.colours
        self.index = colour_index(config.colours)
        self.deck = tuple(config.deck())
        self.track = config.track
        self.end = len(config.track) - 1
        self.order = hand_order(config.colours)
        self.plays = CardPlays(config.colours)
        # counted[ones][twos]: times_counted for every count of one colour's cards the deck allows
        self.counted = [[times_counted(o, t, config) for t in range(config.two_step_cards + 1)]
                        for o in range(config.one_step_cards + 1)]
        # the heuristic's numbers (strategy._heuristic_choice): the bonus, the floor (BB-11), the space from which
        # the next player can end the round, and what that risk costs (3/4 of the bonus)
        self.heuristic = (config.bonus, config.floor_zero, self.end - 2, config.bonus * 0.75)

    def __reduce__(self):  # a pickled state carries its Config; the box is remade from it
        return box_for, (self.config,)


_BOXES: dict[int, Box] = {}  # id(config) -> its box (which keeps the config, so the id stays its own)


def box_for(config: Config) -> Box:
    """The config's box, made on first use and kept while the config lives (by its id)."""
    box = _BOXES.get(id(config))
    if box is None or box.config is not config:
        if len(_BOXES) >= 64:  # a long sweep makes many configs: start afresh rather than grow
            _BOXES.clear()
        box = _BOXES[id(config)] = Box(config)
    return box


def seat_name(p: int) -> str:
    """"Player 1" for seat 0."""
    return f"Player {p + 1}"


class Core:
    """The game as a lean loop holds it: plain lists and ints, changed in place by the rules below
    (deal, play_card, _score_round), the only copy of them. simulate plays on one directly
    (play_core); a public State is a view of one: step builds a core from the State, plays the
    move on it and writes the State's tuples back (game.py's core_of, sync).

    `ones`/`twos`: each seat's one- and two-step cards per colour, kept up to date for the heuristic
    (None when no seat reads them); `plays`: each seat's legal plays (hand_plays of its hand), kept
    up to date (None: not kept). `say`: the State whose event log the rules write to, or None.
    `turn_end(core)`: called at the end of every turn, or None. `last_round`: the game ends when
    the round being played is scored (a lookahead's rollout: no next deal to shuffle)."""

    __slots__ = ("config", "box", "chance", "round", "start_player", "current_player", "hands", "positions",
                 "played", "removed", "totals", "history", "enders", "is_over", "ones", "twos", "plays", "say", "turn_end",
                 "last_round")


def deal(c: Core, round_: int) -> None:
    """Start round `round_`: BB-2, BB-4, BB-12."""
    cfg, box = c.config, c.box
    deck, c.chance = c.chance.shuffled(box.deck)
    n, h = cfg.players, cfg.hand_size
    removed = len(deck) - n * h
    c.removed = deck[:removed]
    order = box.order
    c.hands = [sorted(deck[removed + i * h : removed + (i + 1) * h], key=order) for i in range(n)]
    if c.ones is not None:
        counts = [counts_by_colour(hand, box.colours, box.index) for hand in c.hands]
        c.ones, c.twos = [o for o, _ in counts], [t for _, t in counts]
    if c.plays is not None:
        c.plays = [hand_plays(hand, box.plays) for hand in c.hands]
    c.positions = [0] * len(cfg.colours)
    c.played = []
    c.round = round_
    c.start_player = c.current_player = round_ % n  # BB-12: the start passes left each round
    if c.say is not None:
        _log.say(c.say, _said_deal, round_, c.start_player, h, removed)


def play_card(c: Core, p: int, action: Play) -> None:
    """Seat p plays a legal `action`: BB-5 to BB-8, BB-14; the round is scored when it ends."""
    box = c.box
    card = action.card
    hand = c.hands[p]
    i = hand.index(card)
    del hand[i]
    own = card.colour
    if own is not None and c.ones is not None:
        (c.twos if card.steps == 2 else c.ones)[p][box.index[own]] -= 1
    if c.plays is not None and card not in hand[i : i + 1]:  # its last copy (hands are in order): its plays go
        mine, gone = c.plays[p], box.plays[card]
        j = mine.index(gone[0])
        c.plays[p] = mine[:j] + mine[j + len(gone) :]
    c.played.append(card)
    spaces = c.positions
    k = box.index[action.colour]
    to = spaces[k] + card.steps
    end = box.end
    if to > end:
        to = end  # BB-8: overshoot stops on the last space
    spaces[k] = to
    say = c.say
    if say is not None:
        _log.say(say, _said_play, p, action, to, box.track[to])
    if to == end:
        if say is not None:
            _log.say(say, f"The {action.colour} hedgehog reaches the last space: {seat_name(p)} ends the round.")
        _score_round(c, p)
    elif not hand and not any(c.hands):  # BB-14 (every hand empty: the mover's first, the rest only then)
        if say is not None:
            _log.say(say, "Every hand is empty before any hedgehog reached the end: no one gets the bonus.")
        _score_round(c, None)
    else:
        if c.turn_end is not None:
            c.turn_end(c)
        c.current_player = p + 1 if p + 1 < c.config.players else 0  # BB-5: clockwise


def _score_round(c: Core, ender: int | None) -> None:
    """BB-9 to BB-11 at a round's end; the next round is dealt, or the game is over (BB-12)."""
    cfg = c.config
    spaces, index = c.positions, c.box.index
    points = tuple(hand_score(h, spaces, cfg, seat == ender, index) for seat, h in enumerate(c.hands))
    c.totals = [t + q for t, q in zip(c.totals, points)]
    c.history = (*c.history, points)  # tuples: a State shares them as they are
    c.enders = (*c.enders, ender)
    if c.say is not None:
        _log.say(c.say, _said_scores, c.round, points)
    if c.turn_end is not None:  # the round's last turn ends with its scoring
        c.turn_end(c)
    if len(c.history) >= cfg.total_rounds or c.last_round:
        c.is_over = True
        c.current_player = None
        if c.say is not None:
            _log.say(c.say, _said_winners, winners(c))
    else:
        deal(c, c.round + 1)


def new_core(config: Config, chance: Chance, counts: bool = False) -> Core:
    """A game's core before its first deal."""
    c = Core()
    c.config, c.box, c.chance = config, box_for(config), chance
    c.round = c.start_player = c.current_player = 0
    c.hands, c.positions, c.played, c.removed = [], [], [], []
    c.totals, c.history, c.enders = list(seat_values(config, "seat_points")), (), ()  # BB-15
    c.is_over = False
    c.ones = c.twos = [] if counts else None
    c.plays = []
    c.say = c.turn_end = None
    c.last_round = False
    return c


def _said_deal(round_: int, start: int, h: int, removed: int) -> str:
    return (f"Round {round_ + 1}: {seat_name(start)} starts; each player holds {h} cards"
            + (f" ({removed} set aside unseen)." if removed else "."))


def _said_play(p: int, action: Play, to: int, worth: int) -> str:
    return f"{seat_name(p)} plays {action.card}: the {action.colour} hedgehog moves to space {to} (worth {worth})."


def _said_scores(round_: int, points: tuple[int, ...]) -> str:
    return f"Round {round_ + 1} scores: " + ", ".join(f"{seat_name(i)} {p}" for i, p in enumerate(points)) + "."


def _said_winners(w: list[int]) -> str:
    return "Game over: " + " and ".join(seat_name(i) for i in w) + (" win." if len(w) > 1 else " wins.")
