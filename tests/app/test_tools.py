"""Each canvas tool, driven by synthetic mouse and key events: what it creates, Esc, undo."""
from __future__ import annotations

import doctest
import math

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QApplication

from app.document import new_entities
from app.canvas import picking
from app.document.entities import EntityRef
from solver.model.validate import validate

from .conftest import small_model

O, A, B, BLOCK = (0.0, 0.0), (0.1, 0.0), (0.3, 0.0), (0.4, 0.1)


@pytest.mark.parametrize("module", [picking, new_entities])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


def tool_key(window, name: str) -> Qt.Key:
    return Qt.Key(window.tool_bar.actions_by_name[name].shortcut()[0].key())


def velocity_drag(user):
    start = user.pixel(*BLOCK)
    user.drag_pixels(start, start + QPoint(100, 0))  # 0.1 m/s per pixel


# tool, what the user does, collection, the entity expected, undo text
CASES = [
    ("node", lambda u: u.click(0.2, 0.03), "nodes", {"id": "N1", "x": 0.2, "y": 0.03}, "Add node N1"),
    ("link", lambda u: (u.click(*O), u.click(0.2, 0.03)), "links",
     {"id": "link1", "kind": "rigid", "nodes": ["O", "N1"], "mass": 1.0}, "Add link link1"),
    ("ground", lambda u: u.click(*A), "joints", {"id": "ground1", "kind": "ground", "node": "A"}, "Add joint ground1"),
    ("pin", lambda u: u.click(*A), "joints", {"id": "pin1", "kind": "pin", "node": "A"}, "Add joint pin1"),
    ("weld", lambda u: u.click(*A), "joints", {"id": "weld1", "kind": "weld", "node": "A", "links": ["crank", "rod"]},
     "Add joint weld1"),
    ("slider", lambda u: (u.click(*B), u.click(0.3, 0.04)), "joints",
     {"id": "slider1", "kind": "slider", "node": "B", "angle": math.pi / 2}, "Add joint slider1"),
    ("mass", lambda u: u.click(*B), "masses", {"id": "mass1", "node": "B", "mass": 1.0}, "Add mass mass1"),
    ("driver", lambda u: (u.click(0.05, 0.0), u.click(*O)), "drivers",
     {"id": "motor1", "kind": "speed", "link": "crank", "pivot": "O", "function": {"kind": "constant", "value": 1.0}},
     "Add driver motor1"),
    ("load", lambda u: u.drag(B, (0.3, -0.04)), "loads", {"id": "load1", "node": "B", "fy": -1.0}, "Add load load1"),
    ("body", lambda u: u.click(0.2, -0.03), "bodies",
     {"id": "body1", "kind": "point", "x": 0.2, "y": -0.03, "mass": 1.0}, "Add body body1"),
    ("velocity", velocity_drag, "initial_velocities", {"body": "blk", "vx": 10.0},
     "Add initial velocity of body blk"),
    # the block clicked first, as the other tools ask, then the arrow dragged from it
    ("velocity", lambda u: (u.click(*BLOCK), velocity_drag(u)), "initial_velocities", {"body": "blk", "vx": 10.0},
     "Add initial velocity of body blk"),
    ("contact", lambda u: (u.click(*BLOCK), u.click(*B)), "contacts",
     {"id": "contact1", "point": {"body": "blk"}, "target": {"kind": "node", "node": "B", "angle": math.pi / 4},
      "mu_s": 0.0, "mu_d": 0.0, "e": 1.0, "law": "energetic", "model": {"kind": "impulse"}}, "Add contact contact1"),
    ("contact", lambda u: (u.click(*BLOCK), u.click(0.2, 0.0)), "contacts",
     {"id": "contact1", "point": {"body": "blk"}, "target": {"kind": "link", "link": "rod", "side": "left"},
      "mu_s": 0.0, "mu_d": 0.0, "e": 1.0, "law": "energetic", "model": {"kind": "impulse"}}, "Add contact contact1"),
    # the block is beside the rod, not beyond its end A: clicking A strikes the rod's side
    ("contact", lambda u: (u.click(*BLOCK), u.click(*A)), "contacts",
     {"id": "contact1", "point": {"body": "blk"}, "target": {"kind": "link", "link": "rod", "side": "left"},
      "mu_s": 0.0, "mu_d": 0.0, "e": 1.0, "law": "energetic", "model": {"kind": "impulse"}}, "Add contact contact1"),
    ("ground_line", lambda u: (u.click(*BLOCK), u.drag((0.0, -0.04), (0.2, -0.04))), "contacts",
     {"id": "contact1", "point": {"body": "blk"}, "target": {"kind": "ground_line", "x": 0.0, "y": -0.04, "angle": 0.0},
      "mu_s": 0.0, "mu_d": 0.0, "e": 1.0, "law": "energetic", "model": {"kind": "impulse"}}, "Add contact contact1"),
    ("ground_segment", lambda u: (u.click(*B), u.drag((0.35, -0.04), (0.45, -0.04))), "contacts",
     {"id": "contact1", "point": {"node": "B"},
      "target": {"kind": "ground_segment", "x1": 0.35, "y1": -0.04, "x2": 0.45, "y2": -0.04},
      "mu_s": 0.0, "mu_d": 0.0, "e": 1.0, "law": "energetic", "model": {"kind": "impulse"}}, "Add contact contact1"),
    ("circle", lambda u: (u.click(*BLOCK), u.drag((0.2, 0.04), (0.25, 0.04))), "contacts",
     {"id": "contact1", "point": {"body": "blk"}, "target": {"kind": "circle", "x": 0.2, "y": 0.04, "radius": 0.05},
      "mu_s": 0.0, "mu_d": 0.0, "e": 1.0, "law": "energetic", "model": {"kind": "impulse"}}, "Add contact contact1"),
]


