"""How a notebook carries its answers to `meeple grade`: the convention, and the answer as data.

THE CONVENTION. Each `check(key, answer)` run in a notebook (a Jupyter kernel) shows its verdict
as one display output whose metadata holds the answer as JSON data:

    outputs: [{"output_type": "display_data", "data": {"text/markdown": "✓ Right: ..."},
               "metadata": {"meeple": {"check": "07.third", "student": "k7qf-m2xa-rtde",
                                       "answer": {"fraction": "4/9"}}}}]

So a notebook saved with its outputs (what a student submits) holds, for every exercise checked,
the answer the student passed and the id whose numbers were in use; `meeple grade` reads the last
one of each exercise and checks it again itself. The verdict text is never read. A notebook whose
cells were never run, or whose outputs were cleared, has no answers.

The answer as data (`encode`): JSON, tagged where JSON has no type of its own. Numbers, text,
True/False/None and lists are themselves; {"fraction": "n/d"}, {"float": "repr"}, {"tuple": [...]}, {"ellipsis": null} (a part left as `...`),
{"dict": [[k, v], ...]}; a game's rules {"config": {"game": NAME, "fields": {...}}}; a run of games
(what `simulate` returns, or an Evidence) by what replays it, not by its games:
{"run": {"game", "config", "bots", "seed", "rotate", "games", "partial"}}: the grader plays the run
again from its seed, so a saved game can be neither edited nor trusted. Anything else is
{"unreadable": "TypeName"}, which the grader marks failed with that reason.

Standard library only, and nothing of the exercises' own: `check()` imports this.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

MIMETYPE_KEY = "meeple"  # the output metadata's key


def encode(value: Any, depth: int = 0) -> Any:
    """`value` as JSON data (see the module's docstring)."""
    if depth > 20:
        return {"unreadable": "nested too deep"}
    if value is Ellipsis:
        return {"ellipsis": None}  # a part left as `...`: the checker says what is missing
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return {"float": repr(value)}  # repr reads back to the same float, nan and inf too
    if isinstance(value, Fraction):
        return {"fraction": f"{value.numerator}/{value.denominator}"}
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return {"tuple": [encode(v, depth + 1) for v in value]}
    if isinstance(value, list):
        return [encode(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {"dict": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]}
    if all(hasattr(value, a) for a in ("records", "seed", "config", "bots", "game", "rotate")):
        return {"run": {"game": str(value.game), "config": encode(value.config, depth + 1), "bots": list(value.bots),
                        "seed": value.seed, "rotate": bool(value.rotate), "games": len(value.records),
                        "partial": bool(getattr(value, "partial", False))}}
    if callable(getattr(value, "to_dict", None)) and callable(getattr(value, "game_name", None)):
        return {"config": {"game": value.game_name(), "fields": value.to_dict()}}  # a game's Config, as a variant file has it
    if hasattr(value, "item") and callable(value.item) and getattr(value, "shape", None) == ():
        return encode(value.item(), depth + 1)  # a numpy scalar
    return {"unreadable": type(value).__name__}


def record(key: str, answer: Any, student: "str | None") -> dict:
    """The metadata a check() output carries (see the module's docstring)."""
    return {MIMETYPE_KEY: {"check": key, "student": student, "answer": encode(answer)}}
