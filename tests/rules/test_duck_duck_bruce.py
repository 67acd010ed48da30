"""Duck, Duck, Bruce: one or more tests per numbered rule in seeds/duck_duck_bruce.md,
and the exact helpers checked against brute-force enumeration of every card order."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from fractions import Fraction

import pytest

from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import play, replay
from meeple.rules.sim import head_to_head
from meeple.rules.chance import Chance
from meeple.rules.duck_duck_bruce import (
    BRUCE, DECIDE, FLIP, NO_STEAL, STEAL, STOP, Config, Duck, Steal,
    best_stop, bust_probability, flip_values, nest_score, steal_expectation,
)

# A deck small enough to enumerate every order: 3 suits x {1, 2} + 1 Bruce = 7 cards.
SMALL = Config(players=2, suits=("red", "blue", "green"), numbers=(1, 2), bruce_cards=1, rounds=1)
R1, R2, B1, B2, G1, G2 = (Duck(s, n) for s in ("red", "blue", "green") for n in (1, 2))


def _state(cfg=None, *, pile, row=(), nests=None, current=0, phase=None, totals=None, history=()):
    """A hand-built mid-round state; `pile` lists the cards in the order they
    will be flipped; every other card of the deck is in the discard pile."""
    cfg = cfg or Config()
    s = ddb.new_game(cfg, 0)._copy()
    nests = tuple(tuple(n) for n in (nests or [()] * cfg.players))
    rest = Counter(cfg.deck())
    for group in (pile, row, *nests):
        rest.subtract(group)
    assert all(v >= 0 for v in rest.values()), "more cards than the deck holds"
    s.pile, s.row, s.nests = tuple(reversed(pile)), tuple(row), nests
    s.discard = tuple(rest.elements())
    s.current_player = current
    s.phase = phase or (DECIDE if row else STEAL)
    s.totals = totals or (0,) * cfg.players
    s.history = tuple(history)
    s.events = ()
    s.taken, s.facts = ((),) * cfg.players, ()  # every card in a nest is its own; nothing counted yet
    ddb.check_state(s)
    return s


def _deck_minus(cfg, *groups):
    left = Counter(cfg.deck())
    for g in groups:
        left.subtract(g)
    return list(left.elements())


def _points(state, seat, round_=0):
    """Seat's nest score in round `round_`: from the round's score once it ended."""
    if len(state.history) > round_:
        return state.history[round_][seat]
    return nest_score(state.nests[seat])


# --- DDB-1: the deck and the players --------------------------------------------

def test_deck_has_sixty_ducks_in_ten_suits_and_six_bruces():
    """DDB-1: 10 suits x {1, 1, 2, 2, 3, 4} ducks plus 6 Bruce cards = 66 cards."""
    deck = Counter(Config().deck())
    assert sum(deck.values()) == 66 and deck[BRUCE] == 6
    suits = {c.suit for c in deck if c != BRUCE}
    assert len(suits) == 10
    for suit in suits:
        assert sorted(c.number for c in Config().deck() if c != BRUCE and c.suit == suit) == [1, 1, 2, 2, 3, 4]
    s = ddb.new_game(Config(), 3)
    assert Counter(s.pile) + Counter(s.row) + Counter(s.discard) == deck


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_two_to_five_players_can_play(players):
    """DDB-1: 2-5 players; every card is conserved to the end of the game."""
    rec = play("duck-duck-bruce", Config(players=players), "random", players)
    assert len(rec.scores) == players and rec.winners


# --- DDB-2: shuffling, first player, passing left --------------------------------

def test_the_same_seed_shuffles_the_same_and_another_seed_differently():
    """DDB-2: the draw pile is shuffled from the game's chance (seeded, replayable)."""
    a, b, c = (ddb.new_game(Config(), s) for s in (5, 5, 6))
    assert a == b and a.pile + a.row != c.pile + c.row


def test_player_one_starts_and_play_passes_left():
    """DDB-2: Player 1 starts round 1; after each turn the next seat plays, wrapping round."""
    s = _state(Config(players=3), pile=[B1, G1, R2, B2], row=(R1,), current=0)
    seats = []
    for _ in range(3):
        s = ddb.apply(s, STOP)
        seats.append(s.current_player)
    assert seats == [1, 2, 0]
    assert ddb.new_game(Config(), 1).start_player == 0


# --- DDB-3: the forced first flip ----------------------------------------------

def test_a_turn_opens_by_flipping_the_top_card():
    """DDB-3: the first flip of a turn is not a choice: the next player's row already holds the top card."""
    s = _state(pile=[G1, B1, R2], row=(R1,))
    after = ddb.apply(s, STOP)
    assert after.current_player == 1 and after.row == (G1,) and after.phase == DECIDE
    assert after.events[-1] == "Player 2 flips green 1."
    fresh = ddb.new_game(Config(), 8)
    assert len(fresh.pile) == 65 and (len(fresh.row) == 1 or fresh.phase == STEAL)


# --- DDB-4: flip or stop ---------------------------------------------------------

