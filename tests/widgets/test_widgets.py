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
    assert v["your_turn"] and v["status"] == "Your turn: choose what to do."
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
        # the widget shows Player 1 to Player 4: the message says which number is which (review)
        ({"seat": 4}, r"seat=4 is not allowed: a seat from 0 to 3 \(Player 1 to Player 4\)"),
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
    assert w.view["title"] == GAMES[name].TITLE and w.view["board"]["kind"] in ("track", "pyramids", "rows", "table")
    json.dumps(w.view)  # the view crosses to the browser as JSON


# --- Explorer and charts ---------------------------------------------------------

from fractions import Fraction

from meeple.widgets import Explorer, charts, specs  # noqa: E402 - after the importorskip above


def test_explorer_simulates_each_value_once_and_charts_it_with_intervals():
    e = Explorer("bucket-brigade", field="bonus", values=[0, 6], bots="heuristic,random", games=40, seed=3, workers=1)
    assert e.current == 0  # the current bonus (3) is not offered: the first value is shown
    e.show(6)
    assert e.current == 6
    first = e.table.copy()
    e.show(6)  # cached: same numbers, no new games
    assert e.table.equals(first)
    e.show_all()
    t = e.table
    assert sorted(t["bonus"].unique()) == [0, 6] and len(t) == 8
    assert ((t["win_low"] <= t["win_rate"]) & (t["win_rate"] <= t["win_high"])).all()
    assert "95% CI" in e.session.numbers()["columns"] and "2 of 2 values simulated" in e.session.status()
    spec = e.session.specs()["win"]
    kinds = [_mark(layer) for layer in spec["layer"]]
    assert kinds == ["layer", "errorbar", "line", "rule", "text", "point"]  # baseline rule behind, fair share named, current value ringed


def _rows(spec, layer):
    """The rows a layer draws (its own data, else the chart's)."""
    return spec["datasets"][(layer.get("data") or spec["data"])["name"]]


def _ringed(explorer, spec, layer, data=None):
    """The rows the current-value mark of an Explorer chart draws: its rows whose `point` is
    the chart's `meeple_current` parameter as the front end sets it now (the view's `point`:
    Vega applies the filter in the browser; the Explorer moves the ring by setting the parameter)."""
    assert layer["transform"] == [{"filter": "datum.point == meeple_current"}]
    assert [p["name"] for p in spec["params"]] == ["meeple_current"]
    rows = spec["datasets"][(layer.get("data") or data or spec["data"])["name"]]
    return [r for r in rows if r["point"] == explorer.view["point"]]


def _mark(layer):
    if "layer" in layer:
        return "layer"
    return layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"]


def test_explorer_can_vary_the_number_of_players():
    e = Explorer("bucket-brigade", field="players", values=[3, 5], bots="random", games=20, seed=1, workers=1)
    e.show_all()
    assert e.table.groupby("players")["seat"].nunique().to_dict() == {3: 3, 5: 5}
    fair = e.session.specs()["win"]["layer"][3]  # after the baseline rule, the bars and the lines
    assert fair["mark"]["type"] == "line"  # the fair share follows the player count
    rows = e.session.specs()["win"]["datasets"][fair["data"]["name"]]
    assert [(r["players"], round(r["fair"], 4)) for r in rows] == [(3, 0.3333), (5, 0.2)]


def test_explorer_numbers_are_reproducible_by_seed():
    a = Explorer("bucket-brigade", field="bonus", values=[3], games=30, seed=9, workers=1).table
    b = Explorer("bucket-brigade", field="bonus", values=[3], games=30, seed=9, workers=1).table
    assert a.equals(b)


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"field": "colours"}, "field='colours' is not allowed: it holds a tuple of text"),
        ({"field": "hand_sizes[7]"}, r"field='hand_sizes\[7\]' is not allowed: .*out of range.*\(hand_sizes\[0\] to hand_sizes\[2\]\)"),
        ({"field": ("bonus", "bonus")}, "a pair of two different numbers"),
        ({"field": ("bonus", "hand_size"), "values": [1, 2]}, "values for two fields: a pair of lists"),
        ({"measure": "joy"}, "measure='joy' is not allowed: one of win_rate, score, turns"),
        ({"field": "wings"}, "field='wings' is not allowed"),
        ({"values": [3, -1]}, "value -1 for bonus is not allowed"),
        ({"values": []}, "non-empty list"),
        ({"games": 5}, "games=5 is not allowed: a whole number from 10"),
        ({"bots": "genius"}, "unknown bot 'genius'"),
        ({"field": "players", "bots": "heuristic,random"}, "when players varies, name one bot for every seat"),
    ],
)
def test_explorer_refuses_bad_settings(kwargs, error):
    with pytest.raises(ValueError, match=error):
        Explorer("bucket-brigade", **{"workers": 1, "games": 20, **kwargs})


