"""Model fields named by the validator's paths (``contacts[tip].mu_s``)."""
import doctest

import pytest

from solver.model import paths
from solver.model.io import examples_dir, load_model
from solver.model.paths import PathError, get_path, numeric_field, numeric_paths, set_path, split_path
from solver.model.validate import validate


@pytest.fixture
def rod():
    return load_model(examples_dir() / "rod_impact_rigid.json")


def test_paths_read_and_write_the_fields_the_validator_names(rod):
    assert get_path(rod, "contacts[B-ground].mu_s") == 0.73
    assert get_path(rod, "initial_velocities[0].vx") == 0.6
    assert get_path(rod, "solver.tau") is None
    set_path(rod, "contacts[B-ground].mu_d", 0.8)
    set_path(rod, "solver.tau", 0.6)
    set_path(rod, "links[rod].com.s", 0.4)           # an absent object is created
    assert rod["contacts"][0]["mu_d"] == 0.8 and rod["solver"]["tau"] == 0.6
    assert rod["links"][0]["com"] == {"s": 0.4}
    # the validator names the field the same way
    assert [str(p) for p in validate(rod)] == ["contacts[B-ground].mu_d: must be <= mu_s"]


def test_a_path_may_end_in_an_item_of_a_list_of_numbers():
    """What numeric_paths offers, set_path sets: an item of a moving load's position table."""
    gear = load_model(examples_dir() / "gear_tooth.json")
    path = "moving[mesh-force].position.v[1]"
    assert path in numeric_paths(gear) and not numeric_field(gear, path).integer
    set_path(gear, path, 0.003)
    assert gear["moving"][0]["position"]["v"] == [0.0085, 0.003, -0.001] and get_path(gear, path) == 0.003
    with pytest.raises(PathError, match="does not end in a field of an object or an item of a list"):
        set_path(gear, "moving[mesh-force].position.v[1].x", 1.0)


def test_numeric_fields_carry_their_description(rod):
    assert numeric_field(rod, "solver.max_iterations").integer
    assert numeric_field(rod, "contacts[B-ground].e").le == 1
    assert "contacts[B-ground].mu_s" in numeric_paths(rod)
    assert "version" not in numeric_paths(rod)


@pytest.mark.parametrize("path, message", [
    ("contacts[nope].mu_s", r"contacts\[nope\].mu_s: no item 'nope' in contacts"),
    ("contacts[B-ground].law", "is not a number"),
    ("links[rod].colour", "no such field in the model"),
    ("contacts[B-ground]mu_s", "cannot read the path at 'mu_s'"),
    ("solver[0].step", "'solver' is not a list"),
    ("[0].x", "a path starts with a field name"),
])
def test_bad_paths_say_what_is_wrong(rod, path, message):
    with pytest.raises(PathError, match=message):
        numeric_field(rod, path)


def test_split_path_keeps_ids_and_indices_apart():
    assert split_path("a.b[1].c[x-y]") == ["a", "b", ("1",), "c", ("x-y",)]


@pytest.mark.parametrize("item_id", ["a[b]", "link.1", "a]b", "[x]", ' pad', "pad ", 'a"b', '"q"', "a=b", "a\\b",
                                     "x y", "3"])
def test_every_id_the_validator_accepts_can_be_named_in_a_path(rod, item_id):
    """An id with brackets, quotes, dots or edge spaces: the path numeric_paths writes for its fields
    reads back to that item (quoted as a JSON string where bare text would not)."""
    rod["links"][0]["id"] = rod["initial_velocities"][0]["link"] = item_id
    assert validate(rod) == []
    path = next(p for p in numeric_paths(rod) if p.startswith("links") and p.endswith(".mass"))
    assert split_path(path) == ["links", (item_id,), "mass"]
    set_path(rod, path, 2.5)
    assert rod["links"][0]["mass"] == 2.5 and get_path(rod, path) == 2.5


@pytest.mark.parametrize("item_id", ["a[b]", "a]b", "[x]", ' pad', 'a"b', "x y"])
def test_the_validators_path_of_any_id_can_be_pasted_into_vary(rod, item_id):
    """The validator printed links[a[b]].mass (the id unquoted): a path split_path misreads and --vary
    refused. It quotes an awkward id as the sweeps' paths do (item_label), and --vary takes it as printed."""
    from solver.sweeps import SweepSpec, build_variants, parse_vary

    rod["links"][0]["id"] = rod["initial_velocities"][0]["link"] = item_id
    rod["links"][0]["mass"] = -1.0
    [problem] = validate(rod)
    assert problem.path == f"links{paths.item_label(item_id)}.mass"
    [variant] = build_variants(rod, SweepSpec((parse_vary(f"{problem.path}=2.5"),)))
    assert variant.model["links"][0]["mass"] == 2.5


def test_a_joint_held_twice_is_named_by_a_path_that_reads_back():
    """What a joint holds twice is listed (flexmech validate, the problems panel) at the joint's path: a
    joint 'pin[B]' was named joints[pin[B]], which no path reader finds."""
    from solver.api import joint_problems

    doc = load_model(examples_dir() / "slider_crank_flexible.json")
    doc["joints"].append({"id": "pin[B]", "kind": "slider", "node": "B", "angle": 0.0})  # beside B-slider
    [problem] = joint_problems(doc)
    assert problem.severity == "warning" and problem.path == 'joints["pin[B]"]'
    assert split_path(problem.path) == ["joints", ("pin[B]",)]
    assert "joint 'pin[B]' holds" in problem.message


def test_a_quoted_label_that_is_not_a_json_string_is_named(rod):
    with pytest.raises(PathError, match=r'"a\\q" is not a JSON string'):
        split_path('links["a\\q"].mass')


def test_the_path_examples_hold():
    assert doctest.testmod(paths).failed == 0
