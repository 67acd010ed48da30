"""Bucket King 3D: one or more tests per numbered rule in seeds/bucket_king.md."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import fields as dataclass_fields
from fractions import Fraction
from itertools import combinations, product

import pytest

from meeple.rules import bucket_king as bk
from meeple.rules import play, replay
from meeple.rules.sim import head_to_head
from meeple.rules.bucket_king import (
    Card, Config, Direction, KeepPart, LoseBucket, PlayCards, Place, can_beat, fall_distribution, falling_buckets,
)
from meeple.rules.chance import Chance, game_seed, start
from meeple.rules.core import resolve_bots
from meeple.rules.protocol import LazySeatRandom
from meeple.rules.sim.play import _leader


def C(text: str) -> Card:
    colour, value = text.split()
    return Card(colour, int(value))


def cards(*texts) -> tuple[Card, ...]:
    return tuple(sorted(C(t) for t in texts))


ROWS5 = (5, 4, 3, 2, 1)
ALL5 = [(r, i) for r, n in enumerate(ROWS5) for i in range(n)]


def _set_pyramid(s, seat, pyr):
    """Give `seat` this pyramid, booking the missing buckets as lost in an earlier round."""
    size = len(s.pyramids[seat])
    s.pyramids = s.pyramids[:seat] + (tuple(pyr),) + s.pyramids[seat + 1 :]
    left = size - list(pyr).count(None)
    s.buckets = s.buckets[:seat] + (left,) + s.buckets[seat + 1 :]
    s.history += (tuple(size - left if i == seat else 0 for i in range(s.config.players)),)
    s.falls += ((size - left - 1, 0),)  # one chosen bucket, the rest fell with it


def _arranged(cfg=None, seed=0, colours=None):
    """A game just past set-up: every pyramid built in the first offered colour, or from `colours`."""
    cfg = cfg or Config()
    s = bk.new_game(cfg, seed)
    while s.phase == bk.ARRANGE:
        legal = bk.legal_actions(s)
        if colours is None:
            a = legal[0]
        else:
            want = colours[s.pyramids[s.current_player].index(None)]
            a = next(x for x in legal if x.colour == want)
        s = bk.apply(s, a)
    return s


def _state(cfg=None, *, hands, current=0, phase=bk.FOLLOW, colour="blue", to_beat=0, attacker=None,
           fronts=None, direction=1, discard=(), draw=None, pyramid_colours=None):
    """A hand-built mid-round state whose cards add up to the deck (the rest in the draw pile)."""
    cfg = cfg or Config()
    s = _arranged(cfg, colours=pyramid_colours)._copy()
    n = cfg.players
    hands = tuple(tuple(sorted(h)) for h in hands)
    fronts = tuple(tuple(f) for f in fronts) if fronts else ((),) * n
    rest = Counter(cfg.deck())
    for part in (*hands, *fronts, discard):
        rest.subtract(part)
    assert all(v >= 0 for v in rest.values())
    s.hands, s.fronts, s.discard = hands, fronts, tuple(discard)
    s.draw = tuple(sorted(rest.elements())) if draw is None else tuple(draw)
    if draw is not None:
        leftover = rest - Counter(draw)
        s.discard += tuple(sorted(leftover.elements()))
    s.phase, s.current_player, s.colour, s.to_beat, s.attacker = phase, current, colour, to_beat, attacker
    s.direction = direction
    bk.check_state(s)
    return s


def _texts(state):
    return [str(a) for a in bk.legal_actions(state)]


# --- BK-1, BK-2: cards ------------------------------------------------------

def test_deck_has_80_cards_five_colours_values_1_to_8_twice():
    """BK-1: 5 colours x values 1-8 x 2 copies = 80 cards."""
    deck = Counter(Config().deck())
    assert sum(deck.values()) == 80
    assert len(Config().colours) == 5
    for colour in Config().colours:
        assert [deck[Card(colour, v)] for v in range(1, 9)] == [2] * 8


@pytest.mark.parametrize("players", [2, 4, 6])
def test_ten_cards_each_and_the_rest_is_the_draw_pile(players):
    """BK-2: 10 cards dealt to each player; the rest is the draw pile; hands are secret."""
    s = bk.new_game(Config(players=players), 4)
    assert [len(h) for h in s.hands] == [10] * players
    assert len(s.draw) == 80 - 10 * players and s.discard == ()
    obs = bk.observation(s, 1)
    assert obs.hand == s.hands[1] and obs.hand_counts == (10,) * players and obs.draw_count == len(s.draw)
    assert not hasattr(obs, "hands") and not hasattr(obs, "draw")


def test_empty_draw_pile_is_refilled_from_the_shuffled_discard_pile():
    """BK-2: a draw from an empty draw pile shuffles the discard pile into a new one."""
    hands = [cards("blue 8", "red 1"), cards("blue 2"), cards("green 3"), cards("green 4")]
    s = _state(hands=hands, phase=bk.LEAD, colour=None, draw=())
    assert s.draw == () and len(s.discard) == 80 - 5
    after = bk.apply(s, PlayCards(cards("blue 8")))
    assert len(after.hands[0]) == 2 and len(after.draw) == 80 - 5 - 1 and after.discard == ()
    assert any("shuffled into a new one" in e for e in after.events)
    bk.check_state(after)


# --- BK-3, BK-4: pyramids ----------------------------------------------------

@pytest.mark.parametrize("players, size, per_colour, rows", [
    (2, 15, 3, (5, 4, 3, 2, 1)), (3, 15, 3, (5, 4, 3, 2, 1)), (4, 15, 3, (5, 4, 3, 2, 1)),
    (5, 10, 2, (4, 3, 2, 1)), (6, 10, 2, (4, 3, 2, 1)),
])
def test_bucket_count_and_rows_depend_on_the_number_of_players(players, size, per_colour, rows):
    """BK-3: 2-4 players 15 buckets (3 per colour) in rows 5-4-3-2-1; 5-6 players 10 (2 per colour), 4-3-2-1."""
    cfg = Config(players=players)
    assert cfg.rows == rows and cfg.buckets_each == per_colour
    s = _arranged(cfg, seed=players)
    assert bk.scores(s) == [size] * players
    for pyr in s.pyramids:
        assert Counter(pyr) == {c: per_colour for c in cfg.colours}


def test_a_bucket_rests_on_the_two_below_it():
    """BK-3: bucket (r, i) rests on (r-1, i) and (r-1, i+1): taking (0, 0) takes the left edge up to the top."""
    assert falling_buckets(ROWS5, [], (0, 0)) == {(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)}
    assert falling_buckets(ROWS5, [], (1, 2)) == {(1, 2), (2, 1), (2, 2), (3, 0), (3, 1), (4, 0)}


def test_pyramid_is_built_bucket_by_bucket_after_seeing_the_hand():
    """BK-4: Player 1 builds first, bottom row left to right, then upwards; only colours still in supply."""
    s = bk.new_game(Config(), 2)
    assert s.phase == bk.ARRANGE and s.current_player == 0
    assert bk.observation(s, 0).hand == s.hands[0] and len(s.hands[0]) == 10
    seen = []
    while s.current_player == 0:
        legal = bk.legal_actions(s)
        assert len({a.position for a in legal}) == 1
        seen.append(legal[0].position)
        red = [a for a in legal if a.colour == "red"]
        s = bk.apply(s, red[0] if red else legal[0])
    assert seen == ALL5
    assert s.pyramids[0][:3] == ("red",) * 3 and "red" not in s.pyramids[0][3:]
    with pytest.raises(ValueError):
        bk.apply(s, Place((1, 0), "red"))  # not the next slot
    assert bk.legal_actions(s)[0].position == (0, 0) and s.current_player == 1


def test_set_up_offers_the_same_however_the_state_was_made():
    """BK-3, BK-4: the builder is offered the next slot in each colour they still have buckets
    of, whether the state kept that supply from its moves (the step path), must count it from
    the pyramid (a hand-made state) or is a determinized world."""
    cfg = Config(players=5)  # 2 buckets a colour: colours run out early
    positions = bk.pyramid.layout_of(cfg.rows).positions
    s = bk.new_game(cfg, 7)
    rng = random.Random(7)
    while s.phase == bk.ARRANGE:
        p = s.current_player
        pyr = s.pyramids[p]
        want = [Place(positions[pyr.index(None)], c) for c in cfg.colours if pyr.count(c) < cfg.buckets_each]
        counted = s._copy()
        counted._supply = None  # as if made by hand: the pyramid is counted
        world = bk.determinize(bk.observation(s, p), random.Random(1))
        assert bk.legal_actions(s) == bk.legal_actions(counted) == bk.legal_actions(world) == want
        a = rng.choice(want)
        s, counted = bk.apply(s, a), bk.apply(counted, a)
        bk.check_state(s)
        assert counted.pyramids == s.pyramids and bk.legal_actions(counted) == bk.legal_actions(s)
    assert all(Counter(pyr) == {c: 2 for c in cfg.colours} for pyr in s.pyramids)


def test_heuristic_puts_its_strong_colour_low_and_a_colour_it_lacks_on_top():
    """BK-4 (tips): more/higher cards in a colour -> its buckets low in the pyramid; no cards -> at the top."""
    cfg = Config()
    s = bk.new_game(cfg, 0)._copy()
    mine = cards("red 8", "red 7", "red 6", "blue 5", "blue 4", "green 3", "green 2", "yellow 1", "yellow 2", "yellow 1")
    rest = list((Counter(cfg.deck()) - Counter(mine)).elements())
    s.hands = (mine,) + tuple(tuple(sorted(rest[10 * i : 10 * i + 10])) for i in range(3))
    s.draw = tuple(rest[30:])
    bk.check_state(s)
    while s.current_player == 0:
        a = bk.heuristic_bot(bk.observation(s, 0), bk.legal_actions(s), random.Random(0))
        s = bk.apply(s, a)
    pyr = dict(zip(ALL5, s.pyramids[0]))
    assert pyr[(0, 2)] == "red" and pyr[(4, 0)] == "purple"
    worst_red = min(len(falling_buckets(ROWS5, [], q)) for q, c in pyr.items() if c == "red")
    worst_purple = min(len(falling_buckets(ROWS5, [], q)) for q, c in pyr.items() if c == "purple")
    assert worst_red > worst_purple


# --- BK-5 to BK-8: a round ---------------------------------------------------

def test_first_round_player_1_starts_and_points_left_or_right():
    """BK-5: Player 1 starts; left = the next seat (clockwise), right = the seat before."""
    s = _arranged()
    assert (s.phase, s.current_player, s.round) == (bk.DIRECTION, 0, 0)
    assert bk.legal_actions(s) == [Direction("left"), Direction("right")]
    left = bk.apply(s, Direction("left"))
    right = bk.apply(s, Direction("right"))
    lead = bk.legal_actions(left)[0]
    assert bk.apply(left, lead).current_player == 1
    assert bk.apply(right, lead).current_player == 3


def test_two_players_have_no_direction_to_choose():
    """BK-5: with two players both directions are the same, so the round starts with the lead."""
    s = _arranged(Config(players=2))
    assert s.phase == bk.LEAD and all(type(a) is PlayCards for a in bk.legal_actions(s))


def test_the_lead_is_one_to_three_cards_of_one_colour_with_any_sum():
    """BK-6: any colour, 1-3 cards, any sum; identical card sets offered once; no losing while holding cards."""
    hand = cards("blue 3", "blue 3", "blue 5", "blue 8", "red 2")
    s = _state(hands=[hand, cards("red 1"), cards("red 3"), cards("red 4")], phase=bk.LEAD, colour=None)
    legal = bk.legal_actions(s)
    assert all(type(a) is PlayCards and 1 <= len(a.cards) <= 3 and len({c.colour for c in a.cards}) == 1 for a in legal)
    texts = [str(a) for a in legal]
    assert len(texts) == len(set(texts))
    # blue: 3 singles, 5 distinct pairs (3+3, 3+5, 3+8, 5+8), 4 distinct triples; red: 1 single
    assert sorted(texts) == sorted([
        "blue 3", "blue 5", "blue 8", "blue 3+3", "blue 3+5", "blue 3+8", "blue 5+8",
        "blue 3+3+5", "blue 3+3+8", "blue 3+5+8", "red 2",
    ])
    after = bk.apply(s, PlayCards(cards("red 2")))
    assert after.colour == "red" and after.to_beat == 2 and after.attacker == 0
    with pytest.raises(ValueError):
        bk.apply(s, PlayCards(cards("blue 3", "blue 5", "blue 8", "blue 3")))
    with pytest.raises(ValueError):
        bk.apply(s, LoseBucket((4, 0), s.pyramids[0][-1]))


def test_a_follower_must_beat_the_last_sum_with_their_own_running_total():
    """BK-7: cards of the required colour; own cards already in front count; equal is not enough."""
    hands = [cards("blue 2"), cards("blue 1", "blue 4", "blue 6", "red 8"), cards("red 3"), cards("red 4")]
    s = _state(hands=hands, current=1, colour="blue", to_beat=9, attacker=0,
               fronts=[cards("blue 1", "blue 8"), cards("blue 3"), (), ()])
    plays = [a for a in bk.legal_actions(s) if type(a) is PlayCards]
    # 3 already in front: needs more than 6 -> 1+6, 4+6, 1+4+6 (6 alone ties at 9)
    assert sorted(str(a) for a in plays) == ["blue 1+4+6", "blue 1+6", "blue 4+6"]
    with pytest.raises(ValueError):
        bk.apply(s, PlayCards(cards("blue 6")))
    with pytest.raises(ValueError):
        bk.apply(s, PlayCards(cards("red 8")))
    after = bk.apply(s, PlayCards(cards("blue 1", "blue 6")))
    assert after.to_beat == 10 and after.attacker == 1 and after.current_player == 2
    assert after.fronts[1] == cards("blue 3") + cards("blue 1", "blue 6")
    assert can_beat(hands[1], "blue", 9, cards("blue 3")) and not can_beat(hands[1], "blue", 14, cards("blue 3"))
    assert not can_beat(hands[1], "green", 0, ())


def test_play_goes_round_the_table_and_the_start_player_adds_to_their_cards():
    """BK-7: a start player who is reached again adds 1-3 cards to those already in front of them."""
    s = _state(Config(players=2), hands=[cards("blue 2", "blue 7"), cards("blue 1", "blue 7")], phase=bk.LEAD,
               colour=None, draw=())
    s = bk.apply(s, PlayCards(cards("blue 7")))
    s = bk.apply(s, PlayCards(cards("blue 1", "blue 7")))
    assert s.current_player == 0 and s.to_beat == 8 and s.fronts[0] == cards("blue 7")
    assert PlayCards(cards("blue 2")) in bk.legal_actions(s)  # 7 + 2 = 9 beats 8
    s = bk.apply(s, PlayCards(cards("blue 2")))
    assert s.to_beat == 9 and s.fronts[0] == cards("blue 7") + cards("blue 2")


def test_legal_plays_match_a_brute_force_enumeration():
    """BK-6, BK-7, BK-17, BK-18: every sub-multiset of the hand that the rules allow, and nothing else."""
    cfg = Config(special_one=True, backfiring_discard=True)
    rng = random.Random(5)
    deck = cfg.deck()
    for trial in range(25):
        rng.shuffle(deck)
        hand = tuple(sorted(deck[:9]))
        front = tuple(sorted(deck[9:10]))
        colour = front[0].colour
        to_beat = rng.randrange(4, 20)
        others = [tuple(sorted(deck[10 + 3 * i : 13 + 3 * i])) for i in range(3)]
        s = _state(cfg, hands=[others[0], hand, others[1], others[2]], current=1, colour=colour, to_beat=to_beat,
                   fronts=[(), front, (), ()])
        got = {a for a in bk.legal_actions(s) if type(a) is PlayCards}
        want = set()
        idx = range(len(hand))
        for k in range(1, 6):
            for pick in combinations(idx, k):
                chosen = [hand[i] for i in pick]
                rest_idx = [i for i in idx if i not in pick]
                for discard in [None] + rest_idx:
                    main = tuple(sorted(c for c in chosen if c.colour == colour))
                    extra = tuple(sorted(c for c in chosen if c.colour != colour))
                    if not 1 <= len(main) <= 3 or len(main) + len(extra) > 5:
                        continue
                    if len(extra) > sum(c.value == 1 for c in main):
                        continue
                    d = None if discard is None else hand[discard]
                    if d is not None and d.colour != colour:
                        continue
                    if front[0].value + sum(c.value for c in main + extra) <= to_beat:
                        continue
                    want.add(PlayCards(main, extra, d))
        assert got == want, trial
        assert can_beat(hand, colour, to_beat, front, cfg) == bool(want)


def test_a_play_draws_exactly_one_card_however_many_were_played():
    """BK-8: 3 cards down, 1 card drawn."""
    hand = cards("blue 2", "blue 3", "blue 4", "red 5")
    s = _state(hands=[cards("blue 1"), hand, cards("red 3"), cards("red 4")], current=1, colour="blue", to_beat=1,
               attacker=0, fronts=[cards("blue 1"), (), (), ()])
    top = s.draw[-1]
    after = bk.apply(s, PlayCards(cards("blue 2", "blue 3", "blue 4")))
    assert len(after.hands[1]) == 4 - 3 + 1 and top in after.hands[1] and len(after.draw) == len(s.draw) - 1
    assert Config(draw_per_turn=2).draw_per_turn == 2


# --- BK-9 to BK-12: losing buckets -----------------------------------------

def test_losing_takes_a_bucket_of_the_required_colour_or_any_if_none_is_left():
    """BK-9: the choice is among buckets of the required colour; with none of it left, any bucket."""
    s = _state(hands=[cards("blue 8"), cards("red 1"), cards("red 2"), cards("red 3")], current=1, colour="blue",
               to_beat=8, attacker=0, fronts=[cards("blue 8"), (), (), ()])
    pyr = s.pyramids[1]
    losses = [a for a in bk.legal_actions(s) if type(a) is LoseBucket]
    assert sorted(a.position for a in losses) == sorted(q for q, c in zip(ALL5, pyr) if c == "blue")
    assert all(a.colour == "blue" for a in losses) and len(losses) == 3
    with pytest.raises(ValueError):
        bk.apply(s, LoseBucket((0, 0), "red"))  # red is not the required colour
    # the three purple buckets (the top of this pyramid) are gone: with purple required, any bucket goes
    no_purple = s._copy()
    no_purple.colour = "purple"
    _set_pyramid(no_purple, 1, tuple(None if c == "purple" else c for c in pyr))
    losses = [a for a in bk.legal_actions(no_purple) if type(a) is LoseBucket]
    assert len(losses) == 12 and {a.colour for a in losses} == {"red", "yellow", "green", "blue"}


def _brute_falls(rows, removed, position):
    """Independent reading of the exact rule: a bucket falls if a chain of 'rests on' links leads
    from it down to the removed bucket through buckets that are still there."""
    present = {(r, i) for r, n in enumerate(rows) for i in range(n)} - set(removed)

    def rests_on_removed(q):
        if q == position:
            return True
        r, i = q
        if r == 0:
            return False
        return any(b in present and rests_on_removed(b) for b in ((r - 1, i), (r - 1, i + 1)))

    return {q for q in present if rests_on_removed(q)}


def test_exact_rule_takes_every_bucket_resting_on_the_removed_one():
    """BK-10: the young-players rule: the bucket and, transitively, everything resting on it."""
    assert falling_buckets(ROWS5, [], (4, 0)) == {(4, 0)}
    assert len(falling_buckets(ROWS5, [], (0, 2))) == 9
    assert falling_buckets((4, 3, 2, 1), [(3, 0)], (1, 1)) == {(1, 1), (2, 0), (2, 1)}
    rng = random.Random(3)
    for _ in range(200):
        removed = rng.sample(ALL5, rng.randrange(0, 8))
        standing = [q for q in ALL5 if q not in removed]
        position = rng.choice(standing)
        assert falling_buckets(ROWS5, removed, position) == _brute_falls(ROWS5, removed, position)
    with pytest.raises(ValueError, match="position"):
        falling_buckets(ROWS5, [(0, 0)], (0, 0))
    with pytest.raises(ValueError, match="rows"):
        falling_buckets((5, 3), [], (0, 0))


def test_losing_in_the_game_uses_the_exact_rule_by_default():
    """BK-10: a lost bucket takes what rests on it; the count goes to the round's score."""
    s = _state(hands=[cards("blue 8"), cards("red 1"), cards("red 2"), cards("red 3")], current=1, colour="blue",
               to_beat=8, attacker=0, fronts=[cards("blue 8"), (), (), ()])
    a = max((x for x in bk.legal_actions(s) if type(x) is LoseBucket), key=lambda x: -x.position[0])
    after = bk.apply(s, a)
    lost = len(falling_buckets(ROWS5, [], a.position))
    assert after.buckets[1] == 15 - lost and bk.round_scores(after) == [[0, -lost, 0, 0]]


