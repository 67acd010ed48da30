"""What the course site's Web Worker asks of Python (Pyodide in the reader's browser).

JSON text in, JSON text out, so nothing but strings crosses between JavaScript
and Python. Only the standard library and `meeple.rules` are used: altair,
pandas and numpy do not exist in the browser.

- `stepper_new(setup)` / `stepper_do(id, message)`: a `StepperSession` rebuilt
  from the setup the Stepper saved in the page, answering stepper.js's messages.
- `control_new(setup)` / `control_do(id, message)`: a lesson control
  (`meeple.widgets.controls`, the die editor, sliders, the Tally...) rebuilt from
  the setup its Panel saved, answering panel.js's messages.
- `simulate_point(setup, value, games, report)`: one Explorer value played
  game by game (`simulate.play_game`, the seeds `simulate` and `sweep` use) and
  summarised by the same functions as `Summary` (`_rate_row`, `stats.mean_ci`),
  so the numbers equal CPython's `sweep` row for row.
"""

from __future__ import annotations

import json

from meeple.rules.core import game_module, resolve_bots
from meeple.rules.simulate import MAX_GAMES, _bot_refs, _rate_row, play_game
from meeple.rules.stats import mean_ci

from .controls import Control
from .session import StepperSession

_sessions: dict[int, StepperSession] = {}
_controls: dict[int, Control] = {}


def _answer(session: StepperSession, extra: dict | None = None) -> str:
    return json.dumps({"view": session.view, "error": session.error, **(extra or {})})


def stepper_new(setup_json: str) -> str:
    """A new live Stepper from its saved setup: {"id", "view", "error"}."""
    session = StepperSession.from_setup(json.loads(setup_json))
    sid = len(_sessions) + 1
    _sessions[sid] = session
    return _answer(session, {"id": sid})


def stepper_do(sid: int, message_json: str) -> str:
    """One message from stepper.js: {"view", "error", "answer"} ("answer": the record, for "record")."""
    session = _sessions.get(sid) if isinstance(sid, int) and not isinstance(sid, bool) else None
    if session is None:
        raise ValueError(f"no live Stepper has id {sid!r}; ids so far: 1 to {len(_sessions)}" if _sessions
                         else f"no live Stepper has id {sid!r}: none was made (stepper_new first)")
    answer = session.handle(json.loads(message_json))
    return _answer(session, {"answer": answer})


def control_new(setup_json: str) -> str:
    """A live lesson control from its saved setup ({"kind", "args"}): {"id", "view"}."""
    control = Control.from_setup(json.loads(setup_json))
    cid = len(_controls) + 1
    _controls[cid] = control
    return json.dumps({"id": cid, "view": control.view()})


def control_do(cid: int, message_json: str) -> str:
    """One message from panel.js ({"do": "set"|"press", ...}): {"view"}."""
    control = _controls.get(cid) if isinstance(cid, int) and not isinstance(cid, bool) else None
    if control is None:
        raise ValueError(f"no live control has id {cid!r}" + (f"; ids so far: 1 to {len(_controls)}" if _controls
                                                              else ": none was made (control_new first)"))
    return json.dumps({"view": control.handle(json.loads(message_json))})


def simulate_point(setup_json: str, value_json: str, games: int, report=None) -> str:
    """`games` seeded games of one Explorer value, one row per seat with 95% intervals
    (the columns of a `sweep` table). `report(done, total)` is called now and then."""
    setup = json.loads(setup_json)
    mod = game_module(setup["game"])
    field, value = setup["field"], json.loads(value_json)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be a whole number from 1 to {MAX_GAMES:,}, got {games!r}")
    base = mod.Config.from_dict(setup["config"])
    config = mod.Config.from_dict({**base.to_dict(), field: value})
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
    rows = []
    for s in range(config.players):
        share = [(1.0 / len(g.winners) if g.winners else 0.0) if s in g.winners else 0.0 for g in records]
        rate, lo, hi = _rate_row(share)
        m, mlo, mhi = mean_ci([g.scores[s] for g in records])
        rows.append({field: value, "seat": s, "bot": ",".join(dict.fromkeys(g.bots[s] for g in records)),
                     "games": len(records), "win_rate": rate, "win_low": lo, "win_high": hi,
                     "score": m, "score_low": mlo, "score_high": mhi})
    return json.dumps(rows)
