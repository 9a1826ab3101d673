"""The bundled references of the validation examples, made from their closed forms and
published tables: ``python -m solver.analysis.reference_curves`` rewrites
``resources/references/`` (a test keeps the shipped files equal to what this makes).

* ``bar_mass_impact.wave`` — wave theory of the bar struck by a mass (thesis §5.1.1,
  :class:`~solver.analysis.wave_theory.MassOnBar`);
* ``two_bars_impact.wave`` — wave theory of the two bars (§5.1.2,
  :class:`~solver.analysis.wave_theory.TwoBars`);
* ``pendulum_impact.fall`` — the rigid pendulum's fall from the horizontal to the
  impact, from its energy integral (Predebon §7);
* ``rod_impact_rigid.table1-<law>``, ``.table2-<law>`` — LAJSS 2024 Tables 1 and 2;
* ``slider_crank_flexible.exudyn`` — the converged Exudyn ANCF peak of the mid-span
  deflection (``docs/validation.md``);
* ``slider_crank_ideal.inverse_dynamics`` — the crank moment of the ideal slider-crank at
  5000 rpm (Flores et al. 2006, :func:`~solver.analysis.closed_forms.slider_crank_moment`);
* ``spheres_hertz.hertz`` — the elastic Hertz impact of the sphere in its bore (Flores et
  al. 2006 eq. 2, :func:`~solver.analysis.closed_forms.hertz_impact`).

Every reference's conditions (``applies_when``) and the parameters of its closed form
are read from the example model, so the two cannot drift apart.
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
from scipy.integrate import quad

from ..model.io import examples_dir, load_model
from ..model.paths import get_path
from ..safe_write import atomic_write_text
from ..results.references import FORMAT, VERSION, CurveTable, curve_csv_text, references_dir
from .closed_forms import hertz_impact, slider_crank_moment
from .wave_theory import MassOnBar, TwoBars

#: LAJSS 2024 (``002_…txt``) Tables 1 (e = 0.82) and 2 (e = 1): post-impact normal velocity
#: of B (m/s; Table 2 gives q_dot_e, v_ne = y_dot - (sqrt(2)/4) theta_dot), kinetic energy change,
#: work of the normal impulse and of friction (J),
#: with the misprints of docs/validation.md corrected (Newton W_ne is +0.048894)
LAJSS_TABLES = {
    ("table1", "newton"): dict(e=0.82, v_ne=0.82, dT=0.010125, W_ne=0.048894, W_te=-0.038769),
    ("table1", "poisson"): dict(e=0.82, v_ne=0.5248, dT=-0.113933, W_ne=-0.075164, W_te=-0.038769),
    ("table1", "energetic"): dict(e=0.82, v_ne=0.588997, dT=-0.091588, W_ne=-0.052819, W_te=-0.038769),
    ("table2", "newton"): dict(e=1.0, v_ne=1.0, dT=0.1125, W_ne=0.151269, W_te=-0.038769),
    ("table2", "poisson"): dict(e=1.0, v_ne=0.64, dT=-0.072, W_ne=-0.033231, W_te=-0.038769),
    ("table2", "energetic"): dict(e=1.0, v_ne=0.718289, dT=-0.038769, W_ne=0.0, W_te=-0.038769),
}

#: Exudyn ANCFCable2D, 64 elements, 4000 steps per revolution (docs/validation.md)
EXUDYN_PEAK = {"angle_deg": 670.98, "midspan": -0.015521}


def _model(example: str) -> dict:
    return load_model(examples_dir() / f"{example}.json")


def _conditions(model: dict, paths: list[str]) -> dict:
    return {path: get_path(model, path) for path in paths}


def _document(example: str, name: str, title: str, source: str, applies_when: dict, x: str,
              curves: bool = True, points=(), values=()) -> dict:
    doc = {"format": FORMAT, "version": VERSION, "example": example, "title": title, "source": source,
           "applies_when": applies_when, "x": x}
    if curves:
        doc["curves"] = f"{example}.{name}.csv"
    if points:
        doc["points"] = list(points)
    if values:
        doc["values"] = list(values)
    return doc


def _grid(t_end: float, count: int, *breaks: float) -> np.ndarray:
    """Times from 0 to ``t_end``; each break twice, so that jumps are drawn upright."""
    t = np.concatenate([np.linspace(0.0, t_end, count), np.repeat(np.asarray(breaks, dtype=float), 2)])
    return np.sort(t, kind="stable")


def bar_mass_reference() -> tuple[dict, CurveTable]:
    """Wave theory of thesis §5.1.1 at the example's parameters, in the model's time
    and axes (the mass moves towards -x and touches at gap / v0)."""
    m = _model("bar_mass_impact")
    section = m["links"][0]["section"]
    L = get_path(m, "nodes[end].x") - get_path(m, "nodes[fixed].x")
    v0 = -get_path(m, "initial_velocities[0].vx")
    gap = get_path(m, "bodies[striker].x") - get_path(m, "nodes[end].x")
    wave = MassOnBar(section["EA"], section["rhoA"], L, get_path(m, "bodies[striker].mass"), v0)
    t_c, t_sep = gap / v0, wave.separation
    t = _grid(m["solver"]["end_time"], 601, t_c, t_c + wave.T)
    s = t - t_c
    h = wave.history(np.maximum(s, 0.0))
    during = (s >= 0) & (s <= t_sep)
    table = CurveTable("time_s", {
        "time_s": t,
        "contact.striker-end.F_n_N": np.where(s >= 0, h["force"], 0.0),
        "node.striker.vx_m_s": np.where(s >= 0, -h["velocity"], -v0),
        "node.striker.ux_m": np.where(s >= 0, -(gap + h["displacement"]), -v0 * t),
        "node.end.vx_m_s": np.where(during, -h["velocity"], np.where(s < 0, 0.0, np.nan)),
        "node.end.ux_m": np.where(during, -h["displacement"], np.where(s < 0, 0.0, np.nan)),
    })
    peak = float(wave.force(np.array([wave.T * (1 + 1e-12)]))[0])
    v_after = -float(wave.mass_velocity(np.array([t_sep]))[0])
    paths = ["links[bar].section.EA", "links[bar].section.rhoA", "nodes[fixed].x", "nodes[end].x",
             "bodies[striker].x", "bodies[striker].mass", "initial_velocities[0].vx", "contacts[striker-end].e"]
    doc = _document(
        "bar_mass_impact", "wave", "Wave theory (Johnson 1972), thesis §5.1.1",
        "Elkaranshawy 1995, §5.1.1: the bar's end and the mass share one velocity while they touch; "
        "contact force and the mass's motion from the d'Alembert solution (solver.analysis.wave_theory.MassOnBar)",
        _conditions(m, paths), "time_s",
        points=[{"x": t_c + wave.T, "column": "contact.striker-end.F_n_N", "value": peak,
                 "label": "peak force, wave theory (thesis: 0.2135 N)"}],
        values=[{"name": "contact duration", "value": t_sep, "unit": "s", "published": 0.3068},
                {"name": "peak contact force", "value": peak, "unit": "N", "published": 0.2135},
                {"name": "mass velocity after release", "value": v_after, "unit": "m/s"}])
    return doc, table


def two_bars_reference() -> tuple[dict, CurveTable]:
    """Wave theory of thesis §5.1.2 at the example's parameters and in its axes."""
    m = _model("two_bars_impact")
    E, rho = m["materials"][0]["E"], m["materials"][0]["density"]
    A = get_path(m, "links[striker].section.b") * get_path(m, "links[striker].section.h")
    L1 = get_path(m, "nodes[back].x") - get_path(m, "nodes[front].x")
    L2 = get_path(m, "nodes[end].x") - get_path(m, "nodes[wall].x")
    v0 = -get_path(m, "initial_velocities[0].vx")
    gap = get_path(m, "nodes[front].x") - get_path(m, "nodes[end].x")
    wave = TwoBars(E * A, rho * A, L1, L2, v0)
    t_c, c = gap / v0, wave.c
    t = _grid(m["solver"]["end_time"], 401, *(t_c + np.array([0.0, L1 / c, 2 * L1 / c, 2 * L2 / c,
                                                              2 * L2 / c + L1 / c, wave.separation])))
    s = t - t_c
    h = wave.history(s)
    # the second of each pair of equal times takes the value after the jump
    after = np.concatenate([[False], t[1:] == t[:-1]])
    h_before = wave.history(np.where(after, s, s - 1e-12))
    pick = {k: np.where(after, h[k], h_before[k]) for k in h}
    table = CurveTable("time_s", {
        "time_s": t,
        "contact.front-end.F_n_N": pick["force"],
        "node.front.vx_m_s": pick["front"],
        "node.back.vx_m_s": pick["back"],
        "node.end.vx_m_s": pick["struck_end"],
    })
    paths = ["materials[steel-like].E", "materials[steel-like].density", "links[striker].section.b",
             "links[striker].section.h", "links[fixed-bar].section.b", "links[fixed-bar].section.h",
             "nodes[wall].x", "nodes[end].x", "nodes[front].x", "nodes[back].x", "initial_velocities[0].vx",
             "contacts[front-end].e"]
    doc = _document(
        "two_bars_impact", "wave", "Wave theory (Goldsmith 1960), thesis §5.1.2",
        "Elkaranshawy 1995, §5.1.2: equal impedances, interface at v0/2 while pressed, the force vanishes "
        "from 2 L1/c to 2 L2/c, release at 2 (L1 + L2)/c with the striker at v0 reversed "
        "(solver.analysis.wave_theory.TwoBars)",
        _conditions(m, paths), "time_s",
        values=[{"name": "contact force while pressed", "value": wave.Z * v0 / 2, "unit": "N"},
                {"name": "release", "value": wave.separation, "unit": "s", "published": 1.2e-3},
                {"name": "striker velocity after release", "value": v0, "unit": "m/s", "published": 10.0}])
    return doc, table


