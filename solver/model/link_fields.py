"""The fields of a link in the model file (part of :mod:`.schema`): its cross-section, the
mesh of a flexible or modal link, and the link itself by kind (rigid, flexible: corotational
beam elements, modal: a floating frame with a few vibration modes).

A section's dimensions may vary linearly along a flexible link (a tapered link): every
dimension ``x`` has an optional ``x_end``, its value at the link's second node (the
elements take the section at their mid-points).  A section with ``shear`` is
shear-flexible (Timoshenko, :mod:`solver.fem.timoshenko`).
"""
from __future__ import annotations

from dataclasses import replace

from .fields import Arr, Bool, Num, Obj, Str, Variant
from .time_fields import F, TIME_FUNCTION


def tapered(kind: Obj) -> Obj:
    """``kind`` with an optional ``<name>_end`` beside each of its numbers: the value at the
    link's second node (default: the same as at the first)."""
    fields = dict(kind.fields)
    for name, f in kind.fields.items():
        if isinstance(f, Num):
            fields[name + "_end"] = replace(f, help=f"{f.help} at the second node (tapered link; default: {name})",
                                            default=None)
    return replace(kind, fields=fields)


_MATERIAL_REF = Str("material of the link", ref="materials")
_SECTION_KINDS = {
        "circle": Obj({"material": _MATERIAL_REF, "d": Num("diameter", "m", gt=0)}, required=("material", "d")),
        "rectangle": Obj(
            {
                "material": _MATERIAL_REF,
                "b": Num("width (out of the plane)", "m", gt=0),
                "h": Num("height (in the plane of bending)", "m", gt=0),
            },
            required=("material", "b", "h"),
        ),
        "tube": Obj(
            {
                "material": _MATERIAL_REF,
                "d_outer": Num("outer diameter", "m", gt=0),
                "d_inner": Num("inner diameter", "m", ge=0),
            },
            required=("material", "d_outer", "d_inner"),
        ),
        "area": Obj(
            {
                "material": _MATERIAL_REF,
                "A": Num("cross-section area", "m^2", gt=0),
                "I": Num("second moment of area about the bending axis", "m^4", gt=0),
                "c": Num("outer-fibre distance from the neutral axis", "m", gt=0),
            },
            required=("material", "A", "I"),
        ),
        "per_length": Obj(
            {
                "EA": Num("axial rigidity", "N", gt=0),
                "EI": Num("flexural rigidity", "N m^2", gt=0),
                "rhoA": Num("mass per unit length", "kg/m", gt=0),
                "rhoI": Num("rotary inertia per unit length", "kg m", default=0.0, ge=0),
                "c": Num("outer-fibre distance (for bending strain)", "m", gt=0),
                "kGA": Num("shear rigidity k G A (required with shear)", "N", gt=0),
            },
            required=("EA", "EI", "rhoA"),
        ),
}
SECTION = Variant(
    help="cross-section of a flexible link: a shape and a material, or the per-length properties directly",
    common={
        "shear": Bool("shear-flexible (Timoshenko) beam elements with rotary inertia, shear modulus from the "
                      "material", default=False),
        "shear_coefficient": Num(
            "shear coefficient k (default: Cowper's for the shape from the material's Poisson's ratio -- "
            "rectangle 10(1+nu)/(12+11nu), circle and tube Cowper 1966 table 1; required for an area section)",
            gt=0, le=1,
        ),
    },
    kinds={kind: tapered(obj) for kind, obj in _SECTION_KINDS.items()},
)

MESH = Variant(
    help="how a flexible link is divided into corotational beam elements",
    default_kind="uniform",
    default={},
    kinds={
        "uniform": Obj({"elements": Num("number of equal beam elements", default=4, ge=1, integer=True)}),
        "stations": Obj(
            {
                "stations": Arr(
                    Num("station, as a fraction of the link length", ge=0, le=1),
                    "element nodes along the link as fractions of its length, increasing, from 0 to 1 "
                    "(put a node where a contact or a strain gauge is)",
                    min_items=2,
                )
            },
            required=("stations",),
        ),
    },
)