def _brute_poke(rows, removed, position, p):
    """Every bucket above gets a coin (heads w.p. p); an outcome's weight is the product over all
    coins; a bucket that lost one of two supports falls on heads, one with no support always falls."""
    above = [(r, i) for r, n in enumerate(rows) for i in range(n) if r > position[0] and (r, i) not in removed]
    out = Counter()
    for coins in product([True, False], repeat=len(above)):
        weight = Fraction(1)
        for heads in coins:
            weight *= p if heads else 1 - p
        fall = {position}
        for (r, i), heads in zip(above, coins):
            sup = [(r - 1, i), (r - 1, i + 1)]
            if not any(b in fall for b in sup):
                continue
            if heads or not any(b not in fall and b not in removed for b in sup):
                fall.add((r, i))
        out[len(fall)] += weight
    return dict(out)


def test_poke_model_matches_an_exact_enumeration_and_the_game_draws_it_from_chance():
    """BK-11: each bucket losing one of two supports falls with probability p; with no support it falls."""
    p = Fraction(1, 3)
    dist = fall_distribution(ROWS5, [], (1, 1), p)
    assert sum(dist.values()) == 1
    # hand check for a small case: a 3-2-1 pyramid, take (0, 0): (1, 0) falls w.p. p; then (2, 0) loses a
    # support: if (1, 0) fell, (2, 0) still rests on (1, 1) -> falls w.p. p
    small = fall_distribution((3, 2, 1), [], (0, 0), p)
    assert small == {1: 1 - p, 2: p * (1 - p), 3: p * p}
    assert fall_distribution(ROWS5, [], (0, 2), 1) == {len(falling_buckets(ROWS5, [], (0, 2))): 1}
    assert fall_distribution(ROWS5, [], (0, 2), 0) == {1: 1}
    with pytest.raises(ValueError, match="p="):
        fall_distribution(ROWS5, [], (0, 2), 2)
    assert _brute_poke(ROWS5, set(), (1, 1), p) == dist
    assert _brute_poke(ROWS5, {(4, 0), (3, 1)}, (0, 1), p) == fall_distribution(ROWS5, [(4, 0), (3, 1)], (0, 1), p)
    # the game samples the same distribution from its chance stream
    cfg = Config(fall_model="poke", fall_probability=float(p))
    lay = bk.pyramid.layout_of(ROWS5)
    counts = Counter()
    chance = Chance(7)
    runs = 3000
    for _ in range(runs):
        fall, chance = bk.pyramid.poke_falls([True] * 15, lay.index[(1, 1)], lay, cfg.fall_probability, chance)
        counts[len(fall)] += 1
    for k, prob in dist.items():
        assert abs(counts[k] / runs - float(prob)) < 4 * (float(prob) * (1 - float(prob)) / runs) ** 0.5 + 0.005


