"""The Examples menu, grouped by source and kind, and the start page shown on first launch.

The menu has one submenu per group of :mod:`.example_groups`; each example reads as its
model's name and what it reproduces (``Slider-crank struck by a free block (§5.4)``),
its description as the tooltip and status tip.  :class:`StartPage` lists the same
groups with Getting Started and a new model; it opens at the first launch only (the
settings keep :data:`SHOWN_KEY` once it was shown) and from Help > Start Page.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDialog, QHBoxLayout, QLabel, QMenu, QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget,
)

from .example_groups import grouped
from .window_parts import make_action

#: the setting that says the start page was shown once (it opens at launch until then)
SHOWN_KEY = "start_page/shown"
#: the role of an example item's file name in the start page's tree
NAME_ROLE = Qt.ItemDataRole.UserRole


def fill_examples_menu(parent: QWidget, menu: QMenu, open_example: Callable[[str], object]) -> dict[str, QAction]:
    """One submenu per group of examples in ``menu``; the actions by example name."""
    menu.setToolTipsVisible(True)
    actions = {}
    for group, members in grouped():
        sub = menu.addMenu(menu_text(group))
        sub.setToolTipsVisible(True)
        for example in members:
            action = make_action(parent, menu_text(example.label), lambda n=example.name: open_example(n),
                                 tip=example.description)
            sub.addAction(action)
            actions[example.name] = action
    return actions


def menu_text(text: str) -> str:
    """``text`` as a menu shows it: an ``&`` doubled, not read as a shortcut's mark.

    >>> menu_text("Amirouche & Xie")
    'Amirouche && Xie'
    """
    return text.replace("&", "&&")


def first_launch(settings: QSettings) -> bool:
    """Whether the start page was never shown: it opens at launch."""
    return not settings.value(SHOWN_KEY, False, type=bool)


class StartPage(QDialog):
    """Where to begin: Getting Started, a new model, or an example (double-click or Open)."""

    def __init__(self, settings: QSettings, open_example: Callable[[str], object], new_model: Callable[[], object],
                 getting_started: Callable[[], object], parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Welcome to Flexmech")
        self._open_example = open_example
        settings.setValue(SHOWN_KEY, True)
        intro = QLabel("New here? <b>Getting Started</b> draws, runs and exports an impact in three minutes. "
                       "Or open an example: each reproduces a published figure or table. "
                       "(Also on <b>Help > Start Page</b>.)")
        intro.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Example", "Reproduces"])
        for group, members in grouped():
            top = QTreeWidgetItem([group])
            for example in members:
                child = QTreeWidgetItem([example.title, example.reproduces])
                child.setData(0, NAME_ROLE, example.name)
                for column in (0, 1):
                    child.setToolTip(column, example.description)
                top.addChild(child)
            self.tree.addTopLevelItem(top)
        self.tree.expandAll()
        self.tree.resizeColumnToContents(1)
        self.tree.setColumnWidth(0, 430)
        self.tree.itemDoubleClicked.connect(lambda item, _column: self.open_item(item))
        buttons = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        for text, slot in (("Getting Started", getting_started), ("New Model", new_model),
                           ("Open Example", lambda: self.open_item(self.tree.currentItem()))):
            button = self.buttons[text] = QPushButton(text)
            button.clicked.connect(lambda _checked=False, s=slot: self._then_close(s))
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.tree, 1)
        layout.addLayout(buttons)
        self.resize(760, 560)

    def open_item(self, item: QTreeWidgetItem | None) -> bool:
        """Open the example of ``item`` (a group's row opens nothing)."""
        name = item.data(0, NAME_ROLE) if item is not None else None
        if name is None:
            return False
        self._open_example(name)
        self.accept()
        return True

    def _then_close(self, slot: Callable[[], object]) -> None:
        if slot() is not False:
            self.accept()

    def example_item(self, name: str) -> QTreeWidgetItem:
        """The tree's row of example ``name``."""
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            for j in range(top.childCount()):
                if top.child(j).data(0, NAME_ROLE) == name:
                    return top.child(j)
        raise KeyError(name)
