"""Starting the desktop application."""
from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication

from ..running.gui_gc import GuiThreadCollector
from .exception_hook import ExceptionHook
from .main_window import APP_NAME, MainWindow

#: the bundled example the window shows when no file is given
DEFAULT_EXAMPLE = "slider_crank_flexible"


def launch(path: str | None) -> int:
    """Open the main window on ``path`` (else on :data:`DEFAULT_EXAMPLE`), run the event loop.

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
    elif path:
        window.open_path(path)
    else:
        window.open_example(DEFAULT_EXAMPLE)
    return app.exec()