def test_a_split_pyramid_keeps_one_part_of_the_players_choice():
    """BK-12: taking (0, 1) leaves (0, 0) apart from 6 others; the player keeps one part."""
    s = _state(hands=[cards("blue 8"), cards("red 1"), cards("red 2"), cards("red 3")], current=1, colour="red",
               to_beat=8, attacker=0, fronts=[cards("red 8"), (), (), ()],
               pyramid_colours=["yellow", "red"] + ["yellow", "yellow"] + ["green"] * 3 + ["blue"] * 3
               + ["purple"] * 3 + ["red", "red"])
    assert dict(zip(ALL5, s.pyramids[1]))[(0, 1)] == "red"
    split = bk.apply(s, LoseBucket((0, 1), "red"))
    assert split.phase == bk.KEEP and split.current_player == 1
    assert split.buckets[1] == 15 - 8
    assert _texts(split) == ["keep the 1 bucket with row 1, slot 1", "keep the 6 buckets with row 1, slot 3"]
    big = bk.apply(split, KeepPart((0, 2), 6))
    small = bk.apply(split, KeepPart((0, 0), 1))
    assert big.buckets[1] == 6 and small.buckets[1] == 1
    assert bk.round_scores(big)[-1][1] == -9 and bk.round_scores(small)[-1][1] == -14
    bk.check_state(big)
    assert bk.heuristic_bot(bk.observation(split, 1), bk.legal_actions(split), random.Random(0)) == KeepPart((0, 2), 6)


