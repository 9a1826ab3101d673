"""The GUI thread's side of a sweep: starts a :class:`~app.sweeps.worker.SweepWorker`,
relays its reports, and says whether a sweep is going on.  One sweep at a time."""
from __future__ import annotations

from PySide6.QtCore import QObject, QThread, Signal, Slot

from .dialog import SweepRequest
from .worker import SweepWorker, start_sweep


class SweepController(QObject):
    """Runs one sweep at a time in a worker thread."""

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

    @property
    def running(self) -> bool:
        return self._worker is not None

    def start(self, model: dict, request: SweepRequest) -> bool:
        """Start the sweep (False when one is going on)."""
        if self.running:
            return False
        self.request, self.outcome = request, None
        self._thread, self._worker = start_sweep(model, request, self)
        self._worker.progressed.connect(self._on_progress)
        self._worker.finished.connect(self._on_finished)
        self._worker.failed.connect(self._on_failed)
        self._thread.start()
        self.started.emit(request)
        return True

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.cancel()

    def wait(self) -> None:
        """Wait for the sweep's thread to end (after :meth:`cancel`, to close the window)."""
        if self._thread is not None:
            self._thread.wait()

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
        self._thread.wait()
        self._thread = self._worker = None
