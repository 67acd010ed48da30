"""The widget kinds behind one contract (lessons/site/runtime/transport.py) and the Explorer's plain session
(widgets/explorer_session.py): what the site's worker runs is what the kernel runs (issue 22)."""

from __future__ import annotations

import json

import pytest

from harness import run_without_jupyter
from meeple.rules import bucket_brigade as bb
from meeple.rules.sim import sweep
from meeple.course.site.runtime import transport
from meeple.widgets.explorer_session import ExplorerSession
from meeple.widgets.session import StepperSession


def test_the_transport_and_every_kind_import_and_play_without_jupyter_altair_pandas_or_numpy():
    """Pyodide has none of them: the worker opens an Explorer and a Stepper and drives both."""
    code = (
        "import json\n"
        "from meeple.course.site.runtime import transport\n"
        "setup = {'game': 'bucket-brigade', 'config': {}, 'fields': ['hand_size'], 'values': [[9, 13]],\n"
        "         'bots': ['heuristic', 'random', 'random', 'random'], 'games': 10, 'seed': 1}\n"
        "first = json.loads(transport.open_json('explorer', json.dumps(setup)))\n"
        "after = json.loads(transport.send_json(first['id'], json.dumps({'do': 'move', 'index': [0]})))['view']\n"
        "print(after['view']['cell'], after['view']['played'], sorted(after['charts']))\n"
    )
    # 2 played: 9, and the reference 13 (the current rules) it is paired with, and charted paired (issue 36)
    assert run_without_jupyter(code).split() == ["hand_size", "=", "9", "2", "['key',", "'measure',", "'paired',", "'win']"]


def test_a_kind_needs_the_three_methods_and_an_unknown_kind_or_id_says_what_exists():
    class Half:
        @classmethod
        def from_setup(cls, setup):
            return cls()

    with pytest.raises(TypeError, match="lacks view, handle"):
        transport.register("half", Half)
    with pytest.raises(ValueError, match="unknown widget kind 'purple'; known kinds: stepper, explorer, tally"):
        transport.open_session("purple", {})
    with pytest.raises(ValueError, match="no open widget session has id 999"):
        transport.send_message(999, {"do": "step"})


def test_the_stepper_kind_answers_as_the_stepper_does_and_hands_its_record_back():
    setup = StepperSession("bucket-brigade", bb.Config(rounds=1), seed=7, seat=0).setup()
    sid, first = transport.open_session("stepper", json.loads(json.dumps(setup)))
    move = first["view"]["actions"][0]
    after = transport.send_message(sid, {"do": "act", "action": move})
    assert after["view"]["step"] >= 1 and after["error"] == "" and "answer" not in after
    saved = transport.send_message(sid, {"do": "record"})
    assert json.loads(saved["answer"]["record"])["actions"][0] == move
    transport.close(sid)


def _sweep_rows(game, field, value, bots, games, seed, config=None):
    return sweep(game, config, {field: [value]}, bots, games, seed, progress=False, workers=1).to_dict("records")


@pytest.mark.parametrize("game, field, value, bots, measure", [
    ("bucket-brigade", "hand_size", 9, "heuristic,random", None),  # an alias (BB-2): issue 22's traceback
    ("bucket-brigade", "hand_sizes[1]", 11, "heuristic,random", None),  # a path
    ("duck-duck-bruce", "die[0]", -1, "random", "mean_steals_tried"),  # the game's own columns
    ("piggyback-brigade", "players", 3, "heuristic", None),  # the lineup follows the player count
])
def test_the_sessions_numbers_equal_sweep_digit_for_digit(game, field, value, bots, measure):
    """One formula: the session's rows (stdlib, what the browser runs) are sweep's (pandas), every column."""
    s = ExplorerSession(game, field, [value], bots=bots, games=30, seed=5, measure=measure)
    s.play_current()
    lineup = s.bots[0] if len(set(s.bots)) == 1 else s.bots
    want = _sweep_rows(game, field, value, lineup, 30, 5)
    got = s.rows()
    assert [list(r) for r in got] == [list(r) for r in want]
    for g, w in zip(got, want):
        assert all(g[k] == w[k] or (g[k] != g[k] and w[k] != w[k]) for k in w), [k for k in w if g[k] != w[k]]


