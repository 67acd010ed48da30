"""What the course site's Web Worker asks of Python (Pyodide in the reader's browser).

JSON text in, JSON text out, so nothing but strings crosses between JavaScript
and Python. Only the standard library and `meeple.rules` are used: altair,
pandas and numpy do not exist in the browser.

- `simulate_point(setup, value, games, report)`: one Explorer value played
  game by game (`simulate.play_game`, the seeds `simulate` and `sweep` use) and
  summarised by the Explorer's own `cell_rows`, so the numbers equal CPython's
  `sweep` row for row.
- `timed_simulate_point(setup, value, games)`: the same, timed by the clocks of
  the Python that plays it (tests/bench/bench_site.py's games/s inside the worker).

Every widget kind (the Stepper, the Explorer, the controls) is opened and driven through
`meeple.course.site.runtime.transport` (`open_json`, `send_json`), which the worker calls.
"""

from __future__ import annotations

import json
import time

from meeple.rules.core import game_module, resolve_bots
from meeple.rules.sim import MAX_GAMES, play_game
from meeple.rules.sim.runner import bot_refs as _bot_refs

from meeple.widgets.explorer_rows import cell_rows
from meeple.widgets.specs import clean_value


def simulate_point(setup_json: str, value_json: str, games: int, report=None) -> str:
    """`games` seeded games of one Explorer value, one row per seat with 95% intervals
    (the columns of a `sweep` table). `report(done, total)` is called now and then. The
    value's rules are built as the Explorer builds them (`with_values`: a field, a path
    such as `hand_sizes[1]` or an alias such as `hand_size`)."""
    setup = json.loads(setup_json)
    mod = game_module(setup["game"])
    field, value = setup["field"], json.loads(value_json)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be a whole number from 1 to {MAX_GAMES:,}, got {games!r}")
    config = mod.Config.from_dict(setup["config"]).with_values({field: value})
    bots = setup["bots"]
    bots = bots[0] if len(set(bots)) == 1 else bots  # as the Explorer asks sweep: one name follows the player count
    refs = _bot_refs(mod, bots, config.players)
    names, funcs = resolve_bots(mod, refs, config.players)
    seed = setup["seed"]
    records = []
    every = max(1, games // 50)
    for i in range(games):
        records.append(play_game(mod, config, names, funcs, seed, i))
        if report is not None and ((i + 1) % every == 0 or i + 1 == games):
            report(i + 1, games)
    rows = cell_rows({field: value}, config.players, records)
    return json.dumps([{k: clean_value(v) for k, v in r.items()} for r in rows])


def timed_simulate_point(setup_json: str, value_json: str, games: int) -> str:
    """`simulate_point` timed where it runs, not by a page's call to the worker and back: JSON
    {"rows", "perf_counter", "process_time" (seconds on each clock), "process_clock" (what
    process_time reads here: in the browser's Pyodide `clock()`, a wall clock, since a Web Worker
    has no CPU clock; CPython on Linux reads CLOCK_PROCESS_CPUTIME_ID)}."""
    t0, c0 = time.perf_counter(), time.process_time()
    rows = simulate_point(setup_json, value_json, games)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return json.dumps({"rows": json.loads(rows), "perf_counter": wall, "process_time": cpu,
                       "process_clock": time.get_clock_info("process_time").implementation})
