"""The Lagrange-multiplier contact on the thesis's chapter-5 examples (§5.1.1, §5.1.2, §5.2, §5.5):
wave theory for the bars, the qualitative outcomes of the rod on the floor, both models on the
rotating beam, and the energy the model keeps (docs/validation.md has the tables)."""
import math

import numpy as np
import pytest

from solver.api import load_model, simulate
from solver.model.io import examples_dir

from .test_contact_simulation import striker_velocity

WAVE_DURATION, WAVE_PEAK = 0.30677, 0.21353  # §5.1.1: x_end = 3 + e^-2 / 2 transit times; 0.1 (e^-2 + 2) N
WAVE_REBOUND = 0.2 * math.exp(-(2 + math.exp(-2)) / 2)  # 0.0688 m/s


def example(name, kind="lagrange", **solver):
    doc = load_model(examples_dir() / f"{name}.json")
    for pair in doc["contacts"]:
        pair["model"] = {"kind": kind}
    doc["solver"].update(solver)
    return doc


def force(res, key="F_n_N"):
    return np.array([f.contact[key][0] for f in res.frames])


def first_period(res, before):
    """(onset, release) of the contact period that begins first, closed before ``before`` s."""
    onset = next(e["time_s"] for e in res.events if e["kind"] == "contact_start")
    release = [e["time_s"] for e in res.events if e["kind"] == "separation" and e["time_s"] < before][-1]
    return onset, release


@pytest.fixture(scope="module")
def bar_mass():
    return simulate(load_model(examples_dir() / "bar_mass_impact_lagrange.json"))


def test_bar_struck_by_a_mass_lasts_peaks_and_rebounds_as_wave_theory_says(bar_mass):
    """§5.1.1 with the Lagrange model (tau = 0.51): contact from onset to the force's vanishing
    0.3068 s within 1 %, peak force 0.2135 N within 5 %, the mass leaving at 0.0688 m/s within 2 %."""
    onset, release = first_period(bar_mass, 0.45)
    assert onset == pytest.approx(0.1, abs=1e-6)
    assert release - onset == pytest.approx(WAVE_DURATION, rel=0.01)
    assert force(bar_mass).max() == pytest.approx(WAVE_PEAK, rel=0.05)
    v = bar_mass.stack("node_v")[:, bar_mass.node_index("striker"), 0]
    assert v[np.searchsorted(bar_mass.time, 0.45)] == pytest.approx(WAVE_REBOUND, rel=0.02)
    assert (force(bar_mass) >= 0.0).all()


def test_bar_and_mass_move_together_while_in_contact(bar_mass):
    """The multiplier holds the gap: the struck end and the mass share their velocity (thesis fig. 5.7),
    where the momentum balance lets them part between impulses (fig. 5.6)."""
    t = bar_mass.time
    during = (t > 0.11) & (t < 0.39)
    v = bar_mass.stack("node_v")[:, :, 0]
    end, mass = v[during, bar_mass.node_index("end")], v[during, bar_mass.node_index("striker")]
    assert np.abs(end - mass).max() < 1e-9
    assert (np.array([f.contact["state"][0] for f in bar_mass.frames])[during] == 1).all()


def test_without_numerical_damping_the_contact_keeps_the_energy_apart_from_the_onset_jump():
    """e = 1 (unused by this model), no friction, tau = 0.5: kinetic + strain energy is kept through
    the contact period to 0.5 % once the onset jump's loss (booked as restitution) is added back;
    the mass and the bar meet again after a separation (a second contact period); the peak force is
    within 6 % of wave theory's 0.2135 N (+5.5 %, at the example's impact step, Courant number 0.9; +6.4 %
    before the onset's damped steps, ONSET_STEPS, whose numerical loss is booked as restitution with
    the jump's)."""
    res = simulate(example("bar_mass_impact"))
    E = res.energy("kinetic") + res.energy("strain")
    lost = res.energy("dissipated_restitution")
    assert lost[-1] > 0.0
    assert np.ptp(E + lost) < 5e-3 * E[0]
    assert np.ptp(E + lost) < 1e-8 * E[0]  # in fact to round-off
    onsets = [e["time_s"] for e in res.events if e["kind"] == "contact_start"]
    assert len(onsets) >= 2 and onsets[-1] > 0.45  # the bar's end catches the mass up again
    # the force's peak behind the reflected wave front, +5.5 % (the mesh's dispersion at Courant number 0.9)
    assert force(res).max() == pytest.approx(WAVE_PEAK, rel=0.06)


