"""No silent failures: unexpected errors reach the exception hook, its log and its dialog;
F5 on a model with problems brings them forward instead of running."""
from __future__ import annotations

import doctest
import threading
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QPushButton

from app.document.commands import set_field
from app.document.entities import EntityRef
from app.shell import error_log
from app.shell.error_log import ErrorLog, one_sentence, user_log_dir
from app.shell.exception_hook import ErrorDialog, ExceptionHook

from .test_simulation_ui import RUN_TIMEOUT_MS


def test_doctests():
    assert doctest.testmod(error_log).failed == 0


def test_the_log_folder_follows_each_platform_and_the_environment_overrides_it():
    home = Path("/home/ada")
    assert user_log_dir("linux", {"XDG_STATE_HOME": "/var/state"}, home) == Path("/var/state/flexmech/log")
    assert user_log_dir("win32", {}, Path("C:/Users/ada")) == Path("C:/Users/ada/AppData/Local/Flexmech/Logs")
    assert user_log_dir("linux", {"FLEXMECH_LOG_DIR": "/tmp/logs"}, home) == Path("/tmp/logs")


def _raise_in_compile():
    def output_layout(model):
        return model["links"][0]["mesh"]  # a KeyError deep in the code, as the bug was
    return output_layout


def test_an_error_in_a_slot_reaches_the_hook_and_the_log(qtbot, exception_hook):
    button = QPushButton("boom")
    qtbot.addWidget(button)
    button.clicked.connect(lambda: {}["mesh"])
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    (report,) = exception_hook.take()
    assert report.exc_type is KeyError
    assert report.sentence.startswith("An unexpected error stopped what Flexmech was doing: KeyError 'mesh' in <lambda>")
    assert report.sentence.endswith(").") and report.sentence.count(". ") == 0  # one sentence
    assert "Traceback (most recent call last)" in report.details
    logged = report.log.read_text(encoding="utf-8")
    assert report.sentence in logged and "KeyError: 'mesh'" in logged


def test_an_error_on_another_thread_reaches_the_hook(qtbot, exception_hook):
    thread = threading.Thread(target=lambda: 1 / 0)
    thread.start()
    thread.join()
    (report,) = exception_hook.take()
    assert report.exc_type is ZeroDivisionError and "division by zero" in report.sentence


def test_the_dialog_says_what_failed_and_where_the_log_is_and_copies_the_traceback(qtbot, tmp_path):
    hook = ExceptionHook(ErrorLog(tmp_path / "logs" / "flexmech.log"), show_dialog=True, chain=False)
    worker = threading.Thread(target=lambda: hook.report(*_exc_info(ValueError("bad angle"))))
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: hook.dialog is not None and hook.dialog.isVisible())
    dialog = hook.dialog
    assert "ValueError bad angle" in dialog.sentence.text()
    assert str(tmp_path / "logs" / "flexmech.log") in dialog.hint.text()
    assert not dialog.details.isVisible()
    qtbot.mouseClick(dialog.details_button, Qt.MouseButton.LeftButton)
    assert dialog.details.isVisible() and "ValueError: bad angle" in dialog.details.toPlainText()
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    assert "ValueError: bad angle" in QGuiApplication.clipboard().text()
    hook.report(*_exc_info(KeyError("second")))  # while it is open: into the same dialog
    qtbot.waitUntil(lambda: len(dialog.reports) == 2)
    assert "1 more error" in dialog.sentence.text() and "KeyError: 'second'" in dialog.details.toPlainText()
    dialog.close()  # deleted on close: the next error opens a new dialog
    qtbot.waitUntil(lambda: hook.dialog is None)


