"""Malformed model files: each gives its exact path-and-rule message, exit code 1, no traceback.

Every case starts from the bundled slider-crank (nodes O, A, B; rigid ``crank``,
flexible ``rod`` of steel, ``motor`` driver, ``slider`` mass) and breaks one thing.
"""
from __future__ import annotations

import copy
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.model.io import ModelError, examples_dir, load_model
from solver.model.validate import validate

from .mutations import JSON_VALUES, locations

BASE = json.loads((examples_dir() / "slider_crank_flexible.json").read_text(encoding="utf-8"))
CONTACT = {"id": "tip-floor", "point": {"node": "B"}, "target": {"kind": "ground_line", "y": -0.1}}


def _set(*keys_and_value: Any) -> Callable[[dict], None]:
    """A mutation that sets ``doc[k1][k2]...[kn] = value``."""
    *keys, value = keys_and_value

    def mutate(doc: dict) -> None:
        node = doc
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value

    return mutate


def _delete(*keys: Any) -> Callable[[dict], None]:
    def mutate(doc: dict) -> None:
        node = doc
        for k in keys[:-1]:
            node = node[k]
        del node[keys[-1]]

    return mutate


def _with_contact(**changes: Any) -> Callable[[dict], None]:
    def mutate(doc: dict) -> None:
        doc["contacts"] = [dict(copy.deepcopy(CONTACT), **changes)]

    return mutate


def _duplicate_material(doc: dict) -> None:
    doc["materials"].append({"id": "steel", "E": 7.0e10, "density": 2700.0})


def _contact_twice(doc: dict) -> None:
    doc["contacts"] = [copy.deepcopy(CONTACT), dict(copy.deepcopy(CONTACT), id="again")]


def _third_node(doc: dict) -> None:
    doc["links"][1]["nodes"].append("O")


def _nothing_that_moves(doc: dict) -> None:
    """A model with no node and no free body (its nodes may be none: a ball dropped on the floor)."""
    kept = {"format": doc["format"], "version": doc["version"], "nodes": []}
    doc.clear()
    doc.update(kept)


TUBE = {"kind": "tube", "material": "steel", "d_outer": 0.01, "d_inner": 0.01}
TABLE = {"kind": "table", "t": [0.0, 1.0, 2.0], "v": [0.0, 150.0]}