def test_a_session_rebuilt_from_its_setup_plays_the_same_numbers_through_the_worker_api():
    """The kernel's session and the browser's (rebuilt from the saved setup, driven by messages) agree."""
    kernel = ExplorerSession("bucket-brigade", "hand_size", [7, 9, 11, 13], bots="heuristic,random", games=20, seed=1)
    kernel.move(7)
    first = json.loads(transport.open_json("explorer", json.dumps(kernel.setup())))
    assert first["view"]["view"]["cell"] == "hand_size = 7" and not first["view"]["view"]["ready"]  # nothing played yet
    browser = json.loads(transport.send_json(first["id"], json.dumps({"do": "play"})))["view"]
    assert browser["view"]["numbers"] == kernel.numbers()
    assert browser["charts"]["win"] == json.loads(json.dumps(kernel.specs()["win"]))


def test_messages_refused_change_nothing_and_say_what_is_allowed():
    s = ExplorerSession("bucket-brigade", "bonus", [0, 3], games=10, seed=1)
    s.play_current()
    for msg, error in [({"do": "games", "games": 5}, "games=5 is not allowed: a whole number from 10 to 20000; still 10"),
                       ({"do": "move", "index": [2]}, "one stop per slider, from 0 to 1"),
                       ({"do": "move", "value": 4}, "bonus=4 is not on the slider; allowed: 0, 3"),
                       ({"do": "measure", "measure": "joy"}, "measure='joy' is not allowed"),
                       ({"do": "jump"}, "unknown command 'jump'")]:
        before = s.rows()
        view = s.handle(msg)
        assert error in view["error"] and s.rows() == before and s.games == 10
    assert s.handle({"do": "move", "index": [0]})["error"] == ""


def test_the_games_field_text_is_checked_by_python_and_named_in_the_error():
    """The Explorer's games field sends the text as typed (a number input gave "" for letters and
    0 for an empty field: "games=0 is not allowed" named neither): Python says what is wrong."""
    s = ExplorerSession("bucket-brigade", "bonus", [0, 3], games=10, seed=1)
    s.play_current()
    for typed, error in [("", "games is empty: type a whole number from 10 to 20000; still 10"),
                         ("   ", "games is empty"),
                         ("abc", "games='abc' is not a whole number: type a whole number from 10 to 20000; still 10"),
                         ("1e3", "games='1e3' is not a whole number"),
                         ("12.5", "games='12.5' is not a whole number"),
                         ("9" * 5000, "is not allowed: a whole number from 10 to 20000"),
                         ("5", "games=5 is not allowed: a whole number from 10 to 20000; still 10")]:
        before = s.rows()
        view = s.handle({"do": "games", "games": typed})
        assert error in view["error"] and s.rows() == before and s.games == 10, (typed, view["error"])
    assert s.handle({"do": "games", "games": " 12 "})["error"] == "" and s.games == 12


def test_the_status_warns_when_the_changed_rule_was_used_in_under_1_percent_of_the_games():
    """Issue 25: BB-10's pair multiplier without the advanced rules is never used: compare's own warning."""
    never = ExplorerSession("bucket-brigade", "pair_multiplier", [2, 7], bots="heuristic", games=20, seed=1)
    never.move(7)
    (line,) = never.warnings()
    assert "changes pair_multiplier" in line and "0 of its 20 games" in line and "says nothing about that rule" in line
    assert never.view()["view"]["warnings"] == [line]
    used = ExplorerSession("bucket-brigade", "bonus", [3, 6], bots="heuristic", games=20, seed=1)
    used.move(6)
    assert used.warnings() == []
    used.move(3)  # the baseline changes no rule
    assert used.warnings() == []


def test_the_kernel_explorer_in_worker_processes_and_the_browsers_session_give_the_same_numbers():
    """Issue 22: the kernel's Explorer (games played in the shared process pool) and the session the
    browser rebuilds from the setup it saved (games played in one process) show the same numbers
    for the same value and seed, through the same class."""
    pytest.importorskip("anywidget")
    from meeple.widgets import Explorer

    e = Explorer("bucket-brigade", "hand_size", [9, 13], bots="heuristic,random", games=24, seed=3, workers=2)
    try:
        e.show(9)
        first = json.loads(transport.open_json("explorer", json.dumps(e.setup)))
        browser = json.loads(transport.send_json(first["id"], json.dumps({"do": "play"})))["view"]
        assert browser["view"]["cell"] == "hand_size = 9" and browser["view"]["numbers"] == e.view["numbers"]
        assert transport.session(first["id"]).rows((9,)) == e.session.rows((9,))  # every column, every digit
    finally:
        e.close()
