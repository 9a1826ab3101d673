"""The Flexmech model file, format version 1: every field described once.

All quantities are SI (m, kg, s, N, rad).  Ids are readable strings that other
entities refer to (``crank``, ``rod``, ``tip-floor``).  See ``docs/model-format.md``,
which is generated from this module by ``python -m solver.model.docs``.
"""
from __future__ import annotations

from dataclasses import replace

from .fields import Arr, Bool, Num, Obj, Str, Variant
from .joint_fields import BEARING_WEAR, LUBRICANT
from .link_fields import LINK, MESH, SECTION  # noqa: F401  (MESH, SECTION: re-exported for the app)
from .moving_fields import MOVING
from .time_fields import F, TIME_FUNCTION

FORMAT = "flexmech"
VERSION = 1


def _id(what: str) -> Str:
    return Str(f"unique id of this {what}", is_id=True)


# --------------------------------------------------------------------------- entities
MATERIAL = Obj(
    {
        "id": _id("material"),
        "E": Num("Young's modulus", "Pa", gt=0),
        "density": Num("mass density", "kg/m^3", gt=0),
        "poisson": Num("Poisson's ratio", default=0.3, gt=-1, lt=0.5),
        "shear_modulus": Num("shear modulus G (default E / (2 (1 + poisson)))", "Pa", gt=0),
        "expansion": Num("coefficient of thermal expansion alpha", "1/K", default=0.0),
    },
    help="an isotropic linear-elastic material",
    required=("id", "E", "density"),
)

NODE = Obj(
    {
        "id": _id("node"),
        "x": Num("x coordinate in the sketch (initial configuration)", "m"),
        "y": Num("y coordinate in the sketch (initial configuration)", "m"),
    },
    help="a point of the sketch: link ends, joints, masses, loads and contacts sit on nodes",
    required=("id", "x", "y"),
)

#: normal force laws of compliant contact (``solver.contact.normal_laws.NORMAL_LAWS``; a test
#: keeps the two lists equal)
NORMAL_LAWS = ("hooke", "kelvin_voigt", "hertz", "lankarani_nikravesh", "hunt_crossley", "flores",
               "dubowsky_freudenstein", "goldsmith", "esdu78035")
#: the laws of a pin in a bore (Flores et al. 2006 eqs. 10-11): radii, length and materials, no K
CYLINDER_LAWS = ("dubowsky_freudenstein", "goldsmith", "esdu78035")
#: laws whose stiffness K is a linear spring's, N/m (never computed from the materials)
LINEAR_LAWS = ("hooke", "kelvin_voigt")
#: friction laws of compliant contact (``solver.contact.friction_laws.FRICTION_LAWS``)
FRICTION_LAWS = ("coulomb", "rooney_deravi", "threlfall", "ambrosio")

#: the law fields shared by compliant contact pairs and clearance joints
COMPLIANT_LAW = {
    "law": Str(
        "normal force law: hooke (F = K d), kelvin_voigt (eq. 1), hertz (eq. 2), lankarani_nikravesh "
        "(eq. 9), hunt_crossley, flores (2011), and for a pin in a bore dubowsky_freudenstein (eq. 10), "
        "goldsmith, esdu78035 (eq. 11)",
        enum=NORMAL_LAWS, default="lankarani_nikravesh",
    ),
    "stiffness": Num(
        "generalised stiffness K (default: from the two materials and signed radii, eqs. 3-5; "
        "required by hooke and kelvin_voigt, in N/m; unused by the cylinder laws)",
        "N/m^n", gt=0,
    ),
    "exponent": Num("exponent n of the penetration (Hertz-type laws; 1 for hooke and kelvin_voigt)",
                    default=1.5, ge=1),
    "damping": Num("viscous damper D in parallel with the law, F + D d_dot (the sum never pulls)",
                   "N s/m", default=0.0, ge=0),
    "friction_law": Str(
        "friction law: coulomb (eq. 13), rooney_deravi (eqs. 13-14), threlfall (eq. 15), ambrosio (eqs. 16-17)",
        enum=FRICTION_LAWS, default="ambrosio",
    ),
    "friction_velocity": Num(
        "slip velocity of the friction law: Ambrosio's v0 (no friction below it), Rooney-Deravi's stick "
        "band half-width, Threlfall's v_r", "m/s", default=1e-4, gt=0,
    ),
    "friction_velocity_1": Num("Ambrosio's v1: full friction c_f F_n above it (> friction_velocity)",
                               "m/s", default=1e-3, gt=0),
}

