"""A plot's series list: checkable series grouped, filtered by words, names elided so that
they can be told apart.

A series is named ``<entity id> <quantity> (<unit>)`` (:mod:`solver.results.series`): a clearance
joint's ``B-clearance normal force (N)`` and ``B-clearance tangential force (N)``.  Elided in the
middle at the series list's first width, both read ``B-clea…ce (N)``: what tells them apart is
the middle.  :class:`SeriesNameDelegate` drops first what every series of the group begins with
(``…normal force (N)``), then shortens the rest of the entity's id in its middle (``guide.rear_lower``
among the corners of ``guide``: ``…r…lower normal force (N)``), and only then the quantity, in its
middle (``…tange…ce (N)``).
"""
from __future__ import annotations

import os
import re

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QTreeWidget, QTreeWidgetItem

from .series import Series

#: item data role of a series' key
KEY_ROLE = Qt.ItemDataRole.UserRole
#: item data role holding the number of leading characters of a series' name that are its
#: entity's id (:func:`head_length`)
HEAD_ROLE = Qt.ItemDataRole.UserRole + 1
#: item data role holding how many leading characters every name of the series' group shares
COMMON_ROLE = Qt.ItemDataRole.UserRole + 2
ELLIPSIS = "…"


def head_length(key: str, label: str) -> int:
    """How many leading characters of ``label`` name the entity of series ``key``
    (``contact/B-clearance/F_n``: the 11 of ``B-clearance``); of a label that does not start with
    it, its first word (``dissipated`` of ``dissipated friction``, beside ``dissipated restitution``);
    0 for a label of one word.

    >>> head_length("contact/B-clearance/F_n", "B-clearance normal force"), head_length("time", "time")
    (11, 0)
    """
    parts = key.split("/")
    entity = parts[1] if len(parts) > 2 and label.startswith(parts[1] + " ") else label.split(" ")[0]
    return len(entity) if len(entity) < len(label) else 0


def elided_name(name: str, head: int, common: int, width: int, metrics: QFontMetrics) -> str:
    """``name`` fitted into ``width`` px: whole if it fits; else without the first ``common``
    characters its group's names all begin with (an ellipsis instead), the rest of its entity's id
    (its first ``head`` characters) elided in its middle (down to :func:`shortest_id`)
    so that the quantity and unit stay whole, or, where they do not fit, the quantity elided in
    its middle, its start and its unit kept.

    >>> from PySide6.QtGui import QFont
    >>> metrics = QFontMetrics(QFont())
    >>> name = "guide.rear_lower normal force (N)"
    >>> elided_name(name, 16, 6, metrics.horizontalAdvance("…rear_lower normal force (N)"), metrics)
    '…rear_lower normal force (N)'
    >>> elided_name(name, 16, 6, metrics.horizontalAdvance("…r…lower normal force (N)"), metrics)
    '…r…lower normal force (N)'
    """
    fits = metrics.horizontalAdvance
    if fits(name) <= width:
        return name
    if 0 < common < len(name):  # the group's common start, and the separators after it, go
        common += len(name[common:]) - len(name[common:].lstrip("._- "))
    marker, body, head = (ELLIPSIS, name[common:], max(head - common, 0)) if 0 < common < len(name) else ("", name, head)
    width -= fits(marker)
    entity, rest = body[:head], body[head:]
    if not entity or fits(body) <= width:
        return marker + metrics.elidedText(body, Qt.TextElideMode.ElideMiddle, width)
    least = shortest_id(entity)
    if fits(least + rest) <= width:
        shown = metrics.elidedText(entity, Qt.TextElideMode.ElideMiddle, width - fits(rest))
        return marker + (shown if len(shown) >= len(least) else least) + rest
    return marker + least + metrics.elidedText(rest, Qt.TextElideMode.ElideMiddle, width - fits(least))


def shortest_id(entity: str) -> str:
    """The least of id ``entity`` a name keeps: its first character, an ellipsis and what follows
    its last ``.``, ``_`` or ``-`` when that is short (a mesh node's number, a corner's side), else
    its last character.

    >>> shortest_id("bar.10"), shortest_id("rear_lower"), shortest_id("rod")
    ('b…10', 'r…lower', 'rod')
    """
    tail = re.split(r"[._-]", entity)[-1]
    tail = tail if 0 < len(tail) <= 5 and len(tail) < len(entity) - 1 else entity[-1]
    return entity if len(entity) <= len(tail) + 2 else entity[0] + ELLIPSIS + tail


