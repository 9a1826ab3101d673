"""Pixel-sized symbols of the sketch: ground, clamp, slider block, arrows, motor.

A :class:`Symbol` is drawn in screen pixels around its anchor point, whatever the
zoom, by a :class:`Glyph`.  Shapes are built in y-up coordinates (like the model) and
turned with :func:`_screen` into the canvas' y-down item coordinates, so an angle
here means the same as an angle in the model file: counter-clockwise from +x.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSimpleTextItem, QStyleOptionGraphicsItem, QWidget


@dataclass
class Symbol:
    """Outlines drawn with the pen only, and closed shapes filled with the brush (px)."""

    stroke: QPainterPath
    fill: QPainterPath


def _screen(path: QPainterPath, angle: float = 0.0) -> QPainterPath:
    """Rotate a y-up path by ``angle`` (rad, counter-clockwise) and flip it to y-down."""
    return QTransform().scale(1, -1).rotateRadians(angle).map(path)


def _polyline(path: QPainterPath, *pts: tuple[float, float]) -> None:
    path.moveTo(*pts[0])
    for p in pts[1:]:
        path.lineTo(*p)


def _head(path: QPainterPath, tip: tuple[float, float], direction: float, size: float = 9.0) -> None:
    """A closed arrowhead at ``tip`` pointing along ``direction`` (rad)."""
    back = [(tip[0] - size * math.cos(direction + s * 0.38), tip[1] - size * math.sin(direction + s * 0.38)) for s in (1, -1)]
    path.moveTo(*tip)
    path.lineTo(*back[0])
    path.lineTo(*back[1])
    path.closeSubpath()


def _hatch(path: QPainterPath, y: float, half_width: float, step: float = 5.0, depth: float = 6.0) -> None:
    """A ground line at height ``y`` with short diagonal strokes below it."""
    _polyline(path, (-half_width, y), (half_width, y))
    x = -half_width + step
    while x <= half_width + 0.1:
        _polyline(path, (x, y), (x - depth, y - depth))
        x += step


def ground_pin() -> Symbol:
    """A triangle under the node standing on hatched ground: pinned to ground."""
    outline = QPainterPath()
    triangle = QPainterPath()
    _polyline(triangle, (0, 0), (-9, -15), (9, -15))
    triangle.closeSubpath()
    _hatch(outline, -15, 13)
    return Symbol(_screen(outline), _screen(triangle))


def clamp(angle: float) -> Symbol:
    """A hatched wall across a link that leaves the node along ``angle``: clamped."""
    wall = QPainterPath()
    _hatch(wall, 0, 13)
    # _hatch draws a horizontal wall with hatching below; turn it so the link leaves upwards
    return Symbol(_screen(wall, angle - math.pi / 2), QPainterPath())


def ground_hatch(angle: float) -> Symbol:
    """Hatching on the right side of a ground line running along ``angle``."""
    path = QPainterPath()
    _hatch(path, 0, 30)
    return Symbol(_screen(path, angle), QPainterPath())


def slider_block(angle: float) -> Symbol:
    """A block on the guide line through the node."""
    block = QPainterPath()
    block.addRect(QRectF(-13, -8, 26, 16))
    return Symbol(QPainterPath(), _screen(block, angle))


def ring(radius: float) -> Symbol:
    """An open circle around the node: a pin joint."""
    path = QPainterPath()
    path.addEllipse(QPointF(0, 0), radius, radius)
    return Symbol(path, QPainterPath())


def journal_in_bearing(bearing: float = 11.0, journal: float = 6.0) -> Symbol:
    """A bearing ring with a filled journal resting off-centre inside it: a clearance joint."""
    path = QPainterPath()
    path.addEllipse(QPointF(0, 0), bearing, bearing)
    pin = QPainterPath()
    pin.addEllipse(QPointF(bearing - journal - 1.5, 0), journal, journal)
    return Symbol(path, _screen(pin, -math.pi / 4))


#: a force's or a velocity's arrow: its length and its gap from the node, px
ARROW_LENGTH, ARROW_GAP = 42.0, 6.0


def arrow(angle: float, length: float = ARROW_LENGTH, gap: float = ARROW_GAP) -> Symbol:
    """A straight arrow leaving the node along ``angle``: a force."""
    shaft, head = QPainterPath(), QPainterPath()
    _polyline(shaft, (gap, 0), (gap + length - 6, 0))
    _head(head, (gap + length, 0), 0.0)
    return Symbol(_screen(shaft, angle), _screen(head, angle))


def double_arrow(angle: float, half_length: float = 24.0) -> Symbol:
    """A two-headed arrow through the node along ``angle``: a prescribed displacement."""
    shaft, heads = QPainterPath(), QPainterPath()
    _polyline(shaft, (-half_length + 6, 0), (half_length - 6, 0))
    _head(heads, (half_length, 0), 0.0)
    _head(heads, (-half_length, 0), math.pi)
    return Symbol(_screen(shaft, angle), _screen(heads, angle))


def curved_arrow(radius: float, clockwise: bool = False, start: float = -20.0, span: float = 220.0) -> Symbol:
    """An arc round the node with a head at its end: a torque or a driven rotation.

    ``start`` and ``span`` are in degrees, counter-clockwise from +x; the arc covers
    the upper side of the node so that it clears a ground symbol below.
    """
    arc, head = QPainterPath(), QPainterPath()
    end = start + span
    a0, a1 = (end, start) if clockwise else (start, end)
    arc.moveTo(radius * math.cos(math.radians(a0)), radius * math.sin(math.radians(a0)))
    # Qt puts arc angle t at (cos t, -sin t); in these y-up coordinates that is model angle -t
    arc.arcTo(QRectF(-radius, -radius, 2 * radius, 2 * radius), -a0, -(a1 - a0))
    tip = math.radians(a1)
    tangent = tip - math.pi / 2 if clockwise else tip + math.pi / 2
    _head(head, (radius * math.cos(tip), radius * math.sin(tip)), tangent, size=8.0)
    return Symbol(_screen(arc), _screen(head))


class Glyph(QGraphicsItem):
    """A :class:`Symbol` drawn at a point of the view, the same size at every zoom."""

    def __init__(self, symbol: Symbol, x: float, y: float, pen: QPen, brush: QBrush):
        super().__init__()
        self._symbol, self._pen, self._brush = symbol, pen, brush
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setPos(x, y)
        margin = pen.widthF() + 1
        self._rect = symbol.stroke.boundingRect().united(symbol.fill.boundingRect()).adjusted(-margin, -margin, margin, margin)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(self._pen)
        painter.setBrush(QBrush())
        painter.drawPath(self._symbol.stroke)
        painter.setBrush(self._brush)
        painter.drawPath(self._symbol.fill)


class Label(QGraphicsSimpleTextItem):
    """Text beside a point of the view, ``distance`` px away in ``direction`` (rad, from +x).

    The text is placed so that its edge nearest the point faces it: right of the point
    it starts there, above the point it sits on it, and so on.
    """

    def __init__(self, text: str, x: float, y: float, color: str, direction: float = math.pi / 4,
                 distance: float = 7.0, italic: bool = False, bold: bool = False):
        super().__init__(text)
        font = QFont()
        font.setPointSize(9)
        font.setItalic(italic)
        font.setBold(bold)
        self.setFont(font)
        self.setBrush(QColor(color))
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setPos(x, y)
        self.place(direction, distance)

    def place(self, direction: float, distance: float, shift: tuple[float, float] = (0.0, 0.0)) -> None:
        """Put the text ``distance`` px in ``direction`` (rad, from +x) from its point moved by
        ``shift`` (px, x right, y up: beside a line at a point along it)."""
        rect = self.boundingRect()
        c, s = math.cos(direction), math.sin(direction)
        dx = shift[0] + distance * c - rect.width() * (1 - c) / 2
        dy = -shift[1] - distance * s - rect.height() * (1 + s) / 2
        self.setTransform(QTransform.fromTranslate(dx, dy))

    def box(self) -> QRectF:
        """The text's box in px from its point (y down)."""
        return self.transform().mapRect(self.boundingRect())


def arrow_meets(box: QRectF, angle: float, margin: float = 4.0) -> bool:
    """Whether the arrow of :func:`arrow` along ``angle`` (rad) comes within ``margin`` px of
    ``box`` (px from the arrow's node, y down; the head is 4 px wide on either side).

    >>> arrow_meets(QRectF(-60, -7, 40, 14), math.pi), arrow_meets(QRectF(-60, -7, 40, 14), 0.0)
    (True, False)
    """
    grown = box.adjusted(-margin, -margin, margin, margin)
    steps = 24
    return any(grown.contains(QPointF(t * math.cos(angle), -t * math.sin(angle)))
               for t in (ARROW_GAP + ARROW_LENGTH * k / steps for k in range(steps + 1)))
