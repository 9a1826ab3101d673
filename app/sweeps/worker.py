"""A sweep run in a worker thread (:func:`solver.sweeps.run_sweep` waits on dask while
its runs go on in worker processes), reporting through signals carrying plain data.

:meth:`SweepWorker.cancel` sets a flag the sweep polls: runs not started are dropped,
those running stop at their next step, the finished rows stay in the table.
"""
from __future__ import annotations

import copy
import threading

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from solver.sweeps import SweepError, run_sweep

from .dialog import SweepRequest


class SweepWorker(QObject):
    """Runs the sweep ``request`` of a copy of ``model``."""

    #: a :class:`solver.sweeps.SweepProgress` after each finished run
    progressed = Signal(object)
    #: the :class:`solver.sweeps.SweepOutcome` (also when cancelled)
    finished = Signal(object)
    #: why the sweep could not run (each problem on its own line)
    failed = Signal(str)

    def __init__(self, model: dict, request: SweepRequest, parent: QObject | None = None):
        super().__init__(parent)
        self.model = copy.deepcopy(model)
        self.request = request
        self._cancel = threading.Event()

    def cancel(self) -> None:
        """Ask the sweep to stop (safe from any thread)."""
        self._cancel.set()

    @Slot()
    def run(self) -> None:
        r = self.request
        try:
            outcome = run_sweep(self.model, r.spec, r.folder, scheduler=r.scheduler, workers=r.workers,
                                progress=self.progressed.emit, cancel=self._cancel.is_set)
        except SweepError as exc:
            self.failed.emit("\n".join(exc.problems))
            return
        except Exception as exc:  # noqa: BLE001 (every error of a sweep reaches the user)
            self.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        self.finished.emit(outcome)


def start_sweep(model: dict, request: SweepRequest, parent: QObject | None = None) -> tuple[QThread, SweepWorker]:
    """A worker for the sweep moved to a new thread (not started yet); the thread quits
    after the sweep.  The caller owns both (see :func:`app.running.worker.start_run`)."""
    thread = QThread(parent)
    worker = SweepWorker(model, request)
    worker.moveToThread(thread)
    thread.started.connect(worker.run)
    worker.finished.connect(thread.quit, Qt.ConnectionType.DirectConnection)
    worker.failed.connect(thread.quit, Qt.ConnectionType.DirectConnection)
    return thread, worker
