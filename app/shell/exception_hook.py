"""The application-wide exception hook: no unexpected error passes silently.

:class:`ExceptionHook` takes the place of :func:`sys.excepthook` (which PySide6 calls
for an exception escaping a slot or a Qt override) and of
:func:`threading.excepthook`.  Each error is written to the log file
(:mod:`app.shell.error_log`) and shown in an :class:`ErrorDialog`: what failed in one
sentence, the log file's path, and the traceback behind "Details", with a button
that copies it.  Errors raised on other threads are shown by the GUI thread.  While
a dialog is open, further errors go into it (its title counts them) instead of
opening more dialogs.  What the window could not stop as it closed is not such an error:
:func:`report_unstopped` logs it and says so in a message box, and the window closes.

The GUI tests install a hook that records instead of showing
(``tests/app/conftest.py``) and fail a test that let an error reach it.
"""
from __future__ import annotations

import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QApplication, QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QMessageBox, QPlainTextEdit, QPushButton,
    QStyle, QVBoxLayout, QWidget,
)

from .error_log import ErrorLog, one_sentence, traceback_text


@dataclass(frozen=True)
class ErrorReport:
    """One unexpected error: the sentence shown, the traceback, the log file (None: not written)."""

    sentence: str
    details: str
    log: Path | None
    exc_type: type[BaseException]


class ErrorDialog(QDialog):
    """What failed, where the log is, and the traceback behind Details (copyable)."""

    def __init__(self, report: ErrorReport, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Flexmech: unexpected error")
        self.reports: list[ErrorReport] = []
        icon = QLabel()
        icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical).pixmap(40, 40))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.sentence = QLabel()
        self.sentence.setWordWrap(True)
        self.sentence.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.details.setMinimumSize(560, 220)
        self.details.hide()
        self.details_button = QPushButton("Details")
        self.details_button.setCheckable(True)
        self.details_button.toggled.connect(self._show_details)
        self.copy_button = QPushButton("Copy Details")
        self.copy_button.setToolTip("Copy the error and its traceback, to paste into a bug report")
        self.copy_button.clicked.connect(self.copy_details)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.details_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        top = QHBoxLayout()
        top.addWidget(icon)
        text = QVBoxLayout()
        text.addWidget(self.sentence)
        text.addWidget(self.hint)
        top.addLayout(text, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.details, 1)
        layout.addWidget(buttons)
        self.add(report)

    def add(self, report: ErrorReport) -> None:
        """Show ``report`` too (the first stays the headline, Details lists them all)."""
        self.reports.append(report)
        first = self.reports[0]
        more = len(self.reports) - 1
        self.sentence.setText(first.sentence + (f" ({more} more error{'s' if more > 1 else ''} since: "
                                                "see Details.)" if more else ""))
        where = (f"The details are saved in {first.log}." if first.log is not None
                 else "The log file could not be written; copy the details instead.")
        self.hint.setText(f"{where} What you were doing may be incomplete; your model is still open "
                          "and can be saved.")
        self.details.setPlainText(self.details_text())

    def details_text(self) -> str:
        """Every report: its sentence and traceback."""
        return "\n".join(f"{r.sentence}\n\n{r.details}" for r in self.reports)

    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self.details_text())

    def _show_details(self, shown: bool) -> None:
        self.details.setVisible(shown)
        self.adjustSize()


class ExceptionHook(QObject):
    """Reports every exception that reaches :func:`sys.excepthook` or :func:`threading.excepthook`.

    Parameters
    ----------
    log
        Where errors are written (default: the user log folder's ``flexmech.log``).
    show_dialog
        Show an :class:`ErrorDialog` (False: only record and log, as the tests do).
    chain
        Also pass each error to the hook installed before (which prints it to stderr).
    """

    #: an :class:`ErrorReport`, emitted in the hook's (GUI) thread
    reported = Signal(object)
    _arrived = Signal(object)

    def __init__(self, log: ErrorLog | None = None, show_dialog: bool = True, chain: bool = True,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.log = log or ErrorLog()
        self.show_dialog = show_dialog
        self.chain = chain
        #: every report so far, in order (appended on the thread that raised)
        self.reports: list[ErrorReport] = []
        self.dialog: ErrorDialog | None = None
        self._previous = None
        self._previous_threading = None
        self._arrived.connect(self._on_arrived, Qt.ConnectionType.QueuedConnection)

    def install(self) -> None:
        """Become the process' exception hook (until :meth:`uninstall`)."""
        self._previous, self._previous_threading = sys.excepthook, threading.excepthook
        sys.excepthook = self.report
        threading.excepthook = self._report_thread

    def uninstall(self) -> None:
        """Put back the hooks that were there before :meth:`install`."""
        if self._previous is not None:
            sys.excepthook, threading.excepthook = self._previous, self._previous_threading
            self._previous = self._previous_threading = None

    def take(self) -> list[ErrorReport]:
        """The reports so far, forgetting them (a test that expected them)."""
        taken, self.reports = self.reports, []
        return taken

    def report(self, exc_type: type[BaseException], exc: BaseException | None, tb: TracebackType | None) -> None:
        """Log an exception and show it (from any thread; the dialog opens in the GUI thread)."""
        if issubclass(exc_type, KeyboardInterrupt) and self._previous is not None:
            self._previous(exc_type, exc, tb)
            return
        report = self.report_of(exc_type, exc, tb)
        self.reports.append(report)
        if self.chain and self._previous is not None:
            self._previous(exc_type, exc, tb)
        self._arrived.emit(report)

    def report_of(self, exc_type: type[BaseException], exc: BaseException | None,
                  tb: TracebackType | None) -> ErrorReport:
        """The report of an exception, written to the log."""
        sentence, details = one_sentence(exc_type, exc, tb), traceback_text(exc_type, exc, tb)
        return ErrorReport(sentence, details, self.log.write(sentence, details), exc_type)

    def _report_thread(self, args: threading.ExceptHookArgs) -> None:
        self.report(args.exc_type, args.exc_value, args.exc_traceback)

    @Slot(object)
    def _on_arrived(self, report: ErrorReport) -> None:
        self.reported.emit(report)
        if not self.show_dialog:
            return
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.add(report)
            return
        self.dialog = ErrorDialog(report, QApplication.activeWindow())
        self.dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dialog.destroyed.connect(self._forget_dialog)
        self.dialog.show()
        self.dialog.raise_()

    def _forget_dialog(self) -> None:
        self.dialog = None


def report_unstopped(parent: QWidget, messages: list[str]) -> None:
    """Log, and tell the user in a message box, what the window asked to stop as it closed and did not
    stop within its bound (``messages``: a worker that polls no cancel); it is left to end on its own."""
    log = ErrorLog().write("Closing the window: what it asked to stop did not stop, and was left to end on "
                           "its own.", "\n".join(messages))
    where = f" (written to {log})" if log is not None else ""
    QMessageBox.warning(parent, "Closing Flexmech", "Flexmech closes, but what it asked to stop did not stop:\n\n"
                        + "\n".join(f"• {m}" for m in messages) + f"\n\nIt is left to end on its own{where}.")
