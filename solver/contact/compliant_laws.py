"""The laws of one compliant contact pair, bound from the model file.

A pair's ``model`` names a normal law (:mod:`.normal_laws`) and a friction law
(:mod:`.friction_laws`); :func:`bind_pair` turns it into a :class:`PairLaw` with every
parameter in place:

* K as given, or from the two materials and the signed radii of the surfaces,
  eqs. (3)-(5) (a point of radius r against a plane, a circle outside (+R) or inside
  (-R, concave) a circle); the cylinder laws take σi + σj, the length L and the two
  radii instead;
* c_e is the pair's ``e`` (a clearance joint's ``restitution``), c_f its ``mu_d`` (a
  clearance joint's ``friction``);
* a viscous damper D in parallel (``damping``), whose sum with the law never pulls.

It also knows where its formulas stop holding, which the run reports: the
Lankarani-Nikravesh bound on the impact speed δ̇⁽⁻⁾ ≤ 10⁻⁵ √(E/ρ) (seed §2, ref. [17],
with the larger wave speed of the two materials), the cylinder laws' penetration
limit (:func:`.normal_laws.penetration_limit`), and the half-width of a Hertz line
contact, b = √(4 F R σ/(π L)) (Johnson, *Contact Mechanics* eq. 4.43, σ = σi + σj, R
the effective radius), which the theory wants small against the radii: the run counts
the steps with b > :data:`WIDTH_FRACTION` times the smaller radius.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..jit import njit
from ..model.contact_rules import point_radius, target_surface_radius
from ..model.schema import COMPLIANT_LAW, CYLINDER_LAWS, LINEAR_LAWS, MATERIAL
from ..system.contact_pairs import ContactPair
from .friction_laws import FRICTION_LAWS, friction_kernel
from .friction_laws import LAW_IDS as FRICTION_IDS
from .normal_kernels import LAW_IDS as NORMAL_IDS
from .normal_kernels import elastic_kernel, normal_kernel
from .normal_laws import NORMAL_LAWS, material_compliance, penetration_limit, sphere_contact_stiffness

#: the Lankarani-Nikravesh bound: δ̇⁽⁻⁾ ≤ SPEED_BOUND √(E/ρ) (seed §2)
SPEED_BOUND = 1e-5
#: a line contact's half-width is reported beyond this fraction of the smaller radius
WIDTH_FRACTION = 0.1


@dataclass(frozen=True)
class NormalState:
    """Normal force (N), its derivatives ∂F/∂δ (N/m) and ∂F/∂δ̇ (N s/m), its elastic part
    F_el (N, the force at δ̇ = 0) and whether the law's formula holds there."""

    force: float
    dF_ddelta: float
    dF_ddelta_dot: float
    elastic: float
    valid: bool


@njit(cache=True)
def pair_normal(law, p, kelvin, damping, delta, delta_dot, delta_dot_0, unloading):
    """``(F, ∂F/∂δ, ∂F/∂δ̇, F_el, valid)`` of normal law number ``law`` (parameters ``p``) with a
    viscous damper ``damping`` (N s/m) in parallel, whose sum with the law never pulls.

    ``kelvin``: the law is Kelvin-Voigt (eq. 1), which reads its phase ``unloading`` (switched by
    the time loop at maximum compression) instead of the rate.
    """
    rate = (-1.0 if unloading else 1.0) if kelvin else delta_dot
    force, dF_ddelta, dF_ddelta_dot, valid, elastic = normal_kernel(law, delta, rate, delta_dot_0, p)
    if damping > 0.0 and delta > 0.0:
        force += damping * delta_dot
        dF_ddelta_dot += damping
        if force < 0.0:  # the damper never makes the contact pull
            force, dF_ddelta, dF_ddelta_dot = 0.0, 0.0, 0.0
    return force, dF_ddelta, dF_ddelta_dot, elastic, valid


@dataclass(frozen=True)
class PairLaw:
    """A pair's normal and friction laws with their parameters bound (SI units)."""

    normal: str
    normal_params: dict
    damping: float
    friction: str | None  # None: no friction (c_f = 0)
    friction_params: dict
    speed_limit: float  # m/s, the Lankarani-Nikravesh bound (inf when it does not apply or is unknown)
    penetration_limit: float  # m
    line_contact: tuple[float, float, float, float] | None  # (σ, L, R, smaller radius) for the half-width

    def __post_init__(self) -> None:
        # the compiled kernels' law numbers and packed parameters (frozen: set once here)
        object.__setattr__(self, "_normal", (NORMAL_IDS[self.normal], np.array(list(self.normal_params.values()))))
        friction = (FRICTION_IDS[self.friction], np.array(list(self.friction_params.values()))) if self.friction else None
        object.__setattr__(self, "_friction", friction)

    def normal_state(self, delta: float, delta_dot: float, delta_dot_0: float, unloading: bool) -> NormalState:
        """The normal force at penetration ``delta`` (m) and rate ``delta_dot`` (m/s, > 0 approaching).

        ``delta_dot_0`` is the impact velocity of the hysteresis laws; ``unloading`` the
        phase of Kelvin-Voigt (eq. 1), which the time loop switches at maximum compression.
        """
        law, p = self._normal
        force, dF_ddelta, dF_ddelta_dot, elastic, valid = pair_normal(law, p, self.normal == "kelvin_voigt",
                                                                      self.damping, delta, delta_dot, delta_dot_0,
                                                                      unloading)
        return NormalState(force, dF_ddelta, dF_ddelta_dot, elastic, valid)

    def friction_force(self, v_t: float, F_n: float) -> tuple[float, float]:
        """Friction force (N, on the point along the tangent) and its derivative by v_t (N s/m)."""
        if self._friction is None:
            return 0.0, 0.0
        return friction_kernel(self._friction[0], v_t, F_n, self._friction[1])

    def elastic_energy(self, delta: float, unloading: bool) -> float:
        """Energy stored in the elastic part of the normal law (J)."""
        rate = (-1.0 if unloading else 1.0) if self.normal == "kelvin_voigt" else 0.0
        return elastic_kernel(self._normal[0], delta, rate, self._normal[1])

    def half_width_ratio(self, force: float) -> float:
        """Line-contact half-width over the smaller radius (0 when the pair is no line contact)."""
        if self.line_contact is None or force <= 0.0:
            return 0.0
        sigma, length, R, smaller = self.line_contact
        return math.sqrt(4.0 * force * R * sigma / (math.pi * length)) / smaller


