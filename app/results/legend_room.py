"""Where a plot's legend goes: the corner where it hides the fewest points of the curves, the
view widened on that side just enough to clear it (the Routh diagram, :mod:`.routh_diagram`, and
the results plots, :mod:`.plots`: no corner of a small plot is free of its curves), the curves of a
right-hand axis counted where they are drawn."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from .legend_fit import fit_legend

#: distance (px) of the legend from the plot's edge, and of the curves from the legend
LEGEND_OFFSET = 10
#: about how many points :func:`sampled` takes along a curve of many segments
SAMPLES_PER_CURVE = 10_000
#: the most of the view widened to clear for the legend (the view at most 1 / (1 - it) times the curves' box
#: along the axis widened; a plot of the dock's default size needs up to 0.5 of its height): a legend that
#: needs more (a small plot: four plots of the translational-clearance slider-crank at 1280 x 800 widened to
#: -1.87 to 0.21 s for a 0.2 s run, the curves a tenth of the plot) lies over the curves, the view at their box
LEGEND_ROOM = 0.6

#: the legend's corners in the order tried: top left, top right, bottom left, bottom right
#: (as (x, y) fractions of the plot, y down)
CORNERS = ((0, 0), (1, 0), (0, 1), (1, 1))


def least_covered_corner(curves: list[np.ndarray], size: tuple[float, float], samples: int = 50) -> tuple[int, int]:
    """The corner of :data:`CORNERS` whose box of ``size`` (fractions of the plot's width and
    height) holds the fewest points of ``curves`` ((k, 2) polylines, sampled ``samples`` times a
    segment) in the curves' bounding box; the first of equals.

    >>> line = np.array([[0.0, 1.0], [1.0, 0.0]])  # from the top left to the bottom right
    >>> least_covered_corner([line], (0.3, 0.3))
    (1, 0)
    """
    points = sampled(curves, samples)
    lo, span = points.min(axis=0), np.ptp(points, axis=0)
    u = (points - lo) / np.where(span > 0, span, 1.0)
    x, y_down = u[:, 0], 1.0 - u[:, 1]
    counts = [np.count_nonzero((np.abs(x - cx) <= size[0]) & (np.abs(y_down - cy) <= size[1])) for cx, cy in CORNERS]
    return CORNERS[int(np.argmin(counts))]


def sampled(curves: list[np.ndarray], samples: int) -> np.ndarray:
    """The points of ``curves`` ((k, 2) polylines), each segment sampled ``samples`` times, (n, 2);
    a curve of many segments (a run's series: short ones) fewer times, at least twice, so that it
    gives some :data:`SAMPLES_PER_CURVE` points.

    >>> sampled([np.array([[0.0, 0.0], [1.0, 2.0]]), np.array([[5.0, 5.0]])], 3).tolist()
    [[0.0, 0.0], [0.5, 1.0], [1.0, 2.0], [5.0, 5.0]]
    """
    def along(c: np.ndarray) -> np.ndarray:
        t = np.linspace(0.0, 1.0, max(2, min(samples, SAMPLES_PER_CURVE // (len(c) - 1))))[None, :, None]
        return (c[:-1, None] + t * (c[1:] - c[:-1])[:, None]).reshape(-1, 2)

    return np.vstack([along(c) if len(c) > 1 else c for c in curves])


def legend_room(points: np.ndarray, lo: np.ndarray, hi: np.ndarray, corner: tuple[int, int],
                size: tuple[float, float]) -> tuple[tuple[float, float], tuple[float, float]]:
    """The view ``(x range, y range)`` from ``lo`` to ``hi`` (the curves' box, padded) widened on
    the side of the legend's ``corner`` (:data:`CORNERS`), along x or along y, whichever grows
    less, just enough that the legend's box of ``size`` (fractions of the view) holds none of
    ``points`` ((k, 2), the curves' sampled points); as it is when it holds none.

    >>> line = np.array([[0.0, 0.0], [1.0, 1.0]])  # from the bottom left to the top right
    >>> legend_room(line, np.zeros(2), np.ones(2), (1, 0), (0.5, 0.2))  # top right: the top 20 % raised
    ((0.0, 1.0), (0.0, 1.25))
    """
    lo, hi = np.array(lo, dtype=float), np.array(hi, dtype=float)
    u = (points - lo) / (hi - lo)
    frac = np.column_stack([u[:, 0], 1.0 - u[:, 1]])  # fractions of the view from its left and its top
    grown = []
    for k in (0, 1):  # widen along x (k = 0) or along y (k = 1)
        band = points[np.abs(frac[:, 1 - k] - corner[1 - k]) <= size[1 - k], k]  # beside the legend
        high = corner[k] == 1 - k  # the legend at the right (top) end of this axis
        need = (band.max() - lo[k] if high else hi[k] - band.min()) / (1.0 - size[k]) if band.size else 0.0
        grown.append(max(need, hi[k] - lo[k]))
    k = int(np.argmin([grown[0] / (hi[0] - lo[0]), grown[1] / (hi[1] - lo[1])]))
    if corner[k] == 1 - k:
        hi[k] = lo[k] + grown[k]
    else:
        lo[k] = hi[k] - grown[k]
    return (float(lo[0]), float(hi[0])), (float(lo[1]), float(hi[1]))


def drawn_polylines(plot: pg.PlotItem) -> list[np.ndarray]:
    """The polylines ((k, 2) arrays, in the view's units) the data items of ``plot`` draw
    (:func:`item_polylines`)."""
    return item_polylines(plot.listDataItems())


def item_polylines(items) -> list[np.ndarray]:
    """The polylines ((k, 2) arrays, in their view's units) data ``items`` draw: a curve drawn in
    separate segments (``connect="pairs"``, impulses' stems) as its segments."""
    lines = []
    for item in items:
        x, y = item.getData()
        if x is None or not len(x):
            continue
        points = np.column_stack([x, y])
        pairs = item.opts.get("connect") == "pairs"
        lines += list(points[:len(points) // 2 * 2].reshape(-1, 2, 2)) if pairs else [points]
    return lines


def place_legend(plot: pg.PlotItem, curves: list[np.ndarray],
                 right: tuple[pg.ViewBox, list[np.ndarray]] | None = None) -> None:
    """Anchor the legend of ``plot`` in the corner of :data:`CORNERS` where it covers the fewest
    points of ``curves`` ((k, 2) polylines in the view's units) and of the curves ``right[1]`` of a
    second view box ``right[0]`` over the same area (a right-hand axis, :mod:`.right_axis`), and set
    the views to the curves' boxes (padded as pyqtgraph pads them) widened on that side as little as
    clears the legend (:func:`legend_room`; not at all where that is beyond :data:`LEGEND_ROOM`), the
    second view by the same fractions, the legend's
    names elided to fit the view (:func:`~app.results.legend_fit.fit_legend`); nothing when
    there is no legend or no curve on the plot's own view."""
    view = plot.getViewBox()
    legend, box = plot.legend, view.boundingRect()
    curves = _finite(curves)
    if legend is None or not curves or box.width() <= 0 or box.height() <= 0:
        return
    fit_legend(legend, box.width() - 2 * LEGEND_OFFSET)
    lo, hi = padded_box(view, curves)
    second = _finite(right[1]) if right is not None else []
    if second:  # drawn where they stand, on the plot's own scale
        right_lo, right_hi = padded_box(right[0], second)
        scale = (hi[1] - lo[1]) / (right_hi[1] - right_lo[1])
        curves = curves + [np.column_stack([c[:, 0], lo[1] + (c[:, 1] - right_lo[1]) * scale]) for c in second]
    size = (min(legend.boundingRect().width() / box.width(), 1.0),
            min(legend.boundingRect().height() / box.height(), 1.0))
    corner = least_covered_corner(curves, size)
    offset = (LEGEND_OFFSET * (1 - 2 * corner[0]), LEGEND_OFFSET * (1 - 2 * corner[1]))
    legend.anchor(itemPos=corner, parentPos=corner, offset=offset)
    room = (min((legend.boundingRect().width() + 2 * LEGEND_OFFSET) / box.width(), 0.9),
            min((legend.boundingRect().height() + 2 * LEGEND_OFFSET) / box.height(), 0.9))
    x_range, y_range = legend_room(sampled(curves, 200), lo, hi, corner, room)
    if max(np.ptp(x_range) / (hi[0] - lo[0]), np.ptp(y_range) / (hi[1] - lo[1])) > 1.0 / (1.0 - LEGEND_ROOM):
        x_range, y_range = (float(lo[0]), float(hi[0])), (float(lo[1]), float(hi[1]))  # the legend over the curves
    view.setRange(xRange=x_range, yRange=y_range, padding=0)
    if second:  # the same fractions of the second view's box
        f = (np.array(y_range) - lo[1]) / (hi[1] - lo[1])
        right[0].setRange(yRange=tuple(right_lo[1] + f * (right_hi[1] - right_lo[1])), padding=0)


def padded_box(view: pg.ViewBox, curves: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The box (lowest and highest corner) of ``curves`` ((k, 2) finite polylines) padded as
    pyqtgraph's ``view`` pads an automatic range."""
    points = sampled(curves, 200)
    lo, hi = points.min(axis=0), points.max(axis=0)
    pad = np.array([view.suggestPadding(0), view.suggestPadding(1)]) * np.where(hi > lo, hi - lo, 1.0)
    return lo - pad, hi + pad


def _finite(curves: list[np.ndarray]) -> list[np.ndarray]:
    """The finite points of each of ``curves``, the curves left with none dropped."""
    curves = [c[np.isfinite(c).all(axis=1)] for c in curves]
    return [c for c in curves if len(c)]
