"""The bounds on the steps of one run (docs/solver.md, *Every run ends*): no step shorter than
:data:`MIN_STEP_RATIO` of the reference step, and a run whose last :data:`MAX_SMALL_STEPS`
steps advanced less than :data:`SMALL_STEP_RATIO` of it each, on average, stops as stalled."""
from __future__ import annotations

import numpy as np

#: the shortest step, as a fraction of the reference step (the smallest of the model's
#: step, its impact step and its end time): a Newton failure below it ends the run, and
#: no contact event ends a step earlier than it after its start
MIN_STEP_RATIO = 1e-6

#: a run whose mean step over MAX_SMALL_STEPS steps falls below SMALL_STEP_RATIO x the
#: reference step stops as stalled (a compliant contact of the examples takes at most 135
#: steps in a row below it)
SMALL_STEP_RATIO = 1e-3
MAX_SMALL_STEPS = 2_000

#: what a user can do when Newton fails at the shortest step the loop allows
ADVICE = "try a smaller step, or check the loads, supports and stiffness of the model"


class StepFailure(Exception):
    """A step that could not be taken however it was cut; the message names the time, the
    step and the cause."""


class StepLimits:
    """The bounds on the steps of one run (docs/solver.md, *Every run ends*).

    >>> limits = StepLimits({"step": 1e-3, "end_time": 1.0, "max_step_cuts": 8}, 4e-5)
    >>> limits.reference, round(limits.shortest, 20)
    (4e-05, 4e-11)
    """

    def __init__(self, settings: dict, impact_step: float):
        self.reference = min(settings["step"], impact_step, settings["end_time"])
        self.shortest = MIN_STEP_RATIO * self.reference
        self.max_cuts = settings["max_step_cuts"]
        self._window = (0, 0.0)  # steps counted and time at the start of the present window
        self.last_step = 0.0  # s, the last accepted step

    def may_cut(self, h: float, cuts: int) -> bool:
        """Whether a failed step of ``h`` that was already cut ``cuts`` times may be halved again."""
        return cuts < self.max_cuts and 0.5 * h >= self.shortest

    def accepted_run(self, ends: np.ndarray, steps: np.ndarray) -> None:
        """:meth:`accepted` for each step of ``steps`` ending at ``ends`` (a run of free steps)."""
        count, start = self._window
        if len(steps) and count + len(steps) < MAX_SMALL_STEPS:  # no window closes
            self._window = (count + len(steps), start)
            self.last_step = float(steps[-1])
            return
        for t, h in zip(ends.tolist(), steps.tolist()):
            self.accepted(t, h)

    def accepted(self, t: float, h: float) -> None:
        """Count an accepted step of ``h`` ending at ``t``; raise :class:`StepFailure` when the
        run has stalled: its last :data:`MAX_SMALL_STEPS` steps advanced less than
        :data:`SMALL_STEP_RATIO` of the reference step each, on average."""
        self.last_step = h
        count, start = self._window
        count += 1
        if count < MAX_SMALL_STEPS:
            self._window = (count, start)
            return
        self._window = (0, t)
        mean = (t - start) / count
        if mean < SMALL_STEP_RATIO * self.reference:
            raise StepFailure(
                f"stopped at t = {t:.6g} s: the last {count} steps advanced {mean:.3g} s each on average "
                f"(the last {h:.3g} s), so the run would not end in a reasonable time; {ADVICE}, "
                "or the contact tolerance"
            )
