"""Results folders: a :class:`~solver.results.frames.Results` written as Parquet and CSV
files plus ``summary.json`` and ``model.json``, and read back into an equal object.

The format (every file, column and key, with units) is described in
``docs/results-format.md``.  Version 2 (written) stores the time series in Parquet
(:mod:`.columnar`: row groups of bounded size, floats bit for bit) and the events in
CSV; version 1 folders (every table CSV, floats with ``%.17g``) are still read.  Every file
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
import shutil
from pathlib import Path

import numpy as np

from ..errors import ResultsFormatError
from ..model.io import atomic_write_text, replacing_together
from .columnar import ParquetTable
from .frames import Frame, Results, StepRecord
from .integrity import (SUMMARY, TABLE_FILES, as_text, check_layout, check_recorded, read_model, read_recorded,
                        read_summary)
from .lazy import LazyFrames
from .streaming import streamed_results, summary_text
from .summary import layout_from_json, summarize
from .tables import FRAME_TABLES, RATE_FIELDS, STEP_COLUMNS, TABLES, CsvTable, contacts_from_table, csv_tables, field_shapes

__all__ = ["ResultsFormatError", "copy_results", "export_csv", "load_results", "summarize", "summary_text", "write_results"]


# ====================================================================== writing
def write_results(results: Results, directory: str | os.PathLike) -> None:
    """Write ``results`` to ``directory`` (created if needed; our files there are replaced).

    Writes ``model.json``, the Parquet files, ``events.csv`` and ``summary.json`` (with the
    SHA-256 of every other file) as temporary files, flushes them to disk together and
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
    :func:`write_results`, ``summary.json`` last.  Raises :class:`ResultsFormatError` when
    ``source`` has no readable ``summary.json``, OSError when a file cannot be copied.
    """
    source, directory = Path(source), Path(directory)
    if directory.exists() and os.path.samefile(source, directory):
        return
    names = [*read_summary(source)["files"], SUMMARY]
    with replacing_together([directory / name for name in names]) as temporaries:
        for name, tmp in zip(names, temporaries):
            tmp.unlink()
            try:
                os.link(source / name, tmp)
            except OSError:  # another file system, or one without hard links
                shutil.copyfile(source / name, tmp)


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

    With ``lazy`` (the default) the frames of a version-2 folder are read on demand
    (:class:`~solver.results.lazy.LazyFrames`): its files are checked against their SHA-256
    a block at a time and read a row group at a time, so a folder of any size loads in
    bounded memory; otherwise (and from a version-1 folder) every frame is read at once.
    """
    directory = Path(directory)
    summary = read_summary(directory)
    if lazy and summary["version"] >= 2:
        return _load_lazy(directory, summary)
    files = summary["files"]
    tables = {}
    for name, file in TABLE_FILES[summary["version"]].items():
        if file not in files:  # a version-1 folder written before the table existed (modes.csv, moving.csv)
            continue
        path, entry = directory / file, files[file]
        data = read_recorded(directory, file, entry["sha256"])
        tables[name] = (CsvTable.parse(str(path), as_text(path, data), entry["rows"]) if file.endswith(".csv")
                        else ParquetTable(str(path), data, entry["rows"]))
        del data
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


def _steps(table: CsvTable | ParquetTable) -> list[StepRecord]:
    """The step log of a ``steps`` table."""
    step_table = table.columns(list(STEP_COLUMNS))
    if not np.isfinite(step_table[:, 2]).all():
        raise ResultsFormatError(f"{table.source}: newton_iterations: a cell that is not a number")
    return [StepRecord(time=t, step=h, newton_iterations=int(n)) for t, h, n in step_table.tolist()]


def _load_lazy(directory: Path, summary: dict) -> Results:
    """A version-2 folder's :class:`Results` with frames read on demand."""
    import pyarrow.parquet as pq

    recorded = summary["files"]
    files = {}
    for name, file in TABLE_FILES[summary["version"]].items():
        if file.endswith(".parquet") and name != "steps":
            path = directory / file
            check_recorded(directory, file, recorded[file]["sha256"])
            try:
                files[name] = (str(path), pq.ParquetFile(str(path)))
            except (OSError, ValueError) as exc:
                raise ResultsFormatError(f"{path}: not a Parquet file ({exc})") from None
            if files[name][1].metadata.num_rows != recorded[file]["rows"]:
                raise ResultsFormatError(f"{path}: {files[name][1].metadata.num_rows} data rows, "
                                         f"summary.json records {recorded[file]['rows']}")
    events = TABLE_FILES[summary["version"]]["events"]
    text = as_text(directory / events, read_recorded(directory, events, recorded[events]["sha256"]))
    CsvTable.parse(str(directory / events), text, recorded[events]["rows"])
    model = read_model(directory, summary)
    layout = layout_from_json(summary["layout"])
    check_layout(layout, model, directory / SUMMARY)
    n_f = recorded[TABLE_FILES[summary["version"]]["energy"]]["rows"]
    keys = summary["frame_keys"]
    frames = LazyFrames.from_files(layout, files, n_f, keys["energy"], keys["contact"])
    steps = TABLE_FILES[summary["version"]]["steps"]
    steps = _steps(ParquetTable(str(directory / steps), read_recorded(directory, steps, recorded[steps]["sha256"]),
                                recorded[steps]["rows"]))
    return Results(model=model, layout=layout, frames=frames, steps=steps, events=summary["events"],
                   meta=summary["meta"])


def export_csv(directory: str | os.PathLike, out: str | os.PathLike | None = None,
               tables: list[str] | None = None) -> list[Path]:
    """Write tables of the results folder ``directory`` as CSV files (the version-1 files:
    units in the header, floats with ``%.17g``) into ``out`` (default: the folder itself).

    ``tables`` names them (:data:`~solver.results.tables.TABLES`; default: all).  Returns
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
    return written


def _frame_rows(table: CsvTable | ParquetTable, columns: list[str], n_f: int, per_frame: int) -> np.ndarray:
    """The ``columns`` of ``table``, refused unless it holds ``per_frame`` rows for each of the ``n_f`` frames."""
    values = table.columns(columns)
    if len(values) != n_f * per_frame:
        raise ResultsFormatError(f"{table.source}: {len(values)} data rows, expected {n_f} frames x {per_frame}")
    return values
