"""The GUI thread's side of a sweep: starts a :class:`~app.sweeps.worker.SweepWorker`,
relays its reports, and says whether a sweep is going on.  One sweep at a time.

Its waits for the worker's thread are bounded (:data:`STOP_LIMIT_S`, then
:class:`SweepThreadStuck`), as a run's are (:mod:`app.running.controller`)."""
from __future__ import annotations

from PySide6.QtCore import QDeadlineTimer, QObject, QThread, Signal, Slot

from .dialog import SweepRequest
from solver.sweeps.cluster import KeptCluster

from .worker import SweepWorker, start_sweep

#: how long (s) the controller waits for the sweep's thread to end once it was asked to
#: (cancelled: the runs going on finish or are dropped, and the local cluster closes)
STOP_LIMIT_S = 300.0


class SweepThreadStuck(RuntimeError):
    """The sweep's thread did not end within :data:`STOP_LIMIT_S`."""


class SweepController(QObject):
    """Runs one sweep at a time in a worker thread, on a local cluster kept open between
    sweeps (:class:`solver.sweeps.cluster.KeptCluster`, closed by :meth:`close_cluster`) unless
    the request names a scheduler."""

    #: a sweep started: its :class:`~app.sweeps.dialog.SweepRequest`
    started = Signal(object)
    #: a :class:`solver.sweeps.SweepProgress`
    progressed = Signal(object)
    #: the sweep ended: its :class:`solver.sweeps.SweepOutcome`, or None and why it could not run
    ended = Signal(object, str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.request: SweepRequest | None = None
        self.outcome = None
        self._thread: QThread | None = None
        self._worker: SweepWorker | None = None
        #: the local cluster the sweeps run on, started by the first
        self.kept = KeptCluster()

    @property
    def running(self) -> bool:
        return self._worker is not None

    def start(self, model: dict, request: SweepRequest) -> bool:
        """Start the sweep (False when one is going on)."""
        if self.running:
            return False
        self.request, self.outcome = request, None
        self._thread, self._worker = start_sweep(model, request, self, self.kept)
        self._worker.progressed.connect(self._on_progress)
        self._worker.finished.connect(self._on_finished)
        self._worker.failed.connect(self._on_failed)
        self._thread.start()
        self.started.emit(request)
        return True

    def close_cluster(self) -> None:
        """Close the kept cluster (the window closes; a sweep going on has ended)."""
        self.kept.close()

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.cancel()

    def wait(self, limit_s: float | None = None) -> None:
        """Wait for the sweep's thread to end (after :meth:`cancel`, to close the window), at most
        ``limit_s`` seconds (default :data:`STOP_LIMIT_S`); past it raise :class:`SweepThreadStuck` (the
        thread is kept)."""
        limit_s = STOP_LIMIT_S if limit_s is None else limit_s
        if self._thread is not None and not self._thread.wait(QDeadlineTimer(int(limit_s * 1000))):
            raise SweepThreadStuck(f"the sweep did not end within {limit_s:g} s of being asked to")

    @Slot(object)
    def _on_progress(self, progress) -> None:
        self.progressed.emit(progress)

    @Slot(object)
    def _on_finished(self, outcome) -> None:
        self.outcome = outcome
        self._end()
        self.ended.emit(outcome, "")

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._end()
        self.ended.emit(None, message)

    def _end(self) -> None:
        self.wait()  # the worker has sent its last signal: its thread is ending
        self._thread = self._worker = None