@pytest.mark.parametrize("tool, act, collection, expected, text", CASES, ids=[c[0] + str(i) for i, c in enumerate(CASES)])
def test_each_tool_creates_its_entity_as_one_undoable_command(user, tool, act, collection, expected, text):
    window = user.window
    before = window.document.model.get(collection, [])[:]
    user.key(tool_key(window, tool))
    assert window.tool_bar.actions_by_name[tool].isChecked()
    act(user)
    model = window.document.model
    assert model[collection][-1] == expected
    assert validate(model) == []
    stack = window.document.undo_stack
    assert stack.count() == 1 and stack.text(0) == text
    if "id" in expected:
        assert window.selection.refs == (EntityRef(collection, expected["id"]),)
    window.undo_action.trigger()
    assert window.document.model.get(collection, []) == before
    assert window.document.model == small_model()


@pytest.mark.parametrize("tool, first", [("link", O), ("slider", B), ("driver", (0.05, 0.0)), ("load", B),
                                         ("contact", BLOCK), ("ground_line", BLOCK), ("velocity", BLOCK)])
def test_esc_cancels_a_tool_half_way_and_returns_to_select(user, tool, first):
    window = user.window
    user.key(tool_key(window, tool))
    user.click(*first)
    user.key(Qt.Key.Key_Escape)
    assert window.tools.tool.name == "select" and window.tool_bar.actions_by_name["select"].isChecked()
    user.click(0.2, 0.04)
    assert window.document.undo_stack.count() == 0
    assert window.sketch._preview == []


def test_tools_are_chosen_from_the_tool_bar_too(user):
    window = user.window
    window.tool_bar.actions_by_name["node"].trigger()
    assert window.tools.tool.name == "node"
    user.click(0.2, 0.02)
    assert window.document.model["nodes"][-1]["id"] == "N1"


def test_a_link_ends_on_a_node_within_the_snap_radius_and_new_points_on_the_grid(user):
    window = user.window
    user.key(Qt.Key.Key_L)
    near_a = user.view.to_model(user.pixel(*A) + QPoint(4, -3))
    user.click(*near_a)
    user.click(0.1234, 0.0271)
    link = window.document.model["links"][-1]
    assert link["nodes"] == ["A", "N1"]
    assert window.document.model["nodes"][-1] == {"id": "N1", "x": 0.12, "y": 0.03}
    window.tool_bar.snap_action.setChecked(False)
    user.click(0.2234, 0.0271)
    user.click(0.0, 0.0)
    x = window.document.model["nodes"][-1]["x"]
    assert x != 0.22 and x == pytest.approx(0.2234, abs=2 * user.view.metres_per_pixel())


def test_a_weld_needs_two_links(user):
    user.key(Qt.Key.Key_W)
    user.click(*B)
    assert user.window.document.undo_stack.count() == 0
    assert user.window.statusBar().currentMessage() == "A weld needs two links at B"


