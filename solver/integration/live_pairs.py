"""Which dry compliant circle pairs are *live* in a step -- their gap within
:meth:`~solver.contact.compliant.CompliantModel.begin_step`'s reach
:func:`~solver.contact.hermite_gap.closing_reach` -- compiled, for the runs of open steps
(:mod:`.open_circles`: a live pair ends them) and of compliant steps (:mod:`.compliant_steps`: none
live ends them)."""
from __future__ import annotations

import numpy as np

from ..contact.circle_pairs import circle_pair_state
from ..contact.hermite_gap import closing_reach
from ..jit import njit

#: a pair's reach (m) above its gap by this fraction still makes it live here: a kernel's product
#: rounded otherwise than numpy's can only end a run early, never take a step the loop would not
REACH_MARGIN = 1e-9

#: :func:`~solver.contact.hermite_gap.closing_reach` compiled
compiled_reach = njit(cache=True)(closing_reach)


@njit(cache=True)
def pair_state(q, v, dofs, widths, ends, slots, geometry, law, p, kelvin, damping, friction, fp, j):
    """Gap (m), normal velocity (m/s), Jacobian rows (2, k) and dofs (k,) of pair ``j`` of a batch
    (:func:`~solver.contact.circle_pairs.pack_circle_batch`) at ``(q, v)``, an open pair's
    (:func:`~solver.contact.circle_pairs.circle_pair_state`; the law is not read)."""
    pair = dofs[j, : widths[j]]
    gap, _nx, _ny, J, v_n, _v_t, _depth, _normal, _F_t, _dF_t = circle_pair_state(
        q, v, pair, ends[j], slots[j], geometry[j], law[j], p[j], kelvin[j], damping[j], friction[j], fp[j], 1.0,
        np.bool_(False))  # a bool to numba, not a literal: circle_pair_state compiles once
    return gap, v_n, J, pair


@njit(cache=True)
def any_live(q, v, a, h, tol, starts, dofs, widths, ends, slots, geometry, law, p, kelvin, damping, friction, fp):
    """Whether a pair is live in a step of ``h`` (s) from ``(q, v, a)`` (its gap below
    :func:`~solver.contact.hermite_gap.closing_reach` with the contact tolerance ``tol``, m, and
    :data:`REACH_MARGIN`; the normal acceleration ``J a`` by the BLAS product of
    :meth:`~solver.system.contact_pairs.ContactGeometry.velocity`); each pair's gap and normal
    velocity into ``starts`` (pairs, 2)."""
    for j in range(dofs.shape[0]):
        gap, v_n, J, pair = pair_state(q, v, dofs, widths, ends, slots, geometry, law, p, kelvin, damping, friction,
                                       fp, j)
        w = np.empty(pair.shape[0])
        for i in range(pair.shape[0]):
            w[i] = a[pair[i]]
        starts[j, 0], starts[j, 1] = gap, v_n
        if not gap >= (1.0 + REACH_MARGIN) * compiled_reach(v_n, np.dot(J, w)[0], h, tol):
            return True
    return False
