"""The property panel: the selected entity's fields (field, value, unit), editable from the schema.

Double-click a value (or start typing) to edit it; Enter commits.  Numbers accept units
(``6 mm``), choices (kinds, enumerations, ids of other entities) are combo boxes whose
choice counts as soon as it is picked in the open list, and flags are check boxes.  The panel never changes the model: an entry that passes
:func:`app.panels.field_edit.plan` is announced by ``edit_planned(ref, keys, value)`` for the
window to push as an undo command; a refused one stays in its cell, red (also when
the cell is the current one), with the reason in the tooltip and in
``edit_refused(message)``, until the next edit or selection redraws the panel.
"""
from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QPainter
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..document.entities import EntityRef, entity_text
from .field_edit import EditError, Editor, editor_for, plan
from .properties import PropertyRow, entity_help, entity_rows

DEFAULT_COLOUR = QColor("#808080")
ERROR_BACKGROUND = QColor("#ffc8c8")
VALUE_COLUMN = 1
#: the reason a refused entry was refused (its cell's data)
ERROR_ROLE = Qt.ItemDataRole.UserRole


class _ChoiceBox(QComboBox):
    """A combo box that says when a choice was made in its open list (a click, or Enter):
    Qt closes the list before it sets the choice, so "picked" waits for ``activated``."""

    picked = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._open = False
        self.activated.connect(self._on_activated)

    def showPopup(self) -> None:  # noqa: N802 (Qt override)
        self._open = True
        super().showPopup()

    def hidePopup(self) -> None:  # noqa: N802 (Qt override)
        super().hidePopup()
        QTimer.singleShot(0, self._closed)  # after the activated signal that may follow

    def _closed(self) -> None:
        self._open = False

    def _on_activated(self, _index: int) -> None:
        if self._open:
            self.picked.emit()