#: (case id, mutation of the base document, the exact problems reported)
CASES: list[tuple[str, Callable[[dict], None], list[str]]] = [
    ("missing-required-field", _delete("nodes", 1, "x"), ["nodes[A].x: is required"]),
    ("missing-format", _delete("format"), ["format: is required"]),
    ("wrong-type-number", _set("nodes", 1, "x", "0.15"), ["nodes[A].x: must be a number"]),
    ("wrong-type-boolean-mass", _set("masses", 0, "mass", True), ["masses[slider].mass: must be a number"]),
    ("wrong-type-list", _set("links", {"crank": 1}), ["links: must be a list"] + [
        "drivers[motor].link: no link with id 'crank'"][::-1]),
    ("nan-is-not-a-number", _set("masses", 0, "mass", math.nan), ["masses[slider].mass: must be a number (NaN is not one)"]),
    ("negative-mass", _set("masses", 0, "mass", -0.5), ["masses[slider].mass: must be >= 0"]),
    ("zero-diameter", _set("links", 1, "section", "d", 0.0), ["links[rod].section.d: must be > 0"]),
    ("non-integer-elements", _set("links", 1, "mesh", "elements", 2.5),
     ["links[rod].mesh.elements: must be an integer"]),
    ("unknown-node-id", _set("links", 0, "nodes", 1, "Z"), ["links[crank].nodes[1]: no node with id 'Z'"]),
    ("unknown-material", _set("links", 1, "section", "material", "aluminium"),
     ["links[rod].section.material: no material with id 'aluminium'"]),
    ("duplicate-id", _duplicate_material, ["materials[steel].id: duplicate id 'steel'"]),
    ("contact-names-missing-link", _with_contact(target={"kind": "link", "link": "beam"}),
     ["contacts[tip-floor].target.link: no link with id 'beam'"]),
    ("contact-point-twice", _with_contact(point={"node": "B", "body": "hammer"}),
     ["contacts[tip-floor].point.body: no body with id 'hammer'"]),
    ("contact-point-missing", _with_contact(point={}), ["contacts[tip-floor].point: give exactly one of node, body"]),
    ("friction-dynamic-above-static", _with_contact(mu_s=0.1, mu_d=0.2), ["contacts[tip-floor].mu_d: must be <= mu_s"]),
    ("contact-pair-twice", _contact_twice,
     ["contacts[again].target: the same point and target as contact 'tip-floor': one pair per contact"]),
    ("flexible-link-three-nodes", _third_node, ["links[rod].nodes: a flexible link has exactly two end nodes"]),
    ("tube-inner-not-below-outer", _set("links", 1, "section", TUBE), ["links[rod].section.d_inner: must be < d_outer"]),
    ("table-lengths-differ", _set("drivers", 0, "function", TABLE),
     ["drivers[motor].function.v: must have as many values as t has times"]),
    ("stations-not-increasing", _set("links", 1, "mesh", {"kind": "stations", "stations": [0.0, 0.6, 0.4, 1.0]}),
     ["links[rod].mesh.stations: must increase strictly from 0 to 1"]),
    ("unknown-field", _set("nodes", 0, "z", 0.0), ["nodes[O]: unknown field 'z'"]),
    ("unknown-top-level-field", _set("gravity_y", -9.81), ["unknown field 'gravity_y'"]),
    ("field-of-another-kind", _set("links", 0, "mesh", {"elements": 2}), ["links[crank]: unknown field 'mesh'"]),
    ("wrong-kind", _set("links", 1, "kind", "elastic"), ["links[rod].kind: must be one of rigid | flexible | modal"]),
    ("missing-kind", _delete("links", 1, "section", "kind"), ["links[rod].section.kind: is required"]),
    ("wrong-format", _set("format", "flexmech-model"), ["format: must be one of flexmech"]),
    ("wrong-version", _set("version", 2),
     ["version: must be <= 1: the file is from a newer Flexmech (format version 2); update Flexmech to open it"]),
    ("version-as-string", _set("version", "1"), ["version: must be an integer"]),
    ("nothing-that-moves", _nothing_that_moves,
     ["nodes: the model has nothing that moves: give it a node (a link's end) or a free body"]),
    ("pivot-not-on-link", _set("drivers", 0, "pivot", "B"), ["drivers[motor].pivot: node 'B' is not a node of link 'crank'"]),
]

#: files that are not a model document at all: (case id, file bytes, the exact problem)
RAW_CASES: list[tuple[str, bytes, str]] = [
    ("invalid-json", b'{\n  "format": "flexmech",\n  "version": 1,\n', "invalid JSON at line 4, column 1: Expecting property name enclosed in double quotes"),
    ("empty-file", b"", "invalid JSON at line 1, column 1: Expecting value"),
    ("not-an-object", b"[1, 2, 3]\n", "the model must be a JSON object"),
    ("nested-too-deeply", b"[" * 100_000, "invalid JSON: nested too deeply"),
]


def _broken(mutate: Callable[[dict], None]) -> dict:
    doc = copy.deepcopy(BASE)
    mutate(doc)
    return doc


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_bytes(data)
    return path


def _run_validate(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "app.shell.cli", "validate", str(path)], capture_output=True, text=True, timeout=120
    )


def _check_cli(path: Path, expected: list[str]) -> None:
    proc = _run_validate(path)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == expected


def test_base_model_is_valid():
    assert validate(BASE) == []


