"""One pyqtgraph plot of a run's series, with a time cursor shared with playback.

:class:`PlotPanel` is one plot: a series tree (:mod:`.series_tree`: checkable, grouped, filterable,
long names elided so that they can be told apart, widened by its splitter), an abscissa chooser (time or a driver's
value), the curves (impulses as stems, :mod:`.stems`; a second unit on a right-hand axis,
:mod:`.right_axis`, a third refused with a note), a movable vertical time
cursor, a readout of every curve's value at the cursor, and overlays
(:mod:`.overlays`): the references its dock offers, drawn over the series they name,
and any CSV file the user loads (:mod:`.csv_menu`), against the abscissa its header names.  It takes a :class:`~solver.results.frames.Results`
(possibly partial) and grows with :meth:`append_frames` while a run is going.
:class:`~app.results.plots_dock.PlotsDock` stacks panels.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGraphicsItem, QHBoxLayout, QLabel, QLineEdit, QSizePolicy, QSplitter, QToolButton, QTreeWidgetItem, QVBoxLayout,
    QWidget,
)

from solver.results.frames import Frame, Results, frame_times
from solver.results.impulse_instants import acting_at, event_time_axis, impulse_at, snapped_time

from ..document.units import format_quantity
from ..canvas.axes import axis_label
from .combos import narrow_combo
from .csv_menu import CsvOverlays
from .legend_fit import fit_legend
from .legend_room import LEGEND_OFFSET, drawn_polylines, item_polylines, place_legend
from .overlays import Overlay, OverlayLayer
from .right_axis import RightAxis
from .series import Series, catalogue, series_xy, x_axes
from .series_tree import KEY_ROLE, SeriesTree
from .stems import LoggedImpulses, Stems

#: pen colours of successive curves in a plot
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")

#: the first width of the series list, px (the splitter beside it widens it)
SERIES_LIST_WIDTH = 170
#: the narrowest the series list gets when the panel narrows, px
SERIES_LIST_MINIMUM = 160
#: the units one plot shows at most: one on the left axis, one on the right
MAX_UNITS = 2


class PlottedSeries(NamedTuple):
    """One drawn curve: its label, abscissa and ordinate series and arrays, and the
    run it belongs to when several runs are compared (empty otherwise)."""

    label: str
    x_series: Series
    y_series: Series
    x: np.ndarray
    y: np.ndarray
    run: str = ""

    @property
    def column(self) -> str:
        """CSV column name of ``y``: the series' column, after the run's name if any."""
        return f"{self.run}: {self.y_series.column}" if self.run else self.y_series.column


def frame_index_at(times: np.ndarray, t: float) -> int:
    """Index of the last frame at or before ``t`` (the first frame before the start):
    after an impulse, frames sharing its time show the state after it."""
    return max(int(np.searchsorted(times, t, side="right")) - 1, 0)


class PlotPanel(QWidget):
    """One plot of chosen series against time or a driver's value.

    Signals
    -------
    time_scrubbed(float)
        The user dragged the time cursor; carries the time (s) of the frame, or of the impulse
        drawn at its instant, under it (:func:`~solver.results.impulse_instants.snapped_time`).
    remove_requested()
        The user pressed the panel's close button.

    Slots
    -----
    set_results(results), append_frames(frames), set_time(t), set_x_axis(key),
    set_series(keys), autoscale().
    """

    time_scrubbed = Signal(float)
    remove_requested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._results: Results | None = None
        self._logged = LoggedImpulses()  # the impulses of the run's event log at their instants
        self._frames: list[Frame] = []
        self._series: dict[str, Series] = {}
        self._axes: dict[str, Series] = {}
        self._x_key = "time"
        self._times = np.empty(0)
        self._curves: dict[str, tuple[pg.PlotDataItem, np.ndarray, np.ndarray]] = {}
        self._units: tuple[str, ...] = ()  # the left axis's unit, then the right's
        self._time = 0.0
        self._overlays: list[Overlay] = []   # the dock's references
        self._follow = True  # the view follows the curves (until the user pans or zooms)

        self.x_combo = narrow_combo()
        self.x_combo.setToolTip("Abscissa")
        self.x_combo.currentIndexChanged.connect(lambda _: self.set_x_axis(self.x_combo.currentData()))
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("filter series")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(lambda text: self.tree.filter(text))
        autoscale = QToolButton(text="Autoscale")
        autoscale.clicked.connect(self.autoscale)
        close = QToolButton(text="✕")
        close.setToolTip("Remove this plot")
        close.clicked.connect(self.remove_requested)
        self.csv = CsvOverlays(self, self._draw_overlays)  # CSV files loaded into this panel

        self.tree = SeriesTree()
        self.tree.itemChanged.connect(self._item_changed)

        self.plot = pg.PlotWidget(background="w")
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        for side in ("left", "bottom"):
            # the axes paint the grid over the whole view: cache them as pixmaps, or every
            # cursor move replays their grid (5-10 ms a frame instead of 1-2 ms)
            self.plot.getPlotItem().getAxis(side).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.plot.addLegend(offset=(-10, 10), brush=(255, 255, 255, 200))  # readable over the curves
        self.cursor = pg.InfiniteLine(angle=90, movable=True, pen=pg.mkPen("#444", width=1.5),
                                      hoverPen=pg.mkPen("#000", width=3))
        self.cursor.setZValue(10)
        self.plot.addItem(self.cursor, ignoreBounds=True)
        self.cursor.sigDragged.connect(self._cursor_dragged)
        self.plot.setDownsampling(auto=True, mode="peak")   # long runs: keep the impact peaks
        view = self.plot.getPlotItem().getViewBox()
        view.sigResized.connect(self._place_legend)
        view.sigRangeChangedManually.connect(self._stop_following)
        # View All (the plot's menu) and its [A] button fit both axes as Autoscale does
        view.menu.viewAll.triggered.connect(self.autoscale)
        self.plot.getPlotItem().autoBtn.clicked.connect(self.autoscale)
        self.right_axis = RightAxis(self.plot.getPlotItem(), self._stop_following)
        self.overlay_layer = OverlayLayer(self.plot.getPlotItem(), self.right_axis)
        self.unit_note = QLabel()  # why a series of a third unit was not drawn
        self.unit_note.setWordWrap(True)
        self.unit_note.setStyleSheet("color: #a33")
        self.unit_note.hide()
        self.readout = QLabel()
        self.readout.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # a long readout must not widen the dock: it is cut, and whole in its tooltip
        self.readout.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.filter_edit)
        side_layout.addWidget(self.tree)
        main = QWidget()
        main_layout = QVBoxLayout(main)
        main_layout.setContentsMargins(0, 0, 0, 0)
        main_layout.addWidget(self.plot, 1)
        main_layout.addWidget(self.unit_note)
        main_layout.addWidget(self.csv.note)
        main_layout.addWidget(self.readout)
        self.splitter = QSplitter()  # the user drags the list wider
        self.splitter.addWidget(side)
        self.splitter.addWidget(main)
        self.splitter.setStretchFactor(0, 1)  # a wider panel widens the list too, a third as much
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setChildrenCollapsible(False)
        side.setMinimumWidth(SERIES_LIST_MINIMUM)
        self.splitter.setSizes([SERIES_LIST_WIDTH, 520])

        top = QHBoxLayout()
        top.addWidget(QLabel("x:"))
        top.addWidget(self.x_combo, 1)
        top.addWidget(self.csv.button)
        top.addWidget(autoscale)
        top.addWidget(close)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.splitter, 1)

    # ------------------------------------------------------------------ data
    def set_results(self, results: Results) -> None:
        """Show ``results`` (complete or partial), keeping the chosen abscissa and series
        where the new run has them."""
        chosen = self.selected_series()
        self._results, self._logged = results, LoggedImpulses()
        # a copy of a run's list, which append_frames extends; frames read on demand (a folder) or
        # a run's own growing frames (app.running.run_frames) are kept as they are
        self._frames = list(results.frames) if isinstance(results.frames, list) else results.frames
        self._series = catalogue(results)
        self._axes = x_axes(results)
        self._fill_x_combo()
        self.tree.fill(self._series, self.filter_edit.text())
        self._times = frame_times(self._frames)
        self._clear_curves()
        self.set_series([k for k in chosen if k in self._series])

    def append_frames(self, frames: list[Frame]) -> None:
        """Extend every curve by ``frames`` (the next frames of the run being shown)."""
        if self._results is None or not frames:
            return
        first = self._frames[0] if self._frames else frames[0]
        if isinstance(self._frames, list):  # a copy of a partial run's list; a run's own frames grow by themselves
            self._frames.extend(frames)
        self._times = np.concatenate([self._times, [f.time for f in frames]])
        x_series = self._axes[self._x_key]
        for key, (curve, x, y) in self._curves.items():
            dx, dy = series_xy(frames, x_series, self._series[key], first)
            x, y = np.concatenate([x, dx]), np.concatenate([y, dy])
            self._curves[key] = (curve, x, y)
            _draw(curve, x, y, self._drawn(key, x, y))
        self._place_legend()
        self.set_time(self._time)

    def set_x_axis(self, key: str) -> None:
        """Plot against ``key`` (``time`` or ``driver/<id>/value``)."""
        if key is None or key == self._x_key or key not in self._axes:
            return
        self._x_key = key
        self.x_combo.setCurrentIndex(self.x_combo.findData(key))
        keys = self.selected_series()
        self._clear_curves()
        self.set_series(keys)

    def set_series(self, keys) -> None:
        """Draw exactly the series ``keys`` (in this order); unknown keys are ignored.

        The first unit is read on the left axis, a second on the right; a series of a third
        unit is not drawn, and a note under the plot says so."""
        keys = [k for k in keys if k in self._series]
        units = tuple(dict.fromkeys(self._series[k].unit for k in keys))
        refused = [k for k in keys if self._series[k].unit not in units[:MAX_UNITS]]
        keys = [k for k in keys if k not in refused]
        if units[:MAX_UNITS] != self._units:  # a curve may change sides: draw them again
            self._clear_curves()
            self._units = units[:MAX_UNITS]
        for key in [k for k in self._curves if k not in keys]:
            self._remove_curve(key)
        for key in keys:
            if key not in self._curves:
                self._add_curve(key)
        self.tree.check(keys)
        self._label_axes()
        self._note_refused(refused)
        self._draw_overlays()
        self._place_legend()
        self.set_time(self._time)

    def _label_axes(self) -> None:
        x_series = self._axes.get(self._x_key)
        plot = self.plot.getPlotItem()
        axis_label(plot, "bottom", *((x_series.label, x_series.unit) if x_series else ("", "-")))
        axis_label(plot, "left", "", self._units[0] if self._units else "-")
        if len(self._units) > 1:
            axis_label(plot, "right", "", self._units[1])

    def _note_refused(self, refused: list[str]) -> None:
        names = ", ".join(self._series[k].title for k in refused)
        self.unit_note.setText(f"Not drawn: {names}. A plot shows two units, {' and '.join(self._units)}: "
                               "add a plot (Add plot) for a third." if refused else "")
        self.unit_note.setVisible(bool(refused))

    def axis_units(self) -> tuple[str, ...]:
        """The units of the left axis and, when shown, of the right."""
        return self._units

    def curve_item(self, key: str) -> pg.PlotDataItem:
        """The item drawing series ``key``: a curve, or :class:`~app.results.stems.Stems` for impulses."""
        return self._curves[key][0]

    def selected_series(self) -> list[str]:
        """Keys of the drawn series, in drawing order."""
        return list(self._curves)

    def plotted(self) -> list[PlottedSeries]:
        """The drawn curves' data (copies): logged impulses at their instants, against event time."""
        x_series = self._axes.get(self._x_key)
        return [PlottedSeries(self._series[k].title, x_series if self._instants(k) is None else event_time_axis(x_series),
                              self._series[k], *(a.copy() for a in self._drawn(k, x, y)))
                for k, (_, x, y) in self._curves.items()]

    def _instants(self, key: str) -> tuple[np.ndarray, np.ndarray] | None:
        """The impulses of stems ``key`` at their events' instants against time (None: at the frames)."""
        if self._x_key != "time" or not self._series[key].impulsive or self._results is None:
            return None
        return self._logged.of(self._results.events, key, self._times[-1] if len(self._times) else -np.inf)

    def _drawn(self, key: str, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """What curve ``key`` of frame arrays ``x``, ``y`` draws: logged impulses at their instants, not a frame's sum."""
        return self._instants(key) or (x, y)

    # ------------------------------------------------------------ overlays
    def set_overlays(self, overlays: list[Overlay]) -> None:
        """The reference overlays offered to this plot (drawn on the series they name)."""
        self._overlays = list(overlays)
        self._draw_overlays()

    def overlaid(self) -> list[Overlay]:
        """The overlays drawn on this plot now."""
        return self.overlay_layer.drawn()

    def _draw_overlays(self) -> None:
        axis = self._axes.get(self._x_key)
        sides: tuple[dict[str, str], dict[str, str]] = ({}, {})
        for k in self._curves:
            series = self._series[k]
            sides[series.unit != self._units[0]][series.reference_column] = series.label
        self.overlay_layer.show(self._overlays + self.csv.aligned(axis), axis.column if axis else "time_s", *sides)

    def autoscale(self, *_signal_args) -> None:
        """Fit both axes to the curves (and keep following them as they grow): Autoscale, View All."""
        self.plot.getPlotItem().enableAutoRange()
        self.right_axis.autoscale()
        self._follow = True
        self._place_legend()

    def _stop_following(self, *_signal_args) -> None:
        """The user panned or zoomed (the plot or one axis): both axes stay where they are left, as the
        data grows, until Autoscale or View All."""
        self._follow = False

    def _place_legend(self) -> None:
        """While the view follows the curves: the legend in the corner where it hides the fewest
        points of the curves (those of the right axis too), the view widened on its side just enough to clear them
        (at the default dock size no corner is free: it hid the impulses at mid-run, Getting Started)."""
        plot = self.plot.getPlotItem()
        if self._follow:
            right = (self.right_axis.view, item_polylines(self.right_axis.items)) if self.right_axis.items else None
            place_legend(plot, drawn_polylines(plot), right)
        elif plot.legend is not None:  # where the user left the view: the legend still fits the plot
            fit_legend(plot.legend, plot.getViewBox().boundingRect().width() - 2 * LEGEND_OFFSET)

    def _add_curve(self, key: str) -> None:
        series = self._series[key]
        x, y = series_xy(self._frames, self._axes[self._x_key], series)
        pen = pg.mkPen(COLOURS[len(self._curves) % len(COLOURS)], width=1)
        curve = (Stems(*self._drawn(key, x, y), pen, series.title, span=x) if series.impulsive
                 else pg.PlotDataItem(x, y, pen=pen, name=series.title))
        if series.unit == self._units[0]:
            self.plot.addItem(curve)
        else:
            self.right_axis.add(curve, series.title)
        self._curves[key] = (curve, x, y)

    def _remove_curve(self, key: str) -> None:
        curve = self._curves.pop(key)[0]
        if curve in self.right_axis.items:
            self.right_axis.remove(curve)
        else:
            self.plot.removeItem(curve)

    def _clear_curves(self) -> None:
        for key in list(self._curves):
            self._remove_curve(key)

    # ---------------------------------------------------------------- cursor
    def set_time(self, t: float) -> None:
        """Move the time cursor to time ``t`` (s) and update the readout."""
        self._time = float(t)
        if not len(self._times):
            self.readout.setText("")
            return
        i = frame_index_at(self._times, t)
        x = t if self._x_key == "time" else self._axes[self._x_key].value(self._frames[i])
        self.cursor.blockSignals(True)
        self.cursor.setValue(x)
        self.cursor.blockSignals(False)
        self._show_readout(i, self._time)

    def values_at(self, t: float) -> dict[str, float]:
        """Every drawn series' value at time ``t``: the frame's :func:`frame_index_at` picks, and a
        pair's logged impulses those acting at ``t`` (0 between its events)."""
        if not len(self._times):
            return {}
        i = frame_index_at(self._times, t)
        return {k: self._value(k, y, i, t) for k, (_, _, y) in self._curves.items()}

    def _value(self, key: str, y: np.ndarray, i: int, t: float) -> float:
        instants = self._instants(key)
        return float(y[i]) if instants is None else impulse_at(instants, t)

    def _show_readout(self, i: int, t: float) -> None:
        text = self._readout(i, t)
        self.readout.setText(text)
        self.readout.setToolTip(text)

    def _readout(self, i: int, t: float) -> str:
        """Frame ``i``'s time and values; at the instant ``t`` of a drawn impulse, that time, the
        frame's named beside it, and the impulses acting at ``t``; impulses a frame sums, the frame
        before it (``1.44158 N s since 150 ms``)."""
        at_event = any(acting_at(stems, t).any() for stems in map(self._instants, self._curves) if stems is not None)
        parts = [f"t = {format_quantity(t if at_event else self._times[i], 's', 6)}"]
        parts += [f"(frame at {format_quantity(self._times[i], 's', 6)})"] if at_event else []
        if self._x_key != "time":
            x_series = self._axes[self._x_key]
            parts.append(f"{x_series.label} = {format_quantity(x_series.value(self._frames[i]), x_series.unit, 6)}")
        parts += [f"{self._series[k].label} = {format_quantity(self._value(k, y, i, t), self._series[k].unit, 6)}"
                  + self._since(k, y, i) for k, (_, _, y) in self._curves.items()]
        return "   ".join(parts)

    def _since(self, key: str, y: np.ndarray, i: int) -> str:
        """After the impulses a frame sums (stems at the frames: a run going on, a compliant pair),
        the frame they are summed since: they did not act at frame ``i``'s time."""
        if not self._series[key].impulsive or self._instants(key) is not None or i == 0 or y[i] == 0:
            return ""
        return f" since {format_quantity(self._times[i - 1], 's', 6)}"

    def _cursor_dragged(self) -> None:
        if not len(self._times):
            return
        pos = self.cursor.value()
        if self._x_key == "time":  # onto a frame, or onto a stem drawn at its impulse's instant
            stems = [s[0] for s in map(self._instants, self._curves) if s is not None]
            self._time = snapped_time(self._times, np.concatenate(stems) if stems else np.empty(0), pos)
            i = frame_index_at(self._times, self._time)
        else:
            x, _ = series_xy(self._frames, self._axes[self._x_key], self._axes[self._x_key])
            i = int(np.nanargmin(np.abs(x - pos)))
            self._time = float(self._times[i])
        self._show_readout(i, self._time)
        self.time_scrubbed.emit(self._time)

    # ------------------------------------------------------------- widgets
    def _fill_x_combo(self) -> None:
        self.x_combo.blockSignals(True)
        self.x_combo.clear()
        for key, series in self._axes.items():
            self.x_combo.addItem(series.title, key)
        if self._x_key not in self._axes:
            self._x_key = "time"
        self.x_combo.setCurrentIndex(self.x_combo.findData(self._x_key))
        self.x_combo.blockSignals(False)

    def series_item(self, key: str) -> QTreeWidgetItem | None:
        """The tree item of series ``key`` (for tests and keyboard navigation)."""
        return self.tree.item(key)

    def _item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        key = item.data(0, KEY_ROLE)
        if key is None:
            return
        keys = self.selected_series()
        if item.checkState(0) == Qt.CheckState.Checked and key not in keys:
            keys.append(key)
        elif item.checkState(0) == Qt.CheckState.Unchecked and key in keys:
            keys.remove(key)
        self.set_series(keys)


def _draw(curve: pg.PlotDataItem, x: np.ndarray, y: np.ndarray, drawn: tuple[np.ndarray, np.ndarray]) -> None:
    """Give a drawn series its (grown) frame arrays: stems for impulses at ``drawn`` (over the frames' span), else a curve."""
    if isinstance(curve, Stems):
        curve.set_values(*drawn, span=x)
    else:
        curve.setData(x, y)
