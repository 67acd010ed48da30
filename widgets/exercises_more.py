"""Checkers for lessons 8-14 (registered with `meeple.widgets.exercises.exercise`).

`meeple.widgets.exercises.check` imports this module on its first call, so a
checker defined here is found by its key ("08.name", ...). Light imports only
at the top; import the engine inside a checker.
"""

from __future__ import annotations

from .exercises import exercise, need_fraction, need_interval, need_number, need_whole  # noqa: F401
