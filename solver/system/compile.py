"""Compile a model document into a numeric system, once per run.

Each kind of model entity has a compiler of its own, a module ``compile_<kind>.py`` of this
package that registers its steps at the phases of the dof numbering (:mod:`.registry`);
:func:`compile_model` runs them in order on one :class:`~.builder.Compilation` (whose
:class:`~.builder.DofBuilder` numbers the dofs: inertial frame, thesis §2.1 and §2.4 f), and
the steps here make what belongs to no one kind: the element arrays, the mass diagonal and
weights, the stacked constraint set.  Rotations are measured from the sketched configuration,
so every rotation dof starts at 0.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .builder import Compilation
from .compile_drivers import Driver
from .compile_links import FlexLink
from .compile_loads import Load
from .constraints import ConstraintSet
from .contact_pairs import ContactPair
from .free_strains import FreeStrains
from .modal_links import ModalSet
from .moving import Mover
from .registry import Phase, compile_steps, compiler
from .sections import section_properties
from ..fem.beam import BeamSet
from ..fem.timoshenko import shear_parameter
from ..model.io import model_with_defaults

__all__ = ["Driver", "FlexLink", "Load", "System", "compile_model", "section_properties"]


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
    """Build the :class:`System` of a validated model document: every registered step of
    :mod:`.registry`, in phase order."""
    c = Compilation(model_with_defaults(document))
    for step in compile_steps():
        step(c)
    settings = dict(c.doc["solver"])
    settings.setdefault("nu", 0.25 * (settings["tau"] + 0.5) ** 2)  # thesis eq. (5.1)
    b, slots = c.b, list(c.b.slot_dof)
    return System(
        doc=c.doc, n=c.n, q0=b.q0[: c.n].copy(), node_ids=list(b.node_dof),
        node_dofs=np.array(list(b.node_dof.values()), dtype=int).reshape(-1, 2),
        rot_slots=slots, rot_dofs=np.array([b.slot_dof[s] for s in slots], dtype=int),
        beams=c.beams, elem_dofs=c.elem_dofs, elem_info=b.elem_nodes, elem_fibre=np.array(c.fibres, dtype=float),
        mass_diag=c.mass, gravity=c.gravity, loads=c.loads, constraints=c.constraints, drivers=c.drivers,
        flex_links=c.flex, contacts=c.contacts, alpha=c.doc["damping"]["alpha"], beta=c.doc["damping"]["beta"],
        settings=settings, rigid_bodies=b.bodies, initial_ties=c.initial_ties,
        modal=ModalSet.build(c.modal, (c.g[0], c.g[1]), c.doc["damping"]["beta"]),
        free_strains=c.free, movers=c.movers,
    )


@compiler(Phase.ELEMENTS)
def element_arrays(c: Compilation) -> None:
    """The beam elements stacked (:class:`~solver.fem.beam.BeamSet`) and their dofs
    ``(x1, y1, theta1, x2, y2, theta2)``, on the final numbering."""
    b = c.b
    c.n = b.ndof
    c.elem_dofs = np.array(
        [[*b.node_dof[a], b.slot_dof[(a, l)], *b.node_dof[z], b.slot_dof[(z, l)]] for l, _k, a, z in b.elem_nodes],
        dtype=int,
    ).reshape(-1, 6)
    arr = np.array(c.beam_rows, dtype=float).reshape(-1, 6)
    kGA = np.array(c.shear_rigidity, dtype=float)
    c.beams = BeamSet(*(arr[:, i].copy() for i in range(6)), phi=shear_parameter(arr[:, 3], kGA, arr[:, 0]))


@compiler(Phase.GRAVITY)
def weights(c: Compilation) -> None:
    """The lumped mass diagonal (kg, kg m^2) and the constant gravity load (N): each element's
    weight split to its end nodes, the weight of every lumped and body mass."""
    c.mass = np.zeros(c.n)
    c.mass[: len(c.b.mass)] = c.b.mass[: c.n]
    c.g = g = np.array([c.doc["gravity"]["x"], c.doc["gravity"]["y"]])
    c.gravity = gravity = np.zeros(c.n)
    if c.beams.count:
        w = 0.5 * c.beams.rhoA * c.beams.L
        for col, gi in ((0, g[0]), (1, g[1]), (3, g[0]), (4, g[1])):
            np.add.at(gravity, c.elem_dofs[:, col], w * gi)
    trans = c.b.translational_dofs()
    gravity[trans[:, 0]] += c.mass[trans[:, 0]] * g[0]
    gravity[trans[:, 1]] += c.mass[trans[:, 1]] * g[1]


@compiler(Phase.CONSTRAINT_SET)
def constraint_set(c: Compilation) -> None:
    """The body points and linear rows the builder collected, every loose point held where it
    is sketched, stacked with the joints' and drivers' rows."""
    for node_dofs, body_dofs, arm, shape in c.b.attachments:
        c.bp.add(node_dofs, body_dofs, arm, shape)
    for dofs, coefficients in c.b.linear_rows:
        c.sl.add_row(dofs, coefficients)
    for dof in _loose_dofs(c):
        c.dm.add(dof, c.b.q0[dof])  # a sketch point that nothing carries stays where it is
    c.constraints = ConstraintSet(c.dm, c.bp, c.sl)


def _loose_dofs(c: Compilation) -> list[int]:
    """Position dofs of nodes without mass that belong to no element and no joint."""
    held = set(c.elem_dofs.ravel().tolist()) | set(c.dm.dofs) | set(np.flatnonzero(c.mass > 0).tolist())
    held |= {d for pair in c.bp.node_dofs for d in pair} | {d for pair in c.sl.node_dofs for d in pair}
    return [d for dofs in c.b.node_dof.values() for d in dofs if d not in held]
