"""The Piggyback Brigade: one or more tests per numbered rule in seeds/piggyback_brigade.md."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from meeple.rules import play, replay
from meeple.rules import piggyback_brigade as pb
from meeple.rules.sim import head_to_head
from meeple.rules.piggyback_brigade import EXTEND, MOVES, ROLL, ROLL_AGAIN, STOP, Config

NO_EXT = (0,) * 6


def die(*faces, colour="white", rule="no"):
    """Config fields for a die whose faces share one colour and one reroll rule."""
    return {"faces": faces, "face_colours": (colour,) * len(faces), "rerolls": (rule,) * len(faces)}


class Rigged:
    """A scripted die for rule tests: each roll takes the next face index from the script."""

    def __init__(self, script):
        self.script = tuple(script)

    def below(self, n):
        assert self.script, "the die was rolled more often than the test scripted"
        assert 0 <= self.script[0] < n
        return self.script[0], Rigged(self.script[1:])


def table(cfg, spaces=None, to_move=0, rolls=None, seed=0, extensions_left=None):
    """A hand-built race: `spaces` maps a space index to its piglets, bottom to top;
    every other piglet stands before the start. Play then begins `to_move`'s turn
    and runs to the first decision, rolling the scripted face indices `rolls`
    (or the seeded die when `rolls` is None)."""
    s = pb.new_game(cfg, seed)._copy()
    stacks = [()] * cfg.spaces
    where = [-1] * len(s.where)
    for i, stack in (spaces or {}).items():
        stacks[i] = tuple(stack)
        for q in stack:
            where[q] = i
    s.stacks, s.where, s.events = tuple(stacks), tuple(where), ()
    if extensions_left is not None:  # extensions already made have rotated the track
        s.extensions_left = extensions_left
        made = sum(cfg.extensions_per_player - e for e in extensions_left) % len(cfg.sections)
        s.order = s.order[made:] + s.order[:made]
    if rolls is not None:
        s.chance = Rigged(rolls)
    s.phase, s.pending, s.piglet, s.face, s.rerolls = pb.TURN, (), -1, -1, 0
    s.current_player = (to_move - 1) % cfg.players
    pb.game.play_on(s, None)
    pb.check_state(s)
    return s


def stacks_of(state):
    return {i: st for i, st in enumerate(state.stacks) if st}


# --- PB-1 track --------------------------------------------------------------

def test_track_is_eight_sections_of_two_and_three_spaces():
    """PB-1: 8 sections alternating 2 and 3 spaces = 20; long-track uses the 3 sides (24)."""
    cfg = Config()
    assert cfg.sections == (2, 3, 2, 3, 2, 3, 2, 3) and cfg.spaces == 20
    assert len(pb.new_game(cfg, 1).stacks) == 20
    long = Config.presets()["long-track"]
    assert long.sections == (3,) * 8 and long.spaces == 24


def test_piglets_start_before_the_first_space_and_a_one_lands_on_it():
    """PB-1: the start is off the track: a 1 from the start lands on section A, space 1."""
    s = table(Config(extensions=NO_EXT, **die(1, rule="yes")), {}, to_move=0, rolls=[0])
    assert s.where[0] == 0 and pb.place(s, 0) == ("A", 1)
    assert all(pb.place(s, q) == "start" for q in (1, 2, 3))
    assert "from the start to space 1 (section A, space 1)" in s.events[0]


def test_places_name_the_section_and_the_space_in_it():
    """PB-1: space 7 of 2,3,2,3,... is section C's second space."""
    s = table(Config(**die(1)), {6: (1,)}, rolls=[])
    assert pb.place(s, 1) == ("C", 2)


# --- PB-2 players and piglets -----------------------------------------------

@pytest.mark.parametrize("players, each", [(2, 2), (3, 2), (4, 1), (5, 1), (6, 1), (7, 1)])
def test_two_or_three_players_run_two_piglets_each(players, each):
    """PB-2: 2-7 players; two piglets each with 2 or 3 players, else one; all at the start."""
    cfg = Config(players=players)
    s = pb.new_game(cfg, 0)
    assert cfg.piglets_per_player == each
    assert len(s.where) == players * each
    owners = Counter(cfg.owner(q) for q in range(players * each))
    assert owners == Counter({p: each for p in range(players)})


def test_more_players_than_piglets_is_refused_clearly():
    """PB-2: seven figures: 7 players of one piglet fit; 4 players of two do not."""
    Config(players=7)
    with pytest.raises(ValueError, match=r"players=4 .*at most 3 players.*only 7 piglets"):
        Config(players=4, piglets_each=(2, 2, 2, 1, 1, 1))
    with pytest.raises(ValueError, match=r"players=6 .*only 5 piglets"):
        Config(players=6, piglets=5)


# --- PB-3 turn order ---------------------------------------------------------

