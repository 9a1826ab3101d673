"""A plot's second ordinate: the curves of a second unit, on a view box of their own whose
scale the right-hand axis shows (pyqtgraph's multiple-axes pattern: a :class:`ViewBox`
linked to the right :class:`AxisItem`, its abscissa linked to the plot's)."""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsItem


class RightAxis:
    """The right-hand ordinate of ``plot``: made on first use, hidden while it holds nothing."""

    def __init__(self, plot: pg.PlotItem):
        self.plot = plot
        self.view: pg.ViewBox | None = None
        self.items: list[pg.GraphicsObject] = []

    def add(self, item: pg.GraphicsObject, name: str) -> None:
        """Draw ``item`` against the right axis, named ``name`` in the plot's legend."""
        view = self._view()
        view.addItem(item)
        self.items.append(item)
        if self.plot.legend is not None:
            self.plot.legend.addItem(item, name)
        self.plot.showAxis("right")

    def remove(self, item: pg.GraphicsObject) -> None:
        self.items.remove(item)
        self.view.removeItem(item)
        if self.plot.legend is not None:
            self.plot.legend.removeItem(item)
        if not self.items:
            self.plot.hideAxis("right")

    def autoscale(self) -> None:
        if self.view is not None:
            self.view.enableAutoRange()

    def _view(self) -> pg.ViewBox:
        if self.view is None:
            self.view = pg.ViewBox()
            self.plot.scene().addItem(self.view)
            axis = self.plot.getAxis("right")
            axis.linkToView(self.view)
            axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            self.view.setXLink(self.plot.vb)
            self.plot.vb.sigResized.connect(self._follow)
            self._follow()
        return self.view

    def _follow(self) -> None:
        """Keep the right view box over the plot's."""
        self.view.setGeometry(self.plot.vb.sceneBoundingRect())
        self.view.linkedViewChanged(self.plot.vb, self.view.XAxis)