def test_explorer_default_values_are_valid_neighbours():
    from meeple.widgets.explorer import candidate_values

    assert candidate_values(bb, bb.Config(), "bonus") == list(range(0, 9))  # bonus >= 0
    assert candidate_values(bb, bb.Config(), "advanced") == [False, True]
    assert candidate_values(bb, bb.Config(), "players") == [3, 4, 5]


def test_win_rate_chart_layers_intervals_line_and_fair_share():
    import pandas as pd

    table = pd.DataFrame({
        "bonus": [0, 0, 3, 3], "point": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "bot": ["heuristic", "random"] * 2,
        "games": [100] * 4, "win_rate": [0.5, 0.5, 0.7, 0.3], "win_low": [0.4, 0.4, 0.6, 0.2],
        "win_high": [0.6, 0.6, 0.8, 0.4], "score": [1.0] * 4, "score_low": [0.5] * 4, "score_high": [1.5] * 4,
    })
    spec = charts.win_rate_chart(table, "bonus").to_dict()
    bars, line, fair, label = spec["layer"]
    assert label["mark"]["type"] == "text" and label["encoding"]["text"]["value"] == "fair share"  # review R2
    assert bars["encoding"]["y"]["field"] == "win_low" and bars["encoding"]["y2"]["field"] == "win_high"
    assert line["encoding"]["x"]["field"] == "bonus" and line["encoding"]["x"]["type"] == "quantitative"
    fair_values = [d for d in spec["datasets"].values() if d and "fair" in d[0]]
    assert fair_values == [[{"fair": 0.5}]]  # two players: fair share 1/2
    assert "Player 1 (heuristic)" in str(spec["datasets"])
    score = charts.score_chart(table, "bonus").to_dict()
    assert score["layer"][0]["encoding"]["y2"]["field"] == "score_high"


def test_distribution_chart_shows_exact_fractions_and_refuses_a_bad_total():
    spec = charts.distribution_chart({1: Fraction(1, 3), 2: Fraction(2, 3)}, "steps").to_dict()
    rows = next(iter(spec["datasets"].values()))
    assert [r["exact"] for r in rows] == ["1/3", "2/3"]
    with pytest.raises(ValueError, match="sum to 1"):
        charts.distribution_chart({1: Fraction(1, 3)})


def test_seat_chart_draws_each_seat_with_its_interval():
    import pandas as pd

    seats = pd.DataFrame({"seat": [0, 1, 2], "bot": ["a", "b", "c"], "win_rate": [0.2, 0.3, 0.5],
                          "win_low": [0.1, 0.2, 0.4], "win_high": [0.3, 0.4, 0.6]})
    spec = charts.seat_chart(seats).to_dict()
    assert spec["layer"][1]["encoding"]["x2"]["field"] == "win_high"
    assert [d for d in spec["datasets"].values() if d and "fair" in d[0]] == [[{"fair": 1 / 3}]]


def test_explorer_refuses_a_typed_game_count_out_of_range_and_says_so():
    e = Explorer("bucket-brigade", field="bonus", values=[3], games=20, seed=1, workers=1)
    before = e.table.copy()
    e.games.value = 5
    assert e.games.value == 20 and "games=5 is not allowed" in e.error and "still 20" in e.error
    assert e.table.equals(before)
    e.games.value = 30
    assert e.table["games"].eq(30).all()


