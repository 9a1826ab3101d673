"""Python's garbage collector runs in the GUI thread only.

Automatic collection runs in whichever thread happens to allocate: the solver's run
thread, the kernels' warm-up thread, a sweep's thread.  When it frees a cycle that holds
Qt objects there (a closed window, a menu), their C++ destructors run off the GUI thread
while the GUI thread may be deleting Qt objects too: each then waits for what the other
holds (Qt's object mutex, Python's GIL) and the application freezes.  Found as a test
suite that hung for good on a fresh checkout, where the warm-up thread compiles the
kernels for minutes while windows of earlier tests are collected.

:func:`collect_in_gui_thread` turns automatic collection off and collects on a timer of
the GUI thread instead (pyqtgraph's :class:`GarbageCollector`, which does exactly this).
"""
from __future__ import annotations

from pyqtgraph.util.garbage_collector import GarbageCollector

#: how often the GUI thread looks for garbage, s
INTERVAL = 0.5
_collector: GarbageCollector | None = None


def collect_in_gui_thread() -> None:
    """From now on, collect garbage only in the GUI thread (once per process; call it from
    the GUI thread with a QApplication)."""
    global _collector
    if _collector is None:
        _collector = GarbageCollector(interval=INTERVAL)
