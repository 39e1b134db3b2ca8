"""The processes a server starts for slow work: solve workers and the hashing process.

Each is spawned (not forked: the server has threads and sockets), runs at a lower
priority than the server, and ends when the server does, however it ends: a server
killed with ``kill -9`` leaves no process behind holding memory and its files open.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PARENT_CHECK_SECONDS = 1.0


def pool(processes: int, niceness: int) -> ProcessPoolExecutor:
    """``processes`` children of this process at ``niceness``, each gone with it.

    >>> children = pool(1, 10)
    >>> children.submit(os.getpriority, os.PRIO_PROCESS, 0).result()
    10
    >>> children.shutdown()
    """
    return ProcessPoolExecutor(
        processes, mp_context=multiprocessing.get_context("spawn"),
        initializer=functools.partial(_as_child, os.getpid(), niceness))


def _as_child(parent: int, niceness: int) -> None:
    """In the child as it starts: its priority lowered, and a watch on its parent."""
    with contextlib.suppress(OSError):  # not allowed: it runs at the server's priority
        os.nice(niceness)
    # A niceness, not Linux's idle class: in the idle class a solve or a login got no
    # processor at all while the cores were busy, and whoever waited for it never moved.
    threading.Thread(target=_end_with, args=(parent,), name="kastkopp-parent-watch",
                     daemon=True).start()


def _end_with(parent: int) -> None:
    """End this process once ``parent`` has (it was given another parent then). The pool's
    own pipes do not tell: the child holds both ends of its call queue."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)
