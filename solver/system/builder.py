"""The state a model's compilation shares between its entity compilers (:mod:`.registry`).

:class:`DofBuilder` numbers the dofs (inertial frame, thesis §2.1): every node carries
``x, y``; every flexible link one rotation per node it passes through (links that meet at a
pin share the position and keep their own rotations, thesis §2.4 f; welds share the
rotation); every rigid link and rigid free body the position of its centre of mass and its
rotation ``(x_c, y_c, phi)``, its nodes attached by
:class:`~solver.system.constraints.BodyPoint` constraints.  :class:`Compilation` holds the
document, the builder and the parts of the :class:`~solver.system.compile.System` as the
steps make them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .constraints import BodyPoint, ConstraintSet, DofMotion, SliderLine
from .free_strains import FreeStrains
from .sections import section_properties


@dataclass
class Compilation:
    """A model being compiled: the document (defaults filled in), its materials, the dof
    builder and the parts of the system, filled in phase by phase."""

    doc: dict
    b: "DofBuilder" = field(default_factory=lambda: DofBuilder())
    #: flexible links' elements: rows (L, beta0, EA, EI, rhoA, rhoI), outer fibre, kGA
    beam_rows: list[tuple[float, ...]] = field(default_factory=list)
    fibres: list[float] = field(default_factory=list)
    shear_rigidity: list[float] = field(default_factory=list)
    flex: list = field(default_factory=list)  # FlexLink of :mod:`.compile_links`
    free: FreeStrains = field(default_factory=FreeStrains)
    modal: list = field(default_factory=list)  # ModalLink of :mod:`.modal_links`
    n: int = 0  # the number of dofs, final from Phase.ELEMENTS on
    elem_dofs: np.ndarray = field(default_factory=lambda: np.zeros((0, 6), dtype=int))
    beams: object = None  # BeamSet
    mass: np.ndarray = field(default_factory=lambda: np.zeros(0))
    g: np.ndarray = field(default_factory=lambda: np.zeros(2))  # gravity, m/s^2
    gravity: np.ndarray = field(default_factory=lambda: np.zeros(0))
    dm: DofMotion = field(default_factory=DofMotion)
    bp: BodyPoint = field(default_factory=BodyPoint)
    sl: SliderLine = field(default_factory=SliderLine)
    constraints: ConstraintSet | None = None
    drivers: list = field(default_factory=list)  # Driver of :mod:`.compile_drivers`
    loads: list = field(default_factory=list)  # Load of :mod:`.compile_loads`
    contacts: list = field(default_factory=list)  # ContactPair of :mod:`.contact_pairs`
    movers: list = field(default_factory=list)  # Mover of :mod:`.moving`
    initial_ties: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=list)

    @property
    def materials(self) -> dict[str, dict]:
        return {m["id"]: m for m in self.doc["materials"]}

    def link(self, link_id: str) -> dict:
        """The link of the document with id ``link_id``."""
        return next(l for l in self.doc["links"] if l["id"] == link_id)


class DofBuilder:
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
