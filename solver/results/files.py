"""Results folders: a :class:`~solver.results.frames.Results` written as ``tables.zip``,
Parquet and CSV files plus ``summary.json`` and ``model.json``, and read back into an equal object.

The format (every file, column and key, with units) is described in
``docs/results-format.md``.  Version 4 (written) keeps the small tables together in
``tables.zip`` (:mod:`.bundle`) and each larger one in a file of its own, the time series in
Parquet (:mod:`.columnar`: row groups of bounded size, floats bit for bit), and the event log
once, in ``summary.json``; version 3 folders (the events also in CSV), version 2 folders (every
time series in Parquet) and version 1 folders (every table CSV, floats in the shortest text that reads back bit for bit) are still read.  Every file
is written atomically (a temporary file in the folder, then a rename); ``summary.json``
is written last and records the SHA-256 of every other file, ``model.json`` included.  A
folder where a write was interrupted (some files new, some old) or that was damaged since
is refused on loading: :mod:`solver.results.integrity` checks every file before anything
is returned.

>>> write_results(results, "out/slider_crank")                 # doctest: +SKIP
>>> load_results("out/slider_crank").meta["status"]            # doctest: +SKIP
'completed'
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..errors import ResultsFormatError
from ..safe_write import atomic_write_text, replacing_set
from .bundle import BUNDLE, ArrowFile, members
from .columnar import ParquetTable, parquet_file
from .frames import Frame, Results, StepRecord
from .integrity import (SUMMARY, as_text, check_layout, check_recorded, locate_tables, read_model, read_recorded,
                        read_summary)
from .lazy import LazyFrames
from .streaming import previous_files, streamed_results, summary_text
from .summary import layout_from_json, summarize
from .wear_table import WEAR_FILE, wear_csv
from .tables import FRAME_TABLES, RATE_FIELDS, STEP_COLUMNS, TABLES, CsvTable, contacts_from_table, csv_tables, field_shapes

__all__ = ["ResultsFormatError", "copy_results", "export_csv", "load_results", "summarize", "summary_text", "write_results"]


# ====================================================================== writing
def write_results(results: Results, directory: str | os.PathLike) -> None:
    """Write ``results`` to ``directory`` (created if needed; our files there are replaced).

    Writes ``model.json``, ``tables.zip``, the Parquet files and ``summary.json`` (with the
    event log and the SHA-256 of every other file) as temporary files, flushes them to disk together and
    renames them over the old ones, ``summary.json`` last.  Until ``summary.json`` is
    replaced the folder holds the previous run, or, once a file has changed, a folder
    :func:`load_results` refuses; never a mix it accepts.  A run can write its folder
    while it runs instead (:func:`~solver.results.streaming.streamed_results`): the same files.

    Parameters
    ----------
    results : Results
        The run's results, as :func:`solver.api.simulate` returns them.
    directory : path-like
        The results folder.
    """
    with streamed_results(directory) as stream:
        stream.write_frames(results)
        stream.finish(results)


def copy_results(source: str | os.PathLike, directory: str | os.PathLike) -> None:
    """Put the results folder ``source`` into ``directory``: the files writing its results
    there would write, without reading a frame.

    Each file named by ``source``'s ``summary.json`` is hard-linked where both folders are
    on one file system (a results file is never changed in place: every write replaces it
    by a rename), else copied; they replace ours in ``directory`` as in
    :func:`write_results`, ``summary.json`` last, and the files of the results there before
    that these do not have are removed (files exported beside them stay).  Raises :class:`ResultsFormatError` when
    ``source`` has no readable ``summary.json``, OSError when a file cannot be copied.
    """
    source, directory = Path(source), Path(directory)
    if directory.exists() and os.path.samefile(source, directory):
        return
    names = [*read_summary(source)["files"], SUMMARY]
    obsolete = [directory / name for name in previous_files(directory) if name not in names]
    with replacing_set() as replacement:
        for name in names:
            replacement.link(source / name, directory / name)
        replacement.remove_after(obsolete)


# ====================================================================== loading
def load_results(directory: str | os.PathLike, lazy: bool = True) -> Results:
    """Read a results folder written by :func:`write_results` back into a :class:`Results`.

    Everything returned is checked first: ``summary.json`` against its schema, every
    other file against the SHA-256 it records, ``model.json`` a valid model of the
    layout's ids, every table's columns, numbers and rows.

    Raises
    ------
    ResultsFormatError
        Naming the file and the reason, when a file is missing, unreadable or damaged,
        the format version is unknown, or a file is not the one ``summary.json`` records
        (changed after writing, or left from another write).

    With ``lazy`` (the default) the frames of a folder of version 2 or later are read on demand
    (:class:`~solver.results.lazy.LazyFrames`): its Parquet files are checked against their
    SHA-256 a block at a time and read a row group at a time, so a folder of any size loads in
    bounded memory; otherwise (and from a version-1 folder) every frame is read at once.
    """
    directory = Path(directory)
    summary = read_summary(directory)
    folder = _Folder(directory, summary)
    if lazy and summary["version"] >= 2:
        return _load_lazy(folder)
    tables = {name: folder.table(name) for name in folder.located}
    model = read_model(directory, summary)
    layout = layout_from_json(summary["layout"])
    check_layout(layout, model, directory / SUMMARY)
    times = tables["energy"].columns(["time_s"])[:, 0]
    n_f = len(times)

    shapes = field_shapes(layout)
    fields = {}
    for name, (_, table_fields) in FRAME_TABLES.items():
        if name not in tables:  # a version-1 folder written before the table existed (modes, moving)
            continue
        for field, cols in table_fields:
            if field in RATE_FIELDS and not layout.rates:
                fields[field] = np.zeros((n_f, *shapes[field]))
                continue
            per_frame = int(np.prod(shapes[field])) // len(cols)  # its entities (x stations)
            values = _frame_rows(tables[name], list(cols), n_f, per_frame)
            fields[field] = values.reshape((n_f, *shapes[field]))
        del tables[name]  # its file's bytes are no longer needed
    energy_keys = summary["frame_keys"]["energy"]
    energy = tables["energy"].columns([k + "_J" for k in energy_keys])
    contact_keys = summary["frame_keys"]["contact"]
    n_c = len(layout.contacts) if contact_keys else 0
    _frame_rows(tables["contacts"], ["time_s"], n_f, n_c)
    contact = contacts_from_table(tables["contacts"], contact_keys, n_f, n_c)
    frames = [
        Frame(
            time=float(times[i]),
            **{field: array[i] for field, array in fields.items()},
            energy=dict(zip(energy_keys, energy[i].tolist())),
            contact={k: v[i] for k, v in contact.items()},
        )
        for i in range(n_f)
    ]
    return Results(model=model, layout=layout, frames=frames, steps=_steps(tables["steps"]), events=summary["events"],
                   meta=summary["meta"])


class _Folder:
    """The tables of a results folder, each read from its own file or from ``tables.zip``
    (version 3 or 4), checked against the SHA-256 ``summary.json`` records."""

    def __init__(self, directory: Path, summary: dict):
        self.directory, self.summary = directory, summary
        self.located = locate_tables(directory, summary)
        self._members: dict[str, bytes] | None = None

    def source(self, name: str) -> str:
        """Where table ``name`` is, for messages (``run/tables.zip:nodes.arrow``)."""
        file, member_, _ = self.located[name]
        return str(self.directory / file) + (f":{member_}" if member_ else "")

    def data(self, name: str) -> bytes:
        """The bytes of table ``name``'s file or member."""
        file, member_, _ = self.located[name]
        if member_ is None:
            return read_recorded(self.directory, file, self.summary["files"][file]["sha256"])
        if self._members is None:
            self._members = members(str(self.directory / BUNDLE),
                                    read_recorded(self.directory, BUNDLE, self.summary["files"][BUNDLE]["sha256"]))
        if member_ not in self._members:
            raise ResultsFormatError(f"{self.directory / BUNDLE}: no member {member_}")
        return self._members[member_]

    def file(self, name: str):
        """Table ``name`` (not the events) as a file read column by column: its own Parquet file
        (checked a block at a time, read from disk as needed) or its member of ``tables.zip``."""
        file, member_, _ = self.located[name]
        if member_ is not None:
            return ArrowFile(self.source(name), self.data(name))
        check_recorded(self.directory, file, self.summary["files"][file]["sha256"])
        return parquet_file(self.source(name), str(self.directory / file))

    def table(self, name: str) -> CsvTable | ParquetTable:
        """Table ``name`` read whole, its rows checked."""
        source, rows = self.source(name), self.located[name].rows
        if source.endswith(".csv"):
            return CsvTable.parse(source, as_text(Path(source), self.data(name)), rows)
        data = self.data(name)
        return ParquetTable(source, ArrowFile(source, data) if source.endswith(".arrow") else parquet_file(source, data),
                            rows)


