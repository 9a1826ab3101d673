"""Contact resolution, one model per module behind one interface.

Models (``model.kind`` of a contact pair in the model file):

* ``impulse`` (:mod:`.impulse`): the momentum-balance model of thesis ch. 3 — an impulse at
  every approach, Routh's incremental method in closed form (:mod:`.routh`, LAJSS 2024 §5;
  cross-checked by integration in the normal impulse, :mod:`.routh_integrate`);
* ``lagrange`` (:mod:`.lagrange`): the Lagrange-multiplier model of thesis ch. 4 and App. B —
  the onset jump of §4.7, then the gap held by a multiplier, sliding or sticking;
* a compliant force law (issue #13) is to be a third module of the same shape.

The velocity jump of an impulse on the constrained system (:mod:`.jump`) serves both.

**The interface** (:class:`.base.ContactModel`, driven by :class:`.tracker.ContactTracker`,
which the time loop holds):

1. *Rows for the next step*: ``row_count()`` and ``fill_rows(state, rows, start)`` write the
   model's rows into :class:`solver.system.bordered.ContactRows`: per row a generalised force
   column ``C_k``, a Jacobian row ``R_k`` and ``D_k``, the residual ``R_k . q (or v / c_v) +
   D_k lambda_k - b_k``, on at most six dofs.  The Newton iteration of the Newmark step adds
   ``-C lambda`` to the out-of-balance force and solves the bordered system with the banded
   factors of the contact-free matrix (App. B's Schur complement); ``refresh(q, v, rows,
   start)`` re-linearises curved rows until the exact geometry holds.  A Lagrange pair adds
   one row sliding (``C = eta``, eq. 4.17) or two sticking; a compliant law adds one row per
   pair whose multiplier is its force, ``D_k = 1 / k_eff`` and ``R_k`` its linearisation in
   the gap and its rate, so its stiffness and damping enter Newton without touching the band.
   The momentum-balance model adds none.
2. *Where a step must end*: ``event_time(old, new, lam_old, lam_new)`` returns the time at
   which a tentative step must end instead (contact passed, eq. 3.4; a force turning tensile;
   a slip velocity through zero; a compliant law's onset); the loop takes the step again.
3. *At the end of an accepted step*: ``switch(old, new, lam)`` (mode changes), ``jumps(state,
   held)`` (velocity jumps with every row in force held; Routh solutions returned for the
   ledger), then the tracker makes accelerations and multipliers consistent with the new rows
   and asks ``check(state, lam)`` whether those multipliers contradict a mode.
4. *Outputs*: ``closed()`` (the impact step, eq. 3.5, while a pair is), ``friction_power``
   (the ledger's friction term), ``frame_data`` (forces, states and impulses of its pairs);
   events go to the shared log.

The kinematics of a pair (gap, frame, Jacobian) are compiled with the system
(:mod:`solver.system.contact_pairs`).

May import :mod:`solver.results`, :mod:`solver.system` and below.
"""
from .routh import (KINDS, LAWS, ImpactResult, StickImpulse, kinetic_energy_change,
                    routh_impulse, traditional_stick_impulse)
from .routh_integrate import routh_impulse_integrated

__all__ = [
    "KINDS", "LAWS", "ImpactResult", "StickImpulse", "kinetic_energy_change",
    "routh_impulse", "routh_impulse_integrated", "traditional_stick_impulse",
]