def test_player_one_starts_and_turns_pass_in_seat_order():
    """PB-3: Player 1 moves first; then Player 2, 3, 4, and back to Player 1."""
    s = table(Config(extensions=NO_EXT, **die(1, rule="yes")), {}, to_move=0, rolls=[0] * 6)
    assert s.events[0].startswith("Player 1 rolls")
    seen = []
    for _ in range(5):
        seen.append(s.current_player)
        s = pb.apply(s, STOP)  # the next player's roll follows
    assert seen == [0, 1, 2, 3, 0]
    fresh = pb.new_game(Config(), 5)
    assert fresh.current_player == 0


# --- PB-4 / PB-5 rolling and the die ----------------------------------------

def test_a_turn_rolls_the_die_and_moves_the_piglet_that_many_spaces():
    """PB-4: a 3 moves the piglet from space 4 to space 7; then the next player's turn."""
    s = table(Config(**die(3)), {3: (0,), 10: (1,), 11: (2,), 12: (3,)}, to_move=0, rolls=[0])
    assert pb.legal_actions(s) == [ROLL, EXTEND]  # Player 1 may extend first (PB-12)
    s = pb.apply(s, ROLL)
    assert s.where[0] == 6 and s.current_player == 1
    assert "moves 3 from space 4 (section B, space 2) to space 7" in s.events[-1]


def test_default_die_and_every_face_equally_likely():
    """PB-5: white 1,2,3,4, black 1, black 3; over 1200 first rolls each face comes up about 200 times."""
    cfg = Config()
    assert [cfg.face_text(i) for i in range(6)] == ["white 1", "white 2", "white 3", "white 4", "black 1", "black 3"]
    counts = Counter()
    quiet = Config(extensions=NO_EXT)
    for seed in range(1200):
        first = pb.new_game(quiet, seed).events[1]
        counts[first.split(" rolls a ")[1].split(":")[0]] += 1
    assert set(counts) == {cfg.face_text(i) for i in range(6)}
    assert all(140 <= c <= 260 for c in counts.values()), counts


def test_a_black_one_moves_one_space():
    """PB-5: a black face moves its own number, not 3 (the text's "3 spaces" is the black 3)."""
    cfg = Config(**die(1, colour="black", rule="if-last"))
    s = pb.apply(table(cfg, {8: (1,), 10: (0,), 11: (2,), 12: (3,)}, to_move=1, rolls=[0]), ROLL)
    assert s.where[1] == 9 and "rolls a black 1" in s.events[-1]


# --- PB-6 / PB-7 / PB-8 rerolls ---------------------------------------------

def test_a_white_face_offers_an_optional_reroll_of_the_same_piglet():
    """PB-6: after a white roll: reroll or stop; reroll moves the same piglet again; stop ends the turn."""
    cfg = Config(extensions=NO_EXT, **die(2, rule="yes"))
    s = table(cfg, {0: (1,), 5: (0,)}, to_move=0, rolls=[0, 0, 0])
    assert pb.legal_actions(s) == [ROLL_AGAIN, STOP] and s.current_player == 0 and s.where[0] == 7
    again = pb.apply(s, ROLL_AGAIN)
    assert again.where[0] == 9 and again.current_player == 0
    stopped = pb.apply(s, STOP)
    assert stopped.where[0] == 7 and stopped.current_player == 1


def test_no_reroll_on_a_face_without_one():
    """PB-6: a face that gives no reroll passes the turn at once."""
    s = pb.apply(table(Config(**die(2)), {5: (0,), 8: (1,), 9: (2,), 10: (3,)}, to_move=0, rolls=[0]), ROLL)
    assert s.where[0] == 7 and s.current_player == 1


def test_black_reroll_only_for_the_last_piglet():
    """PB-7: a black face offers a reroll only if no piglet stood behind the piglet before the roll."""
    cfg = Config(**die(3, colour="black", rule="if-last"))
    last = pb.apply(table(cfg, {2: (0,), 4: (1,), 6: (2,), 8: (3,)}, rolls=[0]), ROLL)
    assert last.where[0] == 5 and pb.legal_actions(last) == [ROLL_AGAIN, STOP]
    not_last = pb.apply(table(cfg, {2: (1,), 4: (0,), 6: (2,), 8: (3,)}, rolls=[0]), ROLL)
    assert not_last.where[0] == 7 and not_last.current_player == 1  # Player 2's piglet was behind
    start_behind = pb.apply(table(cfg, {2: (0,), 4: (1,), 6: (2,)}, rolls=[0]), ROLL)
    assert start_behind.current_player == 1  # a piglet still before the start is behind


