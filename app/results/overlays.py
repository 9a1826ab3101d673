"""Overlays: reference curves and points, or any CSV file, drawn over a plot in a style
of their own (black, dashed; open circles for single values).

An :class:`Overlay` is one curve or set of points named by its abscissa and ordinate
columns (the series' CSV column names, ``time_s`` and ``contact.striker-end.F_n_N``).
The bundled references of :mod:`solver.results.references` become overlays of the
series they name (:func:`reference_overlays`); a CSV file loaded by the user becomes
overlays of whatever the plot shows (:func:`csv_overlays`), drawn where the abscissa its
header names is the plot's (:func:`aligned_csv`, :mod:`.overlay_abscissa`).
:class:`OverlayLayer` draws them on a pyqtgraph plot.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from solver.results.references import Reference, read_curve_csv
from solver.results.series import Series

from .overlay_abscissa import abscissa_groups, alignment

#: pen of reference curves and of loaded CSV curves
REFERENCE_PEN = {"color": "k", "width": 2, "style": Qt.PenStyle.DashLine}
CSV_PEN = {"color": "#555555", "width": 2, "style": Qt.PenStyle.DashDotLine}


@dataclass(frozen=True)
class Overlay:
    """A curve (``points`` False) or markers of ``y`` against ``x``; ``x_column`` and
    ``column`` say which abscissa and series they belong to; ``origin`` is
    ``'reference'`` (drawn on the series it names) or ``'csv'`` (drawn on the plot it was
    loaded into, whatever it shows, from the file named ``source``)."""

    label: str
    x_column: str
    column: str
    x: np.ndarray
    y: np.ndarray
    points: bool = False
    origin: str = "reference"
    source: str = ""


def reference_overlays(references: list[Reference]) -> list[Overlay]:
    """The curves and points of ``references``, labelled by their titles."""
    out = []
    for ref in references:
        if ref.table is not None:
            x = ref.table.columns[ref.table.x]
            out += [Overlay(ref.title, ref.x, name, x, ref.table.columns[name]) for name in ref.table.y_names]
        out += [Overlay(p.label or ref.title, ref.x, p.column, np.array([p.x]), np.array([p.value]), points=True)
                for p in ref.points]
    return out


def csv_overlays(path: str | os.PathLike) -> list[Overlay]:
    """Every column of a CSV file against its abscissa (the first column, or a later one naming
    an abscissa: :func:`~.overlay_abscissa.abscissa_groups`), labelled ``file: column``;
    raises :class:`solver.results.references.ReferenceError` naming what is wrong."""
    table = read_curve_csv(path)
    stem = Path(path).stem
    return [Overlay(f"{stem}: {name}", x_name, name, table.columns[x_name], table.columns[name], origin="csv",
                    source=Path(path).name)
            for x_name, names in abscissa_groups(list(table.columns)) for name in names]


def aligned_csv(overlays: list[Overlay], axis: Series) -> tuple[list[Overlay], list[str]]:
    """The CSV ``overlays`` a plot against ``axis`` draws, their abscissae in its unit, and a
    note for each file's abscissa that is not the plot's (not drawn) or gives no unit."""
    drawn, notes = [], {}
    for overlay in overlays:
        factor, note = alignment(overlay.x_column, axis)
        if note:
            notes[f"{overlay.source}: {'' if factor is not None else 'not drawn, '}{note}"] = None
        if factor is not None:
            drawn.append(replace(overlay, x=overlay.x * factor) if factor != 1.0 else overlay)
    return drawn, list(notes)


class OverlayLayer:
    """The overlay items of one plot (a reference of a series on a plot's right axis is drawn
    against that axis: :class:`~app.results.right_axis.RightAxis`)."""

    def __init__(self, plot: pg.PlotItem, right=None):
        self.plot = plot
        self.right = right
        self.items: list[tuple[Overlay, pg.PlotDataItem]] = []

    def show(self, overlays: list[Overlay], x_column: str, columns: dict[str, str],
             right_columns: dict[str, str] | None = None) -> None:
        """Draw the reference overlays on abscissa ``x_column`` of the series drawn
        (``columns``: CSV column -> the series' label, which a reference curve's legend
        entry adds to its title; ``right_columns``: those of the series on the right axis),
        and every CSV overlay (against the left axis)."""
        self.clear()
        right_columns = right_columns or {}
        for overlay in overlays:
            on_right = overlay.origin == "reference" and overlay.column in right_columns
            named = right_columns if on_right else columns
            if overlay.origin == "reference" and (overlay.x_column != x_column or overlay.column not in named):
                continue
            name = overlay.label
            if overlay.origin == "reference" and not overlay.points:
                name = f"{overlay.label}: {named[overlay.column]}"
            if overlay.points:
                item = pg.PlotDataItem(overlay.x, overlay.y, pen=None, symbol="o", symbolSize=11,
                                       symbolPen=pg.mkPen("k", width=2), symbolBrush=None, name=name)
            else:
                pen = pg.mkPen(**(REFERENCE_PEN if overlay.origin == "reference" else CSV_PEN))
                item = pg.PlotDataItem(overlay.x, overlay.y, pen=pen, connect="finite", name=name)
            item.setZValue(5)
            if on_right:
                self.right.add(item, name)
            else:
                self.plot.addItem(item)
            self.items.append((overlay, item))

    def clear(self) -> None:
        for _overlay, item in self.items:
            if self.right is not None and item in self.right.items:
                self.right.remove(item)
            else:
                self.plot.removeItem(item)
        self.items = []

    def drawn(self) -> list[Overlay]:
        """The overlays on the plot now."""
        return [overlay for overlay, _item in self.items]