def test_undo_rewinds_the_bots_too_so_the_same_choices_give_the_same_game():
    w = Stepper("bucket-brigade", seed=5, bots="random", seat=None)
    w.step()
    w.step()
    first = list(w._actions)
    w.undo()
    w.step()
    assert w._actions == first


def test_a_game_continued_from_its_record_goes_on_exactly_as_the_original():
    a = Stepper("bucket-brigade", seed=6, bots="random", seat=None)
    for _ in range(5):
        a.step()
    b = Stepper.from_record(a.record().to_json(), seat=None, bots="random")
    for _ in range(5):
        a.step()
        b.step()
    assert b._actions == a._actions and b.state == a.state


def test_an_older_record_without_a_chance_key_continues_dealt_from_its_own_chance_version():
    """A record of chance version 1 (no "chance" key: `replay` and `meeple replay` deal it from
    version 1) continues in the Stepper from the same deal, with the bots' own streams of that version."""
    from meeple.rules import play
    from meeple.rules.chance import start
    from meeple.widgets.session import StepperSession

    whole = play("bucket-brigade", None, "heuristic", seed=7, chance=1)
    data = whole.to_dict()
    assert "chance" not in data  # an older record's shape
    Stepper.from_record(json.dumps(data), seat=0)  # refused before: "action 'blue +2' is not legal here"
    for key in ("round_scores", "scores", "winners"):
        del data[key]
    data["actions"] = data["actions"][:9]  # saved mid-game, as the Stepper saves
    w = Stepper.from_record(json.dumps(data), seat=None, bots="heuristic")
    while not w.state.is_over:
        w.step()
    assert w._actions == list(whole.actions) and w.state == whole.state
    assert "chance" not in json.loads(w.record().to_json())  # saved again as version 1
    first_deal = bb.new_game(bb.Config(), 7, chance=start(7, 1))
    # the course site rebuilds it from its setup with the same chance version
    assert w.setup["chance"] == 1 and StepperSession.from_setup(w.setup).state == first_deal
    # a restart deals this record's game again (version 1), not another game of the same seed
    w.restart()
    assert w.state == first_deal


def test_a_fresh_stepper_deals_from_the_current_chance_version():
    from meeple.rules.chance import CHANCE

    w = Stepper("bucket-brigade", seed=7, seat=None, bots="heuristic")
    assert "chance" not in w.setup and w.record().chance == CHANCE
    w.restart()
    assert w.state == bb.new_game(bb.Config(), 7)


@pytest.mark.parametrize("name", ["bucket-brigade", "bucket-king"])
def test_watching_shows_every_hand_and_playing_shows_only_yours(name):
    watch = Stepper(name, seed=2, bots="random", seat=None)
    assert len(watch.view["board"]["hands"]) == watch._config.players
    play = Stepper(name, seed=2, bots="random", seat=0)
    assert play.view["board"]["hands"] is None


# --- the designer's workbench in the Explorer (issue 10 items 1, 3, 6; issue 15 item 6) -------------

def test_explorer_moves_a_path_or_alias_and_keeps_the_baseline_drawn():
    """BB-2: hand_size is the hand for the configured player count (hand_sizes[1] with 4 players)."""
    e = Explorer("bucket-brigade", field="hand_size", values=[11, 13], bots="heuristic,random", games=10, seed=2,
                 workers=1)
    assert e.current == 13  # the baseline's own hand size is on the slider: it starts there
    e.show(11)
    t = e.table
    assert list(t.columns[:2]) == ["hand_size", "point"] and sorted(t["hand_size"].unique()) == [11, 13]
    spec = e.session.specs()["win"]
    baseline = spec["layer"][0]
    assert baseline["layer"][0]["mark"]["type"] == "rule"
    assert spec["datasets"][baseline["data"]["name"]] == [{"hand_size": 13, "label": "baseline"}]
    ring = spec["layer"][-1]
    assert {r["hand_size"] for r in _ringed(e, spec, ring)} == {11}  # the current value
    built = e.session.specs()["win"]
    e.show(13)  # already simulated: the ring moves, the chart is not rebuilt
    assert e.session.specs()["win"] is built and {r["hand_size"] for r in _ringed(e, built, ring)} == {13}
    e.measure.value = "turns"  # another measure: the measure chart is drawn anew, the ring still at 13
    measured = e.session.specs()["measure"]
    line = [layer for layer in measured["layer"] if _mark(layer) == "line"][0]
    assert line["encoding"]["y"]["field"] == "turns"
    assert {r["hand_size"] for r in _ringed(e, measured, measured["layer"][-1])} == {13}
    p = Explorer("bucket-brigade", field="hand_sizes[1]", values=[11, 13], bots="heuristic,random", games=10, seed=2,
                 workers=1)
    p.show(11)  # the alias and the path it stands for play the same games
    assert p.table[p.table["hand_sizes[1]"] == 11]["win_rate"].tolist() == e.table[e.table["hand_size"] == 11]["win_rate"].tolist()
    assert p.session.specs()["win"]["layer"][1]["encoding"]["x"]["field"] == "hand_sizes\\[1\\]"  # escaped for Vega


