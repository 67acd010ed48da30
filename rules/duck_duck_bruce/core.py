"""Duck, Duck, Bruce's game core (issue 21): the rules applied in place on plain lists, their only copy.
`Core` holds the game; `new_core` and `begin` start it, `act` plays one decision and the flips after it
(`_run`, the rules' one loop, which simulate's fast loop also runs with the bots choosing inline).
"""

from __future__ import annotations

from .. import log as _log
from ..chance import Chance, Chance2, roll_in_place, stream_key
from ..config import seat_values
from ..protocol import MAX_STEPS
from .cards import (
    DECIDE, FLIP, MAX_PLAYERS, NAME, OVER, PENALTY_FACE, STEAL, STOP, TURN_CHOICES, Card, Config, Duck, Steal, Turn,
    deck_suits,
)
from .measures import winners
from .odds import nest_points

_SEATS = tuple(f"Player {p + 1}" for p in range(MAX_PLAYERS))


def seat_name(p: int) -> str:
    return _SEATS[p]


class _Texts(dict):
    """card -> its text, remembered (events name many cards)."""

    def __missing__(self, card):
        text = self[card] = str(card)
        return text


_TEXTS = _Texts()


_text = _TEXTS.__getitem__


def _cards(cards) -> str:
    return ", ".join(map(_text, cards))


# Event sentences, rendered only when state.events is read (rules/log.py).
def _said_flip(p: int, card) -> str:
    return f"{_SEATS[p]} flips {_TEXTS[card]}."


def _said_bruce(p: int, row, last: bool) -> str:
    if row:
        text = f"{_SEATS[p]} flips Bruce! Bruce and the row ({_cards(row)}) go to the discard pile."
    else:
        text = f"{_SEATS[p]} flips Bruce! Bruce goes to the discard pile."
    return text + " That was the last card." if last else text


def _said_double(p: int, card, lost, kept) -> str:
    text = f"{_SEATS[p]} flips {_TEXTS[card]}, a second {card.suit} duck: {_cards(lost)} go to the discard pile"
    return f"{text}; {_cards(kept)} go to the nest." if kept else f"{text}; nothing goes to the nest."


def _said_last(p: int, card, row) -> str:
    return f"{_SEATS[p]} flips {_TEXTS[card]}, the last card, and takes the row ({_cards(row)}) into the nest."


def _said_stop(p: int, row) -> str:
    return f"{_SEATS[p]} stops and puts {_cards(row)} in the nest."


class Core:
    """The game as a lean loop holds it (issue 21): plain lists and ints, the rules applied in place.

    Every rule below works on a Core. A State is a view of one: new_game, apply and step read
    the State into a Core (`core_of`), play the rules on it and write it back (`sync`), and
    simulate's fast loop (`play_core`) plays a whole game on one Core with no State until the
    end. The fields are the State's, under the same names (so scores, winners, progress,
    game_stats, score_sources and check_state read either), with lists for what changes:
    `row`, `discard`, `nests` (a list per seat), `totals`, `history`, `taken`, `turns_taken`, `facts`. The
    draw pile is the first `_left` cards of `_dealt` (the round's shuffle); `unseen` counts
    the cards still in it by suit ("Bruce" too), kept by every flip (the bots read it). Chance:
    the seeded stream as (`key`, `counter`), rolled in place, or `chance`, any Chance
    lookalike the State held (a test's script, the OpenSpiel wrapper's). `sink` is the State
    whose event log the rules append to (None: no text); `turn_end(core)` is called at every
    turn's end."""

    __slots__ = ("config", "chance", "seed", "key", "counter", "round", "start_player", "current_player", "phase",
                 "_dealt", "_left", "row", "discard", "nests", "totals", "history", "taken", "turns_taken", "is_over", "facts",
                 "unseen", "sink", "turn_end", "leaders", "leader", "lead", "dice", "at")

    @property
    def pile(self) -> tuple[Card, ...]:
        """The draw pile, face down; the next card is the last one."""
        return self._dealt[: self._left]


_new = object.__new__


def _draw_from(c: Core):
    """The Chance (or lookalike) the next draw comes from; give its successor to _drawn."""
    return Chance(c.seed, c.counter) if c.chance is None else c.chance


def _drawn(c: Core, nxt) -> None:
    if c.chance is None:
        c.counter = nxt.counter
    else:
        c.chance = nxt


