"""Bucket Brigade: one or more tests per numbered rule in seeds/bucket_brigade.md."""

from __future__ import annotations

from collections import Counter

import pytest

from meeple.rules import bucket_brigade as bb
from meeple.rules.sim import head_to_head
from meeple.rules.bucket_brigade import Card, Config, Play, round_score

RED1, RED2, BLUE1, BLUE2 = Card("red", 1), Card("red", 2), Card("blue", 1), Card("blue", 2)
JOKER1, JOKER2 = Card(None, 1), Card(None, 2)


def _state(cfg=None, *, hands, positions=None, current=0, played=()):
    """A hand-built mid-round state whose cards add up to the deck."""
    cfg = cfg or Config()
    s = bb.new_game(cfg, 0)._copy()
    hands = tuple(tuple(h) for h in hands)
    rest = Counter(cfg.deck())
    for h in hands:
        rest.subtract(h)
    rest.subtract(played)
    assert all(v >= 0 for v in rest.values())
    s.hands, s.played, s.removed = hands, tuple(played), tuple(rest.elements())
    s.positions = positions or (0,) * len(cfg.colours)
    s.current_player = current
    bb.check_state(s)
    return s


def _pos(**where):
    cfg = Config()
    return tuple(where.get(c, 0) for c in cfg.colours)


def test_deck_has_55_cards_of_four_colours_and_jokers():
    """BB-1: 4 colours x (6 one-step + 5 two-step) + 6 + 5 jokers = 55."""
    deck = Counter(Config().deck())
    assert sum(deck.values()) == 55
    for colour in Config().colours:
        assert deck[Card(colour, 1)] == 6 and deck[Card(colour, 2)] == 5
    assert deck[JOKER1] == 6 and deck[JOKER2] == 5


@pytest.mark.parametrize("players, hand, aside", [(3, 15, 10), (4, 13, 3), (5, 11, 0)])
def test_hands_are_dealt_equal_with_the_rest_set_aside(players, hand, aside):
    """BB-2: 15/13/11 cards each for 3/4/5 players; 10/3/0 set aside unseen."""
    s = bb.new_game(Config(players=players), 4)
    assert [len(h) for h in s.hands] == [hand] * players
    assert len(s.removed) == aside
    obs = bb.observation(s, 0)
    assert obs.hand == s.hands[0] and obs.hand_counts == (hand,) * players
    assert not hasattr(obs, "hands") and not hasattr(obs, "removed")


def test_every_round_is_dealt_afresh():
    """BB-2: a new round shuffles all 55 cards and deals full hands again."""
    rec_state = bb.new_game(Config(), 9)
    first = rec_state.hands
    s = rec_state
    while s.round == 0:
        s = bb.apply(s, bb.legal_actions(s)[0])
    assert [len(h) for h in s.hands] == [13] * 4
    assert s.hands != first and s.played == ()


def test_track_is_start_then_six_minus_ones_up_to_three():
    """BB-3: 14 spaces; Start worth 0; -1 x6, 0, 0, 1, 1, 2, 2, 3."""
    assert Config().track == (0, -1, -1, -1, -1, -1, -1, 0, 0, 1, 1, 2, 2, 3)
    assert Config.presets()["honeybears"].track[0] == -1


def test_hedgehogs_return_to_start_every_round():
    """BB-4: after a round ends, all hedgehogs are on Start again."""
    s = _state(hands=[[RED2, BLUE1], [BLUE1], [BLUE1], [BLUE1]], positions=_pos(red=12, blue=5))
    after = bb.apply(s, Play(RED2, "red"))
    assert after.round == 1 and after.positions == (0, 0, 0, 0)


def test_a_turn_plays_one_card_then_passes_clockwise():
    """BB-5: exactly one card leaves the hand for the face-up pile; next seat plays."""
    s = bb.new_game(Config(), 2)
    action = bb.legal_actions(s)[0]
    after = bb.apply(s, action)
    assert len(after.hands[0]) == len(s.hands[0]) - 1
    assert after.played == (action.card,)
    assert after.current_player == 1
    assert "Player 1 plays" in after.events[-1]
    last = _state(hands=[[RED1], [RED1], [RED1], [RED1, BLUE1]], current=3)
    assert bb.apply(last, Play(RED1, "red")).current_player == 0  # wraps round the table