#: the joint kinds that hold their node to the ground: its position fixed, or on a fixed guide
GROUND_JOINTS = ("ground", "fixed", "slider")

JOINT = Variant(
    help="a joint; links that share a node are pinned there unless a weld says otherwise",
    common={"id": _id("joint"), "node": Str("node where the joint sits", ref="nodes")},
    common_required=("id", "node"),
    kinds={
        "pin": Obj({"links": Arr(Str("link", ref="links"), "links pinned together (default: all at the node)")}),
        "weld": Obj({"links": Arr(Str("link", ref="links"), "links welded together (same rotation)", min_items=2)}, required=("links",)),
        "ground": Obj({}, help="pin to ground: the node's position is fixed, rotations are free"),
        "fixed": Obj(
            {"links": Arr(Str("link", ref="links"), "links clamped at the node (default: all at the node)")},
            help="clamp to ground: position and the rotations of the links at the node are fixed",
        ),
        "slider": Obj(
            {"angle": Num("direction of the guide line through the node's initial position, from +x", "rad", default=0.0)},
            help="the node moves along a fixed straight guide",
        ),
        "clearance": Obj(
            {
                "links": Arr(
                    Str("link", ref="links"),
                    "the journal's link, then the bearing's (default: whatever else is at the node -- "
                    "links, a lumped mass, a slider or a ground pin -- carries the bearing)",
                    min_items=1,
                ),
                "bearing_radius": Num("bearing (bore) radius Rb", "m", gt=0),
                "journal_radius": Num("journal (pin) radius Rj; give it or the clearance", "m", gt=0),
                "clearance": Num("radial clearance c = Rb - Rj; give it or journal_radius", "m", gt=0),
                "length": Num("axial length L of journal and bearing", "m", gt=0),
                "material": Str("material of journal and bearing (for the stiffness, eqs. 3-5)", ref="materials"),
                "journal_material": Str("material of the journal (default: material)", ref="materials"),
                "bearing_material": Str("material of the bearing (default: material)", ref="materials"),
                **COMPLIANT_LAW,
                "restitution": Num("coefficient of restitution c_e of the normal law", default=0.9, gt=0, le=1),
                "friction": Num("coefficient of friction c_f of the friction law", default=0.0, ge=0),
                "offset": Obj(
                    {"x": Num("x of the journal centre from the bearing centre", "m", default=0.0),
                     "y": Num("y of the journal centre from the bearing centre", "m", default=0.0)},
                    help="where the journal centre starts, from the bearing centre (the node); "
                         "inside the clearance circle",
                    default={},
                ),
                "lubricant": LUBRICANT,
                "wear": BEARING_WEAR,
            },
            required=("links", "bearing_radius", "length"),
            help="revolute joint with clearance: a journal on one link end moves inside a bearing on the "
                 "other part, a compliant contact law across the gap (Flores et al. 2006, eq. 18)",
        ),
        "translational_clearance": Obj(
            {
                "angle": Num("direction of the guide's centre line from +x", "rad", default=0.0),
                "length": Num("length L of the slider along the guide", "m", gt=0),
                "height": Num("height h of the slider across the guide", "m", gt=0),
                "clearance": Num("clearance c on each side of the centred slider: the guide is h + 2c wide",
                                 "m", gt=0),
                "mass": Num("mass of the slider (centre of mass at the node)", "kg", gt=0),
                "inertia": Num("moment of inertia of the slider about its centre (default m (L^2 + h^2) / 12)",
                               "kg m^2", gt=0),
                "offset": Num("where the slider's centre starts across the guide, from its centre line "
                              "(along the normal, +90 deg from the guide's direction)", "m", default=0.0),
                "tilt": Num("the slider's initial angle to the guide, counter-clockwise", "rad", default=0.0),
                **{k: v for k, v in COMPLIANT_LAW.items() if k != "stiffness"},
                "stiffness": Num("generalised stiffness K of a corner on a guide surface (no radii to compute it "
                                 "from)", "N/m^n", gt=0),
                "restitution": Num("coefficient of restitution c_e of the normal law", default=0.9, gt=0, le=1),
                "friction": Num("coefficient of friction c_f of the friction law", default=0.0, ge=0),
            },
            required=("length", "height", "clearance", "mass", "stiffness"),
            help="translational joint with clearance: the node is the centre of a rigid slider (L x h, its own "
                 "mass and rotation) in a straight guide fixed to the ground, h + 2c wide; each of its four "
                 "corners meets the guide's surface on its side through a compliant law (Flores et al. 2008)",
        ),
    },
)