_roll = roll_in_place  # the die, DDB-7: below(n) of the game's chance, drawn in place (one function for both cores)


def _die(c: Core, n: int) -> int:
    """below(n) of the game's chance for a draw during play (the die, a card picked from a nest):
    _roll, or in simulate's fast loop on chance version 2 (`c.dice`, the game's streams, set by
    play_core) the dice stream's value at `c.at` read in place, Chance2.below's value without a
    Chance2 per draw; `c.chance` catches up (caught_up) before a deal, a sample and the end."""
    dice = c.dice
    if dice is None:
        return _roll(c, n)
    at = c.at
    c.at = at + 1
    vals = dice.dice
    return ((vals[at] if at < len(vals) else dice.more_dice(at)) * n) >> 64


def caught_up(c: Core):
    """The Core's chance with the dice drawn in place (_die) counted in: `c.chance` made current."""
    if c.dice is not None:
        ch = c.chance
        if ch.dice != c.at:
            c.chance = Chance2(c.dice, ch.deal, c.at)
    return c.chance


def new_core(config: Config, chance) -> Core:
    """The game before its first deal: no cards anywhere, no points, no text, no turn hook."""
    c = _new(Core)
    c.config = config
    if type(chance) is Chance:  # the seeded stream: drawn in place
        c.chance, c.seed, c.counter, c.key = None, chance.seed, chance.counter, stream_key(chance.seed)
    else:
        c.chance = chance
    n = config.players
    c.round = c.start_player = c.current_player = 0
    c.phase = DECIDE
    c._dealt, c._left = (), 0
    c.row, c.discard = [], []
    c.nests = [[] for _ in range(n)]
    c.totals, c.history = list(seat_values(config, "seat_points")), []  # DDB-14
    c.taken = [[] for _ in range(n)]
    c.turns_taken = [0] * n
    c.is_over = False
    c.facts = []
    c.unseen = deck_suits(config.suits, len(config.numbers), config.bruce_cards).copy()
    c.sink = c.turn_end = c.dice = None
    return c


def begin(c: Core, bots=None) -> int:
    """Deal the first round and flip Player 1's first card (DDB-2, DDB-3); with `bots`
    (play_core), play the whole game (see _run). Returns the decisions _run took."""
    _deal(c, 0, 0, "")
    return _run(c, None, bots)


_DECKS: dict[int, tuple] = {}  # id(config) -> (config, its deck, the deck's cards by suit); an entry keeps its Config alive


def _deck_of(cfg: Config) -> tuple:
    """(cfg, cfg.deck(), the deck's cards by suit), worked out once per Config: a deal reads them every round."""
    known = _DECKS.get(id(cfg))
    if known is None:
        if len(_DECKS) > 256:  # many configs (a sweep): start afresh rather than grow
            _DECKS.clear()
        known = _DECKS[id(cfg)] = (cfg, cfg.deck(), deck_suits(cfg.suits, len(cfg.numbers), cfg.bruce_cards))
    return known


def _deal(c: Core, round_: int, starter: int, why: str) -> None:
    """DDB-2, DDB-11: shuffle every card into the draw pile; `starter` flips first (the caller flips)."""
    cfg = c.config
    _, deck, by_suit = _deck_of(cfg)
    caught_up(c)
    pile, nxt = _draw_from(c).shuffled(deck)
    _drawn(c, nxt)
    c._dealt = tuple(pile)
    c._left = len(pile)
    c.unseen = by_suit.copy()  # every card unseen again
    c.row, c.discard = [], []
    c.nests = [[] for _ in range(cfg.players)]
    c.taken = [[] for _ in range(cfg.players)]
    c.round = round_
    c.start_player = starter
    c.current_player = starter
    if c.sink is not None:
        _log.say(c.sink, f"Round {round_ + 1}: {_SEATS[starter]}{why} starts; the draw pile holds {len(pile)} cards.")


def _fact(c: Core, p: int, what: str, cards: int) -> None:
    """Note (seat, one of FACTS, cards) for the statistics."""
    c.facts.append((p, what, cards))


