"""An impact-type map drawn as a PNG with Pillow: no Qt, so ``flexmech map`` draws it
on a server; the GUI's map view uses the same colours (:data:`KIND_COLOURS`,
:data:`BOUNDARY_COLOURS`).

The picture: the categorical map (one colour per Routh type), the boundaries of
:data:`solver.analysis.impact_map.BOUNDARIES` as lines, axes with ticks, a legend of
the types present and the boundaries drawn, and a title naming the contact, the
instant, ``D``, μc and the restitution law.
"""
from __future__ import annotations

import os

import numpy as np
from PIL import Image

from solver.analysis.impact_map import BOUNDARIES, INVALID, KIND_NAMES, ImpactMap
from solver.contact.routh import KINDS
from solver.safe_write import replacing

from .png_axes import Axes, Pen

#: colour of each type (and of ``invalid`` cells), colour-blind-safe (Okabe-Ito; white: nothing tangential)
KIND_COLOURS = {"S": "#E69F00", "SCS": "#56B4E9", "SRS": "#009E73", "SCD": "#F0E442", "SRD": "#CC79A7",
                "stick": "#0072B2", "normal": "#FFFFFF", "invalid": "#BBBBBB"}
#: colour of each boundary line
BOUNDARY_COLOURS = {"mu_c": "#000000", "I_nh=I_np": "#D55E00", "I_nh=I_nf": "#5A2D82"}

SIZE = (1040, 620)
PLOT = (90, 70, 600, 540)   # left, top, right, bottom of the map, px


def map_rgb(m: ImpactMap) -> np.ndarray:
    """The map's cells as an RGB array (ny, nx, 3), row 0 at the bottom (``y.low``)."""
    palette = np.array([_rgb(KIND_COLOURS[k]) for k in (*KINDS, "invalid")], dtype=np.uint8)
    codes = np.where(m.kind == INVALID, len(KINDS), m.kind)
    return palette[codes]


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def write_map_png(m: ImpactMap, path: str | os.PathLike) -> None:
    """Draw ``m`` to a PNG file at ``path``."""
    image = Image.new("RGB", SIZE, "white")
    pen = Pen(image)
    draw, write = pen.draw, pen.write
    axes = Axes(image, pen, PLOT, (m.x.low, m.x.high), (m.y.low, m.y.high))
    left, top, right, bottom = PLOT
    cells = Image.fromarray(map_rgb(m)[::-1]).resize((right - left, bottom - top), Image.Resampling.NEAREST)
    image.paste(cells, (left, top))
    for name, segments in m.boundaries.items():
        for (x0, y0), (x1, y1) in segments:
            draw.line([axes.px(x0, y0), axes.px(x1, y1)], fill=BOUNDARY_COLOURS[name], width=3)
    x0, y0 = m.instant_point()
    if m.x.low <= x0 <= m.x.high and m.y.low <= y0 <= m.y.high:
        cx, cy = axes.px(x0, y0)
        for colour, width in (("white", 5), ("black", 2)):
            draw.line([(cx - 8, cy - 8), (cx + 8, cy + 8)], fill=colour, width=width)
            draw.line([(cx - 8, cy + 8), (cx + 8, cy - 8)], fill=colour, width=width)
    axes.frame(m.x.title, m.y.title)
    for k, line in enumerate(map_title(m)):
        write((left, 12 + 20 * k), line, big=k == 0)
    x, y = right + 20, top
    for kind in m.kinds_present():
        draw.rectangle((x, y, x + 18, y + 14), fill=KIND_COLOURS[kind], outline="black")
        write((x + 26, y - 1), kind)
        write((x + 26, y + 14), KIND_NAMES[kind], fill="#444444")
        y += 40
    y += 10
    for colour, width in (("white", 5), ("black", 2)):
        draw.line([(x + 2, y), (x + 16, y + 14)], fill=colour, width=width)
        draw.line([(x + 2, y + 14), (x + 16, y)], fill=colour, width=width)
    write((x + 26, y - 1), "this instant")
    y += 24
    for name, segments in m.boundaries.items():
        if len(segments):
            draw.line([(x, y + 7), (x + 18, y + 7)], fill=BOUNDARY_COLOURS[name], width=3)
            write((x + 26, y - 1), BOUNDARIES[name])
            y += 24
    with replacing(path) as tmp:  # never through a link planted at path (solver.safe_write)
        image.save(tmp, format="PNG")


def map_title(m: ImpactMap) -> list[str]:
    """Two lines: what is mapped, and the instant's inertia and velocity."""
    i = m.instant
    varied = {m.x.name, m.y.name} & {"mu_s", "mu_d"}
    rule = ""
    if len(varied) == 1 and m.mu_d_rule == "ratio" and i.mu_s > 0:
        rule = f", μD = {i.mu_d / i.mu_s:.4g} μs"
    elif len(varied) == 1:
        rule = f", {'μD' if 'mu_s' in varied else 'μs'} fixed"
    return [f"Impact types at contact {i.contact}: {i.source}, {m.law} restitution{rule}",
            f"D = [[{i.a:.4g}, {i.c:.4g}], [{i.c if i.c_tn is None else i.c_tn:.4g}, {i.b:.4g}]],  "
            f"μc = |{'c' if i.c_tn is None else 'c_tn'}|/b = {i.mu_c:.4g},  "
            f"v0 = ({i.v_n0:.4g}, {i.v_t0:.4g}) m/s,  μs {i.mu_s:g}, μD {i.mu_d:g}, e {i.e:g}"]