def test_delete_tool_removes_an_entity_and_its_dependents(user):
    window = user.window
    user.key(Qt.Key.Key_X)
    user.click(*B)
    assert [n["id"] for n in window.document.model["nodes"]] == ["O", "A"]
    assert [link["id"] for link in window.document.model["links"]] == ["crank"]
    assert window.document.undo_stack.text(0) == "Delete node B"
    window.undo_action.trigger()
    assert window.document.model == small_model()


# ---------------------------------------------------------------- select and move
def test_rubber_band_selects_and_shift_adds(user):
    window = user.window
    user.drag((-0.02, -0.02), (0.15, 0.02))
    assert set(window.selection.refs) == {EntityRef("nodes", "O"), EntityRef("nodes", "A"), EntityRef("links", "crank")}
    user.click(*B, shift=True)
    assert EntityRef("nodes", "B") in window.selection.refs
    user.drag((0.35, 0.05), (0.45, 0.15), shift=True)
    assert EntityRef("bodies", "blk") in window.selection.refs and len(window.selection.refs) == 5
    user.click(*B, shift=True)  # shift-click toggles
    assert EntityRef("nodes", "B") not in window.selection.refs
    user.click(0.2, 0.045)  # a click on empty canvas clears
    assert window.selection.refs == ()


def test_clicking_selects_in_tree_and_property_panel(user):
    window = user.window
    user.click(0.2, 0.0)
    assert window.selection.refs == (EntityRef("links", "rod"),)
    assert window.tree.selectedItems()[0].text(0) == "rod"
    assert window.properties.ref == EntityRef("links", "rod")


def test_dragging_a_node_moves_its_links_live_and_undoes_in_one_step(user):
    window = user.window
    user.drag(B, (0.32, 0.04))
    model = window.document.model
    assert (model["nodes"][2]["x"], model["nodes"][2]["y"]) == (0.32, 0.04)
    stack = window.document.undo_stack
    assert stack.count() == 1 and stack.text(0) == "Move node B"
    user.drag((0.32, 0.04), (0.35, 0.04))  # a second drag is a second entry
    assert stack.count() == 2
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert window.document.model == small_model()


def test_dragging_a_selected_node_moves_all_selected_nodes(user):
    window = user.window
    user.drag((-0.02, -0.02), (0.15, 0.02))  # O and A
    user.drag(A, (0.1, 0.03))
    nodes = {n["id"]: (n["x"], n["y"]) for n in window.document.model["nodes"]}
    assert nodes == {"O": (0.0, 0.03), "A": (0.1, 0.03), "B": (0.3, 0.0)}
    assert window.document.undo_stack.text(0) == "Move 2 nodes"


def test_left_drag_on_empty_canvas_does_not_pan(user):
    before = user.view.getViewBox().viewRange()
    user.drag((0.2, 0.04), (0.25, -0.02))
    assert user.view.getViewBox().viewRange() == before


def hover(view, pixel: QPoint) -> None:
    """A mouse move with no button down (QTest's moves reach the widget only while a button is down)."""
    event = QMouseEvent(QEvent.Type.MouseMove, QPointF(pixel), QPointF(view.viewport().mapToGlobal(pixel)),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), event)


def test_hovering_outlines_what_a_click_would_pick(user):
    hover(user.view, user.pixel(*B))
    assert user.view._hover
    hover(user.view, user.pixel(0.2, 0.045))
    assert not user.view._hover
    user.key(Qt.Key.Key_D)  # the slider tool picks nodes only
    hover(user.view, user.pixel(0.2, 0.0))
    assert not user.view._hover
    hover(user.view, user.pixel(*B))
    assert user.view._hover


