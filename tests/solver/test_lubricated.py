"""The lubricated revolute clearance joint (issue 30 point 1, :mod:`solver.contact.lubricated`):
short journal bearing forces (Ocvirk; Pinkus & Sternlicht 1961; Flores, Ambrósio & Claro 2004)
checked against Ocvirk's load-eccentricity relation, and the Flores slider-crank with an oil
film against the ideal and the dry joint."""
from __future__ import annotations

import math

import numpy as np
import pytest

from solver.analysis.closed_forms import slider_crank_moment
from solver.api import load_model, simulate
from solver.contact.lubricated import JournalFilm
from solver.model.io import examples_dir
from solver.model.validate import validate
from solver.results.validity import run_warnings

VISCOSITY, RADIUS, LENGTH, CLEARANCE, SPIN = 0.04, 0.01, 0.01, 1e-4, 100.0  # Pa s, m, m, m, rad/s
FILM = JournalFilm(VISCOSITY, LENGTH, RADIUS, CLEARANCE, 0.95)


def loaded_journal(load: float) -> dict:
    """A shaft (its centre of mass on the journal) turned at SPIN in a fixed lubricated bearing,
    loaded by a downward force ``load`` (N) ramped up over 0.1 s from the centre, then constant."""
    return {
        "format": "flexmech", "version": 1, "name": "loaded journal",
        "materials": [{"id": "steel", "E": 2.07e11, "density": 7800.0}],
        "nodes": [{"id": "J", "x": 0.0, "y": 0.0}, {"id": "K", "x": 0.05, "y": 0.0}],
        "links": [{"id": "shaft", "kind": "rigid", "nodes": ["J", "K"], "mass": 0.01, "inertia": 1e-6,
                   "com": {"s": 0.0}}],
        "joints": [{"id": "G", "kind": "ground", "node": "J"},
                   {"id": "bearing", "kind": "clearance", "node": "J", "links": ["shaft"],
                    "bearing_radius": RADIUS + CLEARANCE, "journal_radius": RADIUS, "length": LENGTH,
                    "material": "steel", "lubricant": {"viscosity": VISCOSITY}}],
        "drivers": [{"id": "spin", "kind": "speed", "link": "shaft", "pivot": "K",
                     "function": {"kind": "constant", "value": SPIN}}],
        "loads": [{"id": "W", "node": "K", "fy": -load, "function": {"kind": "ramp", "t1": 0.1}}],
        "solver": {"end_time": 0.3, "step": 1e-3, "output_interval": 0.01},
    }


@pytest.mark.parametrize("eps", [0.2, 0.4, 0.6, 0.8, 0.9])
def test_loaded_journal_settles_at_ocvirks_eccentricity(eps):
    """Ocvirk's W = k ω ε √(16 ε² + π² (1 - ε²)) / (2 (1 - ε²)²), k = μ R L³/(2 c²): the journal
    under that load settles at ε within 1 %, at Ocvirk's attitude angle tan ψ = π √(1-ε²)/(4 ε)
    from the load line within 1 degree."""
    doc = loaded_journal(FILM.ocvirk_load(eps, SPIN))
    assert validate(doc) == []
    res = simulate(doc)
    assert res.meta["status"] == "completed", res.meta.get("message")
    e = res.frames[-1].node_xy[res.node_index("bearing.journal")] - res.frames[-1].node_xy[res.node_index("J")]
    assert math.hypot(*e) / CLEARANCE == pytest.approx(eps, rel=0.01)
    attitude = math.atan2(e[0], -e[1])  # from the load line (down), towards the spin's side
    assert abs(attitude) == pytest.approx(math.atan2(math.pi * math.sqrt(1 - eps * eps), 4 * eps), abs=math.radians(1))


def test_the_contact_columns_show_the_load_the_film_carries():
    """A settled journal (ε 0.6, the dry law never touching) carries its load W through the film:
    the frame's contact force (F_n, F_t) is W within 1e-3 (it read 0 N, the dry law's force
    alone), and the impulse since the last frame W times the frame interval."""
    load = FILM.ocvirk_load(0.6, SPIN)
    res = simulate(loaded_journal(load))
    last = res.frames[-1].contact
    assert math.hypot(last["F_n_N"][0], last["F_t_N"][0]) == pytest.approx(load, rel=1e-3)
    assert math.hypot(last["I_n_N_s"][0], last["I_t_N_s"][0]) == pytest.approx(load * 0.01, rel=1e-3)


def test_film_force_is_zero_at_the_centre_without_spin():
    F, torque = FILM.forces(np.zeros(2), np.zeros(2), 0.0, 0.0)
    assert np.all(F == 0.0) and torque == 0.0


def test_film_only_dissipates():
    """The film's power on the journal, the bearing and their spins (L7) is never positive."""
    rng = np.random.default_rng(30)
    for _ in range(2000):
        e = rng.uniform(-1, 1, 2) * CLEARANCE
        e_dot, spins = rng.normal(size=2) * 0.01, rng.normal(size=2) * 100
        F, torque = FILM.forces(e, e_dot, *spins)
        assert F @ e_dot + torque * spins.sum() <= 1e-12 * (1 + np.abs(F).sum())


def test_lubricated_slider_crank_is_closer_to_the_ideal_moment_than_the_dry_joint():
    """Two revolutions at 5000 rpm: rms difference of the crank moment from the ideal
    mechanism's (inverse dynamics) under the dry joint's; the energy balance holds within 1 %."""
    runs = {name: simulate(load_model(examples_dir() / f"slider_crank_clearance_{name}.json"))
            for name in ("lubricated", "lankarani_nikravesh")}
    rms = {}
    for name, res in runs.items():
        t, moment = res.time, res.stack("driver_reaction")[:, 0]
        ideal = slider_crank_moment(t, 5000 * 2 * math.pi / 60, 0.05, 0.12, 0.21, 2.5e-4, 0.14)
        weight = np.gradient(t)
        rms[name] = math.sqrt(np.sum(weight * (moment - ideal) ** 2) / weight.sum())
    assert rms["lubricated"] < 0.6 * rms["lankarani_nikravesh"]
    lubricated = runs["lubricated"]
    total = lubricated.total_energy()
    assert np.max(np.abs(total - total[0])) < 1e-2 * total[0]
    assert np.all(np.diff(lubricated.energy("dissipated_friction")) >= 0.0)
    assert run_warnings(lubricated) == []  # at a step of 10 us a separation of one step was warned of
