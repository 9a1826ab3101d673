"""Decimated drawing of a long link: at most a few hundred points, within half a pixel.

A flexible link meshed with thousands of elements spans at most a few thousand pixels, and
its deformed shape is smooth at the scale of a pixel: drawing every element (2000 line
segments a frame) costs the frame rate and shows nothing more.  :func:`decimate` chooses
the mesh nodes to draw by the Ramer–Douglas–Peucker rule (Ramer 1972, Douglas & Peucker
1973), refined breadth-first over all spans at once (numpy, no loop over the nodes): a span
between two kept nodes is split at its node farthest from the span's chord until every node
lies within ``tolerance`` of its chord, or until ``max_points`` are kept (the spans of
largest deviation split first).  The ends are always kept, and so are the extremes: the
node farthest from a chord is the one kept.

With strain colours, :func:`with_breaks` adds the nodes where an element's colour changes
(as many as the cap leaves room for) and :func:`extreme_per_span` colours a drawn segment
by the strain of largest magnitude among the elements it stands for, so a peak of strain
keeps its colour however many elements share its pixel.

Every node dropped lies within ``tolerance`` of the segment drawn over it, so the whole
mesh polyline lies within ``tolerance`` of the drawn one and the drawn one within
``tolerance`` of the mesh polyline (both are within that distance of the same chords).

>>> import numpy as np
>>> s = np.linspace(0.0, 1.0, 2001)
>>> arc = np.column_stack([s, 0.1 * s ** 2])
>>> kept = decimate(arc, tolerance=1e-4, max_points=300)
>>> int(kept[0]), int(kept[-1]), len(kept) <= 300
(0, 2000, True)
"""
from __future__ import annotations

import numpy as np

#: the most points a decimated link is drawn with; a link with fewer mesh nodes is drawn whole
MAX_POINTS = 300
#: the largest distance of the drawn shape from the mesh's, px
TOLERANCE_PX = 0.5


def decimate(points: np.ndarray, tolerance: float, max_points: int = MAX_POINTS) -> np.ndarray:
    """Indices (sorted, first and last included) of the ``points`` (n, 2) to draw: at most
    ``max_points`` (at least 2), and all the points dropped within ``tolerance`` (in the
    points' unit) of the chord between the kept points around them, unless the cap is hit."""
    n = len(points)
    max_points = max(int(max_points), 2)
    if n <= 2:
        return np.arange(n)
    kept = np.zeros(n, dtype=bool)
    kept[[0, -1]] = True
    count = 2
    starts, ends = np.array([0]), np.array([n - 1])  # the spans still to look into
    while count < max_points and len(starts):
        worst, error = _worst_of_spans(points, starts, ends)
        wide = error > tolerance
        starts, ends, worst, error = starts[wide], ends[wide], worst[wide], error[wide]
        room = max_points - count
        if len(worst) > room:  # the cap: the largest deviations first
            kept[worst[np.argsort(error)[::-1][:room]]] = True
            break
        kept[worst] = True
        count += len(worst)
        starts, ends = np.concatenate([starts, worst]), np.concatenate([worst, ends])
        inner = ends - starts > 1
        starts, ends = starts[inner], ends[inner]
    return np.flatnonzero(kept)


def _worst_of_spans(points: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each span from ``starts`` to ``ends`` (indices into ``points``, with points between
    them): the index of its point farthest from the span's chord (a segment) and that distance."""
    lengths = ends - starts - 1
    # the interior points of the spans, with the span each belongs to
    span = np.repeat(np.arange(len(starts)), lengths)
    offset = np.cumsum(lengths) - lengths
    index = starts[span] + 1 + np.arange(len(span)) - offset[span]
    a, b = points[starts][span], points[ends][span]
    ab, ap = b - a, points[index] - a
    ab2 = np.einsum("ij,ij->i", ab, ab)
    t = np.clip(np.einsum("ij,ij->i", ap, ab) / np.where(ab2 > 0.0, ab2, 1.0), 0.0, 1.0)
    distance = np.hypot(*(ap - t[:, None] * ab).T)
    error = np.maximum.reduceat(distance, offset)
    # the first point of each span at its largest distance
    at_max = np.flatnonzero(distance == error[span])
    first = at_max[np.r_[True, np.diff(span[at_max]) > 0]]
    return index[first], error


def with_breaks(kept: np.ndarray, classes: np.ndarray, max_points: int = MAX_POINTS) -> np.ndarray:
    """``kept`` (sorted node indices) with the nodes where ``classes`` (one per element: element
    ``k`` joins nodes ``k`` and ``k + 1``) changes added, evenly thinned to keep at most
    ``max_points`` nodes in all."""
    changes = np.setdiff1d(np.flatnonzero(np.diff(classes)) + 1, kept)
    room = max(int(max_points) - len(kept), 0)
    if len(changes) > room:
        changes = changes[np.linspace(0, len(changes) - 1, room).astype(int)] if room else changes[:0]
    return np.union1d(kept, changes)


def extreme_per_span(values: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """Per span between consecutive ``kept`` nodes: the value of largest magnitude among the
    ``values`` of the elements it covers (one value per element, element ``k`` joins nodes
    ``k`` and ``k + 1``).

    >>> extreme_per_span(np.array([1.0, -3.0, 2.0, 0.5]), np.array([0, 2, 4]))
    array([-3.,  2.])
    """
    high = np.maximum.reduceat(values, kept[:-1])
    low = np.minimum.reduceat(values, kept[:-1])
    return np.where(np.abs(high) >= np.abs(low), high, low)