MASS = Obj(
    {
        "id": _id("lumped mass"),
        "node": Str("node carrying the mass", ref="nodes"),
        "mass": Num("mass", "kg", ge=0),
        "inertia": Num("rotary inertia (added to the rotation of the first link at the node)", "kg m^2", default=0.0, ge=0),
    },
    help="a lumped mass and rotary inertia at a node",
    required=("id", "node", "mass"),
)

BODY = Obj(
    {
        "id": _id("free body"),
        "kind": Str("point mass, or rigid body with rotary inertia", enum=("point", "rigid"), default="point"),
        "x": Num("x of the centre of mass", "m"),
        "y": Num("y of the centre of mass", "m"),
        "angle": Num("initial orientation", "rad", default=0.0),
        "mass": Num("mass", "kg", gt=0),
        "inertia": Num("moment of inertia about the centre of mass of a rigid body (default, and for 0: a "
                       "disc's m r^2 / 2 of its radius)", "kg m^2", ge=0),
        "radius": Num("contact radius of the body (0: a point)", "m", default=0.0, ge=0),
    },
    help="a free body that belongs to no link (a striking mass, a free block)",
    required=("id", "x", "y", "mass"),
)

DRIVER = Variant(
    help="a prescribed motion as a function of time; its reaction force or torque is reported",
    common={"id": _id("driver"), "function": TIME_FUNCTION},
    common_required=("id", "function"),
    kinds={
        "angle": Obj(
            {"link": Str("driven link", ref="links"), "pivot": Str("pivot node of the link", ref="nodes")},
            required=("link", "pivot"),
            help="the link's rotation from its sketched orientation is f(t) (counter-clockwise positive)",
            units={F: "rad"},
        ),
        "speed": Obj(
            {"link": Str("driven link", ref="links"), "pivot": Str("pivot node of the link", ref="nodes")},
            required=("link", "pivot"),
            help="the link's angular speed is f(t) (counter-clockwise positive)",
            units={F: "rad/s"},
        ),
        "displacement": Obj(
            {
                "node": Str("driven node", ref="nodes"),
                "direction": Str("driven coordinate", enum=("x", "y")),
            },
            required=("node", "direction"),
            help="the node's displacement from its sketched position along x or y is f(t)",
            units={F: "m"},
        ),
    },
)

LOAD = Obj(
    {
        "id": _id("load"),
        "node": Str("loaded node", ref="nodes"),
        "link": Str("link whose rotation takes the torque (default: the first at the node)", ref="links"),
        "fx": Num("force along x (times f(t))", "N", default=0.0),
        "fy": Num("force along y (times f(t))", "N", default=0.0),
        "torque": Num("torque, counter-clockwise (times f(t))", "N m", default=0.0),
        "follower": Bool("the force turns with the link (components in the link frame)", default=False),
        "function": replace(TIME_FUNCTION, default={"kind": "constant", "value": 1.0}),
    },
    help="a nodal force and torque, scaled by a function of time",
    required=("id", "node"),
    units={F: "-"},
)

_XY = {"x": Num("x", "m", default=0.0), "y": Num("y", "m", default=0.0)}

