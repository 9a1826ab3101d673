"""The main window driven like a user: examples, files, selection, layout."""
from __future__ import annotations

import json
import math

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QFileDialog

from app.document.entities import GROUPS, EntityRef, entity_refs
from app.shell.main_window import MainWindow
from app.canvas.items import Z_HALO
from solver.model.io import dumps_model, list_examples, load_model

EXAMPLES = {name: path for name, path, _desc in list_examples()}


def halos(window: MainWindow) -> list:
    return [item for item in window.sketch.getPlotItem().items if item.zValue() == Z_HALO]


def property_table(window: MainWindow) -> dict[str, tuple[str, str]]:
    table = window.properties.table
    return {table.item(r, 0).text(): (table.item(r, 1).text(), table.item(r, 2).text())
            for r in range(table.rowCount())}


def click_tree_item(qtbot, window: MainWindow, ref: EntityRef) -> None:
    item = window.tree.item_for(ref)
    window.tree.scrollToItem(item)
    rect = window.tree.visualItemRect(item)
    qtbot.mouseClick(window.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_window_starts_empty(window):
    assert window.windowTitle() == "Flexmech"
    assert not window.save_as_action.isEnabled()
    assert all(window.tree.group(coll).childCount() == 0 for _title, coll in GROUPS)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_opens(window, message_boxes, name):
    assert window.open_example(name)
    model = load_model(EXAMPLES[name])
    assert message_boxes == []
    assert window.windowTitle() == f"Flexmech — {model['name']}"
    for title, collection in GROUPS:
        group = window.tree.group(collection)
        assert group.text(0) == title
        assert group.childCount() == len(model.get(collection, []))
        assert group.text(1) == str(group.childCount())
        assert [group.child(i).text(0) for i in range(group.childCount())] == [r.id for r in entity_refs(model, collection)]
    assert window.sketch.getPlotItem().items, "nothing drawn"
    assert window.save_as_action.isEnabled()


def test_examples_menu_action_loads_that_model(window):
    window.open_example("robot_arm")
    action = window.example_actions["four_bar_flexible"]
    description = dict((n, d) for n, _p, d in list_examples())["four_bar_flexible"]
    assert action.toolTip() == description
    assert action.statusTip() == description
    action.trigger()
    assert window.document.model == load_model(EXAMPLES["four_bar_flexible"])
    assert window.document.path is None  # an example opens as a model without a file
    assert window.windowTitle() == "Flexmech — Flexible four-bar (Turcic-Midha)"


def test_selecting_a_tree_item_shows_its_properties_and_highlights_it(qtbot, window):
    window.open_example("slider_crank_flexible")
    assert window.properties.table.rowCount() == 0
    assert halos(window) == []

    click_tree_item(qtbot, window, EntityRef("links", "rod"))

    assert window.selection.refs == (EntityRef("links", "rod"),)
    rows = property_table(window)
    assert rows["kind"] == ("flexible", "")
    assert rows["section.d"] == ("0.006", "m")
    assert rows["mesh.elements"] == ("8", "-")
    assert "links[rod]" in window.properties.title.text()
    assert halos(window)

    click_tree_item(qtbot, window, EntityRef("masses", "slider"))
    assert property_table(window)["mass"] == ("0.0333778511", "kg")
    assert property_table(window)["inertia"] == ("0", "kg m^2")  # a default, from the schema


def test_selection_made_elsewhere_shows_in_the_tree(window):
    window.open_example("four_bar_flexible")
    ref = EntityRef("joints", "C-ground")
    window.selection.replace((ref,))
    assert window.tree.item_for(ref).isSelected()
    assert property_table(window)["node"] == ("C", "")


def test_opening_another_model_clears_the_selection(window):
    window.open_example("four_bar_flexible")
    window.selection.replace((EntityRef("links", "coupler"),))
    window.open_example("robot_arm")
    assert window.selection.refs == ()
    assert halos(window) == []
    assert window.properties.table.rowCount() == 0


def test_group_items_are_not_selectable(window):
    window.open_example("robot_arm")
    assert not window.tree.group("links").flags() & Qt.ItemFlag.ItemIsSelectable


def test_invalid_file_lists_its_problems_and_keeps_the_model(tmp_path, monkeypatch, window, message_boxes):
    window.open_example("slider_crank_flexible")
    before = window.document.model
    bad = load_model(EXAMPLES["slider_crank_flexible"])
    bad["links"][0]["mass"] = -1.0
    bad["joints"][1]["node"] = "Z"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))

    window.open_action.trigger()

    assert len(message_boxes) == 1
    kind, title, text = message_boxes[0]
    assert kind == "critical" and "broken.json" in title
    assert "links[crank].mass: must be > 0" in text
    assert "joints[B-slider].node: no node with id 'Z'" in text
    assert window.document.model is before
    assert window.windowTitle() == "Flexmech — Flexible slider-crank"
    assert window.recent.paths() == []