def test_after_a_fresh_duck_the_choice_is_flip_or_stop():
    """DDB-4: a duck of a new suit offers exactly flip and stop; stop takes the whole row."""
    s = _state(pile=[G1, B1, R2], row=(R1, B2))
    assert [str(a) for a in ddb.legal_actions(s)] == ["flip", "stop"]
    stopped = ddb.apply(s, STOP)
    assert Counter(stopped.nests[0]) == Counter([R1, B2]) and stopped.current_player == 1
    flipped = ddb.apply(s, FLIP)
    assert flipped.row == (R1, B2, G1) and flipped.current_player == 0 and flipped.phase == DECIDE


# --- DDB-5: doubles ------------------------------------------------------------

def test_a_double_discards_the_pair_and_everything_between():
    """DDB-5: a duck matching a suit in the row ends the turn; the pair and the
    cards between go to the discard pile, the cards before go to the nest."""
    s = _state(pile=[B1, Duck("yellow", 3), R2], row=(R1, B2, G1))
    after = ddb.apply(s, FLIP)
    assert after.nests[0] == (R1,)
    assert Counter(after.discard) - Counter(s.discard) == Counter([B2, G1, B1])
    assert after.current_player == 1 and after.row == (Duck("yellow", 3),)
    assert "a second blue duck" in after.events[-2]


def test_a_double_of_the_first_card_keeps_nothing_and_numbers_do_not_matter():
    """DDB-5: the number is irrelevant (blue 2 matches blue 2); matching the first card keeps nothing."""
    s = _state(pile=[B2, R2, G2], row=(B2, G1))
    after = ddb.apply(s, FLIP)
    assert after.nests[0] == () and after.current_player == 1
    assert "nothing goes to the nest" in after.events[-2]


# --- DDB-6: Bruce and the steal choice -------------------------------------------

def test_bruce_discards_the_whole_row_and_offers_a_steal():
    """DDB-6: Bruce ends the turn; the row goes to the discard pile with him; the
    player may pick an opponent and declare 1 to 3 cards, or not steal."""
    s = _state(Config(players=3), pile=[BRUCE, R2, B2], row=(R1, B2, G1), nests=[(), (B1,), ()])
    after = ddb.apply(s, FLIP)
    assert after.phase == STEAL and after.current_player == 0 and after.row == ()
    assert Counter(after.discard) - Counter(s.discard) == Counter([R1, B2, G1, BRUCE])
    assert after.nests[0] == ()
    texts = [str(a) for a in ddb.legal_actions(after)]
    assert texts == ["no steal"] + [f"steal {k} from Player {p}" for p in (2, 3) for k in (1, 2, 3)]
    declined = ddb.apply(after, NO_STEAL)
    assert declined.current_player == 1 and declined.nests == after.nests and declined.chance == after.chance


def _resolve_steal(s, p: int, action, face: int) -> None:
    """The rules' own steal resolution (core.resolve_steal) played on State s, in place."""
    c = ddb.game.core_of(s)
    ddb.core.resolve_steal(c, p, action, face)
    ddb.game.sync(c, s)


def test_declining_can_be_switched_off_and_illegal_steals_are_refused():
    """DDB-6: with may_decline=false a steal must be declared; one may not steal from oneself or claim 4."""
    s = _state(Config(may_decline=False), pile=[R2], phase=STEAL)
    legal = ddb.legal_actions(s)
    assert NO_STEAL not in legal and len(legal) == 9
    for bad in (NO_STEAL, Steal(0, 1), Steal(1, 4), Steal(1, 0), FLIP, (1, 2)):
        with pytest.raises(ValueError, match="not legal"):
            ddb.apply(s, bad)
    with pytest.raises(ValueError, match="not legal"):
        ddb.apply(_state(pile=[R2], row=(R1,)), Steal(1, 1))


# --- DDB-7 and DDB-8: the die ----------------------------------------------------

def _after_roll(cfg, face, action=Steal(1, 2), thief=(R1, G2, Duck("teal", 4)),  # noqa: B008 - immutable NamedTuples
                victim=(B1, B2, Duck("pink", 3), Duck("grey", 4), Duck("brown", 1))):  # noqa: B008 - immutable NamedTuples
    """(before, after) seat 0's die shows `face` for `action` (the rules' own resolution)."""
    before = _state(cfg, pile=[R2], phase=STEAL, nests=[thief, victim] + [()] * (cfg.players - 2))
    s = before._copy()
    _resolve_steal(s, 0, action, face)
    ddb.check_state(s)
    return before, s


def test_a_roll_at_least_the_claim_takes_that_many_random_cards():
    """DDB-7: roll >= declared: take that many cards from the opponent's nest and show them; lower: nothing."""
    for face in (2, 3):
        before, s = _after_roll(Config(), face)
        assert len(s.nests[0]) == 5 and len(s.nests[1]) == 3
        taken = Counter(s.nests[0]) - Counter(before.nests[0])
        assert Counter(s.nests[1]) + taken == Counter(before.nests[1])
        assert all(str(c) in s.events[-1] for c in taken.elements())
    _, low = _after_roll(Config(), 1)
    assert len(low.nests[0]) == 3 and len(low.nests[1]) == 5 and "nothing" in low.events[-1]


