"""The step control of compliant contacts against accuracy (issue 28, point 1): what a change of
``CompliantModel.event_time``'s criteria buys in steps and costs in accuracy.

    python -m tests.benchmarks.contact_scale_study [--no-clearance]

Prints, per shipped clearance example over its first 3 ms (the first-3-ms test's window): steps,
rejected steps, the largest |crank moment| and impacts against ``test_flores2006.FIRST_IMPACTS``
(2 %, exact count), the energy drift, and for Hertz, Lankarani-Nikravesh and ESDU-78035 the
contact start times less the scipy script's (``scipy_clearance_slider_crank.py``); first the
Hertz ball of ``test_compliant_contact`` (Johnson, e = 1) at ``contact_accuracy`` 10⁻³ and
10⁻⁵: steps, e - 1 and the balance's drift; and a Lankarani-Nikravesh ball (c_e = 0.9, 10⁻⁴):
steps, e against the exact 0.913177 and the drift.
"""
from __future__ import annotations

import argparse

import numpy as np

from solver.api import simulate

from tests.benchmarks import scipy_clearance_slider_crank as script
from tests.solver.test_compliant_contact import ball_on_floor, drift, rebound
from tests.solver.test_flores2006 import FIRST_IMPACTS, example

#: the examples whose impact start times are compared with the scipy script's (no slip reversal)
TIMED = ("hertz", "lankarani_nikravesh", "esdu78035")


def script_onsets(doc: dict) -> np.ndarray:
    """The contact start times (s) of the scipy script's run of ``doc`` (its terminal onset events)."""
    cl = script.Clearance.of_example(doc)
    run = script.simulate(cl)
    delta = np.array([script.contact(cl, t, y, None)[4] for t, y in zip(run["time"], run["state"].T)])
    return run["time"][1:][(delta[1:] > 0.0) & (delta[:-1] <= 0.0)]


def onset_errors(name: str, res) -> str:
    """The largest difference (µs) of the first impacts' start times from the script's, by impact."""
    doc = example(f"slider_crank_clearance_{name}", end_time=0.003)
    ours = np.array([e["contact_time_s"] for e in res.events if e["kind"] == "contact_start"])
    theirs = script_onsets(doc)
    n = min(len(ours), len(theirs))
    return " onsets - script (us): " + " ".join(f"{d * 1e6:+.2f}" for d in ours[:n] - theirs[:n])


def first_quarter(name: str) -> str:
    res = simulate(example(f"slider_crank_clearance_{name}", end_time=0.003))
    peak, impacts = FIRST_IMPACTS[name]
    found = res.meta["compliant_contacts"]["B-clearance"]["impacts"]
    moment = np.abs(res.stack("driver_reaction")[:, 0]).max()
    ok = abs(moment / peak - 1) < 0.02 and found == impacts
    timing = onset_errors(name, res) if name in TIMED else ""
    verdict = "ok" if ok else "FAIL"
    return (f"{name:22s} steps {len(res.steps):5d} rejected {res.meta['rejected_steps']:4d} peak {moment:8.1f} "
            f"({moment / peak - 1:+.2%}) impacts {found:2d}/{impacts:2d} drift {drift(res):.1e} {verdict}{timing}")


def balls() -> list[str]:
    lines = []
    for accuracy in (1e-3, 1e-5):
        res = simulate(ball_on_floor(accuracy=accuracy))
        lines.append(f"Hertz ball {accuracy:.0e}: steps {len(res.steps)} e - 1 {rebound(res) - 1:+.2e} "
                     f"drift {drift(res):.1e}")
    res = simulate(ball_on_floor("lankarani_nikravesh", e=0.9, accuracy=1e-4, end=7e-4))
    lines.append(f"L-N ball c_e 0.9 1e-4: steps {len(res.steps)} e {rebound(res):.6f} (exact 0.913177) "
                 f"drift {drift(res):.1e}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-clearance", action="store_true", help="the balls only")
    parser.add_argument("names", nargs="*", default=list(FIRST_IMPACTS))
    args = parser.parse_args()
    for line in balls():
        print(line, flush=True)
    if not args.no_clearance:
        total = 0
        for name in args.names:
            line = first_quarter(name)
            total += int(line.split("steps")[1].split()[0])
            print(line, flush=True)
        print(f"total steps {total}")


if __name__ == "__main__":
    main()