def test_bar_struck_by_a_mass_at_the_lagrange_impact_step_peaks_within_5_percent():
    """tau = 0.5 and the impact step left to the solver (1 / sqrt(2) of an element's transit): the peak
    behind the reflected front is within 5 % of wave theory's 0.2135 N (+4.0 %; +6.6 % at eq. 3.5's
    0.8 transit with the onset's jump on M alone), the contact lasting 0.3068 s within 2 % (-1.3 %)."""
    res = simulate(example("bar_mass_impact", impact_step=0.0, end_time=0.45))
    assert force(res).max() == pytest.approx(WAVE_PEAK, rel=0.05)
    onset, release = first_period(res, 0.45)
    assert release - onset == pytest.approx(WAVE_DURATION, rel=0.02)


@pytest.fixture(scope="module")
def two_bars():
    doc = example("two_bars_impact")
    return doc, simulate(doc)


def test_two_bars_contact_force_follows_wave_theory(two_bars):
    """§5.1.2: 1.0e6 N within 5 % on 0.05-0.35 ms and 0.85-1.15 ms after onset, below 5 % of it on
    0.45-0.75 ms (the force vanishes while the striker's reflected tension wave passes)."""
    _doc, res = two_bars
    onset = next(e["time_s"] for e in res.events if e["kind"] == "contact_start")
    t = (res.time - onset) * 1e3
    F = force(res) / 1e6
    for a, b in ((0.05, 0.35), (0.85, 1.15)):
        window = F[(t >= a) & (t <= b)]
        assert np.abs(window - 1.0).max() < 0.05
    assert np.abs(F[(t >= 0.45) & (t <= 0.75)]).max() < 0.05


def test_two_bars_contact_force_is_on_the_plateau_from_the_second_step_of_contact(two_bars):
    """Issue 26: the force ringing after the onset jump (on M, thesis §4.7) was 9.3 % above wave
    theory's plateau beyond two wave transits of an element (5 us), read as the step-end multiplier;
    6.7 % as the step's mean multiplier, (1 - tau) lambda_N + tau lambda_N+1.  With the first transit
    taken in three half impact steps, the first damped (ONSET_STEPS): within 4 % (2.5 %) beyond one
    transit to 0.1 ms at the example's impact step (Courant number 0.9); and the event log shows the
    onset impulse (N s) at the onset."""
    _doc, res = two_bars
    onset = next(e for e in res.events if e["kind"] == "contact_start")
    impulse = next(e for e in res.events if e["kind"] == "impulse")
    assert impulse["onset"] is True and impulse["time_s"] == onset["time_s"] and impulse["I_n_N_s"] > 0.0
    transit = (2.0 / 160) / 5000.0  # an element's length over the wave speed, s
    t = res.time - onset["time_s"]
    after = (t > transit) & (t < 1e-4)
    assert np.abs(force(res)[after] / 1e6 - 1.0).max() < 0.04


#: an element's axial transit in the two bars at 40 + 80 elements, s
TRANSIT_40 = (1.0 / 40) / 5000.0


@pytest.fixture(scope="module")
def two_bars_40():
    """The two bars of §5.1.2 at 40 + 80 elements to 0.5 ms, the impact step left to the solver:
    ``(time after onset s, F_n / 1e6 N, events)``."""
    doc = example("two_bars_impact", step=5e-6, impact_step=0.0, end_time=5e-4)
    doc["links"][0]["mesh"]["elements"], doc["links"][1]["mesh"]["elements"] = 80, 40
    res = simulate(doc)
    onset = next(e["time_s"] for e in res.events if e["kind"] == "contact_start")
    return res.time - onset, force(res) / 1e6, res.events


def test_two_bars_lagrange_impact_step_passes_the_unloading_front_without_a_precursor(two_bars_40):
    """Issue 26: the impact step of a Lagrange pair is 1 / sqrt(2) of its struck elements' axial
    transit (eq. 3.6), where the trapezoidal rule's period error cancels the consistent mass's to
    second order.  The force stays within 3 % of wave theory's 1e6 N from 10 transits after onset
    to one transit before the 0.4 ms unloading front (1.7-2.8 %; eq. 3.5's 0.8 transit left a
    precursor of the front 5.5 % over the plateau, 8.4 % at 80 + 160 elements)."""
    t, F, _events = two_bars_40
    window = (t > 10 * TRANSIT_40) & (t < 4e-4 - TRANSIT_40)
    assert np.abs(F[window] - 1.0).max() < 0.03


