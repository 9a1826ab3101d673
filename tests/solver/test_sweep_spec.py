"""Sweep specs, designs and validated variants (no cluster needed)."""
import copy

import numpy as np
import pytest

from solver.model.fields import Num, field_at
from solver.model.io import examples_dir, load_model
from solver.model.paths import get_path, numeric_paths, path_keys, set_path
from solver.model.schema import MODEL
from solver.model.validate import _allowed_fields, number_accepted, schema_problems, semantic_problems, validate
from solver.sweeps import (Parameter, SweepError, SweepSpec, build_variants, design_points, parse_set, parse_vary,
                           spec_from_json, spec_to_json, spread)
from solver.sweeps.variants import _checked_by_numbers, run_id


@pytest.fixture(scope="module")
def rod():
    return load_model(examples_dir() / "rod_impact_rigid.json")


def test_vary_and_set_texts():
    assert parse_vary("contacts[tip].mu_s=0.1:0.9:9") == Parameter("contacts[tip].mu_s", low=0.1, high=0.9, count=9)
    assert parse_vary("links[rod].mesh.elements=4,8").values == (4.0, 8.0)
    assert parse_set("solver.end_time=0.2") == ("solver.end_time", 0.2)
    # an id may hold '=': the values follow the last one
    assert parse_vary("links[a=b].mass=1,2") == Parameter("links[a=b].mass", values=(1.0, 2.0))
    assert parse_set("links[a=b].mass=3", "--perturb") == ("links[a=b].mass", 3.0)
    for bad in ("mu_s", "a=1:2", "a=x,y", "a=1:2:x"):
        with pytest.raises(SweepError, match=f"--vary {bad}"):
            parse_vary(bad)
    with pytest.raises(SweepError, match="--set a: write PATH=NUMBER"):
        parse_set("a")


def test_a_grid_is_every_combination_in_order():
    spec = SweepSpec((Parameter("a", low=0.0, high=1.0, count=3), Parameter("b", (10.0, 20.0))))
    points = design_points(spec)
    assert [(p["a"], p["b"]) for p in points] == [(0.0, 10.0), (0.0, 20.0), (0.5, 10.0), (0.5, 20.0),
                                                   (1.0, 10.0), (1.0, 20.0)]


def test_zip_pairs_the_lists_and_needs_equal_lengths():
    spec = SweepSpec((Parameter("a", (1.0, 2.0)), Parameter("b", (3.0, 4.0))), design="zip")
    assert design_points(spec) == [{"a": 1.0, "b": 3.0}, {"a": 2.0, "b": 4.0}]
    with pytest.raises(SweepError, match=r"design zip: every parameter needs as many values \(a: 2, b: 3\)"):
        design_points(SweepSpec((Parameter("a", (1.0, 2.0)), Parameter("b", (3.0, 4.0, 5.0))), design="zip"))


def test_a_latin_hypercube_puts_one_sample_in_every_stratum_of_every_parameter():
    spec = SweepSpec((Parameter("a", low=0.0, high=2.0), Parameter("b", low=-1.0, high=1.0),
                      Parameter("c", (1.0, 2.0, 3.0, 4.0))), design="lhs", samples=20, seed=7)
    points = design_points(spec)
    assert len(points) == 20
    for path, low, high in (("a", 0.0, 2.0), ("b", -1.0, 1.0)):
        u = (np.array([p[path] for p in points]) - low) / (high - low)
        assert sorted(np.floor(u * 20).astype(int)) == list(range(20))
    counts = np.bincount([int(p["c"]) for p in points])[1:]
    assert counts.tolist() == [5, 5, 5, 5]                      # a list is sampled evenly too
    assert design_points(spec) == points                        # the seed repeats it


def test_spec_json_round_trips_and_names_bad_fields():
    spec = SweepSpec((Parameter("a", low=0.0, high=1.0, count=3), Parameter("b", (1.0, 2.0))), design="lhs",
                     samples=5, seed=3, fixed=(("c", 2.0),), collect=("max(energy/kinetic)",), keep_results=True)
    assert spec_from_json(spec_to_json(spec)) == spec
    with pytest.raises(SweepError) as err:
        spec_from_json({"parameters": [{"path": "a", "low": 1.0, "high": 0.0}, {"values": [1]},
                                       {"path": "b", "values": [], "step": 1}],
                        "design": "random", "colour": 1})
    assert err.value.problems == [
        "colour: unknown field",
        "parameters[1].path: is required (a model path such as contacts[tip].mu_s)",
        "parameters[b].step: unknown field",
        "parameters[a].high: must be >= low",
        "parameters[b].values: needs at least one value",
        "design: must be one of grid, zip, lhs, ensemble, got 'random'",
    ]