def test_explorer_default_stops_for_elements_and_aliases_are_valid_neighbours():
    from meeple.widgets.explorer import candidate_values

    assert candidate_values(bb, bb.Config(), "hand_size") == list(range(8, 14))  # 4 players: at most 55 // 4 = 13
    assert candidate_values(bb, bb.Config(), "track[0]") == list(range(-5, 6))
    assert candidate_values(bb, bb.Config(), "rounds") == [None] + list(range(1, 11))


def test_explorer_shows_the_measure_the_reader_picks_with_its_interval():
    e = Explorer("duck-duck-bruce", field="die[0]", values=[-1, 0], bots="random", games=10, seed=1, workers=1,
                 measure="mean_steals_tried")
    e.show_all()
    spec = e.session.specs()["measure"]
    line = [layer for layer in spec["layer"] if _mark(layer) == "line"][0]
    assert line["encoding"]["y"]["field"] == "mean_steals_tried"
    assert "steals_tried" in e.session.numbers()["columns"]  # the one name every surface shows (issue 36)
    e.measure.value = "turns"  # one number per game: one line for every seat
    spec = e.session.specs()["measure"]
    bars = [layer for layer in spec["layer"] if _mark(layer) == "errorbar"][0]
    assert bars["encoding"]["y2"]["field"] == "turns_high"
    assert {r["who"] for r in spec["datasets"][bars["data"]["name"]]} == {"every seat"}


def test_explorer_numbers_copy_as_csv():
    import io

    import pandas as pd

    e = Explorer("bucket-brigade", field="bonus", values=[0, 3], games=10, seed=1, workers=1)
    e.show_all()
    back = pd.read_csv(io.StringIO(e.table_csv()))
    assert back[["bonus", "seat", "win_rate", "win_low", "win_high"]].equals(
        e.table[["bonus", "seat", "win_rate", "win_low", "win_high"]].reset_index(drop=True))
    # what the "Numbers as CSV" button is answered (static/explorer.js shows it and copies it):
    # the session's CSV (no pandas, the browser's too) is pandas' own
    assert e.do({"do": "csv"})["answer"] == {"csv": e.table_csv()}


def test_the_widgets_take_a_variant_file(tmp_path):
    path = bb.Config(bonus=5).save(tmp_path / "five.toml")
    e = Explorer("bucket-brigade", field="hand_size", values=[13], config=str(path), games=10, seed=1, workers=1)
    assert "bonus=5" in e.view["rules"]
    assert Stepper("bucket-brigade", path, seed=1).state.config == bb.Config(bonus=5)
    with pytest.raises(ValueError, match="the file is a bucket-brigade variant, not duck-duck-bruce"):
        Stepper("duck-duck-bruce", path)