def test_two_bars_lagrange_force_is_on_the_plateau_one_transit_after_onset(two_bars_40):
    """Issue 26's done-when: from one element transit after onset to one before the 0.4 ms front the
    force is within 5 % of wave theory's plateau (3.5 %, at 1.8 transits; the jump on M alone rang
    9.4 % over it at 2.1 transits), and the onset impulse is in the event log at the onset.  The
    first transit is taken in three half impact steps, the first damped (ONSET_STEPS)."""
    t, F, events = two_bars_40
    window = (t > TRANSIT_40) & (t < 4e-4 - TRANSIT_40)
    assert np.abs(F[window] - 1.0).max() < 0.05
    onset = next(e for e in events if e["kind"] == "contact_start")
    impulse = next(e for e in events if e["kind"] == "impulse")
    assert impulse["onset"] is True and impulse["time_s"] == onset["time_s"]
    # each bar's end has the effective mass sqrt(3) / 6 rho A l on the consistent mass (rho A l = 1 kg here):
    # half of it stops the relative velocity of 10 m/s
    assert impulse["I_n_N_s"] == pytest.approx(math.sqrt(3) / 12 * 10.0, rel=1e-3)


def test_the_shipped_lagrange_two_bars_meet_wave_theory_outside_one_transit_of_each_front():
    """Issue 26's done-when on the shipped example (thesis 5.1.2 with ch. 4's contact, 80 + 160
    elements, the impact step left to the solver): from one element transit after the first step of
    contact to one transit before the 0.4 ms unloading front the force is within 5 % of wave
    theory's 1e6 N (3.9 %), the onset impulse is in the event log, and the striker leaves at 10 m/s
    within 1 % after the second contact period (separations at 0.414 and 1.212 ms)."""
    doc = load_model(examples_dir() / "two_bars_impact_lagrange.json")
    res = simulate(doc)
    onset = next(e for e in res.events if e["kind"] == "contact_start")
    impulse = next(e for e in res.events if e["kind"] == "impulse")
    assert impulse["onset"] is True and impulse["time_s"] == onset["time_s"] and impulse["I_n_N_s"] > 0.0
    transit = (1.0 / 80) / 5000.0  # s
    t = res.time - onset["time_s"]
    first = (t > transit) & (t < 4e-4 - transit)
    assert np.abs(force(res)[first] / 1e6 - 1.0).max() < 0.05
    assert striker_velocity(res, doc) == pytest.approx(10.0, rel=0.01)


def test_two_bars_striker_leaves_at_10_m_s(two_bars):
    doc, res = two_bars
    assert striker_velocity(res, doc) == pytest.approx(10.0, rel=0.01)
    E = res.energy("kinetic") + res.energy("strain") + res.energy("dissipated_restitution")
    assert np.ptp(E) < 5e-3 * E[0]


def rod_floor(vx, mu, kind="lagrange"):
    doc = example("rod_floor_flexible", kind)
    doc["contacts"][0].update(mu_s=mu, mu_d=mu)
    doc["initial_velocities"][0]["vx"] = vx
    return simulate(doc)


FIRST_CONTACT = 7.7e-3  # thesis 5.5: the tip leaves the floor after about 0.77e-2 s


def first_contact_events(res, kinds):
    end = next((e["time_s"] for e in res.events if e["kind"] == "separation"), FIRST_CONTACT)
    return [e for e in res.events if e["kind"] in kinds and e["time_s"] <= end]


def test_rod_on_the_floor_sticks_with_mu_0_8():
    """(v_n, v_t, mu) = (-1, 0, 0.8): the slip stops within the first contact; while it sticks the
    tangential force stays inside the cone |F_t| <= mu F_n and changes its sign (thesis figs. 5.37-5.40)."""
    res = rod_floor(0.0, 0.8)
    assert res.completed
    onset = first_contact_events(res, ("contact_start",))[0]
    assert onset["mode"] == "stick" or first_contact_events(res, ("stick",))
    state, F_n, F_t = force(res, "state"), force(res, "F_n_N"), force(res, "F_t_N")
    sticking = state == 2
    assert sticking.any()
    assert (np.abs(F_t[sticking]) <= 0.8 * F_n[sticking] * (1 + 1e-9)).all()
    sliding = state == 1
    assert np.abs(F_t[sliding]) == pytest.approx(0.8 * F_n[sliding], rel=1e-9, abs=1e-9)
    assert res.energy("dissipated_friction")[-1] > 0.0


