"""Files: New, Save, the unsaved-changes prompt, the '*' in the title, autosave and recovery."""
from __future__ import annotations

import json
import os

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.document.commands import set_field
from app.document.entities import EntityRef
from app.shell.cli import _resolve as resolve_file
from app.shell.main_window import MainWindow
from app.shell.recovery import RecoveryFile
from solver.model.io import list_examples, load_model

EXAMPLES = {name: path for name, path, _desc in list_examples()}
Button = QMessageBox.StandardButton


@pytest.fixture
def answer(monkeypatch):
    """Set the button the unsaved-changes prompt answers with; the list records each prompt."""
    prompts: list[str] = []
    state = {"button": Button.Cancel}

    def warning(parent, title, text, *args, **kwargs):
        prompts.append(text)
        return state["button"]

    monkeypatch.setattr(QMessageBox, "warning", warning)

    def set_answer(button):
        state["button"] = button
        return prompts
    return set_answer


def open_copy(window, tmp_path, name="slider_crank_flexible"):
    path = tmp_path / f"{name}.json"
    path.write_text(EXAMPLES[name].read_text(encoding="utf-8"), encoding="utf-8")
    assert window.open_path(path)
    return path


def edit(window, value=0.008):
    window.document.push(set_field(window.document, EntityRef("links", "rod"), ["section", "d"], value))


def test_new_starts_an_empty_model(window):
    window.new_action.trigger()
    assert window.document.model == {"format": "flexmech", "version": 1, "name": "", "nodes": []}
    assert window.windowTitle() == "Flexmech — untitled"
    assert window.save_action.isEnabled()
    assert window.tree.group("nodes").childCount() == 0


def test_title_has_a_star_while_modified_and_save_clears_it(tmp_path, window):
    path = open_copy(window, tmp_path)
    assert window.windowTitle() == "Flexmech — Flexible slider-crank"
    edit(window)
    assert window.windowTitle() == "Flexmech — Flexible slider-crank*"
    window.save_action.trigger()
    assert window.windowTitle() == "Flexmech — Flexible slider-crank"
    assert load_model(path)["links"][1]["section"]["d"] == 0.008
    assert list(tmp_path.glob(".*.tmp")) == []
    window.undo_action.trigger()  # back before the save: modified again
    assert window.windowTitle().endswith("*")


def test_save_without_a_file_asks_for_one(tmp_path, monkeypatch, window):
    window.open_example("robot_arm")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "arm"), ""))
    assert window.save()
    assert window.document.path == (tmp_path / "arm.json").resolve()
    assert load_model(tmp_path / "arm.json") == window.document.model


@pytest.mark.parametrize("opened", ["path", "name"])
def test_a_bundled_examples_file_opens_as_the_example_and_save_never_overwrites_it(tmp_path, monkeypatch, window,
                                                                                    opened):
    """``flexmech`` opens the default example's file and ``flexmech open NAME`` a bundled example's by its name:
    the window shows the example without a file, so an edit saved with Ctrl+S goes where the user says and the
    example shipped with Flexmech stays as it was."""
    shipped = EXAMPLES["slider_crank_flexible"]
    before = shipped.read_bytes()
    assert window.open_path(shipped if opened == "path" else resolve_file("slider_crank_flexible"))
    assert window.document.path is None and window.document.model == load_model(shipped)
    assert window.statusBar().currentMessage().startswith("Opened example slider_crank_flexible")
    assert shipped.parent not in window.sweeps_ui.default_folder().parents  # a sweep's table goes elsewhere too
    edit(window)
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (asked.append(a[2]), (str(tmp_path / "mine.json"), ""))[1])
    window.save_action.trigger()
    assert asked and load_model(tmp_path / "mine.json")["links"][1]["section"]["d"] == 0.008
    assert window.document.path == (tmp_path / "mine.json").resolve()
    assert shipped.read_bytes() == before


def test_save_as_onto_a_symbolic_link_is_refused_in_a_dialog(tmp_path, monkeypatch, window, message_boxes):
    """Issue 29: a save never writes through a link it did not make; the file it names stays."""
    victim = tmp_path / "elsewhere.txt"
    victim.write_text("theirs", encoding="utf-8")
    (tmp_path / "arm.json").symlink_to(victim)
    window.open_example("robot_arm")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "arm.json"), ""))
    assert not window.save()
    [(box, title, text)] = message_boxes
    assert (box, title) == ("critical", "Cannot save") and "arm.json is a symbolic link" in text
    assert victim.read_text(encoding="utf-8") == "theirs" and (tmp_path / "arm.json").is_symlink()


