"""Axis labels of the app's plots (results, sweeps, impact maps): ``time (ms)``, with the SI
prefix the ticks are scaled by where the unit takes one (``kN``, ``µs``); pure numbers and units
that take no prefix (``deg``) keep their values, never pyqtgraph's ``(x0.001)``."""
from __future__ import annotations

import pyqtgraph as pg

from ..document.units import MICROSTRAIN, PREFIXED_UNITS, STRAIN


def axis_label(plot: pg.PlotItem, side: str, text: str, unit: str) -> None:
    """Label an axis ``text (unit)``; units of :data:`~app.document.units.PREFIXED_UNITS`
    get the prefix of the ticks (``time (ms)``), a strain is in microstrain (``strain (µε)``,
    ticks scaled by 1e6, as the colour bar), others are shown as they are (``angle (deg)``)."""
    axis = plot.getAxis(side)
    prefixed = unit in PREFIXED_UNITS
    axis.setScale(1e6 if unit == STRAIN else 1.0)
    if unit == STRAIN:
        unit = MICROSTRAIN
    axis.enableAutoSIPrefix(prefixed)
    if not prefixed:  # pyqtgraph keeps the scale of the series shown before (a strain's 1e6) once disabled
        axis.autoSIPrefixScale, axis.labelUnitPrefix = 1.0, ""
    if prefixed:
        plot.setLabel(side, text, units=unit)
    else:
        plot.setLabel(side, text if unit in ("-", "") else f"{text} ({unit})".strip())
