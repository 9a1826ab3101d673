"""The tables of a results folder: their names, columns and units, and their CSV text
(floats in the shortest text that reads back bit for bit) -- the files of a version-1 folder, and what
``flexmech export --csv`` writes from any folder; version 2 stores the same tables in
Parquet (:mod:`.columnar`).

The format of every file and column is described in ``docs/results-format.md``.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import math
from typing import Any, NamedTuple

import numpy as np

from ..errors import ResultsFormatError
from .frames import (CONTACT_KEYS, CONTACT_STATES, ENERGY_KEYS, EVENT_KEYS, RATE_FIELDS, Frame, Layout, Results,
                     frame_times, frames_reading, items_getter)
from .table_names import FRAME_TABLES, STEP_COLUMNS, TABLES

FORMAT = "flexmech-results"
#: the version written (5: ``summary.json`` records the SHA-256 of its own text,
#: ``summary_sha256``); versions 1 (every table CSV), 2 (every time series in Parquet), 3 (the
#: events also a table of their own) and 4 (the event log once, in ``summary.json``; the small
#: tables in ``tables.zip``; no hash of the summary) are still read
VERSION = 5
#: the key of ``summary.json`` (its last) holding the SHA-256 of its text without that key
SELF_HASH = "summary_sha256"

#: float format: the shortest text that reads back as the same double (Python's ``str`` of a
#: float, for numpy's too: 0.003, not 0.0030000000000000001)
FLOAT = "%s"

#: units of a driver's value, rate and reaction, by driver kind
DRIVER_UNITS = {
    "angle": {"value": "rad", "rate": "rad/s", "reaction": "N m"},
    "speed": {"value": "rad", "rate": "rad/s", "reaction": "N m"},
    "displacement": {"value": "m", "rate": "m/s", "reaction": "N"},
}


def csv_tables(results: Results, names: tuple[str, ...] = TABLES) -> dict[str, str]:
    """The CSV text of the tables ``names`` (default: all), by file name (``nodes.csv``)."""
    frames = results.frames
    times = frame_times(frames)
    labels = _labels(results.layout)
    tables = {}
    for name in names:
        if name in FRAME_TABLES:
            label_columns, fields = FRAME_TABLES[name]
            k = len(labels[name])
            fields = [(f, cols) for f, cols in fields if results.layout.rates or f not in RATE_FIELDS]
            values = np.concatenate([stack_field(frames, field, (k, len(cols))) for field, cols in fields], axis=2)
            columns = tuple(c for _, cols in fields for c in cols)
            header = ("time_s", *label_columns, *columns)
            tables[name] = _table(header, times, labels[name], values, (FLOAT,) * len(columns))
        elif name == "energy":
            tables[name] = _energy_table(results, times)
        elif name == "contacts":
            tables[name] = _contact_table(results, times)
        elif name == "steps":
            steps = results.steps
            tables[name] = _table(
                STEP_COLUMNS,
                np.array([s.time for s in steps], dtype=float),
                [()],
                np.array([(s.step, s.newton_iterations) for s in steps], dtype=float).reshape(len(steps), 1, 2),
                (FLOAT, "%d"),
            )
        else:
            tables[name] = events_csv(results.events)
    return {name + ".csv": text for name, text in tables.items()}


def stack_field(frames: list[Frame], field: str, shape: tuple[int, ...], start: int = 0,
                stop: int | None = None, dtype=float) -> np.ndarray:
    """The ``field`` arrays of frames ``start`` to ``stop`` (default: all) as one array
    (frames, *shape) of ``dtype`` (``None``: the frames' own float type); frames kept as columns
    (:class:`~solver.results.frame_columns.FrameColumns`) or read on demand read only the field's columns."""
    stop = len(frames) if stop is None else min(stop, len(frames))
    if hasattr(frames, "field"):
        values = np.asarray(frames.field(field, start, stop))
    elif stop > start:  # one concatenation (np.asarray of the list looks at every array's shape)
        values = np.concatenate([getattr(f, field) for f in frames[start:stop]])
    else:
        values = np.empty(0, dtype=dtype)
    return values.astype(dtype or values.dtype, copy=False).reshape((max(stop - start, 0), *shape))


def _table(header, times: np.ndarray, labels: list[tuple[str, ...]], values: np.ndarray, specs) -> str:
    """CSV text with one row per (frame, label row), formatted in one vectorised ``%``.

    ``times`` (F,) in s, ``labels`` the K rows' label cells (the same in every frame),
    ``values`` (F, K, m) the value cells, ``specs`` their m printf formats.
    """
    rows = [
        FLOAT + "".join("," + _csv_cell(c).replace("%", "%%") for c in label) + "".join("," + s for s in specs) + "\n"
        for label in labels
    ]
    time_cells = np.broadcast_to(times[:, None, None], values.shape[:2] + (1,)).astype(values.dtype)
    cells = np.concatenate([time_cells, values], axis=2)
    return ",".join(header) + "\n" + ("".join(rows) * len(times)) % tuple(cells.ravel().tolist())


def _csv_cell(text: str) -> str:
    """``text`` as one CSV cell, quoted when it holds a comma, a quote or a line break."""
    if any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def _labels(layout: Layout) -> dict[str, list[tuple[str, ...]]]:
    """The label cells of each frame table's rows."""
    s0 = element_offsets(layout)
    return {
        "nodes": [(n,) for n in layout.nodes],
        "rotations": [(n, link) for n, link in layout.rotations],
        "elements": [
            (link, str(k), FLOAT % xi, FLOAT % (s0[e] + xi * layout.element_length[e]))
            for e, (link, k, _, _) in enumerate(layout.elements)
            for xi in layout.stations
        ],
        "links": [(link,) for link in layout.flexible_links],
        "drivers": [(d,) for d in layout.drivers],
        "modes": [(link, str(k)) for link, k in layout.modes],
        "moving": [(m,) for m in layout.moving],
    }


def element_offsets(layout: Layout) -> np.ndarray:
    """(E,) distance of each element's first node from its link's first node, m,
    along the undeformed chain of the link's elements (ordered by their index)."""
    lengths = np.asarray(layout.element_length, dtype=float)
    offsets = np.zeros(len(layout.elements))
    by_link: dict[str, list[tuple[int, int]]] = {}
    for j, (link, k, _, _) in enumerate(layout.elements):
        by_link.setdefault(link, []).append((k, j))
    for chain in by_link.values():
        chain.sort()
        order = [j for _k, j in chain]
        offsets[order] = np.concatenate(([0.0], np.cumsum(lengths[order])[:-1]))
    return offsets


def energy_keys(results: Results) -> list[str]:
    return list(_first_frame(results).energy) if results.frames else list(ENERGY_KEYS)


def _energy_table(results: Results, times: np.ndarray) -> str:
    """energy.csv: every standard term (nan where frames lack it), any further terms, the total."""
    keys = list(ENERGY_KEYS) + [k for k in energy_keys(results) if k not in ENERGY_KEYS]
    values = np.column_stack([results.energies(keys), results.total_energy()])
    header = ("time_s", *(k + "_J" for k in keys), "total_J")
    return _table(header, times, [()], values[:, None, :], (FLOAT,) * (len(keys) + 1))


def contact_keys(results: Results) -> list[str]:
    return list(_first_frame(results).contact) if results.frames else []


def _first_frame(results: Results) -> Frame:
    """The first frame, at least its time, energy and contact data (of frames read on demand no
    row group of the tables is read)."""
    return next(frames_reading(results.frames, (), 0, 1))


def contact_values(frames: list[Frame], keys: list[str], start: int = 0, stop: int | None = None) -> dict[str, np.ndarray]:
    """The contact values of ``keys`` of frames ``start`` to ``stop`` (default: all) as float
    arrays (frames, C), ``state``'s codes too (frames read on demand or kept as columns keep them:
    :meth:`~solver.results.lazy.LazyFrames.contact_rows`,
    :meth:`~solver.results.frame_columns.FrameColumns.contact_rows`)."""
    rows = getattr(frames, "contact_rows", None)
    if rows is not None:
        held = rows()
        return {k: np.asarray(held[k], dtype=float)[start:stop] for k in keys}
    return contact_arrays([f.contact for f in frames[start:stop]], keys)


def contact_arrays(contacts: list[dict[str, np.ndarray]], keys: list[str]) -> dict[str, np.ndarray]:
    """The values of ``keys`` of frames' ``contacts`` (dicts of (C,) arrays) as float arrays (F, C)."""
    if not contacts or not keys:
        return {k: np.zeros((len(contacts), 0)) for k in keys}
    values = items_getter(keys)  # one flat concatenation: numpy looks at no nested shape
    flat = np.concatenate([a for c in contacts for a in values(c)])  # each (C,)
    table = flat.astype(float, copy=False).reshape(len(contacts), len(keys), -1)
    return {k: table[:, j, :] for j, k in enumerate(keys)}


def _contact_table(results: Results, times: np.ndarray) -> str:
    """contacts.csv: every standard key (empty where frames lack it), then any further keys."""
    have = contact_keys(results)
    keys = list(CONTACT_KEYS) + [k for k in have if k not in CONTACT_KEYS]
    n_c = len(results.layout.contacts) if have else 0
    cells = np.full((len(times), n_c, len(keys)), "", dtype=object)
    values = contact_values(results.frames, have)
    for j, key in enumerate(keys):
        if key not in have:
            continue
        column = values[key].reshape(len(times), n_c)
        cells[:, :, j] = np.asarray(CONTACT_STATES, dtype=object)[column.astype(int)] if key == "state" else column
    specs = tuple("%s" if key == "state" or key not in have else FLOAT for key in keys)
    labels = [(c,) for c in results.layout.contacts[:n_c]]
    return _table(("time_s", "contact", *keys), times, labels, cells, specs)


def events_csv(events: list[dict[str, Any]]) -> str:
    """events.csv: one row per event; columns EVENT_KEYS, then the other keys in first-seen order."""
    columns = list(dict.fromkeys([*EVENT_KEYS, *(k for e in events for k in e)]))
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([[_event_cell(e[k]) if k in e else "" for k in columns] for e in events])
    return buf.getvalue()


def _event_cell(value: Any) -> str:
    """One event value as CSV text: floats repr-exact, booleans true/false, lists as JSON."""
    value = jsonable(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return FLOAT % value
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def sha256(text: str | bytes) -> str:
    """The SHA-256 of ``text`` (UTF-8) or of bytes."""
    return hashlib.sha256(text if isinstance(text, bytes) else text.encode("utf-8")).hexdigest()


def jsonable(value: Any) -> Any:
    """``value`` with numpy scalars and arrays as plain Python, tuples as lists, nan/inf as None."""
    if isinstance(value, float):  # the commonest first: a summary holds thousands (numpy's float64 is one too)
        return float(value) if math.isfinite(value) else None
    if isinstance(value, (str, int)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [jsonable(v) for v in (value.tolist() if isinstance(value, np.ndarray) else value)]
    if isinstance(value, np.generic):
        return jsonable(value.item())
    return value


def field_shapes(layout: Layout) -> dict[str, tuple[int, ...]]:
    """Each frame array's shape (one frame); the rates are empty when the run records none."""
    n, r, l, d = len(layout.nodes), len(layout.rotations), len(layout.flexible_links), len(layout.drivers)
    k = len(layout.modes)
    es = (len(layout.elements), len(layout.stations))
    nr, rr = (n, r) if layout.rates else (0, 0)
    return {
        "node_xy": (n, 2), "node_v": (nr, 2), "node_a": (nr, 2),
        "rot": (r,), "rot_v": (rr,), "rot_a": (rr,),
        "axial_force": es, "axial_strain": es, "bending_strain": es, "bending_moment": es,
        "midspan": (l,),
        "driver_angle": (d,), "driver_speed": (d,), "driver_reaction": (d,),
        "modal_q": (k,), "modal_qd": (k,), "modal_qdd": (k,), "modal_strain_energy": (k,),
        "modal_kinetic_energy": (k,),
        "moving_s": (len(layout.moving),), "moving_speed": (len(layout.moving),), "moving_force": (len(layout.moving), 2),
    }  # fmt: skip


def contacts_from_table(table: CsvTable, keys: list[str], n_f: int, n_c: int) -> dict[str, np.ndarray]:
    """Frame.contact arrays (F, C) per key; ``state`` back to codes into CONTACT_STATES."""
    out = {}
    for key in keys:
        if key != "state":
            out[key] = table.columns([key]).reshape(n_f, n_c)
            continue
        names, inverse = np.unique(table.columns([key], dtype=str), return_inverse=True)
        unknown = set(names.tolist()) - set(CONTACT_STATES)
        if unknown:
            raise ResultsFormatError(f"{table.source}: unknown contact state(s) {sorted(unknown)}")
        codes = np.array([CONTACT_STATES.index(s) for s in names.tolist()], dtype=int)
        out[key] = codes[inverse].reshape(n_f, n_c)
    return out


class CsvTable(NamedTuple):
    """A CSV file's text, header and number of data rows, and where it came from (for messages)."""

    source: str
    text: str
    header: list[str]
    rows: int

    @classmethod
    def parse(cls, source: str, text: str, rows: int) -> CsvTable:
        """The table of CSV ``text`` (from ``source``) with ``rows`` data rows (its header read from the first line).

        Raises :class:`ResultsFormatError` when the text does not hold that many rows.
        """
        lines = text.count("\n")
        if not lines or lines - 1 != rows:
            found = "no header line" if not lines else f"{lines - 1} data rows"
            raise ResultsFormatError(f"{source}: {found}, summary.json records {rows}")
        if not text.endswith("\n"):
            raise ResultsFormatError(f"{source}: ends within a line (cut short?)")
        return cls(source, text, next(csv.reader(io.StringIO(text))), rows)

    def columns(self, names: list[str], dtype: type = float) -> np.ndarray:
        """The named columns as an array (rows, len(names)), parsed in C by ``np.loadtxt``.

        Raises :class:`ResultsFormatError` naming the file for a missing column or a cell
        that is not a ``dtype``.
        """
        missing = [n for n in names if n not in self.header]
        if missing:
            raise ResultsFormatError(f"{self.source}: no column {', '.join(map(repr, missing))}")
        if not self.rows:
            return np.empty((0, len(names)), dtype=dtype)
        try:
            return np.loadtxt(
                io.StringIO(self.text),
                dtype=dtype,
                delimiter=",",
                skiprows=1,
                usecols=[self.header.index(n) for n in names],
                quotechar='"',
                comments=None,
                ndmin=2,
            )
        except ValueError as exc:
            raise ResultsFormatError(f"{self.source}: {exc}") from None