def _run(c: Core, action=None, bots=None) -> int:
    """The rules' one loop: apply the current player's decision `action` (None: no decision, the
    turn's forced first flip, DDB-3), then flip on (DDB-3 to DDB-9) until the next decision or the
    game's end. Returns the decisions the loop took itself (below).

    A turn that ends passes play on, flipping the next player's first card (DDB-2); rounds that
    end are scored and dealt in this same loop (never by recursion: a one-card deck and a high
    target play thousands). Without `bots` (new_game, step) the loop stops at the next decision,
    the Core's phase saying which. simulate's fast loop (play_core) passes `bots` = (decide,
    draws, rngs, checked, seat_names, steals): each seat's bot then chooses inline, on the Core
    (decide[p] None: random_bot's draw, written out, from the seat stream's bound `draws[p]`;
    else the bot's narrow `decide`), and the loop plays the game to its end: a "flip" flips on
    inside the flip loop, any other decision is applied at the top. The Core's lists, the
    pile's count and the phase (`deciding`) are held in locals, the count and the phase written
    back before anything else reads the Core (a turn_end callback, a round's scoring, a bot, the
    return), the lists read again after a round's deal makes new ones."""
    cfg = c.config
    players = cfg.players
    p = c.current_player
    dealt, left, unseen, row, nests, facts, turns_taken = (c._dealt, c._left, c.unseen, c.row, c.nests, c.facts,
                                                           c.turns_taken)
    sink, turn_end = c.sink, c.turn_end
    note = c.leaders.append if turn_end is note_leader else None  # play_core's turn ends, noted inline
    lead = c.lead if note is not None else None  # and the leader they note (note_leader keeps it)
    suits = [d.suit for d in row]  # the row's suits, kept beside it (a double is a suit found in it)
    if bots is not None:
        decide, draws, rngs, checked, seat_names, steals = bots
    decisions = 0
    deciding = c.phase != STEAL  # the phase of the last decision point, written back as c.phase when read
    while True:
        if action is None or action is FLIP:  # the commonest decision, answered first
            ended = False
        elif type(action) is Turn:  # DDB-4
            if action.flip:  # a Turn(True) made elsewhere
                ended = False
            else:  # stop: the row goes into the nest
                nests[p] += row
                if sink is not None:  # simulate's quiet games skip even the call
                    _log.say(sink, _said_stop, p, tuple(row))
                row.clear()  # (the Core's own list, emptied: no new list a turn)
                suits.clear()
                ended = True
        else:  # DDB-6 to DDB-8: a steal after a Bruce, or none
            if action.target is None:
                if sink is not None:
                    _log.say(sink, f"{_SEATS[p]} does not try to steal.")
                facts.append((p, "declined", 0))
            else:
                die = cfg.die
                resolve_steal(c, p, action, die[_die(c, len(die))])  # Chance.choice(die): below(len(die))
            ended = True
        while True:  # the flips, up to a decision other than "flip" (or, without bots, any decision)
            if ended:
                turns_taken[p] += 1  # seat p's turn is over (DDB-2): every turn's end passes here
                if left:
                    if note is not None:  # note_leader, inlined: the totals (and their leader) change only
                        note(lead)  # at a round's scoring
                    elif turn_end is not None:  # _turn_over, inlined: every turn passes here
                        c._left = left
                        c.phase = DECIDE if deciding else STEAL
                        turn_end(c)
                    p = p + 1 if p + 1 < players else 0  # play passes left (DDB-2)
                    c.current_player = p  # DDB-3: the next turn opens with a forced flip
                else:
                    c._left = left
                    c.phase = DECIDE if deciding else STEAL
                    if not _end_round(c):
                        return decisions  # the game is over
                    p = c.start_player  # the next round is dealt: its starter flips first
                    dealt, left, unseen, row, nests = c._dealt, c._left, c.unseen, c.row, c.nests
                    suits = []
                    if note is not None:
                        lead = c.lead
            ended = True  # unless the flip below leaves a choice
            left -= 1
            card = dealt[left]
            suit = card.suit
            unseen[suit] -= 1
            if suit == "Bruce":  # DDB-6 (no duck suit is called Bruce)
                discard = c.discard
                discard += row
                discard.append(card)
                facts.append((p, "bruce", len(row)))
                if sink is not None:  # simulate's quiet games skip even the call
                    _log.say(sink, _said_bruce, p, tuple(row), not left)
                row.clear()
                suits.clear()
                deciding = False
            elif suit in suits:  # DDB-5: a double ends the turn at once
                i = suits.index(suit)
                lost = row[i:]
                lost.append(card)
                c.discard += lost
                facts.append((p, "double", len(row) - i))
                if i:  # the cards before the first of the two are kept
                    del row[i:]
                    nests[p] += row
                if sink is not None:
                    _log.say(sink, _said_double, p, card, tuple(lost), tuple(row[:i]))
                row.clear()
                suits.clear()
                continue
            else:
                row.append(card)
                suits.append(suit)
                if not left:  # DDB-9: the last card is revealed; the turn finishes by taking the row
                    nests[p] += row
                    if sink is not None:
                        _log.say(sink, _said_last, p, card, tuple(row))
                    row.clear()
                    suits.clear()
                    continue
                if sink is not None:  # the commonest move: skip even the call when no one keeps events
                    _log.say(sink, _said_flip, p, card)
                deciding = True
            if bots is None:  # a decision: new_game and step stop here
                c._left = left
                c.phase = DECIDE if deciding else STEAL
                return decisions
            # simulate's fast loop: the seat's bot chooses here (what play_game's loop would ask it)
            if decisions >= MAX_STEPS:
                raise RuntimeError(f"{NAME} did not end within {MAX_STEPS} actions")
            decisions += 1
            d = decide[p]
            if d is None:  # random_bot's draw, written out (the same getrandbits calls), on purpose:
                # a call into bots.random_bot per decision is measured overhead in the hot loop (BENCHMARKS.md);
                # tests/rules/test_game_cores.py checks this loop plays exactly the protocol loop's games
                draw = draws[p]
                if deciding:  # TURN_CHOICES: 2 of them, drawn with getrandbits(2)
                    r = draw(2)
                    while r >= 2:
                        r = draw(2)
                    if r == 0:  # FLIP: the loop flips on (DDB-4)
                        ended = False
                        continue
                    action = STOP
                else:
                    legal = steals[p]
                    n = len(legal)
                    k = n.bit_length()
                    r = draw(k)
                    while r >= n:
                        r = draw(k)
                    action = legal[r]
            else:
                c._left = left
                c.phase = phase = DECIDE if deciding else STEAL
                legal = TURN_CHOICES if deciding else steals[p]
                action = d(phase, p, row, unseen, left, nests, cfg, legal, rngs[p])
                if checked[p] and action not in legal:
                    raise ValueError(f"bot {seat_names[p]!r} chose {action!r}, which is not legal here")
                if action is FLIP:
                    ended = False
                    continue
            break  # the decision is applied above