def pendulum_reference() -> tuple[dict, CurveTable]:
    """The rigid pendulum released at rest from the horizontal, until its tip meets the
    surface: ``alpha_dot^2 = (3 g / L) sin(alpha)`` (energy; alpha from the horizontal),
    ``t(alpha) = integral of d alpha / alpha_dot``."""
    m = _model("pendulum_impact")
    L = get_path(m, "nodes[tip].x") - get_path(m, "nodes[O].x")
    g = -get_path(m, "gravity.y")
    mass = get_path(m, "links[rod].mass")
    alpha_hit = math.asin(-get_path(m, "contacts[tip-surface].target.y") / L)
    rate = lambda a: math.sqrt(3.0 * g / L * math.sin(a))  # noqa: E731
    alphas = np.linspace(0.0, alpha_hit, 81)
    # near 0 the integrand is 1/sqrt(3 g alpha / L): integrate sqrt(alpha) exactly, the rest by quadrature
    t = np.array([2.0 * math.sqrt(a * L / (3.0 * g))
                  + quad(lambda x: 1.0 / rate(x) - 1.0 / math.sqrt(3.0 * g * x / L), 0.0, a)[0] if a > 0 else 0.0
                  for a in alphas])
    speed = L * np.sqrt(3.0 * g / L * np.sin(alphas))
    table = CurveTable("time_s", {
        "time_s": t,
        "energy.kinetic_J": 0.5 * mass * g * L * np.sin(alphas),
        "node.tip.vx_m_s": -speed * np.sin(alphas),
        "node.tip.vy_m_s": -speed * np.cos(alphas),
    })
    paths = ["nodes[O].x", "nodes[O].y", "nodes[tip].x", "nodes[tip].y", "links[rod].mass", "gravity.y",
             "contacts[tip-surface].target.y"]
    doc = _document(
        "pendulum_impact", "fall", "Rigid pendulum falling from the horizontal (energy integral)",
        "Predebon §7 (003_…txt): uniform rod released at rest from the horizontal; the tip velocity at the "
        "impact (-0.3963, -2.2477) m/s from omega^2 = 3 g cos(80°) / L",
        _conditions(m, paths), "time_s",
        points=[{"x": float(t[-1]), "column": "node.tip.vy_m_s", "value": float(table.columns["node.tip.vy_m_s"][-1]),
                 "label": "tip normal velocity at the impact"}],
        values=[{"name": "time of the impact", "value": float(t[-1]), "unit": "s"},
                {"name": "tip velocity at the impact, normal", "value": float(table.columns["node.tip.vy_m_s"][-1]),
                 "unit": "m/s", "published": -2.2477},
                {"name": "tip velocity at the impact, tangential",
                 "value": float(table.columns["node.tip.vx_m_s"][-1]), "unit": "m/s", "published": -0.3963}])
    return doc, table


