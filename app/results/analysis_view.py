"""The analysis dock: a tab for each of the plots the clearance-joint field reads runs by
— journal orbit, Poincaré section with its phase portrait, amplitude spectrum,
bifurcation diagram of a sweep folder, largest Lyapunov exponent — each computed by
:mod:`solver.analysis` (or :mod:`solver.sweeps.bifurcation`), drawn with pyqtgraph and
exported as the command line's PNG (:mod:`.analysis_images`) and CSV.

The run analysed is the window's (its last run, or results opened); a problem (a run
without a clearance joint, a series it lacks) is shown in the tab, never raised.
"""
from __future__ import annotations

import html
import math
import threading

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QThread, Signal
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFileDialog, QHBoxLayout, QLabel, QLineEdit, QPushButton,
                               QSpinBox, QTabWidget, QVBoxLayout, QWidget)

from solver.analysis.lyapunov import lyapunov_fit, perturbed_model, write_lyapunov_csv
from solver.analysis.orbit import clearance_joint_ids, journal_orbit, write_orbit_csv
from solver.analysis.poincare import poincare_section, write_poincare_csv
from solver.analysis.run_series import AnalysisError, driver_period
from solver.analysis.spectrum import WINDOWS, series_spectrum, write_spectrum_csv
from solver.errors import ResultsFormatError, SolverError
from solver.results.frames import Results
from solver.results.series import catalogue, x_axes
from solver.sweeps import read_sweep
from solver.sweeps.bifurcation import sweep_bifurcation, write_bifurcation_csv

from .analysis_images import (CIRCLE, CURVE, MARK, POINTS, SHOWN_HARMONICS, scale_rgb, write_bifurcation_png,
                              write_lyapunov_png, write_orbit_png, write_poincare_png, write_spectrum_png)

#: the problems a tab shows instead of a plot
PROBLEMS = (AnalysisError, ResultsFormatError, SolverError, OSError)


class _Tab(QWidget):
    """Controls, Draw and the exports, a message line and a plot; a subclass computes
    (:meth:`compute`) and shows (:meth:`show_result`) its analysis."""

    name = ""

    def __init__(self):
        super().__init__()
        self.results: Results | None = None
        self.result = None
        self.controls, self.more_controls = QHBoxLayout(), QHBoxLayout()  # two rows: a narrow dock
        self.draw_button = QPushButton("Draw")
        self.draw_button.clicked.connect(self.draw)
        self.png_button, self.csv_button = QPushButton("PNG…"), QPushButton("CSV…")
        self.png_button.clicked.connect(lambda: self._export("PNG images (*.png)", self.write_png))
        self.csv_button.clicked.connect(lambda: self._export("CSV files (*.csv)", self.write_csv))
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.plot = pg.PlotWidget(background="w")
        self.plot.addLegend(offset=(-10, 10), labelTextColor="k")
        buttons = QHBoxLayout()
        for w in (self.draw_button, QLabel("Export:"), self.png_button, self.csv_button):
            buttons.addWidget(w)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(self.controls)
        layout.addLayout(self.more_controls)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        layout.addWidget(self.plot, 1)
        self._enable()

    def add_control(self, label: str, widget: QWidget, row: int = 0) -> QWidget:
        if isinstance(widget, QComboBox):  # as wide as a usual key, not the longest one
            widget.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            widget.setMinimumContentsLength(18)
        layout = self.more_controls if row else self.controls
        layout.addWidget(QLabel(label))
        layout.addWidget(widget)
        return widget

    def set_results(self, results: Results | None) -> None:
        """Analyse ``results``; what was drawn of other results goes."""
        if results is not self.results:
            self._drop_result()
            self.message.clear()
        self.results = results
        self._enable()

    def _drop_result(self) -> None:
        """No analysis shown nor exported (the results or the settings it was of are gone)."""
        self.result = None
        self.plot.clear()
        self._enable()

    def _enable(self) -> None:
        self.draw_button.setEnabled(self.ready())
        for button in (self.png_button, self.csv_button):
            button.setEnabled(self.result is not None)

    def ready(self) -> bool:
        return self.results is not None and len(self.results.frames) > 0

    def draw(self):
        """Compute and show the analysis; a problem is shown, not raised (None)."""
        try:
            result = self.compute()
        except PROBLEMS as exc:
            self.refuse(str(exc))
            return None
        self.result = result
        self.plot.clear()
        self.message.setText(html.escape(self.show_result(result)))
        self._enable()
        return result

    def refuse(self, text: str) -> None:
        """Say why the analysis cannot be drawn, showing none (not the one of the settings before)."""
        self._drop_result()
        self.say_problem(text)

    def say_problem(self, text: str) -> None:
        text = html.escape(text).replace("\n", "<br>")
        self.message.setText(f"<span style='color:#b00'>The {self.name} cannot be drawn: {text}</span>")

    def compute(self):
        raise NotImplementedError

    def show_result(self, result) -> str:
        raise NotImplementedError

    def write_png(self, path: str) -> None:
        raise NotImplementedError

    def write_csv(self, path: str) -> None:
        raise NotImplementedError

    def _export(self, filters: str, write) -> None:
        path, _f = QFileDialog.getSaveFileName(self, f"Export the {self.name}", "", filters)
        if path:
            self.export(path, write)

    def export(self, path: str, write) -> None:
        try:
            write(path)
        except OSError as exc:
            self.say_problem(f"{path}: {exc.strerror or exc}")
            return
        self.message.setText(f"Exported {html.escape(path)}")


