"""What a run records of its entities: ``solver.record.links``, ``contacts`` and ``moving``
(the frames keep the chosen ones, the folder holds them, loading and the CSV export read them
back, every node's position stays for playback)."""
from __future__ import annotations

import copy
import csv
import json

import numpy as np
import pytest

from solver.api import load_model, simulate
from solver.model.io import examples_dir
from solver.model.limits import run_size
from solver.model.schema import SOLVER
from solver.model.fields import with_defaults
from solver.model.validate import validate
from solver.results.files import export_csv, load_results, summary_text, write_results
from solver.results.integrity import locate_tables
from tests.solver.test_results_io import assert_results_equal


def _example(name: str, end_time: float, **record) -> dict:
    model = copy.deepcopy(load_model(examples_dir() / f"{name}.json"))
    model["solver"].update(end_time=end_time, record=record)
    return model


def _folder_bytes(folder) -> int:
    return sum(p.stat().st_size for p in folder.iterdir())


def _rows(path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


@pytest.fixture(scope="module")
def four_bar_runs():
    """The flexible four-bar (three flexible links) recording every link, and the coupler only."""
    full = simulate(_example("four_bar_flexible", 0.004))
    coupler = simulate(_example("four_bar_flexible", 0.004, links=["coupler"]))
    return full, coupler


def test_only_the_chosen_links_have_elements_and_mid_span_rows(four_bar_runs):
    full, coupler = four_bar_runs
    assert full.layout.flexible_links == ["crank", "coupler", "follower"] and not full.layout.unrecorded_links
    assert coupler.layout.flexible_links == ["coupler"]
    chosen = [i for i, e in enumerate(full.layout.elements) if e[0] == "coupler"]
    assert coupler.layout.elements == [full.layout.elements[i] for i in chosen]
    last, ref = coupler.frames[-1], full.frames[-1]
    np.testing.assert_array_equal(last.bending_moment, ref.bending_moment[chosen])
    np.testing.assert_array_equal(last.midspan, ref.midspan[[1]])
    # every node is still recorded (playback draws the whole mechanism): the same positions
    assert coupler.layout.nodes == full.layout.nodes and coupler.layout.rotations == full.layout.rotations
    np.testing.assert_array_equal(last.node_xy, ref.node_xy)
    # the other links keep their chains of mesh nodes, first to last, with their fractions of the length
    assert list(coupler.layout.unrecorded_links) == ["crank", "follower"]
    nodes, fractions, ids = full.layout.chains()["follower"]
    assert coupler.layout.unrecorded_links["follower"] == (nodes, fractions.tolist())
    chain, _, none = coupler.layout.chains()["follower"]
    assert chain == nodes and none.size == 0 and fractions[0] == 0.0 and fractions[-1] == pytest.approx(1.0)


def test_a_folder_of_chosen_links_is_smaller_loads_back_and_exports(four_bar_runs, tmp_path):
    full, coupler = four_bar_runs
    write_results(full, tmp_path / "full")
    write_results(coupler, tmp_path / "coupler")
    assert _folder_bytes(tmp_path / "coupler") < _folder_bytes(tmp_path / "full")
    rows = [{table: place.rows for table, place in locate_tables(
        tmp_path / run, json.loads((tmp_path / run / "summary.json").read_text())).items()} for run in ("coupler", "full")]
    share = sum(1 for e in full.layout.elements if e[0] == "coupler") / len(full.layout.elements)
    assert rows[0]["elements"] == share * rows[1]["elements"] > 0
    assert rows[0]["links"] == rows[1]["links"] / 3
    assert rows[0]["nodes"] == rows[1]["nodes"]
    loaded = load_results(tmp_path / "coupler")
    assert_results_equal(loaded, coupler)
    export_csv(tmp_path / "coupler", tmp_path / "csv", ["elements", "links"])
    elements = _rows(tmp_path / "csv" / "elements.csv")
    links = _rows(tmp_path / "csv" / "links.csv")
    assert {row[1] for row in elements[1:]} == {"coupler"} and {row[1] for row in links[1:]} == {"coupler"}
    per_frame = sum(1 for e in full.layout.elements if e[0] == "coupler") * len(full.layout.stations)
    assert len(elements) - 1 == len(coupler.frames) * per_frame


def test_no_links_record_no_element_rows_and_keep_the_nodes(tmp_path):
    results = simulate(_example("slider_crank_flexible", 0.002, links=[]))
    assert results.layout.elements == [] and results.layout.flexible_links == []
    assert results.frames[-1].axial_force.shape == (0, 5) and results.frames[-1].midspan.shape == (0,)
    nodes, _ = results.layout.unrecorded_links["rod"]
    assert nodes[0] == "A" and nodes[-1] == "B" and len(nodes) == 9 and set(nodes) <= set(results.layout.nodes)
    write_results(results, tmp_path)
    assert_results_equal(load_results(tmp_path), results)


def test_a_modal_link_not_recorded_has_no_modes_rows(tmp_path):
    results = simulate(_example("slider_crank_modal", 0.002, links=[]))
    assert results.layout.modes == [] and results.frames[-1].modal_q.shape == (0,)
    assert "rod" in results.layout.unrecorded_links
    write_results(results, tmp_path)
    assert load_results(tmp_path).layout.modes == []


def _two_floors(**record) -> dict:
    """The rod on the floor with a second pair (its top under a ceiling it never reaches)."""
    model = _example("rod_floor_flexible", 0.0012, **record)
    ceiling = copy.deepcopy(model["contacts"][0])
    ceiling.update(id="top-ceiling", point={"node": "top"})
    ceiling["target"].update(y=2.0, angle=np.pi)
    model["contacts"].append(ceiling)
    return model


def test_only_the_chosen_contact_pairs_are_recorded(tmp_path):
    full = simulate(_two_floors())
    floor = simulate(_two_floors(contacts=["tip-floor"]))
    assert full.layout.contacts == ["tip-floor", "top-ceiling"] and floor.layout.contacts == ["tip-floor"]
    for key, values in floor.frames[-1].contact.items():
        np.testing.assert_array_equal(values, full.frames[-1].contact[key][:1])
    # the events of every pair stay in the log (they are few): the run is the same run
    assert [e["kind"] for e in floor.events] == [e["kind"] for e in full.events]
    write_results(floor, tmp_path)
    assert_results_equal(load_results(tmp_path), floor)
    export_csv(tmp_path, tmp_path / "csv", ["contacts"])
    rows = _rows(tmp_path / "csv" / "contacts.csv")
    assert {row[1] for row in rows[1:]} == {"tip-floor"} and len(rows) - 1 == len(floor.frames)


def test_no_contacts_recorded_write_no_contact_rows(tmp_path):
    results = simulate(_two_floors(contacts=[]))
    assert results.layout.contacts == [] and results.frames[-1].contact == {}
    assert results.meta["impact_steps"] > 0  # the contact still acts: only its record is left out
    write_results(results, tmp_path)
    loaded = load_results(tmp_path)
    assert_results_equal(loaded, results)
    header, *rows = _rows(export_csv(tmp_path, tmp_path / "csv", ["contacts"])[0])
    assert header[:3] == ["time_s", "contact", "gap_m"] and rows == []


def test_moving_entries_not_recorded_write_no_moving_rows(tmp_path):
    results = simulate(_example("moving_mass_beam", 0.004, moving=[]))
    assert results.layout.moving == [] and results.frames[-1].moving_s.shape == (0,)
    assert results.frames[-1].moving_force.shape == (0, 2)
    write_results(results, tmp_path)
    assert_results_equal(load_results(tmp_path), results)
    full = simulate(_example("moving_mass_beam", 0.004, moving=["cart"]))
    assert full.layout.moving == ["cart"] and full.frames[-1].moving_s.shape == (1,)


@pytest.mark.parametrize(("record", "said"), [
    ({"links": ["rood"]}, "solver.record.links[0]: no link with id 'rood'"),
    ({"links": ["crank"]}, "solver.record.links[0]: link 'crank' is rigid: it has no elements to record"),
    ({"contacts": ["floor"]}, "solver.record.contacts[0]: no contact pair, clearance joint or slider corner with id 'floor'"),
    ({"moving": ["cart"]}, "solver.record.moving[0]: no moving with id 'cart'"),
])
def test_a_record_naming_what_the_model_lacks_is_refused_at_its_path(record, said):
    model = _example("slider_crank_flexible", 0.002, **record)
    assert said in [str(p) for p in validate(model)]


def test_a_clearance_joint_is_a_contact_pair_to_record():
    assert validate(_example("slider_crank_clearance_hertz", 0.001, contacts=["B-clearance"])) == []


def test_the_memory_estimate_counts_the_stations_of_recorded_links_only():
    model = _example("four_bar_flexible", 0.004)
    size = run_size(model, with_defaults(SOLVER, model["solver"]))
    model["solver"]["record"]["links"] = []
    assert run_size(model, with_defaults(SOLVER, model["solver"])).element_bytes == 0.0 < size.element_bytes


def test_a_folder_whose_unrecorded_link_names_a_missing_node_is_refused(tmp_path):
    from solver.errors import ResultsFormatError

    write_results(simulate(_example("slider_crank_flexible", 0.001, links=[])), tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    summary["layout"]["unrecorded_links"]["rod"]["nodes"][1] = "rod.99"
    (tmp_path / "summary.json").write_text(summary_text(summary), encoding="utf-8")  # its hash made again
    with pytest.raises(ResultsFormatError, match=r"unrecorded_links name nodes that are not in nodes: \['rod.99'\]"):
        load_results(tmp_path)


@pytest.mark.parametrize("name, end_time", [("two_bars_impact", 3e-4), ("bar_mass_impact", 0.2),
                                               ("bar_mass_impact_lagrange", 0.2)])
def test_the_axial_impact_examples_record_one_station_and_lose_nothing(name, end_time):
    """The bars struck along their axis (thesis 5.1.1, 5.1.2) record each element's middle only:
    with the default five stations every station of an element holds the same axial strain and
    force, and the bending moment is zero, over the first part of the impact, so the one station
    is all there is."""
    model = load_model(examples_dir() / f"{name}.json")
    assert model["solver"]["record"] == {"element_stations": [0.5]}
    model["solver"]["end_time"] = end_time
    one = simulate(model)
    del model["solver"]["record"]
    five = simulate(model)
    assert five.layout.stations == (0.0, 0.25, 0.5, 0.75, 1.0) and one.layout.stations == (0.5,)
    for field in ("axial_strain", "axial_force"):
        values = five.stack(field)
        assert np.abs(values).max() > 0
        assert np.array_equal(values, np.repeat(values[:, :, 2:3], 5, axis=2)), field
        assert np.array_equal(one.stack(field)[:, :, 0], values[:, :, 2]), field
    assert not np.any(five.stack("bending_moment"))
    bending = five.stack("bending_strain")  # zero, or unknown (nan) for a section without an outer fibre
    assert np.all(np.isnan(bending)) or not np.any(bending)
