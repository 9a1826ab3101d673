"""The problems panel: what :func:`app.document.checks.model_problems` finds, one row each.

Errors, warnings and information carry the standard icons; clicking a row whose
path names an entity (or :meth:`ProblemsView.select_row`) emits ``entity_clicked``
so that the window selects it.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QStyle, QTreeWidget, QTreeWidgetItem, QWidget

from ..document.entities import EntityRef
from ..document.checks import entity_of, model_problems

REF_ROLE = Qt.ItemDataRole.UserRole
_ICONS = {
    "error": QStyle.StandardPixmap.SP_MessageBoxCritical,
    "warning": QStyle.StandardPixmap.SP_MessageBoxWarning,
    "info": QStyle.StandardPixmap.SP_MessageBoxInformation,
}


class ProblemsView(QTreeWidget):
    """A flat list of problems: severity, where, what."""

    entity_clicked = Signal(object)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setColumnCount(3)
        self.setHeaderLabels(["", "Where", "Problem"])
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.itemClicked.connect(self._on_item_clicked)

    def show_problems(self, model: dict) -> None:
        """Check ``model`` and list what the checks find (nothing for no model)."""
        self.clear()
        problems = model_problems(model) if model else []
        for problem in problems:
            item = QTreeWidgetItem(self, [problem.severity, problem.path or "model", problem.message])
            item.setIcon(0, self.style().standardIcon(_ICONS.get(problem.severity, _ICONS["info"])))
            item.setToolTip(2, problem.message)
            ref = entity_of(model, problem.path)
            if ref is not None:
                item.setData(0, REF_ROLE, ref)
        for column in (0, 1):
            self.resizeColumnToContents(column)

    def rows(self) -> list[tuple[str, str, str]]:
        """``(severity, where, problem)`` of every row, for tests and tooltips."""
        return [tuple(self.topLevelItem(i).text(c) for c in range(3)) for i in range(self.topLevelItemCount())]

    def ref_at(self, row: int) -> EntityRef | None:
        """The entity the problem in ``row`` is about, if any."""
        return self.topLevelItem(row).data(0, REF_ROLE)

    def select_row(self, row: int) -> None:
        """Make ``row`` the current problem, as if clicked (its entity is selected)."""
        item = self.topLevelItem(row)
        if item is None:
            return
        self.setCurrentItem(item)
        self.scrollToItem(item)
        self._on_item_clicked(item, 0)

    def selected_row(self) -> int:
        """The row of the current problem (-1: none)."""
        item = self.currentItem()
        return self.indexOfTopLevelItem(item) if item is not None and item.isSelected() else -1

    def _on_item_clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        ref = item.data(0, REF_ROLE)
        if ref is not None:
            self.entity_clicked.emit(ref)
