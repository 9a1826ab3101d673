"""The struck slider-crank of thesis §5.4: where does the block's rebound velocity come from?

The thesis's block goes from -15 m/s to "almost 40 m/s"; its figure, which would show where the
block meets the slider, is missing from the text.  This study places the block so that it meets
the slider at a chosen crank angle of the first revolution (the motion starts with O, A, B
collinear, A between O and B, as in Ex. 4), and prints the block's velocity after the contact
with both contact models, several rod meshes and Newmark's tau.  docs/validation.md has the
table and the reasoning.

Run: ``python tests/benchmarks/slider_crank_block_study.py`` from the repository root.
"""
from __future__ import annotations

import math
import sys

import numpy as np

from solver.api import load_model, simulate
from solver.model.io import examples_dir

R, L, OMEGA, V_BLOCK = 0.15, 0.3, 150.0, 15.0


def slider_x(theta: float) -> float:
    """Rigid-mechanism slider position at crank angle ``theta``, m."""
    return R * math.cos(theta) + math.sqrt(L * L - (R * math.sin(theta)) ** 2)


def slider_v(theta: float) -> float:
    """Rigid-mechanism slider velocity at ``theta`` (crank at OMEGA), m/s."""
    s = R * math.sin(theta)
    return -R * OMEGA * math.sin(theta) - R * R * OMEGA * math.sin(theta) * math.cos(theta) / math.sqrt(L * L - s * s)


def block_start(theta: float) -> float:
    """Where the block starts so that it meets the (rigid) slider at crank angle ``theta``, m."""
    return slider_x(theta) + V_BLOCK * theta / OMEGA


def rebound(theta: float, kind: str, elements: int = 8, tau: float = 0.6) -> float:
    """The block's velocity 6 ms after it meets the slider at ``theta``, m/s."""
    doc = load_model(examples_dir() / "slider_crank_block.json")
    doc["bodies"][0]["x"] = block_start(theta)
    doc["links"][1]["mesh"] = {"elements": elements}
    doc["contacts"][0]["model"] = {"kind": kind}
    doc["solver"].update(end_time=theta / OMEGA + 0.006, tau=tau, nu=0.25 * (tau + 0.5) ** 2)
    res = simulate(doc)
    return float(res.stack("node_v")[-1, res.node_index("block"), 0])


def main() -> int:
    angles = (4.0, 1.5 * math.pi, 5.0, 5.236)
    print("| crank angle at impact | slider velocity | rigid mechanism, e = 1 | rod elements | tau | impulse | lagrange |")
    print("|---|---|---|---|---|---|---|")
    for theta in angles:
        for elements, tau in ((2, 0.6), (8, 0.6), (16, 0.6), (8, 0.5)):
            v = [rebound(theta, kind, elements, tau) for kind in ("impulse", "lagrange")]
            print(f"| {theta:.3f} rad ({np.degrees(theta):.0f}°) | {slider_v(theta):.2f} m/s | "
                  f"{2 * slider_v(theta) + V_BLOCK:.1f} m/s | {elements} | {tau} | {v[0]:.2f} m/s | {v[1]:.2f} m/s |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
