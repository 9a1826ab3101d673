"""Work round a reference-count bug of PySide6 6.12 on Python 3.11.

PySide6 / shiboken6 6.12.0 drop one reference to ``None`` on every call of a C++
method that returns void (``QPainterPath.moveTo``, ``QPen.setWidthF``, ...).  From
Python 3.12 on ``None`` is immortal (PEP 683) and nothing happens; on 3.11 its count
falls by thousands a second while the canvas repaints, and the interpreter aborts
with "none_dealloc: deallocating None" -- within seconds of panning, or at exit of
a test run.  6.11.3 does not have the bug.

:func:`protect_none` gives ``None`` a reference count so large that it cannot reach
zero, which is what 3.12 does for it.  It changes nothing on other versions; the
real cure is a PySide6 without the bug (keep ``PySide6-Essentials<6.12`` until then).
"""
from __future__ import annotations

import ctypes
import sys

import PySide6

#: PySide6 releases (major, minor) known to drop references to None
AFFECTED = {(6, 12)}
#: references given to None: far more than any run can drop
BALLAST = 1 << 40


def is_affected() -> bool:
    """Whether this Python and PySide6 have the bug."""
    return sys.version_info < (3, 12) and tuple(PySide6.__version_info__[:2]) in AFFECTED


def protect_none() -> bool:
    """Keep ``None`` alive whatever PySide6 does to its count; True if it was needed."""
    if not is_affected():
        return False
    # CPython <= 3.11 (release build): ob_refcnt is the first field of every object
    ctypes.c_ssize_t.from_address(id(None)).value += BALLAST
    return True
