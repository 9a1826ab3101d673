"""The GUI thread's side of a run: starts a :class:`~app.running.worker.RunWorker`, holds
what it sent, and says what state the run is in.

Every worker signal is connected to a slot of :class:`RunController`, a QObject that
lives in the GUI thread, so Qt queues the calls into the event loop (no lambdas run
on the worker's thread).  The frames of the run are the worker's own
:class:`~.run_frames.RunFrames` (it appends, the GUI reads: safe under the GIL), so
playback can show every frame computed so far, not only the throttled ones that were
sent; at the end they are the frames of the :class:`~solver.results.frames.Results`,
read from the run's scratch folder (:class:`~.scratch.RunFolder`).  The folder is
removed once those frames are freed (the window shows and compares other runs), when
the run ends without results, or at :meth:`RunController.remove_folders` (the window closes).

States: ``idle`` (no run yet), ``running``, ``cancelling``, then ``completed``,
``cancelled`` or ``failed``.

No wait is unbounded: :meth:`RunController.wait` gives the worker's thread
:data:`STOP_LIMIT_S` to end and raises :class:`RunThreadStuck` past it, so a window whose run
does not stop is not frozen (nor a test suite hung): closing it goes on, saying what did not stop
(:func:`app.shell.exception_hook.report_unstopped`).
"""
from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QDeadlineTimer, QObject, QThread, Signal, Slot

from solver.api import output_layout
from solver.results.frames import Frame, Layout, Results

from .scratch import RunFolder
from .worker import RunWorker, start_run

IDLE, RUNNING, CANCELLING, COMPLETED, CANCELLED, FAILED = (
    "idle", "running", "cancelling", "completed", "cancelled", "failed")
#: states in which no run is going on
ENDED = (IDLE, COMPLETED, CANCELLED, FAILED)

#: how long (s) :meth:`RunController.wait` waits for the worker's thread.  A cancelled
#: run stops before its next step, so only a set-up or a single step longer than this
#: (a first run compiling the solver's kernels on a busy machine takes about 150 s) is
#: still going when it expires.
STOP_LIMIT_S = 300.0


class RunThreadStuck(RuntimeError):
    """The worker's thread did not end within the limit of :meth:`RunController.wait`."""