# ---------------------------------------------------------------- view
def test_middle_drag_and_space_drag_pan(user):
    view = user.view
    (x0, _x1), _y = view.getViewBox().viewRange()
    start = user.pixel(0.2, 0.0)
    viewport = view.viewport()
    user.qtbot.mousePress(viewport, Qt.MouseButton.MiddleButton, pos=start)
    for dx in (20, 40, 60):
        user.qtbot.mouseMove(viewport, start + QPoint(dx, 0))
    user.qtbot.mouseRelease(viewport, Qt.MouseButton.MiddleButton, pos=start + QPoint(60, 0))
    (x1, _), _y = view.getViewBox().viewRange()
    assert x1 == pytest.approx(x0 - 60 * view.metres_per_pixel(), rel=0.05)
    view.setFocus()
    user.qtbot.keyPress(view, Qt.Key.Key_Space)
    user.drag_pixels(start, start + QPoint(60, 0))
    user.qtbot.keyRelease(view, Qt.Key.Key_Space)
    (x2, _), _y = view.getViewBox().viewRange()
    assert x2 == pytest.approx(x1 - 60 * view.metres_per_pixel(), rel=0.05)
    assert user.window.document.undo_stack.count() == 0


def wheel(view, pixel: QPoint, steps: int) -> None:
    event = QWheelEvent(QPointF(pixel), QPointF(view.viewport().mapToGlobal(pixel)), QPoint(0, 0),
                        QPoint(0, 120 * steps), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), event)


@pytest.mark.parametrize("steps", [1, -2])
def test_wheel_zoom_keeps_the_point_under_the_cursor(user, steps):
    view = user.view
    pixel = user.pixel(0.3, 0.02)
    under = view.to_model(pixel)
    size = view.metres_per_pixel()
    wheel(view, pixel, steps)
    assert (view.metres_per_pixel() < size) == (steps > 0)
    after = view.to_model(pixel)
    assert math.dist(under, after) <= 1.5 * max(size, view.metres_per_pixel())


def test_the_grid_spacing_follows_the_zoom(user):
    view = user.view
    fine = view.grid_step()
    view.getViewBox().setRange(xRange=(-1.0, 5.0), yRange=(-0.5, 0.5), padding=0)
    # ten times the range: lines 10x (or, on a narrow canvas, 20x) farther apart
    assert view.grid_step() in (pytest.approx(10 * fine), pytest.approx(20 * fine))


def test_mesh_preview_follows_the_element_count(user):
    window = user.window
    window.selection.replace((EntityRef("links", "rod"),))
    user.type_field("kind", "flexible")
    user.type_field("mesh.elements", "6")
    assert len(ticks(window)) == 5
    user.type_field("mesh.elements", "3")
    assert len(ticks(window)) == 2


def ticks(window) -> list:
    from pyqtgraph import ScatterPlotItem
    from app.canvas.items import FLEXIBLE
    scatters = [i for i in window.sketch._items if isinstance(i, ScatterPlotItem)
                and i.opts["pen"].color().name() == FLEXIBLE]
    return [p for s in scatters for p in s.data]


def test_the_tool_bar_is_kept_with_the_layout(qtbot, settings):
    from app.shell.main_window import MainWindow
    first = MainWindow(settings)
    qtbot.addWidget(first)
    first.addToolBar(Qt.ToolBarArea.TopToolBarArea, first.tool_bar)
    first.close()
    second = MainWindow(settings)
    qtbot.addWidget(second)
    assert second.toolBarArea(second.tool_bar) == Qt.ToolBarArea.TopToolBarArea


def test_clicking_one_spot_again_goes_through_what_is_attached_there(user):
    window = user.window
    user.key(Qt.Key.Key_G)
    user.click(*A)
    user.key(Qt.Key.Key_Escape)
    seen = []
    for _ in range(5):
        user.click(*A)
        seen.append(str(window.selection.single))
    assert seen == ["nodes[A]", "links[crank]", "links[rod]", "joints[ground1]", "nodes[A]"]
    user.drag(A, (0.1, 0.03))  # a drag moves the node whatever is selected there
    assert window.document.model["nodes"][1] == {"id": "A", "x": 0.1, "y": 0.03}


def test_a_free_body_is_dragged_like_a_node(user):
    window = user.window
    user.drag(BLOCK, (0.42, 0.0))
    body = window.document.model["bodies"][0]
    assert (body["x"], body["y"]) == (0.42, 0.0)
    assert window.document.undo_stack.text(0) == "Move body blk"
    window.undo_action.trigger()
    assert window.document.model == small_model()


def test_opening_another_model_drops_a_tool_action_under_way(user):
    window = user.window
    user.key(Qt.Key.Key_L)
    user.click(*B)
    window.document.replace(small_model(), None)
    user.click(0.2, 0.03)
    assert window.document.undo_stack.count() == 0  # the click starts a new link
    user.click(0.25, 0.03)
    assert window.document.model["links"][-1]["nodes"] == ["N1", "N2"]


