"""The sketch canvas: the model drawn in metres on an equal-aspect metric grid.

Middle-drag (or Space + left-drag) pans and the wheel zooms about the cursor
(pyqtgraph's ViewBox); the grid's spacing follows the zoom (1, 2, 5 x 10^n m).  The
left button belongs to the canvas tools: the view hands its presses, moves and
releases, in model coordinates, to a :class:`PointerHandler` (the tool controller
of :mod:`app.canvas.tools`).  The canvas redraws from the document when it changes and
highlights the selection, the entity under the cursor and a tool's preview.
"""
from __future__ import annotations

import math
from typing import Protocol

import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QGraphicsItem, QWidget

from . import geometry as geo
from ..document.entities import EntityRef
from .items import highlight_items, hover_items, model_items

#: opacity of the sketch under a run's playback
FADED_OPACITY = 0.3
#: margin around the model on zoom-to-fit, as a fraction of its size
FIT_PADDING = 0.12
#: what the view of a model with nothing drawn yet shows (xmin, xmax, ymin, ymax), m: a sheet
#: with the origin near its left edge and 0.6 m to its right, where a first link goes
NEW_SHEET = (-0.05, 0.65, -0.15, 0.15)
#: following the mechanism, the view moves when it comes this close to an edge (fraction of the view)
FOLLOW_MARGIN = 0.15
#: the canvas' axes and their names
AXES = (("bottom", "x"), ("left", "y"))


class PointerHandler(Protocol):
    """Receives the canvas' left-button events and hover moves at model points (m)."""

    def press(self, point: geo.Point, shift: bool) -> None: ...

    def move(self, point: geo.Point, shift: bool) -> None: ...

    def release(self, point: geo.Point, shift: bool) -> None: ...