class _FieldDelegate(QStyledItemDelegate):
    """Field names elided on the left: of ``free_strains.temperature_function.kind`` the end,
    which tells it from ``free_strains.creep_function.kind``, stays in sight."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex) -> None:  # noqa: N802 (Qt override)
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideLeft


class _ValueDelegate(QStyledItemDelegate):
    """Line edits and combo boxes for the value column; what is entered goes to the view, not the cell."""

    def __init__(self, view: PropertyView):
        super().__init__(view.table)
        self.view = view

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        """A refused entry stays red even in the current (selected) cell."""
        if index.data(ERROR_ROLE):
            option = QStyleOptionViewItem(option)
            option.state &= ~QStyle.StateFlag.State_Selected
        super().paint(painter, option, index)

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex) -> QWidget:  # noqa: N802
        editor = self.view.editor_at(index.row())
        if editor.kind == "choice":
            combo = _ChoiceBox(parent)
            combo.addItems(list(editor.options))
            combo.picked.connect(lambda: (self.commitData.emit(combo), self.closeEditor.emit(combo)))
            return combo
        return QLineEdit(parent)

    def setEditorData(self, editor: QWidget, index: QModelIndex) -> None:  # noqa: N802
        text = index.data(Qt.ItemDataRole.EditRole) or ""
        if isinstance(editor, QComboBox):
            editor.setCurrentIndex(max(editor.findText(text), 0))
        else:
            editor.setText(text)

    def setModelData(self, editor: QWidget, model: Any, index: QModelIndex) -> None:  # noqa: N802
        text = editor.currentText() if isinstance(editor, QComboBox) else editor.text()
        if text == index.data(Qt.ItemDataRole.EditRole):
            return  # left as shown (which may be rounded): nothing to change
        self.view.commit_later(index.row(), text)


class PropertyView(QWidget):
    """Shows every field of one entity; fields left at their default are grey and italic."""

    #: an accepted entry: (entity, keys of the field to set, value in SI units)
    edit_planned = Signal(object, list, object)
    #: a refused entry: why
    edit_refused = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setContentsMargins(4, 4, 4, 2)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Field", "Value", "Unit"])
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setItemDelegateForColumn(0, _FieldDelegate(self.table))
        self.table.setItemDelegateForColumn(VALUE_COLUMN, _ValueDelegate(self))
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)  # fitted, at most FIELD_SHARE
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.table)
        self._model: dict = {}
        self._ref: EntityRef | None = None
        self._rows: list[PropertyRow] = []
        self._editors: list[Editor] = []
        self._filling = False
        self._pending: tuple[EntityRef | None, list, str, Any] | None = None  # an entry to commit (commit_later)
        self.table.itemChanged.connect(self._on_item_changed)
        self.table.doubleClicked.connect(lambda _index: QTimer.singleShot(0, self._open_choice_list))
        self.show_entity({}, None)

    def _open_choice_list(self) -> None:
        """A choice double-clicked opens its list at once: picking is the next click (the
        closed box in between was one more click to find)."""
        for box in self.table.findChildren(_ChoiceBox):
            if box.isVisible() and not box.view().isVisible():
                box.showPopup()

    @property
    def ref(self) -> EntityRef | None:
        """The entity shown."""
        return self._ref

    def show_entity(self, model: dict, ref: EntityRef | None) -> None:
        """Show the fields of ``ref`` in ``model``; a hint when nothing is selected.

        Another entity starts with no current cell (typing then edits nothing by
        surprise); the same one, redrawn after an edit, keeps it.
        """
        if ref != self._ref:
            self.table.setCurrentItem(None)
        self._model, self._ref = model, ref
        self._rows = entity_rows(model, ref) if ref is not None else []
        self._editors = [editor_for(model, ref, list(row.keys)) for row in self._rows]
        if ref is None:
            self.title.setText("<i>Select an entity in the model tree.</i>")
        else:
            self.title.setText(f"<b>{html.escape(entity_text(model, ref))}</b><br>{html.escape(entity_help(model, ref))}")
        self._filling = True
        self.table.setRowCount(len(self._rows))
        italic = QFont(self.table.font())
        italic.setItalic(True)
        for r, (row, editor) in enumerate(zip(self._rows, self._editors)):
            cells = [QTableWidgetItem(row.field), QTableWidgetItem(row.value), QTableWidgetItem(row.unit)]
            for c, cell in enumerate(cells):
                tip = row.help + (" -- default" if row.is_default else "")
                cell.setToolTip(f"Not used: {row.unused} ({tip})" if row.unused else tip)
                cell.setFlags(self._flags(c, row, editor, cell))
                if row.is_default:
                    cell.setForeground(DEFAULT_COLOUR)
                    cell.setFont(italic)
                self.table.setItem(r, c, cell)
        self._filling = False
        self._fit_field_column()

    @staticmethod
    def _flags(column: int, row: PropertyRow, editor: Editor, cell: QTableWidgetItem) -> Qt.ItemFlag:
        """A cell's flags: its value editable as its editor says; a field the solver does not
        use (:attr:`PropertyRow.unused`) disabled, greyed out."""
        flags = Qt.ItemFlag.ItemIsSelectable | (Qt.ItemFlag.NoItemFlags if row.unused else Qt.ItemFlag.ItemIsEnabled)
        if column == VALUE_COLUMN and editor.kind in ("text", "choice") and not row.unused:
            flags |= Qt.ItemFlag.ItemIsEditable
        if column == VALUE_COLUMN and editor.kind == "check":
            flags |= Qt.ItemFlag.ItemIsUserCheckable
            cell.setCheckState(Qt.CheckState.Checked if row.value == "true" else Qt.CheckState.Unchecked)
        return flags

    #: the largest share of the table's width the field names take (long names are elided on the
    #: left, so that the values stay readable in a narrow panel)
    FIELD_SHARE = 0.45

    def _fit_field_column(self) -> None:
        self.table.resizeColumnToContents(0)
        cap = int(self.FIELD_SHARE * self.table.viewport().width())
        if self.table.columnWidth(0) > cap > 0:
            self.table.setColumnWidth(0, cap)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._fit_field_column()

    def row_of(self, field: str) -> int:
        """The row showing ``field`` (``"section.d"``)."""
        return next(r for r, row in enumerate(self._rows) if row.field == field)

    def editor_at(self, row: int) -> Editor:
        """How the field in ``row`` is edited."""
        return self._editors[row]

    def commit(self, row: int, entry: Any) -> bool:
        """Check what was entered in ``row`` (text, a choice or a flag); announce it or refuse it."""
        if self._ref is None or not 0 <= row < len(self._rows):
            return False
        keys = list(self._rows[row].keys)
        try:
            keys, value = plan(self._model, self._ref, keys, entry)
        except EditError as exc:
            self._show_error(row, str(exc), entry if isinstance(entry, str) else None)
            return False
        self.edit_planned.emit(self._ref, keys, value)
        return True

    def commit_later(self, row: int, entry: Any) -> None:
        """:meth:`commit` ``entry`` once its editor has closed (a successful edit rebuilds the table), to
        the entity and field of ``row`` now: a click on another entity closes the editor after showing
        that one, whose field in ``row`` the entry went to (node B's y set by what was typed for A's)."""
        self._pending = (self._ref, list(self._rows[row].keys), self._rows[row].field, entry)
        QTimer.singleShot(0, self._commit_pending)

    def finish_edit(self) -> bool:
        """Commit the entry of an editor still open, now (Run, Save or closing the window pressed
        before Enter ran or saved the value shown before, the entry left in its editor); False
        when it is refused."""
        editor = self.table.indexWidget(self.table.currentIndex())
        if editor is not None and self.table.state() == QAbstractItemView.State.EditingState:
            self.table.commitData(editor)
            self.table.closeEditor(editor, QAbstractItemDelegate.EndEditHint.NoHint)
        return self._commit_pending()

    def _commit_pending(self) -> bool:
        """The entry :meth:`commit_later` holds, if any, committed; False when it is refused."""
        if self._pending is None:
            return True
        (ref, keys, field, entry), self._pending = self._pending, None
        if ref == self._ref:
            return self.commit(self.row_of(field), entry)
        try:  # the panel shows another entity now: the edit is announced, or refused naming its field
            keys, value = plan(self._model, ref, keys, entry)
        except EditError as exc:
            self.edit_refused.emit(f"{entity_text(self._model, ref)}.{field}: {exc}")
            return False
        self.edit_planned.emit(ref, keys, value)
        return True

    def commit_field(self, field: str, entry: Any) -> bool:
        """:meth:`commit` by field name (``"section.d"``)."""
        return self.commit(self.row_of(field), entry)

    def error_at(self, row: int) -> str | None:
        """The message of a refused entry shown in ``row``, if any."""
        cell = self.table.item(row, VALUE_COLUMN)
        return cell.data(ERROR_ROLE) if cell is not None else None

    def _show_error(self, row: int, message: str, entry: str | None) -> None:
        """Show what was refused, in red, with the reason and the value kept as its tooltip."""
        cell = self.table.item(row, VALUE_COLUMN)
        kept = self._rows[row].value
        self._filling = True
        if entry is not None:
            cell.setText(entry)
        cell.setBackground(ERROR_BACKGROUND)
        cell.setToolTip(f"Refused: {message}" + (f" (the value stays {kept})" if kept else ""))
        cell.setData(ERROR_ROLE, message)
        if self._editors[row].kind == "check":  # the box goes back to what the model says
            cell.setCheckState(Qt.CheckState.Checked if self._rows[row].value == "true" else Qt.CheckState.Unchecked)
        self._filling = False
        self.edit_refused.emit(f"{self._rows[row].field}: {message}")

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if self._filling or item.column() != VALUE_COLUMN or self._editors[item.row()].kind != "check":
            return
        self.commit_later(item.row(), item.checkState() == Qt.CheckState.Checked)

