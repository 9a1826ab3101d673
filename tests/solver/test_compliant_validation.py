"""Bad input to compliant contacts and clearance joints: a validation error naming the field."""
from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from solver.model.validate import validate


def clearance_crank(bearing_link: bool = False, **joint) -> dict:
    """A crank and a rod whose end B is a journal: in a slider's bearing, or (``bearing_link``)
    in a lever pinned to the ground at C."""
    doc = {
        "format": "flexmech", "version": 1,
        "materials": [{"id": "steel", "E": 207e9, "density": 7800.0}],
        "nodes": [{"id": "O", "x": 0.0, "y": 0.0}, {"id": "A", "x": 0.05, "y": 0.0}, {"id": "B", "x": 0.17, "y": 0.0},
                  {"id": "C", "x": 0.17, "y": -0.1}],
        "links": [{"id": "crank", "kind": "rigid", "nodes": ["O", "A"], "mass": 0.3},
                  {"id": "rod", "kind": "rigid", "nodes": ["A", "B"], "mass": 0.21}],
        "joints": [{"id": "O", "kind": "ground", "node": "O"}],
        "masses": [],
    }
    gap = {"id": "B-gap", "kind": "clearance", "node": "B", "links": ["rod"], "bearing_radius": 0.010,
           "journal_radius": 0.0095, "length": 0.015, "material": "steel"}
    if bearing_link:
        doc["links"].append({"id": "lever", "kind": "rigid", "nodes": ["B", "C"], "mass": 0.1})
        doc["joints"].append({"id": "C", "kind": "ground", "node": "C"})
        gap["links"] = ["rod", "lever"]
    else:
        doc["joints"].append({"id": "B-slide", "kind": "slider", "node": "B"})
        doc["masses"].append({"id": "slider", "node": "B", "mass": 0.14})
    gap.update(joint)
    doc["joints"].append({k: v for k, v in gap.items() if v is not None})
    return doc


def bore(**model) -> dict:
    """A pin of 9.5 mm radius in a fixed 10 mm bore, compliant."""
    contact_model = {"kind": "compliant", "law": "hertz", "stiffness": 6.6e10, **model}
    return {
        "format": "flexmech", "version": 1,
        "materials": [{"id": "steel", "E": 207e9, "density": 7800.0}],
        "nodes": [{"id": "O", "x": 0.0, "y": 0.0}],
        "bodies": [{"id": "pin", "x": 0.0, "y": 0.0, "mass": 0.14, "radius": 0.0095}],
        "contacts": [{"id": "bore", "point": {"body": "pin"}, "e": 0.9,
                      "target": {"kind": "circle", "radius": 0.01, "inside": True},
                      "model": {k: v for k, v in contact_model.items() if v is not None}}],
    }


def _with(doc: dict, path: list, value) -> dict:
    doc = copy.deepcopy(doc)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