# --- BK-13 to BK-16: rounds and the end --------------------------------------

def test_losing_ends_the_round_cards_go_to_the_discard_pile_and_the_loser_starts():
    """BK-13: every card in front of a player goes to the discard pile; the loser starts the next round."""
    s = _state(hands=[cards("blue 1"), cards("red 1"), cards("red 2"), cards("red 3")], current=2, colour="blue",
               to_beat=9, attacker=1, fronts=[cards("blue 8"), cards("blue 4", "blue 5"), (), ()])
    a = next(x for x in bk.legal_actions(s) if type(x) is LoseBucket)
    after = bk.apply(s, a)
    assert after.round == s.round + 1 and after.start_player == 2 and after.current_player == 2
    assert after.phase == bk.DIRECTION and after.fronts == ((),) * 4
    assert Counter(after.discard) - Counter(s.discard) == Counter(cards("blue 8", "blue 4", "blue 5"))
    assert after.colour is None and after.to_beat == 0


def test_most_buckets_wins_and_ties_share_the_win():
    """BK-14: scores are buckets left; the most wins; equal most -> every such player wins."""
    s = _arranged()._copy()
    s.is_over, s.current_player, s.phase = True, None, bk.OVER
    s.buckets = (7, 0, 7, 3)
    assert bk.scores(s) == [7, 0, 7, 3] and bk.winners(s) == [0, 2]
    s.buckets = (7, 0, 8, 3)
    assert bk.winners(s) == [2]
    assert bk.winners(_arranged()) == []


def _one_bucket_left(cfg, seat, hands):
    s = _state(cfg, hands=hands, current=seat, colour="blue", to_beat=8, attacker=(seat - 1) % cfg.players,
               fronts=[cards("blue 8") if i == (seat - 1) % cfg.players else () for i in range(cfg.players)])
    size = len(s.pyramids[seat])
    s.pyramids = s.pyramids[:seat] + (("green",) + (None,) * (size - 1),) + s.pyramids[seat + 1 :]
    s.buckets = s.buckets[:seat] + (1,) + s.buckets[seat + 1 :]
    s.history = (tuple(size - 1 if i == seat else 0 for i in range(cfg.players)),)
    s.falls = ((size - 2, 0),)
    bk.check_state(s)
    return s


def test_with_two_to_four_players_the_first_empty_pyramid_ends_the_game():
    """BK-15: a player losing their last bucket ends the game at once."""
    s = _one_bucket_left(Config(), 2, [cards("red 1"), cards("red 2"), cards("red 3"), cards("red 4")])
    assert bk.legal_actions(s)[-1] == LoseBucket((0, 0), "green")
    end = bk.apply(s, LoseBucket((0, 0), "green"))
    assert end.is_over and end.current_player is None and end.buckets[2] == 0
    assert bk.winners(end) == [0, 1, 3] and end.events[-1].startswith("Game over")


def test_with_five_or_six_players_an_empty_pyramid_puts_the_player_out():
    """BK-16: out, cards to the discard pile, the neighbour who did not attack starts; the second out ends it."""
    cfg = Config(players=6)
    hands = [cards(f"red {v}") for v in range(1, 7)]
    hands[3] = cards("yellow 1", "yellow 2")
    s = _one_bucket_left(cfg, 3, hands)  # Player 3 (seat 2) attacked Player 4 (seat 3), direction left
    after = bk.apply(s, LoseBucket((0, 0), "green"))
    assert not after.is_over and after.out[3] and after.hands[3] == ()
    assert Counter(cards("yellow 1", "yellow 2")) <= Counter(after.discard)
    assert after.start_player == 4 and after.current_player == 4
    bk.check_state(after)
    # direction reversed: the attacker sat on the other side, so the start goes the other way
    s2 = s._copy()
    s2.direction, s2.attacker = -1, 4
    s2.fronts = ((),) * 4 + (cards("blue 8"),) + ((),)
    assert bk.apply(s2, LoseBucket((0, 0), "green")).start_player == 2
    # a second player with an empty pyramid ends the game
    later = _one_bucket_left(cfg, 5, hands)
    later.out = (False, False, False, True, False, False)
    _set_pyramid(later, 3, (None,) * 10)
    later.discard += later.hands[3]
    later.hands = later.hands[:3] + ((),) + later.hands[4:]
    bk.check_state(later)
    end = bk.apply(later, LoseBucket((0, 0), "green"))
    assert end.is_over and end.buckets[3] == end.buckets[5] == 0
    assert bk.winners(end) == [0, 1, 2, 4]


def test_the_next_player_skips_players_who_are_out():
    """BK-16: turns pass over a player who is out."""
    cfg = Config(players=5)
    s = _state(cfg, hands=[cards("blue 5"), cards("blue 6"), cards("blue 7"), (), cards("blue 8")], phase=bk.LEAD,
               colour=None)
    size = len(s.pyramids[3])
    s.out = (False, False, False, True, False)
    s.pyramids = s.pyramids[:3] + ((None,) * size,) + s.pyramids[4:]
    s.buckets = (10, 10, 10, 0, 10)
    s.history = ((0, 0, 0, 10, 0),)
    s.falls = ((9, 0),)
    s.current_player = 2
    bk.check_state(s)
    after = bk.apply(s, PlayCards(cards("blue 7")))
    assert after.current_player == 4


@pytest.mark.parametrize("rule, outs", [("rulebook", 2), ("three-left", 3), ("first-out", 0)])
def test_six_player_games_end_by_the_chosen_end_rule(rule, outs):
    """BK-16: default ends at the second player out; `three-left` when three are left; `first-out` at once."""
    cfg = Config(players=6, end_rule=rule)
    for seed in range(4):
        rec = play(bk, cfg, "random", seed)
        assert sum(rec.state.out) == outs
        assert rec.scores.count(0) == max(outs, 1)
        assert rec.winners and all(rec.scores[w] == max(rec.scores) for w in rec.winners)


# --- BK-17 to BK-19: variants ----------------------------------------------

