"""What a widget draws for a game, as plain JSON.

A view is built only from `observation(state, seat)` (or, when the reader
watches bots with every hand face up, from the state itself). Views decide
layout and colours, never rules: legality and results come from the game
module.
"""

from __future__ import annotations

import dataclasses
from types import ModuleType

# Colours that read well on white and for the common colour-vision deficiencies.
PALETTE = {
    "red": "#d1495b",
    "yellow": "#edae49",
    "green": "#3a9e6b",
    "blue": "#3c6fb6",
    "purple": "#8e5ea2",
    "orange": "#f07b3f",
    "brown": "#8c5a3c",
    "grey": "#7f7f7f",
    "white": "#e6e6e6",
    "black": "#333333",
}
FALLBACK = ["#d1495b", "#edae49", "#3a9e6b", "#3c6fb6", "#8e5ea2", "#f07b3f", "#8c5a3c", "#7f7f7f"]


def colour_of(name: str | None, index: int = 0) -> str:
    if name is None:
        return "linear-gradient(90deg,#d1495b,#edae49,#3a9e6b,#3c6fb6)"
    return PALETTE.get(name, FALLBACK[index % len(FALLBACK)])


def _bucket_brigade(mod, state, obs, show_all: bool) -> dict:
    cfg = obs.config
    colours = cfg.colours
    tokens = [
        {"name": c, "colour": colour_of(c, i), "space": obs.positions[i]}
        for i, c in enumerate(colours)
    ]
    hands = None
    if show_all:
        hands = [[_card(c, colours) for c in h] for h in state.hands]
    return {
        "kind": "track",
        "spaces": list(cfg.track),
        "start_label": "Start",
        "tokens": tokens,
        "hand": [_card(c, colours) for c in obs.hand],
        "hands": hands,
        "pile": [_card(c, colours) for c in obs.played[-8:]],
        "note": f"{len(obs.played)} card(s) played this round",
    }


def _card(card, colours) -> dict:
    i = colours.index(card.colour) if card.colour in colours else 0
    return {"text": str(card), "colour": colour_of(card.colour, i)}


def _generic(mod, state, obs, show_all: bool) -> dict:
    """Every field of the observation as text: works for any game."""
    items = obs._asdict() if hasattr(obs, "_asdict") else {f.name: getattr(obs, f.name) for f in dataclasses.fields(obs)}
    rows = [[k.replace("_", " "), _short(v)] for k, v in items.items() if k not in ("config", "player")]
    return {"kind": "table", "rows": rows}


def _short(value, limit: int = 160) -> str:
    if isinstance(value, (tuple, list)):
        text = ", ".join(_short(v, 40) for v in value) or "—"
    else:
        text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


BOARDS = {"bucket-brigade": _bucket_brigade}


def board(mod: ModuleType, state, seat: int, show_all: bool = False) -> dict:
    """The game's board as the given seat sees it."""
    obs = mod.observation(state, seat)
    draw = BOARDS.get(mod.NAME, _generic)
    return draw(mod, state, obs, show_all)
