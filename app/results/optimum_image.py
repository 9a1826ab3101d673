"""The objective against the field's value of an optimum search, drawn as a PNG with Pillow
(no Qt, so ``flexmech optimize --png`` draws it on a server): the runs as points joined in
the order of the field's value, the optimum as a red diamond, and a title with the
optimum.  The Sweeps > Optimum dialog plots the same curve and marker live with
pyqtgraph (:mod:`app.sweeps.optimum_dialog`, same colours).
"""
from __future__ import annotations

import math
import os

from PIL import Image

from solver.safe_write import replacing
from solver.sweeps import Optimum

from .png_axes import Axes, Pen

#: colours of the runs' curve and of the optimum's marker
CURVE, BEST = "#1f6fb4", "#c0392b"
SIZE = (860, 540)
PLOT = (100, 70, 830, 460)   # left, top, right, bottom of the plot area, px
#: the margin round the data, a fraction of its span
MARGIN = 0.06


def padded(values: list[float], bounds: tuple[float, float] | None = None) -> tuple[float, float]:
    """A range round ``values`` (and ``bounds``) with a margin; a single value gets a span of 1.

    >>> padded([1.0, 2.0]), padded([3.0])
    ((0.94, 2.06), (2.5, 3.5))
    """
    low, high = min(values), max(values)
    if bounds is not None:
        low, high = min(low, bounds[0]), max(high, bounds[1])
    span = high - low
    if span <= 0.0:
        return low - 0.5, high + 0.5
    return round(low - MARGIN * span, 12), round(high + MARGIN * span, 12)


def write_optimum_png(opt: Optimum, path: str | os.PathLike, title: str) -> None:
    """Draw the runs of ``opt`` (objective against the field's value) to a PNG file at
    ``path``, under ``title`` (the command line's line saying the optimum)."""
    runs = [(x, v) for x, v in opt.table() if math.isfinite(v)]
    image = Image.new("RGB", SIZE, "white")
    pen = Pen(image)
    if not runs:
        pen.write((PLOT[0], 20), "no run gave a finite objective", big=True)
        _save(image, path)
        return
    axes = Axes(image, pen, PLOT, padded([x for x, _v in runs], opt.bounds), padded([v for _x, v in runs]))
    axes.frame(opt.path, opt.objective, grid=True)
    points = [axes.px(x, v) for x, v in runs]
    if len(points) > 1:
        pen.draw.line(points, fill=CURVE, width=2, joint="curve")
    for u, w in points:
        pen.draw.ellipse((u - 4, w - 4, u + 4, w + 4), fill=CURVE)
    if math.isfinite(opt.value):
        u, w = axes.px(opt.x, opt.value)
        pen.draw.polygon([(u, w - 9), (u + 9, w), (u, w + 9), (u - 9, w)], fill=BEST, outline="black")
    pen.write((PLOT[0], 16), title, big=pen.draw.textlength(title, font=pen.font) < SIZE[0] - PLOT[0] - 10)
    pen.write((PLOT[0], 40), f"bounds [{opt.bounds[0]:g}, {opt.bounds[1]:g}]; one run of the model per point",
              fill="#444444")
    _save(image, path)


def _save(image: Image.Image, path: str | os.PathLike) -> None:
    """``image`` as a PNG file at ``path``, written safely (:func:`solver.safe_write.replacing`)."""
    with replacing(path) as tmp:
        image.save(tmp, format="PNG")
