"""Results folders in the window: File > Open Results on a damaged folder shows the
ResultsFormatError's message in a dialog (nothing on stderr, the open model untouched),
and a bundle that cannot be written is reported, not raised."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog

from solver.results.files import write_results
from tests.solver.test_results_damage import BUNDLE_DAMAGES, DAMAGES
from tests.solver.test_results_io import make_results

SHOWN = [d for d in DAMAGES + BUNDLE_DAMAGES if d[0] in (
    "summary.json truncated", "model.json invalid, rehashed", "model.json swapped, rehashed",
    "text in a numeric column of a member, rehashed", "a row missing in a member, rehashed")]


@pytest.mark.parametrize(("kind", "damage", "file", "reason"), SHOWN, ids=[d[0] for d in SHOWN])
def test_a_damaged_results_folder_is_refused_in_a_dialog(window, monkeypatch, tmp_path, message_boxes, capfd,
                                                         kind, damage, file, reason):
    window.open_example("robot_arm")
    folder = tmp_path / "run"
    write_results(make_results(), folder)
    damage(folder)
    capfd.readouterr()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))

    window.results_ui.open_results_action.trigger()

    [(box, title, text)] = message_boxes
    assert (box, title) == ("critical", "Cannot open results")
    assert file in text and reason in text
    assert capfd.readouterr().err == ""
    assert window.document.model["name"] == "Flexible robot arm"
    assert window.simulation.playback.count == 0


def test_a_bundle_that_cannot_be_written_is_reported_in_a_dialog(window, monkeypatch, tmp_path, message_boxes):
    window.results_ui.show_results(make_results())
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(blocked / "bundle"))

    window.results_ui.export_results_action.trigger()

    [(box, title, text)] = message_boxes
    assert (box, title) == ("critical", "Export results bundle") and str(blocked / "bundle") in text
    assert blocked.read_text(encoding="utf-8") == "not a folder"
