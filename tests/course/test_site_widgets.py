"""The widgets' site side without a browser: the Stepper's plain session, what the
Web Worker calls, and the Explorer's no-Python chart (issue 12; issue 15 item 7)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from harness import run_without_jupyter
from meeple.rules import bucket_brigade as bb
from meeple.rules import replay
from meeple.rules.sim import sweep
from meeple.course.site.runtime import live, transport
from meeple.widgets import Stepper, site_charts
from meeple.widgets.session import StepperSession


def test_the_session_and_the_worker_api_import_without_jupyter_altair_pandas_or_numpy():
    """Pyodide in the browser has none of them: importing them must not be needed to play."""
    code = (
        "import json\n"
        "from meeple.course.site.runtime import live, transport\n"
        "from meeple.widgets.session import StepperSession\n"
        "s = StepperSession('bucket-brigade', seed=1, seat=None)\n"
        "s.handle({'do': 'to-my-turn'})\n"
        "first = json.loads(transport.open_json('stepper', json.dumps(s.setup())))\n"
        "print(s.view['step'], first['view']['view']['step'])\n"
    )
    steps = run_without_jupyter(code, timeout=60).split()
    assert int(steps[0]) > 0 and steps[1] == "0"


@pytest.mark.parametrize("game, seat", [("bucket-brigade", 0), ("duck-duck-bruce", 0), ("bucket-king", None),
                                        ("piggyback-brigade", 1)])
def test_a_stepper_rebuilt_from_its_saved_setup_plays_the_same_game(game, seat):
    """Same seed, same game: the setup a Stepper saves in the page rebuilds it exactly."""
    w = Stepper(game, seed=11, bots="random", seat=seat)
    rebuilt = StepperSession.from_setup(json.loads(json.dumps(w.setup)))
    assert rebuilt.view == w.view
    for _ in range(6):
        for target in (w, rebuilt):
            if target.waiting_for_you():
                target.act(target.view["actions"][-1])
            elif not target.state.is_over:
                target.step()
    assert rebuilt.view == w.view and rebuilt.state == w.state


def test_the_worker_answers_stepper_messages_and_saves_a_record_that_replays():
    first = json.loads(transport.open_json("stepper", json.dumps(Stepper("bucket-brigade", bb.Config(rounds=1), seed=2026,
                                                                         seat=0).setup)))
    sid = first["id"]
    move = first["view"]["view"]["actions"][0]
    after = json.loads(transport.send_json(sid, json.dumps({"do": "act", "action": move})))["view"]
    assert after["view"]["step"] == 1 and after["error"] == ""
    refused = json.loads(transport.send_json(sid, json.dumps({"do": "act", "action": "purple +7"})))["view"]
    assert "not your turn" in refused["error"] and refused["view"]["step"] == 1
    saved = json.loads(transport.send_json(sid, json.dumps({"do": "record"})))["view"]["answer"]
    rec = replay(saved["record"])
    assert list(rec.actions) == [move] and saved["name"].endswith(".json")


def test_a_custom_bot_is_not_offered_to_the_browser():
    def mine(obs, legal, rng):
        return legal[0]

    w = Stepper("bucket-brigade", seed=1, bots=[mine, "random", "random"], seat=0)
    assert w.setup["portable"] is False


@pytest.mark.parametrize(
    "setup, value",
    [
        ({"game": "bucket-brigade", "config": bb.Config().to_dict(), "field": "bonus",
          "bots": ["heuristic", "random", "random", "random"], "seed": 1}, 6),
        ({"game": "piggyback-brigade", "config": None, "field": "players", "bots": ["heuristic"] * 4, "seed": 3}, 3),
    ],
)
def test_a_value_simulated_in_the_browser_has_the_numbers_of_sweep(setup, value):
    """One formula: the worker's summary (no pandas) equals CPython's sweep, digit for digit."""
    from meeple.rules import GAMES

    mod = GAMES[setup["game"]]
    setup = {**setup, "config": setup["config"] or mod.Config().to_dict()}
    rows = json.loads(live.simulate_point(json.dumps(setup), json.dumps(value), 40))
    bots = setup["bots"][0] if len(set(setup["bots"])) == 1 else setup["bots"]
    table = sweep(setup["game"], mod.Config.from_dict(setup["config"]), {setup["field"]: [value]}, bots, 40,
                  setup["seed"], progress=False, workers=1)
    assert len(rows) == len(table)
    for row, (_, want) in zip(rows, table.iterrows()):
        for k in ("seat", "bot", "games", "win_rate", "win_low", "win_high", "score", "score_low", "score_high"):
            assert row[k] == want[k], k



def test_the_timed_simulation_returns_the_same_rows_and_the_seconds_of_its_own_clocks():
    """What bench_site.py asks the worker: simulate_point's rows, untouched, and how long they took
    on the clocks of the Python that played them (CPython here: process_time is a CPU clock)."""
    setup = {"game": "bucket-brigade", "config": bb.Config().to_dict(), "field": "players",
             "bots": ["random"] * 4, "seed": 2}
    args = (json.dumps(setup), json.dumps(4), 30)
    timed = json.loads(live.timed_simulate_point(*args))
    assert timed["rows"] == json.loads(live.simulate_point(*args))
    assert timed["perf_counter"] > 0 and timed["process_time"] > 0
    assert timed["process_clock"] == time.get_clock_info("process_time").implementation

@pytest.fixture
def site_mode():
    """The course site being built, as the site builder's kernel startup says (site_mode()); off after."""
    site_charts.site_mode()
    yield
    site_charts.site_mode(False)


