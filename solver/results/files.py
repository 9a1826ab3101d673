"""Results folders: a :class:`~solver.results.frames.Results` written as CSV files plus
``summary.json`` and ``model.json``, and read back into an equal object.

The format (every file, column and key, with units) is described in
``docs/results-format.md``.  Floats are written with ``%.17g``, so they read back
bit for bit.  Every file is written atomically (a temporary file in the folder, then a
rename); ``summary.json`` is written last and records the SHA-256 of every other file,
``model.json`` included.  A folder where a write was interrupted (some files new, some
old) or that was damaged since is refused on loading: :mod:`solver.results.integrity`
checks every file before anything is returned.

>>> write_results(results, "out/slider_crank")                 # doctest: +SKIP
>>> load_results("out/slider_crank").meta["status"]            # doctest: +SKIP
'completed'
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from ..errors import ResultsFormatError
from ..model.io import atomic_write_text, dumps_model
from .frames import Frame, Results, StepRecord
from .integrity import MODEL, SUMMARY, check_layout, read_model, read_recorded, read_summary
from .summary import layout_from_json, summarize
from .tables import FRAME_TABLES, STEP_COLUMNS, CsvTable, contacts_from_table, csv_tables, field_shapes, sha256

__all__ = ["ResultsFormatError", "load_results", "summarize", "write_results"]


# ====================================================================== writing
def write_results(results: Results, directory: str | os.PathLike) -> None:
    """Write ``results`` to ``directory`` (created if needed; our files there are replaced).

    Writes ``model.json``, the CSV files and, last, ``summary.json`` (with the SHA-256 of
    every other file), each atomically.  Until ``summary.json`` is replaced the folder
    holds the previous run, or, once a file has changed, a folder :func:`load_results`
    refuses; never a mix it accepts.

    Parameters
    ----------
    results : Results
        The run's results, as :func:`solver.api.simulate` returns them.
    directory : path-like
        The results folder.
    """
    directory = Path(directory)
    model = dumps_model(results.model)
    atomic_write_text(directory / MODEL, model)
    tables = csv_tables(results)
    for name, text in tables.items():
        atomic_write_text(directory / name, text)
    summary = summarize(results)
    summary["files"] = {name: {"rows": text.count("\n") - 1, "sha256": sha256(text)} for name, text in tables.items()}
    summary["files"][MODEL] = {"sha256": sha256(model)}
    text = json.dumps(summary, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    atomic_write_text(directory / SUMMARY, text)


# ====================================================================== loading
def load_results(directory: str | os.PathLike) -> Results:
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
    """
    directory = Path(directory)
    summary = read_summary(directory)
    files = summary["files"]
    tables = {name: CsvTable.parse(str(directory / name), read_recorded(directory, name, entry["sha256"]), entry["rows"])
              for name, entry in files.items() if name != MODEL}
    model = read_model(directory, summary)
    layout = layout_from_json(summary["layout"])
    check_layout(layout, model, directory / SUMMARY)
    times = tables["energy.csv"].columns(["time_s"])[:, 0]
    n_f = len(times)

    shapes = field_shapes(layout)
    fields = {}
    for name, (_, table_fields) in FRAME_TABLES.items():
        if name not in tables:  # a folder written before the table existed (modes.csv, moving.csv)
            continue
        first, first_columns = table_fields[0]
        per_frame = int(np.prod(shapes[first])) // len(first_columns)  # its entities (x stations)
        values = _frame_rows(tables[name], [c for _, cols in table_fields for c in cols], n_f, per_frame)
        start = 0
        for field, cols in table_fields:
            fields[field] = np.ascontiguousarray(values[:, start : start + len(cols)]).reshape((n_f, *shapes[field]))
            start += len(cols)
    energy_keys = summary["frame_keys"]["energy"]
    energy = tables["energy.csv"].columns([k + "_J" for k in energy_keys])
    contact_keys = summary["frame_keys"]["contact"]
    n_c = len(layout.contacts) if contact_keys else 0
    _frame_rows(tables["contacts.csv"], ["time_s"], n_f, n_c)
    contact = contacts_from_table(tables["contacts.csv"], contact_keys, n_f, n_c)
    frames = [
        Frame(
            time=float(times[i]),
            **{field: array[i] for field, array in fields.items()},
            energy=dict(zip(energy_keys, energy[i].tolist())),
            contact={k: v[i] for k, v in contact.items()},
        )
        for i in range(n_f)
    ]
    step_table = tables["steps.csv"].columns(list(STEP_COLUMNS))
    if not np.isfinite(step_table[:, 2]).all():
        raise ResultsFormatError(f"{directory / 'steps.csv'}: newton_iterations: a cell that is not a number")
    steps = [StepRecord(time=t, step=h, newton_iterations=int(n)) for t, h, n in step_table.tolist()]
    return Results(model=model, layout=layout, frames=frames, steps=steps, events=summary["events"],
                   meta=summary["meta"])


def _frame_rows(table: CsvTable, columns: list[str], n_f: int, per_frame: int) -> np.ndarray:
    """The ``columns`` of ``table``, refused unless it holds ``per_frame`` rows for each of the ``n_f`` frames."""
    values = table.columns(columns)
    if len(values) != n_f * per_frame:
        raise ResultsFormatError(f"{table.source}: {len(values)} data rows, expected {n_f} frames x {per_frame}")
    return values