def test_a_range_of_one_count_from_low_to_high_is_refused_naming_the_value_it_would_drop():
    """``mu_s=0.2:0.8:1`` ran 0.2 only, dropping 0.8 without a word; a range of one value (low = high), a
    list, and a Latin hypercube (which ignores the count) stay accepted."""
    dropping = SweepSpec((Parameter("contacts[tip].mu_s", low=0.2, high=0.8, count=1),))
    assert dropping.problems() == ["parameters[contacts[tip].mu_s].count: 1 runs low = 0.2 only, not high = 0.8: "
                                   "give a count of 2 or more, or the one value as a list"]
    assert SweepSpec((Parameter("a", low=0.5, high=0.5, count=1),)).problems() == []
    assert SweepSpec((Parameter("a", (0.2,)),)).problems() == []
    assert SweepSpec((Parameter("a", low=0.2, high=0.8, count=1),), design="lhs", samples=4).problems() == []


def test_every_variant_is_validated_before_anything_runs(rod):
    spec = SweepSpec((Parameter("contacts[B-ground].mu_s", (0.5, 0.9)), Parameter("contacts[B-ground].e", (0.5, 1.2))))
    with pytest.raises(SweepError) as err:
        build_variants(rod, spec)
    assert err.value.problems[0] == "3 of 4 runs are not valid models; nothing was run:"
    assert ("run 1 (contacts[B-ground].mu_s = 0.5, contacts[B-ground].e = 0.5): contacts[B-ground].mu_d: "
            "must be <= mu_s") in err.value.problems
    assert "run 4 (contacts[B-ground].mu_s = 0.9, contacts[B-ground].e = 1.2): contacts[B-ground].e: must be <= 1" \
        in err.value.problems
    with pytest.raises(SweepError, match=r"contacts\[B-ground\].law: is not a number"):
        build_variants(rod, SweepSpec((Parameter("contacts[B-ground].law", (1.0,)),)))
    with pytest.raises(SweepError, match=r"links\[bar\].mass: no item 'bar' in links"):
        build_variants(rod, SweepSpec((Parameter("links[bar].mass", (1.0,)),)))


def test_variants_apply_fixed_fields_round_integers_and_share_ids_when_equal(rod):
    spec = SweepSpec((Parameter("solver.max_iterations", low=3.0, high=4.0, count=4),),
                     fixed=(("contacts[B-ground].mu_d", 0.5),))
    variants = build_variants(rod, spec)
    assert [v.values["solver.max_iterations"] for v in variants] == [3, 4]   # 3, 3.33, 3.67, 4 rounded, once each
    assert all(v.model["contacts"][0]["mu_d"] == 0.5 for v in variants)
    assert variants[0].values == {"contacts[B-ground].mu_d": 0.5, "solver.max_iterations": 3}
    assert variants[0].run_id == run_id(variants[0].model) and len(variants[0].run_id) == 16
    assert rod["contacts"][0]["mu_d"] == 0.7                                   # the model itself is untouched


def test_a_sweep_may_vary_an_item_of_a_table_and_its_rules_still_hold():
    """A path the sweep dialog offers may end in a list item (a moving load's position table): its variants
    are made and validated whole (a table's times must still increase), never an unexpected error."""
    gear = load_model(examples_dir() / "gear_tooth.json")
    variants = build_variants(gear, SweepSpec((Parameter("moving[mesh-force].position.v[1]", (0.002, 0.003)),)))
    assert [v.model["moving"][0]["position"]["v"][1] for v in variants] == [0.002, 0.003]
    with pytest.raises(SweepError) as err:
        build_variants(gear, SweepSpec((Parameter("moving[mesh-force].position.t[1]", (0.0004, 0.0006)),)))
    assert err.value.problems == ["1 of 2 runs are not valid models; nothing was run:",
                                  "run 2 (moving[mesh-force].position.t[1] = 0.0006): "
                                  "moving[mesh-force].position.t: must increase strictly"]


def ensemble(**kw) -> SweepSpec:
    return SweepSpec(kw.pop("parameters", ()), design="ensemble", samples=kw.pop("samples", 50), seed=kw.pop("seed", 3),
                     perturb=kw.pop("perturb", (("initial_velocities[0].vx", 1e-3), ("initial_velocities[0].vy", 2e-3))),
                     **kw)


def test_an_ensemble_moves_each_perturbed_field_from_the_models_value_within_its_size(rod):
    variants = build_variants(rod, ensemble())
    assert len(variants) == 50  # fifty distinct models, fifty ids
    vx0, vy0 = rod["initial_velocities"][0]["vx"], rod["initial_velocities"][0]["vy"]
    dx = np.array([v.values["initial_velocities[0].vx"] - vx0 for v in variants])
    dy = np.array([v.values["initial_velocities[0].vy"] - vy0 for v in variants])
    assert np.all(np.abs(dx) <= 1e-3) and np.all(np.abs(dy) <= 2e-3)
    assert dx.std() > 2e-4 and dy.std() > 4e-4  # uniform on [-s, s]: std s/sqrt(3)
    assert [v.model["initial_velocities"][0]["vx"] for v in variants] == [vx0 + d for d in dx]
    assert [v.run_id for v in build_variants(rod, ensemble())] == [v.run_id for v in variants]  # seeded
    assert [v.run_id for v in build_variants(rod, ensemble(seed=4))] != [v.run_id for v in variants]


