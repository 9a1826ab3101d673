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

Steps land on the output times ``k dt_out`` by the same rule (:func:`step_to_output`), so that every
frame stands at its output time: a step that ends there to round-off is taken as it is (a run whose
step divides the output interval takes the steps it always took), one that would pass it by more
lands on it.  An output time less than half a step before the end gives way to the end; an output
interval shorter than ``solver.step`` gives a frame at the end of every step instead
(:func:`output_target`): landing on each output time would shorten the steps to it.
"""
from __future__ import annotations

import math

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


@njit(cache=True)
def output_target(next_out: float, dt_out: float, h0: float) -> float:
    """The output time (s) the steps land on: ``next_out``; none (infinite) when the output interval
    ``dt_out`` (s) is shorter than the run's step ``h0`` (s) or is zero (a frame at every step's end).

    >>> output_target(0.15, 0.005, 0.001), output_target(0.15, 0.0005, 0.001)
    (0.15, inf)
    """
    return next_out if 0.0 < h0 <= dt_out else math.inf


@njit(cache=True)
def step_to_output(t: float, h: float, target: float, eps_t: float, t_end: float) -> float:
    """The step (s) from ``t`` of ``h`` (s, a step towards the end ``t_end``, s, by :func:`step_towards`)
    towards the output time ``target`` (s, :func:`output_target`): ``h`` when ``target`` is less than
    :data:`LAST_STEP_FRACTION` of ``h`` before the end or after it (the end's frame stands for it: no
    sliver of a step between them); ``target - t`` when the step ends within ``eps_t`` (s, the loop's
    round-off of times) of ``target``, so that the times of a run whose step divides the output interval
    do not drift off the frames' grid by their round-off (the flexible slider-crank over 16.8 s drifted
    past ``eps_t`` every 6 000 steps, and each time took two half steps to land again); else
    :func:`step_towards` ``target``, which lands on it a step that would pass it and leaves no sliver
    before it.

    >>> step_to_output(0.004, 0.001, 0.005, 1e-12, 1.0), step_to_output(0.15263, 0.001, 0.155, 1e-12, 1.0)
    (0.001, 0.001)
    >>> round(step_to_output(0.15463, 0.001, 0.155, 1e-12, 1.0), 12), step_to_output(0.1, 0.001, math.inf, 1e-12, 1.0)
    (0.00037, 0.001)
    >>> step_to_output(0.9994, 0.0006, 0.9998, 1e-12, 1.0)  # 0.9998 s: the end's frame
    0.0006
    """
    if target > t_end - LAST_STEP_FRACTION * h:
        return h
    if abs(target - t - h) <= eps_t:  # to the output time itself: the steps' sum kept on the frames' grid
        return target - t
    return step_towards(t, h, target)
