"""The spread of a sweep's statistics over its runs: what an ensemble reports.

A statistic of a chaotic run (the clearance joint's driving moment after a dozen
impacts, say) is one sample of a distribution: runs whose start differs by 10 nm
differ by 15 %.  An ensemble (``design: ensemble``, :mod:`solver.sweeps.spec`) runs
the model from many nearby starts; :func:`spread` reduces each numeric column of its
completed rows to the ensemble's mean, standard deviation, range and percentiles,
and :func:`write_spread` writes them as ``spread.csv`` beside the table.
"""
from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np

from ..safe_write import replacing

SPREAD_CSV = "spread.csv"
#: the columns of a spread row after ``column``
STATS = ("runs", "mean", "std", "min", "p05", "median", "p95", "max", "std_rel")
#: bookkeeping columns that are not results of a run
NOT_STATISTICS = ("run", "status", "message", "wall_time_s", "results")


def spread(rows: list[dict[str, Any]], inputs: list[str]) -> list[dict[str, Any]]:
    """One row per numeric result column of the completed ``rows`` (the columns
    ``inputs`` — the perturbed and fixed fields — and bookkeeping left out): the
    number of runs with a value, mean, sample standard deviation, min, 5th percentile,
    median, 95th percentile, max, and the standard deviation relative to |mean|.

    >>> rows = [{"run": "a", "status": "completed", "x": 0.0, "peak": v} for v in (1.0, 2.0, 3.0)]
    >>> [(r["column"], r["mean"], r["std"], r["min"], r["max"]) for r in spread(rows, ["x"])]
    [('peak', 2.0, 1.0, 1.0, 3.0)]
    """
    done = [row for row in rows if row.get("status") == "completed"]
    skip = set(inputs) | set(NOT_STATISTICS)
    columns = dict.fromkeys(k for row in done for k in row if k not in skip)
    out = []
    for name in columns:
        values = [row.get(name) for row in done]
        if not all(v is None or _is_real(v) for v in values):
            continue
        x = np.array([v for v in values if v is not None and math.isfinite(v)], dtype=float)
        if not x.size:
            continue
        mean, std = float(x.mean()), float(x.std(ddof=1)) if x.size > 1 else 0.0
        p05, median, p95 = (float(v) for v in np.percentile(x, [5, 50, 95]))
        out.append({"column": name, "runs": int(x.size), "mean": mean, "std": std, "min": float(x.min()),
                    "p05": p05, "median": median, "p95": p95, "max": float(x.max()),
                    "std_rel": std / abs(mean) if mean else math.nan})
    return out


def _is_real(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def write_spread(folder: str | os.PathLike, rows: list[dict[str, Any]]) -> Path:
    """Write the rows of :func:`spread` as ``spread.csv`` in ``folder``; its path."""
    import pyarrow as pa  # here, as in the table: pyarrow costs the GUI's start 0.1 s
    import pyarrow.csv

    table = pa.table({"column": pa.array([r["column"] for r in rows], pa.string()),
                      **{s: pa.array([r[s] for r in rows], pa.int64() if s == "runs" else pa.float64())
                         for s in STATS}})
    path = Path(folder) / SPREAD_CSV
    with replacing(path) as tmp:
        pa.csv.write_csv(table, tmp)
    return path
