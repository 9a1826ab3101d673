"""A driven mechanism at a position its joints cannot pass, named when a run fails there.

A driver prescribes a motion (``q_i = f(t)``); where the links' geometry cannot follow it -- the
crank of a four-bar that fails Grashof's condition turned to the end of its travel, a crank pressing
a link's tip into the ground it slides on past where the tip can go -- the joints, the drivers and
the closed Lagrange contacts' rows meet at a position where they are no longer independent (their
Jacobian loses rank: a limit position) and beyond which no configuration meets them.  Newton then
fails however short the step, with out-of-balance forces of 1e11 N, and the failure's usual advice,
a smaller step, cannot help.  :func:`lock_hint` says so when, at the last accepted state, the
moving drivers' rows bring those constraints near dependence (:data:`LOCK_RATIO`): it is their
motion the links cannot follow.
"""
from __future__ import annotations

import numpy as np

from ..contact.closed_hint import closed_pairs
from ..model.paths import split_path
from ..system.compile import System
from ..system.state import State

#: the ratio of the smallest singular value of the constraints' Jacobian to its largest, over the same
#: ratio without the moving drivers' rows, below which a driven mechanism is at a position it cannot
#: pass (at the failures of a driven non-Grashof four-bar and of a crank pressing a link's tip into
#: the ground, 1e-5 to 4e-3, whatever the step; about 1 along their travel)
LOCK_RATIO = 1e-2
#: the most coordinates whose Jacobian is decomposed for the hint (a dense SVD, at the failure only)
LOCK_SIZE = 3000


def _rank_ratio(A: np.ndarray) -> float:
    """The smallest singular value of ``A`` over its largest (0 for a zero matrix)."""
    sigma = np.linalg.svd(A, compute_uv=False)
    return float(sigma.min() / sigma.max()) if sigma.size and sigma.max() > 0.0 else 0.0


def lock_hint(system: System, st: State, tracker=None) -> str | None:
    """The drivers whose prescribed motion the links cannot follow at ``st`` (a failed run's last accepted
    state), with the closed Lagrange contacts that hold the mechanism with them (``tracker``: the run's
    :class:`~solver.contact.tracker.ContactTracker`, or None), in words; otherwise None."""
    cons = system.constraints
    moving = [i for i, f in enumerate(cons.functions) if f is not None]
    if not moving or system.n > LOCK_SIZE:
        return None
    G = cons.jacobian(st.q, system.n).toarray()
    rows = tracker.rows(st) if tracker is not None and tracker.active else None
    held = []
    if rows is not None:
        R = np.zeros((rows.count, system.n))
        for k in range(rows.count):
            np.add.at(R[k], rows.dofs[k], rows.row[k])
        G = np.vstack([G, R])
        held = [pair for pair, _mode in closed_pairs(tracker)]
    ratio = _rank_ratio(G)
    if not ratio < LOCK_RATIO * _rank_ratio(np.delete(G, moving, axis=0)):
        return None
    drivers = ", ".join(f"'{split_path(cons.owners[i])[1][0]}'" for i in moving)
    holders = (f"joints, drivers and closed contact {', '.join(map(repr, held))}" if held else "joints and drivers")
    return (f"at t = {st.t:.6g} s the {holders} held the mechanism at a position they cannot take it past (the end "
            f"of its travel: they are no longer independent there, the smallest singular value of their Jacobian "
            f"{ratio:.2g} of the largest), so driver {drivers} asked for a motion the links cannot follow, which no "
            "smaller step changes; check the links' lengths against the driven motion (a four-bar's crank turns "
            "fully only if its shortest and longest links together are no longer than the other two, Grashof's "
            "condition) or the driver's range" + (", or give the contact a compliant model, which yields" if held else ""))
