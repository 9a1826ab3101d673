"""The force reported for a momentum-balance (impulse) contact: its impulses averaged over a fixed
window (``solver.impulse_force_window``), which converges as the impact step is refined, where the
impulses of one step over that step do not (docs/results-format.md, docs/validation.md)."""
import numpy as np
import pytest

from solver.api import load_model, simulate
from solver.model.io import examples_dir


def run(name, k=0.9, **solver):
    """An example with the impulse model and its impact step scaled to ``k`` wave transits (eq. 3.5)."""
    doc = load_model(examples_dir() / f"{name}.json")
    h = doc["solver"]["impact_step"] * k / 0.9
    doc["solver"].update(step=h, impact_step=h, **solver)
    return simulate(doc)


def column(res, key):
    return np.array([f.contact[key][0] for f in res.frames])


def test_the_windowed_force_carries_the_impulses():
    """The force integrated over time is the impulse transferred (each impulse spread over its step
    and averaged over the window), and the per-step rate keeps the old definition."""
    res = run("bar_mass_impact")
    impulses = sum(e["I_n_N_s"] for e in res.events if e["kind"] == "impulse")
    F, t = column(res, "F_n_N"), res.time
    assert np.sum(0.5 * (F[1:] + F[:-1]) * np.diff(t)) == pytest.approx(impulses, rel=5e-3)  # trapezoid of samples
    rate = column(res, "F_n_impulse_rate_N")
    assert rate.max() > 1.1 * F.max()  # the rate chatters above the force
    assert res.model["solver"]["impulse_force_window"] == 0.005


@pytest.mark.slow
@pytest.mark.parametrize("name, exact, window", [("bar_mass_impact", 0.21353, None),
                                                 ("two_bars_impact", 1.0e6, (0.05e-3, 0.35e-3))])
def test_impulse_force_converges_under_step_refinement(name, exact, window):
    """Impact steps of 0.9, 0.45 and 0.225 wave transits: the plotted peak is within 15 % of wave
    theory at each, and the two finer agree within 3 % (and with the plateau of §5.1.2 within 5 %)."""
    peaks = []
    for k in (0.9, 0.45, 0.225):
        res = run(name, k)
        F = column(res, "F_n_N")
        peaks.append(F.max())
        assert F.max() == pytest.approx(exact, rel=0.15)
        if window:
            t = res.time - next(e["time_s"] for e in res.events if e["kind"] == "contact_start")
            plateau = F[(t >= window[0]) & (t <= window[1])]
            assert np.abs(plateau / exact - 1).max() < 0.05
    assert peaks[2] == pytest.approx(peaks[1], rel=0.03)
