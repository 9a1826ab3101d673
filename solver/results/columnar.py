"""The time series of a results folder (version 2) as Parquet files: written in row groups
of a bounded number of rows, read back column by column.

Every table keeps the rows and columns of its version-1 CSV file (``docs/results-format.md``:
frame-major, then the entities in layout order; units in the column names); the label
columns (ids, element index, station) are dictionary-encoded, the value columns
byte-stream-split (but :data:`PLAIN_COLUMNS`) and the whole compressed with zstd -- a smooth
float series compresses to about half.  Values are float64, or float32 in the bulky tables of
a run recorded in single precision (``solver.record.precision``): they read back bit for bit.

>>> spec = frame_table(results.layout, "nodes", results.frames[0])     # doctest: +SKIP
>>> with parquet_writer(path, spec.schema) as writer:                   # doctest: +SKIP
...     writer.write_table(pa.table(spec.columns(results.frames), schema=spec.schema))
>>> table = ParquetTable(path.name, parquet_file(path.name, path.read_bytes()), len(results.frames) * spec.per_frame)  # doctest: +SKIP
>>> table.columns(["x_m"])                                            # doctest: +SKIP
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator, NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import ResultsFormatError
from .frames import (CONTACT_STATES, ENERGY_KEYS, RATE_FIELDS, Frame, Layout, Results, energy_matrix, energy_total,
                     frame_energies, frame_times)
from .tables import FRAME_TABLES, STEP_COLUMNS, contact_values, element_offsets, field_shapes, stack_field

#: rows of one row group (a chunk of frames is written at once: memory stays bounded)
ROW_GROUP_ROWS = 1 << 19
#: zstd level: 1 writes fastest; higher levels gain under 1 % on float series (once the columns
#: below are stored plain) and cost up to 4 times the time
ZSTD_LEVEL = 1
#: float columns stored plain, not byte-stream-split: an element's axial force and strain are
#: the same at its stations, and zstd finds those 8-byte repeats only in the plain values (the
#: 16-element slider-crank's full record: 5.4 MB each against 20.7 MB split, 119 MB in all against
#: 151 MB; the 5.6 MB of a smooth series split take 6.2 MB plain, the other columns stay split)
PLAIN_COLUMNS = ("axial_force_N", "axial_strain")

Columns = dict[str, pa.Array]
#: tables whose values are float32 in a run recorded in single precision
BULKY_TABLES = ("nodes", "rotations", "elements", "modes")


def parquet_writer(path: Path, schema: pa.Schema) -> pq.ParquetWriter:
    """A writer of ``schema``'s tables to ``path`` (one row group per table written): the
    label columns dictionary-encoded, the float values byte-stream-split, all zstd-compressed."""
    floats = [n for n, t in zip(schema.names, schema.types) if pa.types.is_floating(t) and n != "time_s"]
    labels = [n for n in schema.names if n not in floats]
    split = [n for n in floats if n not in PLAIN_COLUMNS]
    return pq.ParquetWriter(path, schema, compression="zstd", compression_level=ZSTD_LEVEL, use_dictionary=labels,
                            use_byte_stream_split=split or False, write_statistics=False)


# ====================================================================== tables of a run
def _repeated(values: list, count: int, type_: pa.DataType) -> pa.Array:
    """``values`` repeated ``count`` times (a label column: dictionary-encoded when text)."""
    if pa.types.is_dictionary(type_):  # each text once in the dictionary (else the file's bytes vary)
        codes = {text: i for i, text in enumerate(dict.fromkeys(values))}
        indices = np.tile(np.array([codes[v] for v in values], dtype=np.int32), count)
        return pa.DictionaryArray.from_arrays(pa.array(indices), pa.array(list(codes), pa.string()))
    return pa.array(np.tile(np.asarray(values, dtype=type_.to_pandas_dtype()), count), type_)


TEXT = pa.dictionary(pa.int32(), pa.string())


def _entity_labels(layout: Layout) -> dict[str, list[tuple[str, pa.DataType, list]]]:
    """Each frame table's label columns: (name, type, one frame's values)."""
    s0 = element_offsets(layout)
    elements = [(e, xi) for e in range(len(layout.elements)) for xi in layout.stations]
    return {
        "nodes": [("node", TEXT, list(layout.nodes))],
        "rotations": [("node", TEXT, [n for n, _ in layout.rotations]), ("link", TEXT, [k for _, k in layout.rotations])],
        "elements": [
            ("link", TEXT, [layout.elements[e][0] for e, _ in elements]),
            ("element", pa.int64(), [layout.elements[e][1] for e, _ in elements]),
            ("station", pa.float64(), [xi for _, xi in elements]),
            ("s_m", pa.float64(), [s0[e] + xi * layout.element_length[e] for e, xi in elements]),
        ],
        "links": [("link", TEXT, list(layout.flexible_links))],
        "drivers": [("driver", TEXT, list(layout.drivers))],
        "modes": [("link", TEXT, [k for k, _ in layout.modes]), ("mode", pa.int64(), [m for _, m in layout.modes])],
        "moving": [("moving", TEXT, list(layout.moving))],
    }


def value_fields(name: str, layout) -> list[tuple[str, tuple[str, ...]]]:
    """(Frame field, its columns) of a frame table's values that a run of ``layout`` records."""
    return [(f, cols) for f, cols in FRAME_TABLES[name][1] if layout.rates or f not in RATE_FIELDS]