def test_coloured_card_moves_its_own_hedgehog_by_its_steps():
    """BB-6: a red +2 moves the red hedgehog two spaces and nothing else."""
    s = _state(hands=[[RED2, BLUE1], [BLUE1], [BLUE1], [BLUE1]], positions=_pos(red=3, blue=1))
    after = bb.apply(s, Play(RED2, "red"))
    assert after.positions == _pos(red=5, blue=1)
    with pytest.raises(ValueError):
        bb.apply(s, Play(RED2, "blue"))  # a coloured card cannot move another colour


def test_joker_moves_any_colour_the_player_names():
    """BB-7: a joker is offered once per colour and moves the chosen hedgehog."""
    s = _state(hands=[[JOKER2], [BLUE1], [BLUE1], [BLUE1]])
    legal = bb.legal_actions(s)
    assert sorted(a.colour for a in legal) == sorted(Config().colours)
    assert str(Play(JOKER2, "green")) == "joker +2 for green"
    after = bb.apply(s, Play(JOKER2, "green"))
    assert after.positions == _pos(green=2)


def test_reaching_the_last_space_ends_the_round_and_overshoot_stops_there():
    """BB-8: a +2 from space 12 stops on 13 and ends the round at once; the mover is the ender."""
    s = _state(hands=[[RED1], [RED2, BLUE1], [BLUE1], [BLUE1]], positions=_pos(red=12), current=1)
    after = bb.apply(s, Play(RED2, "red"))
    assert after.positions == (0, 0, 0, 0) and after.round == 1  # scored, next round dealt
    assert after.enders == (1,)
    # red on the last space (worth 3): Player 1's red +1 scores 3; Player 2 holds a blue
    # card on Start (0) but ended the round, so gets the bonus 3
    assert after.history == ((3, 3, 0, 0),)
    assert any("ends the round" in e for e in after.events)


def test_base_scoring_counts_each_coloured_card_at_its_hedgehogs_space():
    """BB-9: red on a 2-space, blue on a -1-space: red1+red2+blue1+joker = 2+2-1+0; ender +3."""
    cfg = Config()
    where = {"red": 11, "blue": 3, "green": 0, "yellow": 0}
    hand = [RED1, RED2, BLUE1, JOKER2]
    assert round_score(hand, where, cfg, ended_round=False) == 3
    assert round_score(hand, where, cfg, ended_round=True) == 6
    assert round_score([JOKER1, JOKER2], where, cfg, ended_round=False) == 0


def test_round_end_scores_every_hand_and_gives_the_ender_the_bonus():
    """BB-9: the scores recorded for a round are round_score of each hand left."""
    s = _state(hands=[[RED1, RED1], [RED2, BLUE1], [BLUE2], [JOKER1]], positions=_pos(red=12, blue=9), current=1)
    after = bb.apply(s, Play(RED2, "red"))
    # red ends on 13 (worth 3), blue on 9 (worth 1)
    assert after.history == ((6, 1 + 3, 1, 0),)
    assert bb.scores(after) == [6, 4, 1, 0]


def test_advanced_scoring_pairs_singles_and_two_steps():
    """BB-10: pair of red +1 = 5x, leftover +1 = 1x, +2 = 2x; bonus 6 in the advanced preset."""
    cfg = Config.presets()["advanced"]
    assert cfg.bonus == 6 and cfg.advanced
    where = {"red": 11, "blue": 3, "green": 0, "yellow": 0}  # red worth 2, blue -1
    assert round_score([RED1, RED1], where, cfg, False) == 10
    assert round_score([RED1, RED1, RED1], where, cfg, False) == 12
    assert round_score([RED1] * 4, where, cfg, False) == 20
    assert round_score([RED2, RED2], where, cfg, False) == 8
    assert round_score([RED1, RED1, BLUE1, BLUE1, JOKER1], where, cfg, True) == 10 - 5 + 6
    assert round_score([BLUE1, BLUE1], where, cfg, False) == 0  # -5 floored


