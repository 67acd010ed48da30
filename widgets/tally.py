"""Tally: count outcomes by hand (two buttons) and watch the 95% Wilson interval narrow.

Lesson 1 uses it beside the Stepper: play a round, then click what happened.
The interval comes from `meeple.rules.stats.wilson`; this widget only counts.
"""

from __future__ import annotations

import html

import ipywidgets as W

from meeple.rules.stats import wilson


class Tally(W.VBox):
    """Two buttons ("yes", "no") and the running proportion with its 95% Wilson interval."""

    def __init__(self, question: str = "Did it happen?", yes: str = "yes", no: str = "no"):
        self.question = question
        self.yes_count = 0
        self.no_count = 0
        self.yes_button = W.Button(description=yes, button_style="success")
        self.no_button = W.Button(description=no, button_style="warning")
        self.reset_button = W.Button(description="start again")
        self.text = W.HTML()
        self.yes_button.on_click(lambda _b: self.add(True))
        self.no_button.on_click(lambda _b: self.add(False))
        self.reset_button.on_click(lambda _b: self.reset())
        super().__init__([W.HTML(f"<b>{html.escape(question)}</b>"),
                          W.HBox([self.yes_button, self.no_button, self.reset_button]), self.text])
        self._draw()

    @property
    def games(self) -> int:
        return self.yes_count + self.no_count

    def add(self, happened: bool) -> None:
        """Count one more game (True: it happened)."""
        if not isinstance(happened, bool):
            raise ValueError(f"add() takes True or False, got {happened!r}")
        if happened:
            self.yes_count += 1
        else:
            self.no_count += 1
        self._draw()

    def reset(self) -> None:
        self.yes_count = self.no_count = 0
        self._draw()

    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the proportion so far ((0, 1) before any game)."""
        return wilson(self.yes_count, self.games)

    def _draw(self) -> None:
        n = self.games
        if n == 0:
            self.text.value = "No games counted yet: the interval is everything from 0% to 100%."
            return
        lo, hi = self.interval()
        self.text.value = (f"{self.yes_count} of {n} games: {self.yes_count / n:.0%}; "
                           f"95% interval {lo:.0%} to {hi:.0%} (Wilson).")
