"""Slider-crank (thesis Ex. 4): Flexmech against Exudyn 1.13.6, run on demand.

Not a test (pytest does not collect this file: its name does not match ``test_*``,
``tests/benchmarks`` is excluded from the default run, and everything runs under
``if __name__ == "__main__"``).  Exudyn is *not* a Flexmech dependency; install it
in a scratch environment only::

    pip install exudyn==1.13.6
    python tests/benchmarks/exudyn_compare.py            # timings + a short comparison
    python tests/benchmarks/exudyn_compare.py --study    # mesh and step study (minutes)
    python tests/benchmarks/exudyn_compare.py --study --rigid-v0 --no-rotary --gebeam --mesh 2,4,8,16,32 --no-timing
        # + Flexmech with the rigid initial velocity given explicitly, + Flexmech without
        #   rotary inertia (the cable's model) and converged runs of both codes, + Exudyn's
        #   geometrically exact 2D beam as a second check (the tables of docs/validation.md)

The problem is ``resources/examples/slider_crank_flexible.json`` (geometry, section,
material and masses are read from it): rigid crank OA = 0.15 m driven at
150 rad/s counter-clockwise from the collinear position O-A-B, flexible steel rod
AB = 0.3 m (d = 6 mm, E = 2e11 Pa, density 7870), slider on the x axis, crank mass
= slider mass = half the rod mass, crank inertia m L^2/12 about its centre, no
damping, starting undeformed with the rigid-mechanism velocity field.

Exudyn model: the crank is an ``ObjectRigidBody2D`` pinned to ground
(``RevoluteJoint2D``), its angle prescribed by a ``CoordinateConstraint`` with the
offset 150 t; the rod is ``ObjectANCFCable2D`` (geometrically exact Euler-Bernoulli
cable, cubic Hermite interpolation of position, consistent constant mass matrix, no
shear and no rotary inertia), pinned to the crank at A; the slider is a
``MassPoint2D`` pinned to the rod end B whose y coordinate is constrained to 0.
Initial velocities are set node by node to the rigid field (crank 150 rad/s, rod
-75 rad/s about B, slider at rest), slopes rotating at -75 rad/s.  Integrator:
Exudyn's implicit second-order solver with ``useNewmark`` (beta = 1/4, gamma = 1/2,
no numerical damping), modified Newton, fixed step, sparse solver (EigenSparse).

Output: the rod mid-span deflection from the chord A-B divided by 0.3 m (positive
to the left of A -> B), against the crank angle 150 t, over two revolutions.
"""
from __future__ import annotations

import argparse
import copy
import json
import math
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "slider_crank_flexible.json"


# --------------------------------------------------------------------------- problem data
def problem() -> dict:
    """Numbers of the example, read from the model file."""
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    nodes = {n["id"]: (n["x"], n["y"]) for n in doc["nodes"]}
    crank, rod = doc["links"][0], doc["links"][1]
    mat = {m["id"]: m for m in doc["materials"]}[rod["section"]["material"]]
    d = rod["section"]["d"]
    A, I = math.pi * d * d / 4, math.pi * d**4 / 64
    L1 = math.dist(nodes["O"], nodes["A"])
    L2 = math.dist(nodes["A"], nodes["B"])
    omega = doc["drivers"][0]["function"]["value"]
    m_crank = crank["mass"]
    return dict(
        doc=doc,
        L1=L1,
        L2=L2,
        omega=omega,
        EA=mat["E"] * A,
        EI=mat["E"] * I,
        rhoA=mat["density"] * A,
        rhoI=mat["density"] * I,
        m_crank=m_crank,
        J_crank=m_crank * L1 * L1 / 12.0,
        m_slider=doc["masses"][0]["mass"],
        period=2 * math.pi / omega,
    )


P = problem()