def test_every_tool_has_an_icon(window):
    for name, action in window.tool_bar.actions_by_name.items():
        image = action.icon().pixmap(32, 32).toImage()
        assert not action.icon().isNull(), name
        painted = sum(image.pixelColor(x, y).alpha() > 0 for x in range(32) for y in range(32))
        assert painted > 20, name


def test_a_click_on_a_body_selects_the_body_even_with_its_velocity_selected(user):
    """Issue #27: a body selected elsewhere (the tree, the tool that made it) and given an initial
    velocity: Select and a click on the body keep the body, not the arrow after it; a second
    click goes on to the arrow."""
    window = user.window
    user.key(tool_key(window, "velocity"))
    velocity_drag(user)
    user.key(Qt.Key.Key_S)
    window.selection.replace((EntityRef("bodies", "blk"),))
    user.click(*BLOCK)
    assert window.selection.single == EntityRef("bodies", "blk")
    user.click(*BLOCK)
    assert window.selection.single == EntityRef("initial_velocities", "blk")


def test_a_drawn_velocity_is_selected_for_typing(user):
    """Getting Started: drag the arrow, "or type vx": the arrow drawn is selected, its vx in
    the property panel, as every other tool selects what it made."""
    user.key(tool_key(user.window, "velocity"))
    velocity_drag(user)
    assert user.window.selection.single == EntityRef("initial_velocities", "blk")


def test_a_links_initial_velocity_and_angular_velocity_are_drawn_where_they_apply(qtbot, window):
    """The LAJSS rod's initial velocity is its link's (vx, vy at the middle of its first two nodes):
    nothing was drawn for it, nor for any omega.  A dashed arrow along (0.6, -1) m/s now starts
    there, and the omega typed in the panel adds a dashed curved arrow round it, clockwise, with
    its value."""
    from app.canvas.items import VELOCITY
    from app.canvas.symbols import Glyph, Label

    from .canvas_user import CanvasUser

    window.open_example("rod_impact_rigid")
    user = CanvasUser(qtbot, window)
    user.click_tree(EntityRef("initial_velocities", "rod"))
    user.type_field("omega", "-2.5 rad/s")
    assert window.document.model["initial_velocities"][0]["omega"] == -2.5
    items = window.sketch.getPlotItem().items
    glyphs = [i for i in items if isinstance(i, Glyph) and i._pen.color().name() == VELOCITY]
    nodes = {n["id"]: (n["x"], n["y"]) for n in window.document.model["nodes"]}
    (a, b) = (nodes[n] for n in window.document.model["links"][0]["nodes"][:2])
    assert len(glyphs) == 2  # the velocity's arrow and the angular velocity's curved arrow
    for glyph in glyphs:
        assert (glyph.pos().x(), glyph.pos().y()) == pytest.approx((0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1])))
    assert [i.text() for i in items if isinstance(i, Label) and i.text().startswith("ω")] == ["ω = -2.5 rad/s"]


def test_a_links_id_and_its_initial_velocity_arrow_both_read(qtbot, window):
    """The LAJSS rod's velocity arrow (0.6, -1) m/s leaves the middle of the rod down to the right,
    where the rod's id sat (9 px right of the middle): the id now slides along the rod, away from
    the arrow, and overlaps neither the arrow nor the value of an omega typed in the panel."""
    from app.canvas.symbols import Glyph, Label

    from .canvas_user import CanvasUser

    def drawn(view):
        """The screen rectangles of the dashed arrows (velocities) and of the labels, by text."""
        rects = [(i, i.deviceTransform(view.viewportTransform()).mapRect(i.boundingRect()))
                 for i in view.getPlotItem().items]
        return ([r for i, r in rects if isinstance(i, Glyph) and i._pen.style() == Qt.PenStyle.DashLine],
                {i.text(): r for i, r in rects if isinstance(i, Label)})

    window.open_example("rod_impact_rigid")
    qtbot.wait(20)
    arrows, labels = drawn(window.sketch)
    assert len(arrows) == 1 and not labels["rod"].intersects(arrows[0])
    user = CanvasUser(qtbot, window)
    user.click_tree(EntityRef("initial_velocities", "rod"))
    user.type_field("omega", "-2.5 rad/s")
    arrows, labels = drawn(window.sketch)
    assert len(arrows) == 2 and not any(labels["rod"].intersects(r) for r in arrows + [labels["ω = -2.5 rad/s"]])


