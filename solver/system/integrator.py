"""The parameters of the time integrator a run's settings choose (thesis eqs. 2.49-2.50, 5.1).

Read by the Newmark step (:mod:`solver.integration.newmark`) and by the contact models that weigh
a step's multipliers by them (:mod:`solver.contact.lagrange`, :meth:`solver.contact.base.ContactModel.damp`).
"""
from __future__ import annotations

#: Newmark tau an undamped run switches to when its trapezoidal rule creates energy after an
#: impact (:meth:`~solver.integration.newmark.NewmarkIntegrator.damp`): the smallest numerical
#: damping the thesis uses with impacts (§5.1.2: tau = 0.505, nu = 0.2525 by eq. 5.1)
IMPACT_TAU = 0.505


def damping_unset(settings: dict) -> bool:
    """Whether a model's solver ``settings`` (as written, before defaults) leave the Newmark
    integrator undamped by default: neither tau nor nu given, no generalized-alpha.  Physical
    damping (modal ``damping_ratios``, Rayleigh ``alpha``, ``beta``) does not count: under the
    trapezoidal rule it fades from the modes no step resolves (spectral radius ``1 - 4 zeta /
    (omega h)`` as ``omega h`` grows), the modes numerical damping is switched on for
    (docs/solver.md, *Numerical damping after impacts*).

    >>> damping_unset({}), damping_unset({"tau": 0.5}), damping_unset({"integrator": "generalized_alpha"})
    (True, False, False)
    """
    return not ({"tau", "nu"} & set(settings)) and settings.get("integrator", "newmark") == "newmark"


def damped(tau: float) -> tuple[float, float]:
    """``(nu, tau)`` of the Newmark integrator damped by ``tau``: ``nu = (tau + 1/2)^2 / 4`` (eq. 5.1).

    >>> damped(0.6)
    (0.3025, 0.6)
    """
    return 0.25 * (tau + 0.5) ** 2, tau


def integrator_parameters(settings: dict) -> tuple[float, float, float, float]:
    """``(nu, tau, alpha_m, alpha_f)`` of the chosen integrator.

    >>> integrator_parameters({"integrator": "generalized_alpha", "rho_inf": 1.0, "nu": 0.25, "tau": 0.5})
    (0.25, 0.5, 0.5, 0.5)
    """
    if settings["integrator"] == "generalized_alpha":
        rho = settings["rho_inf"]
        alpha_m = (2 * rho - 1) / (rho + 1)
        alpha_f = rho / (rho + 1)
        tau = 0.5 + alpha_f - alpha_m
        return 0.25 * (tau + 0.5) ** 2, tau, alpha_m, alpha_f
    return settings["nu"], settings["tau"], 0.0, 0.0
