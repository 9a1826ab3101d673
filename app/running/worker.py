"""Run a simulation in a worker thread and report back through signals carrying plain data.

:class:`RunWorker` drives :func:`solver.api.iter_simulation` on its own copy of the
model and writes its frames to a results folder as they come
(:func:`~solver.results.streaming.streamed_results`, as ``flexmech run`` does), so a run's
memory does not grow with its frames: the window reads them from :attr:`RunWorker.frames`
(:class:`~.run_frames.RunFrames`, every time and the frames within a bounded size) while
it runs, and from the folder once it has ended (its results' frames are then
:class:`~solver.results.lazy.LazyFrames`).  A cancelled or failed run's frames so far are
written too.  The worker sends the GUI at most :data:`MAX_FRAME_RATE` frames (and progress
reports) a second, and the next only once the window has taken the last
(:meth:`RunWorker.frame_taken`): a window slower to draw a frame than the solver is to make the
next gets fewer, and its event queue never fills with frames it cannot draw (it did: the
queued frames kept the event loop from its timers, the window froze and no key reached the
run); the last frame always goes out.  :meth:`RunWorker.cancel` sets a flag
the solver polls between steps.
:func:`start_run` moves a worker onto a fresh :class:`~PySide6.QtCore.QThread` that
quits after the run; the caller owns both.

The solver holds the GIL in its compiled kernels; the worker gives it up for a moment
after each output frame (``time.sleep(0)``) so the event loop keeps running.  The one
long holds were two: the first call of each compiled kernel (loading it from numba's
cache, about 50 ms for the Newton kernel), so :func:`warm_up` loads them all once on a
background thread as soon as the window is on the screen (:mod:`app.shell.gui`); and
OpenBLAS's own threads spin-waiting inside the dense least squares of the initial state
(0.5 s on two busy cores, with the GIL held), so runs use one BLAS thread (:func:`single_blas_thread`): the solver's
dense algebra is small and its big systems are solved by its own banded kernels.
"""
from __future__ import annotations

import atexit
import copy
import sys
import threading
import time
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot
from threadpoolctl import threadpool_limits

from solver.api import iter_simulation, load_model, simulate
from solver.errors import SolverError
from solver.model.validate import ModelError
from solver.model.io import examples_dir
from solver.results.frames import Frame, Results
from solver.results.streaming import streamed_results

from .run_frames import RunFrames

#: frames (and progress reports) sent to the GUI per second, at most
MAX_FRAME_RATE = 30.0


#: the example whose first steps load every compiled kernel (flexible links, contact)
WARM_UP_EXAMPLE = "bar_mass_impact"
_warm_up_lock = threading.Lock()
_warm_up_thread: threading.Thread | None = None
#: how long (s) the process waits at exit for a warm-up still compiling (a daemon thread
#: inside numba's compiler as the interpreter shuts down can crash it)
WARM_UP_EXIT_LIMIT_S = 60.0


def single_blas_thread() -> None:
    """Make BLAS / LAPACK single-threaded in this process (see the module docstring)."""
    threadpool_limits(limits=1, user_api="blas")


def _load_kernels() -> None:
    single_blas_thread()
    model = load_model(examples_dir() / f"{WARM_UP_EXAMPLE}.json")
    step = model["solver"]["step"]
    model["solver"].update(end_time=3 * step, output_interval=3 * step)
    simulate(model)


def warm_up() -> threading.Thread:
    """Load the solver's compiled kernels on a daemon thread (once per process; later
    calls return the same thread), so the first run holds the GIL no longer than any other."""
    global _warm_up_thread
    with _warm_up_lock:
        if _warm_up_thread is None:
            _warm_up_thread = threading.Thread(target=_load_kernels, name="flexmech-warm-up", daemon=True)
            _warm_up_thread.start()
            atexit.register(_warm_up_thread.join, WARM_UP_EXIT_LIMIT_S)
        return _warm_up_thread


