"""Modal links against corotational ones on the thesis's chapter-2 examples (issue 14):
the peak mid-span deflection of the robot arm (Ex. 1) and of the flexible slider-crank
(Ex. 4) as the number of modes grows, for the reference conditions and with and without
geometric stiffening.  Prints the tables of ``docs/validation.md``.

Run on demand from the repository root (not part of the test suite)::

    PYTHONPATH=. python tests/benchmarks/modal_convergence.py [--modes 1,2,3,5,8]

Each modal rod uses the mesh of the corotational example it is compared with (the modes
are those of that mesh), so with every mode and small deformations the two coincide.
"""
from __future__ import annotations

import argparse

import numpy as np

from solver.api import load_model, simulate
from solver.model.io import examples_dir


def as_modal(name: str, link: str, **fields) -> dict:
    """Example ``name`` with its flexible ``link`` made modal (mesh kept)."""
    doc = load_model(examples_dir() / f"{name}.json")
    for lk in doc["links"]:
        if lk["id"] == link:
            lk["kind"] = "modal"
            lk.update(fields)
    return doc


def peak(res, last: float = np.inf) -> tuple[float, float]:
    """Largest |mid-span deflection / length| of the run's flexible link up to time ``last``,
    refined by the parabola through its neighbours: (signed value, time)."""
    mid = res.stack("midspan")[:, 0]
    t = res.time
    keep = np.flatnonzero(t <= last)
    i = keep[int(np.argmax(np.abs(mid[keep])))]
    if 0 < i < len(mid) - 1:
        a, b, c = mid[i - 1], mid[i], mid[i + 1]
        den = a - 2 * b + c
        shift = 0.5 * (a - c) / den if den else 0.0
        return float(b - 0.25 * (a - c) * shift), float(t[i] + shift * (t[i + 1] - t[i]))
    return float(mid[i]), float(t[i])


def study(name: str, link: str, modes: list[int], settings: list[tuple[str, bool]], last: float = np.inf):
    reference_run = simulate(load_model(examples_dir() / f"{name}.json"))
    ref_val, ref_t = peak(reference_run, last)
    print(f"\n{name}: corotational peak {ref_val:.6f} at t = {ref_t:.4f} s")
    print("| reference, stiffening | " + " | ".join(f"{n} modes" for n in modes) + " |")
    for reference, stiffening in settings:
        cells = []
        for n in modes:
            res = simulate(as_modal(name, link, modes=n, reference=reference, stiffening=stiffening))
            if not res.completed:
                cells.append("failed")
                continue
            val, t = peak(res, last)
            cells.append(f"{val:.6f} ({100 * (val / ref_val - 1):+.2f} %) {t:.4f} s")
        print(f"| {reference}, {'on' if stiffening else 'off'} | " + " | ".join(cells) + " |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--modes", default="1,2,3,5,8")
    args = ap.parse_args(argv)
    modes = [int(m) for m in args.modes.split(",")]
    every = [(r, s) for r in ("clamped", "pinned", "free") for s in (False, True)]
    study("slider_crank_flexible", "rod", modes, every)
    study("robot_arm", "arm", modes, every)
    # the repositioning (ramp) phase, where the arm bends by 4e-4 of its length
    study("robot_arm", "arm", modes, every, last=2.5)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
