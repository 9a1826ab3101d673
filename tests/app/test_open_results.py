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


def test_a_read_error_of_frames_read_on_demand_is_said_before_the_model_is_replaced(window, monkeypatch, tmp_path,
                                                                                     message_boxes):
    """Issue 29: a Parquet file whose pages cannot be read (its SHA-256 and summary.json made
    to match) loads, and fails when its frames are read: the dialog says so and the open
    model stays."""
    import hashlib
    import json

    from solver.results import streaming
    from solver.results.files import summary_text

    window.open_example("robot_arm")
    folder = tmp_path / "run"
    monkeypatch.setattr(streaming, "BUNDLE_BYTES", -1)  # every table a Parquet file of its own
    write_results(make_results(), folder)
    nodes = folder / "nodes.parquet"
    data = bytearray(nodes.read_bytes())
    for i in range(4, 1200):  # the pages, not the footer: the file opens, its row group does not read
        data[i] ^= 0x5A
    nodes.write_bytes(bytes(data))
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    summary["files"]["nodes.parquet"]["sha256"] = hashlib.sha256(bytes(data)).hexdigest()
    (folder / "summary.json").write_text(summary_text(summary), encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))

    window.results_ui.open_results_action.trigger()

    [(box, title, text)] = message_boxes
    assert (box, title) == ("critical", "Cannot open results") and "nodes.parquet" in text
    assert window.document.model["name"] == "Flexible robot arm"
    assert window.simulation.playback.count == 0