def test_file_that_is_not_json_is_refused(tmp_path, window, message_boxes):
    window.open_example("robot_arm")
    path = tmp_path / "junk.json"
    path.write_text("{ not json", encoding="utf-8")
    assert not window.open_path(path)
    assert "invalid JSON at line 1" in message_boxes[0][2]
    assert window.document.model["name"] == "Flexible robot arm"


def test_save_as_writes_a_file_that_round_trips(tmp_path, monkeypatch, window, message_boxes):
    window.open_example("four_bar_flexible")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "copy"), ""))

    window.save_as_action.trigger()

    out = tmp_path / "copy.json"
    assert message_boxes == []
    assert load_model(out) == window.document.model
    assert out.read_text(encoding="utf-8") == EXAMPLES["four_bar_flexible"].read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == dumps_model(window.document.model)
    assert window.document.path == out.resolve()
    assert list(tmp_path.glob(".*.tmp")) == []
    assert window.recent.paths() == [out.resolve()]


def test_save_as_cancelled_writes_nothing(tmp_path, monkeypatch, window):
    window.open_example("robot_arm")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: ("", ""))
    assert not window.save_as()
    assert list(tmp_path.glob("*.json")) == []


def test_recent_files_menu_reopens_a_file_and_forgets_missing_ones(tmp_path, window, message_boxes):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for path in (first, second):
        path.write_text(EXAMPLES["robot_arm"].read_text(encoding="utf-8"), encoding="utf-8")
        assert window.open_path(path)
    entries = [a for a in window.recent_menu.actions() if a.statusTip()]
    assert [a.statusTip() for a in entries] == [str(second.resolve()), str(first.resolve())]

    entries[1].trigger()
    assert window.document.path == first.resolve()

    second.unlink()
    [a for a in window.recent_menu.actions() if a.statusTip() == str(second.resolve())][0].trigger()
    assert "cannot read" in message_boxes[-1][2]
    assert window.recent.paths() == [first.resolve()]


def test_recent_files_persist_across_windows(qtbot, tmp_path, settings, window):
    path = tmp_path / "model.json"
    path.write_text(EXAMPLES["robot_arm"].read_text(encoding="utf-8"), encoding="utf-8")
    window.open_path(path)
    other = MainWindow(settings)
    qtbot.addWidget(other)
    assert other.recent.paths() == [path.resolve()]
    assert other.recent_menu.isEnabled()


def test_dock_layout_and_geometry_persist(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "layout.ini"), QSettings.Format.IniFormat)
    first = MainWindow(settings)
    qtbot.addWidget(first)
    first.show()
    qtbot.waitExposed(first)
    # within the offscreen screen (800 x 600; restoreGeometry clamps to it) and above the
    # window's minimum width (about 760 px with the playback bar)
    first.resize(790, 520)
    first.property_dock.hide()
    first.results_ui.compare_dock.raise_()  # its tab in front of the events'
    first.simulation.bar.hide()
    first.close()

    second = MainWindow(settings)
    qtbot.addWidget(second)
    second.show()
    qtbot.waitExposed(second)
    qtbot.waitUntil(lambda: (second.width(), second.height()) == (790, 520))  # once the docks are restored
    assert second.property_dock.isHidden() and second.simulation.bar.isHidden()
    assert not second.tree_dock.isHidden()
    compare, events = second.results_ui.compare_dock, second.results_ui.events_dock
    assert not compare.visibleRegion().isEmpty() and events.visibleRegion().isEmpty()


