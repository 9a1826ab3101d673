"""Impact-type maps: Routh's closed form over a grid, the paper's boundaries, the
inertia of the system at an instant (LAJSS 2024 §5-6, ``002_…txt``)."""
import csv
import math

import numpy as np
import pytest

from solver.analysis.contact_instant import (ContactInstant, InstantError, instant_at_start, instant_from_event,
                                             instant_in_run)
from solver.analysis.impact_map import INVALID, Axis, MapError, impact_map, write_map_csv
from solver.analysis.isolines import zero_isoline
from solver.api import load_model, simulate
from solver.contact.routh import KINDS, routh_arrays, routh_impulse
from solver.model.io import examples_dir
from solver.model.paths import split_path

ROD_D = [[2.5, -1.5], [-1.5, 2.5]]


@pytest.fixture(scope="module")
def rod_model():
    return load_model(examples_dir() / "rod_impact_rigid.json")


@pytest.fixture(scope="module")
def rod(rod_model):
    """The paper's configuration (§6): D of eq. (59), v = (-1, 0.6), μs 0.73, μD 0.7, e 0.82."""
    return instant_at_start(rod_model, "B-ground")


def test_the_inertia_at_the_start_of_the_rod_example_is_the_papers(rod):
    assert (rod.a, rod.b, rod.c) == pytest.approx((2.5, 2.5, -1.5), abs=1e-9)
    assert (rod.v_n0, rod.v_t0) == pytest.approx((-1.0, 0.6), abs=1e-12)
    assert (rod.mu_s, rod.mu_d, rod.e, rod.law) == (0.73, 0.7, 0.82, "energetic")
    assert rod.mu_c == pytest.approx(0.6, abs=1e-9)


def test_the_instant_of_an_impulse_and_of_a_frame_before_it_agree():
    """Pendulum (Predebon §7): the event log's D against D rebuilt from the last frame
    before the impulse (the configuration moves by less than a step in between)."""
    res = simulate(load_model(examples_dir() / "pendulum_impact.json"))
    event = next(e for e in res.events if e["kind"] == "impulse")
    at_event = instant_from_event(event)
    before = instant_in_run(res, event["contact"], event["time_s"] - 1e-9)
    assert before.time < at_event.time
    assert (before.a, before.b, before.c) == pytest.approx((at_event.a, at_event.b, at_event.c), rel=0.1)
    assert before.v_n0 < 0


def test_a_rigid_links_centre_is_rebuilt_from_its_nodes(rod_model):
    res = simulate(rod_model)
    after = instant_in_run(res, "B-ground", 0.0)     # the frame at t = 0 holds the state after the impulse
    assert (after.a, after.b, after.c) == pytest.approx((2.5, 2.5, -1.5), abs=1e-9)
    assert (after.v_n0, after.v_t0) == pytest.approx((0.588997, 0.0), abs=1e-6)   # Table 1, energetic


def test_bad_instants_are_refused_with_the_reason(rod_model):
    with pytest.raises(InstantError, match=r"contacts\[nope\]: no such contact pair"):
        instant_at_start(rod_model, "nope")
    with pytest.raises(InstantError, match="not an impulse"):
        instant_from_event({"kind": "separation", "time_s": 0.1})
    res = simulate(rod_model)
    end = res.time[-1]
    for t in (-1.0, end + 1.0, float("nan")):  # not the first or the last frame in its stead
        with pytest.raises(InstantError, match=f"the run's frames are from 0 to {end:g} s"):
            instant_in_run(res, "B-ground", t)
    assert instant_in_run(res, "B-ground", end).time == end