CONTACT_POINT = Obj(
    {
        "node": Str("contact node (of a link)", ref="nodes"),
        "body": Str("or: the free body", ref="bodies"),
        "radius": Num("radius of the striking surface around the point (default: the body's radius, "
                      "0 for a node); a signed radius of eqs. 3-5, convex", "m", ge=0),
    },
    help="the point that strikes: a node of a link or a free body (give one)",
)

CONTACT_TARGET = Variant(
    help="what the point strikes; the normal points out of the target, positive normal velocity separates",
    kinds={
        "ground_line": Obj(
            dict(_XY, angle=Num("direction of the line from +x; the normal is its left side", "rad", default=0.0)),
            help="an infinite fixed line through (x, y)",
        ),
        "ground_segment": Obj(
            {
                "x1": Num("start x", "m"), "y1": Num("start y", "m"),
                "x2": Num("end x", "m"), "y2": Num("end y", "m"),
            },
            required=("x1", "y1", "x2", "y2"),
            help="a fixed segment; the normal is the left side of start -> end",
        ),
        "link": Obj(
            {
                "link": Str("target link", ref="links"),
                "side": Str("which side of the link is the contact surface", enum=("left", "right"), default="left"),
            },
            required=("link",),
            help="anywhere along a segment of another link (rigid or flexible)",
        ),
        "node": Obj(
            {
                "node": Str("target node", ref="nodes"),
                "angle": Num("direction of the contact normal, out of the target, from +x", "rad", default=0.0),
                "reach": Num("how far the target's face reaches from the node across the normal, and behind it "
                             "(default: half the distance to the nearest node the node shares a link with: half "
                             "the link for its end)", "m", gt=0),
            },
            required=("node",),
            help="a node of another link (candidate contact node pair, thesis eq. 3.1): a flat face through the "
                 "node, across the normal, reaching `reach` to either side; the point touches it only while its "
                 "centre faces the face (within reach of the node across the normal) and is less than reach "
                 "behind it. For a body striking the side of a link use the link target",
        ),
        "circle": Obj(
            dict(_XY, radius=Num("radius", "m", gt=0), inside=Bool("the point moves inside the circle", default=False)),
            required=("radius",),
            help="a fixed circle",
        ),
    },
)

CONTACT_MODEL = Variant(
    help="how the contact is resolved",
    default_kind="impulse",
    kinds={
        "impulse": Obj({}, help="momentum balance with Routh's incremental method (thesis ch. 3)"),
        "lagrange": Obj(
            {
                "stick_tolerance": Num(
                    "slip velocity, as a fraction of its value a step before, below which sliding turns to sticking "
                    "(thesis eq. 4.9)", default=1e-3, gt=0, lt=1,
                ),
            },
            help="Lagrange-multiplier contact (thesis ch. 4): the momentum-balance jump at onset (e and law are not "
                 "used), then the gap held by the normal force, sliding or sticking, release when the force would pull",
        ),
        "rolling": Obj(
            {},
            help="rolling without slip (Amirouche & Xie eqs. 17-21): the gap held by the normal force and the "
                 "tangential relative velocity of the surfaces held at zero, the contact point found again at every "
                 "step; lift-off when the normal force would pull, and a plastic, no-slip onset when it lands "
                 "again (mu_s, mu_d, e and law are not used); the point is a round rigid body",
        ),
        "compliant": Obj(
            {
                **COMPLIANT_LAW,
                "point_material": Str("material of the striking point's surface (for the stiffness, eqs. 3-5)",
                                      ref="materials"),
                "target_material": Str("material of the target's surface (for the stiffness, eqs. 3-5)",
                                       ref="materials"),
                "length": Num("axial length L of the contact (the cylinder laws)", "m", gt=0),
            },
            help="continuous contact force law (Flores et al. 2006): the pair's e is the restitution c_e, "
                 "its mu_d the friction coefficient c_f",
        ),
    },
)

