"""Contact resolution, one model per module behind one interface (:mod:`.base`,
``ContactModel``), held for the time loop by :mod:`.tracker`:

* the momentum-balance impulse model (thesis ch. 3, :mod:`.impulse`) — Routh's
  incremental method in closed form (:mod:`.routh`, LAJSS 2024 §5) with a cross-check by
  integration in the normal impulse (:mod:`.routh_integrate`), the velocity jump with the
  joints held (:mod:`.jump`);
* the Lagrange-multiplier model (thesis ch. 4, :mod:`.lagrange`);
* the compliant model of continuous contact forces (Flores et al. 2006, :mod:`.compliant`):
  the normal laws (:mod:`.normal_laws`, their compiled kernels :mod:`.normal_kernels`),
  the friction laws (:mod:`.friction_laws`), their parameters (:mod:`.law_params`) and
  their binding to a pair (:mod:`.compliant_laws`).

The kinematics of a pair (gap, frame, Jacobian) are compiled with the system
(:mod:`solver.system.contact_pairs`); a revolute clearance joint is such a pair
(:mod:`solver.system.clearance`).

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