# --------------------------------------------------------------------------- Flexmech
def flexmech_run(n_el: int, steps_per_rev: int, formulation: str = "consistent", revs: float = 2.0,
                 record: bool = True, rigid_initial_velocity: bool = False, rotary_inertia: bool = True):
    """Run Flexmech; returns (t, deflection/L, wall seconds, meta).  ``rotary_inertia=False``
    gives the rod a ``per_length`` section with the same EA, EI, rhoA and rhoI = 0 (the
    mechanical model of Exudyn's ANCF cable)."""
    from solver.api import simulate

    doc = copy.deepcopy(P["doc"])
    doc["links"][1]["mesh"]["elements"] = n_el
    doc["solver"]["step"] = P["period"] / steps_per_rev
    doc["solver"]["end_time"] = P["period"] * revs
    # every step when the curve is wanted; otherwise only the first and last frame
    doc["solver"]["output_interval"] = 0.0 if record else P["period"] * revs
    doc["solver"]["formulation"] = formulation
    if not rotary_inertia:
        doc["links"][1]["section"] = {"kind": "per_length", "EA": P["EA"], "EI": P["EI"], "rhoA": P["rhoA"], "rhoI": 0.0}
    if rigid_initial_velocity:
        # the rigid field given explicitly (link entries: rigid field about the link's centroid)
        vA = P["omega"] * P["L1"]
        doc["initial_velocities"] = [
            {"link": "crank", "vy": 0.5 * vA, "omega": P["omega"]},
            {"link": "rod", "vy": 0.5 * vA, "omega": -vA / P["L2"]},
        ]
    t0 = time.perf_counter()
    res = simulate(doc)
    wall = time.perf_counter() - t0
    if res.meta.get("status") != "completed":
        raise RuntimeError(f"Flexmech run failed: {res.meta.get('message')}")
    return np.asarray(res.time, dtype=float), res.stack("midspan")[:, 0].astype(float), wall, res.meta


# --------------------------------------------------------------------------- Exudyn
def exudyn_build(n_el: int, element: str = "ancf"):
    """The slider-crank in Exudyn with ``n_el`` rod elements: ``ancf`` (ObjectANCFCable2D,
    the reference) or ``gebeam`` (ObjectBeamGeometricallyExact2D: linear, shear-deformable
    Simo-Reissner element with rotary inertia; a second, independent check)."""
    import exudyn as exu
    from exudyn.itemInterface import (
        CoordinateConstraint,
        MarkerBodyPosition,
        MarkerNodeCoordinate,
        MarkerNodePosition,
        MassPoint2D,
        NodePoint2D,
        NodePoint2DSlope1,
        NodePointGround,
        NodeRigidBody2D,
        ObjectANCFCable2D,
        ObjectBeamGeometricallyExact2D,
        ObjectGround,
        ObjectRigidBody2D,
        RevoluteJoint2D,
    )

    L1, L2, w = P["L1"], P["L2"], P["omega"]
    w_rod = -w * L1 / L2  # rod angular speed at t = 0 (B at rest)
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    gnode = mbs.AddNode(NodePointGround())
    m_gc = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=gnode, coordinate=0))
    # crank: rigid body with its centre of mass at mid-crank, pinned at O, angle = omega t
    n_c = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[L1 / 2, 0, 0], initialVelocities=[0, w * L1 / 2, w]))
    crank = mbs.AddObject(ObjectRigidBody2D(nodeNumber=n_c, mass=P["m_crank"], inertia=P["J_crank"]))
    m_O = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0]))
    m_cO = mbs.AddMarker(MarkerBodyPosition(bodyNumber=crank, localPosition=[-L1 / 2, 0, 0]))
    m_cA = mbs.AddMarker(MarkerBodyPosition(bodyNumber=crank, localPosition=[L1 / 2, 0, 0]))
    mbs.AddObject(RevoluteJoint2D(markerNumbers=[m_O, m_cO]))
    m_phi = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n_c, coordinate=2))
    mbs.AddObject(CoordinateConstraint(markerNumbers=[m_gc, m_phi],
                                       offsetUserFunction=lambda mbs, t, item, off: w * t))
    # rod: ANCF cable elements, nodes with the rigid velocity field (slopes turning at w_rod)
    le = L2 / n_el
    nodes = []
    for i in range(n_el + 1):
        x = L1 + i * le
        vy = w * L1 + w_rod * (x - L1)
        if element == "ancf":
            node = NodePoint2DSlope1(referenceCoordinates=[x, 0, 1, 0], initialVelocities=[0, vy, 0, w_rod])
        else:
            node = NodeRigidBody2D(referenceCoordinates=[x, 0, 0], initialVelocities=[0, vy, w_rod])
        nodes.append(mbs.AddNode(node))
    if element == "ancf":
        elements = [
            mbs.AddObject(ObjectANCFCable2D(nodeNumbers=[nodes[i], nodes[i + 1]], length=le, massPerLength=P["rhoA"],
                                            bendingStiffness=P["EI"], axialStiffness=P["EA"]))
            for i in range(n_el)
        ]
    else:
        nu = 0.3  # steel; Timoshenko shear coefficient of a circle 6(1+nu)/(7+6nu)
        GA = 6 * (1 + nu) / (7 + 6 * nu) * P["EA"] / (2 * (1 + nu))
        elements = [
            mbs.AddObject(ObjectBeamGeometricallyExact2D(nodeNumbers=[nodes[i], nodes[i + 1]], length=le,
                                                         massPerLength=P["rhoA"], crossSectionInertia=P["rhoI"],
                                                         bendingStiffness=P["EI"], axialStiffness=P["EA"],
                                                         shearStiffness=GA))
            for i in range(n_el)
        ]
    mbs.AddObject(RevoluteJoint2D(markerNumbers=[m_cA, mbs.AddMarker(MarkerNodePosition(nodeNumber=nodes[0]))]))
    # slider: point mass pinned to B, on the x axis
    n_s = mbs.AddNode(NodePoint2D(referenceCoordinates=[L1 + L2, 0]))
    mbs.AddObject(MassPoint2D(nodeNumber=n_s, mass=P["m_slider"]))
    mbs.AddObject(RevoluteJoint2D(markerNumbers=[mbs.AddMarker(MarkerNodePosition(nodeNumber=nodes[-1])),
                                                 mbs.AddMarker(MarkerNodePosition(nodeNumber=n_s))]))
    mbs.AddObject(CoordinateConstraint(markerNumbers=[m_gc, mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n_s, coordinate=1))]))
    mbs.Assemble()
    return SC, mbs, nodes, elements


