"""Which abscissa a CSV overlay's columns are drawn against, read from the file's header.

No Qt here.  A column's name carries its quantity and, where it gives one, its unit: after
the last ``_`` as the results files and the plots' CSV export write them (``time_s``,
``event_time_s``, ``driver.crank.angle_deg``), in brackets (``time (ms)``, ``t [s]``), or after
a ``/`` as ISO 80000-1 heads a table's column (``Time / s``);
a label before the last ``: `` is left aside (a compared run's, ``μ = 0.7: time_s``, or the
curve the export qualifies a repeated abscissa by, ``contact.c.I_t_N_s: event_time_s``).  The first column
is the abscissa of the columns after it, and so is any later column naming an abscissa
with its unit (the export's stems, against ``event_time_s``, beside curves against
``time_s``): :func:`abscissa_groups`.  :func:`alignment` says whether such an abscissa is
the plot's -- time (``t``, ``time`` or ``event_time``), or a driver's value or angle -- and
the factor to the plot's unit (``time_ms`` on a time axis: 0.001), or why it is not (a unit
that does not read, ``Time (sec)``, is said to be one: never read as the plot's).
"""
from __future__ import annotations

import re
from typing import NamedTuple

from solver.results.series import Series

from ..document.units import UnitError, parse_unit

#: a unit in brackets at the end of a column name: ``time (ms)``, ``t [s]``
_BRACKETED = re.compile(r"^(.*?)\s*[\[(]\s*([^\])]+?)\s*[\])]$")
#: the names time goes by in a column (lower case)
TIME_NAMES = ("t", "time", "event_time")
#: a driver's coordinate in a column: its value (rad or m) or its angle (deg)
_DRIVER = re.compile(r"^driver\.(.+)\.(?:value|angle)$")


class Alignment(NamedTuple):
    """How a CSV abscissa is drawn on a plot: ``factor`` to the plot's unit (None: not drawn)
    and a ``note`` for the window (why not drawn, or what was assumed; empty when exact)."""

    factor: float | None
    note: str = ""


def split_column(name: str) -> tuple[str, str | None]:
    """``(quantity, unit)`` of a column name; ``unit`` None when the name gives none that reads.

    >>> split_column("time_ms"), split_column("t (s)"), split_column("run 2: event_time_s"), split_column("time")
    (('time', 'ms'), ('t', 's'), ('event_time', 's'), ('time', None))
    >>> split_column("Time / ms"), split_column("energy/strain_J"), split_column("Time (sec)")
    (('Time', 'ms'), ('energy/strain', 'J'), ('Time (sec)', None))
    """
    name = name.rpartition(": ")[2].strip()
    for quantity, unit in _splits(name):
        try:
            parse_unit(unit)
        except UnitError:
            continue
        return quantity, unit
    return name, None


def _splits(name: str) -> list[tuple[str, str]]:
    """The ways ``name`` may write ``(quantity, unit)``, read or not: a unit in brackets, after the
    last ``_``, after the first ``/``."""
    bracketed = _BRACKETED.match(name)
    out = [(bracketed.group(1), bracketed.group(2))] if bracketed else []
    for quantity, _, unit in (name.rpartition("_"), name.partition("/")):
        if quantity.strip() and unit.strip():
            out.append((quantity.strip(), unit.strip()))
    return out


def _quantity(name: str) -> str | None:
    """What abscissa a quantity names: ``time`` or ``driver/<id>``; None for any other."""
    name = name.strip()
    if name.lower() in TIME_NAMES:
        return "time"
    driver = _DRIVER.match(name)
    return f"driver/{driver.group(1)}" if driver else None


def abscissa_groups(columns: list[str]) -> list[tuple[str, list[str]]]:
    """The columns of a CSV file as ``(abscissa, curves drawn against it)``: the first column
    and each later one that names an abscissa with its unit start a group.

    >>> abscissa_groups(["event_time_s", "contact.c.I_n_N_s", "time_s", "contact.c.F_n_N"])
    [('event_time_s', ['contact.c.I_n_N_s']), ('time_s', ['contact.c.F_n_N'])]
    """
    groups: list[tuple[str, list[str]]] = []
    for k, name in enumerate(columns):
        quantity, unit = split_column(name)
        if k == 0 or (unit is not None and _quantity(quantity) is not None):
            groups.append((name, []))
        else:
            groups[-1][1].append(name)
    return groups


def alignment(name: str, axis: Series) -> Alignment:
    """How the CSV abscissa column ``name`` is drawn on a plot against ``axis`` (time, or a
    driver's value or angle: :func:`solver.results.series.x_axes`)."""
    quantity, unit = split_column(name)
    plots = "time" if axis.key == "time" else axis.key.rpartition("/")[0]
    rename = f"name the column {axis.column}, or the same with another unit after the last '_'"
    if unit is None:
        unread = next((u for q, u in _splits(quantity) if _quantity(q) == plots), None)
        if unread is not None:
            return Alignment(None, f"its abscissa '{name}' gives its unit as '{unread}', which does not read: {rename}")
    if _quantity(quantity) != plots:
        return Alignment(None, f"its abscissa '{name}' is not the plot's {axis.title}: {rename}")
    if unit is None:
        return Alignment(1.0, f"its abscissa '{name}' gives no unit: read in {axis.unit}")
    factor, dims = parse_unit(unit)
    want_factor, want_dims = parse_unit(axis.unit)
    if dims != want_dims:
        return Alignment(None, f"its abscissa '{name}' is in {unit}, not in a unit of the plot's {axis.title}")
    return Alignment(factor / want_factor)