@pytest.mark.parametrize("spec, message", [
    (ensemble(perturb=()), "perturb: an ensemble perturbs at least one field"),
    (ensemble(perturb=(("solver.step", 0.0),)), "perturb[solver.step]: the size must be a finite number > 0"),
    (ensemble(samples=None), "samples: an ensemble needs samples >= 1"),
    (ensemble(parameters=(Parameter("contacts[B-ground].e", (0.5,)),)), "parameters: an ensemble varies no field"),
    (SweepSpec((Parameter("contacts[B-ground].e", (0.5,)),), perturb=(("solver.step", 1e-6),)),
     "perturb: only an ensemble perturbs fields (design is grid)"),
    (ensemble(fixed=(("initial_velocities[0].vx", 1.0),)), "set[initial_velocities[0].vx]: is also varied"),
])
def test_a_bad_ensemble_names_its_field(spec, message):
    assert any(message in p for p in spec.problems())


def test_an_ensemble_round_trips_through_json():
    spec = ensemble(collect=("max(contact/B-ground/F_n)",))
    doc = spec_to_json(spec)
    assert doc["perturb"] == {"initial_velocities[0].vx": 1e-3, "initial_velocities[0].vy": 2e-3}
    assert spec_from_json(doc) == spec


def test_the_spread_of_an_ensemble_is_over_its_completed_runs():
    rows = [{"run": str(k), "status": "completed", "x": 0.1 * k, "peak": float(k), "type": "S", "wall_time_s": 9.0}
            for k in range(1, 21)] + [{"run": "f", "status": "failed", "x": 0.0, "peak": None}]
    (row,) = spread(rows, ["x"])
    assert row["column"] == "peak" and row["runs"] == 20
    assert (row["mean"], row["min"], row["median"], row["max"]) == (10.5, 1.0, 10.5, 20.0)
    assert row["std"] == pytest.approx(np.std(np.arange(1, 21), ddof=1), rel=1e-12)
    assert row["p05"] == pytest.approx(1.95) and row["p95"] == pytest.approx(19.05)
    assert row["std_rel"] == pytest.approx(row["std"] / 10.5)


def _trial_values(spec, value) -> list:
    """Numbers to put at a field: its own, scaled, signs flipped, zero, each bound and just past it,
    beyond the usable magnitude, infinite, and a fraction at an integer field."""
    out = [value, 0.5 * value, -abs(value) - 1.0, 0.0, 1e300, float("inf"), 2.5]
    for bound in (spec.gt, spec.ge, spec.lt, spec.le):
        if bound is not None:
            out += [bound, bound - 1e-9 * (1.0 + abs(bound)), bound + 1e-9 * (1.0 + abs(bound))]
    return [int(round(x)) if spec.integer and np.isfinite(x) and x == round(x) else x for x in out]


def test_a_number_the_schema_accepts_alone_is_what_validating_the_whole_document_finds():
    """The sweeps' quick check of a variant (build_variants: the base validated once, then each varied
    number by number_accepted and the rules across fields) is sound: at fields of every example, set and
    absent with a default, a number makes the whole document pass the schema exactly when number_accepted
    takes it, and the quick check never passes a document validate refuses."""
    rng = np.random.default_rng(28)
    checked = 0
    for path_file in sorted(examples_dir().glob("*.json")):
        doc = load_model(path_file)
        paths = [p for p in numeric_paths(doc) if isinstance(path_keys(doc, p)[-1], str)]  # a field of an object
        paths = [paths[i] for i in rng.choice(len(paths), size=min(4, len(paths)), replace=False)]
        for coll in ("contacts", "links", "joints"):  # fields absent from an item, with their defaults
            for item in doc.get(coll, [])[:1]:
                keys = [coll, doc[coll].index(item)]
                absent = sorted(name for name in _allowed_fields(doc, keys) - set(item)
                                if isinstance(field_at(MODEL, [*keys, name], doc), Num))
                paths += [f"{coll}[{item['id']}].{name}" for name in absent[:2]]
        for path in paths:
            spec = field_at(MODEL, path_keys(doc, path), doc)
            assert _checked_by_numbers(doc, (path,))
            for value in _trial_values(spec, get_path(doc, path, spec.default or 1.0)):
                variant = copy.deepcopy(doc)
                set_path(variant, path, value)
                accepted = number_accepted(spec, value)
                assert accepted == (not schema_problems(variant)), (path_file.stem, path, value)
                if accepted and not semantic_problems(variant):
                    assert validate(variant) == [], (path_file.stem, path, value)
                checked += 1
    assert checked > 1500