class RunWorker(QObject):
    """Simulates a copy of ``model``, writing its results to the folder ``folder`` (created if
    needed); all signals carry plain Python / numpy data."""

    #: a :class:`~solver.results.frames.Frame` (throttled)
    frame = Signal(object)
    #: simulated time t (s), end time (s), steps per second of wall time, estimated seconds left
    progress = Signal(float, float, float, float)
    #: the :class:`~solver.results.frames.Results` of a completed or cancelled run (its frames
    #: read from the folder)
    finished = Signal(object)
    #: the solver's message, the partial :class:`~solver.results.frames.Results` (None when
    #: none), and whether the error was unexpected (a bug, already sent to :func:`sys.excepthook`)
    failed = Signal(str, object, bool)

    def __init__(self, model: dict, folder: str | Path, parent: QObject | None = None):
        super().__init__(parent)
        self.model = copy.deepcopy(model)
        self.folder = Path(folder)
        self.t_end = float(self.model.get("solver", {}).get("end_time", 1.0))
        #: the frames computed so far as the window reads them while the run goes on (the worker's thread appends)
        self.frames = RunFrames()
        self._cancel = threading.Event()
        self._taken = threading.Event()  # the window has taken the last frame sent (set: none is on its way)
        self._taken.set()
        #: steps taken so far (the solver polls the cancel flag once before each step)
        self.steps = 0

    def cancel(self) -> None:
        """Ask the run to stop at the next step (safe from any thread)."""
        self._cancel.set()

    def frame_taken(self) -> None:
        """The window has drawn the last frame sent: the next may go (safe from any thread)."""
        self._taken.set()

    @property
    def cancel_requested(self) -> bool:
        return self._cancel.is_set()

    def _poll_cancel(self) -> bool:
        self.steps += 1
        return self._cancel.is_set()

    @Slot()
    def run(self) -> None:
        """Run to the end (or cancel or failure) and emit ``finished`` or ``failed`` once."""
        started = time.perf_counter()
        single_blas_thread()
        try:
            with streamed_results(self.folder) as stream:
                try:
                    results = self._solve(stream.frames, started)
                except OSError:
                    raise
                except Exception as exc:  # noqa: BLE001 (a bug, or a solver error: the frames so far are written)
                    self._fail(exc, stream.fail)
                    return
                stream.finish(results)  # a cancelled or failed run's frames so far too
        except (SolverError, ModelError) as exc:
            self.failed.emit(str(exc) or type(exc).__name__, None, False)
            return
        except OSError as exc:
            self.failed.emit(f"its results could not be written to {self.folder}: {exc.strerror or exc}", None, False)
            return
        except Exception:  # noqa: BLE001 (a bug: reported with its traceback, and the run ends)
            sys.excepthook(*sys.exc_info())
            self.failed.emit(f"unexpected {sys.exc_info()[0].__name__}", None, True)
            return
        if results.meta.get("status") == "failed":
            self.failed.emit(str(results.meta.get("message", "the run failed")), results, False)
        else:
            self.finished.emit(results)

    def _fail(self, exc: Exception, keep: Callable[[BaseException], Results | None]) -> None:
        """Emit ``failed`` for an error raised by the run, once its frames so far are kept
        (``keep(exc)``: the partial results, None without a frame); a bug is reported with its
        traceback first (:func:`sys.excepthook`: the window's error dialog and log)."""
        unexpected = not isinstance(exc, (SolverError, ModelError))
        if unexpected:
            sys.excepthook(type(exc), exc, exc.__traceback__)
        partial = keep(exc)
        if unexpected:
            message = f"unexpected {type(exc).__name__}"
        else:
            message = partial.meta["message"] if partial is not None else str(exc) or type(exc).__name__
        self.failed.emit(message, partial, unexpected)

    def _solve(self, store, started: float) -> Results:
        """The run's results, its frames appended to ``store(results)`` and to :attr:`frames`,
        some of them sent (see the module)."""
        interval = 1.0 / MAX_FRAME_RATE
        last_sent = -interval
        pending: Frame | None = None
        for item in iter_simulation(self.model, cancel=self._poll_cancel, frames=store):
            if isinstance(item, Results):
                if pending is not None:
                    self._send(pending, started)
                return item
            self.frames.append(item)
            now = time.perf_counter()
            if now - last_sent >= interval and self._taken.is_set():
                self._taken.clear()
                self._send(item, started)
                last_sent = now
                pending = None
            else:
                pending = item
            time.sleep(0)  # let the GUI thread take the GIL between frames
        raise SolverError("the simulation ended without results")  # pragma: no cover

    def _send(self, item: Frame, started: float) -> None:
        self.frame.emit(item)
        wall = max(time.perf_counter() - started, 1e-9)
        t = float(item.time)
        eta = max(wall * (self.t_end - t) / t, 0.0) if t > 0 else float("nan")
        self.progress.emit(t, self.t_end, self.steps / wall, eta)


def start_run(model: dict, folder: str | Path, parent: QObject | None = None) -> tuple[QThread, RunWorker]:
    """A worker for ``model`` writing to ``folder``, moved to a new thread (not started yet: connect to the
    worker's signals, then ``thread.start()``); the thread quits after the run.  The
    caller owns both: it drops them once the thread has finished and been waited for
    (deleting a QThread from ``finished`` with ``deleteLater`` can race the thread's
    last moments and crash)."""
    thread = QThread(parent)
    worker = RunWorker(model, folder)
    worker.moveToThread(thread)
    thread.started.connect(worker.run)
    # directly from the worker's thread: the GUI thread may be blocked waiting for it
    # (closing the window mid-run), so a queued quit would never arrive
    worker.finished.connect(thread.quit, Qt.ConnectionType.DirectConnection)
    worker.failed.connect(thread.quit, Qt.ConnectionType.DirectConnection)
    return thread, worker
