"""Contact: impulse resolution at one contact point (Routh's incremental method).

:func:`routh_impulse` is the closed form (LAJSS 2024 §5); :func:`routh_impulse_integrated`
reaches the same result by stepping through the normal impulse, as a cross-check.
"""
from .routh import (KINDS, LAWS, ImpactResult, StickImpulse, kinetic_energy_change,
                    routh_impulse, traditional_stick_impulse)
from .routh_integrate import routh_impulse_integrated

__all__ = [
    "KINDS", "LAWS", "ImpactResult", "StickImpulse", "kinetic_energy_change",
    "routh_impulse", "routh_impulse_integrated", "traditional_stick_impulse",
]