def test_piglets_in_the_same_stack_are_not_behind():
    """PB-7: the top of the rearmost stack is last: the piglet carrying it is not behind it."""
    cfg = Config(**die(3, colour="black", rule="if-last"))
    s = pb.apply(table(cfg, {2: (1, 0), 7: (2,), 9: (3,)}, rolls=[0, 0]), ROLL)
    assert s.where[0] == 5 and pb.legal_actions(s) == [ROLL_AGAIN, STOP]
    # now Player 2's piglet is behind: the reroll moves it again with no further offer
    after = pb.apply(s, ROLL_AGAIN)
    assert after.where[0] == 8 and after.current_player == 1


def test_last_is_judged_again_before_every_reroll():
    """PB-7: the last piglet that lands ahead of others loses the black reroll."""
    cfg = Config(**die(3, colour="black", rule="if-last"))
    s = pb.apply(table(cfg, {2: (0,), 3: (1,), 4: (2,), 5: (3,)}, rolls=[0, 0]), ROLL)
    assert s.stacks[5] == (3, 0) and pb.legal_actions(s) == [ROLL_AGAIN, STOP]
    s = pb.apply(s, ROLL_AGAIN)  # from the top of the stack on space 6: two piglets behind now
    assert s.where[0] == 8 and s.current_player == 1


def test_max_rerolls_caps_the_rerolls_of_a_piglet_in_a_turn():
    """PB-8: none by default (ten rerolls in a row are offered); with max_rerolls=2 the third is not."""
    s = table(Config(extensions=NO_EXT, sections=(9,) * 8, **die(1, rule="yes")), {30: (1,)}, rolls=[0] * 11)
    for _ in range(10):
        assert pb.legal_actions(s) == [ROLL_AGAIN, STOP]
        s = pb.apply(s, ROLL_AGAIN)
    assert s.where[0] == 10 and s.current_player == 0 and s.rerolls == 10
    capped = table(Config(extensions=NO_EXT, max_rerolls=2, **die(1, rule="yes")), {10: (1,)}, rolls=[0] * 4)
    capped = pb.apply(pb.apply(capped, ROLL_AGAIN), ROLL_AGAIN)
    assert capped.where[0] == 2 and capped.current_player == 1 and capped.piglet == 1


# --- PB-9 / PB-10 stacks -----------------------------------------------------

def test_landing_on_an_occupied_space_climbs_on_top():
    """PB-9: a piglet that lands on a stack goes on top of it."""
    s = pb.apply(table(Config(**die(2)), {4: (1, 2), 2: (0,), 8: (3,)}, rolls=[0]), ROLL)
    assert s.stacks[4] == (1, 2, 0)
    assert s.events[-1].endswith("onto blue and yellow.")


def test_a_piglet_carries_everything_above_it():
    """PB-10: bottom carries all; middle carries those above; top jumps off alone."""
    cfg = Config(**die(2))
    bottom = pb.apply(table(cfg, {3: (0, 1, 2), 9: (3,)}, to_move=0, rolls=[0]), ROLL)
    assert stacks_of(bottom) == {5: (0, 1, 2), 9: (3,)}
    middle = pb.apply(table(cfg, {3: (2, 1, 0), 9: (3,)}, to_move=1, rolls=[0]), ROLL)
    assert stacks_of(middle) == {3: (2,), 5: (1, 0), 9: (3,)}
    top = pb.apply(table(cfg, {3: (1, 2, 3), 9: (0,)}, to_move=3, rolls=[0]), ROLL)
    assert stacks_of(top) == {3: (1, 2), 5: (3,), 9: (0,)}
    assert "red piglet carrying blue and yellow moves 2" in bottom.events[-1]
    assert "carrying" not in top.events[-1]


def test_a_carried_stack_lands_on_top_of_another():
    """PB-9/PB-10: a moving group keeps its order and lands on top of the stack there."""
    assert pb.move([(), (0, 1), (), (2,)], 0, 2) == ((), (), (), (2, 0, 1))


def test_move_helper_starts_off_the_track_and_finishes_past_it():
    """PB-10/PB-13: the public move(): a piglet on no space is at the start; a group past the end leaves."""
    assert pb.move([(), (), ()], 4, 2) == ((), (4,), ())
    assert pb.move([(0,), (), (1, 2)], 1, 1) == ((0,), (), ())
    with pytest.raises(ValueError, match="steps"):
        pb.move([(), ()], 0, 0)


# --- PB-11 two piglets -------------------------------------------------------

def test_two_piglets_roll_separately_and_the_player_picks_which_moves_first():
    """PB-11: after the first roll the player chooses a piglet; the other gets the next roll."""
    cfg = Config(players=2, extensions=NO_EXT, **die(2))
    s = table(cfg, {0: (0,), 6: (1,)}, to_move=0, rolls=[0, 0, 0])
    assert s.phase == pb.CHOOSE and pb.legal_actions(s) == [MOVES[0], MOVES[1]]
    assert str(MOVES[1]) == "move the blue piglet"
    after = pb.apply(s, MOVES[1])  # blue takes the first 2, red the second
    assert after.where[:2] == (2, 8) and after.current_player == 1 and after.phase == pb.CHOOSE
    assert "Player 1 gives the white 2 to the blue piglet: it moves 2" in " ".join(after.events)