@pytest.mark.parametrize("action", ["new", "open", "example", "close"])
def test_no_prompt_when_nothing_is_unsaved(tmp_path, monkeypatch, window, answer, action):
    prompts = answer(Button.Cancel)
    open_copy(window, tmp_path)
    edit(window)
    window.undo_action.trigger()  # back to the saved state
    other = tmp_path / "other.json"
    other.write_text(EXAMPLES["robot_arm"].read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(other), ""))
    {"new": window.new_action, "open": window.open_action, "example": window.example_actions["robot_arm"],
     "close": window.quit_action}[action].trigger()
    assert prompts == []
    assert window.isHidden() if action == "close" else window.document.model != load_model(EXAMPLES["slider_crank_flexible"])


@pytest.mark.parametrize("action", ["new", "open", "example", "close"])
def test_cancel_keeps_the_modified_model(tmp_path, monkeypatch, window, answer, action):
    prompts = answer(Button.Cancel)
    open_copy(window, tmp_path)
    edit(window)
    before = json.dumps(window.document.model)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(EXAMPLES["robot_arm"]), ""))
    {"new": window.new_action, "open": window.open_action, "example": window.example_actions["robot_arm"],
     "close": window.quit_action}[action].trigger()
    assert prompts == ["Save the changes to Flexible slider-crank?"]
    assert json.dumps(window.document.model) == before
    assert window.document.is_modified
    assert not window.isHidden()


def test_discard_goes_on_without_saving(tmp_path, window, answer):
    prompts = answer(Button.Discard)
    path = open_copy(window, tmp_path)
    edit(window)
    window.new_action.trigger()
    assert len(prompts) == 1
    assert window.document.model["nodes"] == []
    assert load_model(path)["links"][1]["section"]["d"] == 0.006


def test_save_in_the_prompt_saves_then_goes_on(tmp_path, window, answer):
    prompts = answer(Button.Save)
    path = open_copy(window, tmp_path)
    edit(window)
    assert window.open_example("robot_arm")
    assert len(prompts) == 1
    assert load_model(path)["links"][1]["section"]["d"] == 0.008
    assert window.document.model["name"] == "Flexible robot arm"


def test_close_with_unsaved_changes_prompts_and_discard_closes(tmp_path, window, answer):
    prompts = answer(Button.Discard)
    open_copy(window, tmp_path)
    edit(window)
    window.autosave()
    assert window.recovery.path.exists()
    assert window.close()
    assert len(prompts) == 1
    assert not window.recovery.path.exists()  # a clean close leaves no recovery file


def test_autosave_writes_only_a_modified_model(tmp_path, window, isolated_recovery):
    open_copy(window, tmp_path)
    window.autosave()
    assert not window.recovery.path.exists()
    edit(window)
    window.autosave()
    assert window.recovery.path.parent == isolated_recovery
    assert json.loads(window.recovery.path.read_text(encoding="utf-8"))["model"] == window.document.model
    window.save()
    assert not window.recovery.path.exists()


def test_autosave_runs_on_a_timer(qtbot, tmp_path, settings):
    settings.setValue("autosave/interval_s", 0.05)
    w = MainWindow(settings)
    qtbot.addWidget(w)
    open_copy(w, tmp_path)
    edit(w)
    qtbot.waitUntil(w.recovery.path.exists)
    w.document.mark_saved()


def crash_with_unsaved_changes(qtbot, tmp_path, settings):
    """A window with an edited model whose session ends without closing (the recovery file stays)."""
    crashed = MainWindow(settings)
    qtbot.addWidget(crashed)
    path = open_copy(crashed, tmp_path)
    edit(crashed, 0.0075)
    crashed.autosave()
    model = json.loads(json.dumps(crashed.document.model))
    crashed.autosave_timer.stop()
    crashed.recovery.abandon()  # the process is gone: its lock with it
    crashed.recovery = RecoveryFile(tmp_path / "elsewhere")  # nothing of the crash is touched again
    crashed.document.mark_saved()  # so that the fixture's clean-up closes it without asking
    return path, model