def exudyn_run(n_el: int, steps_per_rev: int, revs: float = 2.0, record: bool = True, sparse: bool = True,
               element: str = "ancf"):
    """Run Exudyn; returns (t, deflection/L, wall seconds, statistics)."""
    import exudyn as exu

    SC, mbs, nodes, elements = exudyn_build(n_el, element)
    n_steps = int(round(steps_per_rev * revs))
    s = exu.SimulationSettings()
    ti = s.timeIntegration
    ti.numberOfSteps = n_steps
    ti.endTime = P["period"] * revs
    ti.verboseMode = 0
    ti.adaptiveStep = False
    ti.generalizedAlpha.useNewmark = True
    ti.generalizedAlpha.newmarkBeta = 0.25
    ti.generalizedAlpha.newmarkGamma = 0.5
    ti.generalizedAlpha.spectralRadius = 1.0
    ti.newton.useModifiedNewton = True
    s.solution.file.write = False
    s.solution.sensors.active = False
    s.show.statistics = False
    s.show.computationTime = False
    s.linearSolver.solverType = exu.LinearSolverType.EigenSparse if sparse else exu.LinearSolverType.EXUdense

    times, values = [], []
    if record:
        Pos = exu.OutputVariableType.Position
        L2, k = P["L2"], n_el // 2

        def midpoint():
            if n_el % 2 == 0:
                return mbs.GetNodeOutput(nodes[k], Pos)
            x = 0.5 * L2 / n_el if element == "ancf" else 0.0  # local x: [0, le] (ANCF), [-le/2, le/2] (beam)
            return mbs.GetObjectOutputBody(elements[k], Pos, localPosition=[x, 0, 0])

        def post_step(mbs_, t):
            a = np.asarray(mbs.GetNodeOutput(nodes[0], Pos))[:2]
            b = np.asarray(mbs.GetNodeOutput(nodes[-1], Pos))[:2]
            m = np.asarray(midpoint())[:2]
            c = b - a
            n = np.array([-c[1], c[0]]) / math.hypot(c[0], c[1])
            times.append(t)
            values.append(float(np.dot(m - a, n)) / L2)
            return True

        post_step(mbs, 0.0)
        mbs.SetPostStepUserFunction(post_step)
    solver = exu.MainSolverImplicitSecondOrder()
    t0 = time.perf_counter()
    ok = solver.SolveSystem(mbs, s)
    wall = time.perf_counter() - t0
    if not ok:
        raise RuntimeError(f"Exudyn run failed: {solver.GetErrorString()}")
    it = solver.it
    stats = dict(steps=n_steps, residuals=it.newtonStepsCount, jacobians=it.newtonJacobiCount)
    return np.array(times), np.array(values), wall, stats