# ----------------------------------------------------------------- closed form on arrays
def test_the_array_form_equals_the_checked_scalar_form_for_every_type_and_law():
    """The cases of docs/validation.md (one per type), each law, both signs of t."""
    cases = [(ROD_D, 3.0, 0.73, 0.7), (ROD_D, 0.6, 0.73, 0.7), (ROD_D, 1.3, 0.73, 0.7), (ROD_D, 0.6, 0.5, 0.4),
             (ROD_D, 1.0, 0.5, 0.4), (ROD_D, 0.0, 0.73, 0.7), (ROD_D, 0.0, 0.5, 0.4), ([[1, 2], [2, 5]], 1.0, 0.9, 0.8)]
    for D, v_t0, mu_s, mu_d in cases:
        for law in ("newton", "poisson", "energetic"):
            for sign in (1.0, -1.0):
                D_s = np.array(D, dtype=float) * [[1, sign], [sign, 1]]
                one = routh_impulse(D_s, -1.0, sign * v_t0, mu_s, mu_d, 0.82, law)
                arr = routh_arrays(D_s[0, 0], D_s[1, 1], D_s[0, 1], [-1.0, -2.0], [sign * v_t0, 2 * sign * v_t0],
                                   mu_s, mu_d, 0.82, law)
                assert [KINDS[k] for k in arr.kind] == [one.kind, one.kind]
                # impulses scale with the approach velocity, the type does not change
                assert arr.I_n == pytest.approx([one.I_n, 2 * one.I_n], rel=1e-12)
                assert arr.I_t == pytest.approx([one.I_t, 2 * one.I_t], rel=1e-12, abs=1e-15)
                assert arr.dT[0] == pytest.approx(one.dT, rel=1e-12, abs=1e-15)


def test_the_map_of_an_impulse_a_held_sliding_pair_shared_is_that_impulse():
    """A Lagrange pair held sliding through an impulse makes ``D`` unsymmetric (``c_tn = D[1, 0]`` in the
    event, thesis eqs. 3.22-3.38): the time loop's Routh took both entries, the map's closed form and
    the event's instant only ``c`` (mu_c = 0.05 instead of 0.6: SCS where the impulse was SCD).  The
    map's cells at the event's own parameters are now its impulse, for every type and law."""
    from solver.contact.base import impulse_event

    from .test_routh import D_HELD, UNSYMMETRIC

    for name, (v_t0, mu_s, mu_d, e) in sorted(UNSYMMETRIC.items()):
        for law in ("newton", "poisson", "energetic"):
            one = routh_impulse(D_HELD, -1.0, v_t0, mu_s, mu_d, e, law, symmetric=False)
            event = {"kind": "impulse", "contact": "c", "time_s": 0.1, **impulse_event(one)}
            instant = instant_from_event(event)
            assert instant.mu_c == pytest.approx(0.6)
            m = impact_map(instant, Axis("mu_s", mu_s, mu_s + 0.1, 2), Axis("e", e, 1.0, 2), mu_d_rule="fixed")
            assert m.kind_name(0, 0) == one.kind, (name, law)
            assert m.values["I_n"][0, 0] == pytest.approx(one.I_n, rel=1e-12)
            assert m.values["v_t"][0, 0] == pytest.approx(one.v_t, rel=1e-12, abs=1e-12)


# ----------------------------------------------------------------- isolines
def test_isolines_of_a_circle_lie_on_it():
    x = y = np.linspace(-1, 1, 81)
    X, Y = np.meshgrid(x, y)
    seg = zero_isoline(x, y, X**2 + Y**2 - 0.5**2)
    radius = np.hypot(seg[..., 0], seg[..., 1])
    assert len(seg) > 50
    assert radius == pytest.approx(0.5, abs=2e-3)           # chords of a circle sampled at h = 0.025


def test_a_saddle_cell_gives_two_segments():
    seg = zero_isoline([0.0, 1.0], [0.0, 1.0], np.array([[1.0, -1.0], [-1.0, 1.0]]))
    assert seg.shape == (2, 2, 2)


