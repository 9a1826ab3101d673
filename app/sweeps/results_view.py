"""A sweep's results: its table (one row per run, sortable) and a plot of any scalar
against any varied field, the points coloured by a second column.  Clicking a point
(or double-clicking a row) asks for that run to be opened for playback
(``run_chosen``)."""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)

from solver.sweeps.scalars import column_unit

from ..canvas.axes import axis_label

#: colour map of the points' second parameter
COLOUR_MAP = "viridis"
#: colour of the points when none is chosen
PLAIN = "#1f77b4"
NONE = "(none)"
RUN_ROLE = Qt.ItemDataRole.UserRole


class SweepResultsView(QWidget):
    """The table and plot of one sweep; :meth:`set_rows` shows a sweep's rows."""

    #: the id of the run the user picked
    run_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.rows: list[dict] = []
        self.parameters: list[str] = []
        self.table = QTableWidget()
        self.table.setSortingEnabled(True)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.cellDoubleClicked.connect(lambda row, _col: self._chose_row(row))
        self.y_combo, self.x_combo, self.colour_combo = QComboBox(), QComboBox(), QComboBox()
        for combo in (self.y_combo, self.x_combo, self.colour_combo):
            combo.currentIndexChanged.connect(lambda _i: self.redraw())
        self.plot = pg.PlotWidget(background="w")
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.scatter = pg.ScatterPlotItem(size=10, hoverable=True, tip=self._tip)
        self.scatter.sigClicked.connect(self._clicked)
        self.plot.addItem(self.scatter)
        self.colour_note = QLabel()

        controls = QHBoxLayout()
        for text, combo in (("Plot", self.y_combo), ("against", self.x_combo), ("colour by", self.colour_combo)):
            controls.addWidget(QLabel(text))
            controls.addWidget(combo, 1)
        plot_side = QWidget()
        plot_layout = QVBoxLayout(plot_side)
        plot_layout.setContentsMargins(0, 0, 0, 0)
        plot_layout.addLayout(controls)
        plot_layout.addWidget(self.plot, 1)
        plot_layout.addWidget(self.colour_note)
        splitter = QSplitter()
        splitter.addWidget(self.table)
        splitter.addWidget(plot_side)
        splitter.setSizes([450, 550])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(splitter)

    # ------------------------------------------------------------------ data
    def set_rows(self, rows: list[dict], parameters: list[str]) -> None:
        """Show ``rows`` (the sweep table) whose varied fields are ``parameters``."""
        self.rows = list(rows)
        self.parameters = [p for p in parameters if any(p in r for r in rows)]
        columns = list(dict.fromkeys(k for row in rows for k in row))
        self.table.setSortingEnabled(False)
        self.table.clear()
        self.table.setColumnCount(len(columns))
        self.table.setRowCount(len(rows))
        self.table.setHorizontalHeaderLabels(columns)
        for i, row in enumerate(rows):
            for j, name in enumerate(columns):
                item = _cell(row.get(name))
                item.setData(RUN_ROLE, row["run"])
                self.table.setItem(i, j, item)
        self.table.setSortingEnabled(True)
        numeric = [c for c in columns if c != "run" and any(_is_number(r.get(c)) for r in rows)]
        scalars = [c for c in numeric if c not in self.parameters]
        self._fill(self.y_combo, scalars, _default_scalar(scalars))
        self._fill(self.x_combo, self.parameters, self.parameters[0] if self.parameters else None)
        self._fill(self.colour_combo, [NONE, *self.parameters, *scalars],
                   self.parameters[1] if len(self.parameters) > 1 else NONE)
        self.redraw()

    def _fill(self, combo: QComboBox, names: list[str], choice: str | None) -> None:
        current = combo.currentText()
        combo.blockSignals(True)
        combo.clear()
        combo.addItems(names)
        combo.setCurrentText(current if current in names else (choice or ""))
        combo.blockSignals(False)

    def redraw(self) -> None:
        """Draw the chosen scalar against the chosen field, coloured by the third choice."""
        y_name, x_name, c_name = self.y_combo.currentText(), self.x_combo.currentText(), self.colour_combo.currentText()
        shown = [r for r in self.rows if _is_number(r.get(x_name)) and _is_number(r.get(y_name))]
        axis_label(self.plot.getPlotItem(), "bottom", x_name, column_unit(x_name))
        axis_label(self.plot.getPlotItem(), "left", y_name, column_unit(y_name))
        if not shown:
            self.scatter.setData([])
            self.colour_note.setText("No completed run has both columns.")
            return
        x = np.array([r[x_name] for r in shown], dtype=float)
        y = np.array([r[y_name] for r in shown], dtype=float)
        brushes = [pg.mkBrush(PLAIN)] * len(shown)
        left_out = len(self.rows) - len(shown)  # failed runs, or runs with no such value: said, not hidden
        self.colour_note.setText(f"{left_out} of {len(self.rows)} runs not drawn (no number for both columns)"
                                 if left_out else "")
        lacking = [r["run"] for r in shown if not _is_number(r.get(c_name))] if c_name != NONE else []
        if lacking:  # said, not drawn plain as if no colour had been chosen
            self._add_note(f"not coloured: {c_name} is missing in {len(lacking)} of the {len(shown)} runs drawn "
                           f"({', '.join(lacking[:5])}{', …' if len(lacking) > 5 else ''})")
        elif c_name != NONE:
            c = np.array([r[c_name] for r in shown], dtype=float)
            lo, hi = float(c.min()), float(c.max())
            cmap = pg.colormap.get(COLOUR_MAP)
            brushes = [pg.mkBrush(q) for q in cmap.mapToQColor((c - lo) / (hi - lo) if hi > lo else 0.5 * np.ones_like(c))]
            self._add_note(f"colour: {c_name} from {lo:.4g} (purple) to {hi:.4g} (yellow)")
        self.scatter.setData(x=x, y=y, brush=brushes, data=[r["run"] for r in shown], pen=pg.mkPen("k", width=0.5))

    def _add_note(self, text: str) -> None:
        """``text`` under the plot, after what the note says already."""
        self.colour_note.setText("; ".join(t for t in (self.colour_note.text(), text) if t))

    def points(self) -> list[tuple[float, float, str]]:
        """The drawn points: ``(x, y, run id)`` each."""
        return [(p.pos().x(), p.pos().y(), p.data()) for p in self.scatter.points()]

    # ------------------------------------------------------------------ picking
    def _clicked(self, _item, points, _event) -> None:
        if len(points):
            self.run_chosen.emit(points[0].data())

    def _chose_row(self, row: int) -> None:
        item = self.table.item(row, 0)
        if item is not None:
            self.run_chosen.emit(item.data(RUN_ROLE))

    def _tip(self, x: float, y: float, data: str) -> str:
        return f"run {data}\n{self.x_combo.currentText()} = {x:.6g}\n{self.y_combo.currentText()} = {y:.6g}\n(click to open)"


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _default_scalar(scalars: list[str]) -> str | None:
    """The scalar a fresh plot shows: a contact's first normal impulse, else a peak, else the first."""
    for hint in ("first_I_n_N_s", "peak_", "dissipated_"):
        for name in scalars:
            if hint in name:
                return name
    return scalars[0] if scalars else None


def _cell(value) -> QTableWidgetItem:
    """A table cell that sorts numbers as numbers."""
    item = QTableWidgetItem()
    if _is_number(value):
        item.setData(Qt.ItemDataRole.DisplayRole, value)
    else:
        item.setText("" if value is None else str(value))
    return item
