"""Append-only logs that states share: O(1) appends, and each state sees only its own past.

A state keeps a log as two slots: a list it shares with the states before and
after it, and how many of that list's entries are its own. Appending to the
newest state appends in place; appending to an older state (a lookahead trying
a second move from the same state, the Stepper's undo) first copies the older
state's prefix. So a game of n moves costs O(n) instead of the O(n^2) of
`events += (text,)`, and `apply` still never changes what an earlier state shows.

The event log holds either text or a tuple `(render, *args)`, turned into text
only when `state.events` is read (and then remembered), so a simulation that
never reads events does not format sentences. A state made with
`new_game(config, seed, events=False)` keeps no event log at all (simulate's
private states: nobody reads them).

Game modules use it like this:

    @dataclass(slots=True)
    class State:
        ...
        _events: list | None = field(default_factory=list, compare=False, repr=False)
        _n_events: int = field(default=0, compare=False, repr=False)
        events = log.events_property()

    log.say(s, _flips, p, card)      # an event "Player 1 flips red 2." rendered later by _flips(p, card)
"""

from __future__ import annotations


def say(s, *entry) -> None:
    """Append one event to state `s`: a text, or (render, *args) rendered when read."""
    items = s._events
    if items is None:  # a quiet state (simulate's own)
        return
    n = s._n_events
    if len(items) != n:  # s is an older state than the list's newest: branch off
        items = s._events = items[:n]
    items.append(entry[0] if len(entry) == 1 else entry)
    s._n_events = n + 1


def read(items: list | None, n: int) -> tuple[str, ...]:
    """The first n entries as text (rendering, and remembering, any not yet rendered)."""
    if not items:
        return ()
    for i in range(n):
        e = items[i]
        if type(e) is not str:
            items[i] = e[0](*e[1:])
    return tuple(items[:n])


def events_property() -> property:
    """`state.events`: a tuple of sentences, oldest first; assigning a sequence replaces the log."""

    def get(s) -> tuple[str, ...]:
        return read(s._events, s._n_events)

    def put(s, value) -> None:
        s._events = list(value)
        s._n_events = len(s._events)

    return property(get, put, doc="The events so far, oldest first, as sentences.")


def share(new, old) -> None:
    """Give a copy `new` of state `old` the same log (appends to `new` leave `old`'s view unchanged)."""
    new._events = old._events
    new._n_events = old._n_events
