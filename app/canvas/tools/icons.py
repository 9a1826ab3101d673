"""Tool-bar icons drawn from the sketch's own symbols and colours.

Each tool's icon shows what the tool puts on the canvas, in the colour the canvas
draws it with (:mod:`app.canvas.items`): the ground pin's triangle, the slider's
block, the driver's curved arrow, and so on.  Icons are painted once per name into a
32 px pixmap (y-down, origin at the centre); no image files ship with the app.
"""
from __future__ import annotations

import math
from functools import cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap, QTransform

from .. import symbols as sym
from ..items import BODY, CLEARANCE, CONTACT, DRIVER, FLEXIBLE, GROUND, LOAD, MASS, RIGID, VELOCITY

SIZE = 32


def _dot(x: float, y: float, r: float = 3.5) -> QPainterPath:
    path = QPainterPath()
    path.addEllipse(QPointF(x, y), r, r)
    return path


def _line(*pts: tuple[float, float]) -> QPainterPath:
    path = QPainterPath()
    path.moveTo(*pts[0])
    for p in pts[1:]:
        path.lineTo(*p)
    return path


def _scaled(symbol: sym.Symbol, factor: float, dx: float = 0.0, dy: float = 0.0) -> sym.Symbol:
    """A symbol (drawn in canvas pixels) shrunk to the icon and moved by (dx, dy)."""
    t = QTransform().translate(dx, dy).scale(factor, factor)
    return sym.Symbol(t.map(symbol.stroke), t.map(symbol.fill))


def _shapes(name: str) -> tuple[str, list[sym.Symbol]]:
    """The colour and the symbols (in icon pixels about the centre) of a tool's icon."""
    empty = QPainterPath()
    node = sym.Symbol(_dot(0, 0), empty)
    if name == "select":
        cursor = _line((-7, -11), (-7, 8), (-2, 4), (2, 12), (5, 11), (1, 3), (7, 3))
        cursor.closeSubpath()
        return RIGID, [sym.Symbol(empty, cursor)]
    if name == "node":
        return RIGID, [sym.Symbol(_dot(0, 0, 5), empty)]
    if name == "link":
        return FLEXIBLE, [sym.Symbol(_line((-10, 8), (10, -8)), empty), sym.Symbol(_dot(-10, 8), empty),
                          sym.Symbol(_dot(10, -8), empty)]
    if name == "ground":
        return GROUND, [_scaled(sym.ground_pin(), 0.9, 0, -5), node]
    if name == "pin":
        return RIGID, [sym.Symbol(_line((-12, 6), (0, 0), (12, 8)), empty), _scaled(sym.ring(6), 1.0), node]
    if name == "clearance":
        return CLEARANCE, [sym.Symbol(_line((-12, 6), (-4, 2)), empty), _scaled(sym.journal_in_bearing(10, 5), 1.0)]
    if name == "weld":
        weld = QPainterPath()
        weld.addRect(QRectF(-4, -4, 8, 8))
        return RIGID, [sym.Symbol(_line((-12, 6), (0, 0), (12, 8)), weld)]
    if name == "slider":
        return GROUND, [sym.Symbol(_line((-14, 0), (14, 0)), empty), _scaled(sym.slider_block(0.0), 0.7)]
    if name == "mass":
        block = QPainterPath()
        block.addRect(QRectF(-7, -7, 14, 14))
        return MASS, [sym.Symbol(empty, block)]
    if name == "driver":
        return DRIVER, [_scaled(sym.curved_arrow(14), 0.75), node]
    if name == "load":
        return LOAD, [_scaled(sym.arrow(math.pi / 4, 20, 0), 1.0, -8, 8), sym.Symbol(_dot(-8, 8), empty)]
    if name == "body":
        return BODY, [sym.Symbol(empty, _dot(0, 0, 8))]
    if name == "velocity":
        return VELOCITY, [_scaled(sym.arrow(0.0, 18, 4), 1.0, -11, 0), sym.Symbol(_dot(-11, 0), empty)]
    if name.startswith("moving_"):  # what moves, over a double arrow along the link it travels
        track = _scaled(sym.double_arrow(0.0, 14), 0.9, 0, 9)
        if name == "moving_support":
            return GROUND, [_scaled(sym.ground_pin(), 0.7, 0, -9), track]
        if name == "moving_mass":
            block = QPainterPath()
            block.addRect(QRectF(-6, -12, 12, 12))
            return MASS, [sym.Symbol(empty, block), track]
        return LOAD, [_scaled(sym.arrow(-math.pi / 2, 16, 0), 1.0, 0, -14), track]
    if name == "contact":
        return CONTACT, [_scaled(sym.arrow(-math.pi / 2, 10, 0), 1.0, 0, -12), _scaled(sym.ground_hatch(0.0), 0.45, 0, 4)]
    if name == "ground_line":
        return GROUND, [_scaled(sym.ground_hatch(math.pi / 8), 0.5)]
    if name == "ground_segment":
        return GROUND, [sym.Symbol(_line((-12, 6), (12, -6)), empty), sym.Symbol(_dot(-12, 6, 2.5), empty),
                        sym.Symbol(_dot(12, -6, 2.5), empty)]
    if name == "circle":
        return CONTACT, [_scaled(sym.ring(11), 1.0)]
    if name == "delete":
        return LOAD, [sym.Symbol(_line((-9, -9), (9, 9)), empty), sym.Symbol(_line((-9, 9), (9, -9)), empty)]
    return RIGID, [node]


@cache
def tool_icon(name: str) -> QIcon:
    """The icon of the tool called ``name`` (a plain node for a name without a drawing)."""
    color, shapes = _shapes(name)
    pixmap = QPixmap(SIZE, SIZE)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.translate(SIZE / 2, SIZE / 2)
    pen = QPen(QColor(color), 2.0)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    for shape in shapes:
        painter.setBrush(QBrush())
        painter.drawPath(shape.stroke)
        painter.setBrush(QBrush(QColor(color)))
        painter.drawPath(shape.fill)
    painter.end()
    return QIcon(pixmap)