def test_special_one_adds_cards_of_other_colours_and_extra_draws():
    """BK-17: each 1 of the required colour allows one card of another colour; one more draw per extra card."""
    cfg = Config(special_one=True)
    hand = cards("blue 1", "blue 1", "blue 6", "red 4", "yellow 3", "green 8")
    s = _state(cfg, hands=[cards("blue 8"), hand, cards("red 3"), cards("red 2")], current=1, colour="blue",
               to_beat=8, attacker=0, fronts=[cards("blue 8"), (), (), ()])
    texts = _texts(s)
    assert "blue 1 with red 4" not in texts  # 5 does not beat 8
    assert "blue 1 with green 8" in texts and "blue 1+1 with green 8, red 4" in texts
    assert "blue 1+1+6 with red 4, yellow 3" in texts  # the rulebook's five-card example
    assert not any(t.startswith("blue 1 with") and "," in t for t in texts)  # one 1: one extra card
    assert not any("with blue" in t for t in texts)
    big = bk.apply(s, PlayCards(cards("blue 1", "blue 1", "blue 6"), cards("red 4", "yellow 3")))
    assert big.to_beat == 15 and len(big.hands[1]) == 6 - 5 + 3
    assert not any(" with " in t for t in _texts(_state(hands=s.hands, current=1, colour="blue", to_beat=8,
                                                         attacker=0, fronts=s.fronts)))
    with pytest.raises(ValueError):
        bk.apply(s, PlayCards(cards("blue 6"), cards("green 8")))
    lead = _state(cfg, hands=[hand, cards("red 1"), cards("red 2"), cards("red 3")], phase=bk.LEAD, colour=None)
    assert "blue 1 with green 8" in _texts(lead) and "red 4 with blue 1" not in _texts(lead)
    led = bk.apply(lead, PlayCards(cards("blue 1"), cards("green 8")))
    assert led.colour == "blue" and led.to_beat == 9 and len(led.hands[0]) == 6 - 2 + 2


def test_backfiring_discard_reverses_the_direction_without_a_draw():
    """BK-18: one more card of the required colour to the discard pile reverses play; no draw for it."""
    cfg = Config(backfiring_discard=True)
    hand = cards("blue 2", "blue 7", "red 4")
    s = _state(cfg, hands=[cards("blue 3"), hand, cards("red 3"), cards("red 2")], current=1, colour="blue",
               to_beat=4, attacker=0, fronts=[cards("blue 4"), (), (), ()])
    assert "blue 7, discarding blue 2 to reverse" in _texts(s)
    assert not any("discarding red" in t for t in _texts(s))
    back = bk.apply(s, PlayCards(cards("blue 7"), (), C("blue 2")))
    assert back.direction == -1 and back.current_player == 0
    assert len(back.hands[1]) == 3 - 2 + 1 and C("blue 2") in back.discard
    on = bk.apply(s, PlayCards(cards("blue 7")))
    assert on.direction == 1 and on.current_player == 2
    lead = _state(cfg, hands=[cards("blue 3", "blue 5"), hand, cards("red 3"), cards("red 2")], phase=bk.LEAD,
                  colour=None)
    assert not any("discarding" in t for t in _texts(lead))
    two = _state(Config(players=2, backfiring_discard=True), hands=[cards("blue 3"), hand], current=1,
                 colour="blue", to_beat=4, attacker=0, fronts=[cards("blue 4"), ()])
    assert not any("discarding" in t for t in _texts(two))
    both = Config.presets()["both-variants"]
    assert both.special_one and both.backfiring_discard


def test_kosmos_rule_two_or_more_cards_reverse_the_direction():
    """BK-19: with the Kosmos 3D rule a play of 2+ cards reverses the direction; one card does not."""
    cfg = Config.presets()["kosmos-reverse"]
    hand = cards("blue 2", "blue 7", "blue 8")
    s = _state(cfg, hands=[cards("blue 3"), hand, cards("red 3"), cards("red 2")], current=1, colour="blue",
               to_beat=8, attacker=0, fronts=[cards("blue 8"), (), (), ()])
    assert bk.apply(s, PlayCards(cards("blue 2", "blue 7"))).current_player == 0
    s.to_beat = 6
    assert bk.apply(s, PlayCards(cards("blue 7"))).current_player == 2
    plain = _state(hands=s.hands, current=1, colour="blue", to_beat=8, attacker=0, fronts=s.fronts)
    assert bk.apply(plain, PlayCards(cards("blue 2", "blue 7"))).current_player == 2
    both = _state(Config(multi_card_reverses=True, backfiring_discard=True), hands=s.hands, current=1,
                  colour="blue", to_beat=8, attacker=0, fronts=s.fronts)
    assert bk.apply(both, PlayCards(cards("blue 7", "blue 8"), (), C("blue 2"))).direction == -1  # reversed once


# --- BK-20, BK-21: gaps ----------------------------------------------------

def test_a_start_player_without_cards_loses_a_bucket_of_their_choice():
    """BK-20: nothing to lead with -> lose any bucket; the round ends and they start again."""
    s = _state(hands=[(), cards("blue 3"), cards("red 3"), cards("red 2")], phase=bk.LEAD, colour=None)
    legal = bk.legal_actions(s)
    assert all(type(a) is LoseBucket for a in legal) and len(legal) == 15
    after = bk.apply(s, LoseBucket((4, 0), s.pyramids[0][-1]))
    assert after.buckets[0] == 14 and after.start_player == 0 and "no card to lead" in " ".join(after.events)


def test_with_both_piles_empty_a_player_simply_does_not_draw():
    """BK-21: nothing to draw and nothing to reshuffle -> no card; the game goes on and ends."""
    cfg = Config(players=2, hand_size=40)
    s = bk.new_game(cfg, 1)
    assert s.draw == ()
    rec = play(bk, cfg, "random", 1)
    assert rec.finished and any("both piles are empty" in e for e in rec.events)


# --- configs, scores, bots -----------------------------------------------------

@pytest.mark.parametrize("changes, field, allowed", [
    ({"players": 7}, "players", "2 to 6"),
    ({"players": 1}, "players", "2 to 6"),
    ({"hand_size": 17, "players": 5}, "hand_size", "1 to 16 cards for 5 players"),
    ({"copies": 1, "hand_size": 11, "players": 4}, "hand_size", "the deck has 40 cards"),
    ({"buckets_per_colour": (2, 2, 2, 2, 2)}, "pyramid_rows", "at most 10 buckets"),
    ({"pyramid_rows": ((5, 3, 1),) * 5}, "pyramid_rows", "one bucket shorter"),
    ({"buckets_per_colour": (3, 3)}, "buckets_per_colour", "5 numbers"),
    ({"fall_model": "wobble"}, "fall_model", "exact or poke"),
    ({"fall_probability": 1.5}, "fall_probability", "0 to 1"),
    ({"end_rule": "last-one"}, "end_rule", "rulebook"),
    ({"values": (3, 1)}, "values", "increasing"),
    ({"max_cards": 6, "special_one": True}, "max_cards=6", "at most special_one_max (5) with Special One on"),
    ({"special_one_max": 11}, "special_one_max=11", "1 to 10 cards"),
])
def test_bad_configs_name_the_field_the_value_and_what_is_allowed(changes, field, allowed):
    with pytest.raises(ValueError) as e:
        Config(**changes)
    assert field in str(e.value) and allowed in str(e.value)


def test_the_special_one_limit_only_binds_with_the_variant_on():
    """BK-17: six cards a play are fine in the base game; Special One caps a turn at five."""
    assert Config(max_cards=6).max_cards == 6


def test_text_settings_and_presets():
    cfg = Config().with_text(["players=6", "end_rule=three-left", "fall_probability=0.25"])
    assert cfg.players == 6 and cfg.rows == (4, 3, 2, 1) and cfg.fall_probability == 0.25
    assert Config().with_text(["pyramid_rows=3,2,1/3,2,1/3,2,1/3,2,1/3,2,1"]).rows == (3, 2, 1)
    with pytest.raises(ValueError):
        Config().with_text(["special_one=maybe"])
    assert {"base", "special-one", "backfiring", "both-variants", "poke"} <= set(Config.presets())


def test_a_smaller_pyramid_leaves_buckets_in_the_box():
    """BK-3 (parameter): rows 3-2-1 use 6 of the 15 buckets; the rest are not used."""
    cfg = Config(pyramid_rows=((3, 2, 1),) * 5)
    rec = play(bk, cfg, "random", 2)
    assert rec.finished and max(rec.scores) <= 6


def test_scores_are_buckets_left_and_round_scores_the_buckets_lost():
    """BK-14: score = buckets left = pyramid size minus every round's loss."""
    rec = play(bk, Config(), "random", 9)
    size = 15
    for seat in range(4):
        assert rec.scores[seat] == size + sum(r[seat] for r in rec.round_scores)
    assert all(sum(1 for x in r if x) == 1 for r in rec.round_scores)  # one loser per round
    assert replay(rec.to_json()) == rec