def test_explorer_on_two_fields_draws_a_map_with_the_current_cell_marked():
    e = Explorer("bucket-brigade", field=("bonus", "hand_size"), values=([0, 3], [11, 13]), bots="heuristic,random",
                 games=10, seed=1, workers=1)
    assert e.current == (3, 13)  # the baseline cell
    e.show((0, 11))
    assert "2 of 4 cells simulated" in e.session.status() and "bonus = 0, hand_size = 11" in e.session.numbers()["heading"]
    e.show_all()
    assert sorted(set(zip(e.table["bonus"], e.table["hand_size"]))) == [(0, 11), (0, 13), (3, 11), (3, 13)]
    spec = e.session.specs()["map"]
    value_map, width_map = spec["hconcat"]
    cells, _labels, baseline, current = value_map["layer"]
    assert cells["mark"]["type"] == "rect" and cells["encoding"]["color"]["field"] == "win_rate"
    assert width_map["layer"][0]["encoding"]["color"]["field"] == "width"
    assert [(r["bonus"], r["hand_size"]) for r in _ringed(e, spec, current, value_map.get("data"))] == [(0, 11)]
    e.show((3, 13))  # simulated already: only the outline moves
    assert e.session.specs()["map"] is spec
    assert [(r["bonus"], r["hand_size"]) for r in _ringed(e, spec, current, value_map.get("data"))] == [(3, 13)]
    assert spec["datasets"][baseline["data"]["name"]][0]["hand_size"] == 13  # the baseline cell, dashed
    e.measure.value = "turns"
    assert e.session.specs()["map"]["hconcat"][0]["layer"][0]["encoding"]["color"]["field"] == "turns"


def test_heat_map_shows_the_value_and_its_interval_width():
    from meeple.rules import sweep

    t = sweep("bucket-brigade", None, {"bonus": [0, 6], "players": [3, 4]}, "heuristic", 10, 1, progress=False, workers=1)
    spec = charts.heatmap_chart(t, "bonus", "players", "win_rate", seat=0, current=(6, 4)).to_dict()
    values, widths = spec["hconcat"]
    rows = spec["datasets"][values["layer"][0]["data"]["name"]]
    assert len(rows) == 4 and all(r["seat"] == 0 for r in rows)
    assert all(abs(r["width"] - (r["win_high"] - r["win_low"])) < 1e-12 for r in rows)
    assert spec["resolve"]["scale"]["color"] == "independent"


def test_a_chart_of_a_two_field_sweep_never_joins_points_of_another_field():
    """Issue 15 item 6: sweep over bonus x players drawn against bonus is one line per seat
    and per player count, never one line zig-zagging through both."""
    from meeple.rules import sweep

    t = sweep("bucket-brigade", None, {"bonus": [0, 6], "players": [3, 4]}, "random", 10, 1, progress=False, workers=1)
    for chart in (charts.win_rate_chart(t, "bonus"), charts.score_chart(t, "bonus"), charts.measure_chart(t, "bonus", "turns")):
        spec = chart.to_dict()
        line = [layer for layer in spec["layer"] if _mark(layer) == "line"][0]
        rows = _rows(spec, line)
        by_line = {}
        for r in rows:
            by_line.setdefault(r["who"], set()).add(r["players"])
        assert all(len(players) == 1 for players in by_line.values()), by_line


def test_compare_chart_draws_each_variants_paired_difference():
    from meeple.rules import compare

    t = compare("bucket-brigade", {"base": bb.Config(), "six": bb.Config(bonus=6)}, "random", 10, 1, progress=False,
                workers=1)
    spec = charts.compare_chart(t).to_dict()
    win, score = spec["hconcat"]
    assert win["layer"][1]["encoding"]["x2"]["field"] == "diff_win_high"
    assert score["layer"][2]["encoding"]["x"]["field"] == "diff_score"
    rows = spec["datasets"][win["layer"][1]["data"]["name"]]
    assert {r["variant"] for r in rows} == {"six"} and len(rows) == 4
    # review R2: a difference of win rates reads in percentage points (+10), as the win charts speak in %
    axis = win["layer"][1]["encoding"]["x"]
    assert "% points" in axis["title"] and "* 100" in axis["axis"]["labelExpr"]
    vlc = pytest.importorskip("vl_convert")
    assert vlc.vegalite_to_png(spec)[:4] == b"\x89PNG"


# --- review R2: odd values for the Explorer --------------------------------------