def _turn_over(c: Core) -> None:
    """DDB-2: a player's turn is over (stopped, a double, Bruce and the steal, or the last
    card), and a round it ended is scored; the next turn has not begun. A turn may hold no
    decision (its forced first flip is the last card, DDB-3, DDB-9), so it can end inside
    another player's action."""
    if c.turn_end is not None:
        c.turn_end(c)


def _end_round(c: Core) -> bool:
    """DDB-10 to DDB-12: score the nests; deal again (True) or end the game (False)."""
    cfg = c.config
    split = [nest_points(nest, taken) for nest, taken in zip(c.nests, c.taken)]
    points = tuple(total for total, _ in split)
    for p, (total, own) in enumerate(split):
        if total > own:
            _fact(c, p, "taken points", total - own)
    c.totals = [t + x for t, x in zip(c.totals, points)]
    c.history.append(points)
    if c.sink is not None:
        _log.say(c.sink, f"Round {c.round + 1} scores: " + ", ".join(f"{seat_name(i)} {x}" for i, x in enumerate(points)) + ".")
    _turn_over(c)  # the round's last turn ends with its scoring
    if (len(c.history) >= cfg.rounds) if cfg.end == "rounds" else (max(c.totals) >= cfg.target):
        c.is_over = True
        c.current_player = None
        c.phase = OVER
        if c.sink is not None:
            w = winners(c)
            _log.say(c.sink, "Game over: " + " and ".join(seat_name(i) for i in w) + (" win." if len(w) > 1 else " wins."))
        return False
    key = points if cfg.next_start == "lowest-round" else c.totals
    low = min(key)
    n = cfg.players
    starter = next(q % n for q in range(c.start_player, c.start_player + n) if key[q % n] == low)
    why = " (lowest round score)" if cfg.next_start == "lowest-round" else " (lowest total)"
    _deal(c, c.round + 1, starter, why)
    return True


