"""The model tree: the model's settings, then every entity of the document, grouped by kind."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QAbstractItemView, QTreeWidget, QTreeWidgetItem, QWidget

from ..document.entities import GROUPS, MODEL_SETTINGS, SETTINGS, SOLVER_SETTINGS, EntityRef, describe, entity_id

REF_ROLE = Qt.ItemDataRole.UserRole


class ModelTree(QTreeWidget):
    """One top-level item per group (``Links``), one child per entity (``rod``).

    ``selection_changed`` carries the refs of the entities the user selected here;
    :meth:`select` shows a selection made elsewhere without echoing it back.
    """

    selection_changed = Signal(tuple)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setColumnCount(2)
        self.setHeaderLabels(["Entity", "Details"])
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setUniformRowHeights(True)
        self._groups: dict[str, QTreeWidgetItem] = {}
        self._syncing = False
        self.itemSelectionChanged.connect(self._on_item_selection_changed)
        self.show_model({})

    def show_model(self, model: dict) -> None:
        """Rebuild the tree from ``model``."""
        self._syncing = True
        self.clear()
        self._groups = {}
        bold = QFont(self.font())
        bold.setBold(True)
        settings = self._group("Settings", SETTINGS, "", bold)
        if model:
            self._child(settings, MODEL_SETTINGS, model.get("name") or "model name, gravity, damping")
            self._child(settings, SOLVER_SETTINGS, "time step, end time, integrator, what is recorded")
        for title, collection in GROUPS:
            items = model.get(collection, [])
            group = self._group(title, collection, str(len(items)), bold)
            for entity in items:
                self._child(group, EntityRef(collection, entity_id(collection, entity)), describe(collection, entity))
        self.expandAll()
        self.resizeColumnToContents(0)
        self._syncing = False

    def _group(self, title: str, collection: str, count: str, font: QFont) -> QTreeWidgetItem:
        group = QTreeWidgetItem(self, [title, count])
        group.setFlags(Qt.ItemFlag.ItemIsEnabled)
        group.setFont(0, font)
        self._groups[collection] = group
        return group

    @staticmethod
    def _child(group: QTreeWidgetItem, ref: EntityRef, details: str) -> None:
        child = QTreeWidgetItem(group, [ref.id, details])
        child.setData(0, REF_ROLE, ref)
        child.setToolTip(1, details)

    def group(self, collection: str) -> QTreeWidgetItem:
        """The top-level item of a collection (``"links"``)."""
        return self._groups[collection]

    def item_for(self, ref: EntityRef) -> QTreeWidgetItem | None:
        """The tree item of an entity, if the tree shows it."""
        group = self._groups.get(ref.collection)
        for i in range(group.childCount() if group else 0):
            if group.child(i).data(0, REF_ROLE) == ref:
                return group.child(i)
        return None

    def select(self, refs: tuple[EntityRef, ...]) -> None:
        """Select the items of ``refs`` without emitting ``selection_changed``."""
        self._syncing = True
        self.clearSelection()
        for ref in refs:
            item = self.item_for(ref)
            if item is not None:
                item.setSelected(True)
                self.scrollToItem(item)
        self._syncing = False

    def _on_item_selection_changed(self) -> None:
        if not self._syncing:
            refs = tuple(item.data(0, REF_ROLE) for item in self.selectedItems())
            self.selection_changed.emit(tuple(r for r in refs if r is not None))
