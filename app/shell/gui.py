"""Starting the desktop application: the window first, then the solver's kernels.

The window is shown as soon as it is built; the solver's compiled kernels (numba, and
their machine code from numba's cache: some 0.5 s of CPU) are loaded by a background
thread (:func:`~app.running.worker.warm_up`) started once the window is on the screen
(:class:`WhenExposed`), so that loading them does not delay the window's first paint.
"""
from __future__ import annotations

import sys
from typing import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from ..running.gui_gc import GuiThreadCollector
from ..running.worker import warm_up
from .exception_hook import ExceptionHook
from .main_window import APP_NAME, MainWindow
from .start_page import first_launch

#: the bundled example the window shows when no file is given
DEFAULT_EXAMPLE = "slider_crank_flexible"


def launch(path: str | None, welcome: bool = False) -> int:
    """Open the main window on ``path`` (else on :data:`DEFAULT_EXAMPLE`), run the event loop;
    with the start page in front at the first launch when ``welcome`` (``flexmech``
    without a file) or no path.

    When a crashed session left unsaved changes and the user restores them, the
    window shows those instead.

    Returns the event loop's exit code.  Window layout and recent files are kept in
    the QSettings of organisation and application "Flexmech".  From here on every
    unexpected error is logged and shown in a dialog (:mod:`.exception_hook`).
    """
    app = QApplication.instance() or QApplication(sys.argv)
    app.setOrganizationName(APP_NAME)
    app.setApplicationName(APP_NAME)
    hook = ExceptionHook(parent=app)
    hook.install()
    collector = GuiThreadCollector(parent=app)  # Qt objects are freed in this thread only
    collector.install()
    window = MainWindow()
    window.show()
    if window.recovered:  # the user goes on with what a crashed session left
        window.statusBar().showMessage("Restored unsaved changes", 5000)
    else:
        window.open_path(path) if path else window.open_example(DEFAULT_EXAMPLE)
        if (welcome or not path) and first_launch(window.settings):
            window.show_start_page()
    WhenExposed(window, warm_up)
    return app.exec()


class WhenExposed(QObject):
    """Calls ``callback`` once, from the event loop, after ``window`` (shown) is first
    exposed on the screen (and so painted: Qt paints a window as it handles its exposure)."""

    def __init__(self, window: QWidget, callback: Callable[[], object]):
        super().__init__(window)
        self._callback = callback
        self._handle = window.windowHandle()
        self._handle.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.Expose and self._handle.isExposed():
            self._handle.removeEventFilter(self)
            QTimer.singleShot(0, self._callback)
        return False