# --------------------------------------------------------------------------- evaluation
def peak(t: np.ndarray, d: np.ndarray) -> tuple[float, float]:
    """Peak |d| (signed) and the crank angle in degrees where it occurs; the largest
    sample refined by the parabola through it and its two neighbours."""
    i = int(np.argmax(np.abs(d)))
    if 0 < i < len(d) - 1:
        y0, y1, y2 = d[i - 1], d[i], d[i + 1]
        den = y0 - 2 * y1 + y2
        s = 0.5 * (y0 - y2) / den if den != 0 else 0.0
        s = max(-1.0, min(1.0, s))
        val = y1 - 0.25 * (y0 - y2) * s
        tp = t[i] + s * (t[i + 1] - t[i - 1]) / 2
    else:
        val, tp = d[i], t[i]
    return float(val), math.degrees(P["omega"] * tp)


def max_diff(t: np.ndarray, d: np.ndarray, ref: tuple[np.ndarray, np.ndarray]) -> float:
    """Largest |d - d_ref| over the run, the reference interpolated at the times t."""
    return float(np.max(np.abs(d - np.interp(t, ref[0], ref[1]))))


def row(label: str, t, d, ref, ref_peak) -> str:
    pk, ang = peak(t, d)
    return f"{label:<34s} {pk:+.6f} {100 * (abs(pk) / abs(ref_peak) - 1):+7.2f} % {ang:8.2f}   {max_diff(t, d, ref):.2e}"


HEADER = f"{'run':<34s} {'peak d/L':>9s} {'vs ref':>9s} {'angle deg':>9s}   max|d-d_ref|"


# --------------------------------------------------------------------------- main
def timing(repeat: int) -> None:
    print("\nWall times, two revolutions (Flexmech: first/last frame only; Exudyn: no output)")
    print(f"{'case':<24s} {'Flexmech s':>11s} {'it/step':>8s} {'Exudyn s':>9s} {'res/step':>9s} {'ratio F/E':>10s}")
    for n_el, n_steps in ((8, 2000), (64, 4000)):
        spr = n_steps // 2
        fm = min((flexmech_run(n_el, spr, record=False) for _ in range(repeat)), key=lambda r: r[2])
        ex = min((exudyn_run(n_el, spr, record=False) for _ in range(repeat)), key=lambda r: r[2])
        fm_wall, ex_wall = fm[2], ex[2]
        print(f"{f'{n_el} el x {n_steps} steps':<24s} {fm_wall:11.3f} {fm[3]['newton_iterations_per_step']:8.2f} "
              f"{ex_wall:9.3f} {ex[3]['residuals'] / n_steps:9.2f} {fm_wall / ex_wall:10.1f}")


