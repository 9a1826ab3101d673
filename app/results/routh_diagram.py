"""Routh's diagram of one impulse event: the tangential against the normal impulse.

:func:`routh_geometry` replays the impulse from what the event stores (``a, b, c``,
``mu_s, mu_d, e, law`` and the pre-impact contact velocities) through
:func:`solver.contact.routh.routh_impulse`, and returns the impulse path and the lines
of the diagram in the contact's (normal, tangential) impulse plane (N s):

* limiting friction ``I_t = +-mu_d I_n`` (and ``+-mu_s I_n`` when ``mu_s > mu_d``),
* sticking, where the tangential velocity vanishes: ``v_t0 + c_tn I_n + b I_t = 0``,
* maximum compression, where the normal velocity vanishes: ``v_n0 + a I_n + c I_t = 0``,

(thesis ch. 3, Figs. 3.3-3.8; the velocities are ``v = v_0 + D I`` with
``D = [[a, c], [c_tn, b]]``, eq. 4 of the LAJSS paper; ``c_tn = c`` unless the event
stores it: held pairs slid, thesis eqs. 4.16-4.18).  :class:`RouthDiagram` draws them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from solver.contact.routh import ImpactResult, routh_impulse

from ..canvas.axes import axis_label
from .legend_room import LEGEND_OFFSET, drawn_polylines, place_legend

#: event keys the diagram needs
#: what the restitution of an onset jump is (the Lagrange and rolling models: perfectly plastic,
#: thesis §4.7, whatever the pair's e and law, which those models do not use)
ONSET_RESTITUTION = "onset jump, perfectly plastic (the model does not use the pair's e and law)"
ROUTH_KEYS = ("a", "b", "c", "mu_s", "mu_d", "e", "law", "v_n_pre_m_s", "v_t_pre_m_s", "I_n_N_s", "I_t_N_s")
#: size (px) of the marks of I_nc and I_ne, and of I_nh's triangle, larger: drawn under I_nc's
#: dot, its corners show where the two points coincide
MARK_SIZE, SLIP_STOP_SIZE = 9, 16


@dataclass(frozen=True)
class RouthGeometry:
    """Everything a Routh diagram shows, impulses in N s.

    ``path`` (k, 2) the impulse history (I_n, I_t) from the origin to the end;
    ``friction`` {label: (2, 2) segment}, ``sticking`` and ``compression`` (2, 2)
    segments, all clipped to the plotted box (empty (0, 2) where they miss it);
    ``compression_end`` (I_nc, I_t there); ``end`` the event's stored (I_n, I_t);
    ``slip_stop`` (I_nh, I_t there) or None.
    """

    impact: ImpactResult
    path: np.ndarray
    friction: dict[str, np.ndarray]
    sticking: np.ndarray
    compression: np.ndarray
    compression_end: tuple[float, float]
    end: tuple[float, float]
    slip_stop: tuple[float, float] | None


def has_routh_data(event: dict[str, Any]) -> bool:
    """Whether ``event`` is an impulse carrying what its diagram needs."""
    return event.get("kind") == "impulse" and all(event.get(k) is not None for k in ROUTH_KEYS)


def routh_geometry(event: dict[str, Any]) -> RouthGeometry:
    """The diagram of impulse ``event`` (see :data:`ROUTH_KEYS`); raises ``ValueError``
    when it lacks them or they are not a valid impact."""
    if not has_routh_data(event):
        raise ValueError(f"not an impulse event with {', '.join(ROUTH_KEYS)}")
    a, b, c = (float(event[k]) for k in ("a", "b", "c"))
    c_tn = float(event.get("c_tn", c))  # D[1, 0] where held pairs slid (not symmetric)
    v_n0, v_t0 = float(event["v_n_pre_m_s"]), float(event["v_t_pre_m_s"])
    mu_s, mu_d = float(event["mu_s"]), float(event["mu_d"])
    impact = routh_impulse(np.array([[a, c], [c_tn, b]]), v_n0, v_t0, mu_s, mu_d, float(event["e"]), event["law"],
                           symmetric="c_tn" not in event)
    path = np.array([(p[0], p[1]) for p in impact.path])
    n_max = 1.2 * max(impact.I_ne, float(event["I_n_N_s"]))
    t_max = 1.5 * max(np.abs(path[:, 1]).max(), 0.1 * n_max)
    box = (0.0, n_max, -t_max, t_max)
    I_n = np.array([0.0, n_max])
    friction = {f"±μD = {mu_d:g}": clip_segment(np.column_stack([I_n, mu_d * I_n]), box)}
    if mu_s > mu_d:
        friction[f"±μs = {mu_s:g}"] = clip_segment(np.column_stack([I_n, mu_s * I_n]), box)
    far = 10.0 * max(n_max, t_max)      # long enough to cross the box, then clipped to it
    sticking = clip_segment(np.array([[-far, -(v_t0 - c_tn * far) / b], [far, -(v_t0 + c_tn * far) / b]]), box)
    compression = clip_segment(np.array([[-(v_n0 - c * far) / a, -far], [-(v_n0 + c * far) / a, far]]), box)
    at_nc = np.interp(impact.I_nc, path[:, 0], path[:, 1])
    slip_stop = None
    if impact.I_nh is not None and impact.I_nh > 0.0:
        slip_stop = (impact.I_nh, float(np.interp(impact.I_nh, path[:, 0], path[:, 1])))
    return RouthGeometry(impact, path, friction, sticking, compression, (impact.I_nc, float(at_nc)),
                         (float(event["I_n_N_s"]), float(event["I_t_N_s"])), slip_stop)


def clip_segment(segment: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The part of ``segment`` (2, 2) inside ``box`` = (x0, x1, y0, y1) (Liang-Barsky);
    an empty (0, 2) array when it misses the box."""
    (x, y), (x2, y2) = segment
    dx, dy = x2 - x, y2 - y
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x - box[0]), (dx, box[1] - x), (-dy, y - box[2]), (dy, box[3] - y)):
        if p == 0.0:
            if q < 0.0:
                return np.empty((0, 2))
        elif p < 0.0:
            lo = max(lo, q / p)
        else:
            hi = min(hi, q / p)
    if lo > hi:
        return np.empty((0, 2))
    return np.array([[x + lo * dx, y + lo * dy], [x + hi * dx, y + hi * dy]])