def test_explorer_puts_an_optional_number_at_none_on_its_slider():
    e = Explorer("bucket-brigade", "rounds", [None, 1, 2], bots="random", games=10, seed=0, workers=1)
    assert e.current is None and len(e.table) == 4  # the starting value (none) simulated: one row per seat
    e.show(2)
    assert e.current == 2 and len(e.table) == 8


@pytest.mark.parametrize("kwargs, message", [
    (dict(values=3), "a list of values"),
    (dict(values="0,1"), "a list of values"),
    (dict(values=[1, 1]), "twice"),
    (dict(bots=None), "bot names"),
    (dict(field="hand_sizes[9]"), r"index 9 is out of range: hand_sizes has 3 values"),  # not a list of 31 names
    (dict(field="track"), r"not one number; put one of its elements on the slider, e.g. track\[0\]"),
    (dict(field="colours"), "a slider moves numbers and switches only"),
    (dict(field=("hand_size", "hand_sizes[1]"), values=([8, 9], [10, 11])), "name each number once"),
])
def test_explorer_refuses_odd_values_with_one_message(kwargs, message):
    args = dict(game="bucket-brigade", field="bonus", values=[0, 1], bots="random", games=10, seed=0, workers=1)
    with pytest.raises(ValueError, match=message):
        Explorer(**{**args, **kwargs})


def test_explorer_takes_values_as_text_or_numpy_as_their_numbers():
    np = pytest.importorskip("numpy")
    for values in (["0", "1"], np.array([0, 1])):
        e = Explorer("bucket-brigade", "bonus", values, bots="random", games=10, seed=0, workers=1)
        assert [v for _, v in e.slider.options] == [0, 1] and all(type(v) is int for _, v in e.slider.options)


def test_the_heat_map_renders_every_vega_expression_parses():
    """Review R2: the label colour's test read `datum['win_rate'] < np.float64(0.25)` under
    numpy 2, which Vega refuses ("Illegal callee type"), so the two-field Explorer drew nothing."""
    import re

    from meeple.rules import sweep

    vlc = pytest.importorskip("vl_convert")
    t = sweep("bucket-brigade", None, {"bonus": [0, 3], "hand_size": [9, 11]}, "heuristic", 10, 1, progress=False, workers=1)
    spec = charts.heatmap_chart(t, "bonus", "hand_size", "win_rate", 0, current=(0, 9), baseline=(3, 11)).to_dict()
    tests = re.findall(r'"test": "([^"]*)"', json.dumps(spec))
    assert tests and not any("np." in x for x in tests), tests
    assert vlc.vegalite_to_png(spec)[:4] == b"\x89PNG"  # Vega itself parses and draws it


def test_the_explorer_ring_follows_its_vega_parameter_when_vega_draws_it():
    """The Explorer moves the ring by setting `meeple_current` (no new spec): Vega itself must
    put the ring at the parameter's value (rendered with vl-convert: x = 0 at bonus 0, the
    plot's right edge at bonus 6), one ring per seat."""
    import re

    vlc = pytest.importorskip("vl_convert")
    e = Explorer("bucket-brigade", field="bonus", values=[0, 3, 6], bots="heuristic,random", games=10, seed=1, workers=1)
    e.show_all()
    spec = e.session.specs()["win"]
    assert spec["params"] == [{"name": "meeple_current", "value": 1}]  # bonus 3, the baseline
    xs = {}
    for point in (0, 2):
        spec["params"][0]["value"] = point
        svg = vlc.vegalite_to_svg(spec)
        ring = re.findall(r'class="mark-symbol role-mark (layer_\d+_marks)"', svg)[-1]  # the last layer
        group = svg.split(f'class="mark-symbol role-mark {ring}"')[1].split("</g>")[0]
        xs[point] = re.findall(r"translate\(([\d.]+),", group)
    assert xs[0] == ["0"] * 4 and xs[2] == [str(specs.WIDTH)] * 4


def _x_axes(spec) -> list:
    """Every layer's x axis in a (layered) chart spec."""
    found = []
    for layer in spec.get("layer", []):
        found += _x_axes(layer) if "layer" in layer else [layer.get("encoding", {}).get("x", {}).get("axis")]
    return [a for a in found if a is not None]