def test_a_piglets_rerolls_come_before_its_partners_roll():
    """PB-11: the chosen piglet finishes its rerolls, then the other piglet rolls."""
    cfg = Config(players=3, extensions=NO_EXT, **die(1, rule="yes"))
    s = pb.apply(table(cfg, {}, to_move=1, rolls=[0] * 4), MOVES[3])
    assert s.piglet == 3 and pb.legal_actions(s) == [ROLL_AGAIN, STOP]
    s = pb.apply(pb.apply(s, ROLL_AGAIN), STOP)  # piglet 3 moved twice, now piglet 2 rolls
    assert s.where[3] == 1 and s.where[2] == 0 and s.piglet == 2 and s.current_player == 1


# --- PB-12 extension ---------------------------------------------------------

def test_extension_moves_the_empty_first_section_to_the_end_and_keeps_places():
    """PB-12: section A moves to the end; piglets keep section and space, 2 spaces further from the finish."""
    s = table(Config(**die(1, rule="yes")), {3: (1,), 9: (2, 3)}, to_move=0, rolls=[0])
    assert s.phase == pb.TURN and pb.legal_actions(s) == [ROLL, EXTEND]
    places = {q: pb.place(s, q) for q in (1, 2, 3)}
    after = pb.apply(s, EXTEND)
    assert after.order == (1, 2, 3, 4, 5, 6, 7, 0)
    assert {q: pb.place(after, q) for q in (1, 2, 3)} == places
    assert after.where[1:] == (1, 7, 7)
    assert after.where[0] == 0 and pb.place(after, 0) == ("B", 1)  # then Player 1 rolled a 1
    assert after.extensions_left == (0, 1, 1, 1)
    assert any("section A (2 spaces) moves from the start to the end" in e for e in after.events)


def test_no_extension_while_a_piglet_stands_on_the_first_section():
    """PB-12: a piglet on section A blocks the extension; the turn starts with the roll."""
    s = table(Config(**die(1, rule="yes")), {1: (2,)}, to_move=0, rolls=[0])
    assert s.phase == pb.REROLL and EXTEND not in pb.legal_actions(s)


def test_each_player_extends_once_or_twice_with_two_or_three_players():
    """PB-12: one extension each with 4+ players, two each with 2-3 players; at most one a turn."""
    assert pb.new_game(Config(players=4), 0).extensions_left == (1,) * 4
    assert pb.new_game(Config(players=3), 0).extensions_left == (2,) * 3
    s = pb.apply(table(Config(players=2, **die(1)), {}, to_move=0, rolls=[0]), EXTEND)
    assert s.phase == pb.CHOOSE and s.extensions_left == (1, 2)  # the roll follows at once
    used = table(Config(**die(1, rule="yes")), {}, to_move=2, extensions_left=(1, 1, 0, 1), rolls=[0])
    assert used.phase == pb.REROLL and used.current_player == 2


def test_extension_instead_of_rolling_ends_the_turn():
    """PB-12: with extend_timing=instead the extension is the whole turn."""
    cfg = Config(extend_timing="instead", **die(1))
    s = pb.apply(table(cfg, {5: (1,)}, to_move=0, rolls=[]), EXTEND)
    assert s.where[:2] == (-1, 3) and s.current_player == 1 and s.phase == pb.TURN
    assert Config.presets()["extend-instead"].extend_timing == "instead"


# --- PB-13 / PB-14 / PB-15 the finish -----------------------------------------

def test_a_roll_need_not_be_exact_to_cross_the_finish():
    """PB-13: 4 from the second-to-last space crosses the finish."""
    s = table(Config(extensions=NO_EXT, **die(4)), {18: (0,), 2: (1,)}, to_move=0, rolls=[0])
    assert s.is_over and s.where[0] == 20 and pb.winners(s) == [0]
    assert "past the finish" in s.events[-2]


def test_carried_piglets_win_too_and_the_race_ends_at_once():
    """PB-14: red carrying blue and yellow crosses: Players 1, 2 and 3 win; nobody moves again."""
    s = table(Config(extensions=NO_EXT, **die(3)), {18: (0, 1, 2), 0: (3,)}, to_move=0, rolls=[0])
    assert s.is_over and pb.winners(s) == [0, 1, 2]
    assert s.current_player is None and pb.legal_actions(s) == []
    assert s.events[-1] == "Race over: the red piglet carrying blue and yellow wins; Player 1 and Player 2 and Player 3 win."
    with pytest.raises(ValueError, match="over"):
        pb.apply(s, ROLL)