CONTACT = Obj(
    {
        "id": _id("contact pair"),
        "point": CONTACT_POINT,
        "target": CONTACT_TARGET,
        "mu_s": Num("static friction coefficient", default=0.0, ge=0),
        "mu_d": Num("dynamic friction coefficient", default=0.0, ge=0),
        "e": Num("coefficient of restitution", default=1.0, ge=0, le=1),
        "law": Str("restitution law", enum=("newton", "poisson", "energetic"), default="energetic"),
        "model": CONTACT_MODEL,
    },
    help="a contact pair: a point against a target, with friction and restitution",
    required=("id", "point", "target"),
)

INITIAL_VELOCITY = Obj(
    {
        "node": Str("node", ref="nodes"),
        "link": Str("or: every point of this link, moving rigidly: vx, vy at the middle of its first two nodes, "
                    "turning at omega (kept where the joints allow it; they set the rest)", ref="links"),
        "body": Str("or: the free body", ref="bodies"),
        "vx": Num("velocity along x", "m/s", default=0.0),
        "vy": Num("velocity along y", "m/s", default=0.0),
        "omega": Num("angular velocity, counter-clockwise", "rad/s", default=0.0),
    },
    help="an explicit initial velocity (give one of node, link, body)",
)

#: what a run records, beside ``output_interval`` (how often): element stations, rates, the step log, precision
RECORD = Obj(
    {
        "element_stations": Arr(
            Num("station, as a fraction of the element length", ge=0, le=1),
            "where along each beam element its forces, strains and moments are recorded (the elements table); "
            "[] records no elements table",
            default=[0.0, 0.25, 0.5, 0.75, 1.0],
        ),
        "rates": Bool("record the velocities and accelerations of nodes and rotations (else positions and angles "
                      "only)", default=True),
        "steps": Bool("record the step log (the steps table: every step's size and Newton iterations)", default=True),
        "precision": Str(
            "floats of the nodes, rotations, elements and modes tables: double (64-bit, read back exactly) or "
            "single (32-bit, about 7 digits: half the memory and disk)",
            enum=("double", "single"), default="double",
        ),        "links": Arr(
            Str("flexible or modal link", ref="links"),
            "flexible and modal links whose elements (forces, strains), mid-span deflection and modal "
            "coordinates are recorded ([]: none); the positions and rotations of every node, mesh nodes "
            "included, are always recorded",
            absent="all",
        ),
        "contacts": Arr(Str("contact pair or clearance joint"),
                        "contact pairs (and clearance joints) recorded in the contacts table ([]: none)", absent="all"),
        "moving": Arr(Str("moving support, mass or force", ref="moving"),
                      "moving supports, masses and forces recorded in the moving table ([]: none)", absent="all"),
    },
    help="what a run records in its results (how often: output_interval)",
    default={},
)