def rod_references() -> dict[str, tuple[dict, CurveTable]]:
    """LAJSS 2024 Tables 1 and 2 for each law: after the impulse at t = 0 the rod flies
    freely (no gravity), so the kinetic energy and the energies dissipated stay at their
    post-impact values; B leaves with (v_te, v_ne) = (0, v_ne)."""
    m = _model("rod_impact_rigid")
    T0 = 0.5 * get_path(m, "links[rod].mass") * (get_path(m, "initial_velocities[0].vx") ** 2
                                                  + get_path(m, "initial_velocities[0].vy") ** 2)
    t_end = m["solver"]["end_time"]
    paths = ["nodes[B].x", "nodes[B].y", "nodes[A].x", "nodes[A].y", "links[rod].mass", "links[rod].inertia",
             "initial_velocities[0].vx", "initial_velocities[0].vy", "initial_velocities[0].omega",
             "contacts[B-ground].mu_s", "contacts[B-ground].mu_d"]
    out = {}
    for (table_name, law), row in LAJSS_TABLES.items():
        number = table_name[-1]
        conditions = {**_conditions(m, paths), "contacts[B-ground].e": row["e"], "contacts[B-ground].law": law}
        curves = CurveTable("time_s", {
            "time_s": np.array([0.0, t_end]),
            "energy.kinetic_J": np.full(2, T0 + row["dT"]),
            "energy.dissipated_friction_J": np.full(2, -row["W_te"]),
            "energy.dissipated_restitution_J": np.full(2, -row["W_ne"]),
        })
        doc = _document(
            "rod_impact_rigid", f"{table_name}-{law}", f"LAJSS 2024 Table {number}, {law} restitution",
            f"Elkaranshawy & Bajaba 2024, §6 Table {number} (e = {row['e']:g}), misprints corrected as in "
            "docs/validation.md", conditions, "time_s",
            points=[{"x": 0.0, "column": "node.B.vy_m_s", "value": row["v_ne"], "label": "v_ne of B after the impulse"},
                    {"x": 0.0, "column": "node.B.vx_m_s", "value": 0.0, "label": "v_te of B after the impulse"}],
            values=[{"name": "kinetic energy change", "value": row["dT"], "unit": "J"},
                    {"name": "work of the normal impulse", "value": row["W_ne"], "unit": "J"},
                    {"name": "work of friction", "value": row["W_te"], "unit": "J"}])
        out[f"{table_name}-{law}"] = (doc, curves)
    return out


