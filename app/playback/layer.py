"""Frames of a run drawn on the sketch canvas, on top of the model as sketched.

:class:`PlaybackLayer` makes its graphics items once per run (:meth:`~PlaybackLayer.set_run`)
and only updates their data for each frame (:meth:`~PlaybackLayer.show_frame`), so a
200-element model animates at well over 60 frames a second.  It draws

* links from the frame's node positions: a flexible link through its mesh nodes, its
  deflection from the chord between its end nodes scaled by :attr:`~PlaybackLayer.exaggeration`;
  a link of more than :data:`~.decimation.MAX_POINTS` mesh nodes through at most that many,
  within half a pixel of its shape at the view's scale (:mod:`.decimation`; drawn again
  when the view zooms in);
* optionally strain colouring of each element (axial, bending or combined outer-fibre
  strain, the largest of its stations) with a colour bar in microstrain;
* contact points coloured by state (open / slide / stick) with arrows of the contact
  force on the point, scaled to the largest force of the run's frames (so far);
* moving supports, masses and forces at s(t) on their deformed link (held at its ends
  when s(t) is off the link);
* trace paths of chosen nodes up to the frame; the time and frame index in a corner.
"""
from __future__ import annotations

import math
from itertools import chain

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

from solver.model.translational_rules import corner_pair_ids, corner_targets, translational_joints
from solver.results.frames import Frame, Layout, frames_reading
from solver.system.clearance import clearance_target, journal_node

from ..canvas import geometry as geo
from ..canvas.items import BODY, FLEXIBLE, GROUND, LOAD, MASS, RIGID
from ..document.units import format_quantity
from .decimation import MAX_POINTS, TOLERANCE_PX, decimate, extreme_per_span, with_breaks

#: strain colouring choices: label -> mode
STRAIN_MODES = {"No strain colour": "", "Axial strain": "axial", "Bending strain": "bending",
                "Combined outer-fibre strain": "combined"}
#: contact state colours: open, slide, stick (solver.results.CONTACT_STATES)
STATE_COLOURS = ("#2e86c1", "#e67e22", "#c0392b")
TRACE = "#8e44ad"
FORCE = "#d35400"
#: strain colour bar: colour map (blue, grey at zero strain so unstrained links stay
#: visible on the white canvas, red) and number of colours
COLOUR_MAP, COLOURS = "CET-D8", 64
#: the longest force arrow as a fraction of the model's size
ARROW_FRACTION = 0.25
#: link pen width, px
LINK_WIDTH = 3.5
Z_LINKS, Z_TRACES, Z_POINTS, Z_ARROWS = 20, 21, 22, 23
#: symbol and colour of a moving support, mass and force (as the sketch draws them)
MOVING_SYMBOLS = {"support": ("t1", GROUND), "mass": ("s", MASS), "force": ("t", LOAD)}
#: decimated links are drawn again when the view's pixel shrinks below this fraction of the
#: pixel they were decimated for (zooming out needs no new drawing)
REDECIMATE_ZOOM = 0.75


def combined_strain(axial: np.ndarray, bending: np.ndarray) -> np.ndarray:
    """The outer-fibre strain of larger magnitude, ``axial ± bending`` (signed)."""
    plus, minus = axial + bending, axial - bending
    return np.where(np.abs(plus) >= np.abs(minus), plus, minus)


#: the Frame arrays the strain colours read
STRAIN_FIELDS = ("axial_strain", "bending_strain")


def element_strain(frame: Frame, mode: str) -> np.ndarray:
    """Per element (E,): the strain of ``mode`` at the station where it is largest in magnitude."""
    if mode == "axial":
        values = frame.axial_strain
    elif mode == "bending":
        values = frame.bending_strain
    else:
        values = combined_strain(frame.axial_strain, frame.bending_strain)
    if not values.size:
        return np.zeros(0)
    rows = np.arange(values.shape[0])
    return values[rows, np.argmax(np.abs(values), axis=1)]