def mark_common_prefix(group: QTreeWidgetItem) -> None:
    """Give each series of ``group`` the length of the prefix all the group's names share
    (``B-clearance `` of a clearance joint's series; ``guide.`` of a translational joint's
    corners; none in a group of one)."""
    items = [group.child(j) for j in range(group.childCount())]
    common = len(os.path.commonprefix([item.text(0) for item in items])) if len(items) > 1 else 0
    for item in items:
        item.setData(0, COMMON_ROLE, common)


class SeriesNameDelegate(QStyledItemDelegate):
    """Paints a series list's names by :func:`elided_name` (the item's text stays the whole name:
    the filter and the tooltip read it)."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex) -> None:  # noqa: N802 (Qt override)
        super().initStyleOption(option, index)
        if index.data(KEY_ROLE) is None or option.rect.width() <= 0:
            return
        style = option.widget.style() if option.widget is not None else QApplication.style()
        text = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, option.widget)
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, option.widget) + 1
        option.text = elided_name(option.text, index.data(HEAD_ROLE) or 0, index.data(COMMON_ROLE) or 0,
                                  text.width() - 2 * margin, option.fontMetrics)


class SeriesTree(QTreeWidget):
    """The series of a run grouped (``series.group``), each checkable, its whole name in its
    tooltip and elided by :class:`SeriesNameDelegate`."""

    def __init__(self):
        super().__init__()
        self.setHeaderHidden(True)
        # a name without an entity's id loses its middle, not the unit at its end
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.setItemDelegate(SeriesNameDelegate(self))
        self.setIndentation(12)  # the names, not the tree's steps, take the width

    def fill(self, series: dict[str, Series], words: str) -> None:
        """List ``series`` (by key), none checked, filtered by ``words`` (:meth:`filter`)."""
        self.blockSignals(True)
        self.clear()
        groups: dict[str, QTreeWidgetItem] = {}
        for key, s in series.items():
            group = groups.get(s.group)
            if group is None:
                group = groups[s.group] = QTreeWidgetItem(self, [s.group])
                group.setFlags(group.flags() & ~Qt.ItemFlag.ItemIsUserCheckable)
            item = QTreeWidgetItem(group, [s.title])
            item.setToolTip(0, s.title)  # the narrow list cuts long names
            item.setData(0, KEY_ROLE, key)
            item.setData(0, HEAD_ROLE, head_length(key, s.label))
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(0, Qt.CheckState.Unchecked)
        for group in groups.values():
            mark_common_prefix(group)
        self.blockSignals(False)
        self.filter(words)

    def items(self):
        """Every series item (a group's child), in the list's order."""
        for i in range(self.topLevelItemCount()):
            group = self.topLevelItem(i)
            yield from (group.child(j) for j in range(group.childCount()))

    def item(self, key: str) -> QTreeWidgetItem | None:
        """The item of series ``key``."""
        return next((item for item in self.items() if item.data(0, KEY_ROLE) == key), None)

    def check(self, keys: list[str]) -> None:
        """Check exactly the series ``keys``, their groups expanded."""
        self.blockSignals(True)
        chosen = set(keys)
        for item in self.items():
            checked = item.data(0, KEY_ROLE) in chosen
            item.setCheckState(0, Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
            if checked:
                item.parent().setExpanded(True)
        self.blockSignals(False)

    def filter(self, text: str) -> None:
        """Show the series whose name or group holds every word of ``text``."""
        words = text.lower().split()
        for i in range(self.topLevelItemCount()):
            group = self.topLevelItem(i)
            shown = 0
            for j in range(group.childCount()):
                item = group.child(j)
                hide = not all(w in item.text(0).lower() or w in group.text(0).lower() for w in words)
                item.setHidden(hide)
                shown += not hide
            group.setHidden(shown == 0)
            if words:
                group.setExpanded(True)