def slider_crank_reference() -> dict:
    """The converged mid-span deflection peak of the flexible slider-crank (Exudyn)."""
    m = _model("slider_crank_flexible")
    paths = ["materials[steel].E", "materials[steel].density", "nodes[A].x", "nodes[B].x", "links[crank].mass",
             "links[rod].section.d", "masses[slider].mass", "drivers[motor].function.value"]
    return _document(
        "slider_crank_flexible", "exudyn", "Exudyn 1.13.6 ANCFCable2D, 64 elements, 4000 steps/rev",
        "docs/validation.md (slider-crank, thesis Ex. 4): the converged reference peak of d/L in the "
        "second revolution", _conditions(m, paths), "driver.motor.angle_deg", curves=False,
        points=[{"x": EXUDYN_PEAK["angle_deg"], "column": "midspan.rod", "value": EXUDYN_PEAK["midspan"],
                 "label": "peak d/L, Exudyn ANCF (converged)"}],
        values=[{"name": "peak mid-span deflection / length", "value": EXUDYN_PEAK["midspan"], "unit": "-"}])


def slider_crank_ideal_reference() -> tuple[dict, CurveTable]:
    """The crank moment against the crank angle over the example's run."""
    m = _model("slider_crank_ideal")
    omega = get_path(m, "drivers[motor].function.value")
    crank = get_path(m, "nodes[A].x") - get_path(m, "nodes[O].x")
    rod = get_path(m, "nodes[B].x") - get_path(m, "nodes[A].x")
    t = np.linspace(0.0, m["solver"]["end_time"], 1441)
    moment = slider_crank_moment(t, omega, crank, rod, get_path(m, "links[rod].mass"),
                                 get_path(m, "links[rod].inertia"), get_path(m, "masses[slider].mass"))
    table = CurveTable("driver.motor.angle_deg", {"driver.motor.angle_deg": np.degrees(omega * t),
                                                  "driver.motor.reaction_N_m": moment})
    paths = ["nodes[O].x", "nodes[O].y", "nodes[A].x", "nodes[A].y", "nodes[B].x", "nodes[B].y", "links[rod].mass",
             "links[rod].inertia", "masses[slider].mass", "drivers[motor].function.value"]
    doc = _document(
        "slider_crank_ideal", "inverse_dynamics", "Inverse dynamics of the rigid slider-crank",
        "Flores et al. 2006 (001_…txt) Table 1 at 5000 rpm: the crank moment M = (dT/dt) / omega from the exact "
        "kinematics (solver.analysis.closed_forms.slider_crank_moment)",
        _conditions(m, paths), "driver.motor.angle_deg",
        values=[{"name": "largest |crank moment|", "value": float(np.abs(moment).max()), "unit": "N m"}])
    return doc, table