def test_a_swept_field_named_like_a_length_measure_keeps_its_whole_values():
    """Sweeping DDB's `rounds` (also the game-length column's name): the field's column holds
    the rule values as whole numbers, the game length goes to rounds_played, and the charts
    tick each whole value once on one axis for every layer (not "2 3 3 4 4")."""
    from meeple.rules.sim import sweep

    table = sweep("duck-duck-bruce", None, {"rounds": [2, 3, 4]}, games=8, seed=1, workers=1, progress=False)
    assert str(table["rounds"].dtype) == "int64" and sorted(set(table["rounds"])) == [2, 3, 4]
    assert table["rounds_played"].tolist() == [float(r) for r in table["rounds"]]  # DDB-12: a set number of rounds
    for chart in (charts.win_rate_chart(table, "rounds", baseline=3, current=3),
                  charts.measure_chart(table[table["rounds"] > 2], "rounds", "score", baseline=2, current=3)):
        axes = _x_axes(chart.to_dict())
        assert axes and all(a == {"format": "d", "values": [2, 3, 4]} for a in axes), axes
    assert "rounds" not in Explorer("duck-duck-bruce", "rounds", values=[2, 3], games=10, workers=1).session.measures


def test_charts_hands_out_altair_charts_of_the_spec_builders_own_specs():
    """Issue 22: one builder. The Explorer's charts in the kernel, in the site's browser (Pyodide,
    no Altair) and from charts.py are the same Vega-Lite: charts.py's Altair chart of a sweep
    table is, as a dict, exactly specs.py's spec of its rows."""
    from meeple.rules import sweep

    t = sweep("bucket-brigade", None, {"bonus": [0, 3], "hand_size": [11, 13]}, "heuristic,random".split(",") * 2, 10, 1,
              progress=False, workers=1)
    one = t[t["hand_size"] == 13].drop(columns="hand_size").reset_index(drop=True)
    rows, rows_one = t.to_dict("records"), one.to_dict("records")
    import altair as alt

    now = alt.param(name=specs.CURRENT, value=1)
    assert charts.win_rate_chart(one, "bonus", baseline=3, current=now).to_dict() == \
        specs.win_rate(rows_one, "bonus", baseline=3, current=specs.Current(1))
    assert charts.measure_chart(one, "bonus", "turns", baseline=3, current=0).to_dict() == \
        specs.measure(rows_one, "bonus", "turns", baseline=3, current=0)
    assert charts.heatmap_chart(t, "bonus", "hand_size", "win_rate", 1, current=now, baseline=(3, 13)).to_dict() == \
        specs.heatmap(rows, "bonus", "hand_size", "win_rate", 1, current=specs.Current(1), baseline=(3, 13))
    assert all(c in specs.OKABE_ITO for c in specs.win_rate(rows_one, "bonus")["layer"][0]["encoding"]["color"]["scale"]["range"])


def test_a_widget_that_fixes_its_words_colour_fixes_its_background_too():
    """Review (JupyterLab Dark): the Stepper's words are #222 (its buttons light-only), on no
    background of its own, so a dark host drew them on its dark page. A widget's outer rule that
    sets a fixed text colour sets its own background too; one that follows the host's (inherit,
    the host's variables) needs none."""
    import re
    from pathlib import Path

    import meeple.widgets

    static = Path(meeple.widgets.__file__).parent / "static"
    roots = {"stepper.css": ".meeple-stepper", "panel.css": ".meeple-panel", "explorer.css": ".meeple-explorer"}
    for name, root in roots.items():
        css = (static / name).read_text()
        rule = re.search(r"(?m)^" + re.escape(root) + r"\s*\{([^}]*)\}", css)
        assert rule, f"{name}: no rule for {root}"
        colour = re.search(r"(?<![-\w])color:\s*([^;]+)", rule[1])
        if colour and colour[1].strip().startswith("#"):
            assert re.search(r"(?<![-\w])background(-color)?:\s*#", rule[1]), \
                f"{name}: {root} sets color {colour[1].strip()} but no background of its own"
