"""What a widget draws for a game, as plain JSON.

A view is built only from `observation(state, seat)` (or, when the reader
watches bots with every hand face up, from the state itself). Views decide
layout and colours, never rules: legality and results come from the game
module.
"""

from __future__ import annotations

import dataclasses
from types import ModuleType

# Colours that read well on white and for the common colour-vision deficiencies; on each, a card's
# name reads at 4.5:1 or more in white or near-black (stepper.js picks; red and grey were darkened for it).
PALETTE = {
    "red": "#c8404f",
    "yellow": "#edae49",
    "green": "#3a9e6b",
    "blue": "#3c6fb6",
    "purple": "#8e5ea2",
    "orange": "#f07b3f",
    "brown": "#8c5a3c",
    "grey": "#767676",
    "white": "#e6e6e6",
    "black": "#333333",
    "pink": "#e78ac3",
    "teal": "#2a9d8f",
    "gold": "#c9a227",
    "navy": "#1d3557",
}
FALLBACK = ["#c8404f", "#edae49", "#3a9e6b", "#3c6fb6", "#8e5ea2", "#f07b3f", "#8c5a3c", "#767676"]


def colour_of(name: str | None, index: int = 0) -> str:
    if name is None:
        return "linear-gradient(90deg,#c8404f,#edae49,#3a9e6b,#3c6fb6)"
    return PALETTE.get(name, FALLBACK[index % len(FALLBACK)])


def _space(label: str, tone: str, finish: bool = False) -> dict:
    return {"label": label, "tone": tone, "finish": finish}


def _bucket_brigade(mod, state, obs, show_all: bool) -> dict:
    cfg = obs.config
    colours = cfg.colours
    end = len(cfg.track) - 1
    spaces = [
        _space("Start" if i == 0 else f"{v:+d}" if v else "0", "pos" if v > 0 else "neg" if v < 0 else "zero", i == end)
        for i, v in enumerate(cfg.track)
    ]
    tokens = [
        {"name": f"{c} hedgehog", "colour": colour_of(c, i), "space": obs.positions[i]}
        for i, c in enumerate(colours)
    ]
    hands = [[_card(c, colours) for c in h] for h in state.hands] if show_all else None
    return {
        "kind": "track",
        "spaces": spaces,
        "tokens": tokens,
        "hand": [_card(c, colours) for c in obs.hand],
        "hands": hands,
        "pile": [_card(c, colours) for c in obs.played[-8:]],
        "note": f"{len(obs.played)} card(s) played this round",
    }


def _piggyback_brigade(mod, state, obs, show_all: bool) -> dict:
    cfg = obs.config
    spaces = [_space("Start", "start")]
    k = 0
    for n_section, sec in enumerate(obs.order):
        for _ in range(cfg.sections[sec]):
            k += 1
            spaces.append(_space(str(k), "a" if n_section % 2 == 0 else "b"))
    spaces.append(_space("End", "zero", True))
    tokens = []

    def token(q: int, space: int) -> dict:
        name = mod.PIGLET_COLOURS[q]
        return {"name": f"{name} piglet (Player {cfg.owner(q) + 1})", "colour": colour_of(name, q), "space": space}

    for q, w in enumerate(obs.where):
        if w == -1:
            tokens.append(token(q, 0))
        elif w >= len(obs.stacks):
            tokens.append(token(q, len(spaces) - 1))
    for s_index, stack in enumerate(obs.stacks):
        tokens += [token(q, s_index + 1) for q in reversed(stack)]  # top of the stack drawn on top
    face = cfg.faces[obs.face] if obs.face >= 0 else None
    note = f"last roll: {cfg.face_colours[obs.face]} {face}" if face is not None else "no roll yet"
    left = ", ".join(f"Player {i + 1}: {n}" for i, n in enumerate(obs.extensions_left))
    return {"kind": "track", "spaces": spaces, "tokens": tokens, "note": f"{note} · extensions left: {left}"}


def _bucket_king(mod, state, obs, show_all: bool) -> dict:
    cfg = obs.config
    rows = cfg.rows
    colours = cfg.colours
    pyramids = []
    for p, pyr in enumerate(obs.pyramids):
        cells, at = [], 0
        for n in rows:
            cells.append([colour_of(c, colours.index(c)) if c else None for c in pyr[at : at + n]])
            at += n
        pyramids.append({
            "name": f"Player {p + 1}",
            "rows": cells,
            "buckets": obs.buckets[p],
            "out": obs.out[p],
            "front": [_card(c, colours, f"{c.colour} {c.value}") for c in obs.fronts[p]],
        })
    need = f"{obs.colour} above {obs.to_beat}" if obs.colour else "the start player leads"
    hands = [[_card(c, colours, f"{c.colour} {c.value}") for c in h] for h in state.hands] if show_all else None
    return {
        "kind": "pyramids",
        "pyramids": pyramids,
        "hands": hands,
        "hand": [_card(c, colours, f"{c.colour} {c.value}") for c in obs.hand],
        "note": f"to play: {need} · draw pile {obs.draw_count} · discard {len(obs.discard)}",
    }


def _card(card, colours, text: str | None = None) -> dict:
    i = colours.index(card.colour) if card.colour in colours else 0
    return {"text": text or str(card), "colour": colour_of(card.colour, i)}


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


def _duck_duck_bruce(mod, state, obs, show_all: bool) -> dict:
    suits = obs.config.suits

    def card(c) -> dict:
        if c.suit not in suits:  # a Bruce card
            return {"text": "Bruce!", "colour": "#222"}
        return {"text": f"{c.suit} {c.number}", "colour": colour_of(c.suit, suits.index(c.suit))}

    rows = [{"label": "Row", "cards": [card(c) for c in obs.row]}]
    for p, nest in enumerate(obs.nests):
        rows.append({"label": f"Player {p + 1}'s nest (scores {mod.nest_score(nest)})", "cards": [card(c) for c in nest]})
    chance = ""
    if obs.row and getattr(obs, "phase", "") == "flip or stop":
        # what the next flip risks, from the cards this player has not seen (the rules' own helper)
        chance = f" · the next flip busts with chance {mod.bust_probability(obs.row, obs.unseen())}"
    return {"kind": "rows", "rows": rows, "note": f"{obs.pile_size} card(s) left to flip{chance}"}


BOARDS = {
    "bucket-brigade": _bucket_brigade,
    "bucket-king": _bucket_king,
    "piggyback-brigade": _piggyback_brigade,
    "duck-duck-bruce": _duck_duck_bruce,
}


def board(mod: ModuleType, state, seat: int, show_all: bool = False) -> dict:
    """The game's board as the given seat sees it."""
    obs = mod.observation(state, seat)
    draw = BOARDS.get(mod.NAME, _generic)
    return draw(mod, state, obs, show_all)