def exaggerated(points: np.ndarray, fractions: np.ndarray, factor: float) -> np.ndarray:
    """Points of a link (n, 2) with their offsets from the chord between its end points
    scaled by ``factor``; ``fractions`` (n,) place each point along the chord."""
    a, b = points[0], points[-1]
    chord = a + fractions[:, None] * (b - a)
    return chord + factor * (points - chord)


class Segments(pg.GraphicsObject):
    """Line segments, each drawn with one pen of a palette (one paint call for them all)."""

    def __init__(self, pens: list[QPen]):
        super().__init__()
        self.pens = pens
        self._lines: list[list[QLineF]] = [[] for _ in pens]
        self._rect = QRectF()

    def set_segments(self, ends: np.ndarray, pen_index: np.ndarray) -> None:
        """``ends`` (M, 4): x1, y1, x2, y2 of each segment; ``pen_index`` (M,) into the palette."""
        self.prepareGeometryChange()
        self._lines = [[] for _ in self.pens]
        for (x1, y1, x2, y2), k in zip(ends.tolist(), pen_index.tolist()):
            self._lines[k].append(QLineF(x1, y1, x2, y2))
        if len(ends):
            xs, ys = ends[:, 0::2], ends[:, 1::2]
            self._rect = QRectF(xs.min(), ys.min(), xs.max() - xs.min(), ys.max() - ys.min())
        else:
            self._rect = QRectF()
        self.update()

    def segments(self) -> list[tuple[QPen, list[QLineF]]]:
        """Each pen of the palette with the segments drawn in it."""
        return list(zip(self.pens, self._lines))

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        return self._rect.adjusted(-1e-3, -1e-3, 1e-3, 1e-3)

    def paint(self, painter: QPainter, *_args) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for pen, lines in zip(self.pens, self._lines):
            if lines:
                painter.setPen(pen)
                painter.drawLines(lines)


def _cosmetic(colour, width: float = LINK_WIDTH) -> QPen:
    pen = pg.mkPen(colour, width=width, capStyle=Qt.PenCapStyle.RoundCap)
    pen.setCosmetic(True)
    return pen