SOLVER = Obj(
    {
        "end_time": Num("simulated time", "s", gt=0, default=1.0),
        "step": Num("time step", "s", gt=0, default=1e-3),
        "output_interval": Num("time between stored frames, k times it (the steps land there); 0 or less than "
                               "the step: every step", "s", default=0.0, ge=0),
        "integrator": Str("time integrator", enum=("newmark", "generalized_alpha"), default="newmark"),
        "tau": Num("Newmark tau (gamma); > 0.5 adds numerical damping; unset in a model with contact pairs, a run "
                   "switches to 0.505 once it creates energy (docs/solver.md)", default=0.5, ge=0.5, le=1),
        "nu": Num("Newmark nu (beta); default 0.25 (tau + 0.5)^2, thesis eq. (5.1)", ge=0, le=1),
        "rho_inf": Num("generalized-alpha spectral radius at infinite frequency", default=0.9, ge=0, le=1),
        "formulation": Str(
            "element inertia and tangent: consistent (default) or as printed in the thesis",
            enum=("consistent", "thesis"),
            default="consistent",
        ),
        "tol_rel": Num("relative Newton tolerance on the out-of-balance force, thesis eq. (2.64)", default=1e-8, gt=0),
        "tol_abs": Num("absolute Newton tolerance on the out-of-balance force", "N", default=1e-9, gt=0),
        "max_iterations": Num("Newton iterations before the step is cut", default=25, ge=1, le=1000, integer=True),
        "max_step_cuts": Num("times a step may be halved before the run stops", default=8, ge=0, le=50, integer=True),
        "modified_newton": Bool("reuse the factorised Jacobian while Newton converges", default=True),
        "consistent_initial_velocity": Bool("start with velocities consistent with drivers and joints", default=True),
        "initial_shape": Str(
            "the shape a run starts from: sketched (unloaded, as drawn) or static (the static equilibrium under "
            "the loads, free strains and gravity at t = 0: a pre-bent or preloaded link starts at rest in its "
            "bent shape; contacts are not part of it, moving masses must start before their link)",
            enum=("sketched", "static"), default="sketched",
        ),
        "contact_tol": Num("gap within which a contact is established, thesis TOL_imp (3.3)", "m", default=1e-6, gt=0),
        "contact_accuracy": Num(
            "local error of the penetration per step while a compliant contact is closed, as a fraction "
            "of the contact's largest penetration (the step shrinks in contact to meet it)",
            default=1e-3, gt=0, lt=1,
        ),
        "impact_step": Num(
            "time step while in contact (0: 0.8 x the shortest wave transit of a flexible element, thesis eq. 3.5; "
            "with Lagrange pairs, 1/sqrt(2) of the transit of the elements they strike)",
            "s", default=0.0, ge=0,
        ),
        "impact_forecast": Bool(
            "cut a step of a momentum-balance pair in contact where the contact predictor (3.4) expects "
            "it to close again, before the step is taken, instead of taking the step and then cutting "
            "it: one attempt instead of two for an e = 1 contact that closes again within each impact "
            "step (the two bars of 5.1.2); the impulses land within TOL as before, but at other times",
            default=False,
        ),
        "impulse_force_window": Num(
            "window over which the impulses of a momentum-balance contact are averaged into its force "
            "(0: 4 x the shortest wave transit of a flexible element, or the impact step without one)",
            "s", default=0.0, ge=0,
        ),
        "record": RECORD,
    },
    help="time integration settings",
    default={},
)

MODEL = Obj(
    {
        "format": Str("always 'flexmech'", enum=(FORMAT,)),
        "version": Num("file format version", integer=True, ge=1, le=VERSION),
        "name": Str("model name", default=""),
        "description": Str("one-line description", default=""),
        "source": Str("where the example comes from", default=""),
        "materials": Arr(MATERIAL, "materials", unique_ids=True, default=[]),
        "nodes": Arr(NODE, "nodes (none in a model of free bodies only)", unique_ids=True),
        "links": Arr(LINK, "links", unique_ids=True, default=[]),
        "joints": Arr(JOINT, "joints", unique_ids=True, default=[]),
        "masses": Arr(MASS, "lumped masses", unique_ids=True, default=[]),
        "bodies": Arr(BODY, "free bodies", unique_ids=True, default=[]),
        "drivers": Arr(DRIVER, "drivers", unique_ids=True, default=[]),
        "loads": Arr(LOAD, "loads", unique_ids=True, default=[]),
        "moving": Arr(MOVING, "moving supports, masses and forces", unique_ids=True, default=[]),
        "gravity": Obj({"x": Num("gravity along x", "m/s^2", default=0.0), "y": Num("gravity along y", "m/s^2", default=0.0)}, help="gravitational acceleration", default={}),
        "damping": Obj(
            {
                "alpha": Num("Rayleigh mass coefficient, thesis eq. (2.45)", "1/s", default=0.0, ge=0),
                "beta": Num("Rayleigh stiffness coefficient, thesis eq. (2.45)", "s", default=0.0, ge=0),
            },
            help="Rayleigh damping C = alpha M + beta K",
            default={},
        ),
        "contacts": Arr(CONTACT, "contact pairs", unique_ids=True, default=[]),
        "initial_velocities": Arr(INITIAL_VELOCITY, "explicit initial velocities", default=[]),
        "solver": SOLVER,
    },
    help="a Flexmech model",
    required=("format", "version", "nodes"),
)

#: collections whose items carry ids other fields may refer to
COLLECTIONS = ("materials", "nodes", "links", "joints", "masses", "bodies", "drivers", "loads", "moving",
               "contacts")
