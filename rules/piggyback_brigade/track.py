"""The Piggyback Brigade's track: moving a piglet with every piglet above it (PB-9, PB-10, PB-13), where a
piglet is (`place`), whether the track may be extended (PB-12), who is last (PB-7).
"""

from __future__ import annotations

from .cards import SECTION_NAMES


def move_group(stacks: list, where: list, piglet: int, steps: int):
    """PB-9/PB-10/PB-13 in place: move `piglet` with everything above it.

    `stacks` is a list of lists (per space, bottom to top) and `where` a list (per
    piglet); both change. Returns (group moved, destination index, how many piglets
    it landed on: stacks[dest][:that]); a destination of len(stacks) means the group
    crossed the finish.
    """
    i = where[piglet]
    if i < 0:
        group = [piglet]  # piglets before the start stand in a line, never stacked
    else:
        stack = stacks[i]
        h = stack.index(piglet)
        group = stack[h:]
        del stack[h:]
    dest = i + steps
    if dest >= len(stacks):
        dest, under = len(stacks), 0
    else:
        stack = stacks[dest]
        under = len(stack)
        stack += group
    for q in group:
        where[q] = dest
    return group, dest, under


def after_move(stacks, where, piglet: int, steps: int) -> tuple[list, list]:
    """(stacks, where) after move_group, as new lists; the given ones (lists or tuples) are
    left as they were: a bot's what-if copies only the two spaces a move touches."""
    stacks, where = list(stacks), list(where)
    i = where[piglet]
    for k in (i, i + steps):
        if 0 <= k < len(stacks):
            stacks[k] = list(stacks[k])
    move_group(stacks, where, piglet, steps)
    return stacks, where


def move(stacks, piglet: int, steps: int):
    """Move `piglet` `steps` spaces on `stacks` (for each space, the piglets
    bottom to top) and return the new stacks. The piglet carries every piglet
    above it (PB-10); it lands on top of whatever stands there (PB-9). A
    piglet found on no space stands before the start. A group that moves
    past the last space has crossed the finish and leaves the track (PB-13).
    """
    stacks = tuple(tuple(s) for s in stacks)
    if type(steps) is not int or steps < 1:
        raise ValueError(f"steps must be a whole number >= 1, got {steps!r}")
    found = {q: i for i, s in enumerate(stacks) for q in s}
    if len(found) != sum(map(len, stacks)):
        raise ValueError("a piglet stands on two spaces at once")
    size = max([piglet, *found]) + 1
    where = [found.get(q, -1) for q in range(size)]
    return tuple(map(tuple, after_move(stacks, where, piglet, steps)[0]))


def place(state, piglet: int):
    """Where a piglet is: "start", "finish", or (section name, space 1-based in that section).

    The place names a section and a space, so an extension (PB-12) does not
    change the place of any piglet on the track.
    """
    i = state.where[piglet]
    if i < 0:
        return "start"
    if i >= len(state.stacks):
        return "finish"
    for sec in state.order:
        size = state.config.sections[sec]
        if i < size:
            return (SECTION_NAMES[sec], i + 1)
        i -= size
    raise AssertionError("space beyond the track")


_LABELS: dict[tuple, tuple[str, ...]] = {}


def place_text(state, piglet: int) -> str:
    """"space 7 (section C, space 2)", "the start" or "the finish" (labels cached per layout)."""
    i = state.where[piglet]
    if i < 0:
        return "the start"
    key = (state.config.sections, state.order)
    labels = _LABELS.get(key)
    if labels is None:
        if len(_LABELS) > 4096:  # many custom layouts: start afresh rather than grow
            _LABELS.clear()
        labels = [f"space {k + 1} (section {SECTION_NAMES[sec]}, space {j + 1})"
                  for k, (sec, j) in enumerate((sec, j) for sec in state.order
                                               for j in range(state.config.sections[sec]))]
        labels = _LABELS[key] = tuple(labels) + ("the finish",)
    return labels[i]


def can_extend(state) -> bool:
    """PB-12: the first section may move to the end when no piglet stands on it."""
    k = state.config.sections[state.order[0]]
    for w in state.where:
        if 0 <= w < k:
            return False
    return True


def is_last(where, piglet: int) -> bool:
    """PB-7: no piglet stands on an earlier space (riders on the same stack are not behind)."""
    return where[piglet] == min(where)
