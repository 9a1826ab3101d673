"""The analysis dock's Lyapunov tab: the run and a perturbed twin of it, simulated off the GUI
thread (:class:`TwinRun`), the separation's log growth and its fit
(:func:`solver.analysis.lyapunov.lyapunov_fit`).

Stopping the twin (the window closes, :meth:`LyapunovTab.stop_twin`) waits for its thread at most
:data:`STOP_LIMIT_S`, then raises :class:`TwinThreadStuck`, as a run's, a sweep's and a search's waits do
(the window closes all the same, saying so).
"""
from __future__ import annotations

import threading

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QDeadlineTimer, QThread, Signal
from PySide6.QtWidgets import QDoubleSpinBox, QLineEdit

from solver.analysis.lyapunov import lyapunov_fit, perturbed_model, write_lyapunov_csv
from solver.analysis.orbit import clearance_joint_ids
from solver.analysis.run_series import AnalysisError, driver_period
from solver.model.paths import item_label
from solver.results.frames import Results

from .analysis_images import CURVE, POINTS, write_lyapunov_png
from .analysis_tab import PROBLEMS, AnalysisTab

#: how long (s) stopping waits for the twin's thread (its run stops at its next step)
STOP_LIMIT_S = 300.0


class TwinThreadStuck(RuntimeError):
    """The twin's thread did not end within :data:`STOP_LIMIT_S` of being stopped."""


class TwinRun(QThread):
    """The perturbed twin of a run, simulated off the GUI thread; :meth:`stop` ends it after its step."""

    ended = Signal(object, str)  # results (None on failure), the failure

    def __init__(self, model: dict):
        super().__init__()
        self.model = model
        self._stop = threading.Event()

    def stop(self) -> None:
        self._stop.set()

    def run(self) -> None:
        from solver.api import simulate

        try:
            self.ended.emit(simulate(self.model, cancel=self._stop.is_set), "")
        except Exception as exc:  # noqa: BLE001 -- shown in the tab: a twin that fails is a run that fails
            self.ended.emit(None, str(exc))


class LyapunovTab(AnalysisTab):
    """The run and its twin a small perturbation apart: the separation's log growth and its fit."""

    name = "Lyapunov exponent"
    finished = Signal()

    def __init__(self):
        super().__init__()
        self.path = self.add_control("Perturb:", QLineEdit())
        self.size = self.add_control("by:", QDoubleSpinBox(decimals=12, minimum=-1e6, maximum=1e6, value=1e-7))
        self.saturation = self.add_control("Saturation (of the largest separation):",
                                           QDoubleSpinBox(decimals=3, minimum=1e-3, maximum=1.0, value=0.1))
        self.twin: Results | None = None
        self._thread: TwinRun | None = None
        self._twin_of: Results | None = None  # the results whose twin runs
        self.draw_button.setText("Run the twin and fit")
        self.plot.setLogMode(y=True)
        self.plot.setLabel("bottom", "time", "s")
        self.plot.setLabel("left", "separation", "m")

    def ready(self) -> bool:
        """A run to perturb and no twin running (a second one replaced the thread of the first)."""
        return getattr(self, "_thread", None) is None and super().ready()

    def set_results(self, results: Results | None) -> None:
        joints = clearance_joint_ids(results.model) if results is not None else []
        if joints and not self.path.text():
            self.path.setText(f"joints{item_label(joints[0])}.offset.x")
        if results is not self.results:
            self.twin = None
        super().set_results(results)

    def draw(self):
        """Start the twin's run; the fit is drawn when it ends (:attr:`finished`)."""
        try:
            model = perturbed_model(self.results.model, self.path.text().strip(), self.size.value())
        except PROBLEMS as exc:
            self.refuse(str(exc))
            return None
        self.message.setText("Running the twin…")
        self._twin_of = self.results
        self._thread = TwinRun(model)
        self._enable()
        self._thread.ended.connect(self._on_twin)
        self._thread.start()
        return None

    def stop_twin(self, limit_s: float | None = None) -> None:
        """Stop a twin's run under way and wait for it (the window closes: its thread must not outlive it;
        waiting for the whole twin froze the window for as long as the run it perturbs), at most ``limit_s``
        seconds (default :data:`STOP_LIMIT_S`); past it raise :class:`TwinThreadStuck` (the thread is kept:
        the twin ends in its own time)."""
        if self._thread is None:
            return
        limit_s = STOP_LIMIT_S if limit_s is None else limit_s
        self._thread.stop()
        if not self._thread.wait(QDeadlineTimer(int(limit_s * 1000))):
            raise TwinThreadStuck(f"the Lyapunov twin did not end within {limit_s:g} s of being stopped")

    def _on_twin(self, twin: Results | None, failure: str) -> None:
        self._thread.wait()
        self._thread = None
        if self._twin_of is not self.results:
            self.refuse("the run changed while its twin ran: run the twin again")
        elif twin is None:
            self.refuse(f"the twin run failed: {failure}")
        elif not twin.completed:  # its frames end early: no fit over the run
            self.refuse(f"the twin run did not complete ({twin.meta.get('status')}): {twin.meta.get('message', '')}")
        else:
            self.twin = twin
            super().draw()
        self._enable()
        self.finished.emit()

    def compute(self):
        return lyapunov_fit(self.results, self.twin, saturation=self.saturation.value())

    def show_result(self, fit) -> str:
        inside = np.linspace(*fit.window, 50)
        positive = fit.separation > 0.0
        self.plot.addItem(pg.PlotDataItem(fit.time[positive], fit.separation[positive], pen=pg.mkPen(CURVE),
                                          name="separation"))
        self.plot.addItem(pg.PlotDataItem(inside, fit.fitted(inside), pen=pg.mkPen(POINTS, width=3), name="fit"))
        return (f"largest Lyapunov exponent {fit.slope:.4g} 1/s{self._per_period(fit)}: ln d = {fit.intercept:.4g} + "
                f"{fit.slope:.4g} t over {fit.window[0]:.4g} to {fit.window[1]:.4g} s, {fit.points} frames, "
                f"r² = {fit.r2:.3f}")

    def _per_period(self, fit) -> str:
        try:
            period = driver_period(self.results.model)[1]
        except AnalysisError:
            return ""
        return f" ({fit.slope * period:.4g} per period)"

    def write_png(self, path: str) -> None:
        try:
            period = driver_period(self.results.model)[1]
        except AnalysisError:
            period = None
        write_lyapunov_png(self.result, path, period)

    def write_csv(self, path: str) -> None:
        write_lyapunov_csv(self.result, path)
