"""The main window's simulation half: Run / Cancel, the progress in the status bar, and
playback of the run on the sketch canvas.

:class:`SimulationUi` adds to a :class:`~app.shell.main_window.MainWindow` (through :class:`~app.shell.window_parts.WindowParts`) a Simulation
menu and toolbar (Run, F5; Cancel, Esc while a run goes on), a
:class:`~app.running.status.RunStatus` in the status bar and a
:class:`~app.playback.bar.PlaybackBar`.  Run checks the model first (a model with
errors does not run: the problems panel comes forward, its first problem selected), then a
:class:`~app.running.controller.RunController` simulates a copy of it in a worker thread
while playback follows the frames as they arrive.  A failed run shows the solver's
message (time and cause) and keeps its frames for playback, as does a cancelled one.
A run writes its frames to a scratch folder as it goes, as ``flexmech run`` writes its
results folder (:mod:`app.running.scratch`), so its memory does not grow with them; it
starts when the disk has room for its estimated frames.  Folders of crashed sessions are
removed when the window is made; the window's own when it closes (:meth:`SimulationUi.close_runs`).
Editing goes on during a run (it changes the document, not the run's copy); opening
another model or closing the window cancels the run.
"""
from __future__ import annotations

import copy
import weakref

import numpy as np

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QMenu, QMessageBox

from solver.errors import SolverError
from solver.model.io import model_with_defaults
from solver.model.limits import results_bytes
from solver.model.validate import ModelError
from solver.results.frames import Results
from solver.results.tables import stack_field

from ..canvas import geometry as geo
from ..document.units import format_quantity
from ..document.checks import model_problems, nothing_drawn
from ..playback.controller import PlaybackController
from ..playback.bar import PlaybackBar
from ..playback.layer import PlaybackLayer
from ..running.controller import CANCELLED, COMPLETED, FAILED, RunController, RunThreadStuck
from ..running.scratch import disk_shortfall, remove_stale
from ..running.status import RunStatus
from .window_parts import WindowParts, make_action

#: frames whose positions the motion bounds take at a time
BOUNDS_CHUNK = 256


def motion_bounds(frames) -> tuple[float, float, float, float] | None:
    """(x min, x max, y min, y max) of every node over ``frames``, m (None without frames):
    read a chunk of frames at a time, none kept -- no copy of every frame's positions (big
    runs).  Reads the first frame whole and every frame's positions: a folder opened reads
    them before its model replaces the document, so that a read error is said first."""
    if not frames:
        return None
    shape = frames[0].node_xy.shape
    lo, hi = np.full(2, np.inf), np.full(2, -np.inf)
    for a in range(0, len(frames), BOUNDS_CHUNK):
        xy = stack_field(frames, "node_xy", shape, a, a + BOUNDS_CHUNK).reshape(-1, 2)
        if len(xy):
            lo, hi = np.minimum(lo, xy.min(axis=0)), np.maximum(hi, xy.max(axis=0))
    if not np.isfinite(lo).all():  # no positions at all
        lo = hi = np.zeros(2)
    return float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])


def frame_count(n: int) -> str:
    """``"1 frame"``, ``"2 frames"``: a number of frames as the run's messages say it.

    >>> frame_count(1), frame_count(3)
    ('1 frame', '3 frames')
    """
    return f"{n} frame" if n == 1 else f"{n} frames"


def _damping_note(results) -> str:
    """The status bar's word on a run that switched to numerical damping (``meta.numerical_damping``;
    its warning, in the tool tip, says why), or ``""``."""
    damping = results.meta.get("numerical_damping")
    if not damping:
        return ""
    from solver.results.trust import numerical_damping_loss  # deferred: the window paints first

    lost = numerical_damping_loss(results)
    took = f", which took {lost:.0%} of the energy" if lost is not None and lost >= 0.005 else ""
    return f" (numerical damping from t = {format_quantity(damping['from_s'], 's')}{took})"


#: how the status line starts for a run that ended in a state, and for results opened of such a run
RAN = {COMPLETED: "Run completed", CANCELLED: "Run cancelled", FAILED: "Run failed"}
OPENED = {COMPLETED: "Opened results", CANCELLED: "Opened results of a cancelled run",
          FAILED: "Opened results of a failed run"}