def test_a_claim_larger_than_the_nest_takes_what_is_there():
    """DDB-7 (judgement call): a successful claim on a smaller nest takes all of it."""
    _, s = _after_roll(Config(), 3, Steal(1, 3), victim=(B1,))
    assert s.nests[1] == () and B1 in s.nests[0]


def test_minus_one_gives_a_card_to_the_opponent_or_discards_it():
    """DDB-8: on -1 the chosen opponent takes one random card of the thief's nest
    (Gamewright); the kleine-fische preset discards it instead."""
    before, s = _after_roll(Config(), -1)
    assert len(s.nests[0]) == 2 and len(s.nests[1]) == 6 and "backfire" in s.events[-1]
    lost = Counter(before.nests[0]) - Counter(s.nests[0])
    assert Counter(s.nests[1]) - Counter(before.nests[1]) == lost
    before, d = _after_roll(Config.presets()["kleine-fische"], -1)
    assert len(d.nests[0]) == 2 and d.nests[1] == before.nests[1]
    lost = Counter(before.nests[0]) - Counter(d.nests[0])
    assert Counter(d.discard) - Counter(before.discard) == lost
    _, empty = _after_roll(Config(), -1, thief=())
    assert empty.nests[0] == () and "empty" in empty.events[-1]


def test_the_die_is_rolled_from_the_game_chance_and_obeyed():
    """DDB-7, DDB-8: through apply, each seeded roll's outcome matches the face shown in the event."""
    seen = set()
    for seed in range(40):
        s = _state(pile=[R2, G1], phase=STEAL, nests=[(R1, G2), (B1, B2, Duck("pink", 3)), (), ()])
        s.chance = Chance(seed)
        after = ddb.apply(s, Steal(1, 2))
        face = int(re.search(r"rolls (-?\d+)", after.events[0]).group(1))
        seen.add(face)
        mine, theirs = len(after.nests[0]), len(after.nests[1])
        expected = (1, 4) if face == -1 else (4, 1) if face >= 2 else (2, 3)
        assert (mine, theirs) == expected, (face, after.events)
    assert seen == set(Config().die)


# --- DDB-9: the last card ---------------------------------------------------------

def test_a_fresh_duck_as_the_last_card_is_taken_and_ends_the_round():
    """DDB-9: revealing the last card ends the round after the turn; a fresh duck finishes it by taking the row."""
    s = _state(SMALL, pile=[G2], row=(R1, B2))
    after = ddb.apply(s, FLIP)
    assert after.is_over and after.history == ((nest_score([R1, B2, G2]), 0),)
    assert "the last card" in after.events[-3]


def test_a_double_or_bruce_as_the_last_card_still_resolves():
    """DDB-9: a last-card double resolves normally; a last-card Bruce still gives the steal, then the round ends."""
    double = ddb.apply(_state(SMALL, pile=[B1], row=(R1, B2)), FLIP)
    assert double.is_over and double.history == ((1, 0),)
    bruce = ddb.apply(_state(SMALL, pile=[BRUCE], row=(R1,), nests=[(), (G2,)]), FLIP)
    assert bruce.phase == STEAL and not bruce.is_over and bruce.pile == ()
    done = ddb.apply(bruce, NO_STEAL)
    assert done.is_over and done.history == ((0, 2),)


# --- DDB-10: scoring --------------------------------------------------------------

def test_only_the_highest_duck_of_each_suit_scores():
    """DDB-10: the highest number of each suit, summed (duplicates count once)."""
    assert nest_score([R1, Duck("red", 4), B2, B2, G1]) == 4 + 2 + 1
    assert nest_score([]) == 0
    assert nest_score([Duck(s, n) for s in Config().suits for n in Config().numbers]) == 40


def test_round_scores_are_the_nest_scores_and_add_to_totals():
    """DDB-10: at round end every nest is scored; totals are the sum of round scores."""
    rec = play("duck-duck-bruce", Config(), "heuristic", 12)
    assert [sum(r[i] for r in rec.round_scores) for i in range(4)] == list(rec.scores)
    s = _state(SMALL, pile=[G1], row=(R1,), nests=[(), (R2, B2)])
    end = ddb.apply(s, STOP)
    assert end.history == ((1, nest_score([R2, B2, G1])),)


# --- DDB-11: next round -------------------------------------------------------------

def _round_end(cfg, nests, start=0):
    s = _state(cfg, pile=[G1], row=(R1,), nests=nests, current=start)
    s.start_player = start
    s = ddb.apply(s, STOP)  # the next player flips the last card and ends the round
    return s


def test_the_lowest_round_scorer_starts_the_next_round():
    """DDB-11: the lowest scorer of the round starts the next, on a reshuffled full deck."""
    cfg = Config(suits=("red", "blue", "green"), numbers=(1, 2), bruce_cards=1, players=3)
    s = _round_end(cfg, [(B2,), (R2, B1), ()])  # Player 1 adds red 1; Player 2 takes green 1, the last card
    assert s.round == 1 and s.history[0] == (3, 4, 0) and s.start_player == 2 and s.current_player == 2
    assert len(s.pile) + len(s.row) + len(s.discard) == 7 and s.nests == ((), (), ())
    assert "Player 3 (lowest round score) starts" in " ".join(s.events)


