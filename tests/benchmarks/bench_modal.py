"""Cost per step of the modal and the corotational slider-crank at equal accuracy (issue 14).

Run on demand from the repository root (not part of the test suite)::

    PYTHONPATH=. python tests/benchmarks/bench_modal.py            # fastest of 3 runs per case
    PYTHONPATH=. python tests/benchmarks/bench_modal.py --quick    # one run per case

The flexible slider-crank (thesis Ex. 4) for two revolutions at 1000 steps per
revolution, with the connecting rod corotational (2, 4, 8 elements) or modal (pinned-pinned
modes with geometric stiffening, computed on a 4- or 8-element mesh, 1 to 3 modes; and
3 modes without stiffening).  For each: wall time with output only at the end (as
``bench_solver.py``), time per step, steps per second, Newton iterations and residual
evaluations per step, and the accuracy from a second run with output at every step: the
peak mid-span deflection / length against the converged reference (Exudyn ANCF, 64
elements, 4000 steps/rev: -0.015521 at 670.98 deg, docs/validation.md) and the largest
difference of the curve from the 8-element corotational run.  A warm-up run first loads
the compiled kernels.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

from solver.api import load_model, simulate
from solver.model.io import examples_dir

sys.path.insert(0, str(Path(__file__).parent))
from bench_solver import measure, repeat_option  # noqa: E402

REFERENCE_PEAK = -0.015521
STEPS_PER_REV, REVS = 1000, 2.0


def slider_crank(elements: int, modal: dict | None = None, output_every_step: bool = False) -> dict:
    doc = load_model(examples_dir() / "slider_crank_flexible.json")
    rev = 2 * math.pi / 150.0
    rod = doc["links"][1]
    rod["mesh"] = {"elements": elements}
    if modal is not None:
        rod.update(kind="modal", **modal)
    doc["solver"].update(step=rev / STEPS_PER_REV, end_time=REVS * rev, output_interval=0.0 if output_every_step else REVS * rev)
    return doc


def main(argv: list[str] | None = None) -> int:
    repeat = repeat_option(argv, __doc__.splitlines()[0])
    simulate(slider_crank(2))  # warm-up: load the compiled kernels
    simulate(slider_crank(2, {"modes": 1, "reference": "pinned", "stiffening": True}))
    cases = [(f"corotational, {n} elements", n, None) for n in (2, 4, 8)]
    for mesh in (4, 8):
        cases += [(f"modal, {m} mode{'s' if m > 1 else ''} + stiffening, {mesh}-element mesh", mesh,
                   {"modes": m, "reference": "pinned", "stiffening": True}) for m in (1, 2, 3)]
    cases.append(("modal, 3 modes, no stiffening, 8-element mesh", 8, {"modes": 3, "reference": "pinned"}))
    base = simulate(slider_crank(8, output_every_step=True)).stack("midspan")[:, 0]
    print("| case | coordinates | wall (s) | us / step | steps / s | Newton it / step | residuals / step "
          "| peak d/L (vs reference) | crank angle | max diff. from 8 corotational elements |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for label, mesh, modal in cases:
        wall, meta = measure(slider_crank(mesh, modal), repeat)
        res = simulate(slider_crank(mesh, modal, output_every_step=True))
        mid = res.stack("midspan")[:, 0]
        i = int(np.argmax(np.abs(mid)))
        angle = math.degrees(res.stack("driver_angle")[i, 0])
        steps = meta["steps"]
        print(f"| {label} | {meta['dofs']} dofs, {meta['constraints']} constraints | {wall:.3f} | "
              f"{wall / steps * 1e6:.0f} | {steps / wall:.0f} | {meta['newton_iterations_per_step']:.2f} | "
              f"{meta['residual_evaluations_per_step']:.2f} | {mid[i]:.6f} ({100 * (mid[i] / REFERENCE_PEAK - 1):+.2f} %) "
              f"| {angle:.2f} deg | {np.abs(mid - base).max():.2e} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