def _series_combo(results: Results | None, default: str, axes: bool = False) -> QComboBox:
    combo = QComboBox()
    fill_series(combo, results, default, axes)
    return combo


def fill_series(combo: QComboBox, results: Results | None, default: str, axes: bool = False) -> None:
    """The keys of ``results``' series (abscissae too when ``axes``) in ``combo``, ``default``
    (or the current one) chosen."""
    current = combo.currentText() or default
    combo.clear()
    if results is None or not len(results.frames):
        return
    keys = [*(x_axes(results) if axes else {}), *catalogue(results)]
    combo.addItems(keys)
    combo.setCurrentText(current if current in keys else keys[0])


def _last_model_node(results: Results) -> str:
    """The default series' node: the model's last (a slider-crank's slider)."""
    nodes = [n.get("id") for n in results.model.get("nodes", []) if isinstance(n, dict)]
    return nodes[-1] if nodes else (results.layout.nodes[0] if results.layout.nodes else "")


class OrbitTab(_Tab):
    """The journal orbit of a clearance joint, coloured by time or contact force."""

    name = "journal orbit"

    def __init__(self):
        super().__init__()
        self.joint = self.add_control("Joint:", QComboBox())
        self.colour = self.add_control("Colour by:", QComboBox())
        self.colour.addItems(["time", "force"])
        self.controls.addStretch(1)
        self.plot.setAspectLocked(True)
        self.plot.setLabel("bottom", "e_x", "m")
        self.plot.setLabel("left", "e_y", "m")

    def set_results(self, results: Results | None) -> None:
        self.joint.clear()
        self.joint.addItems(clearance_joint_ids(results.model) if results is not None else [])
        super().set_results(results)

    def compute(self):
        return journal_orbit(self.results, self.joint.currentText() or None)

    def show_result(self, orbit) -> str:
        values = orbit.time if self.colour.currentText() == "time" else orbit.force
        span = float(np.ptp(values)) or 1.0
        brushes = [pg.mkBrush(*c) for c in scale_rgb((values - values.min()) / span)]
        circle = np.linspace(0.0, 2.0 * math.pi, 361)
        self.plot.addItem(pg.PlotDataItem(orbit.clearance * np.cos(circle), orbit.clearance * np.sin(circle),
                                          pen=pg.mkPen(CIRCLE, width=2), name="clearance circle"))
        self.plot.addItem(pg.ScatterPlotItem(orbit.ex, orbit.ey, size=3, pen=None, brush=brushes,
                                             name=f"journal centre, coloured by {self.colour.currentText()}"))
        return (f"{orbit.joint}: clearance {orbit.clearance * 1e3:.4g} mm, largest eccentricity "
                f"{orbit.eccentricity.max() * 1e3:.4g} mm, largest penetration {orbit.largest_penetration * 1e6:.4g} µm")

    def write_png(self, path: str) -> None:
        write_orbit_png(self.result, path, self.colour.currentText())

    def write_csv(self, path: str) -> None:
        write_orbit_csv(self.result, path)