def test_ties_for_lowest_go_clockwise_from_the_last_starter_and_totals_can_decide():
    """DDB-11: a tie goes to the first tied seat from the previous starter; next_start=lowest-total uses totals."""
    cfg = Config(suits=("red", "blue", "green"), numbers=(1, 2), bruce_cards=1, players=3)
    s = _round_end(cfg, [(B1,), (B2,), ()], start=1)  # scores 1, 2 + 1, 1 (green 1): seats 0 and 2 tie
    assert s.history[0] == (1, 3, 1) and s.start_player == 2
    for rule, starter in (("lowest-round", 0), ("lowest-total", 1)):
        c = Config(suits=("red", "blue", "green"), numbers=(1, 2), bruce_cards=1, players=3, next_start=rule)
        t = _state(c, pile=[G1], row=(R1,), nests=[(), (B1,), (R2,)], totals=(9, 1, 9), history=[(9, 1, 9)])
        t = ddb.apply(t, STOP)  # round 2 scores 1, 2, 2; totals 10, 3, 11
        assert t.history[-1] == (1, 2, 2) and t.totals == (10, 3, 11) and t.start_player == starter


# --- DDB-12: game end and winners ------------------------------------------------

def test_the_game_lasts_the_set_number_of_rounds():
    """DDB-12: end=rounds plays exactly `rounds` rounds; the short preset plays one."""
    for preset, rounds in (("base", 3), ("short", 1)):
        rec = play("duck-duck-bruce", Config.presets()[preset], "random", 4)
        assert len(rec.round_scores) == rounds


def test_the_race_ends_after_the_round_someone_reaches_the_target():
    """DDB-12: end=target stops at the end of the first round in which a total reaches the target."""
    cfg = Config(end="target", target=30)
    rec = play("duck-duck-bruce", cfg, "heuristic", 2)
    totals = list(itertools.accumulate(rec.round_scores, lambda a, b: [x + y for x, y in zip(a, b)]))
    assert max(totals[-1]) >= 30 and all(max(t) < 30 for t in totals[:-1])


def test_highest_total_wins_and_ties_share():
    """DDB-12: the highest total wins; equal totals are all reported as winners."""
    s = _state(SMALL, pile=[G1], row=(R2,), nests=[(), (R1,)])
    end = ddb.apply(s, STOP)  # P1 keeps red 2 (2); P2: red 1 + green 1 (2)
    assert end.is_over and end.totals == (2, 2) and ddb.winners(end) == [0, 1]
    assert "Player 1 and Player 2 win" in end.events[-1]
    s = _state(SMALL, pile=[G1], row=(R2, B2), nests=[(), (R1,)])
    assert ddb.winners(ddb.apply(s, STOP)) == [0]


# --- DDB-13: what a player knows ----------------------------------------------------

def test_observation_shows_every_nest_but_not_the_pile_order():
    """DDB-13: nests are known (every card in them was shown); only the draw pile's order is hidden."""
    s = _state(pile=[G1, B1, R2], row=(R1,), nests=[(B2,), (G2,), (), ()])
    obs = ddb.observation(s, 2)
    assert obs.nests == s.nests and obs.row == s.row and obs.pile_size == 3
    assert not hasattr(obs, "pile") and "seed" not in repr(obs)
    assert Counter(obs.unseen()) == Counter(s.pile)
    rng = random.Random(1)
    orders = set()
    for _ in range(20):
        w = ddb.determinize(obs, rng)
        ddb.check_state(w)
        assert ddb.observation(w, 2) == obs and Counter(w.pile) == Counter(s.pile)
        orders.add(w.pile)
    assert len(orders) > 1


def _suits_of(cfg, cards) -> dict[str, int]:
    return dict.fromkeys((*cfg.suits, "Bruce"), 0) | Counter(c.suit for c in cards)


def test_unseen_suits_is_the_draw_piles_make_up_at_every_decision():
    """DDB-13: Observation.unseen_suits counts the draw pile by suit ("Bruce" too). observation()
    keeps a running count that every flip updates; it must equal a count from scratch (the
    same observation rebuilt) and the pile itself, through apply and through simulate's
    in-place step, across rounds, steals and determinized worlds."""
    import dataclasses

    checked = 0
    for seed, cfg in ((3, Config()), (8, Config(minus_one="discard", players=2)), (5, SMALL)):
        s = ddb.new_game(cfg, seed)
        quiet = ddb.new_game(cfg, seed, events=False)
        rng = random.Random(seed)
        while not s.is_over:
            p = s.current_player
            legal = ddb.legal_actions(s)
            for state in (s, quiet):
                obs = ddb.observation(state, p)
                fresh = dataclasses.replace(obs).unseen_suits  # counted anew from what obs shows
                assert obs.unseen_suits == fresh == _suits_of(cfg, state.pile)
                assert sum(obs.unseen_suits.values()) == obs.pile_size
            w = ddb.determinize(obs, rng)
            assert ddb.observation(w, p).unseen_suits == obs.unseen_suits
            action = ddb.BOTS["heuristic"](obs, legal, rng) if rng.random() < 0.5 else rng.choice(legal)
            s = ddb.apply(s, action)
            ddb.step(quiet, action)
            checked += 1
        assert quiet.totals == s.totals and quiet.history == s.history
    assert checked > 100
    s = _state(pile=[G1, B1, R2], row=(R1,))
    assert ddb.observation(s, 0).unseen_suits["red"] == 1
    s.pile, s.discard = (G1, B1), s.discard + (R2,)  # a pile set by hand is counted afresh
    assert ddb.observation(s, 0).unseen_suits["red"] == 0
    with pytest.raises(TypeError):
        ddb.observation(s, 0).unseen_suits["red"] = 5  # read-only: shared with the state


