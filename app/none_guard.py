"""Work round a reference-count bug of PySide6 6.12 on Python 3.11: void Qt methods drop a reference to None.

Every call of a Qt method that returns nothing (``QLabel.setText``,
``QStatusBar.showMessage``, ...) takes one reference from ``None`` that it never
gave.  CPython before 3.12 (where None became immortal) aborts with "deallocating
None" once the count reaches zero: after some 28 000 such calls, that is a few
minutes of moving the mouse over the canvas, or one long GUI test session.  True
and False lose references the same way (seen as "deallocating True or False" at
exit).  :func:`guard_none` detects the leak and, only then, gives None, True and
False a reserve of references no session can use up.
"""
from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QObject

#: references added to None when the leak is found
RESERVE = 1 << 40
_guarded = False


def leaks_none() -> bool:
    """Whether a void Qt call (``QObject.setObjectName``) takes a reference from None."""
    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(10):
        probe.setObjectName("probe")
    return sys.getrefcount(None) < before - 5


def guard_none() -> None:
    """Give None, True and False their reserve of references if this PySide6 leaks them (once per process)."""
    global _guarded
    if _guarded or sys.version_info >= (3, 12) or not leaks_none():
        return
    for singleton in (None, True, False):
        ctypes.c_ssize_t.from_address(id(singleton)).value += RESERVE
    _guarded = True
