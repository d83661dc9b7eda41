"""The engine's second process: one spawned worker beside the caller, which only computes and
returns (blocking, the names' judging and the passage search of a pass; extraction in an ingest)."""

from __future__ import annotations

import atexit
import gc
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context


def second_process(then: Callable[..., None] | None = None, *args) -> ProcessPoolExecutor:
    """A pool of one spawned worker (`then(*args)` run in it as it starts)."""
    context = get_context("spawn")
    initargs = (os.getpid(), then, args)
    return ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_started, initargs=initargs)


def _started(parent: int, then: Callable[..., None] | None, args: tuple) -> None:
    gc.disable()  # it computes and returns: no cycles worth finding (`statements.paused_gc`)
    no_last_sweep()
    threading.Thread(target=_end_with, args=(parent,), name="parent-watch", daemon=True).start()
    if then is not None:
        then(*args)


def _end_with(parent: int) -> None:
    """End this worker once its parent has ended, however it ended: a killed parent never shuts its
    pool down, and the worker would compute on alone. Its parent is gone when it has been given
    another (the parent's pid is watched, not a signal: a death signal would fire when the parent's
    thread that started the worker ends, not the parent)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def no_last_sweep() -> None:
    """Let the process end without the collector's last full sweep over what it still holds (millions
    of objects after a large pass, in each of its two processes): for a process that has closed
    what needs closing (a connection left open is in a cycle: only that sweep closes it)."""
    atexit.register(gc.freeze)
