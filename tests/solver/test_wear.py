"""Archard wear of a dry clearance joint's bearing (issue 30 point 3, :mod:`solver.contact.wear`):
under a constant load at constant spin the worn volume, the recorded depths integrated over
the bearing's circumference and length, is Archard's k F s / H."""
from __future__ import annotations

import math

import numpy as np
import pytest

from solver.api import simulate
from solver.model.validate import validate

R_JOURNAL, CLEARANCE, LENGTH, SPIN, LOAD, END = 0.01, 1e-4, 0.01, 200.0, 10.0, 0.02  # m, m, m, rad/s, N, s
K_WEAR, HARDNESS = 1e-4, 2e9  # -, Pa


def worn_journal(bins: int = 360) -> dict:
    """A shaft (its centre of mass on the journal) turned at SPIN in a fixed dry bearing, resting
    on its bottom under a constant downward force LOAD (a Hooke law with a critical damper)."""
    return {
        "format": "flexmech", "version": 1, "name": "worn bearing",
        "nodes": [{"id": "J", "x": 0.0, "y": 0.0}, {"id": "K", "x": 0.05, "y": 0.0}],
        "links": [{"id": "shaft", "kind": "rigid", "nodes": ["J", "K"], "mass": 0.01, "inertia": 1e-6,
                   "com": {"s": 0.0}}],
        "joints": [{"id": "G", "kind": "ground", "node": "J"},
                   {"id": "bearing", "kind": "clearance", "node": "J", "links": ["shaft"],
                    "bearing_radius": R_JOURNAL + CLEARANCE, "journal_radius": R_JOURNAL, "length": LENGTH,
                    "law": "hooke", "stiffness": 1e6, "damping": 200.0, "offset": {"y": -0.999 * CLEARANCE},
                    "wear": {"coefficient": K_WEAR, "hardness": HARDNESS, "bins": bins}}],
        "drivers": [{"id": "spin", "kind": "speed", "link": "shaft", "pivot": "K",
                     "function": {"kind": "constant", "value": SPIN}}],
        "loads": [{"id": "W", "node": "K", "fy": -LOAD}],
        "solver": {"end_time": END, "step": 1e-4},
    }


def test_worn_volume_is_archards():
    """V = Σ h R_b Δθ L against k F s / H, s = R_j ω t the sliding distance, within 1 %; the
    wear is at the bottom of the bearing (270°), where the load presses the journal."""
    doc = worn_journal()
    assert validate(doc) == []
    res = simulate(doc)
    assert res.meta["status"] == "completed", res.meta.get("message")
    table = res.meta["compliant_contacts"]["bearing"]["wear"]
    angle, depth = np.array(table["angle_deg"]), np.array(table["depth_m"])
    assert len(angle) == 360 and angle[0] == pytest.approx(0.5)
    width = 2 * math.pi / len(angle)
    volume = float(np.sum(depth) * (R_JOURNAL + CLEARANCE) * width * LENGTH)
    archard = K_WEAR * LOAD * R_JOURNAL * SPIN * END / HARDNESS
    assert volume == pytest.approx(archard, rel=0.01)
    assert angle[np.argmax(depth)] == pytest.approx(270.0, abs=0.5)  # the arc on either side of 270°


def test_bad_wear_fields_are_named():
    doc = worn_journal()
    doc["joints"][1]["wear"] = {"coefficient": 0.0, "bins": 2}
    problems = {p.path: p.message for p in validate(doc)}
    assert problems == {"joints[bearing].wear.coefficient": "must be > 0",
                        "joints[bearing].wear.hardness": "is required",
                        "joints[bearing].wear.bins": "must be >= 4"}


def test_the_wear_table_is_written_with_the_results(tmp_path):
    """``wear.csv`` (joint, angle_deg, depth_m), its SHA-256 in ``summary.json``; the folder
    loads back, and not once the file is changed."""
    from solver.api import ResultsFormatError, load_results, write_results

    res = simulate(worn_journal(bins=36))
    write_results(res, tmp_path)
    rows = (tmp_path / "wear.csv").read_text().splitlines()
    assert rows[0] == "joint,angle_deg,depth_m" and len(rows) == 37
    joint, angle, depth = rows[28].split(",")  # the arc from 270° to 280°
    assert joint == "bearing" and float(angle) == pytest.approx(275.0) and float(depth) > 0.0
    assert load_results(tmp_path).meta["compliant_contacts"]["bearing"]["wear"]["depth_m"][27] == float(depth)
    from solver.results.files import export_csv

    exported = export_csv(tmp_path, tmp_path / "csv")  # `flexmech export` wrote the tables without it
    assert tmp_path / "csv" / "wear.csv" in exported
    assert (tmp_path / "csv" / "wear.csv").read_text() == (tmp_path / "wear.csv").read_text()
    (tmp_path / "wear.csv").write_text("joint,angle_deg,depth_m\n")
    with pytest.raises(ResultsFormatError, match="wear.csv"):
        load_results(tmp_path)


def resting_eccentricity(worn_depth: list[float] | None) -> float:
    """Where the journal of :func:`worn_journal` rests at the end (distance of the centres, m)."""
    doc = worn_journal(bins=36)
    if worn_depth is not None:
        doc["joints"][1]["wear"]["worn_depth"] = worn_depth
    assert validate(doc) == []
    res = simulate(doc)
    assert res.meta["status"] == "completed", res.meta.get("message")
    return float(res.frames[-1].contact["eccentricity_m"][0])


def test_a_worn_bore_lets_the_journal_sink_by_the_depth_under_it():
    """A second run with the profile of a first fed back: the journal under its load rests
    deeper by the depth worn under it (1 um at 270 deg, linear between the arcs' middles),
    within 0.1 % of the depth; an even profile of 5 um by 5 um."""
    new = resting_eccentricity(None)
    assert resting_eccentricity([5e-6] * 36) - new == pytest.approx(5e-6, rel=1e-3)
    profile = [0.0] * 36
    profile[26] = profile[27] = 1e-6  # arcs 260-270 and 270-280: 1 um at 270 deg
    assert resting_eccentricity(profile) - new == pytest.approx(1e-6, rel=1e-3)


def test_a_bearing_worn_through_its_play_is_refused():
    doc = worn_journal(bins=36)
    doc["joints"][1]["wear"]["worn_depth"] = [2e-4] * 36
    assert [(p.path, p.message) for p in validate(doc)] == [
        ("joints[bearing].wear.worn_depth", "a depth of 0.0002 m is not less than the clearance 0.0001 m "
                                            "(a bearing worn through its play)")]
