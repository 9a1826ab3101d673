"""Garbage holding Qt objects is freed in the GUI thread, never in a run's thread."""
from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QObject

from app.running.gui_gc import GuiThreadCollector


class Cycle:
    """A reference cycle holding a QObject; records the thread that frees it."""

    def __init__(self, freed_in: list[str]):
        self.me = self
        self.qt = QObject()
        self.freed_in = freed_in

    def __del__(self):
        self.freed_in.append(threading.current_thread().name)


def allocate_a_lot() -> None:
    """What a run's thread does: enough new objects for the automatic collector to start."""
    kept = [[] for _ in range(50 * gc.get_threshold()[0])]
    del kept


def test_a_worker_thread_never_collects_and_the_gui_thread_does(gui_thread_collector):
    assert not gc.isenabled()
    freed_in: list[str] = []
    Cycle(freed_in)
    worker = threading.Thread(target=allocate_a_lot, name="run-worker")
    worker.start()
    worker.join(60)
    assert freed_in == []  # Python's own collector would have freed it in "run-worker"
    due = [[] for _ in range(gc.get_threshold()[0] + 1)]  # a generation is due
    gui_thread_collector.collect()
    assert freed_in == ["MainThread"]
    del due


def test_uninstall_gives_collection_back_to_python(qapp):
    collector = GuiThreadCollector()
    was = gc.isenabled()
    collector.install()
    assert not gc.isenabled()
    collector.uninstall()
    assert gc.isenabled() == was
