"""The Explorer plays the values next to the current one in the background (issue 11):
a move to one of them reuses those games (never plays them twice) and gives exactly
the table a foreground run gives; a move elsewhere and closing cancel what has not
started. Not timed: bench_engine.py --explorer measures the moves."""

from __future__ import annotations

import asyncio
import functools
import threading
from collections import Counter
from concurrent.futures import Executor, Future, wait

import pandas as pd
import pytest

pytest.importorskip("ipywidgets")

from meeple.widgets import Explorer
from meeple.widgets import explorer as explorer_module

BB = dict(game="bucket-brigade", field="bonus", values=[0, 1, 2, 3, 4], bots="heuristic,random", games=20, seed=4)


class Gate(Executor):
    """The background pool, held: calls wait until run() plays them (in this process)."""

    def __init__(self):
        self.calls: list[tuple] = []  # (args, future) per call received
        self.lock = threading.Lock()

    def submit(self, fn, /, *args, **kwargs):
        fut = Future()
        with self.lock:
            self.calls.append((fn, args, kwargs, fut))
        return fut

    def run(self) -> int:
        """Play every call not cancelled; how many were played."""
        n = 0
        with self.lock:
            todo = list(self.calls)
        for fn, args, kwargs, fut in todo:
            if not (fut.done() or fut.running()) and fut.set_running_or_notify_cancel():
                fut.set_result(fn(*args, **kwargs))
                n += 1
        return n

    def games_played(self) -> Counter:
        """(value of the slid field, game index) -> times played, over the calls that ran."""
        played = Counter()
        for _fn, args, _kw, fut in self.calls:
            if fut.done() and not fut.cancelled():
                config, start, stop = args[1], args[4], args[5]
                for i in range(start, stop):
                    played[(config.bonus, i)] += 1
        return played


@pytest.fixture
def gate(monkeypatch):
    g = Gate()
    monkeypatch.setattr(explorer_module, "shared_pool", lambda workers: g)  # the background's pool only
    return g


def _rows(e: Explorer, cell) -> pd.DataFrame:
    return pd.DataFrame(e.session.rows(cell)).drop(columns="point")


def _foreground(value, games: int = BB["games"]) -> pd.DataFrame:
    """The value's rows from a fresh Explorer playing in this process only (no background)."""
    return _foreground_rows(value, games).copy()


@functools.cache
def _foreground_rows(value, games: int) -> pd.DataFrame:
    e = Explorer(**{**BB, "games": games, "values": [value], "workers": 1})
    e.close()
    return _rows(e, (value,))


def test_after_a_move_the_neighbours_play_in_the_background_the_way_the_reader_moved_first(gate):
    e = Explorer(**BB)  # starts at the baseline bonus, 3
    assert e.session.pending == [(4,), (2,)] and e.session.busy() == [(4,), (2,)]
    assert "Simulating in the background: bonus = 4; bonus = 2…" in e.session.status()
    assert e.session.played == [(3,)]  # nothing of the neighbours is drawn before it is played
    e.show(1)  # a move down: the value below goes first, then the one above; 4 is cancelled
    assert e.session.busy() == [(0,), (2,)]
    e.close()


def test_a_move_to_a_neighbour_reuses_its_games_and_gives_the_foreground_table(gate):
    e = Explorer(**BB)
    queued = len(gate.calls)
    gate.run()
    e.show(4)
    assert len(gate.calls) == queued  # 4's games were not sent again (and its neighbours are 3, done, and none)
    pd.testing.assert_frame_equal(_rows(e, (4,)), _foreground(4), check_exact=True)
    assert all(n == 1 for n in gate.games_played().values())
    e.close()


def test_a_move_to_a_value_still_playing_waits_for_it_and_plays_nothing_twice(gate):
    e = Explorer(**BB)
    assert e.session.busy() == [(4,), (2,)]
    queued = len(gate.calls)
    threading.Timer(0.3, gate.run).start()  # the pool gets to it while the move waits
    e.show(2)
    assert all(args[1].bonus != 2 for _f, args, _k, _fut in gate.calls[queued:])  # waited: not submitted again
    pd.testing.assert_frame_equal(_rows(e, (2,)), _foreground(2), check_exact=True)
    gate.run()
    assert all(n == 1 for n in gate.games_played().values())
    e.close()