def test_negative_round_totals_count_zero_unless_turned_off():
    """BB-11: a hand worth -3 scores 0; with floor_zero off it scores -3."""
    where = {"red": 1, "blue": 0, "green": 0, "yellow": 0}
    hand = [RED1, RED2, RED1]
    assert round_score(hand, where, Config(), False) == 0
    assert round_score(hand, where, Config(floor_zero=False), False) == -3


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_game_has_one_round_per_player_and_the_start_passes_left(players):
    """BB-12: rounds = players; round r starts with seat r."""
    from meeple.rules import play

    rec = play("bucket-brigade", Config(players=players), "random", 31)
    assert len(rec.round_scores) == players
    starts = [e for e in rec.events if e.startswith("Round") and "starts" in e]
    assert starts == [
        f"Round {r + 1}: Player {r + 1} starts; each player holds {Config(players=players).hand_size} cards"
        + (f" ({55 - players * Config(players=players).hand_size} set aside unseen)." if players < 5 else ".")
        for r in range(players)
    ]
    two = play("bucket-brigade", Config(players=players, rounds=2), "random", 31)
    assert len(two.round_scores) == 2


def test_most_points_wins_and_the_last_round_breaks_ties():
    """BB-13: equal totals -> the higher last-round score wins; still equal -> shared."""
    s = bb.new_game(Config(players=3), 0)._copy()
    s.is_over, s.current_player = True, None
    s.history, s.totals = ((10, 4, 9), (2, 8, 1)), (12, 12, 10)
    assert bb.winners(s) == [1]
    s.history, s.totals = ((4, 4, 9), (8, 8, 1)), (12, 12, 10)
    assert bb.winners(s) == [0, 1]
    s.history, s.totals = ((4, 4, 9), (8, 8, 9)), (12, 12, 18)
    assert bb.winners(s) == [2]


def test_empty_hands_end_the_round_without_a_bonus():
    """BB-14: one card each, nobody can reach the end: the round ends, no bonus."""
    cfg = Config(players=3, hand_sizes=(1, 1, 1), rounds=1)
    s = bb.new_game(cfg, 5)
    for _ in range(3):
        s = bb.apply(s, bb.legal_actions(s)[0])
    assert s.is_over and s.enders == (None,)
    assert s.history == ((0, 0, 0),)
    assert "no one gets the bonus" in " ".join(s.events)


# Written like test_piggyback_brigade's on purpose: the same rule (a bad value names itself), each game's own fields.
@pytest.mark.parametrize(
    "changes, field, allowed",
    [
        ({"players": 2}, "players=2", "3 to 5"),
        ({"players": 6}, "players=6", "3 to 5"),
        ({"track": ()}, "track=(empty)", "Start plus at least one space"),
        ({"track": (0,)}, "track=0", "Start plus at least one space"),
        ({"hand_sizes": (20, 13, 11)}, "hand_sizes=20,13,11", "a hand for 3 players is 1 to 18 cards, not 20"),
        ({"hand_sizes": (15, 0, 11)}, "hand_sizes=15,0,11", "for 4 players"),
        ({"one_step_cards": 1, "two_step_cards": 1, "joker_one_step": 0, "joker_two_step": 0}, "hand_sizes", "deck has 8"),
        ({"colours": ("red", "red")}, "colours=red,red", "distinct"),
        ({"colours": ("red", "joker")}, "colours", "other than 'joker'"),
        ({"bonus": -1}, "bonus=-1", "0 to 99"),
        ({"rounds": 0}, "rounds=0", "1 to 50"),
        ({"one_step_cards": 0, "two_step_cards": 0}, "one_step_cards=0", "at least one coloured card"),
    ],
)
def test_bad_configs_name_the_field_the_value_and_what_is_allowed(changes, field, allowed):
    with pytest.raises(ValueError) as err:
        Config(**changes)
    assert field in str(err.value) and allowed in str(err.value)


def test_text_settings_are_parsed_strictly():
    cfg = Config().with_text(["bonus=6", "track=0,-1,0,1,3", "advanced=yes", "rounds=none"])
    assert cfg.bonus == 6 and cfg.track == (0, -1, 0, 1, 3) and cfg.advanced and cfg.rounds is None
    for bad in ["bonus=6.5", "bonus=", "advanced=maybe", "track=0,x", "nonsense=1", "bonus"]:
        with pytest.raises(ValueError):
            Config().with_text([bad])


def test_short_track_game_plays_to_the_end():
    """BB-3/BB-8: any track list is a parameter; a 3-space track ends rounds quickly."""
    from meeple.rules import play

    rec = play("bucket-brigade", Config(track=(0, 1, 2)), "random", 1)
    assert len(rec.round_scores) == 4 and rec.winners


