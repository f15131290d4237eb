"""Many files over worker processes, in input order, safe against Ctrl-C.

A rebuild of the manifest and ``chunks`` over a corpus fan their files out
this way. Each worker gets the shared value (the configuration) once, when it
starts; a task is one file. Results come back in input order, so the output is the same as with
one job.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Protocol, TypeVar, cast

from chunkgate.chunking.languages import language_for
from chunkgate.core.progress import tracked

# Workers start when one process would take longer than this to chunk the files:
# below it, starting the pool and sending results back cost what the second core
# saves (measured by hand with ``chunks``: FastAPI's pages and small synthetic
# pages, on two cores; the crossover lay between 20 and 35 ms of estimated work).
WORTH_SECONDS = 0.03
# What one process spends on a file, estimated from its size: a fixed cost per file
# and a cost per byte by language (bench.py and the code and rst benchmarks).
FILE_SECONDS = 40e-6
BYTE_SECONDS = {"markdown": 40e-9, "python": 250e-9, "rst": 2.4e-6}
CODE_BYTE_SECONDS = 500e-9  # tree-sitter languages: 0.17-0.67 s/MB
# How often a worker checks that its parent still runs.
WATCHDOG_SECONDS = 0.5

_T = TypeVar("_T")
_Item = TypeVar("_Item")
_Result = TypeVar("_Result")


class Rooted(Protocol):
    """What every worker shares (the configuration): the files are relative to ``root``."""

    @property
    def root(self) -> Path: ...


_Shared = TypeVar("_Shared", bound=Rooted)

_worker_shared: Rooted | None = None


def default_jobs() -> int:
    return max(1, os.cpu_count() or 1)


def ordered_map(
    work: Callable[[_Shared, _Item], _Result],
    shared: _Shared,
    items: Sequence[_Item],
    jobs: int,
    *,
    path_of: Callable[[_Item], str],
    what: str,
) -> Iterator[_Result]:
    """``work(shared, item)`` for each item, in order: over ``jobs`` worker processes
    when the files (``path_of`` an item, relative to the root) are enough work for
    one process to pay for starting them (by their sizes), else here. ``work`` must be
    picklable (a module-level function, or a ``functools.partial`` of one). A meter
    counts the results as ``what`` ("chunking")."""
    if jobs > 1 and _worth_workers(shared.root, map(path_of, items)):
        results = _in_workers(work, shared, items, jobs)
    else:
        results = (work(shared, item) for item in items)
    return tracked(results, len(items), what)


def _worth_workers(root: Path, paths: Iterator[str]) -> bool:
    """Whether one process would spend WORTH_SECONDS or more on the files: each is
    stat-ed until the estimate gets there."""
    estimate = 0.0
    for path in paths:
        try:
            size = os.stat(os.path.join(root, path)).st_size
        except OSError:
            size = 0
        language = language_for(path)
        per_byte = BYTE_SECONDS.get(language.name)
        if per_byte is None:
            per_byte = CODE_BYTE_SECONDS if language.extra == "code" else BYTE_SECONDS["markdown"]
        estimate += FILE_SECONDS + size * per_byte
        if estimate >= WORTH_SECONDS:
            return True
    return False


def _in_workers(
    work: Callable[[_Shared, _Item], _Result], shared: _Shared, items: Sequence[_Item], jobs: int
) -> Iterator[_Result]:
    # Deferred: concurrent.futures.process costs start-up a run without workers never pays.
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(shared,))
    try:
        # map keeps the input order. It starts the workers, which must not see a
        # Ctrl-C before they ignore it.
        with _sigint_held():
            results = pool.map(
                functools.partial(_run, work),
                items,
                chunksize=max(1, min(64, len(items) // (jobs * 8))),
            )
        yield from results
    finally:
        # After Ctrl-C or an error the items not handed out yet are dropped.
        pool.shutdown(wait=True, cancel_futures=True)


def _init_worker(shared: Rooted) -> None:
    global _worker_shared  # noqa: PLW0603 - one shared value per worker process
    _worker_shared = shared
    # Ctrl-C is the parent's to handle: it stops handing out work and waits for
    # the items in hand. A worker that died of its own KeyboardInterrupt would
    # break the pool, and a broken pool can hang the parent's exit. The worker
    # was started with SIGINT blocked (see _sigint_held); ignoring it drops one
    # that came meanwhile.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    # A parent killed with SIGKILL cannot shut the pool down, and a worker left
    # waiting on its queue holds the caller's stdout and stderr forever.
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()


def _exit_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCHDOG_SECONDS)
    os._exit(1)


def _run(work: Callable[[_Shared, _Item], _Result], item: _Item) -> _Result:
    assert _worker_shared is not None
    return work(cast(_Shared, _worker_shared), item)


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """Block SIGINT in this thread for a while: processes started meanwhile start with it
    blocked, and this process gets a Ctrl-C that came meanwhile when the block ends.
    (No signal masks on Windows.)"""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def in_background(function: Callable[..., _T], *args: object) -> Callable[[], _T]:
    """Start ``function(*args)`` in a thread; the returned callable waits for its result."""
    outcome: list[_T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            outcome.append(function(*args))
        except BaseException as exc:  # handed to the caller by wait()
            failure.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()

    def wait() -> _T:
        thread.join()
        if failure:
            raise failure[0]
        return outcome[0]

    return wait