def test_heuristic_beats_random_by_a_significant_margin():
    """Seat-balanced, 4 players: the heuristic wins well above its fair share of 1/4."""
    r = head_to_head("bucket-king", Config(), "heuristic", "random", 200, seed=2026)
    assert r["ci95"][0] > r["fair_share"], r


def test_lookahead_plays_legal_actions_from_its_own_view_only():
    """The lookahead bot sees an observation (no other hands) and returns a legal action."""
    s = _arranged(seed=8)
    s = bk.apply(s, Direction("left"))
    s = bk.apply(s, bk.legal_actions(s)[0])
    legal = bk.legal_actions(s)
    obs = bk.observation(s, s.current_player)
    choice = bk.BOTS["lookahead"](obs, legal, random.Random(1))
    assert choice in legal
    assert bk.BOTS["lookahead"](obs, legal, random.Random(1)) == choice


def test_random_two_player_games_end():
    """Games always end: every round costs a bucket and a round cannot outlast the cards."""
    for seed in range(20):
        rec = play(bk, Config(players=2), "random", seed)
        assert rec.finished and len(rec.actions) < 2000


def test_malformed_actions_raise_value_error_and_change_nothing():
    """Illegal or malformed actions are refused with a ValueError naming the legal ones."""
    import copy

    s = _state(hands=[cards("blue 3", "red 2"), cards("blue 1"), cards("red 3"), cards("red 4")], phase=bk.LEAD,
               colour=None)
    before = copy.deepcopy(s)
    for bad in [PlayCards((1, "a")), PlayCards(()), PlayCards(cards("blue 3"), (), "x"),
                PlayCards(cards("blue 3", "red 2")), PlayCards(cards("green 5")), LoseBucket((9, 9), "red"),
                KeepPart((0, 0), 3), Direction("up"), Place((0, 0), "red"), "blue 3", None]:
        with pytest.raises(ValueError, match="legal"):
            bk.apply(s, bad)
    assert s == before


# --- speed-ups keep the rules: caches and precomputed layouts ------------------

def _brute_parts(standing, rows):
    """Pieces of what stands, by flood fill over 'touching' (same row side by side, or resting on)."""
    standing, parts = set(standing), []
    while standing:
        todo, part = [min(standing)], set()
        while todo:
            r, i = todo.pop()
            if (r, i) in part:
                continue
            part.add((r, i))
            for q in ((r, i - 1), (r, i + 1), (r - 1, i), (r - 1, i + 1), (r + 1, i - 1), (r + 1, i)):
                if q in standing and q not in part:
                    todo.append(q)
        parts.append(part)
        standing -= part
    return sorted(parts, key=min)


