"""The sweep folder: the tidy table of runs (``sweep.parquet`` and the same as
``sweep.csv``), the sweep itself (``sweep.json``: the model as given, the last spec)
and, when kept, each run's results folder (``runs/<run id>/``).

One row per run: ``run`` (its id), the varied and fixed fields by path, then the
scalars of :mod:`solver.sweeps.scalars`.  Columns keep their type (numbers, integers,
true/false, text); a value a run lacks is empty.  Both files are written through a
temporary file and a rename, so a sweep interrupted at any moment leaves a readable
table of the runs finished so far.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..model.io import dumps_model
from ..safe_write import atomic_write_text, check_target, replacing
from .spec import SweepError, SweepSpec, spec_from_json, spec_to_json

TABLE = "sweep.parquet"
TABLE_CSV = "sweep.csv"
SWEEP_JSON = "sweep.json"
RUNS = "runs"
FORMAT = "flexmech-sweep"
VERSION = 1


def read_rows(folder: str | os.PathLike) -> list[dict[str, Any]]:
    """The rows of the sweep table in ``folder`` (empty when there is none yet)."""
    path = Path(folder) / TABLE
    check_target(path)  # a link planted there is refused, not read (and not written through later)
    if not path.is_file():
        return []
    import pyarrow as pa  # here, as in write_rows: pyarrow costs the GUI's start 0.1 s
    import pyarrow.parquet as pq

    try:
        return pq.read_table(path).to_pylist()
    except (OSError, pa.ArrowException) as exc:
        raise SweepError([f"{path}: not a readable sweep table ({exc})"]) from None


def write_rows(folder: str | os.PathLike, rows: list[dict[str, Any]], first: list[str]) -> None:
    """Write ``rows`` as ``sweep.parquet`` and ``sweep.csv``; columns ``first`` lead, in
    that order, then the others in the order they first appear."""
    import pyarrow as pa
    import pyarrow.csv
    import pyarrow.parquet as pq

    columns = list(dict.fromkeys([*first, *(k for row in rows for k in row)]))
    table = pa.table({name: pa.array([row.get(name) for row in rows], type=_column_type(rows, name))
                      for name in columns})
    folder = Path(folder)
    for name, write in ((TABLE, lambda t, p: pq.write_table(t, p)),
                        (TABLE_CSV, lambda t, p: pa.csv.write_csv(t, p))):
        with replacing(folder / name) as tmp:
            write(table, tmp)


def _column_type(rows: list[dict[str, Any]], name: str) -> pa.DataType:
    import pyarrow as pa

    values = [row.get(name) for row in rows if row.get(name) is not None]
    if values and all(isinstance(v, bool) for v in values):
        return pa.bool_()
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return pa.int64()
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return pa.float64()
    return pa.string()


def read_sweep(folder: str | os.PathLike) -> tuple[dict, SweepSpec] | None:
    """``(model, spec)`` of the sweep in ``folder``, or None when there is none."""
    path = Path(folder) / SWEEP_JSON
    check_target(path)
    if not path.is_file():
        return None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return doc["model"], spec_from_json(doc["spec"])
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise SweepError([f"{path}: not a sweep description ({type(exc).__name__}: {exc})"]) from None


def write_sweep(folder: str | os.PathLike, model: dict, spec: SweepSpec, timing: dict | None = None) -> None:
    """Write ``sweep.json``: what the folder's runs are variants of, and where the last
    invocation's time went (``timing``, :class:`solver.sweeps.engine.SweepTiming`) once it ended."""
    doc = {"format": FORMAT, "version": VERSION, "spec": spec_to_json(spec), "model": model}
    if timing is not None:
        doc["timing"] = timing
    atomic_write_text(Path(folder) / SWEEP_JSON, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def same_model(a: dict, b: dict) -> bool:
    """Whether two model documents have the same canonical text."""
    return dumps_model(a) == dumps_model(b)