def outcome(results, state: str | None, message: str, frames) -> tuple[str, list[str], bool]:
    """What the status line says after :data:`RAN` or :data:`OPENED` of a run that ended in ``state``
    with ``frames`` (``results``: None when it wrote none), its warnings (those of a completed run),
    and whether they are ones a user must not take at face value (energy off, contacts through)."""
    reached = f", t = {format_quantity(frames[-1].time, 's')}" if frames else ""
    if state == FAILED:
        return message, [], False
    if state == CANCELLED:
        # the time reached in the window's units (the solver's message repeated it in raw seconds:
        # 'Run cancelled at t = 0.0200034 s: 1002 frames kept, t = 20 ms')
        return f"{frame_count(len(frames))} kept{reached}", [], False
    if results is None or state != COMPLETED:  # results of a folder that does not say how its run ended
        return f"{frame_count(len(frames))}{reached}", [], False
    from solver.results.trust import step_warnings  # deferred: the window paints first
    from solver.results.validity import (energy_warning, penetration_warning, redundant_joint_warnings,
                                         sinking_warning, strain_warning)

    energy, strain = energy_warning(results), strain_warning(results)
    through, sunk = penetration_warning(results), sinking_warning(results)
    step, redundant = step_warnings(results), redundant_joint_warnings(results)
    warnings = [w for w in (energy, strain, through, sunk) if w] + step + redundant
    note = (" — the numbers do not hold: energy balance off" if energy
            else " — the numbers do not hold: contacts penetrated through" if through
            else " — warning: strains beyond a linear elastic beam" if strain
            else " — warning: points sank into their targets" if sunk
            else " — warning: results depend on the step or the mesh" + _damping_note(results) if step
            else " — note: joints hold a motion twice, their reactions are one admissible split" if redundant
            else "")
    return f"{frame_count(len(frames))}{reached}{note}", warnings, bool(energy or through)


def tooltip(warnings: list[str]) -> str:
    """The status line's tool tip of a run's warnings: one sentence each."""
    return "\n\n".join(f"{w[0].upper()}{w[1:]}." for w in warnings)