def spheres_hertz_reference() -> tuple[dict, CurveTable]:
    """The Hertz impact of the example's sphere, in its time (contact when the ball has
    crossed the radial clearance)."""
    m = _model("spheres_hertz")
    v0 = get_path(m, "initial_velocities[0].vx")
    gap = get_path(m, "contacts[bore].target.radius") - get_path(m, "bodies[ball].radius")
    hz = hertz_impact(get_path(m, "bodies[ball].mass"), get_path(m, "contacts[bore].model.stiffness"), v0)
    t_c = gap / v0
    t_end = m["solver"]["end_time"]
    before, after = np.linspace(0.0, t_c, 51)[:-1], np.linspace(t_c + hz["duration"], t_end, 51)[1:]
    nan = lambda a: np.full(len(a), np.nan)  # noqa: E731
    table = CurveTable("time_s", {
        "time_s": np.concatenate([before, t_c + hz["time"], after]),
        "contact.bore.F_n_N": np.concatenate([0 * before, hz["force"], 0 * after]),
        "contact.bore.penetration_m": np.concatenate([nan(before), hz["penetration"], nan(after)]),
        "node.ball.vx_m_s": np.concatenate([v0 + 0 * before, hz["velocity"], -v0 + 0 * after]),
    })
    peak = t_c + 0.5 * hz["duration"]
    paths = ["bodies[ball].mass", "bodies[ball].radius", "bodies[ball].x", "contacts[bore].target.radius",
             "contacts[bore].target.x", "contacts[bore].model.stiffness", "contacts[bore].model.law",
             "initial_velocities[0].vx"]
    doc = _document(
        "spheres_hertz", "hertz", "Hertz impact, closed form (Flores et al. 2006 eq. 2)",
        "m delta'' = -K delta^1.5: delta_max = (5 m v0^2 / (4 K))^(2/5), F_max = K delta_max^1.5, contact "
        "2.9432 delta_max / v0, elastic (solver.analysis.closed_forms.hertz_impact)",
        _conditions(m, paths), "time_s",
        points=[{"x": peak, "column": "contact.bore.F_n_N", "value": hz["max_force"], "label": "peak force, Hertz"},
                {"x": peak, "column": "contact.bore.penetration_m", "value": hz["max_penetration"],
                 "label": "largest penetration, Hertz"}],
        values=[{"name": "largest penetration", "value": hz["max_penetration"], "unit": "m"},
                {"name": "peak force", "value": hz["max_force"], "unit": "N"},
                {"name": "contact duration", "value": hz["duration"], "unit": "s"}])
    return doc, table


def reference_files() -> dict[str, str]:
    """File name -> text of every bundled reference file."""
    pairs = {"bar_mass_impact.wave": bar_mass_reference(), "two_bars_impact.wave": two_bars_reference(),
             "pendulum_impact.fall": pendulum_reference(),
             "slider_crank_ideal.inverse_dynamics": slider_crank_ideal_reference(),
             "spheres_hertz.hertz": spheres_hertz_reference(),
             **{f"rod_impact_rigid.{k}": v for k, v in rod_references().items()}}
    files = {}
    for stem, (doc, table) in pairs.items():
        files[f"{stem}.json"] = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        files[f"{stem}.csv"] = curve_csv_text(table)
    files["slider_crank_flexible.exudyn.json"] = json.dumps(slider_crank_reference(), indent=2,
                                                            ensure_ascii=False) + "\n"
    return files


def write_reference_files(folder: Path | None = None) -> list[Path]:
    """Write :func:`reference_files` into ``folder`` (default: the bundled folder)."""
    folder = references_dir() if folder is None else Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in reference_files().items():
        atomic_write_text(folder / name, text)
        written.append(folder / name)
    return written


if __name__ == "__main__":
    for path in write_reference_files(Path(sys.argv[1]) if len(sys.argv) > 1 else None):
        print(path)
