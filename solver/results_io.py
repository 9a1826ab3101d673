"""Results folders: a :class:`~solver.results.Results` written as CSV files plus
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

import csv
import hashlib
import io
import json
import os
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from .model.io import atomic_write_text, dumps_model, model_with_defaults
from .results import CONTACT_KEYS, CONTACT_STATES, ENERGY_KEYS, EVENT_KEYS, Frame, Layout, Results, StepRecord

FORMAT = "flexmech-results"
VERSION = 1

#: repr-exact float format: a double printed with 17 significant digits reads back unchanged
FLOAT = "%.17g"

#: frame tables: file -> (label columns, ((Frame field, its value columns), ...)); rows
#: are frame-major, then in layout order (elements.csv: element-major, then station)
FRAME_TABLES = {
    "nodes.csv": (
        ("node",),
        (
            ("node_xy", ("x_m", "y_m")),
            ("node_v", ("vx_m_s", "vy_m_s")),
            ("node_a", ("ax_m_s2", "ay_m_s2")),
        ),
    ),
    "rotations.csv": (
        ("node", "link"),
        (("rot", ("theta_rad",)), ("rot_v", ("omega_rad_s",)), ("rot_a", ("alpha_rad_s2",))),
    ),
    "elements.csv": (
        ("link", "element", "station", "s_m"),
        (
            ("axial_force", ("axial_force_N",)),
            ("axial_strain", ("axial_strain",)),
            ("bending_strain", ("bending_strain",)),
            ("bending_moment", ("bending_moment_N_m",)),
        ),
    ),
    "links.csv": (("link",), (("midspan", ("midspan_deflection_rel",)),)),
    "drivers.csv": (
        ("driver",),
        (("driver_angle", ("value",)), ("driver_speed", ("rate",)), ("driver_reaction", ("reaction",))),
    ),
}
STEP_COLUMNS = ("time_s", "step_s", "newton_iterations")

#: units of a driver's value, rate and reaction, by driver kind
DRIVER_UNITS = {
    "angle": {"value": "rad", "rate": "rad/s", "reaction": "N m"},
    "speed": {"value": "rad", "rate": "rad/s", "reaction": "N m"},
    "displacement": {"value": "m", "rate": "m/s", "reaction": "N"},
}


class ResultsFormatError(ValueError):
    """A folder that is not a complete, unmodified results folder this version reads."""


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
    tables = _tables(results)
    for name, text in tables.items():
        atomic_write_text(directory / name, text)
    summary = summarize(results)
    summary["files"] = {name: {"rows": text.count("\n") - 1, "sha256": _sha256(text)} for name, text in tables.items()}
    text = json.dumps(summary, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    atomic_write_text(directory / "summary.json", text)


def _tables(results: Results) -> dict[str, str]:
    """The text of every CSV file, by file name."""
    frames = results.frames
    times = np.array([f.time for f in frames], dtype=float)
    labels = _labels(results.layout)
    tables = {}
    for name, (label_columns, fields) in FRAME_TABLES.items():
        k = len(labels[name])
        values = np.concatenate([_stack(frames, field, (k, len(cols))) for field, cols in fields], axis=2)
        columns = tuple(c for _, cols in fields for c in cols)
        header = ("time_s", *label_columns, *columns)
        tables[name] = _table(header, times, labels[name], values, (FLOAT,) * len(columns))
    tables["energy.csv"] = _energy_table(results, times)
    tables["contacts.csv"] = _contact_table(results, times)
    steps = results.steps
    tables["steps.csv"] = _table(
        STEP_COLUMNS,
        np.array([s.time for s in steps], dtype=float),
        [()],
        np.array([(s.step, s.newton_iterations) for s in steps], dtype=float).reshape(len(steps), 1, 2),
        (FLOAT, "%d"),
    )
    tables["events.csv"] = _event_table(results.events)
    return tables


def _stack(frames: list[Frame], field: str, shape: tuple[int, ...]) -> np.ndarray:
    """The frames' ``field`` arrays as one float array (F, *shape)."""
    return np.array([getattr(f, field) for f in frames], dtype=float).reshape((len(frames), *shape))


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
    s0 = _element_offsets(layout)
    return {
        "nodes.csv": [(n,) for n in layout.nodes],
        "rotations.csv": [(n, link) for n, link in layout.rotations],
        "elements.csv": [
            (link, str(k), FLOAT % xi, FLOAT % (s0[e] + xi * layout.element_length[e]))
            for e, (link, k, _, _) in enumerate(layout.elements)
            for xi in layout.stations
        ],
        "links.csv": [(link,) for link in layout.flexible_links],
        "drivers.csv": [(d,) for d in layout.drivers],
    }


