"""Graphics items that draw a model document on the sketch canvas.

:func:`model_items` turns the document into pyqtgraph / Qt graphics items in model
coordinates (m); symbols keep their pixel size at every zoom (:mod:`.symbols`).
:func:`highlight_items` draws the halo of a selected entity from its
:class:`~app.canvas.geometry.Outline`.  Nothing here changes the document.
"""
from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainterPath, QTransform
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsItem

from . import geometry as geo
from . import symbols as sym
from ..document.entities import EntityRef, find_entity
from ..document.units import format_quantity

# colours of the sketch
RIGID = "#2c3e50"
FLEXIBLE = "#1f6fb4"
GROUND = "#404040"
MASS = "#6c3483"
BODY = "#7f8c8d"
LOAD = "#c0392b"
DRIVER = "#1e8449"
CONTACT = "#8d5b2d"
CLEARANCE = "#b9770e"
VELOCITY = "#d35400"
LABEL = "#202020"
HIGHLIGHT = QColor(255, 150, 0, 130)
HOVER = QColor(0, 150, 255, 110)
PREVIEW = "#0a84ff"

# radii (px) of the curved arrows of drivers, torques and initial angular velocities
DRIVER_RADIUS, TORQUE_RADIUS, OMEGA_RADIUS = 15, 22, 30

# stacking order: halos under links under symbols under nodes under labels
Z_HALO, Z_GUIDE, Z_LINK, Z_SYMBOL, Z_NODE, Z_MASS, Z_LABEL = range(-1, 6)


def _pen(color, width: float = 1.5, style=Qt.PenStyle.SolidLine):
    return pg.mkPen(color, width=width, style=style, capStyle=Qt.PenCapStyle.RoundCap,
                    joinStyle=Qt.PenJoinStyle.RoundJoin)


def _z(item: QGraphicsItem, z: float) -> QGraphicsItem:
    item.setZValue(z)
    return item


def _curve(pts: list[geo.Point], pen, z: float) -> QGraphicsItem:
    return _z(pg.PlotCurveItem([p[0] for p in pts], [p[1] for p in pts], pen=pen, antialias=True), z)


def _scatter(pts: list[geo.Point], symbol, size: float, pen, brush, z: float) -> QGraphicsItem:
    return _z(pg.ScatterPlotItem(pos=pts, symbol=symbol, size=size, pen=pen, brush=brush, antialias=True), z)


def _glyph(symbol: sym.Symbol, pt: geo.Point, color, brush=None, width: float = 1.5,
           style=Qt.PenStyle.SolidLine) -> QGraphicsItem:
    return _z(sym.Glyph(symbol, pt[0], pt[1], _pen(color, width, style), pg.mkBrush(brush or color)), Z_SYMBOL)


def _label(text: str, pt: geo.Point, color=LABEL, direction: float = math.pi / 4, distance: float = 7.0,
           italic: bool = False, bold: bool = False) -> QGraphicsItem:
    return _z(sym.Label(text, pt[0], pt[1], color, direction, distance, italic, bold), Z_LABEL)


def _circle(x: float, y: float, r: float, pen, brush) -> QGraphicsItem:
    item = QGraphicsEllipseItem(x - r, y - r, 2 * r, 2 * r)
    item.setPen(pen)
    item.setBrush(brush)
    return _z(item, Z_LINK)


def _tick(angle: float) -> QPainterPath:
    """A scatter symbol: a short stroke across a link running along ``angle``."""
    path = QPainterPath()
    path.moveTo(0, -0.5)
    path.lineTo(0, 0.5)
    return QTransform().rotateRadians(-angle).map(path)