@pytest.mark.parametrize(("mutate", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_malformed_model_file(tmp_path, mutate, expected):
    text = json.dumps(_broken(mutate), indent=2)
    path = _write(tmp_path, "model", text.encode("utf-8"))
    with pytest.raises(ModelError) as info:
        load_model(path)
    assert sorted(str(p) for p in info.value.problems) == sorted(expected)
    _check_cli(path, [str(p) for p in info.value.problems])


@pytest.mark.parametrize(("data", "expected"), [c[1:] for c in RAW_CASES], ids=[c[0] for c in RAW_CASES])
def test_file_that_is_no_model(tmp_path, data, expected):
    path = _write(tmp_path, "model", data)
    with pytest.raises(ModelError) as info:
        load_model(path)
    assert [str(p) for p in info.value.problems] == [expected]
    _check_cli(path, [expected])


def test_unreadable_files(tmp_path):
    not_utf8 = _write(tmp_path, "latin1", '{"name": "Fl\xe9xmech"}'.encode("latin-1"))
    missing = tmp_path / "missing.json"
    _check_cli(not_utf8, [f"cannot read {not_utf8}: not UTF-8 text (byte 12)"])
    _check_cli(missing, [f"cannot read {missing}: No such file or directory"])
    _check_cli(tmp_path, [f"cannot read {tmp_path}: Is a directory"])


def test_every_problem_is_listed():
    doc = _broken(_set("nodes", 1, "x", "0.15"))
    doc["masses"][0]["mass"] = -1.0
    doc["links"][1]["section"]["d"] = 0.0
    assert [str(p) for p in validate(doc)] == [
        "links[rod].section.d: must be > 0",
        "masses[slider].mass: must be >= 0",
        "nodes[A].x: must be a number",
    ]


# --------------------------------------------------------------------- never a traceback

@settings(max_examples=150, deadline=None)
@given(st.data())
def test_validate_never_raises(data):
    """Any value at any place in a model gives problems (or none), never an exception."""
    doc = copy.deepcopy(BASE)
    for _ in range(data.draw(st.integers(1, 3))):
        keys = data.draw(st.sampled_from(locations(doc)))
        value = data.draw(JSON_VALUES)
        if not keys:
            doc = value
            continue
        parent = doc
        for k in keys[:-1]:
            parent = parent[k]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[keys[-1]]
        else:
            parent[keys[-1]] = value
    problems = validate(doc)
    assert all(isinstance(str(p), str) for p in problems)


def test_fields_a_contact_model_does_not_use_are_warned_of_by_name(tmp_path):
    """Issue 26: a Lagrange pair's e (and law), a rolling pair's friction and restitution, a compliant
    pair's mu_s and law are not used; a value other than the default is a warning naming the field,
    never an error (the model still runs), and a default or an absent field says nothing."""
    from solver.model.validate import model_warnings
    doc = load_model(examples_dir() / "bar_mass_impact_lagrange.json")
    assert model_warnings(doc) == []
    doc["contacts"][0].update(e=0.7, mu_s=0.3, mu_d=0.3)
    assert validate(doc) == []
    found = model_warnings(doc)
    assert [(p.path, p.severity) for p in found] == [("contacts[striker-end].e", "warning")]
    assert "perfectly plastic" in found[0].message
    path = _write(tmp_path, "model", json.dumps(doc).encode("utf-8"))
    proc = _run_validate(path)
    assert proc.returncode == 0
    assert proc.stdout.splitlines() == [f"warning: {found[0]}", f"{path}: valid"]
    doc["contacts"][0]["model"]["kind"] = "impulse"
    assert model_warnings(doc) == []
    doc["contacts"][0]["model"] = {"kind": "rolling"}
    assert [p.path for p in model_warnings(doc)] == [f"contacts[striker-end].{k}" for k in ("mu_s", "mu_d", "e")]


def test_a_restitution_on_an_elastic_compliant_law_is_warned_of(tmp_path):
    """The hertz law is elastic (Flores et al. 2006 eq. 2): a pair giving it e = 0.7 is warned of by
    name, with lankarani_nikravesh offered (before: silently ignored); e = 1, or a dissipative law,
    says nothing.  The laws warned of are those of solver.contact.normal_laws without a c_e."""
    from solver.contact.normal_laws import NORMAL_LAWS
    from solver.model.contact_rules import ELASTIC_LAWS
    from solver.model.validate import model_warnings
    assert set(ELASTIC_LAWS) == {name for name, spec in NORMAL_LAWS.items()
                                 if "c_e" not in [p.name for p in spec.parameters]}
    doc = load_model(examples_dir() / "spheres_hertz.json")
    assert model_warnings(doc) == []
    doc["contacts"][0]["e"] = 0.7
    found = model_warnings(doc)
    assert [(p.path, p.severity) for p in found] == [("contacts[bore].e", "warning")]
    assert "the hertz law is elastic" in found[0].message and "lankarani_nikravesh" in found[0].message
    proc = _run_validate(_write(tmp_path, "model", json.dumps(doc).encode("utf-8")))
    assert proc.returncode == 0 and proc.stdout.startswith(f"warning: {found[0]}")
    doc["contacts"][0]["model"]["law"] = "lankarani_nikravesh"
    assert model_warnings(doc) == []
