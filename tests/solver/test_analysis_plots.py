"""The analysis plots' numbers (issue 30 point 4): the journal orbit stays in the clearance
circle plus the run's largest penetration; the Poincaré section of the ideal slider-crank
collapses to one point; the spectrum of a sine peaks at its frequency to one bin; the
Lyapunov estimate is zero for the ideal joint and positive for the dry clearance joint."""
from __future__ import annotations

import numpy as np
import pytest

from solver.analysis.lyapunov import lyapunov_fit, perturbed_model
from solver.analysis.orbit import journal_orbit
from solver.analysis.poincare import poincare_section
from solver.analysis.run_series import AnalysisError, values_at
from solver.analysis.spectrum import amplitude_spectrum, series_spectrum
from solver.api import simulate
from solver.model.io import examples_dir
from tests.analysis_runs import CLEARANCE, IDEAL, OMEGA, TURN, example

CLEARANCE_EXAMPLES = sorted(p.stem for p in examples_dir().glob("slider_crank_clearance_*.json"))


@pytest.fixture(scope="module")
def ideal():
    return simulate(example(IDEAL, 4))


@pytest.fixture(scope="module")
def dry():
    return simulate(example(CLEARANCE, 2))


@pytest.mark.parametrize("name", CLEARANCE_EXAMPLES)
def test_the_orbit_stays_in_the_clearance_circle_plus_the_largest_penetration(name):
    """A tenth of a turn (1.2 ms) holds the first impacts of every shipped clearance example."""
    orbit = journal_orbit(simulate(example(name, 0.1)))
    assert orbit.clearance == pytest.approx(0.5e-3)
    assert orbit.largest_penetration > 0.0                       # the journal did hit its bearing
    assert np.all(orbit.eccentricity <= orbit.clearance + orbit.largest_penetration + 1e-12)
    assert orbit.eccentricity.max() > orbit.clearance             # ... and went into it


def test_the_orbit_of_a_run_without_clearance_joint_says_so(ideal):
    with pytest.raises(AnalysisError, match="no clearance joint"):
        journal_orbit(ideal)


def test_the_poincare_section_of_the_ideal_slider_crank_collapses_to_one_point(ideal):
    """A rigid slider-crank at constant crank speed is periodic: after a transient turn the
    slider's position and velocity once a turn are one point, to 1e-6 of their ranges (measured:
    3e-14 m of 0.1 m and 5.3e-6 m/s of 57 m/s: the slider's velocity at the dead centre
    drifts by 1.7e-6 m/s a turn, 3e-10 s of the crank's phase)."""
    s = poincare_section(ideal, "node/B/ux", "node/B/vx", transient=1)
    assert s.driver == "motor" and s.period == pytest.approx(TURN, rel=1e-12)
    assert len(s.times) == 4
    assert s.spread[0] <= 1e-6 * np.ptp(s.portrait_x)
    assert s.spread[1] <= 1e-6 * np.ptp(s.portrait_y)


def test_the_poincare_section_refuses_what_it_cannot_do(ideal):
    with pytest.raises(AnalysisError, match="--x node/B/speed: the run has no such series"):
        poincare_section(ideal, "node/B/speed", "node/B/vx")
    with pytest.raises(AnalysisError, match="--transient 9: the run .* holds 4 periods"):
        poincare_section(ideal, "node/B/ux", "node/B/vx", transient=9)
    with pytest.raises(AnalysisError, match="--period -1"):
        poincare_section(ideal, "node/B/ux", "node/B/vx", period=-1.0)
    # one sample's spread is 0, as a periodic motion's: a section of one is refused, never drawn
    for kw in ({"transient": 4}, {"period": 1.0}):
        with pytest.raises(AnalysisError, match="holds one section every .* a section needs at least two"):
            poincare_section(ideal, "node/B/ux", "node/B/vx", **kw)


def test_sections_are_interpolated_at_their_exact_times():
    t = np.array([0.0, 1.0, 1.0, 3.0])        # two frames at t = 1: before and after an impulse
    y = np.array([0.0, 1.0, 5.0, 9.0])
    assert values_at(t, y, np.array([0.5, 1.0, 2.0])) == pytest.approx([0.5, 5.0, 7.0])


@pytest.mark.parametrize("frequency", [37.3, 50.0, 212.9])
def test_the_spectrum_of_a_sine_peaks_at_its_frequency_to_one_bin(frequency):
    """Uneven samples, as a run's frames are: the sine is resampled, windowed and transformed."""
    rng = np.random.default_rng(1)
    t = np.sort(np.concatenate([[0.0, 1.0], rng.uniform(0.0, 1.0, 4000)]))
    s = amplitude_spectrum(t, 3.0 * np.sin(2.0 * np.pi * frequency * t + 0.3) + 7.0)
    f, amplitude = s.peak
    assert abs(f - frequency) <= s.resolution
    assert amplitude == pytest.approx(3.0, rel=0.16)   # a Hann window's scalloping loss is at most 15 %


def test_the_spectrum_of_the_crank_pin_is_the_crank_speed(ideal):
    """The crank pin A of the ideal slider-crank moves as 0.05 cos(omega t): one line at the
    first harmonic (83.3 Hz), amplitude 0.05 m."""
    s = series_spectrum(ideal, "node/A/ux")
    assert s.driver == "motor" and s.harmonics[0] == pytest.approx(OMEGA / (2.0 * np.pi))
    assert abs(s.peak[0] - s.harmonics[0]) <= s.resolution
    assert s.peak[1] == pytest.approx(0.05, rel=0.16)


def test_the_lyapunov_estimate_is_zero_for_the_ideal_joint(ideal):
    """A slider 0.1 µm further along (a rod 0.1 µm longer): the separation stays 1e-7 m."""
    fit = lyapunov_fit(ideal, simulate(perturbed_model(example(IDEAL, 4), "nodes[B].x", 1e-7)))
    assert fit.window == (0.0, pytest.approx(4 * TURN))                   # no growth: the whole run
    assert abs(fit.slope) * (fit.window[1] - fit.window[0]) < 0.01        # less than 1 % growth over 4 turns
    assert fit.separation.max() < 2e-7


@pytest.mark.slow
def test_the_lyapunov_estimate_is_positive_for_the_dry_clearance_joint(dry):
    """The journal started 0.1 µm aside: the separation grows by three decades in two turns,
    saturating at the clearance's size (measured: 487 1/s, 5.8 per turn, r^2 0.91, fitted over
    0 to 11.9 ms, to a tenth of the largest separation)."""
    fit = lyapunov_fit(dry, simulate(perturbed_model(example(CLEARANCE, 2), "joints[B-clearance].offset.x", 1e-7)))
    assert fit.slope * TURN > 1.0
    assert fit.r2 > 0.5
    assert fit.separation[-1] > 100 * fit.separation[0]


def test_a_perturbation_names_its_field():
    with pytest.raises(AnalysisError, match=r"--perturb joints\[nope\].offset.x"):
        perturbed_model(example(CLEARANCE, 1), "joints[nope].offset.x", 1e-7)
