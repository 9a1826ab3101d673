"""Ensemble statistics of the flexible pendulum (Predebon §7, ``docs/validation.md``).

The first impulse of the flexible rod is deterministic (the fall and the contact-space
inertia at the impact configuration), but the sequence of impulses that follows while
waves run along the rod is chaotic: a surface moved by a micrometre changes the impulse
count, the contact period and the angular velocity after it.  This study runs each
shipped example ``pendulum_flexible_<model>_<law>.json`` from ``--samples`` copies with
the surface's height (``contacts[tip-surface].target.y``) moved by a uniform offset within
``±--size`` metres (the sweep's ``ensemble`` design, :mod:`solver.sweeps.variants`), and
prints each statistic of the validation's table as the ensemble's mean, sample standard
deviation and range.

    PYTHONPATH=. python tests/benchmarks/pendulum_ensemble.py --samples 10 --size 1e-6 [NAMES...]
    ... --set "contacts[tip-surface].mu_s=0" --set "contacts[tip-surface].mu_d=0" NAMES   # mu = 0
    ... --link modes=60 pendulum_flexible_modal1_energetic          # the complete basis
    ... --link modes=3 --link static_modes=true pendulum_flexible_modal1_energetic

Statistics (:func:`flexible_pendulum.measures`): the first impulse's I_n (N s; its spread
shows it is deterministic), the impulses, ΣI_n and ΣI_t (N s), the contact period (ms), the
angular velocity after it (rad/s), the kinetic and strain energy after it and their sum, friction and
restitution dissipated (J), and the energy balance's largest drift (relative).
"""
from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "solver"))
from flexible_pendulum import LAWS, MODELS, example_name, measures  # noqa: E402

STATISTICS = ("first_I_n_N_s", "impulses", "I_n_N_s", "I_t_N_s", "duration_ms", "omega_rad_s", "kinetic_J",
              "strain_J", "energy_after_J", "friction_J", "restitution_J", "drift_rel")
SURFACE = "contacts[tip-surface].target.y"


def run_statistics(model: dict) -> dict[str, float]:
    """The validation table's statistics of one run of ``model``, and its impulses by type."""
    from solver.api import simulate

    m = measures(simulate(model))
    m["duration_ms"] = 1e3 * m["duration_s"]
    m["energy_after_J"] = m["kinetic_J"] + m["strain_J"]
    return {**{s: float(m[s]) for s in STATISTICS}, **{f"type {k}": float(v) for k, v in m["types"].items()}}


def ensemble_models(args: argparse.Namespace, name: str) -> list[dict]:
    """The example ``name``'s models, the rod's fields ``args.link`` and the fields ``args.set``
    replaced, with the field ``args.path`` (the surface's height) perturbed."""
    from solver.model.io import examples_dir, load_model
    from solver.sweeps import SweepSpec, build_variants

    model = load_model(examples_dir() / f"{name}.json")
    for field, value in (item.split("=", 1) for item in args.link):
        model["links"][0][field] = json.loads(value)
    fixed = tuple((path, float(value)) for path, value in (item.split("=", 1) for item in args.set))
    spec = SweepSpec((), design="ensemble", samples=args.samples, seed=args.seed, fixed=fixed,
                     perturb=((args.path, args.size),))
    return [v.model for v in build_variants(model, spec)]


def spread(values: list[float]) -> str:
    """``mean ± sample std [min, max]`` of ``values``."""
    x = np.asarray(values)
    return f"{x.mean():.5g} ± {x.std(ddof=1):.2g} [{x.min():.5g}, {x.max():.5g}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    names = [example_name(model, law) for law in LAWS for model in MODELS]
    parser.add_argument("names", nargs="*", default=names)
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--size", type=float, default=1e-6, help="largest offset of the field, m")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--path", default=SURFACE, help="the perturbed field (nodes[tip].y: the release angle)")
    parser.add_argument("--set", action="append", default=[], metavar="PATH=VALUE", help="a field for every run")
    parser.add_argument("--link", action="append", default=[], metavar="FIELD=JSON", help="a field of the rod")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    moved = f"{args.samples} runs each, {args.path} moved by up to {args.size:g} m (seed {args.seed})"
    print(moved, *args.set, *args.link)
    with ProcessPoolExecutor(args.workers) as pool:
        for name in args.names:
            rows = list(pool.map(run_statistics, ensemble_models(args, name)))
            kinds = sorted({k for r in rows for k in r if k.startswith("type ")})
            print(name, flush=True)
            for s in (*STATISTICS, *kinds):
                print(f"  {s:<14} {spread([r.get(s, 0.0) for r in rows])}", flush=True)


if __name__ == "__main__":
    main()
