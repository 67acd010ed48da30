"""vega-embed, Vega-Lite and Vega bundled with a front end as one ES module (vl-convert's bundler,
the one Altair's offline charts use: nothing loads from another host). Two bundles use it: the
Explorer's front end (explorer.front_end) and the controls' shipped static/vega-embed.js
(panel.write_vega_bundle)."""

from __future__ import annotations

import vl_convert

__all__ = ["VL_CONVERT_VERSION", "bundle"]

VL_CONVERT_VERSION = vl_convert.__version__
"""The bundler's version, which static/vega-embed.js names in its first line."""


def bundle(code: str) -> tuple[str, str]:
    """(`code` bundled with vega-embed, Vega-Lite and Vega, the Vega-Lite version): the version
    Altair writes, so the specs Altair makes draw as it means them. The bundler scopes `code`'s
    names apart from Vega's (it names vegaEmbed and vega, and imports nothing)."""
    # altair costs seconds to import (tests/test_imports.py's ALLOWED); only a bundle needs its version
    from altair.utils._importers import vl_version_for_vl_convert

    version = vl_version_for_vl_convert()
    return vl_convert.javascript_bundle(code, vl_version=version), version
