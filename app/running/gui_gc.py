"""Python's cyclic garbage collector, run by the GUI thread only.

A run's worker thread and the kernels' warm-up thread allocate a lot, so Python's
automatic collector often starts in one of them.  A cycle it frees there may hold Qt
objects of the GUI thread (a closed window's menus, an old document and its undo
stack): their C++ destructors then run on the worker thread, lock Qt's mutexes and wait
for the GIL, while the GUI thread, holding the GIL, waits for the same mutexes to delete
objects of its own.  That deadlock stalled the test suite (all threads asleep, the GUI
thread in ``QObject::~QObject``, the worker in ``gc_collect_main``); it can also crash.

:class:`GuiThreadCollector` turns automatic collection off and collects from a timer in
the GUI thread, generation by generation as the automatic collector would (pyqtgraph's
``GarbageCollector`` does the same, but cannot be turned off again).
"""
from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

#: how often (ms) the GUI thread looks whether a generation is due for collection
INTERVAL_MS = 1000


class GuiThreadCollector(QObject):
    """Collects garbage in the thread that created it (the GUI thread) while installed."""

    def __init__(self, interval_ms: int = INTERVAL_MS, parent: QObject | None = None):
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.collect)
        self._was_enabled = gc.isenabled()

    def install(self) -> None:
        """Stop automatic collection; collect from the timer instead."""
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer.start()

    def uninstall(self) -> None:
        """Collect everything once, here, and give collection back to Python."""
        self._timer.stop()
        gc.collect()
        if self._was_enabled:
            gc.enable()

    def collect(self) -> None:
        """Collect each generation whose count passed its threshold, as Python would."""
        counts, thresholds = gc.get_count(), gc.get_threshold()
        for generation in range(3):
            if counts[generation] <= thresholds[generation]:
                return
            gc.collect(generation)