class PlaybackLayer:
    """The items that draw a run's frames on ``view`` (a pyqtgraph PlotWidget)."""

    def __init__(self, view: pg.PlotWidget):
        self.view = view
        self.exaggeration = 1.0
        self.strain_mode = ""
        self.traced: list[str] = []
        self.colour_map = pg.colormap.get(COLOUR_MAP)
        palette = [_cosmetic(c) for c in self.colour_map.getLookupTable(0.0, 1.0, COLOURS, mode="qcolor")]
        self.flexible = Segments([_cosmetic(FLEXIBLE), *palette])
        self.rigid = pg.PlotCurveItem(pen=_cosmetic(RIGID), connect="finite", antialias=True)
        self.nodes = pg.ScatterPlotItem(size=7, pen=pg.mkPen(RIGID), brush=pg.mkBrush("w"))
        self.points = pg.ScatterPlotItem(size=11, pen=pg.mkPen("k", width=1))
        self.moving = pg.ScatterPlotItem(size=13, pen=pg.mkPen("k", width=1))
        #: free bodies with a radius, drawn at their size in metres (pxMode off), as in the sketch
        self.bodies = pg.ScatterPlotItem(pxMode=False, pen=_cosmetic(BODY, 2), brush=pg.mkBrush(BODY + "46"))
        self.arrows = pg.PlotCurveItem(pen=_cosmetic(FORCE, 2.5), connect="pairs", antialias=True)
        self.traces = pg.PlotCurveItem(pen=_cosmetic(TRACE, 1.5), connect="finite", antialias=True)
        self.text = pg.TextItem(color="#202020", anchor=(0, 0))
        self.text.setParentItem(view.getViewBox())
        self.text.setPos(8, 4)
        self.colour_bar = pg.ColorBarItem(values=(-1.0, 1.0), colorMap=self.colour_map, interactive=False,
                                          label="strain (µε)", width=15)
        self._state_brushes = [pg.mkBrush(c) for c in STATE_COLOURS]
        self._items: list[QGraphicsItem] = [self.flexible, self.rigid, self.traces, self.nodes, self.points, self.arrows,
                                            self.moving, self.bodies]
        for item, z in zip(self._items, (Z_LINKS, Z_LINKS, Z_TRACES, Z_POINTS, Z_POINTS, Z_ARROWS, Z_POINTS, Z_LINKS)):
            item.setZValue(z)
            view.addItem(item, ignoreBounds=True)
        # the axes paint the grid over the whole view: cached as pixmaps, a frame repaints
        # in about 2 ms instead of 20 ms (a 200-element model: 40 -> over 200 frames/s)
        for side in ("left", "bottom"):
            view.getPlotItem().getAxis(side).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._bar_shown = False
        view.getViewBox().sigRangeChanged.connect(self._on_range_changed)
        self.clear()

    # ------------------------------------------------------------------ run
    def clear(self) -> None:
        """Draw nothing (no run)."""
        self.layout: Layout | None = None
        self.model: dict = {}
        #: per flexible link: layout rows of its nodes, their fractions along it, its element ids
        self._flex: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._rigid: list[np.ndarray] = []
        self._node_rows = np.zeros(0, dtype=int)
        #: layout rows and diameters (m) of the free bodies with a radius
        self._body_rows, self._body_sizes = np.zeros(0, dtype=int), np.zeros(0)
        self._contacts: list[tuple[int, dict]] = []
        #: per moving support, mass or force: its item and the index of its link in ``_flex``
        self._moving: list[tuple[dict, int]] = []
        #: the traced nodes' positions in the frames so far (F, traced, 2) and their layout rows
        self._history, self._history_rows = np.zeros((0, 0, 2)), []
        #: the largest contact force and strain magnitude of the first frames scanned
        self._max_force, self._force_scanned = 0.0, 0
        self._max_strain, self._strain_scanned = 0.0, 0
        self._size = 1.0
        #: the pixel size (m) the links were last decimated for (0: none decimated)
        self._decimated_for = 0.0
        self.frame: Frame | None = None
        self._index, self._frames = -1, []
        for item in self._items:
            item.setVisible(False)
        self.text.setText("")
        self._show_colour_bar(False)

    def set_run(self, model: dict, layout: Layout) -> None:
        """Prepare to draw frames of a run of ``model`` whose arrays are named by ``layout``."""
        self.clear()
        self.model, self.layout = model, layout
        row = {name: i for i, name in enumerate(layout.nodes)}
        chains = layout.chains()  # every flexible link, its elements recorded or not
        for nodes, fractions, ids in chains.values():
            self._flex.append((np.array([row[n] for n in nodes]), fractions, ids))
        for link in model.get("links", []):
            if link.get("kind") == "rigid":
                nodes = list(link["nodes"]) + (link["nodes"][:1] if len(link["nodes"]) > 2 else [])
                self._rigid.append(np.array([row[n] for n in nodes]))
        round_bodies = {b["id"]: 2.0 * b["radius"] for b in model.get("bodies", []) if b.get("radius", 0.0) > 0}
        sketched = [n["id"] for n in model.get("nodes", [])] + [b["id"] for b in model.get("bodies", [])]
        self._node_rows = np.array([row[n] for n in sketched if n in row and n not in round_bodies], dtype=int)
        self._body_rows = np.array([row[b] for b in round_bodies if b in row], dtype=int)
        self._body_sizes = np.array([size for b, size in round_bodies.items() if b in row])
        pairs = {c["id"]: (c["point"].get("node") or c["point"].get("body"), c["target"])
                 for c in model.get("contacts", [])}
        pairs.update({j["id"]: (journal_node(j), clearance_target(j))
                      for j in model.get("joints", []) if j.get("kind") == "clearance"})
        xy = {n["id"]: (n["x"], n["y"]) for n in model.get("nodes", [])}
        for j in translational_joints(model):  # the slider through its corners, each corner a pair
            pairs.update({pair: (pair, target) for pair, target in corner_targets(j, xy[j["node"]]).items()})
            corners = corner_pair_ids(j)
            if all(c in row for c in corners):
                self._rigid.append(np.array([row[c] for c in corners + corners[:1]]))
        for pair in layout.contacts:
            point, target = pairs[pair]
            self._contacts.append((row[point], target))
        drawn = list(chains)
        self._moving = [(item, drawn.index(item["link"])) for item in model.get("moving", []) if item.get("link") in drawn]
        self._history, self._history_rows = np.zeros((0, 0, 2)), []
        for item in self._items:
            item.setVisible(True)

    def set_size(self, size: float) -> None:
        """The model's size, m (force arrows are a fraction of it)."""
        self._size = max(float(size), 1e-9)

    # ------------------------------------------------------------------ options
    def set_exaggeration(self, factor: float) -> None:
        self.exaggeration = float(factor)
        self._redraw()

    def set_strain_mode(self, mode: str) -> None:
        """``""`` (links in their sketch colours), ``axial``, ``bending`` or ``combined``."""
        self.strain_mode = mode
        self._max_strain, self._strain_scanned = 0.0, 0
        self._show_colour_bar(bool(mode) and self.layout is not None and bool(self.layout.elements))
        self._redraw()

    def set_traced(self, nodes: list[str]) -> None:
        """Draw the paths of these nodes (ids of the layout) up to the frame shown."""
        self.traced = list(nodes)
        self._redraw()

    def _redraw(self) -> None:
        if self.frame is not None:
            self.show_frame(self.frame, self._index, self._frames)

    def _show_colour_bar(self, shown: bool) -> None:
        plot = self.view.getPlotItem()
        if shown and not self._bar_shown:
            plot.layout.addItem(self.colour_bar, 2, 3)
        elif not shown and self._bar_shown:
            plot.layout.removeItem(self.colour_bar)
            self.colour_bar.setParentItem(None)
            self.colour_bar.scene() and self.colour_bar.scene().removeItem(self.colour_bar)
        self._bar_shown = shown

    # ------------------------------------------------------------------ frames
    def show_frame(self, frame: Frame, index: int, frames: list[Frame]) -> None:
        """Draw ``frame``, number ``index`` of ``frames`` (the list the traces follow)."""
        if self.layout is None:
            return
        if frames is not self._frames:  # another run, or a run's frames read back from its folder once it ended
            self._history_rows = None  # the traces are taken from these frames again
        self.frame, self._index, self._frames = frame, index, frames
        self._scan(frame, frames)
        xy = frame.node_xy
        self._draw_links(frame, xy)
        sketched = xy[self._node_rows]
        self.nodes.setData(pos=sketched)
        self.bodies.setData(pos=xy[self._body_rows], size=self._body_sizes)
        self._draw_contacts(frame, xy)
        self._draw_moving(frame, xy)
        self._draw_traces(index, frames)
        self.text.setText(f"t = {format_quantity(frame.time, 's', 6)}    frame {index + 1} / {len(frames)}")

    def _scan(self, frame: Frame, frames: list[Frame]) -> None:
        """Widen the force and strain scales to the frames not yet scanned, so that a
        frame looks the same whichever frames were shown before it."""
        for f in chain([frame], frames_reading(frames, (), self._force_scanned)):  # one at a time (big runs)
            f_n, f_t = f.contact.get("F_n_N"), f.contact.get("F_t_N")
            if f_n is not None and len(f_n):
                self._max_force = max(self._max_force, float(np.max(np.hypot(f_n, f_t if f_t is not None else 0.0))))
        self._force_scanned = max(self._force_scanned, len(frames))
        if self.strain_mode:
            for f in chain([frame], frames_reading(frames, STRAIN_FIELDS, self._strain_scanned)):
                strain = element_strain(f, self.strain_mode)
                if strain.size:
                    self._max_strain = max(self._max_strain, float(np.max(np.abs(strain))))
            self._strain_scanned = max(self._strain_scanned, len(frames))

    def _draw_links(self, frame: Frame, xy: np.ndarray) -> None:
        ends, colour = [], []
        strain = element_strain(frame, self.strain_mode) if self.strain_mode else None
        coloured = strain is not None and bool(strain.size)
        if coloured:
            self._max_strain = max(self._max_strain, 1e-12)
            levels = 1e6 * self._max_strain
            if self.colour_bar.levels() != (-levels, levels):  # its axis redraws when set
                self.colour_bar.setLevels((-levels, levels))
        pixel = self.pixel_size()
        self._decimated_for = 0.0
        for rows, fractions, ids in self._flex:
            pts = exaggerated(xy[rows], fractions, self.exaggeration)
            values = strain[ids] if coloured and len(ids) else None  # an unrecorded link: sketch colour
            if len(pts) > MAX_POINTS and pixel > 0.0:
                kept = decimate(pts, TOLERANCE_PX * pixel, MAX_POINTS)
                if values is not None:
                    kept = with_breaks(kept, self._colour_index(values), MAX_POINTS)
                    values = extreme_per_span(values, kept)
                pts = pts[kept]
                self._decimated_for = pixel
            ends.append(np.hstack([pts[:-1], pts[1:]]))
            colour.append(np.zeros(len(pts) - 1, dtype=int) if values is None else self._colour_index(values))
        if ends:
            self.flexible.set_segments(np.vstack(ends), np.concatenate(colour))
        else:
            self.flexible.set_segments(np.zeros((0, 4)), np.zeros(0, dtype=int))
        if self._rigid:
            chains = [np.vstack([xy[rows], [[np.nan, np.nan]]]) for rows in self._rigid]
            pts = np.vstack(chains)
            self.rigid.setData(pts[:, 0], pts[:, 1])
        else:
            self.rigid.setData([], [])

    def _colour_index(self, strain: np.ndarray) -> np.ndarray:
        """Pens of the palette (1 to :data:`COLOURS`) for these strains."""
        scaled = np.nan_to_num((strain / self._max_strain + 1.0) / 2.0, nan=0.5)
        return 1 + np.clip((scaled * COLOURS).astype(int), 0, COLOURS - 1)

    def pixel_size(self) -> float:
        """The size of a screen pixel in the model, m (the finer of its width and height;
        0 before the view has a size)."""
        box = self.view.getViewBox()
        (x0, x1), (y0, y1) = box.viewRange()
        width, height = box.width(), box.height()
        if not (width > 0.0 and height > 0.0):
            return 0.0
        return min((x1 - x0) / width, (y1 - y0) / height)

    def _on_range_changed(self, *_args) -> None:
        if self._decimated_for > 0.0 and self.pixel_size() < REDECIMATE_ZOOM * self._decimated_for:
            self._redraw()

    def _draw_contacts(self, frame: Frame, xy: np.ndarray) -> None:
        if not self._contacts:
            self.points.setData([])
            self.arrows.setData([], [])
            return
        pos = np.array([xy[row] for row, _target in self._contacts])
        states = np.asarray(frame.contact.get("state", np.zeros(len(pos))), dtype=int)
        self.points.setData(pos=pos, brush=[self._state_brushes[s] for s in states])
        f_n = np.asarray(frame.contact.get("F_n_N", np.zeros(len(pos))))
        f_t = np.asarray(frame.contact.get("F_t_N", np.zeros(len(pos))))
        if self._max_force <= 0.0:
            self.arrows.setData([], [])
            return
        scale = ARROW_FRACTION * self._size / self._max_force
        lines = []
        for (row, target), p, fn, ft in zip(self._contacts, pos, f_n, f_t):
            n = contact_normal(target, p, xy, self.layout, self.model)
            force = scale * (fn * n + ft * np.array([n[1], -n[0]]))
            length = float(np.hypot(*force))
            if length <= 1e-12:
                continue
            tip = p + force
            back = -force / length * min(0.3 * length, 0.04 * self._size)
            side = np.array([-back[1], back[0]]) * 0.5
            lines += [p, tip, tip, tip + back + side, tip, tip + back - side]
        pts = np.array(lines) if lines else np.zeros((0, 2))
        self.arrows.setData(pts[:, 0], pts[:, 1]) if len(pts) else self.arrows.setData([], [])

    def _draw_moving(self, frame: Frame, xy: np.ndarray) -> None:
        """Each moving support, mass or force at s(t) along its link as drawn (deflection exaggerated)."""
        spots = []
        for item, k in self._moving:
            rows, fractions, _ids = self._flex[k]
            pts = exaggerated(xy[rows], fractions, self.exaggeration)
            f = geo.moving_fraction(self.model, item, frame.time)
            symbol, colour = MOVING_SYMBOLS.get(item.get("kind"), ("o", LOAD))
            spots.append({"pos": (float(np.interp(f, fractions, pts[:, 0])), float(np.interp(f, fractions, pts[:, 1]))),
                          "symbol": symbol, "brush": pg.mkBrush(colour), "data": item["id"]})
        self.moving.setData(spots)

    def _draw_traces(self, index: int, frames: list[Frame]) -> None:
        if not self.traced or self.layout is None:
            self.traces.setData([], [])
            return
        rows = [self.layout.nodes.index(n) for n in self.traced if n in self.layout.nodes]
        if rows != self._history_rows:  # the paths of the traced nodes only, not of every mesh node
            self._history, self._history_rows = np.zeros((0, len(rows), 2)), rows
        count = index + 1
        have = self._history.shape[0]
        if have < count:
            more = np.stack([f.node_xy[rows] for f in frames_reading(frames, ("node_xy",), have, count)])
            self._history = np.concatenate([self._history, more])
        paths = [np.vstack([self._history[:count, k], [[np.nan, np.nan]]]) for k in range(len(rows))]
        pts = np.vstack(paths) if paths else np.zeros((0, 2))
        self.traces.setData(pts[:, 0], pts[:, 1])


