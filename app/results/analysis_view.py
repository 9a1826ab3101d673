"""The analysis dock: a tab for each of the plots the clearance-joint field reads runs by
— journal orbit, Poincaré section with its phase portrait, amplitude spectrum,
bifurcation diagram of a sweep folder, largest Lyapunov exponent — each computed by
:mod:`solver.analysis` (or :mod:`solver.sweeps.bifurcation`), drawn with pyqtgraph and
exported as the command line's PNG (:mod:`.analysis_images`) and CSV.

The run analysed is the window's (its last run, or results opened); a problem (a run
without a clearance joint, a series it lacks) is shown in the tab, never raised.  Each tab
is an :class:`~.analysis_tab.AnalysisTab`; the Lyapunov tab, which runs a twin of the run in a
thread of its own, is in :mod:`.lyapunov_tab`.
"""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QFileDialog, QLineEdit, QPushButton, QTabWidget, QWidget

from solver.analysis.orbit import clearance_joint_ids, journal_orbit, write_orbit_csv
from solver.analysis.poincare import poincare_section, write_poincare_csv
from solver.analysis.run_series import AnalysisError
from solver.analysis.spectrum import WINDOWS, series_spectrum, write_spectrum_csv
from solver.results.frames import Results
from solver.sweeps import read_sweep
from solver.sweeps.bifurcation import sweep_bifurcation, write_bifurcation_csv

from .analysis_images import (CIRCLE, CURVE, MARK, POINTS, SHOWN_HARMONICS, scale_rgb, write_bifurcation_png,
                              write_orbit_png, write_poincare_png, write_spectrum_png)
from .analysis_tab import PROBLEMS, AnalysisTab, fill_series, period_controls
from .lyapunov_tab import LyapunovTab


def _last_model_node(results: Results) -> str:
    """The default series' node: the model's last (a slider-crank's slider)."""
    nodes = [n.get("id") for n in results.model.get("nodes", []) if isinstance(n, dict)]
    return nodes[-1] if nodes else (results.layout.nodes[0] if results.layout.nodes else "")


class OrbitTab(AnalysisTab):
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


class PoincareTab(AnalysisTab):
    """Two series once per period over their phase portrait."""

    name = "Poincaré section"

    def __init__(self):
        super().__init__()
        self.x = self.add_control("x:", QComboBox())
        self.y = self.add_control("y:", QComboBox())
        self.period, self.transient = period_controls(self)

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


class SpectrumTab(AnalysisTab):
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


class BifurcationTab(AnalysisTab):
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
        self.period, self.transient = period_controls(self)
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
