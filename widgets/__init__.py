"""meeple.widgets: anywidget + ipywidgets front ends.

They display and ask; every rule lives in meeple.rules. JavaScript and CSS
are local files in widgets/static/ (nothing loads from a CDN); Altair charts
draw with the Vega bundled in vl-convert (offline).
"""

from .explorer import Explorer
from .stepper import Stepper

__all__ = ["Explorer", "Stepper"]
