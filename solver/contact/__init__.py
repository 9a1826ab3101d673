"""Contact resolution, one model per module: the momentum-balance impulse model
(thesis ch. 3) — Routh's incremental method in closed form (:mod:`.routh`, LAJSS
2024 §5) with a cross-check by integration in the normal impulse
(:mod:`.routh_integrate`), its application to the system (:mod:`.impulse`) — and the
contact tracker that predicts contact, sizes the impact step and books the events
(:mod:`.tracker`).  The kinematics of a pair (gap, frame, Jacobian) are compiled with
the system (:mod:`solver.system.contact_pairs`).

May import :mod:`solver.results`, :mod:`solver.system` and below.
"""
from .routh import (KINDS, LAWS, ImpactResult, StickImpulse, kinetic_energy_change,
                    routh_impulse, traditional_stick_impulse)
from .routh_integrate import routh_impulse_integrated

__all__ = [
    "KINDS", "LAWS", "ImpactResult", "StickImpulse", "kinetic_energy_change",
    "routh_impulse", "routh_impulse_integrated", "traditional_stick_impulse",
]