def test_heuristic_beats_random_by_a_significant_margin():
    """One heuristic bot against three random bots, seat-balanced, 320 seeded games:
    the 95% Wilson lower bound of its win share is above the fair 1/4."""
    r = head_to_head("bucket-brigade", Config(), "heuristic", "random", 320, seed=2026)
    assert r["ci95"][0] > r["fair_share"], r


def test_lookahead_plays_legal_cards_from_its_own_view_only():
    """The lookahead bot sees an observation (no other hands) and returns a legal play."""
    import random

    s = bb.new_game(Config(), 8)
    legal = bb.legal_actions(s)
    choice = bb.BOTS["lookahead"](bb.observation(s, 0), legal, random.Random(1))
    assert choice in legal


def test_the_core_lookahead_without_racing_chooses_as_the_lookahead_on_states():
    """Issue 35: the lookahead's rollouts on the core are bots.lookahead's rollouts on States (the same
    sampled worlds, the same rollout draws, the same legal lists in the same order): with racing off it
    makes the same choice on every position of a few random games, at 3 and 4 players."""
    import random

    from meeple.rules import bots

    on_states = bots.lookahead(bb, samples=3)
    on_core = bb.lookahead_on_core(samples=3, race_from=99)
    asked = 0
    for players in (3, 4):
        cfg = Config(players=players)
        move = random.Random(players)
        for g in range(2):
            s = bb.new_game(cfg, g)
            while not s.is_over:
                p, legal = s.current_player, bb.legal_actions(s)
                if len(legal) > 1:
                    obs = bb.observation(s, p)
                    assert on_core(obs, legal, random.Random(asked)) == on_states(obs, legal, random.Random(asked))
                    asked += 1
                s = bb.apply(s, legal[move.randrange(len(legal))])
    assert asked > 100


def test_the_lookahead_races_its_candidates_and_still_finds_the_ending_play():
    """Racing drops candidates that are clearly behind, never the best: with the bonus far above every
    card's worth, the play that ends the round (and takes the bonus) is the lookahead's choice."""
    import random

    cfg = Config(players=3, bonus=40)
    s = bb.new_game(cfg, 3)
    mover = random.Random(0)
    while not s.is_over:
        p, legal = s.current_player, bb.legal_actions(s)
        ending = [a for a in legal
                  if s.positions[cfg.colours.index(a.colour)] + a.card.steps >= len(cfg.track) - 1]
        if ending and len(ending) < len(legal):
            choice = bb.BOTS["lookahead"](bb.observation(s, p), legal, random.Random(1))
            assert choice in ending, (choice, ending)
            return
        s = bb.apply(s, legal[mover.randrange(len(legal))])
    raise AssertionError("no position with a play that ends the round")


def _plays_afresh(s):
    """BB-6, BB-7 read off the hand: one play per distinct card in hand order, a joker once per colour."""
    hand = s.hands[s.current_player]
    return [Play(c, k) for c in dict.fromkeys(hand) for k in ((c.colour,) if c.colour else s.config.colours)]


def test_legal_plays_kept_up_to_date_card_by_card_are_those_the_hand_allows():
    """BB-6, BB-7: step keeps each seat's legal plays up to date as cards leave the hands (and
    apply's states share them); at every turn of seeded games they are the ones listed afresh."""
    import random

    for cfg in Config.presets().values():
        for seed in range(8):
            s, rng = bb.new_game(cfg, seed, events=seed % 2 == 0), random.Random(seed)
            while not s.is_over:
                legal = bb.legal_actions(s)
                assert legal == _plays_afresh(s)
                play = legal[rng.randrange(len(legal))]
                if seed % 2:
                    bb.step(s, play)
                else:
                    before = s
                    s = bb.apply(s, play)
                    assert bb.legal_actions(before) == _plays_afresh(before)  # the older state is unchanged


def test_legal_plays_follow_a_hand_built_out_of_order():
    """BB-6: a hand set by hand, not in the dealt order, lists its plays in its own order,
    also after a card of which another copy is held further on is played."""
    s = _state(hands=[[BLUE1, RED1, BLUE1, JOKER1], [BLUE1], [BLUE1], [BLUE1]])
    assert bb.legal_actions(s) == [Play(BLUE1, "blue"), Play(RED1, "red")] + [Play(JOKER1, c) for c in s.config.colours]
    s = bb.apply(bb.apply(bb.apply(bb.apply(s, Play(BLUE1, "blue")), Play(BLUE1, "blue")), Play(BLUE1, "blue")),
                 Play(BLUE1, "blue"))
    assert s.hands[0] == (RED1, BLUE1, JOKER1)
    assert bb.legal_actions(s) == [Play(RED1, "red"), Play(BLUE1, "blue")] + [Play(JOKER1, c) for c in s.config.colours]


