"""Where a sweep's runs execute: a dask.distributed ``LocalCluster`` started and stopped
for the sweep (one single-threaded worker process per core by default: the time loop
holds the GIL), or an existing cluster at a scheduler address.
"""
from __future__ import annotations

import logging
import os
import signal
import threading
from contextlib import contextmanager
from typing import Iterator

from .spec import SweepError

#: seconds to wait for a scheduler given by address
CONNECT_TIMEOUT_S = 10


def default_workers() -> int:
    """Worker processes of a local cluster: the cores this process may use."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # pragma: no cover (not on Linux)
        return max(os.cpu_count() or 1, 1)


@contextmanager
def sweep_client(scheduler: str | None = None, workers: int | None = None) -> Iterator:
    """A ``distributed.Client``: connected to ``scheduler`` (``tcp://host:port``) when
    given, else to a ``LocalCluster`` of ``workers`` processes (default
    :func:`default_workers`) that is closed again on leaving."""
    from distributed import Client, LocalCluster

    if workers is not None and workers < 1:
        raise SweepError([f"workers: must be >= 1, got {workers}"])
    if scheduler:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError, ValueError) as exc:
            raise SweepError([f"scheduler {scheduler}: cannot connect ({exc})"]) from None
        try:
            yield client
        finally:
            client.close()
        return
    with _children_ignore_ctrl_c():
        # the scheduler's HTTP server on a free port (None still tries 8787, and two sweeps on one
        # machine then clash)
        cluster = LocalCluster(n_workers=workers or default_workers(), threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.ERROR)
    try:
        client = Client(cluster)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.close()


@contextmanager
def _children_ignore_ctrl_c() -> Iterator[None]:
    """Processes started meanwhile ignore SIGINT (an ignored signal stays ignored in a
    child): Ctrl-C in a terminal reaches the whole process group, and the sweep itself
    stops its workers' runs; without this each worker prints a KeyboardInterrupt."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
