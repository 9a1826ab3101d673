"""Garbage is collected in the GUI thread only (app.shell.garbage)."""
import gc

from app.shell.garbage import INTERVAL


class Cycle:
    freed = 0

    def __init__(self):
        self.me = self

    def __del__(self):
        Cycle.freed += 1


def test_a_window_turns_automatic_collection_off_and_the_gui_thread_collects(qtbot, window):
    assert not gc.isenabled()  # no run or warm-up thread will free Qt objects
    threshold = gc.get_threshold()[0]
    for _ in range(threshold + 10):
        Cycle()
    qtbot.waitUntil(lambda: Cycle.freed > threshold, timeout=int(20 * INTERVAL * 1000))