FREE_STRAINS = Obj(
    {
        "temperature_change": Num(
            "uniform temperature change dT from the sketched, stress-free state, times temperature_function: "
            "free axial strain alpha dT", "K", default=0.0),
        "temperature_gradient": Num(
            "temperature gradient dT' through the depth, from the link's left side (seen from its first node) to "
            "its right, times temperature_function: free curvature alpha dT' (counter-clockwise positive)",
            "K/m", default=0.0),
        "temperature_function": replace(TIME_FUNCTION, default={"kind": "constant", "value": 1.0}),
        "creep_strain": Num("prescribed creep (inelastic) axial strain eps_c, times creep_function "
                            "(Amirouche & Xie eq. 11)", default=0.0),
        "creep_function": replace(TIME_FUNCTION, default={"kind": "constant", "value": 1.0}),
    },
    help="thermal and creep strains of a flexible link: free strains that load it only where it is held "
         "(alpha: the material's expansion)",
    units={F: "-"},
)

_LINK_NODES = Arr(
    Str("node", ref="nodes"),
    "the link's nodes; a flexible link has exactly its two end nodes; a modal link has its two end nodes "
    "first, then any nodes on the segment between them (joints along the link)",
    min_items=2,
)
LINK = Variant(
    help="a link of the mechanism: a rigid body, a flexible beam meshed with corotational elements, or a modal "
         "link (floating frame with a few vibration modes)",
    common={"id": Str("unique id of this link", is_id=True), "nodes": _LINK_NODES},
    common_required=("id", "nodes"),
    kinds={
        "rigid": Obj(
            {
                "mass": Num("mass (default: from the section and material, else required)", "kg", gt=0),
                "inertia": Num("moment of inertia about the centre of mass (default m L^2 / 12)", "kg m^2", ge=0),
                "com": Obj(
                    {
                        "s": Num("position along the line from the first to the second node, fraction", default=0.5),
                        "n": Num("offset to the left of that line", "m", default=0.0),
                    },
                    help="centre of mass in the link's frame (default: the middle of the first two nodes)",
                ),
                "section": SECTION,
            }
        ),
        "flexible": Obj(
            {
                "section": SECTION,
                "mesh": replace(MESH, default={"kind": "uniform", "elements": 4}),
                "free_strains": FREE_STRAINS,
            },
            required=("section",),
        ),
        "modal": Obj(
            {
                "section": SECTION,
                "mesh": replace(MESH, default={"kind": "uniform", "elements": 10}),
                "modes": Num("number of normal vibration modes that describe the deformation", default=4, ge=0,
                             integer=True),
                "reference": Str(
                    "reference conditions of the modes: the frame clamped at the first node (cantilever modes), "
                    "pinned at both end nodes (the frame follows the chord), or free-free (rigid modes removed)",
                    enum=("clamped", "pinned", "free"),
                    default="clamped",
                ),
                "static_modes": Bool("add static correction modes at the link's joint, load and contact nodes",
                                     default=False),
                "stiffening": Bool(
                    "geometric stiffening: axial forces stiffen (tension) or soften (compression) bending, through "
                    "the second-order strain of the mesh's elements; adds the mesh's axial displacements as "
                    "coordinates (needed for links that turn fast or carry large axial loads)",
                    default=False,
                ),
                "damping_ratios": Arr(
                    Num("damping ratio", ge=0, lt=1),
                    "modal damping ratio of each mode in order, added to the model's Rayleigh damping (the last "
                    "applies to the modes after it)",
                    default=[],
                ),
            },
            required=("section",),
            help="floating frame of reference whose elastic displacement is a sum of the link's own vibration "
                 "modes (component mode synthesis, Predebon 2020 §2-3)",
        ),
    },
)
