"""Defects the generated models of :mod:`.generated` found, each kept as its smallest model."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from solver.api import simulate
from solver.results.frames import frame_energies

from .found_defects import FIXED_MODELS, FOUND_DEFECTS, OPEN_DEFECTS
from .runs import balance_rise, energy_in_play, peak_contact_force, run, term_history
from .test_balance import check_balance
from .transform import mirrored, rotated


def _two_lagrange_pairs() -> dict:
    """A flexible link turning onto the ground while a block lands beside it, both pairs Lagrange
    with friction: the link's tip sticks (a second row) while the block's pair is closed.  Drawn
    with omega = -10 about the link's centre, which the consistent initial velocity then turned
    into -9.782 about the pin; a stated rate is kept now, so the model states that start."""
    friction = {"mu_s": 0.2, "mu_d": 0.2, "model": {"kind": "lagrange"}}
    return {
        "format": "flexmech", "version": 1,
        "nodes": [{"id": "n0", "x": 0.0, "y": 0.0}, {"id": "n1", "x": 0.3, "y": 0.0}],
        "links": [{"id": "link0", "nodes": ["n0", "n1"], "kind": "flexible", "mesh": {"elements": 4},
                   "section": {"kind": "per_length", "EA": 2e5, "EI": 50.0, "rhoA": 2.0, "c": 0.01}}],
        "joints": [{"id": "pivot", "kind": "ground", "node": "n0"}],
        "bodies": [{"id": "body", "kind": "rigid", "x": 1.0, "y": -0.087848989, "mass": 0.05, "inertia": 2.5e-06,
                    "radius": 0.01}],
        "contacts": [{"id": "tip-ground", "point": {"node": "n1"},
                      "target": {"kind": "ground_line", "y": -0.0024765267587520206}, **friction},
                     {"id": "body-ground", "point": {"body": "body"}, "target": {"kind": "ground_line", "y": -0.1},
                      **friction}],
        "initial_velocities": [{"body": "body", "vx": -0.039216, "vy": -0.5, "omega": 5.0},
                               {"link": "link0", "omega": -9.78234582829504}],  # the start the old rule gave -10
        "solver": {"end_time": 0.006, "step": 0.0005},
    }


def test_a_lagrange_pair_switching_before_another_reads_its_own_rows():
    """Two Lagrange pairs closed at once, the first sticking or slipping at the end of a step:
    the second read its normal force at the row it would have after the switch (before: an
    IndexError, a bug; the pairs are now switched from the last: with the old order this model
    still stops with the IndexError)."""
    results = simulate(_two_lagrange_pairs())
    assert results.meta["status"] == "completed", results.meta.get("message")
    kinds = {(e["contact"], e["kind"]) for e in results.events}
    assert {("tip-ground", "stick"), ("tip-ground", "slip"), ("body-ground", "contact_start")} <= kinds



@pytest.mark.parametrize("doc", FIXED_MODELS[:2], ids=["sliding", "landing"])
def test_a_lagrange_pair_carrying_no_load_stays_closed(doc):
    """A body thrown onto a ground line without gravity stops on it (the onset leaves it
    sticking) and rests there, its pair carrying no load: its multipliers are round-off (1e-21
    N), within the pair's resolution ``m tol_g / (nu h^2)`` (0.04 N here), so they neither
    release nor slip it, and the model's energy of 1e-23 J, round-off too, is no spurious root
    (before: released and closed again every nanosecond until Newton failed at 1.62 ms; a Newton
    failure at 8.17 ms after 20 contacts)."""
    results = run(doc)
    check_balance(results, doc)
    assert [e["kind"] for e in results.events] == ["contact_start", "impulse"]


@pytest.mark.parametrize("doc", FIXED_MODELS[2:5], ids=["tip-stick-slip", "stiff-chain", "stated-rate"])
def test_lagrange_friction_only_dissipates_across_slip_reversals(doc):
    """A flexible chain's tip sticking and slipping on the ground while a block strikes the
    chain: the ledger's friction term never falls (before: by 0.087 J, 0.0034 J and 2.7e-4 J,
    5.6e-2, 2.2e-3 and 1.8e-4 of the energy in play): a slip's end is located where its velocity
    returns to zero, within the rows' velocity resolution (the third, started at its stated
    rate: the retakes ran out with the slip reversed by 0.028 m/s, and the stick's first step
    booked friction pushing along the slip), a slip from rest that went against its direction
    sticks, and one the block's onset impulse reversed turns at once.  Measured over eight
    starts 1e-9 apart: at most 4.8e-9, 6.8e-9 and 1.4e-8 of the energy in play."""
    results = run(doc)
    check_balance(results, doc)
    friction = term_history(results, "dissipated_friction")
    assert np.max(np.maximum.accumulate(friction) - friction) <= 1e-6 * energy_in_play(results)


def test_a_lagrange_pair_sliding_past_a_kink_of_its_link_target_keeps_its_gap():
    """A disc struck on the side of an 8-element cantilever (Lagrange, mu 0.3) slides past the
    node between segments 5 and 6 at 24.4 ms, a concave kink where the next segment's line is
    0.95 um nearer than the rows' (about ``r theta^2 / 2``).  The rows keep their segment's line
    within a step and the next step's carry the gap over: the run completes without creating
    energy (balance within 3.9e-4 of the energy in play), friction only dissipates, and what it
    dissipates and what is left in the beam and disc are within 5 % of the run at half the step
    (0.06566 against 0.06705 J, 0.3976 against 0.3863 J; five starts 1e-9 m apart: within 1 %).
    Before, Newton's iterates handed the rows to segment 6 mid-step with the old gap held: the
    position row closed 0.95 um within the step whatever its length, and the run stopped at
    24.4 ms, 'the energy jumped in one step' at every cut down to 1.3 ns."""
    doc = FIXED_MODELS[5]
    results = run(doc)
    check_balance(results, doc)
    finer = copy.deepcopy(doc)
    finer["solver"]["step"] = 0.5 * doc["solver"]["step"]
    reference = run(finer)
    ends = [frame_energies(r.frames)[-1] for r in (results, reference)]
    friction = term_history(results, "dissipated_friction")
    assert friction[-1] > 0.0 and np.all(np.diff(friction) >= -1e-6 * energy_in_play(results))
    left = [e["kinetic"] + e["strain"] for e in ends]
    assert left[0] == pytest.approx(left[1], rel=0.05)
    assert ends[0]["dissipated_friction"] == pytest.approx(ends[1]["dissipated_friction"], rel=0.05)


def test_a_failure_with_a_lagrange_pair_closed_names_it_and_what_to_try():
    """The run a user sees fail (``flexmech run`` and the window print ``meta["message"]``) names
    the Lagrange pairs closed at its last state, their modes, and the advice to halve the step or
    refine the link's mesh (the struck cantilever, its Newton held to 2 iterations and no cut: it
    stops on the first step after the onset at 1 ms; before, the message named no pair)."""
    doc = copy.deepcopy(FIXED_MODELS[5])
    doc["solver"].update(max_iterations=2, max_step_cuts=0, end_time=0.0015)
    message = run(doc).meta["message"]
    assert message.startswith("stopped at t = 0.001 s")
    assert "Lagrange contact 'disc-beam' (sliding) was closed" in message and "halve solver.step" in message


def test_a_rigid_rod_lying_on_two_lagrange_pairs_slides_to_rest():
    """The trust hunt's rod thrown along the floor, both ends Lagrange pairs: as the ends stick
    their rows hold its one sliding motion twice, solved now for the multipliers of least norm
    (before: SolverError 'the contact constraints are redundant'); it balances, and friction takes
    all of its kinetic energy (the physics: ``tests/solver/test_lagrange_redundant_rows.py``)."""
    doc = next(d["model"] for d in FOUND_DEFECTS if "rigid rod lying flat" in d["reason"])
    results = run(doc)
    check_balance(results, doc)
    assert term_history(results, "dissipated_friction")[-1] == pytest.approx(0.5 * 1.0 * 0.8 ** 2, rel=1e-6)


@pytest.mark.parametrize("moved", ["drawn", "turned and mirrored"])
def test_a_disc_rolls_over_the_nodes_of_a_modal_bridge_without_slip_or_energy_jumps(moved):
    """A disc (1 kg, r = 50 mm) rolling at 1 m/s onto a soft modal bridge (2 m, 3 pinned modes of an
    8-element mesh, EI = 50 N m^2) crosses its mesh nodes at 0.197 and 0.424 s.  It rolls on the
    deformed mesh elements (as on a flexible link): kinetic + strain + gravity energy within 2e-5 J of
    its 0.75 J (measured 5.9e-6), no step raising it by 1e-6 J (2.3e-7), the slip below 1e-8 m/s at
    every step (9.8e-10), and the disc's speed at 0.45 s 1.15856 m/s within 1e-4 (16 mesh elements:
    1.158551, half the step: 1.158514); turned by 0.6 rad and mirrored, the same.  Before, it rolled
    on the straight segments between the nodes, where the deformed link kinks: the rows' gap jumped by
    about ``r theta^2 / 2`` when Newton's iterates handed them to the next segment, the disc slipped at
    1.8e-4 m/s and the energy rose by 2.7e-4 J in one step (4.3e-4 J by 0.45 s)."""
    doc = next(d["model"] for d in FOUND_DEFECTS if "soft pinned-roller modal bridge" in d["reason"])
    if moved != "drawn":
        doc = mirrored(rotated(doc, 0.6))
    results = run(doc)
    assert results.meta["status"] == "completed", results.meta.get("message")
    assert [e["kind"] for e in results.events] == ["contact_start"]
    E = np.array([f.energy["kinetic"] + f.energy["strain"] + f.energy["potential"] for f in results.frames])
    assert np.abs(E - E[0]).max() < 2e-5 and np.diff(E).max() < 1e-6
    assert max(abs(f.contact["v_t_m_s"][0]) for f in results.frames) < 1e-8
    disc = results.node_index("disc")
    assert float(np.hypot(*results.frames[-1].node_v[disc])) == pytest.approx(1.15856, abs=1e-4)


@pytest.mark.parametrize("moved", ["drawn", "turned and mirrored"])
def test_a_compliant_disc_sliding_over_the_nodes_of_a_sagging_bridge_feels_no_kinks(moved):
    """A disc (1 kg, r = 50 mm) sliding without friction at 1 m/s along a soft flexible bridge (2 m,
    8 elements, EI = 50 N m^2), a compliant pair (Hunt-Crossley, K = 1e7 N/m^1.5), crosses its nodes at
    0.195 and 0.411 s.  It touches the deformed elements: its largest normal force 15.3 N within 5 %
    (measured 15.07 N; 16 elements 15.34 N, half the step 15.65 N), turned by 0.6 rad and mirrored the
    same, and the balance holds.  Before, it touched the straight segments between the nodes and struck
    each concave kink of the sagging link: 54 N at 0.195 s, 141 N at 0.411 s (43 N with 16 elements)."""
    doc = next(d["model"] for d in FOUND_DEFECTS if "soft sagging flexible bridge" in d["reason"])
    if moved != "drawn":
        doc = mirrored(rotated(doc, 0.6))
    results = run(doc)
    check_balance(results, doc)
    assert peak_contact_force(results) == pytest.approx(15.3, rel=0.05)


#: the block's pair of the model of :func:`test_a_slip_an_impulse_would_turn_sticks_before_it`: as drawn (a
#: Lagrange onset), and a momentum-balance pair striking at e = 0.5 and 1 (before: friction fell by 1.3e-2 and
#: 4.9e-2 of the energy in play, W_held_friction_J up to 0.12 J)
STRIKES = {"onset": {"model": {"kind": "lagrange"}}, "impulse e=0.5": {"model": {"kind": "impulse"}, "e": 0.5},
           "impulse e=1": {"model": {"kind": "impulse"}, "e": 1.0}}


@pytest.mark.parametrize("moved", ["drawn", "turned and mirrored"])
@pytest.mark.parametrize("strike", STRIKES)
def test_a_slip_an_impulse_would_turn_sticks_before_it(strike, moved):
    """A block thrown at a flexible link whose tip slides on a ground segment under a Lagrange pair (mu =
    0.5): the block's impulses would turn the tip's slip, whose friction, held along the old slip for the
    whole impulse (eq. 4.17), pushed it on past rest.  The tip now sticks first, its slip stopped by
    friction's impulse, and the impulse acts on it held at rest: the ledger's friction term never falls by
    1e-6 of the energy in play (measured 1.3e-10 to 3.5e-9; before, as drawn it fell by 0.0044 J, 1.8e-3,
    at 3.628 ms), the balance holds, and the friction taken is within 5 % of half the step's (as drawn
    0.0719 J against 0.0699 J; struck at e = 1, 0.1251 J against 0.1256 J)."""
    doc = copy.deepcopy(next(d["model"] for d in FOUND_DEFECTS if "onset impulse turned the tip's slip" in d["reason"]))
    doc["contacts"][0].update(STRIKES[strike])
    if moved != "drawn":
        doc = mirrored(rotated(doc, 0.6))
    results = run(doc)
    check_balance(results, doc)
    friction = term_history(results, "dissipated_friction")
    assert np.max(np.maximum.accumulate(friction) - friction) <= 1e-6 * energy_in_play(results)
    turned = [e for e in results.events if e.get("cause") == "its slip turned by an impulse"]
    assert turned and all(e["kind"] == "stick" and e["W_t_J"] <= 0.0 for e in turned)
    finer = copy.deepcopy(doc)
    finer["solver"]["step"] = 0.5 * doc["solver"]["step"]
    assert friction[-1] == pytest.approx(term_history(run(finer), "dissipated_friction")[-1], rel=0.05)


@pytest.mark.parametrize("moved", ["drawn", "turned and mirrored"])
def test_a_held_pair_an_impulse_would_pull_is_released_before_it(moved):
    """A rigid double pendulum's tip lands on the ground (a frictionless Lagrange pair) at the instant a block
    touches its outer link (a Lagrange pair, mu = 0.5): the tip's onset impulse would pull the block's held
    row, whose friction, ``-mu sigma`` times that tensile impulse, pushed along the slip (before: friction fell
    by 0.108 J at 1.8088 ms).  The block's pair is released first, the unilateral contact parting (4.1): friction
    never falls, the balance holds, and the friction taken, 0.37610 J, is half the step's to 1e-5."""
    doc = next(d["model"] for d in FOUND_DEFECTS if "pulled that row" in d["reason"])
    if moved != "drawn":
        doc = mirrored(rotated(doc, 0.6))
    results = run(doc)
    check_balance(results, doc)
    friction = term_history(results, "dissipated_friction")
    assert np.all(np.diff(friction) >= -1e-9 * energy_in_play(results))
    pulled = [(e["contact"], round(e["time_s"], 7)) for e in results.events if e.get("cause") == "pulled by an impulse"]
    assert pulled == [("body-link", 0.0018088)]
    finer = copy.deepcopy(doc)
    finer["solver"]["step"] = 0.5 * doc["solver"]["step"]
    assert friction[-1] == pytest.approx(term_history(run(finer), "dissipated_friction")[-1], rel=1e-5)


