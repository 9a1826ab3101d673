"""Compile a model document into a numeric system, once per run.

Degrees of freedom (inertial frame, thesis §2.1): every node carries ``x, y``;
every flexible link carries one rotation per node it passes through (links that
meet at a pin share the position and keep their own rotations, thesis §2.4 f;
welds share the rotation); every rigid link and rigid free body carries the
position of its centre of mass and its rotation ``(x_c, y_c, phi)``, and its nodes
are attached by :class:`~solver.system.constraints.BodyPoint` constraints; every modal
link carries its floating frame and modal coordinates (:mod:`.modal_links`).  Rotations
are measured from the sketched configuration, so every rotation dof starts at 0.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from .constraints import BodyPoint, ConstraintSet, DofMotion, SliderLine
from .clearance import clearance_joints, contact_model, journal_node, with_journal_nodes
from .contact_pairs import ContactPair
from .free_strains import FreeStrains, links_free_strains
from .modal_links import ModalSet, build_modal_link, number_modal_link
from .moving import Mover, link_path
from ..fem.beam import BeamSet
from ..fem.timoshenko import shear_parameter
from ..model.body_rules import body_inertia
from ..model.contact_rules import clearance_radii, node_target_reach, point_radius
from ..model.io import model_with_defaults
from .sections import section_at, section_properties
from .timefn import TimeFunction


@dataclass
class Load:
    dofs: tuple[int, int, int]  # x, y, rotation (-1 if none)
    fx: float
    fy: float
    torque: float
    function: TimeFunction
    follower: bool


@dataclass
class Driver:
    id: str
    kind: str  # angle | speed | displacement
    row: int  # its row in the constraint set
    dof: int


@dataclass
class FlexLink:
    id: str
    elements: np.ndarray  # element indices, first node to last
    length: float


@dataclass
class System:
    """The numeric system of a model (immutable during a run)."""

    doc: dict
    n: int
    q0: np.ndarray
    node_ids: list[str]
    node_dofs: np.ndarray  # (N, 2)
    rot_slots: list[tuple[str, str]]
    rot_dofs: np.ndarray  # (R,)
    beams: BeamSet
    elem_dofs: np.ndarray  # (E, 6)
    elem_info: list[tuple[str, int, str, str]]
    elem_fibre: np.ndarray  # (E,) outer-fibre distance, nan if unknown
    mass_diag: np.ndarray  # (n,) lumped masses, point bodies, rigid bodies
    gravity: np.ndarray  # (n,) constant gravity load
    loads: list[Load]
    constraints: ConstraintSet
    drivers: list[Driver]
    flex_links: list[FlexLink]
    contacts: list[ContactPair]
    alpha: float
    beta: float
    settings: dict
    rigid_bodies: list[tuple[str, tuple[int, int, int]]] = field(default_factory=list)  # (id, (x, y, phi) dofs)
    #: (journal dofs, bearing dofs) of each clearance joint: the two centres start with one velocity
    initial_ties: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=list)
    modal: ModalSet = field(default_factory=ModalSet.empty)
    #: thermal and creep strains of the flexible links' elements
    free_strains: FreeStrains = field(default_factory=FreeStrains)
    #: supports, masses and forces travelling along flexible links (:mod:`.moving`)
    movers: list[Mover] = field(default_factory=list)

    @property
    def size(self) -> float:
        """The model's size, m: twice the largest distance of a sketched node from the nodes'
        centroid, 1 m at least -- the length scale of the tolerances on positions, the same
        wherever the model is drawn and however it is turned."""
        xy = self.q0[self.node_dofs]
        return max(1.0, 2.0 * float(np.hypot(*(xy - xy.mean(axis=0)).T).max(initial=0.0)))

    @property
    def formulation(self) -> str:
        return self.settings["formulation"]

    def breakpoints(self) -> list[float]:
        """Times where a load or a driver function jumps or kinks."""
        fns = [ld.function for ld in self.loads] + [f for f in self.constraints.functions if f is not None]
        fns += self.free_strains.functions()
        fns += [m.position for m in self.movers]
        return [t for f in fns for t in f.breakpoints()]


def compile_model(document: dict) -> System:
    """Build the :class:`System` of a validated model document."""
    doc = with_journal_nodes(model_with_defaults(document))
    settings = dict(doc["solver"])
    settings.setdefault("nu", 0.25 * (settings["tau"] + 0.5) ** 2)  # thesis eq. (5.1)
    materials = {m["id"]: m for m in doc["materials"]}
    b = _Builder()

    for nd in doc["nodes"]:
        b.add_node(nd["id"], nd["x"], nd["y"])
    for body in doc["bodies"]:
        b.add_node(body["id"], body["x"], body["y"])
    for item in doc["moving"]:  # a moving mass is a point of its own, sketched where it starts
        if item["kind"] == "mass":
            (x1, y1), (x2, y2) = (b.xy[nd] for nd in _link(doc, item["link"])["nodes"])
            s0 = TimeFunction(item["position"]).value(0.0) / math.hypot(x2 - x1, y2 - y1)
            b.add_node(item["id"], x1 + s0 * (x2 - x1), y1 + s0 * (y2 - y1))
            b.mass[list(b.node_dof[item["id"]])] += item["mass"]

    # flexible links: mesh nodes and elements
    beam_rows, fibres, shear_rigidity, flex, free = [], [], [], [], FreeStrains()
    free_by_link = links_free_strains(doc)
    for link in doc["links"]:
        if link["kind"] != "flexible":
            continue
        n1, n2 = link["nodes"]
        p1, p2 = b.xy[n1], b.xy[n2]
        mesh = link["mesh"]
        st = mesh["stations"] if mesh["kind"] == "stations" else list(np.linspace(0, 1, mesh["elements"] + 1))
        names = [n1] + [f"{link['id']}.{k}" for k in range(1, len(st) - 1)] + [n2]
        for name, s in zip(names[1:-1], st[1:-1]):
            b.add_node(name, p1[0] + s * (p2[0] - p1[0]), p1[1] + s * (p2[1] - p1[1]))
        first = len(beam_rows)
        for k in range(len(names) - 1):
            a, z = names[k], names[k + 1]
            (xa, ya), (xz, yz) = b.xy[a], b.xy[z]
            L = math.hypot(xz - xa, yz - ya)
            sec = section_at(link["section"], materials, 0.5 * (st[k] + st[k + 1]))  # at the mid-point
            beam_rows.append((L, math.atan2(yz - ya, xz - xa), sec.EA, sec.EI, sec.rhoA, sec.rhoI))
            fibres.append(sec.c)
            shear_rigidity.append(sec.kGA)
            b.elem_nodes.append((link["id"], k, a, z))
        elements = np.arange(first, len(beam_rows))
        flex.append(FlexLink(link["id"], elements, math.hypot(p2[0] - p1[0], p2[1] - p1[1])))
        if link["id"] in free_by_link:
            free.links.append(replace(free_by_link[link["id"]], elements=elements))
        for name in names:
            b.rotation_slot(name, link["id"])

    modal = [build_modal_link(l, section_properties(l["section"], materials), b.xy, doc)
             for l in doc["links"] if l["kind"] == "modal"]
    for lk in modal:
        number_modal_link(b, lk, doc)

    # welds share the rotation dof of the links they join (flexible, rigid or modal)
    rigid_links = [l for l in doc["links"] if l["kind"] == "rigid"]
    for link in rigid_links:
        b.add_rigid_link(link, materials)
    for body in doc["bodies"]:
        if body["kind"] == "rigid":
            b.add_rigid_body(body["id"], body["mass"], body_inertia(body), (body["x"], body["y"]), [body["id"]])
        else:
            b.mass[b.node_dof[body["id"]][0]] += body["mass"]
            b.mass[b.node_dof[body["id"]][1]] += body["mass"]
    for j in doc["joints"]:
        if j["kind"] == "weld":
            b.weld(j["node"], j["links"])
    b.merge_welds()
    for lk, (_name, frame) in zip(modal, b.modal_frames):
        lk.frame = frame

    n = b.ndof
    elem_dofs = np.array(
        [[*b.node_dof[a], b.slot_dof[(a, l)], *b.node_dof[z], b.slot_dof[(z, l)]] for l, _k, a, z in b.elem_nodes],
        dtype=int,
    ).reshape(-1, 6)
    arr = np.array(beam_rows, dtype=float).reshape(-1, 6)
    kGA = np.array(shear_rigidity, dtype=float)
    beams = BeamSet(*(arr[:, i].copy() for i in range(6)), phi=shear_parameter(arr[:, 3], kGA, arr[:, 0]))

    # mass of lumped masses
    for m in doc["masses"]:
        dx, dy = b.node_dof[m["node"]]
        b.mass[dx] += m["mass"]
        b.mass[dy] += m["mass"]
        rotation = b.first_rotation(m["node"], missing=-1)
        if m["inertia"] > 0 and rotation >= 0:  # a node no link turns has no rotation to carry it
            b.mass[rotation] += m["inertia"]
    mass = np.zeros(n)
    mass[: len(b.mass)] = b.mass[:n]

    # gravity: element weight split to its end nodes, lumped and body weights
    g = np.array([doc["gravity"]["x"], doc["gravity"]["y"]])
    gravity = np.zeros(n)
    if beams.count:
        w = 0.5 * beams.rhoA * beams.L
        for col, gi in ((0, g[0]), (1, g[1]), (3, g[0]), (4, g[1])):
            np.add.at(gravity, elem_dofs[:, col], w * gi)
    trans = b.translational_dofs()
    gravity[trans[:, 0]] += mass[trans[:, 0]] * g[0]
    gravity[trans[:, 1]] += mass[trans[:, 1]] * g[1]

    # constraints: ground, clamps, sliders, drivers, rigid attachments
    dm, bp, sl = DofMotion(), BodyPoint(), SliderLine()
    for j in doc["joints"]:
        node = j["node"]
        if j["kind"] in ("ground", "fixed"):
            for d in b.node_dof[node]:
                dm.add(d, b.q0[d])
        if j["kind"] == "fixed":
            links = j.get("links") or b.links_at(node)
            for d in sorted({b.slot_dof[(node, l)] for l in links}):
                dm.add(d, b.q0[d])
        if j["kind"] == "slider":
            a = j["angle"]
            bp_xy = b.xy[node]
            sl.add(b.node_dof[node], (-math.sin(a), math.cos(a)), bp_xy)
    drivers = []
    for d in doc["drivers"]:
        fn = TimeFunction(d["function"])
        if d["kind"] == "displacement":
            dof = b.node_dof[d["node"]][0 if d["direction"] == "x" else 1]
            base = b.q0[dof]
        else:
            dof = b.slot_dof[(d["pivot"], d["link"])]
            base = 0.0
        row = dm.add(dof, base, fn, integrate=d["kind"] == "speed")
        drivers.append(Driver(d["id"], d["kind"], row, dof))
    for node_dofs, body_dofs, arm, shape in b.attachments:
        bp.add(node_dofs, body_dofs, arm, shape)
    for dofs, coefficients in b.linear_rows:
        sl.add_row(dofs, coefficients)
    for dof in _loose_dofs(b, mass, elem_dofs, dm, bp, sl):
        dm.add(dof, b.q0[dof])  # a sketch point that nothing carries stays where it is
    constraints = ConstraintSet(dm, bp, sl)

    loads = []
    for ld in doc["loads"]:
        nd = ld["node"]
        rot = b.slot_dof.get((nd, ld["link"])) if "link" in ld else b.first_rotation(nd, missing=-1)
        loads.append(Load((*b.node_dof[nd], rot if rot is not None else -1), ld["fx"], ld["fy"], ld["torque"], TimeFunction(ld["function"]), ld["follower"]))

    contacts = [_contact_pair(c, b, doc, elem_dofs, beams) for c in doc["contacts"]]
    paths = {f.id: link_path(_link(doc, f.id), b.xy, f.elements, elem_dofs, beams.L, beams.beta0) for f in flex}
    movers = [Mover(m["id"], m["kind"], paths[m["link"]], TimeFunction(m["position"]),
                    np.array([m.get("fx", 0.0), m.get("fy", 0.0)]), b.node_dof.get(m["id"]) if m["kind"] == "mass" else None)
              for m in doc["moving"]]
    contacts += [_clearance_pair(j, b) for j in clearance_joints(doc)]
    slots = list(b.slot_dof)
    return System(
        doc=doc,
        n=n,
        q0=b.q0[:n].copy(),
        node_ids=list(b.node_dof),
        node_dofs=np.array(list(b.node_dof.values()), dtype=int).reshape(-1, 2),
        rot_slots=slots,
        rot_dofs=np.array([b.slot_dof[s] for s in slots], dtype=int),
        beams=beams,
        elem_dofs=elem_dofs,
        elem_info=b.elem_nodes,
        elem_fibre=np.array(fibres, dtype=float),
        mass_diag=mass,
        gravity=gravity,
        loads=loads,
        constraints=constraints,
        drivers=drivers,
        flex_links=flex,
        contacts=contacts,
        alpha=doc["damping"]["alpha"],
        beta=doc["damping"]["beta"],
        settings=settings,
        rigid_bodies=b.bodies,
        initial_ties=[(b.node_dof[journal_node(j)], b.node_dof[j["node"]]) for j in clearance_joints(doc)],
        modal=ModalSet.build(modal, (g[0], g[1]), doc["damping"]["beta"]),
        free_strains=free,
        movers=movers,
    )


def _link(doc: dict, link_id: str) -> dict:
    return next(l for l in doc["links"] if l["id"] == link_id)


def _loose_dofs(b: "_Builder", mass: np.ndarray, elem_dofs: np.ndarray, dm: DofMotion, bp: BodyPoint, sl: SliderLine) -> list[int]:
    """Position dofs of nodes without mass that belong to no element and no joint."""
    held = set(elem_dofs.ravel().tolist()) | set(dm.dofs) | set(np.flatnonzero(mass > 0).tolist())
    held |= {d for pair in bp.node_dofs for d in pair} | {d for pair in sl.node_dofs for d in pair}
    return [d for dofs in b.node_dof.values() for d in dofs if d not in held]


def _contact_pair(c: dict, b: "_Builder", doc: dict, elem_dofs: np.ndarray, beams: BeamSet) -> ContactPair:
    """A contact pair's dofs and parameters; a rolling pair on a flexible link rolls on its
    deformed elements (``link_curve``)."""
    point = c["point"].get("node", c["point"].get("body"))
    radius = point_radius(doc, c["point"])
    tgt = c["target"]
    segments = np.zeros((0, 4), dtype=int)
    model = c.get("model", {"kind": "impulse"})
    kind, beam = tgt["kind"], None
    elements = [e for e, (l, _k, _a, _z) in enumerate(b.elem_nodes) if kind == "link" and l == tgt["link"]]
    if model["kind"] == "rolling" and elements:
        kind, beam = "link_curve", (elem_dofs[elements], beams.beta0[elements])
    if tgt["kind"] == "link":
        link = tgt["link"]
        chain = [(a, z) for (l, _k, a, z) in b.elem_nodes if l == link]
        names = b.modal_names.get(link, [])
        chain += list(zip(names, names[1:]))  # a modal link's mesh, every node tied to it
        if not chain:  # a rigid link: the segment between its first two nodes
            nodes = next(l["nodes"] for l in doc["links"] if l["id"] == link)
            chain = [(nodes[0], nodes[1])]
        segments = np.array([[*b.node_dof[a], *b.node_dof[z]] for a, z in chain], dtype=int)
    target = None
    if tgt["kind"] == "node":
        target, tgt = b.node_dof[tgt["node"]], dict(tgt, reach=node_target_reach(doc, tgt))
    turning = b.first_rotation(point, missing=-1) if radius > 0 else -1
    return ContactPair(c["id"], b.node_dof[point], radius, kind, tgt, segments, target,
                       c["mu_s"], c["mu_d"], c["e"], c["law"], b.ndof, point_rotation=turning, model=model, beam=beam)


def _clearance_pair(joint: dict, b: "_Builder") -> ContactPair:
    """The journal of a clearance joint inside its bearing: a point of radius Rj turning with
    the journal's link, in a circle of radius Rb about the joint's node."""
    r_journal, r_bearing = clearance_radii(joint)
    journal, node = journal_node(joint), joint["node"]
    bearing = b.slot_dof.get((node, joint["links"][1])) if len(joint["links"]) > 1 else b.first_rotation(node, -1)
    return ContactPair(joint["id"], b.node_dof[journal], r_journal, "circle",
                       {"radius": r_bearing, "inside": True}, np.zeros((0, 4), dtype=int), b.node_dof[node],
                       joint["friction"], joint["friction"], joint["restitution"], "energetic", b.ndof,
                       point_rotation=b.slot_dof[(journal, joint["links"][0])],
                       target_rotation=-1 if bearing is None else bearing, model=contact_model(joint))


class _Builder:
    """Dof numbering while a model is compiled: each new dof costs O(1) (the value and mass
    arrays grow by doubling), and the welds are renumbered in one pass (:meth:`merge_welds`)."""

    def __init__(self) -> None:
        self.ndof = 0
        self._q0 = np.zeros(16)
        self._mass = np.zeros(16)
        self.xy: dict[str, tuple[float, float]] = {}
        self.node_dof: dict[str, tuple[int, int]] = {}
        self.slot_dof: dict[tuple[str, str], int] = {}
        self._slots_at: dict[str, list[str]] = {}  # node -> links with a rotation slot there, in order
        self._welded: dict[int, int] = {}  # a welded rotation dof -> the dof it shares (smaller)
        self.elem_nodes: list[tuple[str, int, str, str]] = []
        #: (node dofs, body dofs, arm, modal shape or None): body-point constraints
        self.attachments: list[tuple[tuple[int, int], tuple[int, ...], tuple[float, float], np.ndarray | None]] = []
        self.bodies: list[tuple[str, tuple[int, int, int]]] = []
        self.modal_frames: list[tuple[str, tuple[int, ...]]] = []  # (link, (R_x, R_y, theta, q...))
        self.modal_names: dict[str, list[str]] = {}  # modal link that is a contact target -> its mesh nodes
        self.linear_rows: list[tuple[tuple[int, ...], tuple[float, ...]]] = []  # (dofs, coefficients)

    @property
    def q0(self) -> np.ndarray:
        """Initial values of the dofs so far (a view)."""
        return self._q0[: self.ndof]

    @property
    def mass(self) -> np.ndarray:
        """Lumped masses and inertias on the dofs so far (a view)."""
        return self._mass[: self.ndof]

    def new_dofs(self, values: list[float]) -> list[int]:
        first = self.ndof
        self.ndof += len(values)
        if self.ndof > self._q0.size:
            size = max(2 * self._q0.size, self.ndof)
            self._q0 = np.concatenate([self._q0, np.zeros(size - self._q0.size)])
            self._mass = np.concatenate([self._mass, np.zeros(size - self._mass.size)])
        self._q0[first : self.ndof] = values
        return list(range(first, self.ndof))

    def add_node(self, name: str, x: float, y: float) -> None:
        self.xy[name] = (x, y)
        dx, dy = self.new_dofs([x, y])
        self.node_dof[name] = (dx, dy)

    def rotation_slot(self, node: str, link: str, dof: int | None = None) -> int:
        if (node, link) not in self.slot_dof:
            self.slot_dof[(node, link)] = dof if dof is not None else self.new_dofs([0.0])[0]
            self._slots_at.setdefault(node, []).append(link)
        return self.slot_dof[(node, link)]

    def links_at(self, node: str) -> list[str]:
        return list(self._slots_at.get(node, []))

    def first_rotation(self, node: str, missing: int | None = None) -> int | None:
        if node in self._slots_at:
            return self.slot_dof[(node, self._slots_at[node][0])]
        if missing is not None:
            return missing
        return self.rotation_slot(node, "")

    def add_rigid_body(self, name: str, mass: float, inertia: float, com: tuple[float, float], nodes: list[str]) -> None:
        bx, by, bphi = self.new_dofs([com[0], com[1], 0.0])
        self.mass[[bx, by, bphi]] += [mass, mass, inertia]
        self.bodies.append((name, (bx, by, bphi)))
        for nd in nodes:
            x, y = self.xy[nd]
            self.attachments.append((self.node_dof[nd], (bx, by, bphi), (x - com[0], y - com[1]), None))
            self.rotation_slot(nd, name, bphi)

    def add_rigid_link(self, link: dict, materials: dict) -> None:
        nodes = link["nodes"]
        (x1, y1), (x2, y2) = self.xy[nodes[0]], self.xy[nodes[1]]
        L = math.hypot(x2 - x1, y2 - y1)
        mass = link.get("mass")
        if mass is None:
            _EA, _EI, rhoA, _rhoI, _c = section_properties(link["section"], materials)
            mass = rhoA * L
        inertia = link.get("inertia", mass * L * L / 12.0)
        com = link.get("com", {"s": 0.5, "n": 0.0})
        ux, uy = (x2 - x1) / L, (y2 - y1) / L
        cx = x1 + com["s"] * (x2 - x1) - com["n"] * uy
        cy = y1 + com["s"] * (y2 - y1) + com["n"] * ux
        self.add_rigid_body(link["id"], mass, inertia, (cx, cy), nodes)

    def _shared(self, dof: int) -> int:
        """The dof that ``dof`` shares after the welds so far."""
        while dof in self._welded:
            dof = self._welded[dof]
        return dof

    def weld(self, node: str, links: list[str]) -> None:
        """Give the links at ``node`` one rotation dof, the smallest of theirs (their masses
        add up); the numbering is made compact by :meth:`merge_welds`."""
        dofs = sorted({self._shared(self.slot_dof[(node, l)]) for l in links})
        keep = dofs[0]
        for gone in reversed(dofs[1:]):
            self.mass[keep] += self.mass[gone]
            self._welded[gone] = keep

    def merge_welds(self) -> None:
        """Number the dofs left after the welds consecutively, in their order, in one pass."""
        if not self._welded:
            return
        kept = np.ones(self.ndof, dtype=bool)
        kept[list(self._welded)] = False
        new = np.cumsum(kept) - 1
        shared = np.arange(self.ndof)
        for gone in self._welded:
            shared[gone] = self._shared(gone)
        number = new[shared]
        q0, mass = self.q0[kept], self.mass[kept]
        self.ndof = int(kept.sum())
        self._q0, self._mass = q0, mass
        self._welded = {}
        self._renumber(lambda d: int(number[d]))

    def _renumber(self, f) -> None:
        self.node_dof = {k: (f(a), f(b)) for k, (a, b) in self.node_dof.items()}
        self.slot_dof = {k: f(d) for k, d in self.slot_dof.items()}
        self.attachments = [((f(a), f(b)), tuple(f(x) for x in bd), arm, S) for (a, b), bd, arm, S in self.attachments]
        self.bodies = [(name, tuple(f(x) for x in bd)) for name, bd in self.bodies]
        self.modal_frames = [(name, tuple(f(x) for x in bd)) for name, bd in self.modal_frames]
        self.linear_rows = [(tuple(f(x) for x in dofs), c) for dofs, c in self.linear_rows]

    def translational_dofs(self) -> np.ndarray:
        dofs = list(self.node_dof.values()) + [bd[:2] for _n, bd in self.bodies]
        return np.array(dofs, dtype=int).reshape(-1, 2)