def test_a_links_angular_velocity_reads_clear_of_its_velocity_arrow_to_the_left(qtbot, window):
    """The LAJSS rod stood upright (A typed at x = 0), its velocity turned to the left and an omega
    typed: the value of omega, on the rod's left, had the arrow run through it; it slides along the
    rod, away from the arrow."""
    from app.canvas.symbols import Glyph, Label

    from .canvas_user import CanvasUser

    window.open_example("rod_impact_rigid")
    user = CanvasUser(qtbot, window)
    user.click_tree(EntityRef("nodes", "A"))
    user.type_field("x", "0 m")
    user.click_tree(EntityRef("initial_velocities", "rod"))
    for field, value in (("vx", "-1 m/s"), ("vy", "0 m/s"), ("omega", "3 rad/s")):
        user.type_field(field, value)
    assert window.document.model["initial_velocities"][0] == {"link": "rod", "vx": -1.0, "vy": 0.0, "omega": 3.0}
    view = window.sketch
    rects = [(i, i.deviceTransform(view.viewportTransform()).mapRect(i.boundingRect())) for i in view.getPlotItem().items]
    dashed = [r for i, r in rects if isinstance(i, Glyph) and i._pen.style() == Qt.PenStyle.DashLine]
    arrow = next(r for r in dashed if r.height() < 20)                    # the straight arrow, to the left
    label = next(r for i, r in rects if isinstance(i, Label) and i.text() == "ω = 3 rad/s")
    assert arrow.width() > 40 and not label.intersects(arrow)


def test_the_symbols_docstring_examples(qapp):
    import doctest

    from app.canvas import symbols

    assert doctest.testmod(symbols).failed == 0


@pytest.mark.parametrize("velocity", [False, True])
def test_a_links_id_sits_beside_its_link_at_every_orientation(qtbot, window, velocity):
    """The rigid rod turned round its end B in steps of 45 degrees (node A typed in the panel), with
    and without its initial velocity: its id never touches the rod's 7 px line. Upright with the
    velocity, the id slid along the rod was centred on it (placed from the middle in the slid
    direction, nearly along the rod)."""
    from app.canvas.symbols import Label

    from .canvas_user import CanvasUser

    window.open_example("rod_impact_rigid")
    user = CanvasUser(qtbot, window)
    if not velocity:
        user.click_tree(EntityRef("initial_velocities", "rod"))
        window.delete_action.trigger()
    view = window.sketch
    for k in range(8):
        a = (round(math.cos(k * math.pi / 4), 6), round(math.sin(k * math.pi / 4), 6))
        user.click_tree(EntityRef("nodes", "A"))
        user.type_field("x", f"{a[0]} m")
        user.type_field("y", f"{a[1]} m")
        (label,) = [i for i in view.getPlotItem().items if isinstance(i, Label) and i.text() == "rod"]
        box = label.deviceTransform(view.viewportTransform()).mapRect(label.boundingRect())
        ends = [view.mapFromScene(view.getPlotItem().vb.mapViewToScene(QPointF(*p))) for p in ((0.0, 0.0), a)]
        grown = QRectF(box).adjusted(-3.5, -3.5, 3.5, 3.5)   # half the rigid link's pen
        line = [QPointF(ends[0]) + (QPointF(ends[1]) - QPointF(ends[0])) * (t / 200) for t in range(201)]
        assert not any(grown.contains(p) for p in line), f"A at {a}: the id on the rod"


def test_the_tool_bars_material_button_says_what_it_does(qtbot, window):
    """Under Snap to grid the tool bar ended in a frameless 'Material', read at 1280 x 800 as a
    heading whose content was cut off; it is a button adding a material: it says so."""
    from PySide6.QtWidgets import QToolButton

    window.open_example("rod_impact_rigid")                         # a rigid rod: no material yet
    (button,) = [b for b in window.tool_bar.findChildren(QToolButton) if b.text() == "Add material"]
    before = len(window.document.model.get("materials", []))
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert len(window.document.model["materials"]) == before + 1
    assert window.properties.table.rowCount() > 0                  # the new material, ready to edit
