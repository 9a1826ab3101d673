"""The frames' energy terms and contact values gathered at once (``Results.energies``,
``contact_values``) are each frame's, a missing energy term given as asked; the balance adds
the terms in the same order frame by frame."""
from __future__ import annotations

import numpy as np

from solver.results.frames import ENERGY_BALANCE_SIGNS, Frame, Layout, Results
from solver.results.tables import contact_values


def _results(energies: list[dict[str, float]], contacts: list[dict] | None = None) -> Results:
    layout = Layout(nodes=[], rotations=[], elements=[], element_length=np.zeros(0), outer_fibre=np.zeros(0),
                    flexible_links=[], drivers=[])
    empty = np.zeros(0)
    frames = [Frame(time=0.1 * i, node_xy=np.zeros((0, 2)), node_v=np.zeros((0, 2)), node_a=np.zeros((0, 2)), rot=empty,
                    rot_v=empty, rot_a=empty, axial_force=np.zeros((0, 5)), axial_strain=np.zeros((0, 5)),
                    bending_strain=np.zeros((0, 5)), bending_moment=np.zeros((0, 5)), midspan=empty,
                    driver_angle=empty, driver_speed=empty, driver_reaction=empty, energy=energy,
                    contact=(contacts or [{}] * len(energies))[i])
              for i, energy in enumerate(energies)]
    return Results(model={}, layout=layout, frames=frames)


def test_the_terms_of_every_frame():
    results = _results([{"kinetic": 1.5, "strain": 0.25}, {"kinetic": 2.0, "strain": -1.0}])
    np.testing.assert_array_equal(results.energies(["strain", "kinetic"]), [[0.25, 1.5], [-1.0, 2.0]])
    np.testing.assert_array_equal(results.energies(["kinetic"]), [[1.5], [2.0]])
    assert results.energies([]).shape == (2, 0)


def test_a_term_a_frame_lacks_is_the_missing_value():
    results = _results([{"kinetic": 1.5}, {"kinetic": 2.0, "potential": 3.0}])
    np.testing.assert_array_equal(results.energies(["kinetic", "potential"]), [[1.5, np.nan], [2.0, 3.0]])
    np.testing.assert_array_equal(results.energies(["potential"], 0.0), [[0.0], [3.0]])


def test_no_frames_no_rows():
    assert _results([]).energies(["kinetic", "strain"]).shape == (0, 2)


def test_the_balance_adds_the_terms_frame_by_frame_in_order():
    rng = np.random.default_rng(17)
    energies = [{k: float(rng.normal()) for k in ENERGY_BALANCE_SIGNS if rng.random() < 0.8} for _ in range(50)]
    expected = []
    for energy in energies:
        total = 0.0
        for key, sign in ENERGY_BALANCE_SIGNS.items():
            total += sign * energy.get(key, 0.0)
        expected.append(total)
    np.testing.assert_array_equal(_results(energies).total_energy(), expected)  # bit for bit


def test_the_contact_values_of_every_frame_and_pair():
    contacts = [{"gap_m": np.array([1e-3, -2e-4]), "state": np.array([0, 2])},
                {"gap_m": np.array([5e-4, -1e-4]), "state": np.array([1, 2])}]
    frames = _results([{}, {}], contacts).frames
    values = contact_values(frames, ["state", "gap_m"])
    np.testing.assert_array_equal(values["state"], [[0, 2], [1, 2]])
    np.testing.assert_array_equal(values["gap_m"], [[1e-3, -2e-4], [5e-4, -1e-4]])
    np.testing.assert_array_equal(contact_values(frames, ["gap_m"])["gap_m"], values["gap_m"])
    no_pairs = [{"gap_m": np.zeros(0)}] * 3
    assert contact_values(_results([{}] * 3, no_pairs).frames, ["gap_m"])["gap_m"].shape == (3, 0)
