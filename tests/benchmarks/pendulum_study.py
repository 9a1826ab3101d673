"""The flexible pendulum (Predebon §7, issue 14): write its shipped examples and print the
study of ``docs/validation.md``.

Run on demand from the repository root (not part of the test suite)::

    PYTHONPATH=. python tests/benchmarks/pendulum_study.py --write   # (re)write the 12 examples
    PYTHONPATH=. python tests/benchmarks/pendulum_study.py           # the tables

Tables: for 1, 3 and 5 modes (free-free reference conditions, the modes of a 20-element
mesh) and the corotational rod (20 elements), under each restitution law with mu = 1:
the first impulse, the impulses of the contact period, the rod's angular velocity after
it and the energies; the energy balance with e = 1 energetic and mu = 0; the
contact-space inverse inertia ``D`` at the impact configuration against the number of
modes (the complete basis of the mesh reproduces the corotational rod's D); and the
clamped frame, whose energy runs away.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "solver"))
from flexible_pendulum import LAWS, MODELS, contact_inverse_inertia, example_name, measures, pendulum  # noqa: E402

from solver.api import simulate  # noqa: E402
from solver.model.io import dumps_model, examples_dir  # noqa: E402


def write_examples() -> None:
    for model in MODELS:
        for law in LAWS:
            path = examples_dir() / f"{example_name(model, law)}.json"
            path.write_text(dumps_model(pendulum(model, law)), encoding="utf-8")
            print("wrote", path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="write the shipped examples and stop")
    args = ap.parse_args(argv)
    if args.write:
        write_examples()
        return 0
    print("| model | law | first impulse: type, a (1/kg), I_n, I_t (N s) | impulses (types) | sum I_n, I_t (N s) "
          "| contact (ms) | omega after (rad/s) | T, U after (J) | friction, restitution (J) | drift |")
    for law in LAWS:
        for model in MODELS:
            m = measures(simulate(pendulum(model, law)))
            kinds = ", ".join(f"{k} {v}" for k, v in sorted(m["types"].items()))
            print(f"| {model} | {law} | {m['first_type']}, {m['first_a']:.3f}, {m['first_I_n_N_s']:.4f}, "
                  f"{m['first_I_t_N_s']:.4f} | {m['impulses']} ({kinds}) | {m['I_n_N_s']:.4f}, {m['I_t_N_s']:.4f} "
                  f"| {1e3 * m['duration_s']:.2f} | {m['omega_rad_s']:.4f} | {m['kinetic_J']:.4f}, {m['strain_J']:.4f} "
                  f"| {m['friction_J']:.4f}, {m['restitution_J']:.4f} | {m['drift_rel']:.1e} |")
    print("\nenergy balance, e = 1 energetic, mu = 0:")
    for model in MODELS:
        m = measures(simulate(pendulum(model, "energetic", mu=0.0)))
        print(f"| {model} | {m['drift_rel']:.2e} | {m['impulses']} |")
    print("\ncontact-space inverse inertia at the impact configuration, free-free modes of the 20-element mesh:")
    for n in (0, 1, 3, 5, 10, 20, 40, 60):
        D = contact_inverse_inertia(pendulum("modal1", "energetic", modes=n))
        print(f"| {n} | {D[0, 0]:.4f} | {D[1, 1]:.4f} | {D[0, 1]:.4f} |")
    for n in (1, 3, 5):
        D = contact_inverse_inertia(pendulum("modal1", "energetic", modes=n, static_modes=True))
        print(f"| {n} + static | {D[0, 0]:.4f} | {D[1, 1]:.4f} | {D[0, 1]:.4f} |")
    D = contact_inverse_inertia(pendulum("corotational", "energetic"))
    print(f"| corotational | {D[0, 0]:.4f} | {D[1, 1]:.4f} | {D[0, 1]:.4f} |")
    print("\nthe frame clamped at the pivot (energetic, mu = 0, 1 ms):")
    for n in (1, 3, 5):
        doc = pendulum("modal1", "energetic", mu=0.0, modes=n, reference="clamped")
        m = measures(simulate(doc))
        print(f"| {n} | {m['drift_rel']:.2e} | {m['impulses']} |")
    print("\nfull basis (60 modes) against the corotational rod, energetic, mu = 1:",
          json.dumps({k: v for k, v in measures(simulate(pendulum("modal1", "energetic", modes=60))).items()
                      if k != "types"}, default=float))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
