"""The time series of a results folder (version 2) as Parquet files: written in row groups
of a bounded number of rows, read back column by column.

Every table keeps the rows and columns of its version-1 CSV file (``docs/results-format.md``:
frame-major, then the entities in layout order; units in the column names); the label
columns (ids, element index, station) are dictionary-encoded, the value columns
byte-stream-split (but :data:`PLAIN_COLUMNS`) and the whole compressed with zstd -- a smooth
float series compresses to about half.  Values are float64, or float32 in the bulky tables of
a run recorded in single precision (``solver.record.precision``): they read back bit for bit.

>>> entry = write_parquet(path, *frame_table(results, "nodes"))       # doctest: +SKIP
>>> ParquetTable.parse("nodes.parquet", path.read_bytes(), entry["rows"]).columns(["x_m"])  # doctest: +SKIP
"""
from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import BinaryIO, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import ResultsFormatError
from .frames import CONTACT_STATES, ENERGY_KEYS, RATE_FIELDS, Frame, Results
from .tables import (FRAME_TABLES, STEP_COLUMNS, contact_keys, contact_values, element_offsets, energy_keys,
                     field_shapes, stack_field)

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


def write_parquet(path: Path, schema: pa.Schema, chunks: Iterator[Columns]) -> dict:
    """Write the ``chunks`` (columns of ``schema``) to ``path``, one row group each.

    Returns the file's entry in ``summary.json``: its row count and SHA-256.
    """
    floats = [n for n, t in zip(schema.names, schema.types) if pa.types.is_floating(t) and n != "time_s"]
    labels = [n for n in schema.names if n not in floats]
    split = [n for n in floats if n not in PLAIN_COLUMNS]
    rows = 0
    with open(path, "wb") as fh:
        sink = _Hashing(fh)
        with pq.ParquetWriter(sink, schema, compression="zstd", compression_level=ZSTD_LEVEL, use_dictionary=labels,
                              use_byte_stream_split=split or False, write_statistics=False) as writer:
            for columns in chunks:
                table = pa.table(columns, schema=schema)
                writer.write_table(table)
                rows += table.num_rows
    return {"rows": rows, "sha256": sink.sha256.hexdigest()}


class _Hashing(io.RawIOBase):
    """A file to write that hashes the bytes on their way (the file is not read back)."""

    def __init__(self, fh: BinaryIO):
        super().__init__()
        self._fh, self.sha256 = fh, hashlib.sha256()

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.sha256.update(data)
        return self._fh.write(data)