@pytest.mark.parametrize("rows", [(5, 4, 3, 2, 1), (4, 3, 2, 1), (6, 5, 4), (3, 2, 1)])
def test_falls_and_splits_match_brute_force_for_every_pyramid_shape(rows):
    """BK-10, BK-12: what falls and the parts left agree with an independent reading, for several
    pyramid shapes one after another (the cached helpers must not mix shapes up)."""
    every = [(r, i) for r, n in enumerate(rows) for i in range(n)]
    rng = random.Random(sum(rows))
    for _ in range(150):
        removed = rng.sample(every, rng.randrange(0, len(every) // 2))
        standing = [q for q in every if q not in removed]
        position = rng.choice(standing)
        fall = falling_buckets(rows, removed, position)
        assert fall == _brute_falls(rows, removed, position)
        left = [q for q in standing if q not in fall]
        lay = bk.pyramid.layout_of(rows)
        masks = bk.pyramid.split_parts(rows, bk.pyramid.mask_of(lay.index[q] for q in left))
        parts = [{lay.positions[j] for j in bk.pyramid.indices_of(m)} for m in masks]
        assert parts == _brute_parts(left, rows)


def test_a_split_in_a_game_offers_exactly_the_pieces_left_standing():
    """BK-12: in seeded games, every KEEP choice lists each connected piece once, with its size."""
    seen = 0
    for seed in range(40):
        s = bk.new_game(Config(), seed)
        rng = random.Random(seed)
        while not s.is_over:
            if s.phase == bk.KEEP:
                p = s.current_player
                standing = [q for q, c in zip(ALL5, s.pyramids[p]) if c is not None]
                pieces = _brute_parts(standing, ROWS5)
                assert [(a.position, a.size) for a in bk.legal_actions(s)] == [(min(x), len(x)) for x in pieces]
                seen += 1
            s = bk.apply(s, rng.choice(bk.legal_actions(s)))
    assert seen > 5


def test_observation_shows_the_table_as_it_is():
    """The observation (built positionally for speed) carries each public field of the state under its own name."""
    rec = play(bk, Config(players=5, special_one=True), "random", 12)
    s = rec.state
    for p in range(5):
        obs = bk.observation(s, p)
        for name in obs._fields:
            if name in ("player", "hand", "hand_counts", "draw_count"):
                continue
            assert getattr(obs, name) == getattr(s, name), name
        assert obs.player == p and obs.hand == s.hands[p] and obs.draw_count == len(s.draw)
        assert obs.hand_counts == tuple(len(h) for h in s.hands)


# --- simulation hooks -----------------------------------------------------------

def _walk(cfg, seed, bots="random"):
    """Play a seeded game step by step; count, per seat, independently of the module's bookkeeping:
    rounds lost, buckets that fell with the chosen one, buckets lost in splits, splits, biggest loss."""
    n = cfg.players
    rows = cfg.rows
    every = [(r, i) for r, n_ in enumerate(rows) for i in range(n_)]
    chosen, fell, split, splits, biggest = ([0] * n for _ in range(5))
    s = bk.new_game(cfg, seed)
    rng = random.Random(seed)
    before = None
    while not s.is_over:
        p = s.current_player
        legal = bk.legal_actions(s)
        a = bk.heuristic_bot(bk.observation(s, p), legal, rng) if bots == "heuristic" else rng.choice(legal)
        if type(a) is LoseBucket:
            before = s.buckets[p]
        after = bk.apply(s, a)
        if type(a) is LoseBucket:
            chosen[p] += 1
            gone = s.buckets[p] - after.buckets[p]
            if cfg.fall_model == "exact":
                removed = [q for q, c in zip(every, s.pyramids[p]) if c is None]
                assert gone == len(falling_buckets(rows, removed, a.position))
            fell[p] += gone - 1
        if type(a) is KeepPart:
            split[p] += s.buckets[p] - after.buckets[p]
            splits[p] += 1
        if type(a) in (LoseBucket, KeepPart) and after.phase != bk.KEEP:
            biggest[p] = max(biggest[p], before - after.buckets[p])
        s = after
    return s, chosen, fell, split, splits, biggest


@pytest.mark.parametrize("preset, seed, bots", [
    ("base", 1, "random"), ("poke", 2, "random"), ("six-players", 3, "random"), ("two-players", 4, "heuristic"),
    ("both-variants", 5, "heuristic"),
])
def test_score_sources_split_each_score_into_pyramid_and_losses_by_cause(preset, seed, bots):
    """BK-9 to BK-12, BK-14: score = pyramid built - chosen buckets - buckets that fell with them - split losses."""
    cfg = Config.presets()[preset]
    s, chosen, fell, split, _, _ = _walk(cfg, seed, bots)
    sources = bk.score_sources(s)
    size = sum(cfg.rows)
    for p, d in enumerate(sources):
        assert sum(d.values()) == bk.scores(s)[p]
        assert d == {"built": size, "lost_chosen": -chosen[p], "lost_falling": -fell[p], "lost_split": -split[p]}


def test_game_stats_count_splits_biggest_losses_and_empty_pyramids():
    """BK-12, BK-15, BK-16: per seat splits, the biggest one-round loss, an empty pyramid; per game players out
    and the mean loss per round."""
    found_split = False
    for preset, seed in [("base", 6), ("six-players", 7), ("six-three-left", 8), ("poke", 9)]:
        cfg = Config.presets()[preset]
        s, chosen, fell, split, splits, biggest = _walk(cfg, seed)
        stats = bk.game_stats(s)
        assert stats["splits"] == splits and stats["biggest_loss"] == biggest
        assert stats["emptied"] == [int(b == 0) for b in s.buckets]
        assert stats["players_out"] == sum(stats["emptied"]) >= 1
        losses = [-x for r in bk.round_scores(s) for x in r if x]
        assert stats["lost_per_round"] == pytest.approx(sum(losses) / len(losses))
        assert sum(losses) == sum(chosen) + sum(fell) + sum(split)
        found_split |= any(splits)
    assert found_split


def test_simulation_table_has_the_hook_columns_and_the_default_progress_is_buckets_left():
    """simulate: points_* columns add up to the score; stats columns per seat; leaders follow buckets left."""
    from meeple.rules.sim import simulate

    res = simulate("bucket-king", None, "heuristic", 12, 3, workers=1, progress=False)
    t = res.table
    points = [c for c in t.columns if c.startswith("points_")]
    assert points == ["points_built", "points_lost_chosen", "points_lost_falling", "points_lost_split"]
    assert (t[points].sum(axis=1) == t["score"]).all()
    assert {"splits", "biggest_loss", "emptied", "players_out", "lost_per_round"} <= set(t.columns)
    assert not hasattr(bk, "progress")  # buckets left (the score) is who is ahead mid-game
    report = str(res.summary())
    assert "Bucket King" in report


# --- the most legal actions a state can offer (OpenSpiel's action count) ------

def _most_legal_by_brute_force(cfg):
    """The most legal actions over every hand of at most most_cards_in_hand cards (as a lead, and as a
    follow of every colour needing 1 to 3 more) and every built pyramid, each state made and asked."""
    kinds = sorted(set(cfg.deck()))
    top = bk.most_cards_in_hand(cfg)
    hands = [()]
    for k in range(1, top + 1):
        hands += [h for h in set(combinations(sorted(cfg.deck()), k))]
    pyramids = [p for p in product(cfg.colours, repeat=sum(cfg.rows))
                if all(p.count(c) <= cfg.buckets_each for c in cfg.colours)]
    best = 0
    for pyr in pyramids:
        base = _state(cfg, hands=[(), ()], phase=bk.LEAD, colour=None, pyramid_colours=pyr)
        for hand in hands:
            s = base._copy()
            s.hands = (hand, ())
            best = max(best, len(bk.legal_actions(s)))
            for colour, to_beat in product(cfg.colours, (1, 2, 3)):
                s.phase, s.colour, s.to_beat, s.attacker = bk.FOLLOW, colour, to_beat, 1
                best = max(best, len(bk.legal_actions(s)))
            s.phase, s.colour = bk.LEAD, None
    assert len(kinds) <= 6  # keep the enumeration small
    return best


SMALL = dict(players=2, colours=("red", "blue"), values=(1, 2, 3), copies=2, hand_size=4, max_cards=2,
             buckets_per_colour=(3, 3, 3, 2, 2), pyramid_rows=((2, 1),) * 5)


@pytest.mark.parametrize("changes", [
    {}, {"max_cards": 3}, {"values": (2, 3, 4)}, {"max_cards": 1, "hand_size": 3},
    {"copies": 1, "hand_size": 2, "draw_per_turn": 2, "max_cards": 4},  # a hand can grow to the whole deck
    {"pyramid_rows": ((1,),) * 5, "hand_size": 1},  # few plays: a no-card lead's buckets or the colours count
], ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "small")
def test_the_action_bound_is_the_most_legal_actions_any_hand_and_pyramid_give(changes):
    """BK-6, BK-7, BK-9: plays are distinct multisets of 1 to max_cards cards of one colour; the bound
    OpenSpiel is given is exactly the most any state offers (brute force over every hand and pyramid)."""
    cfg = Config(**{**SMALL, **changes})
    assert bk.action_bound(cfg) == _most_legal_by_brute_force(cfg)


@pytest.mark.parametrize("changes", [{"special_one": True, "special_one_max": 3},
                                     {"backfiring_discard": True, "players": 3, "hand_size": 3},
                                     {"special_one": True, "backfiring_discard": True, "players": 3, "hand_size": 3}])
def test_the_action_bound_holds_with_the_variants(changes):
    """BK-17, BK-18: with extra cards and discards the bound is an upper bound (brute force again)."""
    cfg = Config(**{**SMALL, **changes})
    assert bk.action_bound(cfg) >= _most_legal_by_brute_force(cfg)


def test_the_most_plays_of_one_colour_spread_the_cards_evenly():
    """_most_plays's claim, checked against every way to hold n cards of one colour."""
    for values, copies, most in [(3, 2, 2), (4, 3, 3), (2, 4, 5)]:
        for n in range(values * copies + 1):
            ways = [c for c in product(range(copies + 1), repeat=values) if sum(c) == n]
            assert bk.cards.most_plays(values, copies, n, most) == max(bk.cards.sub_multisets(c, most) for c in ways)


class _FirstOfTies(random.Random):
    """A bot rng that picks the first of equally good choices."""

    def __init__(self):
        super().__init__(0)

    def randrange(self, n, *args):  # noqa: D102 - the bots break ties with randrange(len(tied))
        return 0


def test_the_lean_benchmark_heuristic_leads_and_follows_as_heuristic_bot():
    """Issue 21: tests/bench/lean_bucket_king.py is the reference the engine is timed against; its heuristic
    must be meeple's. Every lead and follow of 30 lean games (base rules, 4 players) is rebuilt as a meeple
    state and put to heuristic_bot: its choice is among the lean bot's equally good ones (BK-6, BK-7, BK-9)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    try:
        import lean_bucket_king as lean
    finally:
        sys.path.pop(0)
    cfg = Config()
    assert (lean.ROWS, lean.EACH, lean.MOST, lean.HAND) == (cfg.rows, cfg.buckets_each, cfg.max_cards, cfg.hand_size)
    names = cfg.colours
    positions = bk.pyramid.layout_of(cfg.rows).positions
    rng, checked = random.Random(9), Counter()
    for _ in range(30):
        log = []
        lean.play(rng, 4, "heuristic", log)
        for entry in log:
            kind, p, hand = entry[0], entry[1], entry[2 if entry[0] == "lead" else 3]
            s = bk.new_game(cfg, 0, events=False)
            cards_ = tuple(sorted(Card(names[c], v) for c, same in enumerate(hand) for v in same))
            s.hands = s.hands[:p] + (cards_,) + s.hands[p + 1 :]
            s.current_player, s.fronts, s.direction = p, ((),) * 4, 1
            if kind == "lead":
                s.phase, s.colour = bk.LEAD, None
                s.pyramids = (tuple(names[0] for _ in positions),) * 4
                a = bk.heuristic_bot(bk.observation(s, p), bk.legal_actions(s), _FirstOfTies())
                assert a == PlayCards((max(c for c in cards_ if c.colour == a.cards[0].colour),))
                assert names.index(a.cards[0].colour) in entry[3], entry
            else:
                _, _, col, _, need, standing, masks, left, plays, losses, played = entry
                pyr = tuple(next(names[c] for c in range(len(names)) if masks[c] >> k & 1) if standing >> k & 1 else None
                            for k in range(len(positions)))
                s.phase, s.colour, s.to_beat, s.attacker = bk.FOLLOW, names[col], need, (p + 1) % 4
                s.pyramids = s.pyramids[:p] + (pyr,) + s.pyramids[p + 1 :]
                s.buckets = s.buckets[:p] + (left,) + s.buckets[p + 1 :]
                a = bk.heuristic_bot(bk.observation(s, p), bk.legal_actions(s), _FirstOfTies())
                if played:
                    assert type(a) is PlayCards and tuple(c.value for c in a.cards) in plays, entry
                else:
                    assert type(a) is LoseBucket and positions.index(a.position) in losses, entry
            checked[kind] += 1
    assert checked["lead"] > 500 and checked["follow"] > 1500, checked


# --- the game core (issue 21) ------------------------------------------------

def _apply_loop(config, funcs, game_seed):
    """A user's loop on the public protocol: new_game, legal_actions, the bot on its observation, apply
    (immutable states). (final state, sole leader at each turn's end, decisions)."""
    leaders = []
    state = bk.new_game(config, game_seed, turn_end=lambda st: leaders.append(_leader(bk.scores(st))))
    rngs = [LazySeatRandom(game_seed, s) for s in range(config.players)]
    actions = 0
    while not state.is_over:
        p = state.current_player
        state = bk.apply(state, funcs[p](bk.observation(state, p), bk.legal_actions(state), rngs[p]))
        actions += 1
    return state, leaders, actions


@pytest.mark.parametrize("preset", sorted(Config.presets()))
def test_play_core_plays_the_games_of_the_apply_loop(preset):
    """simulate's hook on the core gives the very game a user's apply loop gives: the same decisions,
    leaders at each turn's end, final State (every public field) and statistics; random, heuristic and
    mixed line-ups, rotated."""
    config = Config.presets()[preset]
    n = config.players
    for g, lineup in enumerate(("random", "heuristic", "heuristic,random", "random,heuristic") * 2):
        names, funcs = resolve_bots(bk, ",".join((lineup.split(",") * n)[g % n : g % n + n] if "," in lineup
                                                 else [lineup] * n), n)
        seed = game_seed(5, g)
        rngs = [LazySeatRandom(seed, s) for s in range(n)]
        core, leaders, actions = bk.play_core(config, start(seed), funcs, rngs, [False] * n, names, _leader)
        state, want_leaders, want_actions = _apply_loop(config, funcs, seed)
        assert (leaders, actions) == (want_leaders, want_actions), (preset, g)
        state._events = None  # the apply loop keeps events; the core's final State has none
        assert core == state, (preset, g)
        assert bk.game_stats(core) == bk.game_stats(state) and bk.score_sources(core) == bk.score_sources(state)


@pytest.mark.parametrize("preset", sorted(Config.presets()))
def test_the_core_conserves_everything_after_every_decision(preset):
    """check_state on the core itself (cards, buckets, the standing bitmasks) after every decision of
    random games, and the State built from it equal to the one step gives on the protocol's side."""
    config = Config.presets()[preset]
    rng = random.Random(preset)
    for g in range(6):
        c = bk.core.new_core(config, start(g))
        s = bk.new_game(config, g, events=False)
        while not c.is_over:
            legal = bk.legal_actions(c)
            assert legal == bk.legal_actions(s)
            a = legal[rng.randrange(len(legal))]
            bk.core.act(c, a)
            bk.step(s, a)
            bk.check_state(c)
            assert bk.game.state_of(c) == s


def test_check_state_catches_a_core_whose_bitmask_lies():
    c = bk.core.new_core(Config(), Chance(1))
    while c.phase == bk.ARRANGE:
        bk.core.act(c, bk.legal_actions(c)[0])
    bk.check_state(c)
    c.standing[0] &= ~1  # the pyramid still has its bottom-left bucket
    with pytest.raises(AssertionError, match="standing bitmask"):
        bk.check_state(c)
    c.standing[0] |= 1
    c.discard.append(c.hands[0][0])  # a card in two places
    with pytest.raises(AssertionError, match="cards not conserved"):
        bk.check_state(c)


def _public(s) -> list:
    return [getattr(s, f.name) for f in dataclass_fields(s) if f.compare]


@pytest.mark.parametrize("preset", sorted(Config.presets()))
def test_apply_and_step_give_the_move_played_on_a_new_core_of_the_state(preset):
    """apply/step play on the core the State was written from when they can (game.py's kept cores):
    each move's State must be the one a core built afresh from the State gives, whether the move
    continues a line of play (the core reused), branches from a State already moved from (a second
    action from the same State, as a lookahead or the Stepper's undo does: a new core), or follows a
    State whose fields were replaced by hand (a new core); and the State moved from never changes."""
    config = Config.presets()[preset]
    rng = random.Random(preset)
    for g in range(4):
        s = bk.new_game(config, g)
        while not s.is_over:
            legal = bk.legal_actions(s)
            before = _public(s)
            fresh = bk.game.core_of(s)
            a = legal[rng.randrange(len(legal))]
            bk.core.act(fresh, a)
            if len(legal) > 1 and rng.random() < 0.3:  # a branch first: the kept core goes to it
                b = legal[(legal.index(a) + 1) % len(legal)]
                fresh_b = bk.game.core_of(s)
                bk.core.act(fresh_b, b)
                assert _public(bk.apply(s, b)) == _public(bk.game.state_of(fresh_b)), (preset, g)
            nxt = bk.apply(s, a)
            assert _public(nxt) == _public(bk.game.state_of(fresh)), (preset, g)
            assert _public(s) == before, "apply changed the State it moved from"
            bk.check_state(nxt)
            s = nxt
        assert s.events[-1].startswith("Game over")


def test_a_state_changed_by_hand_is_played_as_it_now_is():
    """A State's fields replaced after a move (tests and tables build positions so) are what the next
    move reads, not the core the State was written from."""
    s = bk.new_game(Config(), 3)
    while s.phase != bk.FOLLOW:
        s = bk.apply(s, bk.legal_actions(s)[0])
    s.draw = s.draw[::-1]  # the next card drawn is another one
    fresh = bk.game.core_of(s)
    a = next(x for x in bk.legal_actions(s) if type(x) is bk.PlayCards)
    bk.core.act(fresh, a)
    bk.step(s, a)
    assert _public(s) == _public(bk.game.state_of(fresh))


class _OtherRandom(random.Random):
    """A seat stream that is no Mersenne Twister bots.below knows: the bots draw with randrange."""


@pytest.mark.parametrize("preset", ["base", "six-players", "both-variants"])
def test_play_core_plays_the_apply_loops_games_with_other_seat_streams(preset):
    """play_core's whole set-up turn and its inline draws (issue 35) take the same draws as a bot per
    decision on any seat stream, not only simulate's Mersenne Twisters (their randrange path)."""
    config = Config.presets()[preset]
    n = config.players
    for g, lineup in enumerate(("random", "heuristic", "heuristic,random")):
        names, funcs = resolve_bots(bk, ",".join((lineup.split(",") * n)[:n]), n)
        seed = game_seed(7, g)
        rngs = [_OtherRandom(seed * 8 + s) for s in range(n)]
        core, leaders, actions = bk.play_core(config, start(seed), funcs, rngs, [False] * n, names, _leader)
        want_leaders, want_actions = [], 0
        want = bk.new_game(config, seed, events=False,
                           turn_end=lambda st, into=want_leaders: into.append(_leader(bk.scores(st))))
        rngs = [_OtherRandom(seed * 8 + s) for s in range(n)]
        while not want.is_over:
            p = want.current_player
            bk.step(want, funcs[p](bk.observation(want, p), bk.legal_actions(want), rngs[p]))
            want_actions += 1
        assert (leaders, actions) == (want_leaders, want_actions), (preset, g)
        assert core == want, (preset, g)


def test_the_heuristic_lead_is_the_top_card_of_a_strongest_colour_with_ties_drawn():
    """_lead (one pass over the sorted hand, issue 35) against its definition: the strengths
    Σ(value + CARD_WORTH) per colour, the strongest colours in the hand's order, one drawn as _pick
    draws, its highest card; the same card and the same draws, hands with ties included."""
    deck = Config().deck()
    rng = random.Random(35)
    ties = 0
    for i in range(3000):
        hand = tuple(sorted(rng.sample(deck, rng.randint(1, 12))))
        strength = bk.strategy._strengths(hand)
        top = max(strength.values())
        tied = [c for c, v in strength.items() if v == top]
        ties += len(tied) > 1
        a, b = random.Random(i), random.Random(i)
        want = PlayCards((bk.cards.of_colour(hand, bk.strategy._pick(tied, a))[-1],))
        assert bk.strategy._lead(hand, b) == want, hand
        assert a.getstate() == b.getstate(), hand
    assert ties > 100, ties