def test_a_player_with_two_piglets_wins_once():
    """PB-14: winners are players, not piglets: both of Player 1's piglets crossing is one winner."""
    s = table(Config(players=2, extensions=NO_EXT, **die(2)), {19: (0, 1), 0: (2,)}, to_move=0, rolls=[0])
    s = pb.apply(s, MOVES[0])
    assert pb.winners(s) == [0] and pb.scores(s) == [1, 0]


def test_scores_are_one_per_winner_once_the_race_is_over():
    """PB-15: 0 for all before the end; 1 per winning player after; one round row."""
    s = table(Config(extensions=NO_EXT, **die(3)), {18: (1, 3)}, to_move=1, rolls=[0])
    assert pb.scores(s) == [0, 1, 0, 1] and pb.round_scores(s) == [[0, 1, 0, 1]]
    fresh = pb.new_game(Config(), 1)
    assert pb.scores(fresh) == [0, 0, 0, 0] and pb.round_scores(fresh) == [] and pb.winners(fresh) == []


# --- PB-16 published die -----------------------------------------------------

def test_published_die_rerolls_on_a_one_and_on_a_black_three_when_last():
    """PB-16: 1,1,2,3,3,4 with black 1 and black 3; any 1 rerolls, black 3 only when last, the rest never."""
    pub = Config.presets()["published-die"]
    rules = {pub.face_text(i): pub.rerolls[i] for i in range(6)}
    assert rules == {"white 1": "yes", "black 1": "yes", "white 2": "no", "white 3": "no",
                     "black 3": "if-last", "white 4": "no"}
    cfg = dataclasses.replace(pub, extensions=NO_EXT)
    ahead, last = {}, {}
    for face in range(6):  # roll each face once; Player 2's white 1 (face 0) then stops play
        s = table(cfg, {10: (0,), 1: (1,), 2: (2,), 3: (3,)}, to_move=0, rolls=[face, 0])
        ahead[pub.face_text(face)] = (s.where[0] - 10, s.phase == pb.REROLL and s.current_player == 0)
        s = table(cfg, {0: (0,), 1: (1,), 2: (2,), 3: (3,)}, to_move=0, rolls=[face, 0])
        last[pub.face_text(face)] = s.phase == pb.REROLL and s.current_player == 0
    assert ahead == {"white 1": (1, True), "black 1": (1, True), "white 2": (2, False),
                     "white 3": (3, False), "black 3": (3, False), "white 4": (4, False)}
    assert last == {"white 1": True, "black 1": True, "white 2": False,
                    "white 3": False, "black 3": True, "white 4": False}


# --- configuration -----------------------------------------------------------

# Written like test_bucket_brigade's on purpose: the same rule (a bad value names itself), each game's own fields.
@pytest.mark.parametrize(
    "changes, shown, allowed",
    [
        ({"players": 1}, "players=1", "2 to 7"),
        ({"players": 8}, "players=8", "2 to 7"),
        ({"sections": (2, 0, 3)}, "sections=2,0,3", "empty section"),
        ({"sections": ()}, "sections=(empty)", "1 to 16 sections"),
        ({"faces": (), "face_colours": (), "rerolls": ()}, "faces=(empty)", "no faces"),
        ({"faces": (1, 0, 2), "face_colours": ("white",) * 3, "rerolls": ("no",) * 3}, "faces=1,0,2", "every roll moves forward"),
        ({"faces": (1, 2)}, "face_colours", "for each of the 2 faces"),
        ({"face_colours": ("white",) * 5 + ("red",)}, "face_colours", "white/black"),
        ({"rerolls": ("yes",) * 5 + ("maybe",)}, "rerolls", "yes/no/if-last"),
        ({"max_rerolls": -1}, "max_rerolls=-1", "0 to 99"),
        ({"extensions": (1, 1, 1, 1, 1, -1)}, "extensions", "0 to 9"),
        ({"extend_timing": "after"}, "extend_timing=after", "before"),
        ({"piglets": 0}, "piglets=0", "1 to 14"),
        ({"piglets_each": (0, 2, 1, 1, 1, 1)}, "piglets_each", "1 to 4"),
    ],
)
def test_bad_configs_name_the_field_the_value_and_what_is_allowed(changes, shown, allowed):
    with pytest.raises(ValueError) as err:
        Config(**changes)
    assert shown in str(err.value) and allowed in str(err.value)


def test_text_settings_are_parsed_strictly():
    cfg = Config().with_text(["sections=3,3,2", "max_rerolls=2", "extend_timing=instead", "extensions=0,0,0,0,0,0"])
    assert cfg.sections == (3, 3, 2) and cfg.max_rerolls == 2 and cfg.extend_timing == "instead"
    assert Config(max_rerolls=2).with_text(["max_rerolls=none"]).max_rerolls is None
    for bad in ["sections=2,x", "max_rerolls=1.5", "extensions=1,1", "faces=1,2", "nonsense=1"]:
        with pytest.raises(ValueError):
            Config().with_text([bad])