def test_an_onset_the_joints_velocities_part_takes_no_jump():
    """A block on a rigid chain's first link (a frictionless Lagrange pair), released at 2.0016 ms, comes back
    within TOL at 2.0764 ms approaching at 2.1e-5 m/s, but the velocities the joints allow, from which the onset
    jump starts (4.7), part it at 7.4e-5 m/s: no onset there (before: Routh's method was asked for the impulse of
    points that part, and simulate raised ValueError, an unexpected error to the user); the run completes and
    balances."""
    doc = next(d["model"] for d in FOUND_DEFECTS if "the velocities the joints allow" in d["reason"])
    results = run(doc)
    check_balance(results, doc)
    assert not [e for e in results.events if e["contact"] == "body-link" and 0.002 < e["time_s"] < 0.0021
                and e["kind"] == "contact_start"]


#: the models whose damped onset step created energy (found_defects.json)
ONSET_STEP_MODELS = [d["model"] for d in FOUND_DEFECTS if "damped step after each onset" in d["reason"]]


@pytest.mark.parametrize("doc", ONSET_STEP_MODELS, ids=["four-bar", "two-element-link", "tip-landing"])
def test_the_damped_step_after_a_lagrange_onset_on_a_flexible_link_creates_no_energy(doc):
    """A block striking a four-bar's flexible link, a block striking a chain's two-element link, a flexible link's tip
    landing on the ground: the damped first step of ONSET_STEPS dissipates Newmark's algorithmic energy, and from
    the consistent accelerations after an onset, which fall within the step, it raised the kinetic and strain energy
    (before: by 0.106, 0.665 and 0.206 of the energy in play; 0.106, 0.079 and 0.122 at a quarter of the step).  From
    an acceleration of zero it starts at ``T + U``, which then cannot rise: the balance rises by less than 1e-2 of
    the energy in play at the step and at a quarter of it (measured 4.2e-3, 1.8e-3 and 9e-4)."""
    finer = copy.deepcopy(doc)
    finer["solver"]["step"] = doc["solver"]["step"] / 4
    for model in (doc, finer):
        results = run(model)
        check_balance(results, model)
        assert balance_rise(results) < 1e-2