# --- exact helpers against brute force ---------------------------------------------

def _every_order_from_a_fresh_round():
    for order in itertools.permutations(SMALL.deck()):
        if order[0] != BRUCE:
            yield order


def test_bust_probability_matches_every_order_of_a_small_deck():
    """DDB-5, DDB-6: bust_probability equals the share of all 7! orders in which the flip ends the turn."""
    busts, seen = Counter(), Counter()
    for order in _every_order_from_a_fresh_round():
        s = _state(SMALL, pile=list(order[1:]), row=order[:1])
        after = ddb.apply(s, FLIP)
        ended = after.phase != DECIDE or after.current_player != 0
        seen[order[:1]] += 1
        busts[order[:1]] += ended
        if not ended:  # one flip deeper: rows of two
            again = ddb.apply(after, FLIP)
            key = order[:2]
            seen[key] += 1
            busts[key] += again.phase != DECIDE or again.current_player != 0
    assert len(seen) > 10
    for row, n in seen.items():
        assert bust_probability(row, _deck_minus(SMALL, row)) == Fraction(busts[row], n)
    with pytest.raises(ValueError, match="no cards remain"):
        bust_probability([R1], [])


def _brute_values(state, orders, depth):
    """(stop, flip) for seat 0 by playing every order of the unseen cards through
    the rules: flip, then (while depth allows) the better of stopping and flipping
    in expectation over the orders that share the cards seen so far."""
    s = state._copy()
    s.pile = tuple(reversed(orders[0]))
    stop = Fraction(_points(ddb.apply(s, STOP), 0))
    by_first: dict = {}
    for o in orders:
        by_first.setdefault(o[0], []).append(o)
    total = Fraction(0)
    for group in by_first.values():
        s = state._copy()
        s.pile = tuple(reversed(group[0]))
        after = ddb.apply(s, FLIP)
        if after.phase == DECIDE and after.current_player == 0 and not after.history and depth > 1:
            value = max(_brute_values(after, [o[1:] for o in group], depth - 1))
        elif after.phase == DECIDE and after.current_player == 0 and not after.history:
            value = Fraction(_points(ddb.apply(after, STOP), 0))
        else:
            value = Fraction(_points(after, 0))
        total += value * len(group)
    return stop, total / len(orders)


# 4 suits x {1, 3} + 1 Bruce: a deck where looking 2 and 3 flips ahead changes the value.
WIDE = Config(players=2, suits=("red", "blue", "green", "teal"), numbers=(1, 3), bruce_cards=1, rounds=1)

SCENARIOS = [
    (SMALL, (R1,), ()),
    (SMALL, (R2, B1), ()),
    (SMALL, (R1, B1), (R2,)),  # red 1 adds nothing to a nest holding red 2
    (SMALL, (G1,), (B2,)),
    (SMALL, (R2, G2), (B1,)),
    (WIDE, (B1,), (Duck("blue", 3), Duck("green", 3))),
    (WIDE, (Duck("teal", 3), R1), ()),
]


@pytest.mark.parametrize("cfg, row, nest", SCENARIOS)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_flip_values_match_every_order_of_the_unseen_cards(cfg, row, nest, depth):
    """DDB-4, DDB-5, DDB-9: flip_values (exact, Fractions) equals the average over
    every order of the unseen cards played through the rules."""
    unseen = _deck_minus(cfg, row, nest)
    state = _state(cfg, pile=unseen, row=row, nests=[nest, ()])
    orders = list(itertools.permutations(unseen))
    expected = _brute_values(state, orders, depth)
    got = flip_values(row, unseen, nest, depth)
    assert got == expected and all(type(v) is Fraction for v in got)
    floats = flip_values(row, unseen, nest, depth, exact=False)
    assert list(floats) == pytest.approx([float(v) for v in expected])
    if depth == 1:
        assert best_stop(row, unseen, cfg, nest) == (expected[0] >= expected[1])


def test_looking_further_ahead_can_only_raise_the_flip_value():
    """DDB-4: with the option to flip again, a flip is worth at least as much; on WIDE it is worth more."""
    row, nest = (B1,), (Duck("blue", 3), Duck("green", 3))
    unseen = _deck_minus(WIDE, row, nest)
    values = [flip_values(row, unseen, nest, d)[1] for d in (1, 2, 3, 4)]
    assert values[0] < values[1] < values[2] <= values[3]


def test_best_stop_says_both_stop_and_flip_and_checks_its_cards():
    """DDB-4: one more flip pays with a short row, not with a long one; cards outside the deck are refused."""
    cfg = Config()
    assert best_stop([R1], _deck_minus(cfg, [R1]), cfg) is False
    long_row = [Duck(s, 4) for s in cfg.suits[:6]]
    assert best_stop(long_row, _deck_minus(cfg, long_row), cfg) is True
    with pytest.raises(ValueError, match="not in this config's deck"):
        best_stop([Duck("red", 7)], _deck_minus(cfg, []), cfg)
    with pytest.raises(ValueError, match="depth"):
        flip_values([R1], [R2], (), 0)


