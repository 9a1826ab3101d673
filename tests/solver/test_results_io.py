"""Results folders: exact round-trip, summary values, fixed empty format, atomic writes."""
from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import os

import numpy as np
import pytest

from solver.model.io import dumps_model
from solver.results.frames import (
    CONTACT_KEYS,
    ENERGY_BALANCE_SIGNS,
    ENERGY_KEYS,
    STATIONS,
    Frame,
    Layout,
    Results,
    StepRecord,
)
from solver.results.files import ResultsFormatError, export_csv, load_results, summarize, summary_text, write_results
from solver.results.summary import _peak
from solver.results.tables import FRAME_TABLES

TIMES = np.round(np.arange(7) * 0.1, 12)
TIP = 'tip, "B" 100%'  # a node id that needs CSV quoting and %-escaping
MIDSPAN = np.array([0.0, 0.001, -0.004, 0.002, 0.0, 0.001, 0.0])
STATE = np.array([0, 0, 1, 2, 1, 0, 2])  # open, open, slide, stick, slide, open, stick
F_N = np.array([0.0, 0.0, 3.0, 7.5, 2.0, 0.0, 1.0])
IMPULSE = {
    "time_s": 0.2,
    "kind": "impulse",
    "contact": "tip-floor",
    "type": "SCS",
    "I_n_N_s": 0.0123,
    "I_t_N_s": -0.004,
    "v_n_pre_m_s": -1.0,
    "v_n_post_m_s": 0.82,
    "law": "newton",
    "D": [[1.0, 0.2], [0.2, 3.0]],
}
SEPARATION = {"time_s": 0.4, "kind": "separation", "contact": "tip-floor"}
#: a valid model naming what the layout below names (its mesh nodes aside)
MODEL = {
    "format": "flexmech",
    "version": 1,
    "name": "synthetic",
    "nodes": [{"id": "root", "x": 0.0, "y": 0.0}, {"id": TIP, "x": 1.0, "y": 0.0}],
    "links": [{"id": "rod", "kind": "flexible", "nodes": ["root", TIP], "mesh": {"elements": 2},
               "section": {"kind": "per_length", "EA": 1e6, "EI": 1e2, "rhoA": 1.0, "c": 0.003}}],
    "joints": [{"id": "pin", "kind": "ground", "node": "root"}],
    "drivers": [{"id": "crank-speed", "kind": "speed", "link": "rod", "pivot": "root",
                 "function": {"kind": "constant", "value": 150.0}}],
    "contacts": [{"id": "tip-floor", "point": {"node": TIP}, "target": {"kind": "ground_line", "x": 0.0, "y": -0.1,
                  "angle": 0.0}, "mu_s": 0.8, "mu_d": 0.7, "e": 0.5, "model": {"kind": "impulse"}}],
}


def make_layout() -> Layout:
    return Layout(
        nodes=["root", "rod#1", TIP],
        rotations=[("root", "rod"), (TIP, "rod")],
        elements=[("rod", 0, "root", "rod#1"), ("rod", 1, "rod#1", TIP)],
        element_length=np.array([0.4, 0.6]),
        outer_fibre=np.array([0.003, np.nan]),
        flexible_links=["rod"],
        drivers=["crank-speed"],
        contacts=["tip-floor"],
    )


