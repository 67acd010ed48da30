"""The runner's contract with an executor (rules/sim/runner.py's docstring), which the
Explorer's background runs (widgets/prefetch.py) rely on."""

from __future__ import annotations

from concurrent.futures import Executor, Future

import pytest

from meeple.rules import sweep
from meeple.rules.sim import runner


class Stop(BaseException):
    """What a queuing executor raises at a run's first wait."""


class Recording(Executor):
    """Records each call; every future fails with Stop (nothing is played)."""

    def __init__(self, slots: int):
        self._max_workers = slots  # what executor_slots reads, as of a concurrent.futures pool
        self.calls: list = []

    def submit(self, fn, /, *args, **kwargs) -> Future:
        self.calls.append((fn, args, tuple(sorted(kwargs.items()))))
        f: Future = Future()
        f.set_exception(Stop())
        return f


def _queued(slots: int) -> list:
    ex = Recording(slots)
    with pytest.raises(Stop):  # the exception of the first wait comes out unchanged
        sweep("bucket-brigade", None, {"bonus": [0, 6]}, "random", games=40, seed=3, executor=ex, progress=False)
    return ex.calls


def test_a_run_submits_every_chunk_before_it_waits_and_plays_nothing_here(monkeypatch):
    monkeypatch.setattr(runner, "play_game", lambda *a, **k: pytest.fail("a game was played in this process"))
    calls = _queued(2)
    firsts = sorted((args[4], args[5]) for fn, args, _ in calls if args[1].bonus == 0)
    assert all(fn is runner.play_chunk for fn, _, _ in calls)
    assert firsts == runner.chunks(40, 2) and firsts[0][0] == 0 and firsts[-1][1] == 40  # every game, once
    assert len(calls) == 2 * len(firsts)  # both points


def test_the_same_run_on_an_executor_of_the_same_size_makes_the_same_hashable_calls():
    first, again = _queued(4), _queued(4)
    assert first == again and len({hash(c) for c in first}) == len(first)
    assert runner.executor_slots(Recording(4)) == 4
    assert _queued(1) != first  # the slots size the chunks