@pytest.mark.parametrize("setting", [{"max_rerolls": ""}, {"max_rerolls": "  "}])
def test_an_empty_optional_number_is_refused_not_read_as_none(setting):
    """`--set max_rerolls=` (a shell variable that happened to be empty) silently meant none: no limit."""
    message = "empty value for max_rerolls: write max_rerolls=none for no limit, or a whole number"
    for apply in (Config(max_rerolls=2).with_text, Config(max_rerolls=2).with_values):
        with pytest.raises(ValueError, match=f"^{message}$"):
            apply(setting)
    assert Config(max_rerolls=2).value_for("max_rerolls", "none") is None
    assert Config(seat_spaces=(1, 0, 0, 0)).with_text({"seat_spaces": ""}).seat_spaces == ()  # a tuple of any length: empty


@pytest.mark.parametrize("value", ["none", ""])
def test_a_variant_file_says_how_none_is_written(value):
    """A file's values are typed: none is JSON's null, and TOML has none at all (it said only 'expected int')."""
    from meeple.rules.config import variant_config

    with pytest.raises(ValueError, match=r"v\.toml: max_rerolls: expected int or null \(none: JSON's null; TOML has "
                                         r"no none, write the variant as \.json\)"):
        variant_config(Config, "v.toml", {"max_rerolls": value})
    assert variant_config(Config, "v.json", {"max_rerolls": None}).max_rerolls is None


def test_every_preset_plays_to_a_finish_and_replays():
    """PB-1..PB-16 together: each preset's race ends with winners and its record replays."""
    for name, cfg in Config.presets().items():
        rec = play("piggyback-brigade", cfg, "random", 17)
        assert rec.winners and replay(rec.to_json()) == rec, name


# --- exact maths -------------------------------------------------------------

def brute_force(cfg, from_last, bound):
    """Every sequence of bound+1 face indices, equally likely; walk it as a turn."""
    n = len(cfg.faces)
    dist = Counter()
    for seq in itertools.product(range(n), repeat=bound + 1):
        total = 0
        for used, f in enumerate(seq):
            total += cfg.faces[f]
            rule = cfg.rerolls[f]
            if used == bound or not (rule == "yes" or (rule == "if-last" and from_last)):
                break
        dist[total] += Fraction(1, n ** (bound + 1))
    return dict(dist)


@pytest.mark.parametrize("preset", ["base", "published-die"])
@pytest.mark.parametrize("from_last", [False, True])
@pytest.mark.parametrize("bound", [0, 1, 3])
def test_exact_turn_distance_matches_brute_force(preset, from_last, bound):
    """PB-6/PB-7/PB-8: the exact reroll chain equals enumeration of all face sequences."""
    cfg = Config.presets()[preset]
    exact = pb.exact_turn_distance(cfg, from_last, max_rerolls=bound)
    assert exact == brute_force(cfg, from_last, bound)
    assert sum(exact.values()) == 1 and exact.max_rerolls == bound


def test_exact_turn_distance_says_where_it_is_truncated():
    """PB-8: unlimited rerolls are cut at 20 (or the config's cap); .capped is the chance the cap stopped it."""
    base = pb.exact_turn_distance(Config(), from_last=False)
    assert base.max_rerolls == pb.EXACT_REROLL_BOUND and base.capped == Fraction(4, 6) ** 21
    small = pb.exact_turn_distance(Config(max_rerolls=2), from_last=True, max_rerolls=5)
    assert small.max_rerolls == 2 and small.capped == 1  # every face rerolls for the last piglet
    assert small == brute_force(Config(), True, 2)
    # the untruncated mean for white-only rerolls is (14/6) / (2/6) = 7; 20 rerolls get very close
    assert abs(float(base.mean()) - 7) < 0.01


def test_exact_turn_distance_agrees_with_turns_played_by_the_rules():
    """PB-6/PB-8: always rerolling in real turns (piglet not last, long track) follows the exact law."""
    cfg = Config(players=2, piglets_each=(1,) * 6, extensions=NO_EXT, sections=(9,) * 16, max_rerolls=3)
    exact = pb.exact_turn_distance(cfg, from_last=False)
    seen = Counter()
    games = 1500
    for seed in range(games):
        s = table(cfg, {0: (0,)}, to_move=0, seed=seed)  # Player 2's piglet at the start is behind
        while s.current_player == 0:
            s = pb.apply(s, ROLL_AGAIN)
        seen[s.where[0]] += 1
    assert set(seen) <= set(exact)
    for d, p in exact.items():  # every distance within 5 standard errors of its exact probability
        sd = (float(p) * (1 - float(p)) / games) ** 0.5
        assert abs(seen[d] / games - float(p)) <= 5 * sd + 1e-9, (d, seen[d], p)