def _steps(table: CsvTable | ParquetTable) -> list[StepRecord]:
    """The step log of a ``steps`` table."""
    step_table = table.columns(list(STEP_COLUMNS))
    if not np.isfinite(step_table[:, 2]).all():
        raise ResultsFormatError(f"{table.source}: newton_iterations: a cell that is not a number")
    return [StepRecord(time=t, step=h, newton_iterations=int(n)) for t, h, n in step_table.tolist()]


def _load_lazy(folder: _Folder) -> Results:
    """A folder's (version 2 or later) :class:`Results` with frames read on demand."""
    directory, summary = folder.directory, folder.summary
    files = {}
    for name in folder.located:
        if name not in ("steps", "events"):
            files[name] = (folder.source(name), folder.file(name))
            if files[name][1].metadata.num_rows != folder.located[name].rows:
                raise ResultsFormatError(f"{files[name][0]}: {files[name][1].metadata.num_rows} data rows, "
                                         f"summary.json records {folder.located[name].rows}")
    if "events" in folder.located:  # versions 2 and 3: the events also a table (checked, not read)
        folder.table("events")
    model = read_model(directory, summary)
    layout = layout_from_json(summary["layout"])
    check_layout(layout, model, directory / SUMMARY)
    keys = summary["frame_keys"]
    frames = LazyFrames.from_files(layout, files, folder.located["energy"].rows, keys["energy"], keys["contact"])
    return Results(model=model, layout=layout, frames=frames, steps=_steps(folder.table("steps")),
                   events=summary["events"], meta=summary["meta"])


