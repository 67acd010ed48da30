"""Duck, Duck, Bruce's bust rate (issue 36: "no table gives the bust rate per turn"): busts per turn
taken, per seat (game_stats' bust_rate = (doubles + bruces) / turns_taken) and per game (the seats'
rates averaged), by its one name in simulate, compare, tune and the Explorer. DDB-2, DDB-5, DDB-6."""

from __future__ import annotations

import pytest

from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import play, simulate
from meeple.rules.duck_duck_bruce import FLIP, STOP, Config, Duck
from meeple.rules.sim.results import measure_listing

from test_duck_duck_bruce import _state

R1, R2, G1, G2, B1 = Duck("red", 1), Duck("red", 2), Duck("green", 1), Duck("green", 2), Duck("blue", 1)

# Every turn ends with exactly one of these events (DDB-4 stop, DDB-5 double, DDB-6 the steal or
# its refusal after Bruce, DDB-9 the last card): the events alone count the turns of each seat.
TURN_ENDS = ("stops and puts", "a second", "tries to steal", "does not try to steal", "the last card, and takes")
BUSTS = ("a second", "flips Bruce")


def _from_events(events, players):
    """(turns, busts) per seat, counted from the event sentences alone."""
    turns, busts = [0] * players, [0] * players
    for e in events:
        if not e.startswith("Player "):
            continue
        seat = int(e.split()[1]) - 1
        turns[seat] += any(k in e for k in TURN_ENDS)
        busts[seat] += any(k in e for k in BUSTS)
    return turns, busts


def test_a_hand_built_turn_by_turn_bust_rate():
    """DDB-5: Player 1's row red 1 meets red 2, a double: one turn, one bust. Player 2 flips
    green 1 and stops: one turn, no bust. Player 3 has flipped green 2 and not finished a turn."""
    s = _state(pile=[R2, G1, G2, B1], row=[R1])
    assert s.turns_taken == (0, 0, 0, 0)
    s = ddb.apply(s, FLIP)  # red 2: a double ends Player 1's turn, Player 2 flips green 1
    s = ddb.apply(s, STOP)  # Player 2 banks it; Player 3 flips green 2 and may choose
    assert s.turns_taken == (1, 1, 0, 0) and s.current_player == 2
    stats = ddb.game_stats(s)
    assert stats["turns_taken"] == [1, 1, 0, 0]
    assert stats["bust_rate"] == [1.0, 0.0, None, None]  # a seat with no turn has no rate (not 0)


@pytest.mark.parametrize("preset", list(Config.presets()))
def test_bust_rate_is_the_busts_per_turn_the_events_show(preset):
    cfg = Config.presets()[preset]
    for seed in range(5):
        rec = play("duck-duck-bruce", cfg, ["random", "heuristic", "threshold-2", "random"][:cfg.players], seed)
        turns, busts = _from_events(rec.events, cfg.players)
        stats = ddb.game_stats(rec.state)
        assert stats["turns_taken"] == turns, (preset, seed)
        assert stats["bust_rate"] == [b / t for b, t in zip(busts, turns)], (preset, seed)


def test_simulate_shows_the_bust_rate_per_seat_and_per_game():
    res = simulate("duck-duck-bruce", None, "heuristic", 30, 2, progress=False, workers=1)
    t = res.table
    # simulate's turns (counted by its turn-end hook) are the seats' turns added up
    assert (t.groupby("game")["turns_taken"].sum() == res.games.set_index("game")["turns"]).all()
    assert ((t["doubles"] + t["bruces"]) / t["turns_taken"] == t["bust_rate"]).all()
    rows = res.summary(["bust_rate"]).measures
    per_seat = rows[rows["seat"].notna()]
    assert list(per_seat["mean"]) == pytest.approx(list(t.groupby("seat")["bust_rate"].mean()))
    every = rows[rows["seat"].isna()].iloc[0]
    assert every["mean"] == pytest.approx(t.groupby("game")["bust_rate"].mean().mean())
    assert every["low"] < every["mean"] < every["high"]  # unlike bruces, it moves from game to game
    assert 0 < every["mean"] < 1


def test_bust_rate_is_one_name_in_every_surface(capsys):
    from meeple.rules.cli import main
    from meeple.rules.workbench import compare, tune
    from meeple.widgets.explorer_session import ExplorerSession

    listing = measure_listing("duck-duck-bruce")
    assert "bust_rate" in listing and "turns_taken" in listing
    assert "constant" in listing["bruces"] and "bust_rate" in listing["bruces"]  # says what bruces cannot tell
    assert main(["simulate", "duck-duck-bruce", "--games", "6", "--workers", "1", "--measure", "bust_rate"]) == 0
    assert "bust_rate  Player 1" in capsys.readouterr().out
    more = Config().with_values({"bruce_cards": 9})
    table = compare("duck-duck-bruce", {"base": Config(), "b9": more}, "random", 60, 1, progress=False, workers=1,
                    measures=["bust_rate"])
    row = table[(table["variant"] == "b9")].iloc[0]
    assert row["diff_mean_bust_rate_low"] > 0  # three more Bruces: random bots bust more often, game by game (heuristic ones hold back)
    t = tune("duck-duck-bruce", None, "bruce_cards", "bust_rate", 0.3, "random", 30, 1, progress=False, workers=1,
             values=[4, 6, 8])
    assert t.answer in (4, 6, 8) and "bust_rate" in t.message
    s = ExplorerSession("duck-duck-bruce", "bruce_cards", bots="random", games=40, seed=1, measure="bust_rate")
    assert s.measure == "mean_bust_rate"  # the sweep table's column; the name it takes and shows: bust_rate
    s.move(9)  # played with the reference, bruce_cards = 6
    diff, low, high = s.paired((9,), 0)
    assert 0 < low <= diff <= high
    assert s.numbers()["columns"][5] == "bust_rate"
    s.set_measure("cards_stolen")
    assert s.measure == "mean_cards_stolen"
    with pytest.raises(ValueError, match="measure='busts' is not allowed: one of win_rate, score, .*bust_rate"):
        s.set_measure("busts")