def target_radius(pair: ContactPair) -> float:
    """Signed radius of the target's surface (m): +R outside a circle, -R inside it (concave),
    inf for a line, a segment, a link or a node."""
    return target_surface_radius({"kind": pair.kind, **pair.params})


def pair_stiffness(doc: dict, contact: dict) -> float | None:
    """K (N/m^n) of a compliant contact pair of the document: its ``stiffness`` if given, else
    from its two materials and the signed radii of the surfaces, eqs. (3)-(5); None when
    they give none (a material missing, no radius, a cylinder or linear law).

    >>> doc = {"materials": [{"id": "steel", "E": 2.1e11}], "bodies": [{"id": "b", "radius": 0.005}]}
    >>> pair = {"point": {"body": "b"}, "target": {"kind": "link", "link": "rod"},
    ...         "model": {"kind": "compliant", "point_material": "steel", "target_material": "steel"}}
    >>> f"{pair_stiffness(doc, pair):.4g}"
    '1.088e+10'
    """
    model = contact.get("model", {})
    if "stiffness" in model:
        return model["stiffness"]
    if model.get("law", COMPLIANT_LAW["law"].default) in CYLINDER_LAWS + LINEAR_LAWS:
        return None
    poisson = MATERIAL.fields["poisson"].default
    materials = {m["id"]: m for m in doc.get("materials", [])}
    chosen = [materials.get(model.get(k)) for k in ("point_material", "target_material")]
    if None in chosen:
        return None
    sigmas = [material_compliance(m["E"], m.get("poisson", poisson)) for m in chosen]
    try:
        return sphere_contact_stiffness(*sigmas, point_radius(doc, contact["point"]),
                                        target_surface_radius(contact["target"]))
    except ValueError:
        return None


def bind_pair(pair: ContactPair, materials: dict[str, dict]) -> PairLaw:
    """The laws of a compliant pair (its ``model`` with defaults filled in) with their parameters.

    ``materials`` maps ids to the model's material entries (E, poisson, density).
    """
    model = pair.model
    name = model["law"]
    mats = [materials[model[k]] for k in ("point_material", "target_material") if k in model]
    sigmas = [material_compliance(m["E"], m["poisson"]) for m in mats]
    sigma = sum(sigmas) if len(mats) == 2 else math.nan
    R_point, R_target = pair.radius, target_radius(pair)
    R_eff = R_point if math.isinf(R_target) else R_point * R_target / (R_point + R_target)
    if name in CYLINDER_LAWS:
        params = {"sigma": sigma, "length": model["length"], "R_bearing": -R_target, "R_journal": R_point}
    else:
        if "stiffness" in model:
            K = model["stiffness"]
        else:
            K = sphere_contact_stiffness(*sigmas, R_point, R_target)
        params = {"K": K}
        if name not in LINEAR_LAWS:
            params["n"] = model["exponent"]
        if name != "hooke" and name != "hertz":
            params["c_e"] = pair.e
    wave = max((math.sqrt(m["E"] / m["density"]) for m in mats), default=math.inf)
    line = None
    if "length" in model and len(mats) == 2:
        line = (sigma, model["length"], R_eff, min(abs(R_point), abs(R_target)))
    friction = None if pair.mu_d == 0.0 else model["friction_law"]
    v0, v1 = model["friction_velocity"], model["friction_velocity_1"]
    friction_params = {"c_f": pair.mu_d, **{"coulomb": {}, "rooney_deravi": {"v_stick": v0}, "threlfall": {"v_r": v0},
                                            "ambrosio": {"v0": v0, "v1": v1}}[model["friction_law"]]}
    return PairLaw(
        normal=name,
        normal_params=NORMAL_LAWS[name].bind(params),
        damping=model["damping"],
        friction=friction,
        friction_params=FRICTION_LAWS[model["friction_law"]].bind(friction_params),
        speed_limit=SPEED_BOUND * wave if name == "lankarani_nikravesh" else math.inf,
        penetration_limit=penetration_limit(name, params),
        line_contact=line,
    )