def _heuristic_value(obs, play):
    """What heuristic_bot's docstring says a play is worth, from round_score itself (BB-9 to BB-11)."""
    cfg, end = obs.config, len(obs.config.track) - 1
    hand = list(obs.hand)
    if play.card.colour is not None:
        hand.remove(play.card)
    where = dict(zip(cfg.colours, obs.positions))
    where[play.colour] = to = min(end, where[play.colour] + play.card.steps)
    value = round_score(hand, where, cfg, to == end)
    if to != end and max(max(obs.positions), to) >= end - 2:
        value -= cfg.bonus * 0.75
    return value - (0.5 if play.card.colour is None else 0)


@pytest.mark.parametrize("advanced", [False, True])
def test_heuristic_picks_a_best_play_even_holding_every_card_of_a_colour(advanced):
    """The heuristic's choice is worth the most of the legal plays by round_score of the hand
    left (BB-9, BB-10 pairs and two-steps), also with hands of 7 from a deck of 3 + 2 cards a
    colour, which can hold all of a colour's cards."""
    import random

    cfg = Config(players=3, colours=("red", "blue"), one_step_cards=3, two_step_cards=2, hand_sizes=(7, 5, 4),
                 advanced=advanced, bonus=6)
    for seed in range(15):
        s, rng = bb.new_game(cfg, seed, events=False), random.Random(seed)
        while not s.is_over:
            obs, legal = bb.observation(s, s.current_player), bb.legal_actions(s)
            choice = bb.heuristic_bot(obs, legal, rng)
            assert _heuristic_value(obs, choice) == max(_heuristic_value(obs, a) for a in legal)
            bb.step(s, choice)


def test_cards_are_conserved_on_the_core_simulate_plays():
    """BB-1, BB-2: check_state holds on the mutable core after every move simulate's loop makes."""
    from meeple.rules.chance import Chance

    for seed in range(3):
        c = bb.core.new_core(Config(), Chance(seed), counts=True)
        bb.core.deal(c, 0)
        rng = __import__("random").Random(seed)
        while not c.is_over:
            p = c.current_player
            bb.check_state(c)
            assert (c.ones[p], c.twos[p]) == tuple(bb.cards.counts_by_colour(c.hands[p], c.box.colours, c.box.index))
            legal = bb.cards.hand_plays(c.hands[p], c.box.plays)
            assert c.plays[p] == legal  # kept up to date move by move
            bb.core.play_card(c, p, legal[rng.randrange(len(legal))])
        bb.check_state(c)
        assert len(c.history) == Config().total_rounds


def test_the_lean_benchmark_heuristic_makes_the_same_choices_as_heuristic_bot():
    """Issue 21: tests/bench/lean_bucket_brigade.py is the reference the engine is timed against; its
    heuristic must be meeple's. Decision by decision over whole games (base rules, 4 players): every
    meeple choice is among the lean bot's equally good plays, and the only one when it has one."""
    import random
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    try:
        import lean_bucket_brigade as lean
    finally:
        sys.path.pop(0)
    cfg = Config()
    colours = cfg.colours
    assert (lean.TRACK, lean.BONUS, lean.COLOURS) == (cfg.track, cfg.bonus, len(colours))

    def code(card):  # the lean loop's int for a card
        return 2 * colours.index(card.colour) + card.steps - 1 if card.colour else 7 + card.steps

    decisions = alone = 0
    for seed in range(40):
        s, rng = bb.new_game(cfg, seed, events=False), random.Random(seed)
        while not s.is_over:
            p = s.current_player
            obs, legal = bb.observation(s, p), bb.legal_actions(s)
            have, count = [0] * 10, [0] * len(colours)
            for c in obs.hand:
                have[code(c)] += 1
                if c.colour:
                    count[colours.index(c.colour)] += 1
            best = lean._heuristic(have, count, list(obs.positions), None)
            a = bb.heuristic_bot(obs, legal, rng)
            assert (code(a.card), colours.index(a.colour)) in best, (seed, obs, a, best)
            decisions += 1
            alone += len(best) == 1
            bb.step(s, a)
    assert decisions > 4000 and alone > 400, (decisions, alone)