class RunController(QObject):
    """Runs one model at a time in a worker thread; the results stay until the next run."""

    #: the new state (one of the module's state names)
    state_changed = Signal(str)
    #: a run started: the :class:`~solver.results.frames.Layout` of its frames
    run_started = Signal(object)
    #: simulated time t (s), end time (s), steps per second, estimated seconds left
    progress = Signal(float, float, float, float)
    #: the number of frames computed so far (throttled like the worker's frames)
    frames_changed = Signal(int)
    #: the run ended: its :class:`~solver.results.frames.Results` (also when cancelled or failed)
    run_ended = Signal(object)
    #: a run :meth:`discard` ed ended: its Results (None when it wrote none), which the window does not show
    run_discarded = Signal(object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.state = IDLE
        self.layout: Layout | None = None
        self.results: Results | None = None
        #: the solver's message of a failed or cancelled run ("" otherwise)
        self.message = ""
        #: the run failed through a bug, which the exception hook has reported
        self.unexpected = False
        self._frames: Sequence[Frame] = []
        self._thread: QThread | None = None
        self._worker: RunWorker | None = None
        self._folders: list[RunFolder] = []  # the runs' folders not removed yet
        self._discarded = False  # the run going on is cancelled and its end not shown (:meth:`discard`)
        #: the scratch folder of the current (or last) run
        self.folder: RunFolder | None = None

    @property
    def frames(self) -> Sequence[Frame]:
        """Every frame of the current (or last) run computed so far."""
        return self._frames

    @property
    def running(self) -> bool:
        return self.state not in ENDED

    def start(self, model: dict) -> None:
        """Simulate a copy of ``model``; raises :class:`~solver.errors.SolverError` (or a
        subclass) when it cannot start, OSError when its scratch folder cannot be made, and
        RuntimeError while another run goes on."""
        if self.running:
            raise RuntimeError("a run is already going on")
        self.wait()  # the previous run's thread, if its finished signal is still queued
        layout = output_layout(model)
        folder = RunFolder()  # in scratch_root()
        self._folders = [f for f in self._folders if not f.removed] + [folder]
        self.folder = folder
        thread, worker = start_run(model, folder.path)
        worker.frame.connect(self._on_frame)
        worker.progress.connect(self._on_progress)
        worker.finished.connect(self._on_finished)
        worker.failed.connect(self._on_failed)
        thread.finished.connect(self._on_thread_finished)
        self._thread, self._worker = thread, worker
        self.layout, self.results, self.message, self.unexpected = layout, None, "", False
        self._discarded = False
        self._frames = worker.frames
        self._set_state(RUNNING)
        self.run_started.emit(layout)
        thread.start()

    def cancel(self) -> None:
        """Ask the run to stop after the step it is taking; its frames are kept."""
        if self.state == RUNNING and self._worker is not None:
            self._worker.cancel()
            self._set_state(CANCELLING)

    def discard(self) -> None:
        """Cancel the run going on and wait for its thread; what it still sends is not shown
        (no frames, progress nor :attr:`run_ended`: the window shows another model or other results
        now), its end comes as :attr:`run_discarded`."""
        if self.running:
            self._discarded = True
            self.cancel()
        self.wait()

    def _set_state(self, state: str) -> None:
        self.state = state
        self.state_changed.emit(state)

    @Slot(object)
    def _on_frame(self, _frame: Frame) -> None:
        if not self._discarded:
            self.frames_changed.emit(len(self._frames))
        if self._worker is not None:  # drawn: the worker may send the next
            self._worker.frame_taken()

    @Slot(float, float, float, float)
    def _on_progress(self, t: float, t_end: float, steps_per_s: float, eta: float) -> None:
        if not self._discarded:
            self.progress.emit(t, t_end, steps_per_s, eta)

    @Slot(object)
    def _on_finished(self, results: Results) -> None:
        self._end(results, COMPLETED if results.completed else CANCELLED, str(results.meta.get("message", "")))

    @Slot(str, object, bool)
    def _on_failed(self, message: str, partial: Results | None, unexpected: bool) -> None:
        self.unexpected = unexpected
        self._end(partial, FAILED, message)

    def _end(self, results: Results | None, state: str, message: str) -> None:
        self.results, self.message = results, message
        if results is not None:
            self._frames = results.frames
            self.folder.remove_with(results.frames)
        else:  # nothing was written: the frames computed before the error stay in memory
            self.folder.remove()
        if self._discarded:
            self._set_state(state)
            self.run_discarded.emit(results)
            return
        self.frames_changed.emit(len(self._frames))
        self._set_state(state)
        self.run_ended.emit(results)

    @Slot()
    def _on_thread_finished(self) -> None:
        if self.sender() is not self._thread:
            return  # an earlier run's thread, finishing after the next run started
        self.wait()  # the thread has left its event loop: this returns at once
        self._thread = self._worker = None

    def remove_folders(self) -> None:
        """Stop a run going on and remove the scratch folders of every run (the window closes)."""
        self.cancel()
        self.wait()
        for folder in self._folders:
            folder.remove()

    def wait(self, limit_s: float | None = None) -> None:
        """Block until the worker's thread has finished (closing the window mid-run), at
        most ``limit_s`` seconds (default :data:`STOP_LIMIT_S`); past it raise :class:`RunThreadStuck`
        (the thread is kept: the run ends in its own time)."""
        limit_s = STOP_LIMIT_S if limit_s is None else limit_s
        if self._thread is None or self._thread.wait(QDeadlineTimer(int(limit_s * 1000))):
            return
        steps = self._worker.steps if self._worker is not None else 0
        raise RunThreadStuck(f"the run did not end within {limit_s:g} s of being asked to ({self.state}, "
                             f"{steps} steps taken, last frame at t = "
                             f"{float(self._frames[-1].time) if self._frames else 0.0:g} s)")