# ----------------------------------------------------------------- maps
def test_the_rod_map_puts_mu_c_at_0_6_where_the_paper_does(rod):
    """LAJSS §6: μc = 0.6; at the paper's configuration the slip stops in compression
    (I_nh = 0.1846 < I_np = 0.2817), so below μc the type is SCD and above SCS, for every e
    (down to μs = 0.2: without friction the slip stops exactly at the end of compression)."""
    m = impact_map(rod, Axis("mu_s", 0.2, 1.0, 81), Axis("e", 0.0, 1.0, 101))
    x = m.x.values
    names = np.array(KINDS)[m.kind]
    assert (names[:, x < 0.6 - 1e-9] == "SCD").all()
    assert (names[:, x >= 0.6 - 1e-9] == "SCS").all()
    mu_c = m.boundaries["mu_c"]
    assert len(mu_c) == 100                         # one segment per row of cells
    assert mu_c[..., 0] == pytest.approx(0.6, abs=1e-9)        # D of the system: the paper's to 1e-12
    assert len(m.boundaries["I_nh=I_np"]) == len(m.boundaries["I_nh=I_nf"]) == 0
    # the paper's own cell (μs = 0.73, e = 0.82): Table 1's energetic impulses
    j, i = 82, 53
    assert (x[i], m.y.values[j]) == pytest.approx((0.73, 0.82))
    assert m.values["I_n"][j, i] == pytest.approx(0.7681, abs=1e-4)
    assert m.values["I_t"][j, i] == pytest.approx(0.2209, abs=1e-4)
    assert m.values["dT"][j, i] == pytest.approx(-0.0916, abs=1e-4)


def test_a_row_of_cells_is_the_closed_form(rod):
    """The row e = 0.82 of a μs x ratio map, cell by cell against routh_impulse, with μD
    following μs at the model's ratio 0.7/0.73."""
    m = impact_map(rod, Axis("mu_s", 0.05, 1.2, 40), Axis("ratio", 0.0, 3.0, 31), mu_d_rule="ratio")
    D = [[rod.a, rod.c], [rod.c, rod.b]]      # the system's: the paper's to 1e-11
    for j in (0, 6, 13, 30):
        ratio = m.y.values[j]
        for i, mu_s in enumerate(m.x.values):
            one = routh_impulse(D, -1.0, ratio, mu_s, mu_s * 0.7 / 0.73, 0.82, "energetic")
            assert m.kind_name(j, i) == one.kind
            assert m.values["I_n"][j, i] == pytest.approx(one.I_n, rel=1e-12)
            assert m.values["I_t"][j, i] == pytest.approx(one.I_t, rel=1e-12, abs=1e-15)
            assert m.values["friction_dissipation"][j, i] == pytest.approx(one.friction_dissipation, abs=1e-14)
    assert set(m.kinds_present()) == set(KINDS) - {"normal"}  # normal: only without friction and with c = 0


def test_the_boundaries_separate_the_types_they_name(rod):
    """On a μs x angle map each boundary segment lies in a cell whose corners have the
    two types its criterion separates: halting in compression (SC*) / in restitution
    (SR*), and halting / sliding throughout (S)."""
    m = impact_map(rod, Axis("mu_s", 0.0, 1.2, 121), Axis("angle", 1.0, 80.0, 80), law="newton")
    x, y = m.x.values, m.y.values
    separates = {"I_nh=I_np": lambda types: {"SC", "SR"} <= {t[:2] for t in types},
                 "I_nh=I_nf": lambda types: "S" in types and len(types - {"S"}) > 0,
                 "mu_c": lambda types: {"SCS", "SCD"} <= types or {"SRS", "SRD"} <= types}
    for name, check in separates.items():
        seg = m.boundaries[name]
        assert len(seg) > 30
        for mid in seg.mean(axis=1):
            i, j = int(np.searchsorted(x, mid[0])) - 1, int(np.searchsorted(y, mid[1])) - 1
            types = {m.kind_name(j + dj, i + di) for dj in (0, 1) for di in (0, 1)}
            assert check(types), (name, types)


def test_the_fixed_rule_marks_mu_d_above_mu_s_invalid(rod):
    m = impact_map(rod, Axis("mu_s", 0.0, 1.0, 11), Axis("e", 0.0, 1.0, 3), mu_d_rule="fixed")
    assert (m.kind[:, m.x.values < 0.7] == INVALID).all()
    assert np.isnan(m.values["I_n"][:, 0]).all()
    assert "invalid" in m.kinds_present()


