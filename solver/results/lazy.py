"""The frames of a results folder (version 2) read on demand: a sequence of
:class:`~solver.results.frames.Frame` that reads a frame's rows from the Parquet files
a row group at a time, keeping the last row group of each table, so that
a folder of any size opens in the memory of a few row groups.

The small per-frame data (times, energies, contact data) are read whole when the folder is
opened; one quantity over all frames (:meth:`LazyFrames.field`) reads just its columns.
What :func:`~solver.results.files.load_results` checks of a table before returning (its
columns, their types and its rows) is checked when the sequence is opened.

>>> frames = load_results("out/cantilever").frames               # doctest: +SKIP
>>> frames[5000].node_xy, frames.field("rot")[:, -1]             # doctest: +SKIP
"""
from __future__ import annotations

import os

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import ResultsFormatError
from .frames import CONTACT_STATES, RATE_FIELDS, EnergyRows, Frame, FrameSequence, Layout
from .tables import FRAME_TABLES, field_shapes

#: tables whose values LazyFrames reads a row group at a time
LAZY_TABLES = tuple(FRAME_TABLES)


class _Table:
    """One frame table: its file, which frames each row group holds, and the last row group read."""

    def __init__(self, source: str, file: pq.ParquetFile, fields: list[tuple[str, tuple[str, ...]]],
                 shapes: dict[str, tuple[int, ...]], per_frame: int, n_frames: int):
        self.source, self.file, self.fields, self.shapes, self.per_frame = source, file, fields, shapes, per_frame
        schema = file.schema_arrow
        for _, columns in fields:
            for name in columns:
                if name not in schema.names:
                    raise ResultsFormatError(f"{source}: no column {name!r}")
                kind = schema.field(name).type
                if not (pa.types.is_floating(kind) or pa.types.is_integer(kind)):
                    raise ResultsFormatError(f"{source}: column {name!r} holds {kind}, not numbers")
        meta = file.metadata
        if meta.num_rows != n_frames * per_frame:
            raise ResultsFormatError(f"{source}: {meta.num_rows} data rows, expected {n_frames} frames x {per_frame}")
        rows = [meta.row_group(g).num_rows for g in range(meta.num_row_groups)]
        if per_frame and any(r % per_frame for r in rows):
            raise ResultsFormatError(f"{source}: a row group holds part of a frame")
        #: first frame of each row group, and the end
        self.starts = np.concatenate(([0], np.cumsum(rows, dtype=np.int64) // max(per_frame, 1)))
        self.cached: tuple[int, dict[str, np.ndarray]] | None = None

    def values(self, field: str, columns: tuple[str, ...], table: pa.Table) -> np.ndarray:
        """The ``field`` arrays (frames, *shape) of ``table``'s rows (whole frames)."""
        data = [table.column(c).to_numpy() for c in columns]
        kept = np.float32 if data[0].dtype == np.float32 else float
        stacked = np.empty((len(data[0]), len(columns)), dtype=kept)
        for j, column in enumerate(data):
            stacked[:, j] = column
        return stacked.reshape((len(data[0]) // max(self.per_frame, 1), *self.shapes[field]))

    def group(self, g: int) -> dict[str, np.ndarray]:
        """Every field of row group ``g``, (its frames, *shape) each."""
        if self.cached is None or self.cached[0] != g:
            names = [c for _, cols in self.fields for c in cols]
            try:
                table = self.file.read_row_group(g, columns=names)
            except (pa.ArrowException, OSError) as exc:
                raise ResultsFormatError(f"{self.source}: {exc}") from None
            self.cached = (g, {field: self.values(field, cols, table) for field, cols in self.fields})
        return self.cached[1]

    def frame(self, i: int) -> dict[str, np.ndarray]:
        """The field arrays of frame ``i`` (copies: a caller may change them)."""
        if not self.per_frame:
            return {field: np.zeros(self.shapes[field]) for field, _ in self.fields}
        g = int(np.searchsorted(self.starts, i, side="right")) - 1
        return {field: values[i - self.starts[g]].copy() for field, values in self.group(g).items()}

    def field(self, field: str, start: int, stop: int) -> np.ndarray:
        """``field`` of frames ``start`` to ``stop`` (stop - start, *shape), read a row group at a time
        (only its columns)."""
        columns = dict(self.fields)[field]
        first = int(np.searchsorted(self.starts, start, side="right")) - 1
        parts = []
        for g in range(max(first, 0), len(self.starts) - 1 if self.per_frame else 0):
            if self.starts[g] >= stop:
                break
            try:
                table = self.file.read_row_group(g, columns=list(columns))
            except (pa.ArrowException, OSError) as exc:
                raise ResultsFormatError(f"{self.source}: {exc}") from None
            values = self.values(field, columns, table)
            parts.append(values[max(start - self.starts[g], 0): stop - self.starts[g]])
        if not parts:
            return np.zeros((max(stop - start, 0), *self.shapes[field]))
        return np.concatenate(parts) if len(parts) > 1 else parts[0]


class LazyFrames(FrameSequence):
    """The frames of a results folder, read on demand (see the module)."""

    def __init__(self, layout: Layout, tables: dict[str, _Table], times: np.ndarray, energies: list[dict],
                 contacts: dict[str, np.ndarray]):
        self.layout = layout
        self._tables = tables
        self.times = times
        self.energies = energies
        self._contacts = contacts
        shapes = field_shapes(layout)
        #: the fields no table holds (rates of a run that records none, tables of an older folder): zeros
        self._absent = {field: shapes[field] for _, fields in FRAME_TABLES.values() for field, _ in fields
                        if not any(field in dict(t.fields) for t in tables.values())}
        self._field_table = {field: t for t in tables.values() for field, _ in t.fields}

    @classmethod
    def open(cls, layout: Layout, paths: dict[str, os.PathLike], n_frames: int,
             energy_keys: list[str] | None = None, contact_keys: list[str] | None = None) -> LazyFrames:
        """The frames in the Parquet files ``paths`` (by table name) of a run of ``layout``,
        ``n_frames`` of them (keys: see :meth:`from_files`); refused with :class:`ResultsFormatError`
        naming the file unless each table holds the columns and rows of ``n_frames`` frames."""
        files = {}
        for name, path in paths.items():
            try:
                files[name] = pq.ParquetFile(str(path))
            except (pa.ArrowException, OSError) as exc:
                raise ResultsFormatError(f"{path}: not a Parquet file ({exc})") from None
        return cls.from_files(layout, {name: (str(paths[name]), f) for name, f in files.items()}, n_frames,
                              energy_keys, contact_keys)

    @classmethod
    def from_files(cls, layout: Layout, files: dict[str, tuple[str, pq.ParquetFile]], n_frames: int,
                   energy_keys: list[str] | None = None, contact_keys: list[str] | None = None) -> LazyFrames:
        """As :meth:`open`, from open files; ``energy_keys`` and ``contact_keys`` those the frames
        hold (default: every energy column, every contact column)."""
        shapes = field_shapes(layout)
        tables = {}
        for name in LAZY_TABLES:
            if name not in files:
                continue
            fields = [(f, cols) for f, cols in FRAME_TABLES[name][1] if layout.rates or f not in RATE_FIELDS]
            per_frame = int(np.prod(shapes[fields[0][0]])) // len(fields[0][1])
            tables[name] = _Table(files[name][0], files[name][1], fields, shapes, per_frame, n_frames)
        source, energy_file = files["energy"]
        energy = _read(source, energy_file, ["time_s"])
        if energy_keys is None:
            energy_keys = [c[:-2] for c in energy_file.schema_arrow.names if c.endswith("_J") and c != "total_J"]
        times = energy["time_s"].astype(float)
        if len(times) != n_frames:
            raise ResultsFormatError(f"{source}: {len(times)} data rows, expected {n_frames} frames")
        columns = _read(source, energy_file, [k + "_J" for k in energy_keys])
        rows = np.column_stack([columns[k + "_J"] for k in energy_keys]) if energy_keys else np.zeros((n_frames, 0))
        energies = EnergyRows(list(energy_keys), rows.astype(float, copy=False))  # a frame's dict made when read
        contacts = _contacts(files["contacts"], layout, n_frames, contact_keys)
        return cls(layout, tables, times, energies, contacts)

    # ------------------------------------------------------------------ frames
    def _frame(self, i: int) -> Frame:
        fields = {field: np.zeros(shape) for field, shape in self._absent.items()}
        for table in self._tables.values():
            fields.update(table.frame(i))
        return Frame(time=float(self.times[i]), energy=dict(self.energies[i]),
                     contact={k: v[i].copy() for k, v in self._contacts.items()}, **fields)

    def _contact(self, i: int) -> dict[str, np.ndarray]:
        return {k: v[i] for k, v in self._contacts.items()}

    # ------------------------------------------------------------------ columns
    def field(self, name: str, start: int = 0, stop: int | None = None) -> np.ndarray:
        """Frame field ``name`` of frames ``start`` to ``stop`` (default: all) stacked,
        (frames, *shape): only its columns are read."""
        start, stop = self._span(start, stop)
        if name in self._absent:
            return np.zeros((stop - start, *self._absent[name]))
        return self._field_table[name].field(name, start, stop)

    def contact_rows(self) -> dict[str, np.ndarray]:
        """Each contact key's values (F, C)."""
        return self._contacts


def _columns(source: str, file: pq.ParquetFile, columns: list[str]) -> pa.Table:
    """Whole columns of a small table; refused naming the file when one is missing or unreadable."""
    missing = [c for c in columns if c not in file.schema_arrow.names]
    if missing:
        raise ResultsFormatError(f"{source}: no column {', '.join(map(repr, missing))}")
    try:
        return file.read(columns=columns)
    except (pa.ArrowException, OSError) as exc:
        raise ResultsFormatError(f"{source}: {exc}") from None


def _numbers(source: str, name: str, column: pa.ChunkedArray) -> np.ndarray:
    """A column of numbers as an array; refused naming the file when it holds something else."""
    if not (pa.types.is_floating(column.type) or pa.types.is_integer(column.type)):
        raise ResultsFormatError(f"{source}: column {name!r} holds {column.type}, not numbers")
    return column.to_numpy()


def _read(source: str, file: pq.ParquetFile, columns: list[str]) -> dict[str, np.ndarray]:
    """Whole numeric columns of a small table."""
    table = _columns(source, file, columns)
    return {c: _numbers(source, c, table.column(c)) for c in columns}


def _contacts(entry: tuple[str, pq.ParquetFile], layout: Layout, n_frames: int,
              keys: list[str] | None) -> dict[str, np.ndarray]:
    """Frame.contact arrays (F, C) per key; ``state`` as codes into CONTACT_STATES."""
    source, file = entry
    if keys is None:
        keys = [c for c in file.schema_arrow.names if c not in ("time_s", "contact")]
    n_c = len(layout.contacts) if keys else 0
    if file.metadata.num_rows != n_frames * n_c:
        raise ResultsFormatError(f"{source}: {file.metadata.num_rows} data rows, expected {n_frames} frames x {n_c}")
    table = _columns(source, file, keys)
    out = {}
    for key in keys:
        column = table.column(key)
        if key == "state":
            out[key] = _state_codes(source, column).reshape(n_frames, n_c)
        else:
            out[key] = _numbers(source, key, column).astype(float).reshape(n_frames, n_c)
    return out


def _state_codes(source: str, column: pa.ChunkedArray) -> np.ndarray:
    """The contact states of ``column`` as codes into CONTACT_STATES; refused naming the file
    when one is another text (or none).  A dictionary-encoded chunk (as Flexmech writes them)
    is decoded through its dictionary, a state per entry, not per row: casting the column to
    text would import ``pyarrow.compute`` (25 ms of a run's end) and make a Python string a row."""
    codes = {s: i for i, s in enumerate(CONTACT_STATES)}
    parts = []
    for chunk in column.chunks:
        if pa.types.is_dictionary(chunk.type) and not chunk.null_count:
            names, indices = chunk.dictionary.to_pylist(), chunk.indices.to_numpy()
        else:  # plain text (a folder written by other tools), or a missing state
            names, indices = chunk.to_pylist(), np.arange(len(chunk))
        lookup = np.array([codes.get(name, -1) if isinstance(name, str) else -1 for name in names] or [-1], dtype=int)
        part = lookup[indices]
        if part.size and part.min() < 0:
            unknown = {names[i] for i in np.unique(indices[part < 0])}
            raise ResultsFormatError(f"{source}: unknown contact state(s) {sorted(unknown, key=str)}")
        parts.append(part)
    return np.concatenate(parts) if parts else np.zeros(0, dtype=int)