def make_results() -> Results:
    """3 nodes, 2 rotation slots, 2 elements, 1 flexible link, 1 driver, 1 contact, 7 frames."""
    rng = np.random.default_rng(7)
    frames = []
    for i, t in enumerate(TIMES):
        axial = rng.uniform(-1e-5, 1e-5, (2, len(STATIONS)))
        bending = rng.uniform(-1e-5, 1e-5, (2, len(STATIONS)))
        bending[1] = np.nan  # outer fibre unknown
        if i == 3:
            axial[1, 2] = -2e-4
        if i == 1:
            bending[0, 0] = 5e-4
        frames.append(
            Frame(
                time=float(t),
                node_xy=rng.standard_normal((3, 2)),
                node_v=rng.standard_normal((3, 2)),
                node_a=rng.standard_normal((3, 2)),
                rot=rng.standard_normal(2),
                rot_v=rng.standard_normal(2),
                rot_a=rng.standard_normal(2),
                axial_force=rng.standard_normal((2, len(STATIONS))) * 1e3,
                axial_strain=axial,
                bending_strain=bending,
                bending_moment=rng.standard_normal((2, len(STATIONS))),
                midspan=np.array([MIDSPAN[i]]),
                driver_angle=np.array([150.0 * t]),
                driver_speed=np.array([150.0]),
                driver_reaction=np.array([np.sin(10 * t) / 3]),
                energy={k: float(rng.uniform(0, 2)) for k in ENERGY_KEYS},
                contact={
                    "gap_m": np.array([-1e-6 if STATE[i] else 1e-3 / 3]),
                    "v_n_m_s": rng.standard_normal(1),
                    "v_t_m_s": rng.standard_normal(1),
                    "F_n_N": np.array([F_N[i]]),
                    "F_t_N": np.array([-0.7 * F_N[i]]),
                    "state": np.array([STATE[i]]),
                    "I_n_N_s": np.array([0.0123 if i == 2 else 0.0]),
                    "I_t_N_s": np.array([-0.004 if i == 2 else 0.0]),
                },
            )
        )
    steps = [StepRecord(time=0.05 * (k + 1), step=0.05, newton_iterations=n) for k, n in enumerate([3, 4, 2, 5, 3, 3, 4, 2, 3, 3, 4, 2])]
    meta = {"status": "completed", "message": "", "wall_time_s": 1.25}
    return Results(model=MODEL, layout=make_layout(), frames=frames, steps=steps, events=[IMPULSE, SEPARATION], meta=meta)


def assert_results_equal(a: Results, b: Results) -> None:
    assert a.model == b.model
    for f in dataclasses.fields(Layout):
        x, y = getattr(a.layout, f.name), getattr(b.layout, f.name)
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y)
        else:
            assert x == y, f.name
    assert len(a.frames) == len(b.frames)
    for fa, fb in zip(a.frames, b.frames):
        for f in dataclasses.fields(Frame):
            x, y = getattr(fa, f.name), getattr(fb, f.name)
            if isinstance(x, dict):
                assert list(x) == list(y), f.name
                for k in x:
                    np.testing.assert_array_equal(x[k], y[k], err_msg=f"{f.name}[{k}]")
            else:
                np.testing.assert_array_equal(x, y, err_msg=f.name)  # exact: nan == nan here
    assert a.steps == b.steps
    assert a.events == b.events
    assert a.meta == b.meta


