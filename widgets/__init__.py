"""meeple.widgets: anywidget + ipywidgets front ends.

They display and ask; every rule lives in meeple.rules. JavaScript and CSS
are local files in widgets/static/ (nothing loads from a CDN).
"""

from .stepper import Stepper

__all__ = ["Stepper"]
