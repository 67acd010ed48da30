"""Playing an Explorer's neighbouring values in worker processes while the reader looks.

`sweep` plays its games as chunk calls (`play_chunk(game, rules, bots, seed,
first game, last game, ...)`) on any executor it is given. A Prefetch is such an
executor: it passes each call on to the real pool (the shared process pool, or
the reader's executor) and remembers the future, so a later sweep of the same
value is handed the very same futures (still running, or done) instead of
playing its games again. Only identical calls are shared, and a chunk call is a
pure function of its arguments (the same rules, bots, seed and game numbers
give the same games), so a table built from prefetched chunks is exactly the
table of a foreground run: `sweep` itself builds it, from its own calls.

`queue(run)` starts a sweep without waiting for it: every chunk call goes to the
pool, and the sweep is stopped (by an exception it passes on) as soon as it
waits for its first result. Nothing here touches a widget: futures finish in
worker processes, and the Explorer reads them from the kernel's own thread.
"""

from __future__ import annotations

import weakref
from concurrent.futures import Executor, Future
from typing import Callable, Hashable

_LIVE: "weakref.WeakSet[Prefetch]" = weakref.WeakSet()  # every Prefetch not shut down (see cancel_others)


class _Queued(BaseException):
    """Stops a sweep once its chunks are queued. A BaseException, so that no
    `except Exception` on the way (a fallback to playing here, say) swallows it."""


def _dummy() -> Future:
    f: Future = Future()
    f.set_exception(_Queued())
    return f


class Prefetch(Executor):
    """An executor that shares each call's future among the runs that make it.

    pool: a function giving the executor that does the work (called at each
    submit, so a rebuilt shared pool is picked up). slots: how many calls it
    should expect to run at once, which sizes `sweep`'s chunks (it reads
    `_max_workers`, as of any concurrent.futures pool): more slots, smaller
    chunks, so a reader's move waits less for a chunk already running."""

    def __init__(self, pool: Callable[[], Executor], slots: int):
        self._pool = pool
        self._max_workers = slots
        self._calls: dict[Hashable, Future] = {}  # call -> the pool's future for it
        self._queuing: list | None = None  # while queue() runs: the calls queued
        self.submitted = 0  # calls sent to the pool (tests check that nothing is played twice)
        self._closed = False
        _LIVE.add(self)

    def submit(self, fn, /, *args, **kwargs) -> Future:
        if self._closed:
            raise RuntimeError("this Prefetch is shut down")
        try:
            key = (fn, args, tuple(sorted(kwargs.items())))
            hash(key)
        except TypeError:  # an unhashable argument: no sharing for this call
            key = None
        fut = self._calls.get(key) if key is not None else None
        # a cancelled call never ran; a failed one (a broken pool, say) is tried again
        if fut is None or fut.cancelled() or (fut.done() and fut.exception() is not None):
            fut = self._pool().submit(fn, *args, **kwargs)
            self.submitted += 1
            if key is not None:
                self._calls[key] = fut
        if self._queuing is not None:
            self._queuing.append(key)
            return _dummy()  # the run stops at its first wait: nothing is waited for here
        return fut

    def queue(self, run: Callable[[Executor], object]) -> list:
        """Send every call `run(self)` makes to the pool without waiting for any; the calls (keys)."""
        self._queuing = queued = []
        try:
            run(self)
        except _Queued:
            pass
        finally:
            self._queuing = None
        return [k for k in queued if k is not None]

    def futures(self, keys) -> list[Future]:
        return [self._calls[k] for k in keys if k in self._calls]

    def cancel(self, keep=()) -> int:
        """Cancel every call not started yet, except `keep`'s; how many were cancelled.
        Calls already running finish (a process pool cannot stop them); their results are kept."""
        keep = set(keep)
        n = 0
        for key, fut in list(self._calls.items()):
            if key not in keep and fut.cancel():
                del self._calls[key]
                n += 1
        return n

    def forget(self, keys) -> None:
        """Drop these calls (their games are in the Explorer's table now)."""
        for k in keys:
            self._calls.pop(k, None)

    def shutdown(self, wait: bool = False, *, cancel_futures: bool = True) -> None:
        """Cancel what has not started and forget everything; the pool itself is shared and stays."""
        self._closed = True
        for fut in self._calls.values():
            fut.cancel()
        self._calls.clear()
        _LIVE.discard(self)


def cancel_others(mine: Prefetch | None) -> None:
    """A reader's move goes first: cancel the calls not started yet of every other Prefetch."""
    for other in list(_LIVE):
        if other is not mine:
            other.cancel()
