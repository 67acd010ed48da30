"""Widgets without a browser: what they show, what they accept, what they refuse."""

from __future__ import annotations

import json

import pytest

from meeple.rules import GAMES, replay
from meeple.rules import bucket_brigade as bb
from meeple.widgets import Stepper


def test_stepper_starts_on_the_readers_turn_with_the_legal_cards():
    w = Stepper("bucket-brigade", seed=3, seat=0)
    v = w.view
    assert v["your_turn"] and v["status"] == "Your turn: choose a card."
    assert v["actions"] == [str(a) for a in bb.legal_actions(w.state)]
    assert [p["bot"] for p in v["players"]] == ["you", "heuristic", "heuristic", "heuristic"]
    assert v["board"]["kind"] == "track" and len(v["board"]["spaces"]) == 14


def test_the_readers_view_never_shows_other_hands():
    w = Stepper("bucket-brigade", seed=3, seat=1)
    assert w.view["board"]["hands"] is None
    mine = [c["text"] for c in w.view["board"]["hand"]]
    assert mine == [str(c) for c in w.state.hands[1]]
    watch = Stepper("bucket-brigade", seed=3, seat=None)
    assert len(watch.view["board"]["hands"]) == 4  # watching bots: every hand face up


def test_a_click_plays_the_card_and_bots_move_on_next():
    w = Stepper("bucket-brigade", seed=3, seat=0)
    first = w.view["actions"][0]
    w._on_message(w, {"do": "act", "action": first}, [])
    assert w.error == "" and w.view["step"] == 1 and not w.view["your_turn"]
    assert w.view["events"][-1].startswith(f"Player 1 plays {first.split(' for ')[0]}")
    w._on_message(w, {"do": "step"}, [])
    assert w.view["step"] == 2 and w.view["new_events"] >= 1
    w._on_message(w, {"do": "to-my-turn"}, [])
    assert w.view["your_turn"] or w.state.round == 1


@pytest.mark.parametrize(
    "message, error",
    [
        ({"do": "act", "action": "purple +7"}, "'purple +7' is not legal here"),
        ({"do": "act"}, "a move must name an action"),
        ({"do": "step"}, "it is your turn"),
        ({"do": "undo"}, "nothing to undo"),
        ({"do": "dance"}, "unknown command 'dance'"),
        ({"do": "restart", "seed": -2}, "seed must be a whole number >= 0"),
        ("hello", "unknown message"),
    ],
)
def test_bad_messages_show_a_clear_error_and_change_nothing(message, error):
    w = Stepper("bucket-brigade", seed=3, seat=0)
    before = (w.state, dict(w.view))
    w._on_message(w, message, [])
    assert error in w.error
    assert (w.state, w.view) == before


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"seat": 4}, "seat=4 is not allowed: a seat from 0 to 3"),
        ({"seat": -1}, "seat=-1 is not allowed"),
        ({"seed": -1}, "seed must be a whole number"),
        ({"bots": "genius"}, "unknown bot 'genius'"),
        ({"bots": ["random"] * 7}, "need 4 bots"),
        ({"game": "chess"}, "unknown game 'chess'"),
    ],
)
def test_bad_widget_arguments_are_refused(kwargs, error):
    with pytest.raises(ValueError, match=error):
        Stepper(**kwargs)


def test_undo_takes_back_the_readers_move_and_the_bot_moves_after_it():
    w = Stepper("bucket-brigade", seed=5, seat=0)
    start = w.state
    w.act(w.view["actions"][-1])
    w.play_until_your_turn()
    w.undo()
    assert w.state == start and w.view["your_turn"] and not w.view["can_undo"]


def test_a_saved_stepper_game_replays_and_continues():
    w = Stepper("bucket-brigade", seed=5, seat=0, bots="random")
    w.act(w.view["actions"][0])
    w.play_until_your_turn()
    text = w.record().to_json()
    assert json.loads(text)["bots"] == ["you", "random", "random", "random"]
    again = Stepper.from_record(text, seat=0)
    assert again.state == w.state and again.view["actions"] == w.view["actions"]
    assert replay(text).state == w.state


def test_watching_bots_play_a_whole_game():
    w = Stepper("bucket-brigade", bb.Config(players=3), seed=2, bots="random", seat=None)
    while not w.state.is_over:
        w.play_until_your_turn()
    assert w.view["over"] and w.view["status"].startswith("Game over")
    assert any(p["winner"] for p in w.view["players"])


@pytest.mark.parametrize("name", list(GAMES))
def test_stepper_shows_every_game(name):
    w = Stepper(name, seed=1, bots="random", seat=None)
    for _ in range(5):
        if not w.state.is_over:
            w.step()
    assert w.view["title"] == GAMES[name].TITLE and w.view["board"]["kind"] in ("track", "table")