def test_recovery_restores_an_interrupted_session(qtbot, monkeypatch, tmp_path, settings):
    path, model = crash_with_unsaved_changes(qtbot, tmp_path, settings)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or Button.Yes)
    restarted = MainWindow(settings)
    qtbot.addWidget(restarted)
    assert restarted.recovered
    assert "Flexible slider-crank" in asked[0]
    assert restarted.document.model == model
    assert restarted.document.path == path.resolve()
    assert restarted.windowTitle() == "Flexmech — Flexible slider-crank*"
    assert restarted.document.is_modified
    assert load_model(path)["links"][1]["section"]["d"] == 0.006  # the file is untouched until saved
    restarted.save()
    assert load_model(path) == model
    assert not restarted.recovery.path.exists()
    assert list(restarted.recovery.folder.glob("*.json")) == []


def test_a_running_window_is_not_taken_for_a_crash(qtbot, monkeypatch, tmp_path, settings):
    running = MainWindow(settings)
    qtbot.addWidget(running)
    open_copy(running, tmp_path)
    edit(running)
    running.autosave()
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a) or Button.Yes)
    second = MainWindow(settings)
    qtbot.addWidget(second)
    assert asked == [] and not second.recovered
    assert running.recovery.path.exists()
    second.close()
    assert running.recovery.path.exists()  # closing one window leaves the other's work alone
    running.document.mark_saved()


def test_an_unreadable_leftover_is_dropped(qtbot, isolated_recovery, settings):
    isolated_recovery.mkdir(parents=True, exist_ok=True)
    junk = isolated_recovery / "recovery-junk.json"
    junk.write_text("{ not json", encoding="utf-8")
    w = MainWindow(settings)
    qtbot.addWidget(w)
    assert not w.recovered and not junk.exists()


def test_declining_recovery_drops_the_file(qtbot, monkeypatch, tmp_path, settings):
    crash_with_unsaved_changes(qtbot, tmp_path, settings)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: Button.No)
    restarted = MainWindow(settings)
    qtbot.addWidget(restarted)
    assert not restarted.recovered
    assert restarted.document.is_empty
    assert list(restarted.recovery.folder.glob("*.json")) == []


def test_recovery_older_than_the_saved_file_is_not_offered(qtbot, monkeypatch, tmp_path, settings):
    path, _model = crash_with_unsaved_changes(qtbot, tmp_path, settings)
    later = path.stat().st_mtime + 10
    os.utime(path, (later, later))
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a) or Button.Yes)
    restarted = MainWindow(settings)
    qtbot.addWidget(restarted)
    assert asked == [] and not restarted.recovered
    assert list(restarted.recovery.folder.glob("*.json")) == []  # the stale file is dropped


def test_launch_offers_recovery_instead_of_the_default_example(qtbot, monkeypatch, tmp_path, settings):
    from app.shell import gui
    _path, model = crash_with_unsaved_changes(qtbot, tmp_path, settings)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: Button.Yes)
    windows = []
    monkeypatch.setattr(gui, "MainWindow", lambda: windows.append(MainWindow(settings)) or windows[-1])
    monkeypatch.setattr(gui.QApplication, "exec", lambda self=None: 0)
    assert gui.launch(None) == 0
    qtbot.addWidget(windows[0])
    assert windows[0].document.model == model
    windows[0].document.mark_saved()


def test_a_recovery_file_written_by_hand_is_offered(qtbot, monkeypatch, isolated_recovery, settings):
    model = load_model(EXAMPLES["pendulum_impact"])
    model["name"] = "Pendulum, edited"
    isolated_recovery.mkdir(parents=True, exist_ok=True)
    (isolated_recovery / "recovery-crashed.json").write_text(
        json.dumps({"recovery_of": None, "model": model}), encoding="utf-8")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: Button.Yes)
    w = MainWindow(settings)
    qtbot.addWidget(w)
    assert w.recovered and w.document.model == model and w.document.path is None
    assert w.windowTitle() == "Flexmech — Pendulum, edited*"
    w.document.mark_saved()


def test_save_as_onto_a_shipped_example_is_refused_in_a_dialog(monkeypatch, window, message_boxes):
    """Save As… pointed at the examples' folder wrote over the example shipped with Flexmech (the one the
    Examples menu and the validation open); refused, the file as shipped."""
    shipped = EXAMPLES["slider_crank_flexible"]
    before = shipped.read_bytes()
    window.open_example("slider_crank_flexible")
    edit(window)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(shipped), ""))
    assert not window.save()
    [(box, title, text)] = message_boxes
    assert (box, title) == ("critical", "Cannot save") and "shipped with Flexmech" in text
    assert shipped.read_bytes() == before and window.document.path is None and window.document.is_modified