@pytest.mark.parametrize("cfg", [Config(), Config.presets()["kleine-fische"], Config(die=(-1, -1, 0, 2, 5, 6), max_steal=5)])
def test_steal_expectation_matches_every_die_face(cfg):
    """DDB-7, DDB-8: expected net cards for the thief equals the average over every face of the die."""
    thief = [R1, G2, Duck("teal", 4)]
    victim = [Duck(s, n) for s in ("pink", "grey", "brown") for n in (1, 2)]
    for declared in range(cfg.min_steal, cfg.max_steal + 1):
        net = [len(_after_roll(cfg, f, Steal(1, declared), tuple(thief), tuple(victim))[1].nests[0]) - 3 for f in cfg.die]
        assert steal_expectation(declared, cfg) == Fraction(sum(net), len(net))
    assert steal_expectation(2) == Fraction(5, 6)
    with pytest.raises(ValueError, match="declared"):
        steal_expectation(cfg.max_steal + 1, cfg)


# --- configuration -----------------------------------------------------------------

@pytest.mark.parametrize(
    "changes, field",
    [
        ({"suits": ()}, "suits"),
        ({"numbers": ()}, "numbers"),
        ({"players": 1}, "players"),
        ({"players": 6}, "players"),
        ({"target": 0}, "target"),
        ({"max_steal": 4}, "max_steal"),
        ({"die": (-1, 1, 1, 2, 2, 2)}, "max_steal"),
        ({"min_steal": 0}, "min_steal"),
        ({"die": (-2, 1, 2, 3)}, "die"),
        ({"minus_one": "keep"}, "minus_one"),
        ({"end": "time"}, "end"),
        ({"suits": ("red", "red")}, "suits"),
        ({"suits": ("red", "bruce")}, "suits"),
        ({"numbers": (1, 0)}, "numbers"),
        ({"rounds": 0}, "rounds"),
    ],
)
def test_impossible_configs_raise_clear_errors(changes, field):
    """DDB-1, DDB-6, DDB-12: impossible settings are refused, naming the field, value and what is allowed."""
    with pytest.raises(ValueError, match=rf"^{field}=.* is not allowed: "):
        Config(**changes)


def test_config_text_round_trips_and_presets_differ_as_documented():
    """DDB-8, DDB-12: the presets change only the -1 rule, the rounds and the end rule."""
    p = Config.presets()
    assert list(p) == ["base", "kleine-fische", "short", "race-to-77"]
    assert p["kleine-fische"].describe() == "minus_one=discard"
    assert p["short"].describe() == "rounds=1"
    assert p["race-to-77"].describe() == "end=target"
    cfg = Config().with_text(["die=-1,0,2,4", "max_steal=4", "suits=red,blue"])
    assert cfg.die == (-1, 0, 2, 4) and len(cfg.deck()) == 18
    assert Config.from_dict(cfg.to_dict()) == cfg


# --- bots -----------------------------------------------------------------------------

def test_threshold_bots_stop_at_their_row_length():
    """DDB-4: threshold-k flips until the row holds k ducks."""
    for k in range(1, 6):
        bot = ddb.BOTS[f"threshold-{k}"]
        for length in range(1, 7):
            row = [Duck(s, 1) for s in Config().suits[:length]]
            s = _state(pile=_deck_minus(Config(), row)[:5], row=row)
            action = bot(ddb.observation(s, 0), ddb.legal_actions(s), random.Random(0))
            assert action == (STOP if length >= k else FLIP)


def test_exact_greedy_and_heuristic_follow_their_rules_on_played_positions():
    """DDB-4: exact-greedy stops exactly when best_stop says so (as does lookahead at depth 1
    without tempo); heuristic when the bust chance passes its level."""
    s = ddb.new_game(Config(), 31)
    rng = random.Random(2)
    checked = 0
    while not s.is_over and checked < 60:
        obs = ddb.observation(s, s.current_player)
        legal = ddb.legal_actions(s)
        if s.phase == DECIDE:
            unseen = obs.unseen()
            want = STOP if best_stop(obs.row, unseen, obs.config, obs.nests[obs.player]) else FLIP
            assert ddb.BOTS["exact-greedy"](obs, legal, rng) == want
            level = bust_probability(obs.row, unseen) > Fraction(35, 100)
            assert ddb.BOTS["heuristic"](obs, legal, rng) == (STOP if level else FLIP)
            assert ddb.lookahead_bot(depth=1, tempo=0)(obs, legal, rng) == want
            checked += 1
        s = ddb.apply(s, legal[rng.randrange(len(legal))])
    assert checked >= 30


