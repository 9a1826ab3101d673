"""A sweep run in a worker thread (:func:`solver.sweeps.run_sweep` waits on dask while
its runs go on in worker processes), reporting through signals carrying plain data.

:meth:`SweepWorker.cancel` sets a flag the sweep polls: runs not started are dropped,
those running stop at their next step, the finished rows stay in the table.
"""
from __future__ import annotations

import copy
import threading
from typing import Callable

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from solver.sweeps import SweepError, run_sweep
from solver.sweeps.cluster import KeptCluster

from .dialog import SweepRequest


class SweepTask(QObject):
    """A long task over runs of a copy of a model, in the thread it is moved to: progress, its
    outcome, or why it could not run; :meth:`cancel` sets a flag the task polls."""

    #: the task's progress report after each finished run
    progressed = Signal(object)
    #: the task's outcome (also when cancelled)
    finished = Signal(object)
    #: why the task could not run (each problem on its own line)
    failed = Signal(str)

    def __init__(self, model: dict, parent: QObject | None = None):
        super().__init__(parent)
        self.model = copy.deepcopy(model)
        self._cancel = threading.Event()

    def cancel(self) -> None:
        """Ask the task to stop (safe from any thread)."""
        self._cancel.set()

    def work(self, progress: Callable[[object], None], cancel: Callable[[], bool]) -> object:
        """The task itself (in subclasses): its outcome, calling ``progress`` after each run."""
        raise NotImplementedError

    @Slot()
    def run(self) -> None:
        try:
            outcome = self.work(self.progressed.emit, self._cancel.is_set)
        except SweepError as exc:
            self.failed.emit("\n".join(exc.problems))
            return
        except Exception as exc:  # noqa: BLE001 (every error of a task reaches the user)
            self.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        self.finished.emit(outcome)


class SweepWorker(SweepTask):
    """Runs the sweep ``request`` of a copy of ``model``: progress is a
    :class:`solver.sweeps.SweepProgress`, the outcome a :class:`solver.sweeps.SweepOutcome`."""

    def __init__(self, model: dict, request: SweepRequest, parent: QObject | None = None,
                 kept: KeptCluster | None = None):
        super().__init__(model, parent)
        self.request = request
        self.kept = kept

    def work(self, progress, cancel):
        r = self.request
        return run_sweep(self.model, r.spec, r.folder, scheduler=r.scheduler, workers=r.workers,
                         progress=progress, cancel=cancel, kept=self.kept)


def start_task(task: SweepTask, parent: QObject | None = None) -> QThread:
    """A new thread for ``task`` (not started yet) that quits after it.  The caller owns both
    (see :func:`app.running.worker.start_run`)."""
    thread = QThread(parent)
    task.moveToThread(thread)
    thread.started.connect(task.run)
    task.finished.connect(thread.quit, Qt.ConnectionType.DirectConnection)
    task.failed.connect(thread.quit, Qt.ConnectionType.DirectConnection)
    return thread


def start_sweep(model: dict, request: SweepRequest, parent: QObject | None = None,
                kept: KeptCluster | None = None) -> tuple[QThread, SweepWorker]:
    """A worker for the sweep on a new thread (:func:`start_task`), on the cluster ``kept`` if given."""
    worker = SweepWorker(model, request, kept=kept)
    return start_task(worker, parent), worker