# --- observation and bots ----------------------------------------------------

def test_observation_shows_the_table_and_hides_only_the_future_rolls():
    s = table(Config(players=3), {4: (0, 3)}, to_move=1)
    assert s.phase == pb.TURN
    obs = pb.observation(s, 2)
    assert obs.stacks == s.stacks and obs.where == s.where and obs.pending == s.pending
    assert not hasattr(obs, "chance") and "seed" not in repr(obs)
    world = pb.determinize(obs, random.Random(1))
    assert pb.observation(world, 2) == obs and world.chance != s.chance


def test_always_reroll_bot_rerolls_whenever_allowed():
    s = table(Config(extensions=NO_EXT, **die(1, rule="yes")), {}, to_move=0, rolls=[0])
    bot = pb.BOTS["always-reroll"]
    assert bot(pb.observation(s, 0), pb.legal_actions(s), random.Random(0)) == ROLL_AGAIN


def test_heuristic_extends_only_when_it_costs_it_nothing():
    """PB-12 for the heuristic: extend while all my piglets are before the start and others are on the track."""
    bot = pb.BOTS["heuristic"]
    cfg = Config(**die(1))
    behind = table(cfg, {6: (0,)}, to_move=1, rolls=[])
    assert bot(pb.observation(behind, 1), pb.legal_actions(behind), random.Random(0)) == EXTEND
    ahead = table(cfg, {6: (1,), 8: (0,)}, to_move=1, rolls=[])
    assert bot(pb.observation(ahead, 1), pb.legal_actions(ahead), random.Random(0)) == ROLL


def test_heuristic_stops_on_a_good_ride_with_the_published_die_only():
    """PB-10 for the heuristic: sitting on two carriers beats a reroll worth 3.5 spaces, not one worth 7."""
    bot = pb.BOTS["heuristic"]
    pub = Config.presets()["published-die"]
    ride = dict(faces=(1,), face_colours=("white",), rerolls=("yes",), extensions=NO_EXT)
    s = table(Config(**ride), {4: (2, 3), 3: (0,)}, to_move=0, rolls=[0])  # red lands on yellow and green
    assert s.stacks[4] == (2, 3, 0) and s.phase == pb.REROLL
    obs = pb.observation(s, 0)
    for cfg, want in [(Config(), ROLL_AGAIN), (pub, STOP)]:
        assert bot(dataclasses.replace(obs, config=cfg), [ROLL_AGAIN, STOP], random.Random(0)) == want


def test_heuristic_beats_random_by_a_significant_margin():
    """One heuristic bot against three random bots, seat-balanced, 200 seeded games:
    the 95% Wilson lower bound of its win share is above the fair 1/4."""
    r = head_to_head("piggyback-brigade", Config(), "heuristic", "random", 200, seed=2026)
    assert r["ci95"][0] > r["fair_share"], r


def test_lookahead_returns_a_legal_action_from_its_own_view():
    s = table(Config(players=3), {4: (0, 3)}, to_move=1)
    legal = pb.legal_actions(s)
    choice = pb.BOTS["lookahead"](pb.observation(s, 1), legal, random.Random(1))
    assert choice in legal


# --- simulate hooks: progress and game_stats ------------------------------------

def test_progress_is_the_best_piglets_distance_covered_with_riders_ahead():
    """PB-10, PB-14: per seat, the spaces its best piglet has covered; on a shared space a
    rider is ahead of the piglets under it; once over, the winners are furthest."""
    assert pb.progress(pb.new_game(Config(), 0)) == [0, 0, 0, 0]  # Player 1 may extend: nobody moved yet
    s = table(Config(**die(1)), {4: (1, 2), 9: (3,)}, to_move=0, rolls=[])  # stops at "extend or roll"
    p = pb.progress(s)
    assert p[0] == 0 and p[3] == 10  # the red piglet stands before the start; space 10 covered
    assert p[1] == 5 < p[2] < 6  # blue and yellow share space 5; yellow rides on blue
    two = Config(players=2, **die(1))  # two piglets each: the better one counts
    s2 = table(two, {2: (0,), 7: (1,), 5: (2,)}, to_move=0, rolls=[])
    assert pb.progress(s2)[0] == 8 and pb.progress(s2)[1] == 6
    won = table(Config(extensions=NO_EXT, **die(3)), {18: (0, 1), 0: (3,)}, to_move=0, rolls=[0])
    assert won.is_over and pb.progress(won)[:2] == [21.0, 21.0] and max(pb.progress(won)[2:]) < 21