def study(rigid_iv: bool, gebeam: bool, meshes: tuple[int, ...] = (2, 4, 8, 16), no_rotary: bool = False) -> None:
    print("\nReference: Exudyn ANCFCable2D, 64 elements, 4000 steps/rev")
    tr, dr, _w, _s = exudyn_run(64, 4000)
    ref = (tr, dr)
    ref_peak, ref_ang = peak(tr, dr)
    print(f"  peak d/L = {ref_peak:+.6f} at crank angle {ref_ang:.2f} deg")
    forms = ("consistent", "thesis")

    print("\nMesh study, 1000 steps per revolution")
    print(HEADER)
    for n_el in meshes:
        for form in forms:
            t, d, _w, _m = flexmech_run(n_el, 1000, form)
            print(row(f"Flexmech {form} {n_el} el", t, d, ref, ref_peak))
            if rigid_iv:
                t, d, _w, _m = flexmech_run(n_el, 1000, form, rigid_initial_velocity=True)
                print(row(f"Flexmech {form} {n_el} el, rigid v0", t, d, ref, ref_peak))
            if no_rotary:
                t, d, _w, _m = flexmech_run(n_el, 1000, form, rotary_inertia=False)
                print(row(f"Flexmech {form} {n_el} el, rhoI=0", t, d, ref, ref_peak))
        t, d, _w, _s = exudyn_run(n_el, 1000)
        print(row(f"Exudyn ANCF {n_el} el", t, d, ref, ref_peak))
        sys.stdout.flush()

    print("\nStep study, 8 rod elements")
    print(HEADER)
    for spr in (250, 500, 1000, 2000):
        for form in forms:
            t, d, _w, _m = flexmech_run(8, spr, form)
            print(row(f"Flexmech {form} {spr}/rev", t, d, ref, ref_peak))
        t, d, _w, _s = exudyn_run(8, spr)
        print(row(f"Exudyn ANCF {spr}/rev", t, d, ref, ref_peak))
        sys.stdout.flush()

    if no_rotary:
        print("\nConverged runs, 4000 steps/rev: Flexmech with and without rotary inertia, Exudyn ANCF")
        print(HEADER)
        for n_el in (32, 64):
            for form in forms:
                for rot in (True, False):
                    t, d, _w, _m = flexmech_run(n_el, 4000, form, rotary_inertia=rot)
                    print(row(f"Flexmech {form} {n_el} el{'' if rot else ', rhoI=0'}", t, d, ref, ref_peak))
            sys.stdout.flush()
        t, d, _w, _s = exudyn_run(32, 4000)
        print(row("Exudyn ANCF 32 el", t, d, ref, ref_peak))

        print("\nSame discretisation, 8 elements: max |d_Flexmech - d_Exudyn| over two revolutions")
        for spr in (500, 1000):
            te, de, _w, _s = exudyn_run(8, spr)
            for form in forms:
                for rot in (True, False):
                    t, d, _w, _m = flexmech_run(8, spr, form, rotary_inertia=rot)
                    label = f"{form} {spr}/rev{'' if rot else ', rhoI=0'}"
                    print(f"  {label:<32s} {max_diff(t, d, (te, de)):.2e}")
            sys.stdout.flush()

    if gebeam:
        print("\nSecond check: Exudyn ObjectBeamGeometricallyExact2D (linear, shear, rotary inertia), 1000 steps/rev")
        print(HEADER)
        for n_el in (16, 32, 64, 128):
            t, d, _w, _s = exudyn_run(n_el, 1000, element="gebeam")
            print(row(f"Exudyn GE beam {n_el} el", t, d, ref, ref_peak))
            sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", action="store_true", help="full mesh and step study (several minutes)")
    ap.add_argument("--rigid-v0", action="store_true",
                    help="in the mesh study, also run Flexmech with the rigid initial velocity given explicitly")
    ap.add_argument("--gebeam", action="store_true",
                    help="in the study, also run Exudyn's geometrically exact 2D beam (16-128 elements)")
    ap.add_argument("--no-rotary", action="store_true",
                    help="in the study, also run Flexmech with rhoI = 0 (the cable's model), converged runs "
                         "(32 and 64 elements, 4000 steps/rev) and the same-discretisation differences")
    ap.add_argument("--mesh", default="2,4,8,16", help="rod element counts of the mesh study (default 2,4,8,16)")
    ap.add_argument("--no-timing", action="store_true", help="skip the wall-time comparison")
    ap.add_argument("--repeat", type=int, default=1, help="timing runs per case (the fastest counts)")
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import exudyn
    except ImportError:
        print("Exudyn is not installed: pip install exudyn==1.13.6 (not a Flexmech dependency)")
        return 1
    import solver

    print(f"Exudyn {exudyn.__version__}; Flexmech solver from {Path(solver.__file__).parent}; "
          f"Python {platform.python_version()}; {os.cpu_count()} CPUs")
    if not args.no_timing:
        timing(max(1, args.repeat))
    if args.study:
        study(args.rigid_v0, args.gebeam, tuple(int(n) for n in args.mesh.split(",")), args.no_rotary)
    else:
        print("\nShort comparison, 8 rod elements, 1000 steps per revolution (reference: Exudyn 32 el, 2000/rev)")
        tr, dr, _w, _s = exudyn_run(32, 2000)
        ref_peak = peak(tr, dr)[0]
        print(HEADER)
        print(row("Exudyn ANCF 32 el 2000/rev", tr, dr, (tr, dr), ref_peak))
        for form in ("consistent", "thesis"):
            t, d, _w, _m = flexmech_run(8, 1000, form)
            print(row(f"Flexmech {form} 8 el", t, d, (tr, dr), ref_peak))
        t, d, _w, _s = exudyn_run(8, 1000)
        print(row("Exudyn ANCF 8 el", t, d, (tr, dr), ref_peak))
    return 0


if __name__ == "__main__":
    sys.exit(main())