def test_the_map_conserves_what_the_closed_form_does(rod):
    """Energetic law: no cell creates energy; the friction work is never positive."""
    m = impact_map(rod, Axis("mu_d", 0.0, 1.5, 60), Axis("angle", -85, 85, 60), law="energetic")
    assert np.nanmax(m.values["dT"]) <= 1e-12
    assert np.nanmin(m.values["friction_dissipation"]) >= -1e-12
    assert np.nanmin(m.values["restitution_dissipation"]) >= -1e-12


def test_bad_maps_are_refused_naming_the_setting(rod):
    with pytest.raises(MapError, match="x axis: unknown quantity 'mu'"):
        impact_map(rod, Axis("mu", 0, 1), Axis("e", 0, 1))
    with pytest.raises(MapError, match="y axis e: must lie in"):
        impact_map(rod, Axis("mu_s", 0, 1), Axis("e", 0, 1.5))
    with pytest.raises(MapError, match="not independent"):
        impact_map(rod, Axis("angle", -10, 10), Axis("ratio", 0, 1))
    with pytest.raises(MapError, match="y axis angle: must lie strictly between"):
        impact_map(rod, Axis("mu_s", 0, 1), Axis("angle", 0, 90))
    with pytest.raises(MapError, match="law: must be one of"):
        impact_map(rod, Axis("mu_s", 0, 1), Axis("e", 0, 1), law="hertz")
    leaving = ContactInstant("B", 0.0, 2.5, 2.5, -1.5, 0.5, 0.0, 0.7, 0.7, 0.8, "newton", "test")
    with pytest.raises(MapError, match="not approaching"):
        impact_map(leaving, Axis("mu_s", 0.7, 1), Axis("e", 0, 1))


def test_the_csv_has_a_row_per_cell_with_units(rod, tmp_path):
    m = impact_map(rod, Axis("mu_s", 0.0, 1.0, 5), Axis("e", 0.5, 1.0, 3))
    write_map_csv(m, tmp_path / "map.csv")
    with open(tmp_path / "map.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 15
    assert list(rows[0])[:4] == ["mu_s", "e", "type", "I_n_N_s"]
    last = rows[-1]
    assert (float(last["mu_s"]), float(last["e"]), last["type"]) == (1.0, 1.0, "SCS")
    assert math.isclose(float(last["I_n_N_s"]), m.values["I_n"][-1, -1], rel_tol=1e-15)


def test_a_compliant_pair_has_no_impulse_types():
    with pytest.raises(InstantError, match=r"contacts\[bore\]: a compliant contact resolves impacts by a force law"):
        instant_at_start(load_model(examples_dir() / "spheres_hertz.json"), "bore")


@pytest.mark.parametrize("contact_id", ["a[b]", '"x"', " edge "])
def test_refusals_name_an_awkward_contact_id_as_a_path_that_reads_back(rod_model, contact_id):
    """An id bare text in brackets would not read back is quoted as the validator quotes it
    (``contacts["a[b]"]``), in the instant's refusals and the map's."""
    def named(exc_info):
        return split_path(str(exc_info.value).split(": ", 1)[0])

    with pytest.raises(InstantError, match="no such contact pair") as missing:
        instant_at_start(rod_model, contact_id)
    model = load_model(examples_dir() / "spheres_hertz.json")
    model["contacts"][0]["id"] = contact_id
    with pytest.raises(InstantError, match="a compliant contact resolves impacts") as compliant:
        instant_at_start(model, contact_id)
    leaving = ContactInstant(contact_id, 0.0, 2.5, 2.5, -1.5, 0.5, 0.0, 0.7, 0.7, 0.8, "newton", "test")
    with pytest.raises(MapError, match="not approaching") as receding:
        impact_map(leaving, Axis("mu_s", 0.7, 1), Axis("e", 0, 1))
    for refusal in (missing, compliant, receding):
        assert named(refusal) == ["contacts", (contact_id,)]
