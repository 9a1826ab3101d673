"""Results folders: a :class:`~solver.results.frames.Results` written as CSV files plus
``summary.json`` and ``model.json``, and read back into an equal object.

The format (every file, column and key, with units) is described in
``docs/results-format.md``.  Floats are written with ``%.17g``, so they read back
bit for bit.  Every file is written atomically (a temporary file in the folder,
then a rename); ``summary.json`` is written last and records the SHA-256 of every
CSV file, so a folder mixing files of two writes is refused on loading.

>>> write_results(results, "out/slider_crank")                 # doctest: +SKIP
>>> load_results("out/slider_crank").meta["status"]            # doctest: +SKIP
'completed'
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ResultsFormatError
from ..model.io import atomic_write_text, dumps_model
from .frames import Frame, Results, StepRecord
from .summary import layout_from_json, summarize
from .tables import (FORMAT, FRAME_TABLES, STEP_COLUMNS, VERSION, CsvTable, contacts_from_table, csv_tables,
                     field_shapes, sha256)

__all__ = ["ResultsFormatError", "load_results", "summarize", "write_results"]


# ====================================================================== writing
def write_results(results: Results, directory: str | os.PathLike) -> None:
    """Write ``results`` to ``directory`` (created if needed; our files there are replaced).

    Writes ``model.json``, the CSV files and, last, ``summary.json``, each atomically.

    Parameters
    ----------
    results : Results
        The run's results, as :func:`solver.api.simulate` returns them.
    directory : path-like
        The results folder.
    """
    directory = Path(directory)
    atomic_write_text(directory / "model.json", dumps_model(results.model))
    tables = csv_tables(results)
    for name, text in tables.items():
        atomic_write_text(directory / name, text)
    summary = summarize(results)
    summary["files"] = {name: {"rows": text.count("\n") - 1, "sha256": sha256(text)} for name, text in tables.items()}
    text = json.dumps(summary, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    atomic_write_text(directory / "summary.json", text)


# ====================================================================== loading
def load_results(directory: str | os.PathLike) -> Results:
    """Read a results folder written by :func:`write_results` back into a :class:`Results`.

    Raises
    ------
    ResultsFormatError
        When a file is missing or unreadable, the format version is unknown, or a CSV
        file is not the one ``summary.json`` records (changed after writing, or left
        from another write).
    """
    directory = Path(directory)
    summary = json.loads(_read(directory / "summary.json"))
    if summary.get("format") != FORMAT or not isinstance(summary.get("version"), int) or summary["version"] > VERSION:
        raise ResultsFormatError(
            f"{directory / 'summary.json'}: not a {FORMAT} version {VERSION} summary "
            f"(format {summary.get('format')!r}, version {summary.get('version')!r})"
        )
    tables = {name: _read_table(directory, name, entry) for name, entry in summary["files"].items()}
    layout = layout_from_json(summary["layout"])
    times = tables["energy.csv"].columns(["time_s"])[:, 0]
    n_f = len(times)

    shapes = field_shapes(layout)
    fields = {}
    for name, (_, table_fields) in FRAME_TABLES.items():
        if name not in tables:  # a folder written before the table existed (modes.csv)
            continue
        values = tables[name].columns([c for _, cols in table_fields for c in cols])
        start = 0
        for field, cols in table_fields:
            fields[field] = np.ascontiguousarray(values[:, start : start + len(cols)]).reshape((n_f, *shapes[field]))
            start += len(cols)
    energy_keys = summary["frame_keys"]["energy"]
    energy = tables["energy.csv"].columns([k + "_J" for k in energy_keys])
    contact = contacts_from_table(tables["contacts.csv"], summary["frame_keys"]["contact"], n_f, len(layout.contacts))
    frames = [
        Frame(
            time=float(times[i]),
            **{field: array[i] for field, array in fields.items()},
            energy=dict(zip(energy_keys, energy[i].tolist())),
            contact={k: v[i] for k, v in contact.items()},
        )
        for i in range(n_f)
    ]
    steps = [
        StepRecord(time=t, step=h, newton_iterations=int(n))
        for t, h, n in tables["steps.csv"].columns(list(STEP_COLUMNS)).tolist()
    ]
    model = json.loads(_read(directory / "model.json"))
    events, meta = summary["events"], summary["meta"]
    return Results(model=model, layout=layout, frames=frames, steps=steps, events=events, meta=meta)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ResultsFormatError(f"cannot read {path}: {exc.strerror}") from None


def _read_table(directory: Path, name: str, entry: dict[str, Any]) -> CsvTable:
    """A CSV file, checked against its ``summary.json`` entry."""
    text = _read(directory / name)
    if sha256(text) != entry["sha256"]:
        raise ResultsFormatError(f"{directory / name}: not the file summary.json records (changed after writing?)")
    return CsvTable.parse(text, entry["rows"])
