"""The old import path of `meeple.widgets.exercises.lessons_15_18` (lessons and older notebooks use it):
the very same module, not a copy, so every name (and every monkeypatch) is shared."""

import sys

from .exercises import lessons_15_18

sys.modules[__name__] = lessons_15_18
