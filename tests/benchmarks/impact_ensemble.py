"""The shared frame of the impact ensemble studies (``bar_mass_ensemble.py``,
``two_bars_ensemble.py``): run an example from the shipped start and from ``--samples``
starts with one field moved within ±``--size`` (the sweep's ``ensemble`` design), and print
each statistic for the shipped start and as the ensemble's mean ± sample std [min, max]."""
from __future__ import annotations

import argparse
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import numpy as np


def main(description: str, example: str, field: str, run_statistics: Callable[[dict], dict[str, float]]) -> None:
    """Parse ``--samples --size --seed --workers``, run ``example`` with ``field`` perturbed and print."""
    from solver.model.io import examples_dir, load_model
    from solver.sweeps import SweepSpec, build_variants

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--size", type=float, default=1e-6, help=f"largest offset of {field}, m")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    model = load_model(examples_dir() / f"{example}.json")
    spec = SweepSpec((), design="ensemble", samples=args.samples, seed=args.seed, perturb=((field, args.size),))
    with ProcessPoolExecutor(args.workers) as pool:
        shipped, *rows = pool.map(run_statistics, [model, *(v.model for v in build_variants(model, spec))])
    print(f"{args.samples} runs, {field} moved by up to {args.size:g} m (seed {args.seed}); shipped start first")
    for name, value in shipped.items():
        x = np.array([r[name] for r in rows])
        print(f"  {name:<24} {value:.5g}   {x.mean():.5g} ± {x.std(ddof=1):.2g} [{x.min():.5g}, {x.max():.5g}]")
