"""A plot's second ordinate: the curves of a second unit, on a view box of their own whose
scale the right-hand axis shows (pyqtgraph's multiple-axes pattern: a :class:`ViewBox`
linked to the right :class:`AxisItem`, its abscissa linked to the plot's).

Its ordinate moves with the plot's: a pan or a zoom in the plot moves the curves of both axes
together (the right view's range kept the same affine image of the left's), as the abscissa
does; a drag or a wheel on the right axis itself rescales that axis alone, and sets the image anew."""
from __future__ import annotations

import weakref
from collections.abc import Callable

import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsItem


class RightAxis:
    """The right-hand ordinate of ``plot``: made on first use, hidden while it holds nothing;
    ``on_manual()`` is called when the user pans or zooms its axis."""

    def __init__(self, plot: pg.PlotItem, on_manual: Callable[[], None] = lambda: None):
        self.plot = plot
        self.view: pg.ViewBox | None = None
        self.items: list[pg.GraphicsObject] = []
        # held weakly: the view's signals outlive a closed plot panel, which must not keep its run
        self._on_manual = weakref.WeakMethod(on_manual) if hasattr(on_manual, "__self__") else lambda: on_manual
        self._image: tuple[float, float] | None = None  # (a, b): right y = a * left y + b
        self._following = False  # the right range is being set from the left's

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
        """Fit the right view to its curves again (its ordinate then set apart from the left's)."""
        if self.view is not None:
            self._image = None
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
            self.plot.vb.sigYRangeChanged.connect(self._follow_left)
            self.view.sigYRangeChanged.connect(self._take_image)
            self.view.sigRangeChangedManually.connect(self._manual)
            self._follow()
        return self.view

    def _follow(self) -> None:
        """Keep the right view box over the plot's."""
        self.view.setGeometry(self.plot.vb.sceneBoundingRect())
        self.view.linkedViewChanged(self.plot.vb, self.view.XAxis)

    def _manual(self, *_signal_args) -> None:
        """The user panned or zoomed the right axis: tell the panel, if it is still there."""
        callback = self._on_manual()
        if callback is not None:
            callback()

    def _follow_left(self, _view, y_range) -> None:
        """The left ordinate moved (a pan, a zoom, a fit): the right one to the same image of it."""
        if self._image is None:
            return
        a, b = self._image
        self._following = True
        try:
            self.view.setYRange(a * y_range[0] + b, a * y_range[1] + b, padding=0)
        finally:
            self._following = False

    def _take_image(self, _view, y_range) -> None:
        """The right ordinate was set on its own (a fit, the legend's room, a drag on its axis): the
        image of the left's range it now is."""
        if self._following:
            return
        left = self.plot.vb.viewRange()[1]
        if left[1] > left[0] and y_range[1] > y_range[0]:
            a = (y_range[1] - y_range[0]) / (left[1] - left[0])
            self._image = (a, y_range[0] - a * left[0])