# ====================================================================== tables of a run
def frame_chunks(frames: list[Frame], per_frame: int) -> Iterator[list[Frame]]:
    """Consecutive slices of ``frames`` of about :data:`ROW_GROUP_ROWS` rows (at least one frame each;
    none when a frame has no rows)."""
    if not per_frame:
        return
    size = max(1, ROW_GROUP_ROWS // per_frame)
    for start in range(0, len(frames), size):
        yield frames[start : start + size]


def _repeated(values: list, count: int, type_: pa.DataType) -> pa.Array:
    """``values`` repeated ``count`` times (a label column: dictionary-encoded when text)."""
    if pa.types.is_dictionary(type_):  # each text once in the dictionary (else the file's bytes vary)
        codes = {text: i for i, text in enumerate(dict.fromkeys(values))}
        indices = np.tile(np.array([codes[v] for v in values], dtype=np.int32), count)
        return pa.DictionaryArray.from_arrays(pa.array(indices), pa.array(list(codes), pa.string()))
    return pa.array(np.tile(np.asarray(values, dtype=type_.to_pandas_dtype()), count), type_)


TEXT = pa.dictionary(pa.int32(), pa.string())


def _entity_labels(results: Results) -> dict[str, list[tuple[str, pa.DataType, list]]]:
    """Each frame table's label columns: (name, type, one frame's values)."""
    layout = results.layout
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


def frame_table(results: Results, name: str) -> tuple[pa.Schema, Iterator[Columns]]:
    """The schema of frame table ``name`` and its columns, chunk by chunk."""
    layout, frames = results.layout, results.frames
    labels = _entity_labels(results)[name]
    k = len(labels[0][2])
    shapes = field_shapes(layout)
    dtype = np.dtype(frames[0].node_xy.dtype if frames and name in BULKY_TABLES else np.float64)
    fields = value_fields(name, layout)
    schema = pa.schema([("time_s", pa.float64()), *((c, t) for c, t, _ in labels),
                        *((c, pa.from_numpy_dtype(dtype)) for _, cols in fields for c in cols)])

    def chunks() -> Iterator[Columns]:
        for chunk in frame_chunks(frames, k):
            times = np.array([f.time for f in chunk])
            columns = {"time_s": pa.array(np.repeat(times, k))}
            columns.update({c: _repeated(v, len(chunk), t) for c, t, v in labels})
            for field, cols in fields:
                values = stack_field(chunk, field, shapes[field], dtype).reshape(len(chunk) * k, len(cols))
                columns.update({c: pa.array(np.ascontiguousarray(values[:, j])) for j, c in enumerate(cols)})
            yield columns

    return schema, chunks()


def energy_table(results: Results) -> tuple[pa.Schema, Iterator[Columns]]:
    """energy: every standard term (nan where frames lack it), any further terms, the total, J."""
    keys = list(ENERGY_KEYS) + [k for k in energy_keys(results) if k not in ENERGY_KEYS]
    schema = pa.schema([("time_s", pa.float64()), *((k + "_J", pa.float64()) for k in keys), ("total_J", pa.float64())])
    values = np.column_stack([results.time.astype(float), results.energies(keys), results.total_energy()])

    def chunks() -> Iterator[Columns]:
        for start in range(0, len(values), ROW_GROUP_ROWS):
            part = values[start : start + ROW_GROUP_ROWS]
            yield {name: pa.array(np.ascontiguousarray(part[:, j])) for j, name in enumerate(schema.names)}

    return schema, chunks()


def contact_table(results: Results) -> tuple[pa.Schema, Iterator[Columns]]:
    """contacts: the keys the frames hold (``state`` as text), one row per frame and pair."""
    keys = contact_keys(results)
    pairs = results.layout.contacts if keys else []
    schema = pa.schema([("time_s", pa.float64()), ("contact", TEXT),
                        *((k, TEXT if k == "state" else pa.float64()) for k in keys)])
    states = pa.array(list(CONTACT_STATES), pa.string())

    def chunks() -> Iterator[Columns]:
        for chunk in frame_chunks(results.frames, len(pairs)):
            times = np.array([f.time for f in chunk], dtype=float)
            columns = {"time_s": pa.array(np.repeat(times, len(pairs))), "contact": _repeated(list(pairs), len(chunk), TEXT)}
            for key, values in contact_values(chunk, keys).items():
                cells = values.reshape(-1)
                columns[key] = (pa.DictionaryArray.from_arrays(pa.array(cells.astype(np.int32)), states) if key == "state"
                                else pa.array(cells))
            yield columns

    return schema, chunks()


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


def parquet_tables(results: Results) -> dict[str, tuple[pa.Schema, Iterator[Columns]]]:
    """Every Parquet table of a version-2 folder, by table name."""
    tables = {name: frame_table(results, name) for name in FRAME_TABLES}
    tables.update(energy=energy_table(results), contacts=contact_table(results), steps=step_table(results))
    return tables


# ====================================================================== reading
class ParquetTable:
    """A Parquet file's bytes read column by column; where it came from (for messages)."""

    def __init__(self, source: str, data: bytes, rows: int):
        """Refused with :class:`ResultsFormatError` unless ``data`` is a Parquet file of ``rows`` rows."""
        self.source = source
        try:
            self._file = pq.ParquetFile(pa.BufferReader(data))
        except (pa.ArrowException, OSError) as exc:
            raise ResultsFormatError(f"{source}: not a Parquet file ({exc})") from None
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