CASES = [
    ("negative-stiffness", clearance_crank(stiffness=-1e9), "joints[B-gap].stiffness: must be > 0"),
    ("restitution-zero", clearance_crank(restitution=0.0), "joints[B-gap].restitution: must be > 0"),
    ("restitution-above-one", clearance_crank(restitution=1.2), "joints[B-gap].restitution: must be <= 1"),
    ("clearance-negative", clearance_crank(journal_radius=None, clearance=-1e-4), "joints[B-gap].clearance: must be > 0"),
    ("clearance-not-below-bearing-radius", clearance_crank(journal_radius=None, clearance=0.01),
     "joints[B-gap].clearance: must be < bearing_radius"),
    ("journal-not-inside-bearing", clearance_crank(journal_radius=0.011), "joints[B-gap].bearing_radius: must be > journal_radius"),
    ("radius-and-clearance", clearance_crank(clearance=5e-4), "joints[B-gap].clearance: give the clearance or journal_radius (one of them)"),
    ("journal-outside-at-start", clearance_crank(offset={"x": 0.0004, "y": 0.0004}),
     "joints[B-gap].offset: the journal starts outside the bearing: eccentricity 0.000565685 m > clearance 0.0005 m"),
    ("linear-law-without-stiffness", clearance_crank(law="kelvin_voigt"), "joints[B-gap].stiffness: is required by the kelvin_voigt law (N/m)"),
    ("no-material-no-stiffness", clearance_crank(material=None),
     "joints[B-gap].stiffness: is required, or give material (or journal_material and bearing_material) "
     "to compute it (eqs. 3-5)"),
    ("cylinder-law-without-materials", clearance_crank(material=None, law="esdu78035", stiffness=1e9),
     "joints[B-gap].material: the esdu78035 law needs material (or journal_material and bearing_material)"),
    ("ambrosio-velocities", clearance_crank(friction_velocity=1e-3, friction_velocity_1=1e-4),
     "joints[B-gap].friction_velocity_1: must be > friction_velocity (Ambrosio's v1 > v0)"),
    ("bearing-link-without-the-node", clearance_crank(links=["rod", "crank"]), "joints[B-gap].links: link 'crank' has no node 'B'"),
    ("compliant-negative-stiffness", bore(stiffness=-1.0), "contacts[bore].model.stiffness: must be > 0"),
    ("compliant-c_e-zero", _with(bore(), ["contacts", 0, "e"], 0.0),
     "contacts[bore].e: must be > 0 for a compliant contact (c_e in (0, 1])"),
    ("compliant-cylinder-law-on-a-plane", _with(bore(law="goldsmith", stiffness=None, point_material="steel",
                                                     target_material="steel", length=0.015),
                                                ["contacts", 0, "target"], {"kind": "ground_line", "y": -1.0}),
     "contacts[bore].model.law: the goldsmith law is for a pin in a bore: a point with a radius inside a larger circle target"),
    ("compliant-point-without-radius", _with(bore(stiffness=None, point_material="steel", target_material="steel"),
                                             ["bodies", 0, "radius"], 0.0),
     "contacts[bore].model.stiffness: is required: the surfaces' radii give no Hertz stiffness "
     "(a point without a radius: give point.radius; or two concave surfaces)"),
    ("compliant-no-materials", bore(stiffness=None),
     "contacts[bore].model.stiffness: is required, or give point_material and target_material to compute it "
     "(eqs. 3-5)"),
    ("compliant-starts-inside", _with(bore(), ["bodies", 0, "x"], 0.001),
     "contacts[bore].point: starts inside the target (penetration 0.0005 m)"),
]


def test_the_bases_are_valid():
    assert validate(clearance_crank()) == []
    assert validate(clearance_crank(bearing_link=True)) == []
    assert validate(bore()) == []
    assert validate(bore(law="esdu78035", stiffness=None, point_material="steel", target_material="steel",
                         length=0.015)) == []


@pytest.mark.parametrize(("doc", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_names_the_field(doc, expected):
    assert [str(p) for p in validate(doc)] == [expected]


def test_the_command_line_refuses_it_without_a_traceback(tmp_path):
    path = tmp_path / "model.json"
    path.write_text(json.dumps(clearance_crank(journal_radius=None, clearance=0.02)), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "app.shell.cli", "validate", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == ["joints[B-gap].clearance: must be < bearing_radius"]


def test_the_schema_names_every_law_the_solver_has():
    """The model format lists the laws without importing the numeric code; the lists agree."""
    from solver.contact.friction_laws import FRICTION_LAW_NAMES
    from solver.contact.normal_kernels import LAW_IDS
    from solver.contact.normal_laws import NORMAL_LAW_NAMES
    from solver.model import schema

    assert schema.NORMAL_LAWS == NORMAL_LAW_NAMES == tuple(LAW_IDS)
    assert schema.FRICTION_LAWS == FRICTION_LAW_NAMES
    assert set(schema.CYLINDER_LAWS) | set(schema.LINEAR_LAWS) <= set(NORMAL_LAW_NAMES)


def test_the_stiffness_of_a_pair_from_its_materials_doctest():
    """pair_stiffness: eqs. 3-5 for a 5 mm steel sphere on a steel plane, 1.088e10 N/m^1.5."""
    import doctest

    from solver.contact import compliant_laws

    assert doctest.testmod(compliant_laws).failed == 0
