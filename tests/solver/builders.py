"""Small model documents built in code for the physics tests."""
from __future__ import annotations


def beam_model(*, L=1.0, n=10, EA=1e6, EI=1e2, rhoA=1.0, rhoI=0.0, clamp=True, loads=(), angle=0.0, solver=None):
    """A straight flexible beam from the origin, optionally clamped at the root."""
    import math

    doc = {
        "format": "flexmech",
        "version": 1,
        "nodes": [
            {"id": "root", "x": 0.0, "y": 0.0},
            {"id": "tip", "x": L * math.cos(angle), "y": L * math.sin(angle)},
        ],
        "links": [
            {
                "id": "beam",
                "kind": "flexible",
                "nodes": ["root", "tip"],
                "section": {"kind": "per_length", "EA": EA, "EI": EI, "rhoA": rhoA, "rhoI": rhoI, "c": 0.01},
                "mesh": {"elements": n},
            }
        ],
        "loads": [dict(ld, id=f"load{i}") for i, ld in enumerate(loads)],
    }
    if clamp:
        doc["joints"] = [{"id": "clamp", "kind": "fixed", "node": "root"}]
    if solver:
        doc["solver"] = solver
    return doc


def rigid_slider_crank(r=0.15, l=0.3, omega=150.0, m_crank=0.1, m_rod=0.2, m_slider=0.1, steps_per_rev=400, revs=1.0):
    """A rigid slider-crank (uniform bars) driven at constant speed."""
    import math

    rev = 2 * math.pi / omega
    return {
        "format": "flexmech",
        "version": 1,
        "nodes": [{"id": "O", "x": 0.0, "y": 0.0}, {"id": "A", "x": r, "y": 0.0}, {"id": "B", "x": r + l, "y": 0.0}],
        "links": [
            {"id": "crank", "kind": "rigid", "nodes": ["O", "A"], "mass": m_crank},
            {"id": "rod", "kind": "rigid", "nodes": ["A", "B"], "mass": m_rod},
        ],
        "joints": [{"id": "O", "kind": "ground", "node": "O"}, {"id": "B", "kind": "slider", "node": "B"}],
        "masses": [{"id": "slider", "node": "B", "mass": m_slider}],
        "drivers": [{"id": "motor", "kind": "speed", "link": "crank", "pivot": "O", "function": {"kind": "constant", "value": omega}}],
        "solver": {"end_time": revs * rev, "step": rev / steps_per_rev},
    }


def as_modal(doc, link="beam", **fields):
    """``doc`` with the flexible link ``link`` made a modal link (its section and mesh kept)."""
    import copy

    out = copy.deepcopy(doc)
    for lk in out["links"]:
        if lk["id"] == link:
            lk["kind"] = "modal"
            lk.update(fields)
    return out


def struck_pendulum(model: dict, *, end_time=0.3, reach=None):
    """Getting Started's impact tried on a pendulum: a flexible steel arm (0.5 m, Ø 10 mm, 4
    elements) pinned at its left end and horizontal, a free 0.1 kg block 20 mm above its tip
    thrown down at 2 m/s onto it (a node target whose normal points up), gravity.  The block
    bounces off within 15 ms; the arm swings down and under it."""
    target = {"kind": "node", "node": "tip", "angle": 1.5707963267948966}
    if reach is not None:
        target["reach"] = reach
    return {
        "format": "flexmech", "version": 1,
        "materials": [{"id": "steel", "E": 2e11, "density": 7870.0}],
        "nodes": [{"id": "O", "x": 0.0, "y": 0.0}, {"id": "tip", "x": 0.5, "y": 0.0}],
        "links": [{"id": "arm", "kind": "flexible", "nodes": ["O", "tip"],
                   "section": {"kind": "circle", "material": "steel", "d": 0.01}, "mesh": {"elements": 4}}],
        "joints": [{"id": "pin", "kind": "ground", "node": "O"}],
        "bodies": [{"id": "block", "x": 0.5, "y": 0.02, "mass": 0.1}],
        "gravity": {"y": -9.81},
        "contacts": [{"id": "drop", "point": {"body": "block"}, "target": target, "e": 1.0, "model": model}],
        "initial_velocities": [{"body": "block", "vy": -2.0}],
        "solver": {"end_time": end_time, "step": 1e-4, "output_interval": 1e-3},
    }


def driven_link_struck(step: float = 5e-4, ground: bool = True) -> dict:
    """A rigid link (0.2 kg, 0.3 m) a speed driver turns at -10 rad/s about its pin, its tip struck against a
    ground segment at 1.1 ms (momentum balance, e = 0.5, mu 0.5), a block on its side (a Lagrange pair) and a
    ramped load at the tip: the joints and the driver hold the tip, whatever the impulse.  Without ``ground``,
    the block's onset at 2.36 ms is the only contact event."""
    doc = {
        "format": "flexmech", "version": 1,
        "nodes": [{"id": "n0", "x": 0.0, "y": 0.0}, {"id": "n1", "x": 0.256699, "y": -0.15526}],
        "links": [{"id": "link0", "nodes": ["n0", "n1"], "kind": "rigid", "mass": 0.2}],
        "joints": [{"id": "pivot", "kind": "ground", "node": "n0"}],
        "bodies": [{"id": "body", "kind": "rigid", "x": 0.114634449, "y": -0.055206115, "mass": 0.05,
                    "inertia": 2.5e-06, "radius": 0.01}],
        "contacts": [{"id": "tip-ground", "point": {"node": "n1"},
                      "target": {"kind": "ground_segment", "x1": 0.056699, "y1": -0.15808844214590514,
                                 "x2": 0.456699, "y2": -0.15808844214590514},
                      "mu_s": 0.5, "mu_d": 0.5, "model": {"kind": "impulse"}, "e": 0.5, "law": "newton"},
                     {"id": "body-link", "point": {"body": "body"}, "target": {"kind": "link", "link": "link0",
                                                                               "side": "left"},
                      "mu_s": 0.0, "mu_d": 0.0, "model": {"kind": "lagrange"}}],
        "initial_velocities": [{"body": "body", "vx": -1.473515, "vy": -1.611988, "omega": 5.0}],
        "solver": {"end_time": 0.004, "step": step, "tau": 0.51},
        "drivers": [{"id": "motor", "kind": "speed", "link": "link0", "pivot": "n0",
                     "function": {"kind": "constant", "value": -10.0}}],
        "loads": [{"id": "push", "node": "n1", "fx": -20.0, "fy": -10.0,
                   "function": {"kind": "ramp", "t0": 0.0, "t1": 0.01, "v0": 0.0, "v1": 1.0}}],
    }
    if not ground:
        doc["contacts"] = doc["contacts"][1:]
    return doc
