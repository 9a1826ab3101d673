"""The oil film and the bearing wear of a clearance joint in the property panel (issue 30):
the dry joint of the shipped example shows ``lubricant`` and ``wear`` as unchecked boxes;
checking one adds it, its fields are then typed with their units (one undo entry each), and
the model validates."""
from __future__ import annotations

from PySide6.QtCore import Qt

from app.document.entities import EntityRef
from solver.model.validate import validate

from .canvas_user import CanvasUser
from .test_free_strains_gui import toggle_with_space

JOINT = EntityRef("joints", "B-clearance")


def joint(window) -> dict:
    return next(j for j in window.document.model["joints"] if j["id"] == "B-clearance")


def test_an_oil_film_is_added_to_a_clearance_joint_in_the_panel(qtbot, window):
    window.open_example("slider_crank_clearance_lankarani_nikravesh")
    user = CanvasUser(qtbot, window)
    user.click_tree(JOINT)
    view = window.properties
    row = view.row_of("lubricant")
    assert view.table.item(row, 1).checkState() == Qt.CheckState.Unchecked
    assert "oil film" in view.table.item(row, 1).toolTip()

    toggle_with_space(qtbot, window, "lubricant")
    assert "lubricant" in joint(window)
    user.type_field("lubricant.viscosity", "40 mPa s")
    assert joint(window)["lubricant"]["viscosity"] == 0.04
    assert view.row_of("lubricant.film_limit") >= 0
    assert validate(window.document.model) == []


def test_bearing_wear_is_added_in_the_panel(qtbot, window):
    window.open_example("slider_crank_clearance_lankarani_nikravesh")
    user = CanvasUser(qtbot, window)
    user.click_tree(JOINT)
    toggle_with_space(qtbot, window, "wear")
    user.type_field("wear.coefficient", "1e-4")
    user.type_field("wear.hardness", "2 GPa")
    assert joint(window)["wear"] == {"coefficient": 1e-4, "hardness": 2e9, "bins": 360}
    assert validate(window.document.model) == []