def test_steal_choice_declines_empty_nests_and_targets_a_full_one():
    """DDB-6: the bots' steal rule does not gamble on empty nests and prefers a nest with cards it lacks."""
    s = _state(pile=[R2], phase=STEAL, nests=[(R1, B1), (), (Duck("pink", 4), Duck("grey", 4)), ()])
    choice = ddb.steal_choice(ddb.observation(s, 0), ddb.legal_actions(s))
    assert choice.target == 2
    empty = _state(pile=[R2], phase=STEAL, nests=[(R1, B1), (), (), ()])
    assert ddb.steal_choice(ddb.observation(empty, 0), ddb.legal_actions(empty)) == NO_STEAL


def test_every_bot_plays_legal_games_that_replay():
    """DDB-2: every registered bot finishes a seeded short game whose record replays exactly."""
    short = Config.presets()["short"]
    names = [n for n in ddb.BOTS if n != "monte-carlo"]
    for i, name in enumerate(names):
        rec = play("duck-duck-bruce", short, [name, "random", "heuristic", "exact-greedy"], 50 + i)
        assert replay(rec.to_json()) == rec
    assert {"random", "heuristic", "exact-greedy", "lookahead"} <= set(ddb.BOTS)
    assert {f"threshold-{k}" for k in range(1, 6)} <= set(ddb.BOTS)


def test_monte_carlo_bot_picks_a_legal_action_from_sampled_worlds():
    """DDB-13: the shared Monte Carlo lookahead works on determinized worlds and returns a legal action."""
    s = _state(pile=_deck_minus(Config(), [R1])[:12], row=(R1,))
    legal = ddb.legal_actions(s)
    assert ddb.BOTS["monte-carlo"](ddb.observation(s, 0), legal, random.Random(3)) in legal


def test_heuristic_beats_random_significantly():
    """DDB-4: stopping on the bust chance wins well above the fair share 1/4 against random play."""
    r = head_to_head("duck-duck-bruce", Config(), "heuristic", "random", 300, seed=2026)
    assert r["ci95"][0] > r["fair_share"], r


# --- statistics for simulate: game_stats and score_sources ------------------------

def _tally(state, seat):
    return ddb.tallies(state)[seat]


def test_game_stats_count_busts_and_the_ducks_they_throw_away():
    """DDB-5, DDB-6: a double and a Bruce each count as a bust of the player who
    flipped it, with the ducks of the row that went to the discard pile."""
    double = ddb.apply(_state(pile=[B1, Duck("yellow", 3), R2], row=(R1, B2, G1)), FLIP)
    assert _tally(double, 0)["doubles"] == 1 and _tally(double, 0)["ducks_busted"] == 2  # B2, G1 (not the new B1)
    bruce = ddb.apply(_state(Config(players=3), pile=[BRUCE, R2, B2], row=(R1, B2, G1)), FLIP)
    assert _tally(bruce, 0)["bruces"] == 1 and _tally(bruce, 0)["ducks_busted"] == 3
    declined = ddb.apply(bruce, NO_STEAL)
    stats = ddb.game_stats(declined)
    assert stats["bruces"] == [1, 0, 0] and stats["steals_declined"] == [1, 0, 0]
    assert stats["ducks_busted"] == [3, 0, 0] and stats["steals_tried"] == [0, 0, 0]
    assert "points_taken" not in stats  # that one feeds score_sources


def test_game_stats_count_steals_and_what_they_cost():
    """DDB-7, DDB-8: tries, successes, cards stolen and lost to thieves, and -1 backfires."""
    _, hit = _after_roll(Config(), 3, Steal(1, 2))
    t0, t1 = _tally(hit, 0), _tally(hit, 1)
    assert (t0["steals_tried"], t0["steals_succeeded"], t0["cards_stolen"]) == (1, 1, 2)
    assert t1["cards_lost_to_thieves"] == 2 and t1["steals_tried"] == 0
    _, low = _after_roll(Config(), 1, Steal(1, 2))
    assert (_tally(low, 0)["steals_tried"], _tally(low, 0)["steals_succeeded"]) == (1, 0)
    for cfg in (Config(), Config.presets()["kleine-fische"]):
        _, back = _after_roll(cfg, -1)
        t0 = _tally(back, 0)
        assert (t0["steals_tried"], t0["backfires"], t0["cards_lost_to_backfires"], t0["steals_succeeded"]) == (1, 1, 1, 0)
    _, empty = _after_roll(Config(), -1, thief=())
    assert _tally(empty, 0)["backfires"] == 1 and _tally(empty, 0)["cards_lost_to_backfires"] == 0


def test_taken_cards_are_tracked_through_later_steals():
    """DDB-7: the cards a nest took from others stay marked when other cards leave it."""
    red4 = Duck("red", 4)
    outcomes = set()
    for seed in range(60):
        s = _state(pile=[R2, G1], phase=STEAL, nests=[(R1, B1, G2), (red4,), (), ()])
        s.chance = Chance(seed)
        after = ddb.apply(s, Steal(1, 1))  # seat 0 tries to take seat 1's red 4
        if "takes red 4" not in after.events[0]:
            continue
        assert after.taken[0] == (3,) and after.nests[0][3] == red4
        # now seat 1 steals one card back from seat 0: the marks follow the red 4, or vanish with it
        back = _state(pile=[R2, G1], phase=STEAL, nests=after.nests, current=1)
        back.taken, back.chance = after.taken, Chance(seed + 1000)
        _resolve_steal(back, 1, Steal(0, 1), 1)
        ddb.check_state(back)
        marked = [back.nests[0][i] for i in back.taken[0]]
        assert marked == ([red4] if red4 in back.nests[0] else [])
        outcomes.add(red4 in back.nests[0])
    assert outcomes == {True, False}


