"""Where a sweep's runs execute: a dask.distributed ``LocalCluster`` started and stopped
for the sweep (one single-threaded worker process per core by default: the time loop
holds the GIL; its workers close quietly, :mod:`.heartbeat`), or an existing cluster at a
scheduler address, or a local cluster kept open between sweeps (:class:`KeptCluster`, a
window's).  The workers of each load the solver's compiled kernels as they start
(:mod:`.warm`), not in their first run.

The local cluster listens on the loopback interface only (its scheduler, workers and the
scheduler's HTTP status pages): nobody else on the network reaches it.  Every wait on a
scheduler given by address is bounded: the TCP connection and the scheduler's first
words (:data:`ANSWER_TIMEOUT_S`, :mod:`.scheduler_probe`), the client's registration
(:data:`CONNECT_TIMEOUT_S`) and a first worker (:data:`WORKERS_TIMEOUT_S`), each with a
message naming the address and what did not answer.
"""
from __future__ import annotations

import logging
import os
import signal
import threading
from contextlib import ExitStack, contextmanager
from typing import Iterator

from .scheduler_probe import ANSWER_TIMEOUT_S, probe_scheduler
from .spec import SweepError

#: seconds to wait for the client's registration with a scheduler given by address
CONNECT_TIMEOUT_S = 10
#: seconds to wait for a first worker at a scheduler given by address
WORKERS_TIMEOUT_S = 60
#: the local cluster's interface: the loopback, never the network
LOCAL_HOST = "127.0.0.1"

__all__ = ["ANSWER_TIMEOUT_S", "CONNECT_TIMEOUT_S", "LOCAL_HOST", "WORKERS_TIMEOUT_S", "KeptCluster",
           "default_workers", "sweep_client"]


def default_workers() -> int:
    """Worker processes of a local cluster: the cores this process may use."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # pragma: no cover (not on Linux)
        return max(os.cpu_count() or 1, 1)


class KeptCluster:
    """A local cluster started at the first sweep that asks for it and kept for the next
    ones (their workers warm: no start, no kernels to load), started again when a sweep asks
    for another number of workers; :meth:`close` closes it (a window's, as it closes)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cluster = None
        self._workers = 0

    def address(self, workers: int | None = None) -> str:
        """The scheduler address of the kept cluster of ``workers`` processes (default
        :func:`default_workers`), started if need be."""
        count = _worker_count(workers)
        with self._lock:
            if self._cluster is not None and (self._workers != count or self._cluster.status.name != "running"):
                self._close()
            if self._cluster is None:
                self._cluster, self._workers = _local_cluster(count), count
            return self._cluster.scheduler_address

    @property
    def running(self) -> bool:
        """Whether a cluster is kept open now."""
        return self._cluster is not None

    def close(self) -> None:
        """Close the kept cluster, if any."""
        with self._lock:
            self._close()

    def _close(self) -> None:
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


def _worker_count(workers: int | None) -> int:
    if workers is not None and workers < 1:
        raise SweepError([f"workers: must be >= 1, got {workers}"])
    return workers or default_workers()


def _local_cluster(workers: int):
    """A ``LocalCluster`` of ``workers`` single-threaded processes on the loopback, its
    workers warm (:mod:`.warm`) and closing quietly (:mod:`.heartbeat`)."""
    from distributed import LocalCluster

    from .heartbeat import HeartbeatDrained
    from .warm import WarmKernels

    # the scheduler's HTTP server on a free port of the loopback (None still tries 8787, and
    # two sweeps on one machine then clash; ":0" listens on every interface)
    with _children_ignore_ctrl_c():
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host=LOCAL_HOST,
                            dashboard_address=f"{LOCAL_HOST}:0", silence_logs=logging.ERROR,
                            plugins=(HeartbeatDrained(), WarmKernels()))


@contextmanager
def sweep_client(scheduler: str | None = None, workers: int | None = None,
                 kept: KeptCluster | None = None) -> Iterator:
    """A ``distributed.Client``: connected to ``scheduler`` (``tcp://host:port``) when
    given, else to the cluster ``kept`` (of ``workers`` processes) when given, else to a
    ``LocalCluster`` of ``workers`` processes (default :func:`default_workers`) that is
    closed again on leaving.

    On leaving, whatever the way (the sweep's end, an error, a ``KeyboardInterrupt`` at any
    moment, during start-up too), the client is closed, then the cluster, both while their
    event loop still runs: nothing is left for ``Client.__del__`` to close at exit, where
    it fails with a traceback on the loop gone.  Ctrl-C waits while they start and stop
    (:func:`_ctrl_c_held`), so none stops half started or half closed."""
    from distributed import Client

    count = _worker_count(workers)
    opened = ExitStack()  # closes the client, then the cluster
    try:
        with _ctrl_c_held():
            if scheduler:
                client = _connect(scheduler)
            elif kept is not None:  # its workers are warm already (:func:`_local_cluster`)
                client = _connect(kept.address(count), warm=False)
            else:
                cluster = _local_cluster(count)
                opened.callback(cluster.close)
                client = Client(cluster)
            opened.callback(client.close)
        yield client
    finally:
        with _ctrl_c_held():
            opened.close()


def _connect(scheduler: str, warm: bool = True):
    """A client of the scheduler at address ``scheduler`` with a worker to run on, its
    workers loading the kernels if ``warm``, or :class:`SweepError` saying which step did
    not answer in time."""
    from distributed import Client

    probe_scheduler(scheduler)
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT_S)
    except (OSError, TimeoutError, ValueError) as exc:
        raise SweepError([f"scheduler {scheduler}: cannot connect ({exc})"]) from None
    try:
        client.wait_for_workers(1, timeout=WORKERS_TIMEOUT_S)
    except (OSError, TimeoutError) as exc:
        client.close()
        raise SweepError([f"scheduler {scheduler}: no worker joined it within {WORKERS_TIMEOUT_S} s; start "
                          f"workers with 'dask worker {scheduler}' ({type(exc).__name__})"]) from None
    if warm:
        _warm_workers(client, scheduler)
    return client


def _warm_workers(client, scheduler: str) -> None:
    """Its workers, those there and those to come, load the solver's kernels (:mod:`.warm`)."""
    from .warm import WarmKernels

    try:
        client.register_plugin(WarmKernels())
    except Exception as exc:  # noqa: BLE001 -- a worker without the solver, say: named, and the client closed
        client.close()
        raise SweepError([f"scheduler {scheduler}: its workers cannot load the solver "
                          f"({type(exc).__name__}: {exc})"]) from None


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """A Ctrl-C that comes meanwhile waits until leaving, where it has its usual effect
    (the first one asks the sweep to cancel, a second raises ``KeyboardInterrupt``), once
    what was started is in the hands of a ``finally``.  Only the main thread receives
    signals: elsewhere (the window's sweep thread) and with SIGINT ignored or not set
    from Python, nothing changes."""
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or previous in (signal.SIG_IGN, None):
        yield
        return
    came: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, _frame: came.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        for signum in came:
            signal.raise_signal(signum)


@contextmanager
def _children_ignore_ctrl_c() -> Iterator[None]:
    """Processes started meanwhile ignore SIGINT (an ignored signal stays ignored in a
    child): Ctrl-C in a terminal reaches the whole process group, and the sweep itself
    stops its workers' runs; without this each worker prints a ``KeyboardInterrupt``.
    A Ctrl-C meanwhile is lost: the cluster's start goes on."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
