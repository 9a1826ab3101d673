"""Tapered links: sections varying linearly along a flexible link, and their validation."""
import numpy as np
import pytest
from scipy.integrate import quad

from solver.analysis.static import static_equilibrium
from solver.model.validate import validate
from solver.system.compile import compile_model

from .builders import beam_model

E = 2e11


def tapered(n, shear=False, **section):
    doc = beam_model(L=1.0, n=n, loads=[{"node": "tip", "fy": -1.0}])
    doc["materials"] = [{"id": "steel", "E": E, "density": 7800.0}]
    doc["links"][0]["section"] = dict({"kind": "rectangle", "material": "steel", "b": 0.02, "h": 0.04, "h_end": 0.01,
                                       "shear": shear}, **section)
    return doc


def test_elements_take_the_section_at_their_mid_points():
    s = compile_model(tapered(4, b_end=0.01)).beams
    mid = np.array([0.125, 0.375, 0.625, 0.875])
    h, b = 0.04 - 0.03 * mid, 0.02 - 0.01 * mid
    np.testing.assert_allclose(s.EI, E * b * h**3 / 12, rtol=1e-14)
    np.testing.assert_allclose(s.rhoA, 7800.0 * b * h, rtol=1e-14)


def test_tapered_cantilever_deflection_converges_at_second_order():
    """Tip deflection against P int (L - x)^2 / EI(x) dx (h from 40 to 10 mm): the mid-point
    sections converge at rate 2."""
    EI = lambda x: E * 0.02 * (0.04 - 0.03 * x) ** 3 / 12  # noqa: E731
    exact = quad(lambda x: (1.0 - x) ** 2 / EI(x), 0.0, 1.0)[0]
    errors = [abs(-static_equilibrium(tapered(n), load_steps=1).node_xy("tip")[1] / exact - 1) for n in (8, 16, 32)]
    rates = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert errors[-1] < 2e-3
    np.testing.assert_allclose(rates, 2.0, atol=0.15)


@pytest.mark.parametrize("link_kind", ["rigid", "modal"])
def test_taper_and_shear_belong_to_flexible_links(link_kind):
    doc = tapered(4)
    doc["links"][0]["kind"] = link_kind
    doc["links"][0]["section"]["shear"] = True
    if link_kind == "rigid":
        del doc["links"][0]["mesh"]
    messages = [str(p) for p in validate(doc)]
    assert "links[beam].section.h_end: a tapered section is for flexible links" in messages
    assert "links[beam].section.shear: shear-flexible (Timoshenko) elements are for flexible links" in messages


def test_shear_needs_the_shear_rigidity_where_the_shape_does_not_give_it():
    doc = beam_model()
    doc["links"][0]["section"]["shear"] = True
    assert [str(p) for p in validate(doc)] == ["links[beam].section.kGA: is required with shear"]
    doc = tapered(4)
    doc["links"][0]["section"] = {"kind": "area", "material": "steel", "A": 1e-4, "I": 1e-9, "shear": True}
    assert [str(p) for p in validate(doc)] == [
        "links[beam].section.shear_coefficient: is required with shear for an area section"]


def test_a_tapered_tube_keeps_its_bore_inside():
    doc = tapered(4)
    doc["links"][0]["section"] = {"kind": "tube", "material": "steel", "d_outer": 0.02, "d_inner": 0.01,
                                  "d_outer_end": 0.008}
    assert [str(p) for p in validate(doc)] == [
        "links[beam].section.d_inner_end: must be < d_outer_end (the bore at the second node)"]
