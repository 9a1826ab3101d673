"""Impulses drawn as stems: a vertical line from zero to each impulse at its instant, a dot
at its tip (an impulse is not a force: joining impulses into a curve, or dividing them by a
window, would draw a force nobody computed, thesis ch. 3)."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from solver.results.impulse_instants import impulse_instants


class Stems(pg.PlotDataItem):
    """The non-zero values of ``y`` (N s) as stems at their ``x``: one line pair per impulse
    (``connect="pairs"``) and a :class:`~pyqtgraph.ScatterPlotItem` of the tips, a child that
    goes with it.  :meth:`set_values` replaces them; :meth:`stems` returns them."""

    def __init__(self, x: np.ndarray, y: np.ndarray, pen, name: str, span: np.ndarray | None = None):
        super().__init__(pen=pen, name=name)
        self.tips = pg.ScatterPlotItem(size=6, pen=pen, brush=pg.mkBrush(pen.color()))
        self.tips.setParentItem(self)
        self.set_values(x, y, span)

    def set_values(self, x: np.ndarray, y: np.ndarray, span: np.ndarray | None = None) -> None:
        """Draw a stem at every ``x`` whose ``y`` is non-zero and finite, on a zero line from the
        first of ``span`` (default ``x``: the frames' times, where ``x`` are the instants of
        impulses between them) to the last (the run's span, which a lone impulse would not show)."""
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        keep = np.isfinite(y) & (y != 0.0) & np.isfinite(x)
        xs, ys = x[keep], y[keep]
        span = x if span is None else np.asarray(span, dtype=float)
        span = span[np.isfinite(span)][[0, -1]] if np.isfinite(span).any() else np.zeros(0)
        self.setData(np.concatenate([span, np.repeat(xs, 2)]),
                     np.concatenate([np.zeros(len(span)), np.column_stack([np.zeros_like(ys), ys]).ravel()]),
                     connect="pairs")
        self.tips.setData(xs, ys)

    def setDownsampling(self, ds=None, auto=None, method=None) -> None:  # noqa: N802 (pyqtgraph override)
        """Never downsampled: merging points would join the ends of different stems."""
        super().setDownsampling(1, False, method or "peak")

    def setClipToView(self, state) -> None:  # noqa: N802 (pyqtgraph override)
        """Never clipped to the view, for the same reason."""
        super().setClipToView(False)

    def stems(self) -> tuple[np.ndarray, np.ndarray]:
        """The drawn stems: their instants and values (the tips)."""
        x, y = self.tips.getData()
        return np.asarray(x, dtype=float), np.asarray(y, dtype=float)


class LoggedImpulses:
    """The impulses of a run's event log per impulse series at their instants
    (:func:`~solver.results.impulse_instants.impulse_instants`), kept while the log and the frames'
    last time stay (a readout asks at every playback tick; a run may log thousands)."""

    def __init__(self):
        self._kept: dict[str, tuple[tuple[int, float], tuple[np.ndarray, np.ndarray] | None]] = {}

    def of(self, events: list[dict], key: str, until: float) -> tuple[np.ndarray, np.ndarray] | None:
        """The impulses of series ``key`` up to ``until`` (s) at their instants; None: read at the frames."""
        mark = (len(events), until)
        kept = self._kept.get(key)
        if kept is None or kept[0] != mark:
            kept = self._kept[key] = (mark, impulse_instants(events, key, until))
        return kept[1]
