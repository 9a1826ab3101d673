"""The sketch canvas: the model drawn in metres on an equal-aspect grid.

Left-drag pans, the wheel zooms about the cursor, right-drag zooms each axis
(pyqtgraph's ViewBox).  The canvas redraws from the document when it is replaced
and highlights whatever the :class:`~app.selection.Selection` holds.
"""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPointF, Signal
from PySide6.QtWidgets import QGraphicsItem, QWidget

from . import geometry as geo
from .entities import EntityRef
from .sketch_items import highlight_items, model_items

#: margin around the model on zoom-to-fit, as a fraction of its size
FIT_PADDING = 0.12


class SketchView(pg.PlotWidget):
    """Draws a model document; emits ``cursor_moved(x, y)`` in m as the mouse moves."""

    cursor_moved = Signal(float, float)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, background="w")
        self._model: dict = {}
        self._items: list[QGraphicsItem] = []
        self._halos: list[QGraphicsItem] = []
        plot = self.getPlotItem()
        plot.setAspectLocked(True, ratio=1.0)
        plot.showGrid(x=True, y=True, alpha=0.25)
        plot.hideButtons()
        plot.setMenuEnabled(False)
        for side, name in (("bottom", "x"), ("left", "y")):
            axis = plot.getAxis(side)
            axis.setLabel(name, units="m")
            axis.setPen("#606060")
            axis.setTextPen("#303030")
        self.scene().sigMouseMoved.connect(self._on_mouse_moved)

    def show_model(self, model: dict) -> None:
        """Draw ``model`` instead of what was drawn, and zoom to fit it."""
        self.redraw(model)
        self.zoom_to_fit()

    def redraw(self, model: dict, refs: tuple[EntityRef, ...] = ()) -> None:
        """Draw ``model`` (after an edit) with halos round ``refs``, keeping the view where it is."""
        for item in self._items + self._halos:
            self.removeItem(item)
        self._model, self._halos = model, []
        self._items = model_items(model)
        for item in self._items:
            self.addItem(item, ignoreBounds=True)
        if refs:
            self.highlight(refs)

    def highlight(self, refs: tuple[EntityRef, ...]) -> None:
        """Put a halo under each entity in ``refs`` (and remove the previous halos)."""
        for item in self._halos:
            self.removeItem(item)
        self._halos = [h for ref in refs for h in highlight_items(geo.outline(self._model, ref))]
        for item in self._halos:
            self.addItem(item, ignoreBounds=True)

    def zoom_to_fit(self) -> None:
        """Show the whole model with a margin round it."""
        xmin, xmax, ymin, ymax = geo.view_bounds(self._model)
        pad = FIT_PADDING * max(xmax - xmin, ymax - ymin, geo.model_size(self._model))
        self.getViewBox().setRange(xRange=(xmin - pad, xmax + pad), yRange=(ymin - pad, ymax + pad), padding=0)

    def _on_mouse_moved(self, scene_pos: QPointF) -> None:
        if self.getViewBox().sceneBoundingRect().contains(scene_pos):
            p = self.getViewBox().mapSceneToView(scene_pos)
            self.cursor_moved.emit(p.x(), p.y())