def test_a_move_elsewhere_cancels_the_background_games_not_started(gate):
    e = Explorer(**BB)
    first = [fut for *_x, fut in gate.calls]
    e.show(0)  # far away: played in the foreground, its neighbour 1 queued
    assert all(f.cancelled() for f in first)  # 4 and 2 had not started: they do not delay 0
    assert e.session.busy() == [(1,)]
    gate.run()
    e.show(2)  # played in the foreground (none of its games had started)
    pd.testing.assert_frame_equal(_rows(e, (2,)), _foreground(2), check_exact=True)
    gate.run()
    e.show(1)
    pd.testing.assert_frame_equal(_rows(e, (1,)), _foreground(1), check_exact=True)
    assert all(n == 1 for n in gate.games_played().values())
    e.close()


def test_closing_cancels_the_background_games_not_started(gate):
    e = Explorer(**BB)
    pending = [fut for *_x, fut in gate.calls]
    assert pending and not any(f.done() for f in pending)
    e.close()
    assert all(f.cancelled() for f in pending)
    assert gate.run() == 0 and e.session.pending == []


def test_a_move_in_one_explorer_cancels_the_others_background_games(gate):
    a = Explorer(**BB)
    b = Explorer(**{**BB, "values": [3, 5, 6]})
    a_calls = [fut for _f, args, _k, fut in gate.calls if args[1].bonus in (2, 4)]
    assert a_calls and all(f.cancelled() for f in a_calls)  # b's first value went first
    a.close()
    b.close()


def test_a_two_field_explorer_plays_the_cells_next_along_either_slider(gate):
    e = Explorer("bucket-brigade", field=("bonus", "hand_size"), values=([2, 3, 4], [11, 12, 13]), bots="random",
                 games=10, seed=1)
    assert e.current == (3, 13)  # the baseline: only one neighbour along hand_size
    assert e.session.pending == [(4, 13), (2, 13), (3, 12)]
    gate.run()
    e.show((3, 12))  # moved down hand_size: on down it, then back up (done), then bonus either side
    assert e.session.busy() == [(3, 11), (4, 12), (2, 12)]
    e.close()


def test_workers_1_plays_nothing_in_the_background(gate):
    e = Explorer(**{**BB, "workers": 1})
    e.show(1)
    assert gate.calls == [] and e.session.pending == [] and "background" not in e.session.status()
    e.close()


def test_in_a_kernel_the_neighbours_join_the_charts_when_done_without_a_move(gate):
    """In a notebook the kernel's event loop runs; the background's futures finish on
    pool threads and ask that loop (not a thread) to put them into the charts."""

    async def look():
        e = Explorer(**BB)
        await asyncio.sleep(0)  # the kernel queues the neighbours once the move is drawn
        assert "background" in e.session.status()
        threading.Thread(target=gate.run).start()  # the pool, finishing on a thread of its own
        for _ in range(3000):  # up to 30 s on a busy machine
            if not e.session.pending:
                break
            await asyncio.sleep(0.01)
        return e

    e = asyncio.run(look())
    assert e.session.played == [(2,), (3,), (4,)]
    assert "3 of 5 values simulated." in e.session.status() and "background" not in e.session.status()
    assert sorted(e.table["bonus"].unique()) == [2, 3, 4]
    pd.testing.assert_frame_equal(_rows(e, (2,)), _foreground(2), check_exact=True)
    e.close()


def test_the_shared_process_pool_plays_a_neighbour_as_the_foreground_does():
    """The real thing: worker processes (the shared pool), pickled rules and games."""
    e = Explorer(**{**BB, "games": 30})
    futures = e.session.runner.futures()
    assert futures
    wait(futures, timeout=120)
    submitted = e.session.runner.submitted
    e.show(2)
    assert e.session.runner.submitted - submitted == len(e.session.runner.calls((1,)))  # only 2's new neighbour was sent
    pd.testing.assert_frame_equal(_rows(e, (2,)), _foreground(2, games=30), check_exact=True)
    e.close()