def _element_offsets(layout: Layout) -> np.ndarray:
    """(E,) distance of each element's first node from its link's first node, m,
    along the undeformed chain of the link's elements (ordered by their index)."""
    lengths = np.asarray(layout.element_length, dtype=float)
    return np.array(
        [
            sum(lengths[j] for j, (lj, kj, _, _) in enumerate(layout.elements) if lj == link and kj < k)
            for link, k, _, _ in layout.elements
        ],
        dtype=float,
    )


def _energy_keys(results: Results) -> list[str]:
    return list(results.frames[0].energy) if results.frames else list(ENERGY_KEYS)


def _energy_table(results: Results, times: np.ndarray) -> str:
    """energy.csv: every standard term (nan where frames lack it), any further terms, the total."""
    keys = list(ENERGY_KEYS) + [k for k in _energy_keys(results) if k not in ENERGY_KEYS]
    values = np.array([[f.energy.get(k, np.nan) for k in keys] for f in results.frames], dtype=float)
    values = np.column_stack([values.reshape(len(times), len(keys)), results.total_energy().reshape(len(times))])
    header = ("time_s", *(k + "_J" for k in keys), "total_J")
    return _table(header, times, [()], values[:, None, :], (FLOAT,) * (len(keys) + 1))


def _contact_keys(results: Results) -> list[str]:
    return list(results.frames[0].contact) if results.frames else []


def _contact_table(results: Results, times: np.ndarray) -> str:
    """contacts.csv: every standard key (empty where frames lack it), then any further keys."""
    have = _contact_keys(results)
    keys = list(CONTACT_KEYS) + [k for k in have if k not in CONTACT_KEYS]
    n_c = len(results.layout.contacts) if have else 0
    cells = np.full((len(times), n_c, len(keys)), "", dtype=object)
    for j, key in enumerate(keys):
        if key not in have:
            continue
        column = np.array([f.contact[key] for f in results.frames]).reshape(len(times), n_c)
        cells[:, :, j] = np.asarray(CONTACT_STATES, dtype=object)[column] if key == "state" else column.astype(float)
    specs = tuple("%s" if key == "state" or key not in have else FLOAT for key in keys)
    labels = [(c,) for c in results.layout.contacts[:n_c]]
    return _table(("time_s", "contact", *keys), times, labels, cells, specs)


def _event_table(events: list[dict[str, Any]]) -> str:
    """events.csv: one row per event; columns EVENT_KEYS, then the other keys in first-seen order."""
    columns = list(dict.fromkeys([*EVENT_KEYS, *(k for e in events for k in e)]))
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([[_event_cell(e[k]) if k in e else "" for k in columns] for e in events])
    return buf.getvalue()


