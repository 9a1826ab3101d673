"""Ensemble statistics of the clearance slider-crank (Flores et al. 2006, Figs. 11-12).

The motion of a journal in its bearing at 5000 rpm is chaotic after about a dozen
impacts: a start moved by 10 nm changes the two-revolution statistics by up to 20 %.
This study runs each shipped clearance example from ``--samples`` starts, the journal's
start offset (``joints[B-clearance].offset.x`` and ``.y``) moved by up to
``--size`` metres (the sweep's ``ensemble`` design, :mod:`solver.sweeps.variants`), and
prints each statistic of ``docs/validation.md``'s clearance table as the ensemble's
mean, standard deviation and range.

    python tests/benchmarks/clearance_ensemble.py --samples 8 --size 1e-6 [NAMES...]

Statistics (N m unless stated): "peak" the largest |crank moment|; "rms" the root mean
square of the moment the clearance adds (minus the ideal joint's inverse dynamics);
"p99" the |moment| exceeded 1 % of the time, time-weighted; "impacts"; "F_max" the
largest contact force (kN); "drift" the energy balance's largest relative drift.
"""
from __future__ import annotations

import argparse
import math
from concurrent.futures import ProcessPoolExecutor

import numpy as np

NAMES = ("hertz", "lankarani_nikravesh", "dubowsky_freudenstein", "goldsmith", "esdu78035", "friction_001",
         "friction_003", "friction_005", "friction_010", "flexible")
STATISTICS = ("peak", "rms", "p99", "impacts", "F_max_kN", "drift")
OMEGA = 5000 * 2 * math.pi / 60  # rad/s
CRANK, ROD, M_ROD, I_ROD, M_SLIDER = 0.05, 0.12, 0.21, 2.5e-4, 0.14  # Table 1


def moment_statistics(t: np.ndarray, moment: np.ndarray) -> dict[str, float]:
    """"peak", "rms" and "p99" (N m) of a crank moment sampled at the times ``t`` (s) of the
    steps, time-weighted over uneven steps."""
    from solver.analysis.closed_forms import slider_crank_moment

    weight = np.gradient(t)
    added = moment - slider_crank_moment(t, OMEGA, CRANK, ROD, M_ROD, I_ROD, M_SLIDER)
    magnitude = np.abs(moment)
    order = np.argsort(magnitude)
    p99 = magnitude[order][np.searchsorted(np.cumsum(weight[order]) / weight.sum(), 0.99)]
    return {"peak": float(magnitude.max()), "rms": float(np.sqrt(np.sum(weight * added**2) / weight.sum())),
            "p99": float(p99)}


def run_statistics(model: dict) -> dict[str, float]:
    """The clearance table's statistics of one run of ``model``."""
    from solver.api import simulate

    res = simulate(model)
    contact = res.meta["compliant_contacts"]["B-clearance"]
    total = res.total_energy()
    return {**moment_statistics(res.time, res.stack("driver_reaction")[:, 0]),
            "impacts": float(contact["impacts"]), "F_max_kN": contact["max_force_N"] / 1e3,
            "drift": float(np.max(np.abs(total - total[0])) / total[0])}


def ensemble_models(name: str, samples: int, size: float, seed: int) -> list[dict]:
    """The example ``name``'s models with the journal's start perturbed."""
    from solver.model.io import examples_dir, load_model
    from solver.sweeps import SweepSpec, build_variants

    model = load_model(examples_dir() / f"slider_crank_clearance_{name}.json")
    perturb = (("joints[B-clearance].offset.x", size), ("joints[B-clearance].offset.y", size))
    spec = SweepSpec((), design="ensemble", samples=samples, seed=seed, perturb=perturb)
    return [v.model for v in build_variants(model, spec)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", default=list(NAMES))
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--size", type=float, default=1e-6, help="largest offset of the journal's start, m")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(f"{args.samples} runs each, journal start moved by up to {args.size:g} m in x and y (seed {args.seed})")
    print(f"{'example':<22} " + "  ".join(f"{s:>26}" for s in STATISTICS))
    with ProcessPoolExecutor(args.workers) as pool:
        for name in args.names:
            rows = list(pool.map(run_statistics, ensemble_models(name, args.samples, args.size, args.seed)))
            cells = []
            for s in STATISTICS:
                x = np.array([r[s] for r in rows])
                cells.append(f"{x.mean():.4g} ± {x.std(ddof=1):.2g} [{x.min():.4g}, {x.max():.4g}]")
            print(f"{name:<22} " + "  ".join(f"{c:>26}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
