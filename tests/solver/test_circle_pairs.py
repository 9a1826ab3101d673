"""The compiled circle pairs (:mod:`solver.contact.circle_pairs`): a clearance joint's force, Newton
block and state from the kernel are those of the general path (``ContactPair.geometry`` and the
pair's laws in Python, :mod:`solver.contact.compliant`) to the last bit, for every normal law of the
clearance examples, with and without friction, loading and unloading, inside and outside the
circle, and at the touch tolerance; the compiled Newton iterations take the Python loop's steps."""
from __future__ import annotations

import math

import numpy as np
import pytest

from solver.contact.circle_pairs import pack_circle_batch, pack_circle_pair
from solver.contact.circle_pairs import compiled_distance
from solver.contact.tracker import ContactTracker
from solver.model.io import examples_dir, load_model
from solver.system.assembly import Assembly
from solver.system.compile import compile_model
from solver.system.contact_pairs import centre_distance

C_V = 2.0e5  # 1/s, the Newmark velocity factor of a step of 10 µs
FIELDS = ("gap", "v_n", "v_t", "F_n", "F_t", "dF_t")


def clearance_model(name: str, inside: bool = True):
    """The compliant model of a clearance example, its circle pair (``inside`` False: the journal
    outside the bearing's circle instead, as a cylinder on a cylinder) and the run's dof count."""
    doc = load_model(examples_dir() / f"slider_crank_clearance_{name}.json")
    asm = Assembly(compile_model(doc))
    model = ContactTracker(asm, asm.sys.settings).forces
    if not inside:
        model.pairs[0].params["inside"] = False
        model._circles = [pack_circle_pair(model.pairs[0], model.laws[0], model.touch)]
        model._batch = pack_circle_batch(model._circles, model.offsets)
    return model, asm.n


def placed_state(model, n: int, rng: np.random.Generator, inside: bool, depth: float):
    """Positions with the journal ``depth`` (m) into the bearing's wall (or the outer circle) in a
    random direction, random velocities of a few m/s."""
    pair = model.pairs[0]
    q, v = rng.normal(0.0, 0.01, n), rng.normal(0.0, 3.0, n)
    angle = rng.uniform(0.0, 2 * np.pi)
    reach = pair.params["radius"] - pair.radius + depth if inside else pair.params["radius"] + pair.radius - depth
    q[list(pair.point)] = q[list(pair.target)] + reach * np.array([np.cos(angle), np.sin(angle)])
    return q, v


def both_paths(model, q, v):
    """``(F, vals, pair forces)`` of the compiled path and of the general path at ``(q, v)``."""
    compiled = model._circles, model._batch
    fast = (*model.evaluate(q, v, C_V), model.pair_forces(0, q, v))
    model._circles, model._batch = [None], None
    general = (*model.evaluate(q, v, C_V), model.pair_forces(0, q, v))
    model._circles, model._batch = compiled
    return fast, general


def pair_fields(pf) -> list:
    normal = [] if pf.normal is None else [pf.normal.force, pf.normal.dF_ddelta, pf.normal.dF_ddelta_dot,
                                           pf.normal.elastic, pf.normal.valid]
    return [getattr(pf, f) if f != "gap" else pf.geometry.gap for f in FIELDS] + normal


@pytest.mark.parametrize("inside", [True, False])
@pytest.mark.parametrize("name", ["lankarani_nikravesh", "hertz", "dubowsky_freudenstein", "esdu78035",
                                  "friction_010"])
def test_compiled_circle_pair_is_the_general_path_to_the_bit(name, inside):
    model, n = clearance_model(name, inside)
    rng = np.random.default_rng(7)
    model.live[:] = True
    model.trial_rate[:] = 1.3
    for state, unloading in ((0, False), (1, False), (1, True)):
        model.state[:], model.delta_dot_0[:], model.unloading[:] = state, 2.1, unloading
        for depth in (2e-5, 1.5 * model.touch, 0.5 * model.touch):  # in contact, just beyond and within the touch
            (F, vals, fast), (F_ref, vals_ref, ref) = both_paths(model, *placed_state(model, n, rng, inside, depth))
            assert (ref.normal is not None) == (depth > model.touch)
            np.testing.assert_array_equal(F, F_ref)
            np.testing.assert_array_equal(vals, vals_ref)
            assert pair_fields(fast) == pair_fields(ref)
            for key in ("normal", "tangent", "J_local", "touched"):
                np.testing.assert_array_equal(getattr(fast.geometry, key), getattr(ref.geometry, key))