def test_on_the_site_an_explorer_saves_every_value_and_what_its_slider_shows_before_python(site_mode):
    """Issue 15 item 7 and issue 22: the site's Explorer shows all its values, not the ones the lesson
    visited; before Python starts its slider moves over the saved numbers of each value; after,
    the browser's session starts from the same numbers (its setup carries them)."""
    from meeple.widgets import Explorer
    from meeple.widgets.explorer_session import ExplorerSession

    e = Explorer("bucket-brigade", field="bonus", values=[0, 3, 6], bots="heuristic,random", games=20, seed=1, workers=1)
    assert sorted(e.table["bonus"].unique()) == [0, 3, 6] and e.view["played"] == 3
    assert e.view["point"] == 1 and sorted(e.view["saved_numbers"]) == ["0", "1", "2"]  # bonus 3, the baseline
    assert e.view["saved_numbers"]["2"] == e.session.numbers((6,))
    assert [p["name"] for p in e.charts["win"]["params"]] == ["meeple_current"]  # the ring follows the slider
    browser = ExplorerSession.from_setup(json.loads(json.dumps(e.setup)))
    assert browser.played == [(0,), (3,), (6,)] and browser.numbers((6,)) == e.session.numbers((6,))
    assert browser.view()["charts"]["win"] == json.loads(json.dumps(e.charts["win"]))
    e.show(0)  # the lesson may still visit values: nothing breaks
    site_charts.site_mode(False)
    plain = Explorer("bucket-brigade", field="bonus", values=[0, 3, 6], bots="heuristic,random", games=20, seed=1, workers=1)
    assert sorted(plain.table["bonus"].unique()) == [3] and "played" not in plain.setup  # in JupyterLab only what the reader visits


def test_the_site_builder_tells_the_kernel_and_no_widget_reads_the_environment(tmp_path):
    """Issue 34: the site builder tells the widget what it needs. Its IPython folder's one startup
    file (where IPython looks for it) turns site mode on; no module of meeple.widgets reads os.environ."""
    import runpy

    from IPython.core.profiledir import ProfileDir

    from meeple.course.site import build

    folder = build.kernel_ipython_dir(tmp_path / "ipython")
    startup = Path(ProfileDir.find_profile_dir_by_name(str(folder), "default").startup_dir)
    files = sorted(startup.glob("*.py"))
    assert [f.read_text() for f in files] == [build.KERNEL_STARTUP]
    assert not site_charts.building_site()
    try:
        runpy.run_path(str(files[0]))
        assert site_charts.building_site()
    finally:
        site_charts.site_mode(False)
    with pytest.raises(TypeError, match="True or False"):
        site_charts.site_mode("1")
    widgets = Path(site_charts.__file__).parent
    readers = [p.name for p in widgets.rglob("*.py") if re.search(r"\benviron\b|\bgetenv\b", p.read_text())]
    assert readers == []


def test_on_the_site_an_explorer_over_players_saves_every_value_and_pairs_only_the_seats_both_have(site_mode):
    """Lesson 3's Explorer over `players` (2 to 6, reference 4) stopped the site build: the paired column
    asked the 4-player reference for seats 5 and 6. A seat the reference lacks says so in its row."""
    from meeple.widgets import Explorer

    e = Explorer("piggyback-brigade", field="players", values=[2, 4, 6], bots="random", games=20, seed=1, workers=1)
    assert sorted(e.view["saved_numbers"]) == ["0", "1", "2"]
    six = e.session.numbers((6,))
    paired = [row[-1] for row in six["rows"]]
    assert paired[4:] == ["no Player 5 at players = 4", "no Player 6 at players = 4"]
    assert all(p.startswith(("+", "-")) for p in paired[:4]), paired  # seats 1-4: a paired difference
    two = e.session.numbers((2,))
    assert len(two["rows"]) == 2 and all(row[-1].startswith(("+", "-")) for row in two["rows"])


def test_the_95_percent_z_is_the_same_number_everywhere():
    """Z95 is written out (Pyodide's libm differs in the last bit); it is CPython's inv_cdf."""
    from statistics import NormalDist

    from meeple.rules.stats import Z95

    assert Z95 == NormalDist().inv_cdf(0.975)


# --- the Stepper's session meets a huge seed and a huge action text ----------------------

def test_a_stepper_restart_with_a_huge_seed_is_a_whole_new_game():
    s = StepperSession("bucket-brigade", None, seed=3, bots="random", seat=0)
    s.act(s.view["actions"][0])
    s.handle({"do": "restart", "seed": 2**130})
    assert s.error == "" and s.seed == 2**130 and s.actions == [] and s.setup()["seed"] == 2**130
    s.act(s.view["actions"][0])
    rec = s.record()
    assert rec.seed == 2**130 and replay(rec.to_json()) == rec
    again = StepperSession.from_setup(s.setup())
    assert again.view == StepperSession("bucket-brigade", None, seed=2**130, bots="random", seat=0).view
    # a seed the checker refuses changes nothing
    s.handle({"do": "restart", "seed": -1})
    assert "seed must be a whole number" in s.error and s.seed == 2**130 and len(s.actions) == 1


def test_the_stepper_quotes_a_short_prefix_of_a_huge_action_text():
    s = StepperSession("bucket-brigade", None, seed=3, bots="random", seat=0)
    s.handle({"do": "act", "action": "x" * 1_000_000})
    assert "is not legal here" in s.error and "(1,000,000 characters)" in s.error and len(s.error) < 2000