def _event_cell(value: Any) -> str:
    """One event value as CSV text: floats repr-exact, booleans true/false, lists as JSON."""
    value = _jsonable(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return FLOAT % value
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _jsonable(value: Any) -> Any:
    """``value`` with numpy scalars and arrays as plain Python, tuples as lists, nan/inf as None."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_jsonable(v) for v in (value.tolist() if isinstance(value, np.ndarray) else value)]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        return float(value) if np.isfinite(value) else None
    return value


# ====================================================================== summary
def summarize(results: Results) -> dict[str, Any]:
    """The scalar results of a run: the content of ``summary.json`` but its ``files``.

    Parameters
    ----------
    results : Results
        The run's results.

    Returns
    -------
    dict
        JSON-ready: run metadata, per-link peaks, per-driver peak reaction, per-contact
        periods and impulses, energy balance, event log, layout, frame keys, ``meta``.
    """
    times = results.time.astype(float)
    return _jsonable(
        {
            "format": FORMAT,
            "version": VERSION,
            "run": _run_summary(results, times),
            "links": _link_summary(results, times),
            "drivers": _driver_summary(results, times),
            "contacts": _contact_summary(results, times),
            "energy": _energy_summary(results),
            "events": results.events,
            "layout": _layout_to_json(results.layout),
            "frame_keys": {"energy": _energy_keys(results), "contact": _contact_keys(results)},
            "meta": results.meta,
        }
    )


def _run_summary(results: Results, times: np.ndarray) -> dict[str, Any]:
    meta = results.meta
    iterations = np.array([s.newton_iterations for s in results.steps], dtype=int)
    return {
        "status": meta.get("status"),
        "message": meta.get("message", ""),
        "wall_time_s": meta.get("wall_time_s"),
        "model_sha256": meta["model_sha256"] if "model_sha256" in meta else _sha256(dumps_model(results.model)),
        "solver": meta["solver"] if "solver" in meta else model_with_defaults(results.model).get("solver", {}),
        "frame_count": len(times),
        "t_start_s": times[0] if len(times) else None,
        "t_end_s": times[-1] if len(times) else None,
        "step_count": len(iterations),
        "newton_iterations_total": int(iterations.sum()),
        "newton_iterations_mean": iterations.mean() if len(iterations) else None,
    }


def _peak(values: np.ndarray, times: np.ndarray) -> tuple[dict[str, float] | None, tuple[int, ...]]:
    """The largest |value| of ``values`` (F, ...), its signed value and time; and its index."""
    magnitude = np.abs(values)
    if magnitude.size == 0 or np.isnan(magnitude).all():
        return None, ()
    i = np.unravel_index(np.nanargmax(magnitude), magnitude.shape)
    return {"abs": magnitude[i], "value": values[i], "time_s": times[i[0]]}, i


def _link_summary(results: Results, times: np.ndarray) -> dict[str, Any]:
    """Per flexible link: peak |mid-span deflection / length|, |axial strain|, |bending strain|."""
    layout, frames = results.layout, results.frames
    n_e, n_s = len(layout.elements), len(layout.stations)
    midspan = _stack(frames, "midspan", (len(layout.flexible_links),))
    strains = {name: _stack(frames, name, (n_e, n_s)) for name in ("axial_strain", "bending_strain")}
    s0 = _element_offsets(layout)
    out = {}
    for j, link in enumerate(layout.flexible_links):
        elements = [e for e, (lk, *_) in enumerate(layout.elements) if lk == link]
        entry = {"peak_midspan_deflection_rel": _peak(midspan[:, j], times)[0]}
        for name, array in strains.items():
            peak, index = _peak(array[:, elements, :], times)
            if peak is not None:
                e, xi = elements[index[1]], layout.stations[index[2]]
                peak.update(element=layout.elements[e][1], station=xi, s_m=s0[e] + xi * layout.element_length[e])
            entry["peak_" + name] = peak
        out[link] = entry
    return out


def _driver_summary(results: Results, times: np.ndarray) -> dict[str, Any]:
    """Per driver: its kind, the units of its columns and its peak |reaction|."""
    kinds = {d.get("id"): d.get("kind") for d in results.model.get("drivers", [])}
    reaction = _stack(results.frames, "driver_reaction", (len(results.layout.drivers),))
    return {
        d: {
            "kind": kinds.get(d),
            "units": DRIVER_UNITS.get(kinds.get(d)),
            "peak_reaction": _peak(reaction[:, j], times)[0],
        }
        for j, d in enumerate(results.layout.drivers)
    }


def _contact_summary(results: Results, times: np.ndarray) -> dict[str, Any]:
    """Per contact pair: its contact periods and its impulses (events of kind ``impulse``)."""
    keys = _contact_keys(results)
    stacked = {k: np.array([f.contact[k] for f in results.frames]) for k in keys}
    out = {}
    for j, contact in enumerate(results.layout.contacts):
        if "state" in stacked:
            closed = stacked["state"][:, j] != 0
        elif "F_n_N" in stacked:
            closed = stacked["F_n_N"][:, j] > 0
        elif "gap_m" in stacked:
            closed = stacked["gap_m"][:, j] <= 0
        else:
            closed = np.zeros(len(times), dtype=bool)
        force = stacked["F_n_N"][:, j].astype(float) if "F_n_N" in stacked else None
        out[contact] = {
            "periods": _periods(times, closed, force),
            "impulses": [e for e in results.events if e.get("contact") == contact and e.get("kind") == "impulse"],
        }
    return out


def _periods(times: np.ndarray, closed: np.ndarray, force: np.ndarray | None) -> list[dict[str, Any]]:
    """Runs of consecutive frames in contact: start, end, duration (s), peak normal force (N)."""
    edges = np.diff(np.concatenate([[0], closed.astype(int), [0]]))
    periods = []
    for a, b in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)):
        peak = _peak(force[a:b], times[a:b])[0] if force is not None else None
        periods.append(
            {
                "start_s": times[a],
                "end_s": times[b - 1],
                "duration_s": times[b - 1] - times[a],
                "frames": int(b - a),
                "peak_normal_force_N": peak["value"] if peak else None,
                "peak_time_s": peak["time_s"] if peak else None,
                "ongoing_at_end": bool(b == len(times)),
            }
        )
    return periods


def _energy_summary(results: Results) -> dict[str, Any]:
    """Initial and final value of each energy term; the total's drift."""
    if not results.frames:
        return {"terms": {}, "total": None}
    first, last = results.frames[0].energy, results.frames[-1].energy
    total = results.total_energy()
    drift = np.abs(total - total[0])
    scale = float(np.max([f.energy.get("kinetic", 0.0) + f.energy.get("strain", 0.0) for f in results.frames]))
    return {
        "terms": {k: {"initial_J": first[k], "final_J": last[k]} for k in first},
        "total": {
            "initial_J": total[0],
            "final_J": total[-1],
            "drift_J": total[-1] - total[0],
            "max_abs_drift_J": drift.max(),
            "scale_J": scale,
            "max_abs_drift_rel": drift.max() / scale if scale > 0 else None,
        },
    }


def _layout_to_json(layout: Layout) -> dict[str, Any]:
    return {
        "nodes": layout.nodes,
        "rotations": layout.rotations,
        "elements": layout.elements,
        "element_length_m": layout.element_length,
        "outer_fibre_m": layout.outer_fibre,
        "stations": layout.stations,
        "flexible_links": layout.flexible_links,
        "drivers": layout.drivers,
        "contacts": layout.contacts,
    }


def _layout_from_json(doc: dict[str, Any]) -> Layout:
    return Layout(
        nodes=list(doc["nodes"]),
        rotations=[(n, link) for n, link in doc["rotations"]],
        elements=[(link, int(k), n1, n2) for link, k, n1, n2 in doc["elements"]],
        element_length=np.array(doc["element_length_m"], dtype=float).reshape(-1),
        outer_fibre=np.array(doc["outer_fibre_m"], dtype=float).reshape(-1),
        flexible_links=list(doc["flexible_links"]),
        drivers=list(doc["drivers"]),
        contacts=list(doc["contacts"]),
        stations=tuple(float(s) for s in doc["stations"]),
    )


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
    layout = _layout_from_json(summary["layout"])
    times = tables["energy.csv"].columns(["time_s"])[:, 0]
    n_f = len(times)

    shapes = _field_shapes(layout)
    fields = {}
    for name, (_, table_fields) in FRAME_TABLES.items():
        values = tables[name].columns([c for _, cols in table_fields for c in cols])
        start = 0
        for field, cols in table_fields:
            fields[field] = np.ascontiguousarray(values[:, start : start + len(cols)]).reshape((n_f, *shapes[field]))
            start += len(cols)
    energy_keys = summary["frame_keys"]["energy"]
    energy = tables["energy.csv"].columns([k + "_J" for k in energy_keys])
    contact = _contacts_from_table(tables["contacts.csv"], summary["frame_keys"]["contact"], n_f, len(layout.contacts))
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


def _field_shapes(layout: Layout) -> dict[str, tuple[int, ...]]:
    """Each frame array's shape (one frame)."""
    n, r, l, d = len(layout.nodes), len(layout.rotations), len(layout.flexible_links), len(layout.drivers)
    es = (len(layout.elements), len(layout.stations))
    return {
        "node_xy": (n, 2), "node_v": (n, 2), "node_a": (n, 2),
        "rot": (r,), "rot_v": (r,), "rot_a": (r,),
        "axial_force": es, "axial_strain": es, "bending_strain": es, "bending_moment": es,
        "midspan": (l,),
        "driver_angle": (d,), "driver_speed": (d,), "driver_reaction": (d,),
    }  # fmt: skip


def _contacts_from_table(table: _Csv, keys: list[str], n_f: int, n_c: int) -> dict[str, np.ndarray]:
    """Frame.contact arrays (F, C) per key; ``state`` back to codes into CONTACT_STATES."""
    out = {}
    for key in keys:
        if key != "state":
            out[key] = table.columns([key]).reshape(n_f, n_c)
            continue
        names, inverse = np.unique(table.columns([key], dtype=str), return_inverse=True)
        unknown = set(names.tolist()) - set(CONTACT_STATES)
        if unknown:
            raise ResultsFormatError(f"contacts.csv: unknown contact state(s) {sorted(unknown)}")
        codes = np.array([CONTACT_STATES.index(s) for s in names.tolist()], dtype=int)
        out[key] = codes[inverse].reshape(n_f, n_c)
    return out


class _Csv(NamedTuple):
    """A CSV file's text, header and number of data rows."""

    text: str
    header: list[str]
    rows: int

    def columns(self, names: list[str], dtype: type = float) -> np.ndarray:
        """The named columns as an array (rows, len(names)), parsed in C by ``np.loadtxt``."""
        if not self.rows:
            return np.empty((0, len(names)), dtype=dtype)
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


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ResultsFormatError(f"cannot read {path}: {exc.strerror}") from None


def _read_table(directory: Path, name: str, entry: dict[str, Any]) -> _Csv:
    """A CSV file, checked against its ``summary.json`` entry."""
    text = _read(directory / name)
    if _sha256(text) != entry["sha256"]:
        raise ResultsFormatError(f"{directory / name}: not the file summary.json records (changed after writing?)")
    return _Csv(text, next(csv.reader(io.StringIO(text))), entry["rows"])
