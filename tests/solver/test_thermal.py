"""Free (thermal and creep) strains of flexible links: expansion, restraint, bending, energy."""
import math

import numpy as np
import pytest

from solver.analysis.static import static_equilibrium
from solver.api import simulate
from solver.model.validate import validate
from solver.results.series import catalogue
from solver.system.assembly import Assembly
from solver.system.compile import compile_model

from .builders import beam_model

ALPHA, E, RHO = 1.2e-5, 2e11, 7800.0


def heated_bar(n=8, clamp_tip=False, shear=False, formulation="consistent", **link):
    """A steel bar 1 m long, 20 x 10 mm (h = 10 mm in the plane), clamped at the root."""
    doc = beam_model(L=1.0, n=n, solver={"formulation": formulation})
    doc["materials"] = [{"id": "steel", "E": E, "density": RHO, "expansion": ALPHA}]
    doc["links"][0]["section"] = {"kind": "rectangle", "material": "steel", "b": 0.02, "h": 0.01, "shear": shear}
    doc["links"][0]["free_strains"] = link
    if clamp_tip:
        doc["joints"].append({"id": "clamp-tip", "kind": "fixed", "node": "tip"})
    return doc


@pytest.mark.parametrize("formulation", ["consistent", "thesis"])
@pytest.mark.parametrize("shear", [False, True])
def test_a_free_bar_grows_by_alpha_dT_L_without_force_or_energy(formulation, shear):
    dT = 150.0
    eq = static_equilibrium(heated_bar(temperature_change=dT, shear=shear, formulation=formulation), load_steps=1)
    assert eq.node_xy("tip")[0] == pytest.approx(1.0 + ALPHA * dT, rel=1e-13)
    assert abs(eq.node_xy("tip")[1]) < 1e-15
    assert eq.asm.strain_energy(eq.q, 0.0) < 1e-20


@pytest.mark.parametrize("formulation", ["consistent", "thesis"])
def test_a_bar_clamped_at_both_ends_carries_EA_alpha_dT(formulation):
    dT = 80.0
    asm = Assembly(compile_model(heated_bar(clamp_tip=True, temperature_change=dT, formulation=formulation)))
    q = asm.sys.q0  # held: the sketched configuration is the equilibrium
    f = asm.forces(q, 0 * q, 0 * q, 0.0).internal
    EA = E * 0.02 * 0.01
    tip = asm.sys.node_dofs[asm.sys.node_ids.index("tip")]
    assert f[tip[0]] == pytest.approx(-EA * ALPHA * dT, rel=1e-13)  # the bar pushes the wall out
    root = asm.sys.node_dofs[asm.sys.node_ids.index("root")]
    assert f[root[0]] == pytest.approx(EA * ALPHA * dT, rel=1e-13)
    # the axial force output is the compression -EA alpha dT; its elastic strain -alpha dT
    doc = heated_bar(clamp_tip=True, temperature_change=dT, formulation=formulation)
    doc["solver"].update(end_time=1e-4, step=1e-4)
    res = simulate(doc)
    np.testing.assert_allclose(res.frames[-1].axial_force, -EA * ALPHA * dT, rtol=1e-9)
    np.testing.assert_allclose(res.frames[-1].axial_strain, -ALPHA * dT, rtol=1e-9)
    assert res.frames[-1].energy["strain"] == pytest.approx(0.5 * EA * (ALPHA * dT) ** 2 * 1.0, rel=1e-9)


@pytest.mark.parametrize("shear", [False, True])
def test_a_free_beam_with_a_through_depth_gradient_bends_to_alpha_dT_prime(shear):
    """Curvature alpha dT' exactly: the tip section turns by alpha dT' L, the elastic bending
    strain is zero everywhere, and the nodes lie on the arc of that curvature."""
    grad = 2000.0  # K/m: 20 K across the 10 mm depth
    kappa = ALPHA * grad
    eq = static_equilibrium(heated_bar(n=10, temperature_gradient=grad, shear=shear), load_steps=1)
    assert eq.rotation("tip", "beam") == pytest.approx(kappa * 1.0, rel=1e-12)
    x, y = eq.node_xy("tip")
    assert x == pytest.approx(math.sin(kappa) / kappa, abs=1e-12)
    assert y == pytest.approx((1 - math.cos(kappa)) / kappa, rel=1e-9)
    EI = E * 0.02 * 0.01**3 / 12
    assert eq.asm.strain_energy(eq.q, 0.0) < 1e-12 * 0.5 * EI * kappa**2  # round-off of the bending energy held
    for e in range(eq.asm.sys.beams.count):
        dofs = eq.asm.sys.elem_dofs[e]
        tb = eq.q[dofs[5]] - eq.q[dofs[2]]
        assert tb == pytest.approx(kappa * 0.1, rel=1e-10)


def test_a_temperature_ramp_on_a_held_bar_stores_the_work_of_the_free_strains():
    """A clamped-clamped bar heated slowly: the strain energy 1/2 EA L (alpha dT)^2 comes from
    the free strains' work (energy ledger), and the elastic and free strains are reported apart."""
    dT = 50.0
    doc = heated_bar(clamp_tip=True, temperature_change=dT,
                     temperature_function={"kind": "ramp", "t0": 0.0, "t1": 0.01, "v0": 0.0, "v1": 1.0})
    doc["solver"].update(end_time=0.02, step=2e-4)
    res = simulate(doc)
    assert res.completed
    EA = E * 0.02 * 0.01
    U = 0.5 * EA * (ALPHA * dT) ** 2
    last = res.frames[-1].energy
    assert last["strain"] == pytest.approx(U, rel=1e-9)
    assert last["work_free_strains"] == pytest.approx(U, rel=1e-3)
    assert np.ptp(res.total_energy()) < 1e-3 * U
    series = catalogue(res)
    free = series["strain/beam/0/0.5/axial_free"]
    elastic = series["strain/beam/0/0.5/axial"]
    assert free.value(res.frames[-1]) == pytest.approx(ALPHA * dT, rel=1e-12)
    assert elastic.value(res.frames[-1]) == pytest.approx(-ALPHA * dT, rel=1e-9)


def test_a_creep_strain_history_acts_like_eq_11s_eps_c():
    """A prescribed creep strain shortens a free bar by eps_c L, following its time function."""
    doc = heated_bar(creep_strain=-2e-4, creep_function={"kind": "linear", "rate": 10.0})
    eq = static_equilibrium(doc, load_steps=1, time=0.5)  # eps_c(0.5) = -2e-4 * 5
    assert eq.node_xy("tip")[0] == pytest.approx(1.0 - 1e-3, rel=1e-13)


def test_free_strains_need_a_material():
    doc = beam_model()
    doc["links"][0]["free_strains"] = {"temperature_change": 10.0}
    assert [str(p) for p in validate(doc)] == [
        "links[beam].free_strains.temperature_change: needs a section with a material (its expansion coefficient)"]
