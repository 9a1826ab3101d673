"""What the oracle tests share: hypothesis settings, a run with a budget, the energy balance
and the quantities a user reads (peak contact force, peak strain, final energy)."""
from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, Phase, settings

from solver.api import Results, simulate
from solver.results.frames import frame_energies
from solver.results.tables import contact_keys, contact_values

from ..solver.test_fuzz import budget

#: deterministic in CI (the examples follow from the test's name), no database written into the
#: repository, no shrinking (a failure prints its model: :func:`describe`)
ORACLE = settings(deadline=None, derandomize=True, database=None, phases=[Phase.explicit, Phase.generate],
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much], print_blob=False)
#: processor time (s) one generated run may take: a hundred times a typical one's
RUN_BUDGET_S = 20.0
#: steps a shipped example is run for in the balance and trust checks (its whole run when shorter)
EXAMPLE_STEPS = 1000


def run(doc: dict) -> Results:
    """``doc``'s results (a copy is run), within :data:`RUN_BUDGET_S` of processor time."""
    with budget(RUN_BUDGET_S, describe(doc)):
        return simulate(copy.deepcopy(doc))


def describe(doc: dict) -> str:
    """The model in one line, to paste into a script when a check fails."""
    return json.dumps(doc, separators=(",", ":"))


def example_window(path: Path) -> dict:
    """A shipped example cut to its first :data:`EXAMPLE_STEPS` steps."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    solver = doc.setdefault("solver", {})
    step = solver.get("step", 1e-3)
    solver["end_time"] = min(solver.get("end_time", 1.0), EXAMPLE_STEPS * step)
    if solver.get("output_interval", 0.0) > solver["end_time"]:
        solver["output_interval"] = 0.0
    return doc


@functools.lru_cache(maxsize=None)
def example_run(path: Path) -> Results:
    """The results of :func:`example_window` of ``path``, run once for the tests that read them."""
    return run(example_window(path))


def energy_in_play(results: Results) -> float:
    """The largest kinetic and strain energy (J), ``summary.json``'s ``energy.total.scale_J``."""
    return float(max(e.get("kinetic", 0.0) + e.get("strain", 0.0) for e in frame_energies(results.frames)))


def balance_rise(results: Results) -> float:
    """The largest rise of the energy balance over its start, of the energy in play."""
    total = results.total_energy()
    scale = energy_in_play(results)
    return float(np.max(total - total[0])) / scale if scale > 0.0 else 0.0


def term_history(results: Results, key: str) -> np.ndarray:
    """One energy term (J) at every frame, 0 where a frame lacks it."""
    return np.array([e.get(key, 0.0) for e in frame_energies(results.frames)])


def peak_contact_force(results: Results) -> float:
    """The largest normal force of any pair over the frames (N); 0 without contacts."""
    if not results.layout.contacts or "F_n_N" not in contact_keys(results):
        return 0.0
    return float(np.nanmax(np.abs(contact_values(results.frames, ["F_n_N"])["F_n_N"]), initial=0.0))


def peak_strain(results: Results) -> float:
    """The largest axial or outer-fibre bending strain of the element stations over the frames."""
    peaks = [float(np.max(np.abs(getattr(f, name)), initial=0.0)) for f in results.frames
             for name in ("axial_strain", "bending_strain")]
    return max(peaks, default=0.0)


def final_energy(results: Results) -> float:
    """Kinetic, strain and potential energy at the last frame (J)."""
    last = frame_energies(results.frames)[-1]
    return sum(last.get(k, 0.0) for k in ("kinetic", "strain", "potential"))


def normal_impulse(results: Results) -> float:
    """The sum of every pair's impulses (events of kind ``impulse``), N s."""
    return float(sum(e.get("I_n_N_s") or 0.0 for e in results.events if e.get("kind") == "impulse"))
