"""Tally: count outcomes by hand (two buttons) and watch the 95% Wilson interval narrow.

Lesson 1 uses it beside the Stepper: play a round, then click what happened.
The counting is `controls.TallyCount` (no Jupyter; the interval comes from
`meeple.rules.stats.wilson`); this is its notebook widget, drawn by panel.js.
"""

from __future__ import annotations

from .controls import TallyCount
from .panel import Panel


class Tally(Panel):
    """Two buttons ("yes", "no") and the running proportion with its 95% Wilson interval."""

    def __init__(self, question: str = "Did it happen?", yes: str = "yes", no: str = "no", **kwargs):
        super().__init__(TallyCount(question, yes, no), **kwargs)

    # The counts are read from the control, each property written out so help(Tally) lists it.
    @property
    def yes_count(self) -> int:
        return self.control.yes_count

    @property
    def no_count(self) -> int:
        return self.control.no_count

    @property
    def games(self) -> int:
        return self.control.games

    @property
    def text(self) -> str:
        return self.control.text

    # Like Stepper's act/step on purpose: each widget method asks its plain control, then redraws (_sync).
    def add(self, happened: bool) -> None:
        """Count one more game (True: it happened)."""
        self.control.add(happened)
        self._sync()

    def reset(self) -> None:
        self.control.reset()
        self._sync()

    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the proportion so far ((0, 1) before any game)."""
        return self.control.interval()