def read_csv(path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


def write_and_export(results: Results, folder) -> None:
    """Write ``results`` to ``folder`` and export every table as CSV into it."""
    write_results(results, folder)
    export_csv(folder)


def test_round_trip_is_exact(tmp_path):
    results = make_results()
    write_results(results, tmp_path / "run")
    assert_results_equal(load_results(tmp_path / "run"), results)


def test_round_trip_without_contacts_and_with_an_extra_energy_term(tmp_path):
    results = make_results()
    results.layout.contacts = []
    for f in results.frames:
        f.contact = {}
        f.energy["work_gravity_field"] = 0.1 * f.time
    write_and_export(results, tmp_path)
    assert read_csv(tmp_path / "contacts.csv") == [["time_s", "contact", *CONTACT_KEYS]]
    assert read_csv(tmp_path / "energy.csv")[0][-2:] == ["work_gravity_field_J", "total_J"]
    assert_results_equal(load_results(tmp_path), results)


def test_every_frame_field_is_written():
    written = {field for _, fields in FRAME_TABLES.values() for field, _ in fields}
    assert written | {"time", "energy", "contact"} == {f.name for f in dataclasses.fields(Frame)}


def test_exported_csv_headers_rows_and_quoting(tmp_path):
    write_and_export(make_results(), tmp_path)
    nodes = read_csv(tmp_path / "nodes.csv")
    assert nodes[0] == ["time_s", "node", "x_m", "y_m", "vx_m_s", "vy_m_s", "ax_m_s2", "ay_m_s2"]
    assert len(nodes) == 1 + 7 * 3
    assert [r[1] for r in nodes[1:4]] == ["root", "rod#1", TIP]
    elements = read_csv(tmp_path / "elements.csv")
    assert elements[0][:5] == ["time_s", "link", "element", "station", "s_m"]
    assert len(elements) == 1 + 7 * 2 * len(STATIONS)
    s_m = [float(r[4]) for r in elements[1 : 1 + 2 * len(STATIONS)]]
    np.testing.assert_allclose(s_m, [0.4 * x for x in STATIONS] + [0.4 + 0.6 * x for x in STATIONS])
    contacts = read_csv(tmp_path / "contacts.csv")
    assert contacts[0] == ["time_s", "contact", *CONTACT_KEYS]
    assert [r[CONTACT_KEYS.index("state") + 2] for r in contacts[1:]] == ["open", "open", "slide", "stick", "slide", "open", "stick"]
    energy = read_csv(tmp_path / "energy.csv")
    assert energy[0] == ["time_s", *(k + "_J" for k in ENERGY_KEYS), "total_J"]
    assert read_csv(tmp_path / "steps.csv")[0] == ["time_s", "step_s", "newton_iterations"]
    events = read_csv(tmp_path / "events.csv")
    assert events[0][:4] == ["time_s", "kind", "contact", "type"]
    assert len(events) == 3 and events[2][events[0].index("I_n_N_s")] == ""
    assert json.loads(events[1][events[0].index("D")]) == IMPULSE["D"]


def test_summary_link_peaks_and_their_times():
    link = summarize(make_results())["links"]["rod"]
    assert link["peak_midspan_deflection_rel"] == {"abs": 0.004, "value": -0.004, "time_s": TIMES[2]}
    axial = link["peak_axial_strain"]
    assert (axial["value"], axial["time_s"], axial["element"], axial["station"]) == (-2e-4, TIMES[3], 1, 0.5)
    assert axial["s_m"] == pytest.approx(0.7)
    bending = link["peak_bending_strain"]  # element 1 is all nan: skipped
    assert (bending["abs"], bending["time_s"], bending["element"], bending["s_m"]) == (5e-4, TIMES[1], 0, 0.0)


@pytest.mark.parametrize("values, index", [
    ([[1.0, -3.0], [3.0, 2.0]], (0, 1)),      # +3 and -3: the first in C order
    ([[3.0, 1.0], [-3.0, 2.0]], (0, 0)),
    ([[-1.0, 2.0], [0.5, -2.5]], (1, 1)),     # the smallest value is the largest in magnitude
    ([[np.nan, 2.0], [-4.0, 1.0]], (1, 0)),   # nan skipped
    ([[np.nan, np.nan], [np.nan, np.nan]], ()),
    ([[0.0, 0.0], [0.0, 0.0]], (0, 0)),
])
def test_a_peak_is_the_first_largest_magnitude(values, index):
    values = np.array(values)
    peak, found = _peak(values, np.array([0.1, 0.2]))
    assert found == index
    if index:
        assert peak == {"abs": abs(values[index]), "value": values[index], "time_s": [0.1, 0.2][index[0]]}
    else:
        assert peak is None
    strided = np.repeat(values, 2, axis=1)[:, ::2]  # a view, not contiguous
    assert not strided.flags.c_contiguous and _peak(strided, np.array([0.1, 0.2]))[1] == index


def test_summary_contact_periods_and_impulses():
    contact = summarize(make_results())["contacts"]["tip-floor"]
    first, second = contact["periods"]
    assert first == {
        "start_s": TIMES[2],
        "end_s": TIMES[4],
        "duration_s": TIMES[4] - TIMES[2],
        "frames": 3,
        "peak_normal_force_N": 7.5,
        "peak_time_s": TIMES[3],
        "ongoing_at_end": False,
    }
    assert (second["start_s"], second["duration_s"], second["ongoing_at_end"]) == (TIMES[6], 0.0, True)
    assert (contact["impulses"], contact["normal_impulse_N_s"], contact["tangential_impulse_N_s"]) == (
        1, IMPULSE["I_n_N_s"], IMPULSE["I_t_N_s"])  # the events themselves are in "events" only


def test_summary_run_and_energy_balance():
    results = make_results()
    summary = summarize(results)
    run = summary["run"]
    assert run["model_sha256"] == hashlib.sha256(dumps_model(MODEL).encode()).hexdigest()
    assert run["solver"]["tol_abs"] > 0  # the model's settings with defaults filled in
    iterations = [s.newton_iterations for s in results.steps]
    assert (run["step_count"], run["newton_iterations_total"]) == (12, sum(iterations))
    assert run["newton_iterations_mean"] == pytest.approx(np.mean(iterations))
    assert (run["status"], run["wall_time_s"], run["frame_count"]) == ("completed", 1.25, 7)
    total = [sum(ENERGY_BALANCE_SIGNS[k] * f.energy[k] for k in ENERGY_KEYS) for f in results.frames]
    balance = summary["energy"]
    assert balance["total"]["drift_J"] == pytest.approx(total[-1] - total[0])
    assert balance["total"]["max_abs_drift_J"] == pytest.approx(max(abs(e - total[0]) for e in total))
    assert balance["terms"]["kinetic"] == {
        "initial_J": results.frames[0].energy["kinetic"],
        "final_J": results.frames[-1].energy["kinetic"],
    }
    assert summary["drivers"]["crank-speed"]["peak_reaction"]["time_s"] == TIMES[5]  # sin(5) / 3
    assert summary["events"] == [IMPULSE, SEPARATION]


def test_empty_results_write_header_only_files_and_load_back(tmp_path):
    results = Results(model=MODEL, layout=make_layout(), meta={"status": "failed", "message": "Newton failed at t = 0"})
    write_and_export(results, tmp_path)
    for name in ("nodes.csv", "rotations.csv", "elements.csv", "links.csv", "drivers.csv", "energy.csv", "contacts.csv", "events.csv", "steps.csv"):
        rows = read_csv(tmp_path / name)
        assert len(rows) == 1 and rows[0][0] == "time_s", name
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["run"]["frame_count"] == 0 and summary["links"]["rod"]["peak_axial_strain"] is None
    assert summary["contacts"]["tip-floor"] == {"periods": [], "impulses": 0, "normal_impulse_N_s": 0.0,
                                                "tangential_impulse_N_s": 0.0}
    assert_results_equal(load_results(tmp_path), results)


def test_crash_mid_write_leaves_previous_files_whole(tmp_path, monkeypatch):
    write_results(make_results(), tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    changed = make_results()
    changed.frames = changed.frames[:3]

    def crash(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk full"):
        write_results(changed, tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # no temp file left either


def test_changed_file_is_refused(tmp_path):
    write_results(make_results(), tmp_path)
    path = tmp_path / "tables.zip"
    path.write_bytes(path.read_bytes().replace(b"rod#1", b"rod#9"))
    with pytest.raises(ResultsFormatError, match="tables.zip: not the file"):
        load_results(tmp_path)


def test_newer_format_version_is_refused(tmp_path):
    write_results(make_results(), tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())
    summary["version"] = 99
    (tmp_path / "summary.json").write_text(summary_text(summary))  # its hash made again
    with pytest.raises(ResultsFormatError, match="version"):
        load_results(tmp_path)


def test_ids_with_line_breaks_round_trip(tmp_path):
    results = make_results()
    results.layout.nodes[1] = "rod\n#1"
    results.layout.elements = [("rod", 0, "root", "rod\n#1"), ("rod", 1, "rod\n#1", TIP)]
    write_results(results, tmp_path)
    assert_results_equal(load_results(tmp_path), results)