class SketchView(pg.PlotWidget):
    """Draws a model document; emits ``cursor_moved(x, y)`` in m as the mouse moves
    (:meth:`cursor_text` says it in the axes' units).

    Left-button events go to :attr:`handler` (unless Space is held: then they pan).
    """

    cursor_moved = Signal(float, float)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, background="w")
        self._model: dict = {}
        self._items: list[QGraphicsItem] = []
        self._sketch_opacity = 1.0
        self._motion_bounds: tuple[float, float, float, float] | None = None
        self._halos: list[QGraphicsItem] = []
        self._hover: list[QGraphicsItem] = []
        self._preview: list[QGraphicsItem] = []
        #: who gets the left button's events (None: the canvas only displays)
        self.handler: PointerHandler | None = None
        self._space_down = False
        self._tool_drag = False
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().setMouseTracking(True)  # hover: moves without a button reach the tool
        plot = self.getPlotItem()
        plot.setAspectLocked(True, ratio=1.0)
        plot.showGrid(x=True, y=True, alpha=0.25)
        plot.hideButtons()
        plot.setMenuEnabled(False)
        for side, name in AXES:
            axis = plot.getAxis(side)
            axis.setLabel(name, units="m")
            axis.enableAutoSIPrefix(False)  # one prefix for both axes: _share_axis_unit
            axis.setPen("#606060")
            axis.setTextPen("#303030")
        self.getViewBox().sigRangeChanged.connect(self._share_axis_unit)
        self.scene().sigMouseMoved.connect(self._on_mouse_moved)

    def show_model(self, model: dict) -> None:
        """Draw ``model`` instead of what was drawn, and zoom to fit it."""
        self.redraw(model)
        self.zoom_to_fit()

    def redraw(self, model: dict, refs: tuple[EntityRef, ...] = ()) -> None:
        """Draw ``model`` (after an edit) with halos round ``refs``, keeping the view where it is."""
        for item in self._items + self._halos + self._hover:
            self.removeItem(item)
        self._model, self._halos, self._hover = model, [], []
        self._items = model_items(model)
        for item in self._items:
            item.setOpacity(self._sketch_opacity)
            self.addItem(item, ignoreBounds=True)
        if refs:
            self.highlight(refs)

    def set_sketch_faded(self, faded: bool) -> None:
        """Draw the sketch faint (while a run's frames are played over it) or normally."""
        self._sketch_opacity = FADED_OPACITY if faded else 1.0
        for item in self._items:
            item.setOpacity(self._sketch_opacity)

    def highlight(self, refs: tuple[EntityRef, ...]) -> None:
        """Put a halo under each entity in ``refs`` (and remove the previous halos)."""
        for item in self._halos:
            self.removeItem(item)
        self._halos = [h for ref in refs for h in highlight_items(geo.outline(self._model, ref))]
        for item in self._halos:
            self.addItem(item, ignoreBounds=True)

    def show_hover(self, ref: EntityRef | None) -> None:
        """Outline the entity under the cursor (None: nothing)."""
        self._replace_overlay("_hover", hover_items(geo.outline(self._model, ref)) if ref else [])

    def show_preview(self, items: list[QGraphicsItem]) -> None:
        """Show a tool's preview items (a rubber band, the link being drawn) instead of the previous ones."""
        self._replace_overlay("_preview", items)

    def _replace_overlay(self, name: str, items: list[QGraphicsItem]) -> None:
        for item in getattr(self, name):
            self.removeItem(item)
        setattr(self, name, items)
        for item in items:
            self.addItem(item, ignoreBounds=True)

    # ------------------------------------------------------------------ coordinates
    def to_model(self, pixel: QPointF | QPoint) -> geo.Point:
        """The model point (m) at a position in the viewport (px)."""
        p = self.getViewBox().mapSceneToView(self.mapToScene(QPoint(round(pixel.x()), round(pixel.y()))))
        return (p.x(), p.y())

    def to_pixel(self, x: float, y: float) -> QPoint:
        """The viewport position (px) of the model point ``(x, y)`` m."""
        return self.mapFromScene(self.getViewBox().mapViewToScene(QPointF(x, y)))

    def metres_per_pixel(self) -> float:
        """The size of one screen pixel in the model (m)."""
        return float(self.getViewBox().viewPixelSize()[0])

    def axis_unit(self, side: str) -> tuple[float, str]:
        """``(scale, unit)`` the ``bottom`` or ``left`` axis's ticks read in: a length in m times
        ``scale`` is in ``unit`` (``(1000.0, "mm")`` where the ticks are in mm)."""
        axis = self.getPlotItem().getAxis(side)
        return float(axis.autoSIPrefixScale), f"{axis.labelUnitPrefix}m"

    def _share_axis_unit(self) -> None:
        """Both axes in one unit (an equal-aspect sketch read in m along x and in mm along y looks
        stretched): the SI prefix pyqtgraph would give the axis reaching farther from zero, as
        ``1.0 m``, ``700 mm`` became ``1.0 m``, ``0.7 m`` on ``rod_impact_rigid``."""
        reach = max(abs(v) for axis_range in self.getViewBox().viewRange() for v in axis_range)
        scale, prefix = pg.siScale(reach)
        for side, name in AXES:
            axis = self.getPlotItem().getAxis(side)
            if (axis.autoSIPrefixScale, axis.labelUnitPrefix) != (scale, prefix):
                axis.autoSIPrefixScale = scale
                axis.setLabel(name, units="m", unitPrefix=prefix)

    def cursor_text(self, x: float, y: float) -> str:
        """The point ``(x, y)`` (m) as the axes read it: in their unit, to the last digit a pixel
        resolves (``x = 312.5 mm   y = -40.6 mm``)."""
        parts = []
        for name, value, side in (("x", x, "bottom"), ("y", y, "left")):
            scale, unit = self.axis_unit(side)
            decimals = max(0, math.ceil(-math.log10(max(self.metres_per_pixel() * scale, 1e-12))))
            parts.append(f"{name} = {value * scale:.{decimals}f} {unit}")
        return "   ".join(parts)

    def grid_step(self) -> float:
        """Spacing (m) of the finest grid lines drawn at this zoom: what points snap to."""
        axis = self.getPlotItem().getAxis("bottom")
        (x0, x1), _y = self.getViewBox().viewRange()
        levels = axis.tickValues(x0, x1, self.getViewBox().width())
        return float(levels[-1][0]) if levels else self.metres_per_pixel()

    # ------------------------------------------------------------------ events
    def _passes_to_tool(self, event: QMouseEvent) -> bool:
        return self.handler is not None and event.button() == Qt.MouseButton.LeftButton and not self._space_down

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        if self._passes_to_tool(event):
            self._tool_drag = True
            self.handler.press(self.to_model(event.position()), self._shift(event))
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        super().mouseMoveEvent(event)  # pans while the middle button is down; reports the cursor
        if self.handler is not None and not self._space_down:
            self.handler.move(self.to_model(event.position()), self._shift(event))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        if self._tool_drag and event.button() == Qt.MouseButton.LeftButton:
            self._tool_drag = False
            self.handler.release(self.to_model(event.position()), self._shift(event))
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_down = True  # Space + left-drag pans
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_down = False
        super().keyReleaseEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt override)
        self._space_down = False  # its release may go to another widget
        super().focusOutEvent(event)

    @staticmethod
    def _shift(event: QMouseEvent) -> bool:
        return bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)

    def set_motion_bounds(self, bounds: tuple[float, float, float, float] | None) -> None:
        """Where a run's frames went (xmin, xmax, ymin, ymax), m: zoom-to-fit takes it in."""
        self._motion_bounds = bounds

    def zoom_to_fit(self) -> None:
        """Show the whole model, and the motion of the run played over it, with a margin; a model
        with nothing drawn yet on :data:`NEW_SHEET`."""
        xmin, xmax, ymin, ymax = geo.view_bounds(self._model)
        if (xmin, xmax, ymin, ymax) == (0.0, 0.0, 0.0, 0.0) and self._motion_bounds is None:
            self.getViewBox().setRange(xRange=NEW_SHEET[:2], yRange=NEW_SHEET[2:], padding=0)
            return
        if self._motion_bounds is not None:
            mx0, mx1, my0, my1 = self._motion_bounds
            xmin, xmax, ymin, ymax = min(xmin, mx0), max(xmax, mx1), min(ymin, my0), max(ymax, my1)
        pad = FIT_PADDING * max(xmax - xmin, ymax - ymin, geo.model_size(self._model))
        self.getViewBox().setRange(xRange=(xmin - pad, xmax + pad), yRange=(ymin - pad, ymax + pad), padding=0)

    def follow(self, bounds: tuple[float, float, float, float]) -> None:
        """Keep ``bounds`` (xmin, xmax, ymin, ymax), m, in view: playback's "follow".

        While they stay inside the middle of the view (a margin of :data:`FOLLOW_MARGIN`
        of its size all round, or a quarter of the room the mechanism leaves when that is
        less) nothing moves; when they leave it, the view is centred on them, at the same
        zoom unless they do not fit (then zoomed out until they do).  Moving the view only
        then keeps playback fast (a moved view redraws its grid): once centred, a mechanism
        stays inside the margin until it has moved.
        """
        box = self.getViewBox()
        (x0, x1), (y0, y1) = box.viewRange()
        width, height = x1 - x0, y1 - y0
        bx0, bx1, by0, by1 = bounds
        mx = max(min(FOLLOW_MARGIN * width, 0.25 * (width - (bx1 - bx0))), 0.0)
        my = max(min(FOLLOW_MARGIN * height, 0.25 * (height - (by1 - by0))), 0.0)
        if x0 + mx <= bx0 and bx1 <= x1 - mx and y0 + my <= by0 and by1 <= y1 - my:
            return
        pad = 2.0 * FIT_PADDING * max(bx1 - bx0, by1 - by0, 1e-9)
        scale = max((bx1 - bx0 + pad) / width, (by1 - by0 + pad) / height, 1.0)
        cx, cy, width, height = 0.5 * (bx0 + bx1), 0.5 * (by0 + by1), scale * width, scale * height
        box.setRange(xRange=(cx - 0.5 * width, cx + 0.5 * width), yRange=(cy - 0.5 * height, cy + 0.5 * height),
                     padding=0)

    def _on_mouse_moved(self, scene_pos: QPointF) -> None:
        if self.getViewBox().sceneBoundingRect().contains(scene_pos):
            p = self.getViewBox().mapSceneToView(scene_pos)
            self.cursor_moved.emit(p.x(), p.y())