def _period_controls(tab: _Tab) -> tuple[QDoubleSpinBox, QSpinBox]:
    period = tab.add_control("Period (s, 0: a turn of the driver):", QDoubleSpinBox(decimals=6, maximum=1e6), 1)
    transient = tab.add_control("Transient (periods):", QSpinBox(maximum=100000), 1)
    tab.more_controls.addStretch(1)
    return period, transient


class PoincareTab(_Tab):
    """Two series once per period over their phase portrait."""

    name = "Poincaré section"

    def __init__(self):
        super().__init__()
        self.x = self.add_control("x:", QComboBox())
        self.y = self.add_control("y:", QComboBox())
        self.period, self.transient = _period_controls(self)

    def set_results(self, results: Results | None) -> None:
        node = _last_model_node(results) if results is not None else ""
        fill_series(self.x, results, f"node/{node}/ux", axes=True)
        fill_series(self.y, results, f"node/{node}/vx", axes=True)
        super().set_results(results)

    def compute(self):
        return poincare_section(self.results, self.x.currentText(), self.y.currentText(),
                                self.period.value() or None, None, self.transient.value())

    def show_result(self, s) -> str:
        self.plot.addItem(pg.PlotDataItem(s.portrait_x, s.portrait_y, pen=pg.mkPen("#9ab8d8"), name="phase portrait"))
        self.plot.addItem(pg.ScatterPlotItem(s.xs, s.ys, size=8, brush=pg.mkBrush(POINTS), pen=None, name="sections"))
        self.plot.setLabel("bottom", s.x.title)
        self.plot.setLabel("left", s.y.title)
        return (f"{len(s.times)} sections every {s.period:.6g} s; spread {s.spread[0]:.4g} {s.x.unit} in x, "
                f"{s.spread[1]:.4g} {s.y.unit} in y")

    def write_png(self, path: str) -> None:
        write_poincare_png(self.result, path)

    def write_csv(self, path: str) -> None:
        write_poincare_csv(self.result, path)


class SpectrumTab(_Tab):
    """The amplitude spectrum of a series with the driver's harmonics."""

    name = "spectrum"

    def __init__(self):
        super().__init__()
        self.series = self.add_control("Series:", QComboBox())
        self.window = self.add_control("Window:", QComboBox())
        self.window.addItems(WINDOWS)
        self.start = self.add_control("From (s):", QDoubleSpinBox(decimals=6, maximum=1e6))
        self.plot.setLabel("bottom", "frequency", "Hz")

    def set_results(self, results: Results | None) -> None:
        drivers = results.layout.drivers if results is not None else []
        fill_series(self.series, results, f"driver/{drivers[0]}/reaction" if drivers else "")
        super().set_results(results)

    def compute(self):
        return series_spectrum(self.results, self.series.currentText(), self.window.currentText(),
                               start=self.start.value() or None)

    def show_result(self, s) -> str:
        fmax = SHOWN_HARMONICS * s.harmonics[0] if len(s.harmonics) else float(s.frequency[-1])
        shown = s.frequency <= fmax
        for f in s.harmonics[s.harmonics <= fmax]:
            self.plot.addItem(pg.InfiniteLine(f, pen=pg.mkPen(MARK, style=pg.QtCore.Qt.PenStyle.DashLine)))
        self.plot.addItem(pg.PlotDataItem(s.frequency[shown], s.amplitude[shown], pen=pg.mkPen(CURVE, width=2),
                                          name=f"amplitude ({s.unit})"))
        self.plot.setLabel("left", "amplitude", s.unit)
        return (f"{s.samples} samples {s.dt:.4g} s apart, bins of {s.resolution:.4g} Hz; peak {s.peak[1]:.4g} "
                f"{s.unit} at {s.peak[0]:.4g} Hz" + (f"; dashed: harmonics of {s.driver}" if s.driver else ""))

    def write_png(self, path: str) -> None:
        write_spectrum_png(self.result, path)

    def write_csv(self, path: str) -> None:
        write_spectrum_csv(self.result, path)


