"""Where a step ends before the end of a run or a breakpoint: never a sliver.

Times accumulate round-off (0.6 s in steps of 5e-4 s sums to 0.5999999999999893 s), and an
end time need not be a multiple of the step: a loop that clips its step to what is left
then takes a last step of 1e-14 s, whose Newmark accelerations and multipliers are those of
a step a hundred billion times shorter than the others (a moving mass's tangential force
read 926 N instead of -3 N on such a frame).  :func:`step_towards` is the one rule the
time loop (:mod:`.time_loop`) and its compiled runs of steps (:func:`.free_steps.plan_steps`)
take towards the end of the run and towards each breakpoint:

* a step that reaches the target within a round-off of :data:`ROUND_OFF` of itself ends on it;
* a step that would leave less than :data:`LAST_STEP_FRACTION` of itself before the target is
  shortened to half of what is left, so that the last two steps share it;
* else the step is taken as it is.

So the last step before a target is between half a step and a step, never longer than the
step the loop chose.
"""
from __future__ import annotations

from ..jit import njit

#: no step ends closer to the end of a run or to a breakpoint than this fraction of itself
LAST_STEP_FRACTION = 0.5

#: accumulated times are this close to their exact sums, relative to the step (0.6 s in 1200
#: steps of 5e-4 s: 2.1e-11 of the step)
ROUND_OFF = 1e-9


@njit(cache=True)
def near(t: float, h: float, target: float) -> bool:
    """Whether a step of ``h`` from ``t`` is shortened or stretched for ``target`` (:func:`step_towards`)."""
    return target - t < (1.0 + LAST_STEP_FRACTION) * h


@njit(cache=True)
def step_towards(t: float, h: float, target: float) -> float:
    """The step (s) from ``t`` of about ``h`` (s) towards ``target`` (s) that leaves no sliver
    before it: ``target - t`` when that is at most ``h (1 + ROUND_OFF)``, half of it when a step
    of ``h`` would leave less than ``LAST_STEP_FRACTION h``, else ``h``.

    >>> step_towards(0.5994999999999894, 5e-4, 0.6), step_towards(0.0, 1.0, 1.25), step_towards(0.0, 1.0, 3.0)
    (0.0005000000000106031, 0.625, 1.0)
    """
    rest = target - t
    if rest <= h * (1.0 + ROUND_OFF):
        return rest
    if near(t, h, target):
        return 0.5 * rest
    return h
