"""Zero isolines of a field sampled on a grid (marching squares, linear interpolation
along the cell edges), vectorised over the cells.

>>> x = y = np.linspace(0.0, 1.0, 3)
>>> X, Y = np.meshgrid(x, y)
>>> zero_isoline(x, y, X - 0.25)[:, :, 0].round(12).tolist()
[[0.25, 0.25], [0.25, 0.25]]
"""
from __future__ import annotations

import numpy as np


def zero_isoline(x: np.ndarray, y: np.ndarray, phi: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """Segments ``(k, 2, 2)`` — ``[[x0, y0], [x1, y1]]`` each — of the curve ``phi = 0``.

    Parameters
    ----------
    x : (nx,) increasing abscissae of the grid columns.
    y : (ny,) increasing ordinates of the grid rows.
    phi : (ny, nx) the field at the grid points; ``nan`` points end the curve.
    keep : optional (ny - 1, nx - 1) mask of the cells whose segments are wanted.

    The sign test is ``phi > 0``; a cell crossed four times (a saddle) is split by the
    value at its centre, the mean of its corners.
    """
    phi = np.asarray(phi, dtype=float)
    X, Y = np.meshgrid(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    # corners of every cell, counter-clockwise from the lower left: (ny-1, nx-1, 4)
    corner = lambda a: np.stack([a[:-1, :-1], a[:-1, 1:], a[1:, 1:], a[1:, :-1]], axis=-1)  # noqa: E731
    f, cx, cy = corner(phi), corner(X), corner(Y)
    g, gx, gy = (np.roll(a, -1, axis=-1) for a in (f, cx, cy))  # the far end of each edge
    crossed = np.isfinite(f) & np.isfinite(g) & ((f > 0) != (g > 0))
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(crossed, f / (f - g), 0.0)
    points = np.stack([cx + w * (gx - cx), cy + w * (gy - cy)], axis=-1)   # (ny-1, nx-1, 4, 2)
    count = crossed.sum(axis=-1)
    if keep is not None:
        count = np.where(keep, count, 0)
    segments = []
    two = count == 2
    if two.any():
        edges = np.argsort(~crossed[two], axis=-1, kind="stable")[:, :2]    # the two crossed edges
        pts = points[two]
        segments.append(np.take_along_axis(pts, edges[:, :, None], axis=1))
    for j, i in zip(*np.nonzero(count == 4)):
        p = points[j, i]
        centre_positive = np.mean(f[j, i]) > 0
        pairs = ((0, 1), (2, 3)) if centre_positive == (f[j, i, 0] > 0) else ((0, 3), (1, 2))
        segments += [p[list(pair)][None] for pair in pairs]
    return np.concatenate(segments) if segments else np.empty((0, 2, 2))