class BifurcationTab(_Tab):
    """Poincaré samples of a series of each run of a sweep folder against its swept field."""

    name = "bifurcation diagram"

    def __init__(self):
        super().__init__()
        self.folder = self.add_control("Sweep folder:", QLineEdit())
        self.folder.setPlaceholderText("a sweep run with keep results")
        browse = QPushButton("…")
        browse.clicked.connect(self._browse)
        self.controls.addWidget(browse)
        self.series = self.add_control("Series:", QLineEdit())
        self.series.setPlaceholderText("node/B/vx")
        self.field = self.add_control("Field:", QComboBox(), 1)
        self.period, self.transient = _period_controls(self)
        self.folder.textChanged.connect(lambda _t: self.set_folder(self.folder.text()))

    def ready(self) -> bool:
        folder = getattr(self, "folder", None)  # None while the base class builds the tab
        return folder is not None and bool(folder.text())

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Sweep folder")
        if folder:
            self.folder.setText(folder)

    def set_folder(self, folder: str) -> None:
        """The sweep folder analysed: its varied fields to choose from."""
        if self.folder.text() != folder:
            self.folder.setText(folder)  # comes back here through textChanged
            return
        self.field.clear()
        try:
            found = read_sweep(folder) if folder else None
        except PROBLEMS:
            found = None
        if found is not None:
            self.field.addItems(list(found[1].paths))
        self._enable()

    def compute(self):
        if not self.series.text().strip():
            raise AnalysisError("Series: name the series sampled (node/B/vx, driver/motor/reaction...)")
        return sweep_bifurcation(self.folder.text(), self.series.text().strip(), self.field.currentText() or None,
                                 self.transient.value(), self.period.value() or None)

    def show_result(self, b) -> str:
        self.plot.addItem(pg.ScatterPlotItem(b.x, b.values, size=4, pen=None, brush=pg.mkBrush(CURVE),
                                             name="Poincaré samples"))
        self.plot.setLabel("bottom", b.field, b.field_unit if b.field_unit != "-" else None)
        self.plot.setLabel("left", b.key, b.unit if b.unit not in ("", "-") else None)
        return f"{len(b.values)} samples from {len(set(b.runs))} runs" + "".join(f"; {s}" for s in b.skipped[:3])

    def write_png(self, path: str) -> None:
        write_bifurcation_png(self.result, path)

    def write_csv(self, path: str) -> None:
        write_bifurcation_csv(self.result, path)


class _TwinRun(QThread):
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


class LyapunovTab(_Tab):
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
        self._thread: _TwinRun | None = None
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
            self.path.setText(f"joints[{joints[0]}].offset.x")
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
        self._thread = _TwinRun(model)
        self._enable()
        self._thread.ended.connect(self._on_twin)
        self._thread.start()
        return None

    def wait_for_twin(self) -> None:
        """Stop a twin's run under way and wait for it (the window closes: its thread must not outlive it;
        waiting for the whole twin froze the window for as long as the run it perturbs)."""
        if self._thread is not None:
            self._thread.stop()
            self._thread.wait()

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


class AnalysisView(QTabWidget):
    """The five analysis tabs, fed the window's run (:meth:`set_results`) and a sweep folder."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.orbit, self.poincare, self.spectrum = OrbitTab(), PoincareTab(), SpectrumTab()
        self.bifurcation, self.lyapunov = BifurcationTab(), LyapunovTab()
        for tab, title in ((self.orbit, "Journal orbit"), (self.poincare, "Poincaré section"),
                           (self.spectrum, "Spectrum"), (self.bifurcation, "Bifurcation"),
                           (self.lyapunov, "Lyapunov exponent")):
            self.addTab(tab, title)

    def set_results(self, results: Results | None) -> None:
        for tab in (self.orbit, self.poincare, self.spectrum, self.lyapunov):
            tab.set_results(results)