class RouthDiagram(pg.PlotWidget):
    """A pyqtgraph plot of one impulse event's Routh diagram.

    Slots: :meth:`show_event` (an event dict of ``Results.events``), :meth:`clear_diagram`,
    :meth:`view_all`.
    :attr:`routh` is what is drawn (None when nothing is).
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, background="w")
        self.routh: RouthGeometry | None = None
        self.showGrid(x=True, y=True, alpha=0.3)
        axis_label(self.getPlotItem(), "bottom", "normal impulse I_n", "N s")
        axis_label(self.getPlotItem(), "left", "tangential impulse I_t", "N s")
        self.addLegend(offset=(LEGEND_OFFSET, LEGEND_OFFSET), brush=(255, 255, 255, 200))
        self._message = pg.TextItem(anchor=(0.5, 0.5), color="#666")
        self.clear_diagram()
        self._zoomed = False  # the user zoomed or panned: a resize keeps the view
        view = self.getPlotItem().getViewBox()
        view.sigResized.connect(self._refit)
        view.sigRangeChangedManually.connect(lambda *_: setattr(self, "_zoomed", True))
        view.menu.viewAll.triggered.connect(self.view_all)          # the menu's "View All"
        self.getPlotItem().autoBtn.clicked.connect(self.view_all)    # the plot's "A" button

    def clear_diagram(self, message: str = "select an impulse event") -> None:
        """Remove the diagram and show ``message`` instead."""
        self.routh = None
        self.getPlotItem().clear()
        self.setTitle(None)
        self._message.setText(message)
        self.addItem(self._message)

    def show_event(self, event: dict[str, Any]) -> bool:
        """Draw the diagram of ``event``; for other events show why not.  Returns whether
        a diagram is drawn."""
        if not has_routh_data(event):
            self.clear_diagram(f"no Routh diagram for a {event.get('kind', '?')} event")
            return False
        try:
            geometry = routh_geometry(event)
        except ValueError as exc:
            self.clear_diagram(f"no Routh diagram: {exc}")
            return False
        self.clear_diagram("")
        self.removeItem(self._message)
        self.routh = geometry
        dash = pg.QtCore.Qt.PenStyle.DashLine
        for k, (label, seg) in enumerate(geometry.friction.items()):
            pen = pg.mkPen("#888", width=1, style=dash if k else pg.QtCore.Qt.PenStyle.SolidLine)
            self.plot(seg[:, 0], seg[:, 1], pen=pen, name=f"limiting friction {label}")
            self.plot(seg[:, 0], -seg[:, 1], pen=pen)
        self.plot(*geometry.sticking.T, pen=pg.mkPen("#2ca02c", width=1.5, style=dash), name="sticking (v_t = 0)")
        self.plot(*geometry.compression.T, pen=pg.mkPen("#9467bd", width=1.5, style=dash),
                  name="max. compression (v_n = 0)")
        self.plot(*geometry.path.T, pen=pg.mkPen("#1f77b4", width=2.5), name="impulse path")
        # I_nh's triangle drawn larger, under I_nc's dot: its corners show where the two coincide (the
        # pendulum's SRD impulse, 3e-6 N s apart), where it hid under the dot
        marks = [(geometry.compression_end, "o", "#9467bd", "I_nc", MARK_SIZE),
                 (geometry.end, "s", "#d62728", "I_ne", MARK_SIZE)]
        if geometry.slip_stop is not None:
            marks.insert(0, (geometry.slip_stop, "t", "#2ca02c", "I_nh", SLIP_STOP_SIZE))
        for (x, y), symbol, colour, label, size in marks:
            self.plot([x], [y], pen=None, symbol=symbol, symbolBrush=colour, symbolSize=size, name=label)
        impact = geometry.impact
        self.setTitle(f"{event.get('contact', '')} t = {event['time_s']:.6g} s: {event.get('type', impact.kind)}, "
                      + (ONSET_RESTITUTION if event.get("onset") else f"{impact.law}, e = {impact.e:g}"))
        self.view_all()
        return True

    def view_all(self) -> None:
        """Fit the diagram in the view, its legend placed anew; resizes fit it again until the user
        zooms or pans (new data and the user's "View All" fit it again)."""
        self._zoomed = False
        self._refit()

    def _refit(self) -> None:
        """The diagram drawn fitted again, its legend placed anew, at the plot's new size, unless
        the user zoomed or panned it (a resize reset their zoom)."""
        if self.routh is not None and not self._zoomed:
            self.getPlotItem().enableAutoRange()
            self._place_legend()

    def _place_legend(self) -> None:
        """Anchor the legend in the corner of the plot where it covers the fewest points of the
        curves (the top left, the first tried, held the +mu friction lines: the diagram's
        lines fan out from the origin, at its left), and widen the view on that side as little as
        clears it (:func:`~app.results.legend_room.place_legend`: at 600 x 400 px no corner is
        free of the impulse path)."""
        place_legend(self.getPlotItem(), drawn_polylines(self.getPlotItem()))
