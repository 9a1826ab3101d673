"""Numeric options of ``flexmech`` checked as argparse reads them: a bad value is a usage error naming
the option and the reason, never a number printed from it (``flexmech modes --count``, ``--damping``,
``flexmech static --time``)."""
from __future__ import annotations

import argparse
import math

from solver.model.limits import magnitude_rule, usable


def mode_count(text: str) -> int:
    """``--count``: how many modes, an integer >= 1."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"give at least 1 mode, got {text}")
    return count


def damping_ratio(text: str) -> float:
    """``--damping``'s ZETA: a finite damping ratio >= 0 (a negative one gives Rayleigh coefficients the
    model refuses)."""
    try:
        zeta = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not math.isfinite(zeta) or zeta < 0.0:
        raise argparse.ArgumentTypeError(f"a damping ratio is a finite number >= 0, got {text}")
    return zeta


def model_time(text: str) -> float:
    """``flexmech static --time``: a time the model's numbers may be (finite, at most
    :data:`~solver.model.limits.MAX_MAGNITUDE` s); nan made the equilibrium fail for another reason than its
    own, 1e300 overflowed a driver's angle."""
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not usable(t):
        raise argparse.ArgumentTypeError(f"{text} s: {magnitude_rule(t)}")
    return t