def act(c: Core, action) -> None:
    """One legal decision on the Core, and the flips that follow it (_run, stopping at the next decision)."""
    _run(c, action)


def _take_random(c: Core, seat: int, k: int) -> list[Duck]:
    """Remove k random cards from seat's nest (face down: picked without looking)."""
    nest = c.nests[seat]
    m = len(nest)
    if c.chance is None or type(c.chance) is Chance2:  # sample(range(m), k), drawn in place: k calls of
        if k == 1:  # below() as Chance.sample and Chance2.sample make them, each swapping its pick forward
            picks = (_die(c, m),)
        else:
            pool = list(range(m))
            for i in range(k):
                j = i + _die(c, m - i)
                pool[i], pool[j] = pool[j], pool[i]
            picks = pool[:k]
    else:  # any other Chance lookalike: its own sample
        picks, c.chance = c.chance.sample(range(m), k)
    if k == 1:
        taken = [nest.pop(picks[0])]
    else:
        chosen = set(picks)
        taken = [nest[i] for i in picks]
        nest[:] = [x for i, x in enumerate(nest) if i not in chosen]
    where = c.taken[seat]
    if where:  # cards this nest took from others: drop the picked ones, close the gaps
        if k == 1:  # one gap (the commonest steal)
            i = picks[0]
            c.taken[seat] = [j - (i < j) for j in where if j != i]
        else:
            c.taken[seat] = [j - sum(1 for i in picks if i < j) for j in where if j not in picks]
    return taken


def _receive(c: Core, p: int, cards: list[Duck]) -> None:
    """Cards taken from another nest go into seat p's nest (and are noted as taken)."""
    n = len(c.nests[p])
    c.taken[p] += range(n, n + len(cards))
    c.nests[p] += cards


def resolve_steal(c: Core, p: int, action: Steal, face: int) -> None:
    """The die showed `face` for `action` by seat p (DDB-7, DDB-8)."""
    t, d = action
    cards = ()  # the cards that moved
    if face == PENALTY_FACE:
        if not c.nests[p]:
            c.facts.append((p, "backfire", 0))
            what = "backfire, empty"
        elif c.config.minus_one == "steal-back":
            cards = _take_random(c, p, 1)
            _receive(c, t, cards)
            c.facts.append((p, "backfire", 1))
            what = "backfire, stolen back"
        else:
            cards = _take_random(c, p, 1)
            c.discard += cards
            c.facts.append((p, "backfire", 1))
            what = "backfire, discarded"
    elif face >= d:
        k = min(d, len(c.nests[t]))
        c.facts.append((p, "stole", k))
        if k:
            cards = _take_random(c, t, k)
            _receive(c, p, cards)
            c.facts.append((t, "robbed", k))
            what = "stole"
        else:
            what = "stole, empty"
    else:
        c.facts.append((p, "missed", 0))
        what = "missed"
    if c.sink is not None:
        _log.say(c.sink, _said_steal, p, t, d, face, what, tuple(cards))


def note_leader(c: Core) -> None:
    """play_core's turn_end: note simulate's `leader(progress(c))`, progress being the totals.
    Only a round's scoring changes the totals (DDB-10; _end_round makes a new list and calls
    this then), so the leader is worked out here, kept as `c.lead`, and _run notes it inline
    at every other turn's end."""
    c.lead = lead = c.leader(c.totals)
    c.leaders.append(lead)


def _said_steal(p: int, t: int, d: int, face: int, what: str, cards) -> str:
    thief, victim = _SEATS[p], _SEATS[t]
    said = f"{thief} tries to steal {d} from {victim} and rolls {face}"
    if what == "backfire, empty":
        return f"{said}: backfire, but {thief}'s nest is empty."
    if what == "backfire, stolen back":
        return f"{said}: backfire! {victim} takes {_TEXTS[cards[0]]} from {thief}'s nest."
    if what == "backfire, discarded":
        return f"{said}: backfire! {_TEXTS[cards[0]]} from {thief}'s nest is discarded."
    if what == "stole":
        return f"{said}: takes {_cards(cards)}." if len(cards) == d else f"{said}: takes {_cards(cards)} (all {victim} had)."
    if what == "stole, empty":
        return f"{said}: success, but {victim}'s nest is empty."
    return f"{said}: too low, nothing happens."
