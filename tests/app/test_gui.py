"""Starting the application (the window first, then the kernels), and the PySide6 work-round it relies on."""
from __future__ import annotations

import os
import subprocess
import sys

from PySide6.QtCore import QTimer
from PySide6.QtGui import QPainterPath
from PySide6.QtWidgets import QApplication

from app.running import worker
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


#: a child process: launch the app with a warm-up that records whether the window was exposed
#: on the screen when it was called, then quits (exit 1 if it never was)
EXPOSED_FIRST = """
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from app.shell import gui
from app.shell.main_window import MainWindow

def warm_up():
    windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
    print("exposed at warm-up:", [w.windowHandle().isExposed() for w in windows], flush=True)
    for w in windows:
        w.close()
    QApplication.exit(0)

gui.warm_up = warm_up
give_up = QTimer()
give_up.setSingleShot(True)
give_up.timeout.connect(lambda: QApplication.exit(1))
give_up.start(60_000)
raise SystemExit(gui.launch(None))
"""


def test_the_kernels_load_once_the_window_is_on_the_screen(tmp_path):
    """The window is painted first; the solver's kernels load afterwards (app/shell/gui.py).
    In a child process: a whole launch with its event loop run to the window's exposure left
    the test process's GUI (its mouse events) broken for the GUI tests after it."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path),
           "XDG_DATA_HOME": str(tmp_path), "XDG_RUNTIME_DIR": str(tmp_path)}
    child = subprocess.run([sys.executable, "-c", EXPOSED_FIRST], env=env, capture_output=True, text=True,
                           timeout=300, cwd=tmp_path)
    assert child.returncode == 0, child.stderr
    assert "exposed at warm-up: [True]" in child.stdout


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
