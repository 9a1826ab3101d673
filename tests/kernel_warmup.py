"""Compile the solver's kernels into numba's cache in a second process while the suite runs.

In a fresh checkout nothing is cached: every kernel a test reaches first compiles in that test
(the clearance joint's compliant steps 2 min, closed Lagrange steps with friction 3 min), on one
core, while the machine's second core idles.  ``python -m tests.kernel_warmup`` runs every
bundled example through its impacts (each up to :data:`EXAMPLE_WALL_S` of wall time, or until it has
compiled nothing for :data:`QUIET_S`), those the
first tests reach first (:data:`FIRST`), writing each kernel to the cache as it compiles; a test
that reaches a kernel after that loads it (milliseconds).  :func:`tests.conftest.pytest_sessionstart`
starts it; it ends by itself, or with the session.
"""
from __future__ import annotations

import sys
import time

#: the examples whose kernels the suite's first tests reach (the impulse and Lagrange pairs of the
#: window's contact-model tests, ...), those whose kinds of kernel the suite's start compiles after
#: starting this process (Lagrange pairs, the clearance joint: :data:`tests.conftest.KERNEL_EXAMPLES`)
#: last, so that the two processes do not compile the same kernels at once; not the clearance joint
#: of the very first test, which the suite reaches before this process could have compiled it (it
#: compiled it twice: the test 119 s, this process as long, at once)
FIRST = ("rod_impact_rigid", "rotating_beam_stop", "moving_support_beam", "disc_rolling_beam", "moving_mass_beam",
         "bar_mass_impact_lagrange", "two_bars_impact_lagrange", "slider_crank_clearance_lubricated",
         "slider_crank_translational_clearance")
#: those the suite compiles itself first
LAST = ("slider_crank_clearance_lankarani_nikravesh",)
#: wall time (s) one example may run: its first impacts, not its whole span
EXAMPLE_WALL_S = 20.0
#: an example's run ends once numba compiled nothing for this long (s): stepping on with every kernel it
#: reached compiled is work for no one (this process's CPU in a fresh clone 256 -> 237 s)
QUIET_S = 3.0


def warm(names: list[str], wall: float = EXAMPLE_WALL_S, report: bool = False) -> None:
    """Run each example of ``names`` until it ends, ``wall`` seconds pass or numba compiled nothing for
    :data:`QUIET_S` (unless ``report``); an example that fails is passed over (its test says why);
    ``report``: print each one's processor time."""
    from solver.api import iter_simulation, load_model
    from solver.model.io import examples_dir

    from .compile_clock import COMPILING

    for name in names:
        deadline, cpu = time.perf_counter() + wall, time.process_time()
        compiled = [COMPILING.spent()[1], time.perf_counter()]  # compiling so far (s), when it last grew

        def cancel() -> bool:
            now, spent = time.perf_counter(), COMPILING.spent()[1]
            if spent != compiled[0]:
                compiled[:] = spent, now
            return now > deadline or (not report and now - compiled[1] > QUIET_S)

        try:
            for _item in iter_simulation(load_model(examples_dir() / f"{name}.json"), cancel=cancel):
                pass
        except Exception as exc:  # noqa: BLE001 -- a warm-up only: the example's own test reports it
            print(f"kernel warm-up: {name}: {exc}", file=sys.stderr)
        if report:
            print(f"{time.process_time() - cpu:7.1f} s CPU  {name}", flush=True)


def main() -> None:
    """``python -m tests.kernel_warmup [--report]``; ``--report`` runs every example to its end and
    prints each one's processor time (from an empty cache: what compiling costs, docs/performance.md)."""
    from solver.model.io import list_examples

    report = "--report" in sys.argv[1:]
    every = [name for name, _path, _desc in list_examples()]
    started = time.process_time()
    warm([n for n in FIRST if n in every] + [n for n in every if n not in FIRST + LAST] + list(LAST),
         wall=float("inf") if report else EXAMPLE_WALL_S, report=report)
    if report:
        print(f"{time.process_time() - started:7.1f} s CPU  in all")


if __name__ == "__main__":
    main()
