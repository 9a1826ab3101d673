"""The frame of an analysis dock's tab: controls, Draw, the PNG and CSV exports, a message
line and a plot (:class:`AnalysisTab`), and the controls several tabs share.

A tab computes its analysis from the window's run (:meth:`AnalysisTab.compute`) and shows it
(:meth:`AnalysisTab.show_result`); a problem (:data:`PROBLEMS`) is shown in the tab, never raised.
"""
from __future__ import annotations

import html

import pyqtgraph as pg
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFileDialog, QHBoxLayout, QLabel, QPushButton, QSpinBox,
                               QVBoxLayout, QWidget)

from solver.analysis.run_series import AnalysisError
from solver.errors import ResultsFormatError, SolverError
from solver.results.frames import Results
from solver.results.series import catalogue, x_axes

#: the problems a tab shows instead of a plot
PROBLEMS = (AnalysisError, ResultsFormatError, SolverError, OSError)


class AnalysisTab(QWidget):
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


def period_controls(tab: AnalysisTab) -> tuple[QDoubleSpinBox, QSpinBox]:
    """A Poincaré sampling's period and transient, on the tab's second row of controls."""
    period = tab.add_control("Period (s, 0: a turn of the driver):", QDoubleSpinBox(decimals=6, maximum=1e6), 1)
    transient = tab.add_control("Transient (periods):", QSpinBox(maximum=100000), 1)
    tab.more_controls.addStretch(1)
    return period, transient
