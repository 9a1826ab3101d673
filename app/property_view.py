"""A read-only table of the selected entity's fields: field, value, unit."""
from __future__ import annotations

import html

from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from .entities import EntityRef
from .properties import entity_help, entity_rows

DEFAULT_COLOUR = QColor("#808080")


class PropertyView(QWidget):
    """Shows every field of one entity; fields left at their default are grey and italic."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setContentsMargins(4, 4, 4, 2)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Field", "Value", "Unit"])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.table)
        self.show_entity({}, None)

    def show_entity(self, model: dict, ref: EntityRef | None) -> None:
        """Show the fields of ``ref`` in ``model``; a hint when nothing is selected."""
        rows = entity_rows(model, ref) if ref is not None else []
        if ref is None:
            self.title.setText("<i>Select an entity in the model tree.</i>")
        else:
            self.title.setText(f"<b>{html.escape(str(ref))}</b><br>{html.escape(entity_help(model, ref))}")
        self.table.setRowCount(len(rows))
        italic = QFont(self.table.font())
        italic.setItalic(True)
        for r, row in enumerate(rows):
            cells = [QTableWidgetItem(row.field), QTableWidgetItem(row.value), QTableWidgetItem(row.unit)]
            for c, cell in enumerate(cells):
                tip = row.help + (" -- default" if row.is_default else "")
                cell.setToolTip(tip)
                if row.is_default:
                    cell.setForeground(DEFAULT_COLOUR)
                    cell.setFont(italic)
                self.table.setItem(r, c, cell)