class SimulationUi(QObject):
    """Run, cancel and playback for ``window``."""

    def __init__(self, window: WindowParts):
        super().__init__(window)
        self.window = window
        remove_stale()  # what crashed sessions left
        self.runs = RunController(self)
        self.playback = PlaybackController(self)
        self.layer = PlaybackLayer(window.sketch)
        self.run_model: dict = {}

        self.run_action = make_action(window, "&Run", self.run, "F5", "Simulate the model (in the background)")
        self.cancel_action = make_action(window, "&Cancel Run", self.runs.cancel, Qt.Key.Key_Escape,
                                            "Stop the run, keeping the frames computed so far")
        self.cancel_action.setEnabled(False)
        self.check_action = make_action(window, "Check the &Step", self.check_step, None,
                                        "Run the model again at half the step and show how its headline numbers moved")
        self.check_action.setEnabled(False)
        self.checked: Results | None = None  # the run a check at half the step compares with
        # the last run that completed, held weakly: its folder goes once no view shows it
        self.completed: weakref.ref[Results] | None = None
        self.menu = QMenu("&Simulation", window)
        menu_bar = window.menuBar()
        menu_bar.insertMenu(menu_bar.actions()[-1], self.menu)  # before Help
        self.menu.addAction(self.run_action)
        self.menu.addAction(self.cancel_action)
        self.menu.addAction(self.check_action)
        self.toolbar = window.addToolBar("Simulation")
        self.toolbar.setObjectName("simulation_toolbar")
        self.toolbar.addAction(self.run_action)
        self.toolbar.addAction(self.cancel_action)
        self.status = RunStatus(self.cancel_action)
        window.statusBar().addPermanentWidget(self.status)
        self.bar = PlaybackBar(self.playback, self.layer, window)
        window.addToolBar(Qt.ToolBarArea.BottomToolBarArea, self.bar)
        self.menu.addSeparator()
        for action in (self.bar.play_action, self.bar.start_action, self.bar.step_back_action,
                       self.bar.step_forward_action, self.bar.previous_event_action, self.bar.next_event_action,
                       self.bar.loop_action, self.bar.trace_action, self.bar.follow_action):
            self.menu.addAction(action)

        self.runs.run_started.connect(self._on_run_started)
        self.runs.progress.connect(self.status.show_progress)
        self.runs.frames_changed.connect(self._on_frames_changed)
        self.runs.state_changed.connect(self._on_state_changed)
        self.runs.run_ended.connect(self._on_run_ended)
        self.playback.frame_changed.connect(self._on_frame_changed)
        self.bar.trace_action.toggled.connect(self._update_traces)
        window.selection.changed.connect(self._update_traces)
        window.document.replaced.connect(self._on_document_replaced)

    # ------------------------------------------------------------------ run
    def run(self) -> bool:
        """Check the model and simulate a copy of it; False when it cannot run.

        A model with errors does not start: the problems panel comes forward with the
        first problem (and its entity) selected.
        """
        if self.runs.running or not self.window.finish_editing():  # the value typed, not the one before
            return False
        if nothing_drawn(self.window.document.model):
            QMessageBox.information(self.window, "Nothing to run",
                                    "There is no model to run yet: draw one with the tools on the right, "
                                    "or open one from the Examples menu.")
            return False
        model = copy.deepcopy(self.window.document.model)
        errors = [p for p in model_problems(model) if p.severity == "error"]
        if errors:
            self.window.check_model(select_first=True)
            count = f"{len(errors)} problem{'s' if len(errors) > 1 else ''}"
            self.window.statusBar().showMessage(f"Not run: the model has {count} (listed in Problems). "
                                                "Fix them, then run again (F5).", 15000)
            return False
        return self._start(model)

    def run_other(self, model: dict) -> bool:
        """Simulate ``model`` rather than the document's (a sweep's run opened from its
        table) and play it back; the document is not changed.  False when a run is going
        on or the model cannot run (the reason shown)."""
        if self.runs.running:
            return False
        return self._start(copy.deepcopy(model))

    def check_step(self) -> bool:
        """Run the last completed run's model again at half its step; when that run ends, a box
        shows each headline at both steps (:func:`solver.results.step_check.differences`)."""
        base = self.completed() if self.completed is not None else None
        if self.runs.running or base is None:
            return False
        model = copy.deepcopy(base.model)
        model.setdefault("solver", {})["step"] = float(model_with_defaults(model)["solver"]["step"]) / 2.0
        self.checked = base
        if not self._start(model):
            self.checked = None
            return False
        return True

    def _show_check(self, results) -> None:
        """The box of a check at half the step that ended (``results``: its run, None if it failed)."""
        base, self.checked = self.checked, None
        if results is None or not results.completed:
            QMessageBox.warning(self.window, "Check of the step", "The run at half the step did not complete.")
            return
        from solver.results.step_check import differences  # deferred: the window paints first

        step = model_with_defaults(results.model)["solver"]["step"]
        QMessageBox.information(self.window, "Check of the step",
                                f"The model run again at half the step ({format_quantity(step, 's')}):\n\n"
                                + "\n".join(f"• {line}" for line in differences(base, results))
                                + "\n\nWhat moves much depends on the step: read it as a spread, not one number.")

    def _start(self, model: dict) -> bool:
        try:
            short = disk_shortfall(results_bytes(model))  # the frames go to a scratch folder as they come
        except OSError as exc:
            QMessageBox.critical(self.window, "Cannot run", f"No folder for the run's results:\n\n{exc}")
            return False
        if short is not None:
            QMessageBox.warning(self.window, "No room for the results",
                                f"{short}.\n\nRecord less (Solver settings: record) or at a longer output interval, "
                                "or free some disk space.")
            return False
        try:
            self.run_model = model
            self.runs.start(model)
        except (SolverError, ModelError) as exc:
            QMessageBox.critical(self.window, "Cannot run", f"The model cannot run:\n\n{exc}")
            return False
        except OSError as exc:
            QMessageBox.critical(self.window, "Cannot run", f"No folder for the run's results:\n\n{exc}")
            return False
        return True

    def _on_run_started(self, layout) -> None:
        self._show(self.run_model, layout)
        end_time = model_with_defaults(self.run_model)["solver"]["end_time"]
        self.playback.set_frames(self.runs.frames, growing=True, duration=end_time)
        self.window.statusBar().clearMessage()  # what it said was about the model before this run
        self.status.started()

    def show_run(self, results, bounds: tuple[float, float, float, float] | None = None) -> None:
        """Play back finished results (opened from a results folder) without solving;
        ``bounds``: their :func:`motion_bounds`, if read already."""
        self.stop()
        self.run_model = results.model
        self._show(results.model, results.layout)
        self.playback.set_frames(results.frames, results.events)
        self._set_motion_bounds(results.frames, bounds)
        state = results.meta.get("status")
        line, warnings, _grave = outcome(results, state, str(results.meta.get("message", "")), results.frames)
        self.status.ended(f"{OPENED.get(state, OPENED[COMPLETED])}: {line}",
                          tooltip(warnings))

    def _set_motion_bounds(self, frames, bounds: tuple[float, float, float, float] | None = None) -> None:
        bounds = bounds if bounds is not None else motion_bounds(frames)
        if bounds is not None:
            self.window.sketch.set_motion_bounds(bounds)

    def _show(self, model: dict, layout) -> None:
        self.window.sketch.set_sketch_faded(True)
        self.layer.set_run(model, layout)
        self.layer.set_size(geo.model_size(model))
        self._update_traces()

    def _on_frames_changed(self, _count: int) -> None:
        self.playback.frames_grew()

    def _on_state_changed(self, state: str) -> None:
        running = self.runs.running
        self.run_action.setEnabled(not running)
        self.cancel_action.setEnabled(state == "running")
        self.check_action.setEnabled(not running and self.completed is not None)
        # Esc cancels the run; the canvas tools' Esc would make the key ambiguous meanwhile
        self.window.tool_bar.escape_action.setEnabled(not running)

    def _on_run_ended(self, results) -> None:
        frames = results.frames if results is not None else self.runs.frames
        self._set_motion_bounds(frames)
        self.playback.finish(frames, results.events if results is not None else [])
        state, message = self.runs.state, self.runs.message
        self.completed = weakref.ref(results) if state == COMPLETED else self.completed
        self.check_action.setEnabled(self.completed is not None)
        if self.checked is not None:
            self._show_check(results if state == COMPLETED else None)
        line, warnings, grave = outcome(results, state, message, frames)
        self.status.ended(f"{RAN[state]}: {line}", tooltip(warnings))
        if grave:  # results a user must not take at face value: said where it cannot be missed
            QMessageBox.warning(self.window, "Run completed with warnings",
                                "The run completed, but:\n\n" + "\n\n".join(f"• {w}." for w in warnings))
        if state == FAILED:
            kept = f"{frame_count(len(frames)).capitalize()} computed {'is' if len(frames) == 1 else 'are'} kept " \
                   "for playback." if frames else ""
            if not self.runs.unexpected:  # else the error dialog says it, with the details
                QMessageBox.warning(self.window, "Run failed", f"The run failed: {message}\n\n{kept}".strip())

    # ------------------------------------------------------------------ playback
    def _on_frame_changed(self, index: int) -> None:
        frame = self.playback.frame
        if frame is not None:
            self.layer.show_frame(frame, index, self.playback.frames)
            if self.bar.follow_action.isChecked():
                lo, hi = frame.node_xy.min(axis=0), frame.node_xy.max(axis=0)
                self.window.sketch.follow((float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])))

    def _update_traces(self, *_args) -> None:
        traced = [ref.id for ref in self.window.selection.refs if ref.collection in ("nodes", "bodies")]
        self.layer.set_traced(traced if self.bar.trace_action.isChecked() else [])

    def _on_document_replaced(self) -> None:
        self.stop()
        self.completed = self.checked = None
        self.check_action.setEnabled(False)
        self.status.clear()
        self.playback.set_frames([])
        self.layer.clear()
        self.window.sketch.set_sketch_faded(False)
        self.window.sketch.set_motion_bounds(None)

    def stop(self) -> None:
        """Cancel a run going on and wait for its thread; its end is not shown (the window shows
        another model or other results: its frames, status and plots were shown over them)."""
        self.runs.discard()
        self.checked = None  # a check at half the step discarded: no box compares it

    def close_runs(self) -> list[str]:
        """The window closes (the user has answered its question on unsaved changes): stop a run
        going on, its end not shown (:meth:`stop`), and remove the runs' scratch folders; what did not
        stop within its bound (a run's scratch folders are then left, in use, to the next start's
        :func:`~app.running.scratch.remove_stale`)."""
        try:
            self.stop()
        except RunThreadStuck as exc:
            return [str(exc)]
        self.runs.remove_folders()
        return []
