"""The flexible pendulum of Predebon §7 (issue 14): the twelve shipped examples (1, 3, 5
modes and the corotational rod under the three restitution laws) run, keep their
energy balance, and converge towards the corotational rod as modes are added.  The
numbers are those of ``docs/validation.md`` (``tests/benchmarks/pendulum_study.py``)."""
import functools

import numpy as np
import pytest

from solver.api import load_model, simulate
from solver.model.io import dumps_model, examples_dir

from .flexible_pendulum import LAWS, MODELS, contact_inverse_inertia, example_name, measures, pendulum

#: the rigid pendulum_impact example's first (and only) impulse: its time, and D's a
RIGID_IMPACT_S, RIGID_A = 0.152626, 2.9095
#: the first impulse's a = D_nn (1/kg) at the impact: the contact point's mass falls as modes are added
FIRST_A = {"modal1": 7.2723, "modal3": 15.2621, "modal5": 23.0769, "corotational": 214.5364}


@functools.lru_cache(maxsize=None)
def run(model, law, mu=1.0):
    res = simulate(pendulum(model, law, mu))
    assert res.completed, res.meta["message"]
    return res


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("law", LAWS)
def test_shipped_examples_are_the_study_models(model, law):
    """Each example file is the model the study and the tests run."""
    path = examples_dir() / f"{example_name(model, law)}.json"
    assert dumps_model(load_model(path)) == dumps_model(pendulum(model, law))


@pytest.mark.slow
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("law", LAWS)
def test_flexible_pendulum_strikes_and_books_its_energy(model, law):
    """The rod strikes at the rigid pendulum's instant (the rod falls unbent, to 0.1 ms), the
    first impulse sees the contact point's inverse mass of the study (to 1e-3), every
    impulse dissipates by friction (W_t <= 0) and the energetic law's normal impulses do no
    work; kinetic + strain + potential energy with friction and restitution booked stays
    within 0.5 % of the energy in play (the corotational rod: :data:`COROTATIONAL_DRIFT`)."""
    m = measures(run(model, law))
    assert m["start_s"] == pytest.approx(RIGID_IMPACT_S, abs=1e-4)
    assert m["first_a"] == pytest.approx(FIRST_A[model], rel=1e-3)
    impulses = [e for e in run(model, law).events if e["kind"] == "impulse"]
    assert all(e["W_t_J"] <= 1e-12 for e in impulses)
    if law == "energetic":
        assert all(abs(e["W_n_J"]) < 1e-12 for e in impulses)
    assert m["friction_J"] > 0
    assert m["drift_rel"] < (COROTATIONAL_DRIFT if model == "corotational" else 5e-3)


#: the energy balance's drift of the corotational rod, of the energy in play: the trapezoidal rule keeps
#: the energy of a linear system only, and each of the rod's ~200 impulses (a chaotic sequence) excites
#: modes its 0.1 ms step does not resolve; over 10 starts with the surface moved within ±1 µm the drift
#: spans 1.5e-3 ... 1.2e-2 with friction (Newton, Poisson, energetic) and 2.0e-3 ... 8.8e-3 without
#: (docs/validation.md, tests/benchmarks/pendulum_ensemble.py): the bounds 1e-2 and 5e-3 held on the
#: shipped start only
COROTATIONAL_DRIFT = 2e-2
#: the energy balance's drift of the modal rods without friction: 1 and 3 modes at most 1.0e-4, 5 modes
#: 6.2 ± 3.1e-5 [3.5e-5, 1.3e-4] over the same ensemble (1e-4 held on the shipped start only)
MODAL_DRIFT = 3e-4


@pytest.mark.slow
@pytest.mark.parametrize("model", MODELS)
def test_energy_is_conserved_without_friction(model):
    """e = 1 energetic and mu = 0: no law dissipates, so every impulse keeps the kinetic energy
    (to round-off) and the total energy is constant but for the time integration's drift, within
    :data:`COROTATIONAL_DRIFT` and :data:`MODAL_DRIFT` (ensembles of starts: the impulses' sequence
    is chaotic)."""
    res = run(model, "energetic", 0.0)
    m = measures(res)
    assert m["friction_J"] == 0.0 and abs(m["restitution_J"]) < 1e-12
    assert all(abs(e["dT_J"]) < 1e-12 for e in res.events if e["kind"] == "impulse")
    assert m["drift_rel"] < (COROTATIONAL_DRIFT if model == "corotational" else MODAL_DRIFT)


def test_contact_mass_converges_to_the_corotational_rod():
    """The contact-space inverse inertia D at the impact grows monotonically with the number
    of modes from the rigid rod's towards the corotational rod's, and the complete basis of
    the 20-element mesh (60 modes) gives the corotational rod's D exactly (1e-9): the impulse-
    momentum balance over reference and modal coordinates is the finite-element one."""
    a = [contact_inverse_inertia(pendulum("modal1", "energetic", modes=n))[0, 0] for n in (0, 1, 3, 5, 10, 20, 40)]
    assert a[0] == pytest.approx(RIGID_A, rel=1e-4)
    assert np.all(np.diff(a) > 0)
    full = contact_inverse_inertia(pendulum("modal1", "energetic", modes=60))
    np.testing.assert_allclose(full, contact_inverse_inertia(pendulum("corotational", "energetic")), rtol=1e-9)
    assert a[-1] < full[0, 0]


@pytest.mark.slow
@pytest.mark.parametrize("contact", [{"kind": "lagrange"}, {"kind": "compliant", "law": "hertz", "stiffness": 1e8}],
                         ids=["lagrange", "compliant"])
def test_a_modal_rod_strikes_with_the_other_contact_models_and_keeps_its_energy(contact):
    """The 3-mode rod, mu = 0, with the Lagrange-multiplier model (its onset jumps are elastic
    here, e = 1 energetic) and with a Hertz law (K = 1e8 N/m^1.5): the tip strikes, presses
    with a positive force and leaves, and the energy balance holds within 1e-3 of the energy
    in play (docs/validation.md: 2.8e-5 and 4.4e-4)."""
    doc = pendulum("modal3", "energetic", 0.0)
    doc["contacts"][0]["model"] = contact
    doc["solver"]["end_time"] = 0.2
    res = simulate(doc)
    assert res.completed, res.meta["message"]
    kinds = [e["kind"] for e in res.events]
    assert kinds.count("contact_start") >= 1 and kinds.count("separation") == kinds.count("contact_start")
    assert max(float(np.max(f.contact["F_n_N"])) for f in res.frames) > 100.0  # N
    assert min(float(np.min(f.contact["F_n_N"])) for f in res.frames) >= 0.0
    total = res.total_energy()
    assert np.ptp(total) < 1e-3 * float(np.max(res.energy("kinetic") + res.energy("strain")))
