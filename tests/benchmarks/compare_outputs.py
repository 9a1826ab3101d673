"""Every output of the time-loop benchmark runs and of the shipped free-motion examples,
saved or compared: a change meant not to alter results is checked with it.

Run on demand (not part of the test suite)::

    python tests/benchmarks/compare_outputs.py save before.npz     # on the old code
    python tests/benchmarks/compare_outputs.py compare before.npz  # on the new code

The runs: the flexible slider-crank of ``bench_solver.py`` at 8, 64 and 256 rod elements
(recorded at the example's output interval) and the examples ``flying_beam``,
``four_bar_flexible``, ``slider_crank_flexible`` and ``pendulum_flexible_corotational_*``.
``compare`` prints, per run, the largest difference of any output (every frame array, the
energies, the contact data, the events' numbers) absolute and relative to that output's
largest magnitude, and exits 1 when a relative difference exceeds ``--tol`` (1e-10).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from bench_solver import slider_crank  # noqa: E402

from solver.api import load_model, simulate  # noqa: E402
from solver.model.io import examples_dir  # noqa: E402
from solver.results.frames import ENERGY_KEYS  # noqa: E402

EXAMPLES = ("flying_beam", "four_bar_flexible", "slider_crank_flexible", "pendulum_flexible_corotational_newton",
            "pendulum_flexible_corotational_poisson", "pendulum_flexible_corotational_energetic")
FIELDS = ("node_xy", "node_v", "node_a", "rot", "rot_v", "rot_a", "axial_force", "axial_strain", "bending_strain",
          "bending_moment", "midspan", "driver_angle", "driver_speed", "driver_reaction")


def runs() -> dict[str, dict]:
    """The models compared, by name."""
    out = {}
    for elements, per_rev in ((8, 1000), (64, 2000), (256, 2000)):
        doc = slider_crank(elements, per_rev)
        doc["solver"]["output_interval"] = load_model(examples_dir() / "slider_crank_flexible.json")["solver"][
            "output_interval"]
        out[f"slider_crank_{elements}"] = doc
    for name in EXAMPLES:
        out[name] = load_model(examples_dir() / f"{name}.json")
    return out


def outputs(doc: dict) -> dict[str, np.ndarray]:
    """Every numeric output of one run, flattened to named arrays."""
    res = simulate(doc)
    arrays = {"time": res.time}
    for name in FIELDS:
        arrays[name] = res.stack(name)
    for key in ENERGY_KEYS:
        arrays[f"energy.{key}"] = res.energy(key)
    for key in sorted({k for f in res.frames for k in f.contact}):
        arrays[f"contact.{key}"] = np.stack([np.asarray(f.contact[key], dtype=float) for f in res.frames])
    arrays["events"] = np.array([float(v) for e in res.events for v in e.values() if isinstance(v, (int, float))])
    return arrays


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=("save", "compare"))
    ap.add_argument("file")
    ap.add_argument("--tol", type=float, default=1e-10, help="largest relative difference allowed")
    ap.add_argument("--only", default="", help="comma-separated run names (default: all; any shipped example's "
                                               "name adds it)")
    args = ap.parse_args(argv)
    chosen = runs()
    if args.only:
        names = args.only.split(",")
        chosen = {k: chosen[k] if k in chosen else load_model(examples_dir() / f"{k}.json") for k in names}
    if args.action == "save":
        flat = {f"{run}/{key}": arr for run, doc in chosen.items() for key, arr in outputs(doc).items()}
        np.savez_compressed(args.file, **flat)
        return 0
    saved = np.load(args.file)
    worst = 0.0
    for run, doc in chosen.items():
        new = outputs(doc)
        rel_max, abs_max, where = 0.0, 0.0, ""
        for key, arr in new.items():
            old = saved[f"{run}/{key}"]
            if old.shape != arr.shape:
                print(f"{run}: {key} changed shape {old.shape} -> {arr.shape}")
                rel_max, where = np.inf, key
                continue
            if arr.size == 0:
                continue
            if not np.array_equal(np.isnan(arr), np.isnan(old)):
                diff = rel = np.inf
            else:
                both = ~np.isnan(old)
                if not both.any():
                    continue
                diff = float(np.abs(arr[both] - old[both]).max())
                rel = diff / max(float(np.abs(old[both]).max()), 1e-300)
            abs_max = max(abs_max, diff)
            if rel > rel_max:
                rel_max, where = rel, key
        print(f"{run:<45} max rel diff {rel_max:.2e} ({where})   max abs diff {abs_max:.2e}")
        worst = max(worst, rel_max)
    print(f"worst relative difference {worst:.2e} (tolerance {args.tol:.0e})")
    return 0 if worst <= args.tol else 1


if __name__ == "__main__":
    raise SystemExit(main())
