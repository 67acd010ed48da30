"""meeple.widgets: anywidget + ipywidgets front ends. They display and ask; every rule lives in meeple.rules."""
