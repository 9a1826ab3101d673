"""Tooltips that name an action's key, for every tool bar and menu of the window.

>>> from PySide6.QtGui import QAction
>>> action = QAction("Run"); action.setShortcut("F5")
>>> with_key("Simulate the model", action)
'Simulate the model (F5)'
"""
from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence


def with_key(tip: str, action: QAction) -> str:
    """``tip`` followed by the action's key in brackets, if it has one."""
    key = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    return f"{tip} ({key})" if key else tip
