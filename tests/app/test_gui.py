"""Starting the application (the window first, then the kernels), and the PySide6 work-round it relies on."""
from __future__ import annotations

import sys

from PySide6.QtCore import QTimer
from PySide6.QtGui import QPainterPath
from PySide6.QtWidgets import QApplication

from app.running import worker
from app.shell import gui
from app.shell.exception_hook import ExceptionHook
from app.shell.gui import launch
from app.shell.main_window import MainWindow
from solver.model.io import examples_dir


def titles_then_quit(seen: list[str]) -> None:
    def grab() -> None:
        shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
        seen.extend(w.windowTitle() for w in shown)
        for w in shown:
            w.close()
        QApplication.exit(0)
    QTimer.singleShot(0, grab)


def test_launch_without_a_file_shows_the_default_example(qapp):
    seen: list[str] = []
    titles_then_quit(seen)
    assert launch(None) == 0
    assert seen == ["Flexmech — Flexible slider-crank"]


def test_launch_opens_the_given_file(qapp):
    seen: list[str] = []
    titles_then_quit(seen)
    assert launch(str(examples_dir() / "robot_arm.json")) == 0
    assert seen == ["Flexmech — Flexible robot arm"]
    assert qapp.organizationName() == "Flexmech"


def test_launch_installs_the_exception_hook_with_its_dialog(qapp):
    hooks = []

    def grab() -> None:
        hooks.append(sys.excepthook)
        for w in QApplication.topLevelWidgets():
            if isinstance(w, MainWindow):
                w.close()
        QApplication.exit(0)

    QTimer.singleShot(0, grab)
    assert launch(None) == 0
    hook = hooks[0].__self__
    assert isinstance(hook, ExceptionHook) and hook.show_dialog


def test_none_survives_void_qt_calls():
    before = sys.getrefcount(None)
    path = QPainterPath()
    for _ in range(1000):
        path.moveTo(0, 0)
    # PySide6 6.12.0 dropped a reference to None on every void call (fatal on Python 3.11);
    # pyproject pins below 6.12, and this test catches a release with the same fault
    assert sys.getrefcount(None) > before - 100


def test_the_kernels_load_once_the_window_is_on_the_screen(qapp, monkeypatch):
    """The window is painted first; the solver's kernels load afterwards (app/shell/gui.py)."""
    exposed_then: list[list[bool]] = []

    def warm_up() -> None:
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
        exposed_then.append([w.windowHandle().isExposed() for w in windows])
        for w in windows:
            w.close()
        QApplication.exit(0)

    monkeypatch.setattr(gui, "warm_up", warm_up)
    give_up = QTimer()  # never exposed: fail, not hang
    give_up.setSingleShot(True)
    give_up.setInterval(60_000)
    give_up.timeout.connect(lambda: QApplication.exit(1))
    give_up.start()
    try:
        assert launch(None) == 0
    finally:
        give_up.stop()
    assert exposed_then == [[True]]


def test_a_failing_warm_up_is_reported_not_a_crash(exception_hook, monkeypatch):
    """An error while loading the kernels in the background reaches the exception hook
    (the error dialog in the app) and leaves the process running."""
    def broken() -> None:
        raise RuntimeError("no kernels today")

    monkeypatch.setattr(worker, "_load_kernels", broken)
    monkeypatch.setattr(worker, "_warm_up_thread", None)
    thread = worker.warm_up()
    thread.join(60)
    assert not thread.is_alive()
    reports = exception_hook.take()
    assert [r.exc_type for r in reports] == [RuntimeError]
    assert "no kernels today" in reports[0].sentence
