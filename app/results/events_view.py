"""The impact events panel: a run's event log as a table beside the selected impulse's
Routh diagram."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView, QHeaderView, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from solver.results.frames import Results

from .routh_diagram import RouthDiagram

#: table columns: header, event key (None: computed), number format
COLUMNS = (
    ("time (s)", "time_s", "{:.6g}"),
    ("pair", "contact", "{}"),
    ("event", "kind", "{}"),
    ("type", "type", "{}"),
    ("I_n (N s)", "I_n_N_s", "{:.5g}"),
    ("I_t (N s)", "I_t_N_s", "{:.5g}"),
    ("v_n pre (m/s)", "v_n_pre_m_s", "{:.5g}"),
    ("v_n post (m/s)", "v_n_post_m_s", "{:.5g}"),
    ("v_t pre (m/s)", "v_t_pre_m_s", "{:.5g}"),
    ("v_t post (m/s)", "v_t_post_m_s", "{:.5g}"),
    ("e achieved", "e_achieved", "{:.4g}"),
    ("dissipated (J)", "dissipated_J", "{:.5g}"),
)


def cell_text(event: dict[str, Any], key: str, fmt: str) -> str:
    """``event[key]`` formatted for the table; empty when the event has no such value."""
    value = event.get(key)
    if value is None:
        return ""
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
        Show the events of ``results`` (the selection is cleared).
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
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.diagram = RouthDiagram()
        splitter = QSplitter()
        splitter.addWidget(self.table)
        splitter.addWidget(self.diagram)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

    def set_results(self, results: Results) -> None:
        self.events = list(results.events)
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
        self.diagram.clear_diagram()

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