def test_progress_drops_when_the_track_is_extended():
    """PB-12: an extension puts every piglet on the track a section further from the finish."""
    s = table(Config(**die(1, rule="yes")), {3: (1,), 9: (2, 3)}, to_move=0, rolls=[0])
    before = pb.progress(s)
    after = pb.progress(pb.apply(s, EXTEND))
    assert [b - a for a, b in zip(after[1:], before[1:])] == [2, 2, 2]


def test_progress_makes_lead_changes_and_the_late_leader_a_favourite():
    """PB-14: with progress, simulate sees lead changes, and the leader at 75% of the
    turns wins well above the fair share (chance alone would give 1/4)."""
    from meeple.rules import simulate
    from meeple.rules.stats import wilson

    res = simulate("piggyback-brigade", None, "heuristic", 400, 5, workers=1, progress=False)
    g = res.games
    assert g["lead_changes"].mean() > 1
    led = g[["winners", "leader_at_75pct"]].dropna()
    wins = sum(int(row.leader_at_75pct) in row.winners for row in led.itertuples())
    assert len(led) > 300 and wilson(wins, len(led))[0] > 0.25


def test_game_stats_count_rerolls_extensions_and_carried_winners():
    """PB-6, PB-12, PB-14: rerolls taken and declined per seat, extensions used, and who won
    riding on someone else's piglet."""
    cfg = Config(extensions=NO_EXT, **die(2, rule="yes"))
    s = table(cfg, {0: (1,), 5: (0,)}, to_move=0, rolls=[0, 0, 0])
    s = pb.apply(pb.apply(s, ROLL_AGAIN), STOP)  # Player 1 rerolls once, then stops
    stats = pb.game_stats(s)
    assert stats["rerolls"] == [1, 0, 0, 0] and stats["rerolls_declined"] == [1, 0, 0, 0]
    ext = pb.apply(table(Config(players=2, **die(1)), {}, to_move=0, rolls=[0]), EXTEND)
    assert pb.game_stats(ext)["extensions"] == [1, 0]
    carried = table(Config(extensions=NO_EXT, **die(3)), {18: (0, 1, 2), 0: (3,)}, to_move=0, rolls=[0])
    stats = pb.game_stats(carried)
    assert stats["won_carried"] == [0, 1, 1, 0] and stats["finish_stack"] == 3
    alone = table(Config(extensions=NO_EXT, **die(4)), {18: (0,), 2: (1,)}, to_move=0, rolls=[0])
    assert pb.game_stats(alone)["won_carried"] == [0, 0, 0, 0] and pb.game_stats(alone)["finish_stack"] == 1
    assert pb.score_sources(carried) == [{"moved": 1, "carried": 0}, {"moved": 0, "carried": 1},
                                         {"moved": 0, "carried": 1}, {"moved": 0, "carried": 0}]
    assert pb.score_sources(alone)[0] == {"moved": 1, "carried": 0}


@pytest.mark.parametrize("preset", list(Config.presets()))
def test_game_stats_agree_with_the_played_games(preset):
    """PB-6, PB-12, PB-14: over seeded games, rerolls and extensions match the actions taken."""
    cfg = Config.presets()[preset]
    for seed in range(5):
        rec = play("piggyback-brigade", cfg, ["random", "heuristic", "always-reroll", "random"], seed)
        stats = pb.game_stats(rec.state)
        assert sum(stats["rerolls"]) == rec.actions.count("reroll")
        assert sum(stats["rerolls_declined"]) == rec.actions.count("stop")
        assert sum(stats["extensions"]) == rec.actions.count("extend the track")
        assert sum(stats["won_carried"]) == len(rec.winners) - 1  # everyone but the mover's owner rode
        assert stats["finish_stack"] >= len(rec.winners)
        assert [sum(d.values()) for d in pb.score_sources(rec.state)] == list(rec.scores)


def test_observation_is_the_constructors_field_for_field_through_whole_games():
    """observation() fills the frozen Observation slot by slot (a fast path): every field
    equals what Observation(...) built from the state gives, at every decision."""
    for cfg, seed in [(Config(), 3), (Config(players=2), 4), (Config(players=3, extend_timing=pb.INSTEAD), 5)]:
        s, rng = pb.new_game(cfg, seed), random.Random(seed)
        while not s.is_over:
            for p in range(cfg.players):
                obs = pb.observation(s, p)
                built = pb.Observation(**{f.name: p if f.name == "player" else getattr(s, f.name)
                                          for f in dataclasses.fields(pb.Observation)})
                assert obs == built and hash(obs) == hash(built) and repr(obs) == repr(built)
            with pytest.raises(dataclasses.FrozenInstanceError):
                obs.phase = pb.OVER
            legal = pb.legal_actions(s)
            s = pb.apply(s, legal[rng.randrange(len(legal))])
