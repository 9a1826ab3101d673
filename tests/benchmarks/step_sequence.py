"""Step-sequence study of the impact examples (docs/solver.md, *Step-sequence sensitivity*).

Each example is run at its step h, at h/2 and with another step sequence at the same step (its
output interval over 1.5, or a step of 0.9 h where every step is a frame), and its headline
printed with the difference and whether the run warns of a chain of strikes fed from outside
(:func:`solver.results.impulse_chains.driven_chain_warning`).

    python tests/benchmarks/step_sequence.py [NAMES...]

Headlines: a free body's final speed (m/s) where the model has free bodies, else the total
normal impulse of the strikes (N s), else a pair's largest normal force (N).
"""
from __future__ import annotations

import argparse
import copy
import json

from solver.api import simulate
from solver.model.io import examples_dir
from solver.results.impulse_chains import driven_chain_warning
from solver.results.step_check import headlines

#: examples with impacts, and the end time (s) where a run is cut short (its strikes over by then)
EXAMPLES = {"struck_slider_crank": 0.032, "slider_crank_block": 0.032, "bar_mass_impact": None,
            "bar_mass_impact_lagrange": None, "two_bars_impact": None, "two_bars_impact_lagrange": None,
            "rod_floor_flexible": None, "pendulum_impact": None, "rod_impact_rigid": None,
            "pendulum_flexible_modal5_energetic": None, "pendulum_flexible_corotational_energetic": None,
            "rotating_beam_stop": None, "spheres_hertz": None, "slider_crank_clearance_lankarani_nikravesh": None}


def model(name: str) -> dict:
    """The example (the user-drawn struck slider-crank of tests/oracles/test_struck_links.py by its name)."""
    if name == "struck_slider_crank":
        from tests.oracles.test_struck_links import struck_slider_crank

        doc = struck_slider_crank()
    else:
        doc = json.loads((examples_dir() / f"{name}.json").read_text(encoding="utf-8"))
    if EXAMPLES.get(name):
        doc["solver"]["end_time"] = EXAMPLES[name]
    return doc


def sequence(doc: dict, which: str) -> dict:
    """``doc`` at its step (``"h"``), half of it (``"h/2"``) or another sequence (``"other"``)."""
    doc = copy.deepcopy(doc)
    solver = doc.setdefault("solver", {})
    if which == "h/2":
        solver["step"] = solver.get("step", 1e-3) / 2.0
    elif which == "other" and solver.get("output_interval"):
        solver["output_interval"] /= 1.5
    elif which == "other":
        solver["step"] = solver.get("step", 1e-3) * 0.9
    return doc


def headline(results) -> tuple[str, float]:
    """What a user reads of the run (see the module's text), of :func:`~solver.results.step_check.headlines`."""
    found = headlines(results)
    for kind in ("final speed", "total normal impulse", "largest normal force"):
        named = [(name, value) for name, value in found.items() if kind in name]
        if named:
            return named[0][0], sum(value for _, value in named) if kind == "total normal impulse" else named[0][1]
    return "final energy, J", found["final energy, J"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(EXAMPLES))
    args = parser.parse_args()
    print("| example | headline | h | h/2 | difference | other sequence | warned |")
    print("|---|---|---|---|---|---|---|")
    for name in args.names:
        runs = {which: simulate(sequence(model(name), which)) for which in ("h", "h/2", "other")}
        (what, a), (_, b), (_, c) = (headline(runs[w]) for w in ("h", "h/2", "other"))
        difference = abs(a - b) / max(abs(a), abs(b)) if max(abs(a), abs(b)) > 0.0 else 0.0
        warned = "yes" if driven_chain_warning(runs["h"]) else "no"
        print(f"| {name} | {what} | {a:.5g} | {b:.5g} | {difference:.2%} | {c:.5g} | {warned} |", flush=True)


if __name__ == "__main__":
    main()
