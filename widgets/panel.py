"""Panel: the notebook transport of the lessons' small controls (anywidget).

`Panel(control)` shows any `meeple.widgets.controls.Control` in a notebook host
(JupyterLab, Notebook 7, marimo through `mo.ui.anywidget`, VS Code, Colab): it
syncs the control's `view`, passes the front end's messages to `handle`, and
saves `setup` with the widget so the course site can rebuild the same control
in the reader's browser. `static/panel.js` draws it in every host and on the site.

Charts are Vega-Lite specs in the view; panel.js draws them with one vega-embed
(`static/vega-embed.js`), which it asks this side for once per page (a custom
message), so the bundle is never saved in the notebook's widget state.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from . import vega
from .controls import Control

STATIC = Path(__file__).parent / "static"
VEGA = STATIC / "vega-embed.js"


class Panel(anywidget.AnyWidget):
    """One control (a `controls.Control`): its inputs, its text, table and chart."""

    _esm = STATIC / "panel.js"
    _css = STATIC / "panel.css"

    view = traitlets.Dict().tag(sync=True)
    setup = traitlets.Dict().tag(sync=True)  # what rebuilds the control (the course site's worker)

    def __init__(self, control: Control, **kwargs):
        if not isinstance(control, Control):
            raise ValueError(f"Panel shows a meeple.widgets.controls.Control, got {type(control).__name__}")
        super().__init__(**kwargs)
        self.control = control
        self.on_msg(self._on_message)
        self._sync()

    def handle(self, msg: dict) -> dict:
        """As the front end does: one message, then the view synced."""
        view = self.control.handle(msg)
        self._sync()
        return view

    def _on_message(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("do") == "vega":
            self.send({"vega": VEGA.read_text()})  # the chart library, once per page (panel.js caches it)
            return
        self.handle(content)

    def _sync(self) -> None:
        self.setup = self.control.setup()
        self.view = self.control.view()


__all__ = ["Panel"]


def write_vega_bundle(path: Path = VEGA) -> Path:
    """(Re)write static/vega-embed.js: vega-embed with Vega-Lite and Vega as one ES module, bundled
    by vl-convert (the bundler Altair's offline mode uses), for the Vega-Lite version Altair writes.
    Run `python -m meeple.widgets.panel` after upgrading vl-convert or Altair."""
    code, version = vega.bundle("export default vegaEmbed;")
    path.write_text(f"// vega-embed, Vega-Lite {version} and Vega in one ES module, bundled by vl-convert "
                    f"{vega.VL_CONVERT_VERSION} (python -m meeple.widgets.panel)\n{code}\n")
    return path


if __name__ == "__main__":
    print(write_vega_bundle())