def contact_normal(target: dict, point: np.ndarray, xy: np.ndarray, layout: Layout, model: dict) -> np.ndarray:
    """Unit normal out of a contact target at ``point`` (as the solver defines it, from
    the model's target and the frame's node positions ``xy``)."""
    kind = target.get("kind")
    if kind == "ground_line":
        a = float(target.get("angle", 0.0))
        return np.array([-math.sin(a), math.cos(a)])
    if kind == "ground_segment":
        d = np.array([target["x2"] - target["x1"], target["y2"] - target["y1"]])
        return np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-300)
    if kind == "circle":
        centre = xy[layout.nodes.index(target["node"])] if "node" in target else \
            np.array([target.get("x", 0.0), target.get("y", 0.0)])
        d = point - centre
        n = d / max(float(np.hypot(*d)), 1e-300)
        return -n if target.get("inside") else n
    if kind == "node":
        a = float(target.get("angle", 0.0))
        return np.array([math.cos(a), math.sin(a)])
    if kind == "link":
        link = next(lk for lk in model.get("links", []) if lk["id"] == target["link"])
        a, b = xy[layout.nodes.index(link["nodes"][0])], xy[layout.nodes.index(link["nodes"][-1])]
        d = b - a
        n = np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-300)
        return -n if target.get("side") == "right" else n
    return np.array([0.0, 1.0])