@pytest.mark.parametrize("name", ["lankarani_nikravesh", "hertz", "esdu78035", "friction_010"])
def test_compiled_energy_terms_are_the_python_sums_to_the_bit(name):
    """Friction power, contact damping power and stored energy of the pairs in one compiled pass
    (:func:`solver.contact.circle_pairs.circle_energy_terms`) are the general path's sums, to the
    bit: loading, unloading, just beyond and within the touch tolerance, and open."""
    from solver.system.state import State

    model, n = clearance_model(name)
    rng = np.random.default_rng(11)
    model.trial_rate[:] = 1.3
    for state, unloading in ((0, False), (1, False), (1, True)):
        model.state[:], model.delta_dot_0[:], model.unloading[:] = state, 2.1, unloading
        for depth in (2e-5, 1.5 * model.touch, 0.5 * model.touch, -1e-5):
            q, v = placed_state(model, n, rng, True, depth)
            s = State(0.0, q, v, np.zeros(n), np.zeros(0))
            fast = (model.friction_power(s, None), model.damping_power(s), model.elastic_energy(s))
            assert model._terms[0] is q  # the compiled pass's, kept for the state
            compiled = model._batch
            model._batch = None
            general = (model.friction_power(s, None), model.damping_power(s), model.elastic_energy(s))
            model._batch = compiled
            assert fast == general and (depth <= model.touch or fast[2] > 0.0)


def compliant_model(doc: dict):
    asm = Assembly(compile_model(doc))
    return ContactTracker(asm, asm.sys.settings).forces


def test_only_dry_unworn_circles_are_compiled():
    lubricated = compliant_model(load_model(examples_dir() / "slider_crank_clearance_lubricated.json"))
    assert lubricated._circles == [None] and lubricated.kernel_args() is None  # the film keeps the general path
    doc = load_model(examples_dir() / "slider_crank_clearance_lankarani_nikravesh.json")
    assert compliant_model(doc)._circles[0] is not None and compliant_model(doc).kernel_args() is not None
    doc["joints"][2]["wear"] = {"coefficient": 1e-6, "hardness": 1e9, "bins": 4, "worn_depth": [1e-6] * 4}
    worn = compliant_model(doc)
    assert "worn" in worn.pairs[0].params and worn._circles == [None]  # the worn bore keeps it too


def test_compiled_distance_is_the_python_one_to_the_bit():
    """One formula, ``sqrt(dx² + dy²)``, in both paths: numba neither fuses the products into
    the sum (a fused multiply-add differs in the last bit for many of these) nor calls another square root."""
    rng = np.random.default_rng(3)
    xs = rng.normal(0.0, 1.0, 20000) * 10.0 ** rng.uniform(-8, 3, 20000)
    ys = rng.normal(0.0, 1.0, 20000) * 10.0 ** rng.uniform(-8, 3, 20000)
    pairs = [*zip(xs.tolist(), ys.tolist()), (0.0, -0.0), (3.0, 4.0), (1e-300, 1e-300), (math.inf, 1.0)]
    assert [compiled_distance(x, y) for x, y in pairs] == [centre_distance(x, y) for x, y in pairs]


def test_compiled_iterations_take_the_steps_of_the_python_loop(monkeypatch):
    """The Newton iterations with the contact forces re-evaluated in compiled code
    (``solver.integration.newmark.converge_compliant_step``) give the run of the loop in Python, to the bit:
    the first millisecond of the clearance slider-crank, through its first impacts."""
    from solver.api import simulate
    from solver.contact.compliant import CompliantModel

    doc = load_model(examples_dir() / "slider_crank_clearance_friction_010.json")
    doc["solver"]["end_time"] = 1e-3
    compiled = simulate(doc)
    monkeypatch.setattr(CompliantModel, "kernel_args", lambda self: None)  # the FOLLOWER loop in Python
    python = simulate(doc)
    assert compiled.meta["compliant_contacts"]["B-clearance"]["impacts"] >= 2
    for key in ("steps", "rejected_steps", "factorizations", "newton_iterations"):
        assert compiled.meta[key] == python.meta[key]
    np.testing.assert_array_equal(compiled.time, python.time)
    np.testing.assert_array_equal(compiled.stack("driver_reaction"), python.stack("driver_reaction"))