@pytest.mark.parametrize("moved", ["drawn", "turned and mirrored"])
def test_a_drivers_impulse_does_work_the_ledger_books(moved):
    """A speed driver turns a rigid double pendulum's first link while its tip strikes the ground and a block its
    first link (momentum-balance pairs): each strike is met by the driver's impulse, which holds the driven speed
    and so does work, ``Y f'(t)``.  It is booked as the drivers' work and logged as the impulse's ``W_drivers_J``
    (before: not booked, the balance rose by +0.033 J at each of the tip's strikes, 0.0914 of the energy in play,
    0.0886 at a quarter of the step): the balance now rises by less than 1e-2 (measured 5.2e-3), and the drivers'
    impulses did 0.181 J through the 58 strikes."""
    doc = next(d["model"] for d in FOUND_DEFECTS if "a speed driver turns" in d["reason"])
    if moved != "drawn":
        doc = mirrored(rotated(doc, 0.6))
    results = run(doc)
    check_balance(results, doc)
    assert balance_rise(results) < 1e-2
    works = [e.get("W_drivers_J", 0.0) for e in results.events if e["kind"] == "impulse"]
    assert len(works) == 58 and sum(works) == pytest.approx(0.18117, rel=1e-4)


@pytest.mark.parametrize("defect", OPEN_DEFECTS, ids=[f"open{i}" for i in range(len(OPEN_DEFECTS))])
@pytest.mark.xfail(strict=True, reason="open (issue 26): a model the solver fails on (found_defects.json)")
def test_an_open_defect_still_fails(defect):
    """Each open model of ``found_defects.json`` still fails the balance oracle as its reason
    says (strict: a fix shows as a pass, and the model is then marked fixed)."""
    check_balance(run(defect["model"]), defect["model"])
