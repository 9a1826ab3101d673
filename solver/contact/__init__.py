"""Contact resolution, one model per module behind one interface.

Models (``model.kind`` of a contact pair in the model file):

* ``impulse`` (:mod:`.impulse`): the momentum-balance model of thesis ch. 3 — an impulse at
  every approach, Routh's incremental method in closed form (:mod:`.routh`, LAJSS 2024 §5;
  cross-checked by integration in the normal impulse, :mod:`.routh_integrate`);
* ``lagrange`` (:mod:`.lagrange`): the Lagrange-multiplier model of thesis ch. 4 and App. B —
  the onset jump of §4.7 (on the impact step's Newmark matrix where links are flexible), then
  the gap held by a multiplier, sliding or sticking;
* ``compliant`` (:mod:`.compliant`): continuous contact forces (Flores et al. 2006) — the
  normal laws (:mod:`.normal_laws`, one compiled kernel each in :mod:`.normal_kernels`), the
  friction laws (:mod:`.friction_laws`), their parameters (:mod:`.law_params`) and their
  binding to a pair (:mod:`.compliant_laws`); a revolute clearance joint is such a pair
  (:mod:`solver.system.clearance`), with an oil film (:mod:`.lubricated`) and the wear of its
  bearing (:mod:`.wear`) if it has them;
* ``rolling`` (:mod:`.rolling`): rolling without slip of a round rigid body (Amirouche & Xie
  eqs. 17-21) -- the Lagrange model's sticking rows held for good, released when the normal
  force would pull.

The rows of the supports and masses that travel along flexible links
(:mod:`solver.system.moving`) border the Newton system the same way (:mod:`.moving`, a
model with no pairs, always closed).

The velocity jump of an impulse on the constrained system (:mod:`.jump`) serves the first two.

**The interface** (:class:`.base.ContactModel`, driven by :class:`.tracker.ContactTracker`,
which the time loop holds):

1. *Rows for the next step*: ``row_count()`` and ``fill_rows(state, rows, start)`` write the
   model's rows into :class:`solver.system.bordered.ContactRows`: per row a generalised force
   column ``C_k``, a Jacobian row ``R_k`` and ``D_k``, the residual ``R_k . q (or v / c_v) +
   D_k lambda_k - b_k``, on at most nine dofs.  The Newton iteration of the Newmark step adds
   ``-C lambda`` to the out-of-balance force and solves the bordered system with the banded
   factors of the contact-free matrix (App. B's Schur complement); ``refresh(q, v, rows,
   start)`` re-linearises curved rows until the exact geometry holds.  A Lagrange pair adds
   one row sliding (``C = eta``, eq. 4.17) or two sticking.  The momentum-balance and the
   compliant models add none.
2. *Forces for the next step* (the compliant model): ``begin_step(state, h)`` before every
   attempt at a step, ``step_size(h)`` (the step its error allows); the Newton iteration
   evaluates the pairs' forces ``J^T (F_n, F_t)`` with the loads at every iterate and adds
   their tangent, a dense block on each pair's dofs that the band pattern reserves
   (``Assembly.force_pairs``).  Not compliance rows (``D_k = 1/k``): a Hertz law's stiffness
   vanishes at first touch, its damping and friction couple the rows non-symmetrically, and
   the blocks cost no Schur solve per iteration.
3. *Where a step must end*: ``event_time(old, new, lam_old, lam_new)`` returns the time at
   which a tentative step must end instead (contact passed, eq. 3.4; a force turning tensile;
   a slip velocity through zero; a compliant contact's start or Kelvin-Voigt's maximum
   compression; a compliant step whose error is too large); the loop takes the step again.
4. *At the end of an accepted step*: ``step_ended(lam_old, lam_new)`` (a Lagrange pair's force
   over the step), ``switch(old, new, lam)`` (mode changes), ``jumps(state,
   held)`` (velocity jumps with every row in force held, ``held.rows(state)`` building those rows
   only when a jump is made, None when there are none; an impulse that would pull a pair held by a
   row, or turn the slip of one sliding under it, taken again with that pair released or sticking,
   ``held.settle``; Routh solutions returned for the ledger), then the tracker makes accelerations and multipliers consistent with the new rows
   and asks ``check(state, lam)`` whether those multipliers contradict a mode;
   ``take_dissipation()`` books energy lost at once by a switch.
5. *Outputs*: ``closed()`` (the impact step, eq. 3.5, while a pair of a model with
   ``impact_steps`` is), ``friction_power`` and ``damping_power`` (the ledger's friction and
   contact-damping terms), ``elastic_energy`` (energy stored in the contacts), ``frame_data``
   (forces, states and impulses of its pairs, and the further columns of ``frame_keys``),
   ``summary()`` (the run's metadata); events go to the shared log.

The kinematics of a pair (gap, frame, Jacobian) are compiled with the system
(:mod:`solver.system.contact_pairs`).

May import :mod:`solver.results`, :mod:`solver.system` and below.
"""
from .friction_laws import FRICTION_LAW_NAMES, FRICTION_LAWS, FrictionForce, friction_force
from .normal_laws import (NORMAL_LAW_NAMES, NORMAL_LAWS, NormalForce, effective_restitution, elastic_energy,
                          material_compliance, normal_force, penetration_limit, sphere_contact_stiffness)
from .routh import (KINDS, LAWS, ImpactResult, StickImpulse, kinetic_energy_change,
                    routh_impulse, traditional_stick_impulse)
from .routh_integrate import routh_impulse_integrated

__all__ = [
    "KINDS", "LAWS", "ImpactResult", "StickImpulse", "kinetic_energy_change",
    "routh_impulse", "routh_impulse_integrated", "traditional_stick_impulse",
    "NORMAL_LAWS", "NORMAL_LAW_NAMES", "NormalForce", "normal_force", "elastic_energy", "effective_restitution",
    "penetration_limit", "material_compliance", "sphere_contact_stiffness",
    "FRICTION_LAWS", "FRICTION_LAW_NAMES", "FrictionForce", "friction_force",
]
