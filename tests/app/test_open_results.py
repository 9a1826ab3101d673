"""File > Open Results on a damaged folder: the ResultsFormatError's message in a dialog,
nothing on stderr, the open model untouched."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog

from solver.results.files import write_results
from tests.solver.test_results_damage import DAMAGES
from tests.solver.test_results_io import make_results

SHOWN = [d for d in DAMAGES if d[0] in ("summary.json truncated", "model.json invalid, rehashed",
                                       "model.json swapped, rehashed", "text in a numeric column, rehashed",
                                       "a row missing, rehashed")]


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