class TableSpec(NamedTuple):
    """A table of the frames: its schema, its rows per frame, and the columns of a chunk of frames."""

    schema: pa.Schema
    per_frame: int
    #: the columns of frames ``start`` to ``stop`` (default: all) of a run's frames
    columns: Callable[..., Columns]


def frame_table(layout: Layout, name: str, first: Frame | None, labels: list | None = None,
                shapes: dict | None = None) -> TableSpec:
    """Frame table ``name`` of a run of ``layout`` whose first frame is ``first`` (its float type);
    ``labels`` and ``shapes`` its label columns and the frame's shapes, if known."""
    labels = _entity_labels(layout)[name] if labels is None else labels
    k = len(labels[0][2])
    shapes = field_shapes(layout) if shapes is None else shapes
    dtype = np.dtype(first.node_xy.dtype if first is not None and name in BULKY_TABLES else np.float64)
    fields = value_fields(name, layout)
    schema = pa.schema([("time_s", pa.float64()), *((c, t) for c, t, _ in labels),
                        *((c, pa.from_numpy_dtype(dtype)) for _, cols in fields for c in cols)])
    repeated: dict[int, Columns] = {}  # the label columns of a number of frames (every full chunk's the same)

    def columns_of(frames, start: int = 0, stop: int | None = None) -> Columns:
        times = frame_times(frames, start, stop)
        columns = {"time_s": pa.array(np.repeat(times, k))}
        if len(times) not in repeated:
            repeated.clear()
            repeated[len(times)] = {c: _repeated(v, len(times), t) for c, t, v in labels}
        columns.update(repeated[len(times)])
        for field, cols in fields:
            values = stack_field(frames, field, shapes[field], start, stop, None).astype(dtype, copy=False)
            values = values.reshape(len(times) * k, len(cols))
            columns.update({c: pa.array(np.ascontiguousarray(values[:, j])) for j, c in enumerate(cols)})
        return columns

    return TableSpec(schema, k, columns_of)


def energy_table(first: Frame | None) -> TableSpec:
    """energy: every standard term (nan where frames lack it), any further terms, the total, J."""
    keys = list(ENERGY_KEYS) + [k for k in (first.energy if first is not None else ()) if k not in ENERGY_KEYS]
    schema = pa.schema([("time_s", pa.float64()), *((k + "_J", pa.float64()) for k in keys), ("total_J", pa.float64())])

    def columns_of(frames, start: int = 0, stop: int | None = None) -> Columns:
        columns = {"time_s": pa.array(frame_times(frames, start, stop))}
        energies = frame_energies(frames)[start:stop]
        values = energy_matrix(energies, keys)
        columns.update({k + "_J": pa.array(np.ascontiguousarray(values[:, j])) for j, k in enumerate(keys)})
        columns["total_J"] = pa.array(energy_total(energies))
        return columns

    return TableSpec(schema, 1, columns_of)


def contact_table(layout: Layout, first: Frame | None) -> TableSpec:
    """contacts: the keys the frames hold (``state`` as text), one row per frame and pair."""
    keys = list(first.contact) if first is not None else []
    pairs = layout.contacts if keys else []
    schema = pa.schema([("time_s", pa.float64()), ("contact", TEXT),
                        *((k, TEXT if k == "state" else pa.float64()) for k in keys)])
    states = pa.array(list(CONTACT_STATES), pa.string())

    def columns_of(frames, start: int = 0, stop: int | None = None) -> Columns:
        times = frame_times(frames, start, stop)
        columns = {"time_s": pa.array(np.repeat(times, len(pairs))), "contact": _repeated(list(pairs), len(times), TEXT)}
        for key, values in contact_values(frames, keys, start, stop).items():
            cells = values.reshape(-1)
            columns[key] = (pa.DictionaryArray.from_arrays(pa.array(cells.astype(np.int32)), states) if key == "state"
                            else pa.array(cells))
        return columns

    return TableSpec(schema, len(pairs), columns_of)