def _link_items(doc: dict, link: dict) -> list[QGraphicsItem]:
    pts = geo.link_polyline(doc, link)
    mid = ((pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2)
    if link["kind"] == "rigid":
        items = [_curve(pts, _pen(RIGID, 7), Z_LINK)]
        color = RIGID
    else:  # flexible: solid, modal: dashed (a floating frame carrying vibration modes)
        color = FLEXIBLE
        style = Qt.PenStyle.DashLine if link["kind"] == "modal" else Qt.PenStyle.SolidLine
        items = [_curve(pts, _pen(FLEXIBLE, 3, style), Z_LINK)]
        ticks = geo.mesh_points(doc, link)
        if ticks:
            items.append(_scatter(ticks, _tick(geo.link_angle(doc, link)), 12, _pen(FLEXIBLE, 2), None, Z_LINK))
    items.append(_link_label(doc, link, mid, color))
    return items


def _link_label(doc: dict, link: dict, mid: geo.Point, color: str) -> QGraphicsItem:
    """The link's id beside its first segment, 9 px on its right (below a link to the right), at
    ``mid``; slid along the link past the reach of the link's initial-velocity arrow, away from it,
    when it has one (the arrow leaves ``mid`` too: on ``rod_impact_rigid`` it crossed the id), and
    still 9 px on its right there (placed from ``mid`` in the slid direction, an upright link's id
    was centred on the link)."""
    angle = geo.link_angle(doc, link)
    velocity = next((v for v in doc.get("initial_velocities", []) if v.get("link") == link["id"]), {})
    vx, vy = velocity.get("vx", 0.0), velocity.get("vy", 0.0)
    reach = sym.ARROW_GAP + sym.ARROW_LENGTH if vx or vy else 0.0  # px
    along = -math.copysign(reach, vx * math.cos(angle) + vy * math.sin(angle))
    label = _label(link["id"], mid, color, angle - math.pi / 2, 9, italic=True)
    label.place(angle - math.pi / 2, 9, (along * math.cos(angle), along * math.sin(angle)))
    return label


def _joint_items(doc: dict, joint: dict) -> list[QGraphicsItem]:
    pt = geo.node_positions(doc)[joint["node"]]
    kind = joint["kind"]
    if kind == "ground":
        return [_glyph(sym.ground_pin(), pt, GROUND, "white")]
    if kind == "fixed":
        away = geo.leaving_angle(doc, joint["node"], joint.get("links"))
        return [_glyph(sym.clamp(math.pi / 2 if away is None else away), pt, GROUND)]
    if kind == "slider":
        guide = _curve(geo.slider_guide(doc, joint), _pen(GROUND, 1.5, Qt.PenStyle.DashLine), Z_GUIDE)
        return [guide, _glyph(sym.slider_block(joint.get("angle", 0.0)), pt, GROUND, "#d5d8dc")]
    if kind == "weld":
        return [_scatter([pt], "d", 12, _pen(GROUND), GROUND, Z_SYMBOL)]
    if kind == "translational_clearance":  # the slider's outline between the guide's two surfaces
        block, *surfaces = geo.slider_in_guide(doc, joint)
        guide = [_curve(line, _pen(GROUND, 1.5), Z_GUIDE) for line in surfaces]
        return [_curve(block, _pen(CLEARANCE, 2.0), Z_LINK), *guide]
    if kind == "clearance":  # above a slider's block and a lumped mass at the same node
        return [_z(_glyph(sym.journal_in_bearing(14.0, 7.0), pt, CLEARANCE, "#f5cba7", width=2.5), Z_MASS + 0.5)]
    return [_glyph(sym.ring(8), pt, GROUND)]


def _body_items(body: dict) -> list[QGraphicsItem]:
    x, y, r = body["x"], body["y"], body.get("radius", 0.0)
    fill = QColor(BODY)
    fill.setAlpha(70)
    if r > 0:
        items = [_circle(x, y, r, _pen(BODY, 2), pg.mkBrush(fill)), _scatter([(x, y)], "+", 10, _pen(BODY), None, Z_NODE)]
    else:
        items = [_scatter([(x, y)], "o", 16, _pen(BODY, 2), fill, Z_NODE)]
    return items + [_label(body["id"], (x, y + r), BODY, math.pi / 2, 10)]


def _driver_items(doc: dict, driver: dict) -> list[QGraphicsItem]:
    pos = geo.node_positions(doc)
    if "pivot" in driver:
        pt = pos[driver["pivot"]]
        arc = _glyph(sym.curved_arrow(DRIVER_RADIUS, clockwise=_is_negative(driver["function"])), pt, DRIVER, width=2)
        return [arc, _label("M", pt, DRIVER, math.pi / 2, DRIVER_RADIUS + 2, bold=True)]
    pt = pos[driver["node"]]
    arrows = _glyph(sym.double_arrow(0.0 if driver["direction"] == "x" else math.pi / 2), pt, DRIVER, width=2)
    return [arrows, _label("M", pt, DRIVER, 3 * math.pi / 4, 14, bold=True)]


def _is_negative(function: dict) -> bool:
    """Whether a constant or linear time function is negative (a clockwise driver)."""
    kind = function.get("kind", "constant")
    return (kind == "constant" and function.get("value", 1.0) < 0) or (kind == "linear" and function["rate"] < 0)


def _load_items(doc: dict, load: dict) -> list[QGraphicsItem]:
    pt = geo.node_positions(doc)[load["node"]]
    fx, fy, torque = load.get("fx", 0.0), load.get("fy", 0.0), load.get("torque", 0.0)
    items = []
    if fx or fy:
        items.append(_glyph(sym.arrow(math.atan2(fy, fx)), pt, LOAD, width=2))
    if torque:
        items.append(_glyph(sym.curved_arrow(TORQUE_RADIUS, clockwise=torque < 0, start=25, span=250), pt, LOAD, width=2))
    return items


def _moving_items(doc: dict, item: dict) -> list[QGraphicsItem]:
    """A moving support (a pin symbol), mass (a square) or force (an arrow) where it starts on
    its link, with its id."""
    pt = geo.moving_point(doc, item)
    kind = item.get("kind")
    if kind == "support":
        shapes = [_glyph(sym.ground_pin(), pt, GROUND)]
    elif kind == "mass":
        shapes = [_scatter([pt], "s", 12, _pen(MASS), MASS, Z_MASS)]
    else:
        shapes = []
    fx, fy = item.get("fx", 0.0), item.get("fy", 0.0)
    if fx or fy:
        shapes.append(_glyph(sym.arrow(math.atan2(fy, fx)), pt, LOAD, width=2))
    return shapes + [_label(item["id"], pt, LOAD, math.pi / 4, 14, italic=True)]


def _velocity_items(doc: dict, velocity: dict) -> list[QGraphicsItem]:
    """A dashed arrow along the initial velocity of a node, a free body or a link (where its ``vx``,
    ``vy`` apply: the middle of its first two nodes), and a dashed curved arrow round that point
    turning as its angular velocity ``omega``, with its value (``ω = -7.5 rad/s``) above the point (a
    link's on the left of the link, its id being on the right), slid clear of the arrow
    (:func:`_clear_of_arrow`)."""
    vx, vy, omega = velocity.get("vx", 0.0), velocity.get("vy", 0.0), velocity.get("omega", 0.0)
    side = math.pi / 2
    if "node" in velocity:
        pt = geo.node_positions(doc)[velocity["node"]]
    elif "body" in velocity:
        pt = geo.outline(doc, EntityRef("bodies", velocity["body"])).points[0]
    else:
        link = find_entity(doc, EntityRef("links", velocity["link"]))[1]
        pts, side = geo.link_polyline(doc, link), geo.link_angle(doc, link) + math.pi / 2
        pt = ((pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2)
    dashed = Qt.PenStyle.DashLine
    items = [_glyph(sym.arrow(math.atan2(vy, vx)), pt, VELOCITY, width=2, style=dashed)] if vx or vy else []
    if omega:
        arc = sym.curved_arrow(OMEGA_RADIUS, clockwise=omega < 0, start=150, span=240)  # the top clear for labels
        label = _label(f"ω = {format_quantity(omega, 'rad/s')}", pt, VELOCITY, side, OMEGA_RADIUS + 3)
        if vx or vy:
            _clear_of_arrow(label, side, OMEGA_RADIUS + 3, math.atan2(vy, vx))
        items += [_glyph(arc, pt, VELOCITY, width=2, style=dashed), label]
    return items


def _clear_of_arrow(label: sym.Label, side: float, distance: float, arrow: float) -> None:
    """Slide ``label``, ``distance`` px from its point towards ``side`` (rad), across that direction
    past the reach of the velocity arrow along ``arrow`` (rad), away from it first, where the arrow
    crosses it (a link's ω value on its left and a velocity to the left: the arrow ran through it)."""
    reach = sym.ARROW_GAP + sym.ARROW_LENGTH  # px
    across = side - math.pi / 2  # along the link, or along x for a node or a body
    away = -math.copysign(reach, math.cos(arrow - across))
    for shift in (0.0, away, -away):
        x, y = distance * math.cos(side) + shift * math.cos(across), distance * math.sin(side) + shift * math.sin(across)
        label.place(math.atan2(y, x), math.hypot(x, y))
        if not sym.arrow_meets(label.box(), arrow):
            return
    label.place(side, distance)  # no place clear of it: where it was


def _contact_items(doc: dict, contact: dict) -> list[QGraphicsItem]:
    """The striking point's marker and the fixed target, labelled on its contact side.

    Targets that are parts of the mechanism (a link, a node) are drawn already; only
    the marker at the point shows the pair there, and selecting it shows the target.
    """
    target = contact["target"]
    kind = target["kind"]
    items = [_glyph(sym.ring(11), geo.contact_point(doc, contact), CONTACT, style=Qt.PenStyle.DotLine)]
    if kind == "ground_line":
        where, angle = (target.get("x", 0.0), target.get("y", 0.0)), target.get("angle", 0.0)
        line = pg.InfiniteLine(pos=where, angle=math.degrees(angle), pen=_pen(CONTACT, 2), movable=False)
        items += [_z(line, Z_LINK), _glyph(sym.ground_hatch(angle), where, CONTACT)]
    elif kind == "ground_segment":
        pts = [(target["x1"], target["y1"]), (target["x2"], target["y2"])]
        where = ((pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2)
        angle = math.atan2(pts[1][1] - pts[0][1], pts[1][0] - pts[0][0])
        items += [_curve(pts, _pen(CONTACT, 2.5), Z_LINK), _glyph(sym.ground_hatch(angle), where, CONTACT)]
    elif kind == "circle":
        x, y, r = target.get("x", 0.0), target.get("y", 0.0), target["radius"]
        items.append(_circle(x, y, r, _pen(CONTACT, 2), pg.mkBrush(None)))
        where, angle = (x, y + r), 0.0
    else:
        return items
    # the normal of a ground target is the left side of its direction
    return items + [_label(contact["id"], where, CONTACT, angle + math.pi / 2, 6, italic=True)]


def _label_clearance(doc: dict) -> dict[str, float]:
    """How far (px) a node's label must stay from the node to clear the symbols drawn there."""
    clear: dict[str, float] = {}

    def need(node: str, px: float) -> None:
        clear[node] = max(clear.get(node, 7.0), px)

    for mass in doc.get("masses", []):
        need(mass["node"], 11)
    for joint in doc.get("joints", []):
        if joint["kind"] in ("slider", "clearance", "fixed"):
            need(joint["node"], 17)
    for driver in doc.get("drivers", []):
        need(driver.get("pivot") or driver["node"], DRIVER_RADIUS + 9)
    for load in doc.get("loads", []):
        if load.get("torque", 0.0):
            need(load["node"], TORQUE_RADIUS + 9)
    return clear


def model_items(doc: dict) -> list[QGraphicsItem]:
    """Every graphics item that draws the document, in model coordinates."""
    pos = geo.node_positions(doc)
    items: list[QGraphicsItem] = []
    for link in doc.get("links", []):
        items += _link_items(doc, link)
    for joint in doc.get("joints", []):
        items += _joint_items(doc, joint)
    if pos:
        items.append(_scatter(list(pos.values()), "o", 9, _pen(LABEL, 1.5), "white", Z_NODE))
        clear = _label_clearance(doc)
        items += [_label(node_id, pt, direction=geo.label_direction(doc, node_id), distance=clear.get(node_id, 7.0))
                  for node_id, pt in pos.items()]
    masses = [pos[m["node"]] for m in doc.get("masses", [])]
    if masses:
        items.append(_scatter(masses, "s", 12, _pen(MASS), MASS, Z_MASS))
    for body in doc.get("bodies", []):
        items += _body_items(body)
    for driver in doc.get("drivers", []):
        items += _driver_items(doc, driver)
    for load in doc.get("loads", []):
        items += _load_items(doc, load)
    for item in doc.get("moving", []):
        items += _moving_items(doc, item)
    for contact in doc.get("contacts", []):
        items += _contact_items(doc, contact)
    for velocity in doc.get("initial_velocities", []):
        items += _velocity_items(doc, velocity)
    return items


def highlight_items(shape: geo.Outline, color: QColor = HIGHLIGHT, width: float = 12) -> list[QGraphicsItem]:
    """Halos under the points and polylines of a selected entity."""
    items = [_curve(line, _pen(color, width), Z_HALO) for line in shape.polylines]
    if shape.points:
        items.append(_scatter(shape.points, "o", 2 * width + 2, pg.mkPen(None), color, Z_HALO))
    return items


def hover_items(shape: geo.Outline) -> list[QGraphicsItem]:
    """A thinner, blue halo under the entity the cursor is over."""
    return highlight_items(shape, HOVER, 8)


def preview_line(pts: list[geo.Point]) -> QGraphicsItem:
    """A dashed polyline a tool draws while the user picks its points."""
    return _curve(pts, _pen(PREVIEW, 1.5, Qt.PenStyle.DashLine), Z_LABEL)


def preview_rect(corner1: geo.Point, corner2: geo.Point) -> QGraphicsItem:
    """The rubber band of a rectangle selection."""
    (x1, y1), (x2, y2) = corner1, corner2
    return preview_line([(x1, y1), (x2, y1), (x2, y2), (x1, y2), (x1, y1)])