def test_cursor_position_shows_in_the_status_bar(qtbot, window):
    window.open_example("robot_arm")
    qtbot.wait(20)  # let the canvas settle into its laid-out size
    point = QPoint(window.sketch.viewport().width() // 2, window.sketch.viewport().height() // 3)
    qtbot.mouseMove(window.sketch.viewport(), point)
    qtbot.waitUntil(lambda: window.cursor_label.text() != "")
    expected = window.sketch.getViewBox().mapSceneToView(window.sketch.mapToScene(point))
    assert window.cursor_label.text() == window.sketch.cursor_text(expected.x(), expected.y())


def test_the_cursor_position_is_in_the_units_of_the_canvas_axes(qtbot, window):
    """Zoomed in on a 0.2 m sketch the canvas axes read mm: the status bar gives the cursor in mm
    too, to the digit a pixel resolves (it gave m, ``x = 0.1234 m``, beside axes in mm)."""
    window.open_example("robot_arm")
    window.sketch.getViewBox().setRange(xRange=(0.0, 0.2), yRange=(-0.05, 0.05), padding=0)
    qtbot.wait(20)
    axis = window.sketch.getPlotItem().getAxis("bottom")
    assert axis.labelString().endswith("(mm)</span>")
    point = QPoint(window.sketch.viewport().width() // 3, window.sketch.viewport().height() // 2)
    qtbot.mouseMove(window.sketch.viewport(), point)
    qtbot.waitUntil(lambda: window.cursor_label.text() != "")
    expected = window.sketch.getViewBox().mapSceneToView(window.sketch.mapToScene(point))
    (x, x_unit), (y, y_unit) = (part.split(" = ")[1].split() for part in window.cursor_label.text().split("   "))
    assert (x_unit, y_unit) == ("mm", "mm")
    pixel_mm = 1e3 * window.sketch.metres_per_pixel()
    assert float(x) == pytest.approx(1e3 * expected.x(), abs=pixel_mm)
    assert float(y) == pytest.approx(1e3 * expected.y(), abs=pixel_mm)
    assert 0.01 <= pixel_mm and len(x.split(".")[1]) == math.ceil(-math.log10(pixel_mm))


def test_both_canvas_axes_and_the_cursor_read_one_unit(qtbot, window):
    """``rod_impact_rigid`` fitted in a 1280 x 800 window: x reaches past 1 m, y to 0.8 m. Both axes
    read m, as does the status bar (pyqtgraph picked each axis's prefix: x in m, y in mm); zoomed
    in on 0.2 m, both read mm."""
    window.resize(1280, 800)
    window.open_example("rod_impact_rigid")
    qtbot.wait(20)
    (x0, x1), (y0, y1) = window.sketch.getViewBox().viewRange()
    assert max(abs(x0), abs(x1)) > 1.0 > max(abs(y0), abs(y1))
    plot = window.sketch.getPlotItem()
    assert all(plot.getAxis(side).labelString().endswith(" (m)</span>") for side in ("bottom", "left"))
    point = QPoint(window.sketch.viewport().width() // 2, window.sketch.viewport().height() // 2)
    qtbot.mouseMove(window.sketch.viewport(), point)
    qtbot.waitUntil(lambda: window.cursor_label.text() != "")
    assert [part.split()[-1] for part in window.cursor_label.text().split("   ")] == ["m", "m"]
    window.sketch.getViewBox().setRange(xRange=(0.0, 0.2), yRange=(0.0, 0.2), padding=0)
    assert [window.sketch.axis_unit(side) for side in ("bottom", "left")] == [(1000.0, "mm")] * 2


def test_zoom_to_fit_shows_the_whole_model(window):
    window.open_example("four_bar_flexible")
    window.sketch.getViewBox().setRange(xRange=(5, 6), yRange=(5, 6), padding=0)
    window.zoom_fit_action.trigger()
    rect = window.sketch.getViewBox().viewRect()
    for node in window.document.model["nodes"]:
        assert rect.contains(node["x"], node["y"])


def test_about_box(window, message_boxes):
    window.about_action.trigger()
    assert message_boxes[0][0] == "about"
    assert "Flexmech" in message_boxes[0][2]