def frame_tables(layout: Layout, first: Frame | None) -> dict[str, TableSpec]:
    """Every table written from the frames of a run of ``layout`` whose first frame is ``first``, by name."""
    labels, shapes = _entity_labels(layout), field_shapes(layout)
    tables = {name: frame_table(layout, name, first, labels[name], shapes) for name in FRAME_TABLES}
    tables.update(energy=energy_table(first), contacts=contact_table(layout, first))
    return tables


def step_table(results: Results) -> tuple[pa.Schema, Iterator[Columns]]:
    """steps: one row per accepted step (when the run records its step log)."""
    schema = pa.schema([("time_s", pa.float64()), ("step_s", pa.float64()), ("newton_iterations", pa.int64())])
    steps = results.steps

    def chunks() -> Iterator[Columns]:
        for start in range(0, len(steps), ROW_GROUP_ROWS):
            part = steps[start : start + ROW_GROUP_ROWS]
            yield {"time_s": pa.array([s.time for s in part], pa.float64()),
                   "step_s": pa.array([s.step for s in part], pa.float64()),
                   "newton_iterations": pa.array([s.newton_iterations for s in part], pa.int64())}

    assert tuple(schema.names) == STEP_COLUMNS
    return schema, chunks()


# ====================================================================== reading
def parquet_file(source: str, data: bytes | str) -> pq.ParquetFile:
    """The Parquet file of bytes ``data`` (or at path ``data``), from ``source``; refused with
    :class:`ResultsFormatError` if it is not one."""
    try:
        return pq.ParquetFile(pa.BufferReader(data) if isinstance(data, bytes) else data)
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise ResultsFormatError(f"{source}: not a Parquet file ({exc})") from None


class ParquetTable:
    """A table file read column by column (a Parquet file, or a member of ``tables.zip``:
    :class:`~solver.results.bundle.ArrowFile`); where it came from (for messages)."""

    def __init__(self, source: str, file, rows: int):
        """Refused with :class:`ResultsFormatError` unless ``file`` holds ``rows`` rows."""
        self.source = source
        self._file = file
        self.rows = self._file.metadata.num_rows
        if self.rows != rows:
            raise ResultsFormatError(f"{source}: {self.rows} data rows, summary.json records {rows}")
        self.header = list(self._file.schema_arrow.names)

    def columns(self, names: list[str], dtype: type | None = float) -> np.ndarray:
        """The named columns as an array (rows, len(names)): float (float32 columns stay
        float32 when all are), or ``str`` for text.

        Raises :class:`ResultsFormatError` naming the file for a missing column or one of
        another type.
        """
        missing = [n for n in names if n not in self.header]
        if missing:
            raise ResultsFormatError(f"{self.source}: no column {', '.join(map(repr, missing))}")
        out = None
        for j, name in enumerate(names):  # one column at a time: memory for the result and one column
            try:
                column = self._file.read(columns=[name]).column(0)
            except (pa.ArrowException, OSError) as exc:
                raise ResultsFormatError(f"{self.source}: {exc}") from None
            kind = column.type.value_type if pa.types.is_dictionary(column.type) else column.type
            if dtype is str:
                if not pa.types.is_string(kind):
                    raise ResultsFormatError(f"{self.source}: column {name!r} holds {kind}, not text")
                values = np.asarray(column.cast(pa.string()).to_pylist(), dtype=object)
            elif pa.types.is_floating(kind) or pa.types.is_integer(kind):
                values = column.to_numpy()
            else:
                raise ResultsFormatError(f"{self.source}: column {name!r} holds {kind}, not numbers")
            if out is None:  # float32 stays float32 when the first column is (the columns of a field share a type)
                kept = object if dtype is str else (np.float32 if values.dtype == np.float32 else float)
                out = np.empty((len(values), len(names)), dtype=kept)
            out[:, j] = values
            del column, values
        return out if out is not None else np.empty((self.rows, 0))