def export_csv(directory: str | os.PathLike, out: str | os.PathLike | None = None,
               tables: list[str] | None = None) -> list[Path]:
    """Write tables of the results folder ``directory`` as CSV files (the version-1 files:
    units in the header, floats in the shortest text that reads back bit for bit) into ``out`` (default: the folder itself).

    ``tables`` names them (:data:`~solver.results.tables.TABLES`; default: all, and the
    bearings' ``wear.csv`` of a run with worn clearance joints).  Returns
    the files written.  Raises :class:`ResultsFormatError` for a folder :func:`load_results`
    refuses and :class:`ValueError` naming an unknown table.
    """
    unknown = [t for t in tables or () if t not in TABLES]
    if unknown:
        raise ValueError(f"no table {', '.join(map(repr, unknown))}: the tables are {', '.join(TABLES)}")
    results = load_results(directory)
    out = Path(directory if out is None else out)
    written = []
    for name, text in csv_tables(results, tuple(tables or TABLES)).items():
        atomic_write_text(out / name, text)
        written.append(out / name)
    wear = None if tables else wear_csv(results.meta)
    if wear is not None:
        atomic_write_text(out / WEAR_FILE, wear.decode("utf-8"))
        written.append(out / WEAR_FILE)
    return written


def _frame_rows(table: CsvTable | ParquetTable, columns: list[str], n_f: int, per_frame: int) -> np.ndarray:
    """The ``columns`` of ``table``, refused unless it holds ``per_frame`` rows for each of the ``n_f`` frames."""
    values = table.columns(columns)
    if len(values) != n_f * per_frame:
        raise ResultsFormatError(f"{table.source}: {len(values)} data rows, expected {n_f} frames x {per_frame}")
    return values
