"""The impact events panel: a run's event log as a table beside the selected impulse's
Routh diagram (when the panel is narrow, the diagram opens in a window of its own on a
double-click)."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView, QHeaderView, QLabel, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from solver.results.frames import Results

from ..document.units import format_quantity
from .routh_diagram import RouthDiagram

#: table columns: header, event key, number format ("time": with an SI prefix, ``40.62 ms``); the
#: impulse's type (SCS, SRD, normal...) first after the time: what a user reads first, whole in
#: the dock beside the plots after a run (some 215 px, where the fourth column was off its edge)
COLUMNS = (
    ("time", "time_s", "time"),
    ("type", "type", "{}"),
    ("event", "kind", "{}"),
    ("pair", "contact", "{}"),
    ("I_n (N s)", "I_n_N_s", "{:.5g}"),
    ("I_t (N s)", "I_t_N_s", "{:.5g}"),
    ("v_n pre (m/s)", "v_n_pre_m_s", "{:.5g}"),
    ("v_n post (m/s)", "v_n_post_m_s", "{:.5g}"),
    ("v_t pre (m/s)", "v_t_pre_m_s", "{:.5g}"),
    ("v_t post (m/s)", "v_t_post_m_s", "{:.5g}"),
    ("e achieved", "e_achieved", "{:.4g}"),
    ("dissipated (J)", "dissipated_J", "{:.5g}"),
)


#: width from which the Routh diagram stands beside the table (else it opens on a double-click), px
SIDE_BY_SIDE_WIDTH = 640


#: the "e achieved" of an onset jump (Lagrange and rolling pairs): what the model did, not a restitution
ONSET_E_ACHIEVED = "0: plastic onset"


def cell_text(event: dict[str, Any], key: str, fmt: str) -> str:
    """``event[key]`` formatted for the table; empty when the event has no such value; an
    onset jump's restitution says that it is the model's plastic onset (:data:`ONSET_E_ACHIEVED`)."""
    value = event.get(key)
    if value is None:
        return ""
    if key == "e_achieved" and event.get("onset"):
        return ONSET_E_ACHIEVED
    if isinstance(value, float):
        value += 0.0  # -0.0 (a frictionless tangential impulse) shows as 0
    if fmt == "time":
        return format_quantity(float(value), "s", 6)
    try:
        return fmt.format(value)
    except (TypeError, ValueError):
        return str(value)


class EventsView(QWidget):
    """The event log (one row per event of ``Results.events``, in order) and the Routh
    diagram of the selected impulse.

    Signals
    -------
    time_selected(float)
        The user selected an event row: its time (s), to jump playback there.

    Slots
    -----
    set_results(results)
        Show the events of ``results`` (the selection is cleared); None shows none.
    select_event(row)
        Select row ``row`` as if clicked (emits :attr:`time_selected`).
    """

    time_selected = Signal(float)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.events: list[dict[str, Any]] = []
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels([c[0] for c in COLUMNS])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.diagram = RouthDiagram()
        self.splitter = QSplitter()
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.diagram)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setChildrenCollapsible(False)
        self.hint = QLabel("Double-click an impulse for its Routh diagram (or widen this panel)")
        self.hint.setWordWrap(True)
        self.hint.hide()
        self.diagram_window: RouthDiagram | None = None
        self.table.cellDoubleClicked.connect(lambda row, _column: self.open_diagram(row))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.hint)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        """The diagram beside the table when there is room (:data:`SIDE_BY_SIDE_WIDTH`);
        else the table alone (its essential columns readable), and a double-click on
        an impulse opens its diagram in a window of its own."""
        wide = event.size().width() >= SIDE_BY_SIDE_WIDTH
        self.diagram.setVisible(wide)
        self.hint.setVisible(not wide)
        super().resizeEvent(event)

    def open_diagram(self, row: int) -> RouthDiagram:
        """The diagram of event ``row`` in a window of its own (one window, reused)."""
        if self.diagram_window is None:
            self.diagram_window = RouthDiagram()
            self.diagram_window.setParent(self, Qt.WindowType.Window)
            self.diagram_window.resize(560, 420)
            self.diagram_window.setWindowTitle("Routh diagram")
        self.diagram_window.show_event(self.events[row])
        self.diagram_window.show()
        self.diagram_window.raise_()
        return self.diagram_window

    def set_results(self, results: Results | None) -> None:
        """Show the events of ``results`` (None: none, another model was opened)."""
        self.events = list(results.events) if results is not None else []
        self.table.blockSignals(True)
        self.table.clearSelection()
        header = self.table.horizontalHeader()
        # sized to the contents once at the end: per item, the header rescans every row
        # (a few hundred events took 30-40 s in a shown window)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.setRowCount(len(self.events))
        for row, event in enumerate(self.events):
            for col, (_, key, fmt) in enumerate(COLUMNS):
                item = QTableWidgetItem(cell_text(event, key, fmt))
                if key not in ("contact", "kind", "type"):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, col, item)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.blockSignals(False)
        for diagram in (self.diagram, self.diagram_window):  # no impulse of other results stays drawn
            if diagram is not None:
                diagram.clear_diagram()

    def select_event(self, row: int) -> None:
        self.table.selectRow(row)

    def row_texts(self, row: int) -> list[str]:
        """The cells of table row ``row`` as shown."""
        return [self.table.item(row, col).text() for col in range(self.table.columnCount())]

    def _selection_changed(self) -> None:
        rows = {index.row() for index in self.table.selectedIndexes()}
        if not rows:
            self.diagram.clear_diagram()
            return
        event = self.events[rows.pop()]
        self.diagram.show_event(event)
        self.time_selected.emit(float(event["time_s"]))