def test_score_sources_split_points_into_own_flips_and_taken_cards():
    """DDB-10: a stolen red 4 over my own red 1 adds 3 points on top of what my own cards score."""
    cfg = Config(players=2, rounds=1)
    for seed in range(40):
        s = _state(cfg, pile=[G1], phase=STEAL, nests=[(R1, B2), (Duck("red", 4),)])
        s.chance = Chance(seed)
        after = ddb.apply(s, Steal(1, 1))  # then seat 1 flips the last card, the round and game end
        if "takes red 4" in after.events[0]:
            break
    assert after.is_over
    mine = after.history[0][0]
    assert mine == 4 + 2
    assert ddb.score_sources(after)[0] == {"flipped": 1 + 2, "taken": 3}
    assert sum(ddb.score_sources(after)[1].values()) == ddb.scores(after)[1]


@pytest.mark.parametrize("preset", list(Config.presets()))
def test_score_sources_add_up_and_stats_are_consistent_in_played_games(preset):
    """DDB-10, DDB-12: in seeded games the sources add up to every score, nothing is negative,
    and every card one seat stole is a card another seat lost."""
    cfg = Config.presets()[preset]
    for seed in range(6):
        rec = play("duck-duck-bruce", cfg, ["random", "heuristic", "random", "threshold-2"], seed)
        sources = ddb.score_sources(rec.state)
        assert [sum(d.values()) for d in sources] == list(rec.scores)
        assert all(v >= 0 for d in sources for v in d.values())
        stats = ddb.game_stats(rec.state)
        assert sum(stats["cards_stolen"]) == sum(stats["cards_lost_to_thieves"])
        busts = sum(stats["doubles"]) + sum(stats["bruces"])
        assert busts == sum(1 for e in rec.events if "a second" in e or "flips Bruce" in e)
        assert sum(stats["steals_tried"]) == sum(1 for e in rec.events if "tries to steal" in e)
        assert sum(stats["bruces"]) == sum(stats["steals_tried"]) + sum(stats["steals_declined"])


def test_simulate_table_has_the_stats_and_sources():
    """DDB-12: simulate shows the stats as columns and points_flipped + points_taken = score."""
    from meeple.rules import simulate

    res = simulate("duck-duck-bruce", None, "heuristic", 12, 3, workers=1, progress=False)
    t = res.table
    for col in ("doubles", "bruces", "steals_tried", "cards_lost_to_backfires", "points_flipped", "points_taken"):
        assert col in t.columns
    assert (t["points_flipped"] + t["points_taken"] == t["score"]).all()
    assert t["bruces"].sum() == 12 * 3 * 6  # every Bruce of every round was flipped by someone


# --- long games (issue 9, items 4 and 5) ---------------------------------------

def test_rounds_that_end_by_themselves_do_not_recurse():
    """DDB-9, DDB-12: a one-card deck ends every round on its first flip, with no
    decision; a target of 1,000 plays thousands of such rounds (one point each)
    inside new_game. It used to recurse once per round and die with RecursionError."""
    cfg = Config(suits=("a",), numbers=(1,), bruce_cards=0, end="target", target=1000)
    rec = play("duck-duck-bruce", cfg, "random", seed=3)
    assert rec.finished and max(rec.scores) == 1000 and rec.actions == ()
    assert len(rec.round_scores) == sum(rec.scores) >= 1000 and rec.events[-1].startswith("Game over")


def test_events_and_facts_are_appended_in_place_and_never_change_an_older_state():
    """Appending an event costs O(1): the new state shares the log and adds to it
    (it used to copy the whole tuple on every move). An older state still shows
    only its own events, and a second move from it branches off its own copy."""
    a = ddb.new_game(Config(players=3), 5)
    while a.phase != DECIDE:
        a = ddb.apply(a, NO_STEAL)
    before, facts = a.events, a.facts
    b = ddb.apply(a, FLIP)
    assert b._events is a._events and len(b.events) > len(before)  # shared list, appended in place
    assert a.events == before and a.facts == facts  # a's view did not change
    c = ddb.apply(a, STOP)  # a branch from the older state
    assert c._events is not a._events and c.events[: len(before)] == before
    assert c.events[len(before)].startswith("Player") and "stops" in c.events[len(before)]
    assert a.events == before and b.events[: len(before)] == before and b.events != c.events


def test_a_long_game_keeps_every_event_once():
    """A race to 3,000 with a small deck: thousands of moves, every event kept once, in order."""
    cfg = Config(suits=("a", "b"), numbers=(1, 2), bruce_cards=1, end="target", target=3000, players=2)
    rec = play("duck-duck-bruce", cfg, "heuristic", seed=1)
    rounds = [e for e in rec.events if " scores: " in e]
    assert len(rounds) == len(rec.round_scores) > 1000
    assert [int(e.split()[1]) for e in rounds] == list(range(1, len(rounds) + 1))
    assert replay(rec.to_json()).events == rec.events