def test_rod_on_the_floor_slips_throughout_with_mu_0_7_and_v_t_minus_1():
    """(v_n, v_t, mu) = (-1, -1, 0.7): the slip is never stopped in the first contact; the tip keeps
    slipping in the negative direction, braked by F_t = mu F_n (thesis figs. 5.41-5.46)."""
    res = rod_floor(-1.0, 0.7)
    assert not first_contact_events(res, ("stick",))
    end = next(e["time_s"] for e in res.events if e["kind"] == "separation")
    first = (res.time > 0.0) & (res.time <= end)
    assert (force(res, "v_t_m_s")[first & (force(res, "state") > 0)] < 0).all()
    state = force(res, "state")[first]
    assert (state[state > 0] == 1).all()
    assert force(res, "F_t_N")[first] == pytest.approx(0.7 * force(res, "F_n_N")[first], rel=1e-9, abs=1e-9)


def test_rod_on_the_floor_without_friction_and_with_mu_0_95():
    """mu = 0: no tangential force, and the contact outlasts the force's first fall to near zero
    (fig. 5.33); mu = 0.95 with v_t = -1: a short contact with a high force, then free flight
    (figs. 5.47-5.52)."""
    free = rod_floor(0.0, 0.0)
    assert np.abs(force(free, "F_t_N")).max() == 0.0
    assert free.energy("dissipated_friction")[-1] == 0.0
    onset, release = first_period(free, 1.0)
    high = rod_floor(-1.0, 0.95)
    h_onset, h_release = first_period(high, 1.0)
    slip = rod_floor(-1.0, 0.7)
    assert h_release - h_onset < 0.5 * (release - onset)
    assert force(high).max() > 1.5 * force(slip).max()
    for res in (free, high, slip):
        assert res.energy("dissipated_friction")[-1] >= 0.0


def test_rotating_beam_on_a_stop_with_both_models():
    """§5.2: the two models strike the stop at the same instant and agree on the strain at 0.46 m
    and the root's angular velocity (thesis figs. 5.18-5.21)."""
    runs = {kind: simulate(example("rotating_beam_stop", kind)) for kind in ("impulse", "lagrange")}
    first = {k: next(e["time_s"] for e in r.events if e["kind"] == "contact_start") for k, r in runs.items()}
    assert first["lagrange"] == pytest.approx(first["impulse"], abs=1e-9)
    peaks, omegas = {}, {}
    for kind, res in runs.items():
        assert res.completed
        gauge = next(k for k, (link, idx, *_n) in enumerate(res.layout.elements) if link == "beam" and idx == 9)
        peaks[kind] = np.abs(res.stack("bending_strain")[:, gauge, 0]).max()
        hub = next(i for i, (_n, link) in enumerate(res.layout.rotations) if link == "hub")
        omegas[kind] = np.interp(runs["impulse"].time, res.time, res.stack("rot_v")[:, hub])
    assert peaks["lagrange"] == pytest.approx(peaks["impulse"], rel=0.2)
    assert np.abs(omegas["lagrange"] - omegas["impulse"]).max() < 0.05 * np.abs(omegas["impulse"]).max()


def test_struck_slider_crank_throws_the_block_back_at_almost_40_m_s_with_both_models():
    """§5.4, the block meeting the slider at a crank angle of 270° in the forward stroke (the
    placement that docs/validation.md argues for): both models send it back at 37-40 m/s."""
    for kind in ("impulse", "lagrange"):
        res = simulate(example("slider_crank_block", kind))
        assert res.completed
        onset = next(e["time_s"] for e in res.events if e["kind"] == "contact_start")
        assert onset * 150.0 == pytest.approx(1.5 * math.pi, abs=0.01)
        v_block = res.stack("node_v")[-1, res.node_index("block"), 0]
        assert 36.0 < v_block < 41.0
