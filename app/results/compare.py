"""Compare runs: the same series of several runs overlaid in one plot, labelled by run
(for example the bar-mass impact at μ = 0.7 against μ = 0.95, or with its contact resolved by
momentum balance and by Lagrange multipliers)."""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from solver.results.frames import Results
from solver.results.impulse_instants import event_time_axis, impulse_instants

from .series import catalogue, presets, series_xy, x_axes
from ..canvas.axes import axis_label
from .stems import Stems
from .combos import narrow_combo
from .plots import COLOURS, PlottedSeries


def run_label(number: int, name: str, results: Results, when: str) -> str:
    """``"2: Bar struck by a rigid mass (lagrange), 14:05:31"``: the run's number, its model's name
    (or file), the contact models of its pairs other than the default momentum balance and the
    time it ended, so that runs of one model with its pairs switched between the models, or of
    two untitled models, tell apart in the legend."""
    kinds = sorted({pair.get("model", {}).get("kind", "impulse") for pair in results.model.get("contacts", [])}
                   - {"impulse"})
    return f"{number}: {name}" + (f" ({', '.join(kinds)})" if kinds else "") + f", {when}"


def mechanism(results: Results) -> tuple:
    """What makes two runs runs of one model: its name and the ids of its nodes, links and bodies
    (its parameters may differ: that is what runs are compared for)."""
    model = results.model
    return (model.get("name", ""),) + tuple(tuple(sorted(item["id"] for item in model.get(collection, [])))
                                            for collection in ("nodes", "links", "bodies"))


def compare_series(runs: list[tuple[str, Results]], x_key: str, y_key: str) -> list[PlottedSeries]:
    """``y_key`` against ``x_key`` for each ``(label, results)`` run that has both; against time, the
    impulses a pair logs at their events' instants (:mod:`solver.results.impulse_instants`), not a
    frame's sum at its later time."""
    out = []
    for label, results in runs:
        axes, series = x_axes(results), catalogue(results)
        if x_key in axes and y_key in series:
            instants = impulse_instants(results.events, y_key) if x_key == "time" else None
            x, y = instants if instants is not None else series_xy(results.frames, axes[x_key], series[y_key])
            x_series = axes[x_key] if instants is None else event_time_axis(axes[x_key])
            out.append(PlottedSeries(f"{label}: {series[y_key].title}", x_series, series[y_key], x, y, label))
    return out


def common_keys(runs: list[tuple[str, Results]]) -> tuple[list[str], list[str]]:
    """Abscissa keys and series keys every run offers, in the first run's order."""
    if not runs:
        return [], []
    axes = [set(x_axes(r)) for _, r in runs]
    series = [set(catalogue(r)) for _, r in runs]
    first = runs[0][1]
    return ([k for k in x_axes(first) if all(k in a for a in axes)],
            [k for k in catalogue(first) if all(k in s for s in series)])


class CompareView(QWidget):
    """One plot overlaying a series of several runs, a curve per run in its legend.

    Slots
    -----
    set_runs(runs)
        ``[(label, results), ...]``; offers the series and abscissae all runs share and
        keeps the chosen ones where it can (else the first run's default preset's first).
    set_series(key), set_x_axis(key)
        Choose what is compared.

    :meth:`plotted` returns the drawn curves (``PlottedSeries.run`` is the run's label),
    ready for :func:`app.results.export.write_series_csv`.
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.runs: list[tuple[str, Results]] = []
        self._curves: list[PlottedSeries] = []
        self.series_combo = narrow_combo()
        self.x_combo = narrow_combo()
        self.series_combo.activated.connect(lambda _: self._redraw())
        self.x_combo.activated.connect(lambda _: self._redraw())
        self.plot = pg.PlotWidget(background="w")
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.plot.addLegend(offset=(-10, 10), brush=(255, 255, 255, 200))  # readable over the curves
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Series:"))
        bar.addWidget(self.series_combo, 2)
        bar.addWidget(QLabel("x:"))
        bar.addWidget(self.x_combo, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(bar)
        #: a warning when the runs compared are of different models
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #a04000")
        self.note.hide()
        layout.addWidget(self.note)
        layout.addWidget(self.plot, 1)

    def set_runs(self, runs: list[tuple[str, Results]]) -> None:
        chosen_y, chosen_x = self.series_combo.currentData(), self.x_combo.currentData()
        self.runs = list(runs)
        models = {mechanism(results) for _label, results in self.runs}
        self.note.setText("These runs are of different models: compare them with care." if len(models) > 1 else "")
        self.note.setVisible(len(models) > 1)
        x_keys, y_keys = common_keys(self.runs)
        if chosen_y not in y_keys and self.runs:
            first_panel = next(iter(presets(self.runs[0][1]).values()))[0]
            chosen_x, chosen_y = first_panel.x, first_panel.series[0]
        self._fill(self.x_combo, x_keys, x_axes(self.runs[0][1]) if self.runs else {}, chosen_x)
        self._fill(self.series_combo, y_keys, catalogue(self.runs[0][1]) if self.runs else {}, chosen_y)
        self._redraw()

    def set_series(self, key: str) -> None:
        self.series_combo.setCurrentIndex(self.series_combo.findData(key))
        self._redraw()

    def set_x_axis(self, key: str) -> None:
        self.x_combo.setCurrentIndex(self.x_combo.findData(key))
        self._redraw()

    def plotted(self) -> list[PlottedSeries]:
        return list(self._curves)

    @staticmethod
    def _fill(combo: QComboBox, keys: list[str], series: dict, chosen: str | None) -> None:
        combo.clear()
        for key in keys:
            combo.addItem(series[key].title, key)
        combo.setCurrentIndex(max(combo.findData(chosen), 0))

    def _redraw(self) -> None:
        self.plot.getPlotItem().clear()
        x_key, y_key = self.x_combo.currentData(), self.series_combo.currentData()
        self._curves = compare_series(self.runs, x_key, y_key) if x_key and y_key else []
        spans = {label: results.time for label, results in self.runs}  # a run's stems over its whole span
        for k, curve in enumerate(self._curves):
            pen = pg.mkPen(COLOURS[k % len(COLOURS)], width=1.5)
            if curve.y_series.impulsive:  # impulses at their instants, not a curve through them
                self.plot.addItem(Stems(curve.x, curve.y, pen, curve.run, span=spans[curve.run] if x_key == "time" else None))
            else:
                self.plot.plot(curve.x, curve.y, pen=pen, name=curve.run)
        if self._curves:
            first = self._curves[0]
            axis_label(self.plot.getPlotItem(), "bottom", first.x_series.label, first.x_series.unit)
            axis_label(self.plot.getPlotItem(), "left", first.y_series.label, first.y_series.unit)
        self.plot.getPlotItem().enableAutoRange()