def test_an_unwritable_log_is_said_in_the_dialog(qtbot, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    log = ErrorLog(blocker / "flexmech.log")  # a folder that cannot be made
    assert log.write("x", "y") is None and log.path is None
    dialog = ErrorDialog(ExceptionHook(log, show_dialog=False).report_of(*_exc_info(OSError("disk"))))
    qtbot.addWidget(dialog)
    assert "could not be written" in dialog.hint.text()


def _exc_info(exc: BaseException):
    try:
        raise exc
    except BaseException as caught:  # noqa: BLE001
        return type(caught), caught, caught.__traceback__


def test_f5_on_a_model_that_breaks_the_compiler_is_reported_not_silent(qtbot, window, monkeypatch, exception_hook):
    window.open_example("slider_crank_block")
    monkeypatch.setattr("app.running.controller.output_layout", _raise_in_compile())
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    (report,) = exception_hook.take()
    assert "KeyError 'mesh'" in report.sentence
    assert window.simulation.runs.state == "idle" and window.simulation.run_action.isEnabled()


def test_an_unexpected_error_in_the_run_thread_ends_the_run_and_is_reported(qtbot, window, monkeypatch,
                                                                              exception_hook, message_boxes):
    window.open_example("slider_crank_block")

    def broken(model, cancel=None, frames=None):
        yield from ()
        raise IndexError("frame 3")

    monkeypatch.setattr("app.running.worker.iter_simulation", broken)
    window.simulation.run()
    qtbot.waitUntil(lambda: not window.simulation.runs.running, timeout=RUN_TIMEOUT_MS)
    window.simulation.runs.wait()
    (report,) = exception_hook.take()
    assert "IndexError frame 3" in report.sentence
    assert window.simulation.runs.state == "failed" and window.simulation.runs.unexpected
    assert message_boxes == []  # the error dialog says it; no second box
    assert window.simulation.status.label.text() == "Run failed: unexpected IndexError"


def test_a_bug_mid_run_is_reported_and_the_frames_so_far_are_kept(qtbot, window, monkeypatch, exception_hook,
                                                                  message_boxes):
    """A bug in the solver after some frames: reported once (the hook's dialog and log), and the
    run's frames so far written and shown as the failed run's results."""
    from solver.results.outputs import OutputBuilder

    made, count = OutputBuilder.frame, [0]

    def frame(self, st):
        count[0] += 1
        if count[0] > 12:
            raise ZeroDivisionError("float division by zero")
        return made(self, st)

    monkeypatch.setattr(OutputBuilder, "frame", frame)
    window.open_example("slider_crank_block")
    window.simulation.run()
    qtbot.waitUntil(lambda: not window.simulation.runs.running, timeout=RUN_TIMEOUT_MS)
    window.simulation.runs.wait()
    (report,) = exception_hook.take()
    assert "ZeroDivisionError float division by zero" in report.sentence
    runs = window.simulation.runs
    assert runs.state == "failed" and runs.unexpected and message_boxes == []
    assert window.simulation.status.label.text() == "Run failed: unexpected ZeroDivisionError"
    assert runs.results is not None and len(runs.results.frames) == 12
    assert runs.results.meta["status"] == "failed" and "ZeroDivisionError" in runs.results.meta["message"]


def test_f5_on_a_model_with_a_problem_shows_the_problems_panel_with_it_selected(qtbot, window, capfd, message_boxes):
    window.open_example("slider_crank_block")
    window.problems_dock.hide()  # closed by the user: F5 brings it back
    window.document.push(set_field(window.document, EntityRef("links", "rod"), ["section", "d"], -0.006))
    capfd.readouterr()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    assert window.simulation.runs.state == "idle"
    assert window.problems_dock.isVisible() and not window.problems_dock.visibleRegion().isEmpty()
    row = window.problems.selected_row()
    assert row == 0
    assert window.problems.rows()[0] == ("error", "links[rod].section.d", "must be > 0")
    assert window.selection.refs == (EntityRef("links", "rod"),)
    assert window.properties.ref == EntityRef("links", "rod")
    assert "Not run: the model has 1 problem" in window.statusBar().currentMessage()
    assert message_boxes == []
    QTimer.singleShot(0, lambda: None)
    qtbot.wait(50)
    assert capfd.readouterr().err == ""


def test_keyboard_interrupt_is_left_to_python(exception_hook, monkeypatch):
    seen = []
    monkeypatch.setattr(exception_hook, "_previous", lambda *args: seen.append(args[0]))
    exception_hook.report(*_exc_info(KeyboardInterrupt()))
    assert seen == [KeyboardInterrupt] and exception_hook.take() == []


def test_one_sentence_names_the_innermost_frame():
    sentence = one_sentence(*_exc_info(ZeroDivisionError("division by zero")))
    assert "in _exc_info (" in sentence and "test_exception_hook.py, line" in sentence
