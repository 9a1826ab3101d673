"""From a solver state to an output :class:`~solver.results.frames.Frame`.

Strains at stations along each element come from the corotational deformations:
the axial strain is the mean strain of the element (uniform extension, A.17 / the
consistent mean strain), the curvature is the second derivative of the cubic
shape (A.9), ``kappa(xi) = ((6 xi - 4) tb1 + (6 xi - 2) tb2) / L`` (of the section
rotation of the IIE with shear, :func:`solver.fem.timoshenko.curvature`), and the
outer-fibre bending strain is ``-c kappa`` (A.3: the strain at ``y = +c``, the left
side of the element).  With free (thermal, creep) strains the strains, forces and moments
are the elastic ones: the free strain is taken off (``eps - eps0``, ``kappa - kappa0``);
the free strains themselves follow from the model (:mod:`.series`).  The mid-span deflection of a flexible link is the distance of
its mid-length point from the chord between its end nodes, divided by its length
(thesis Ex. 4), positive to the left of the chord.  Modal links add their mesh, strains,
mid-span deflection and modal coordinates (:mod:`.modal_outputs`).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..system.assembly import Assembly
from ..system.compile import compile_model
from ..fem.beam import deformations, stacked_deformations
from ..fem.timoshenko import curvature, shapes
from ..system.free_strains import EPS0, KAPPA0
from ..system.impact_times import force_windows
from ..system.state import State
from .frame_block import ContactBlock, FrameBlock
from .frames import ELEMENT_FIELDS, MODAL_FIELDS, RATE_FIELDS, STATIONS, Frame, Layout
from .modal_outputs import ModalOutputs
from .selection import select


#: states whose energies and powers are remembered: 8 keeps the energies a closed Lagrange run found of its last
#: state, the step it handed over and that step's retake to a release while the loop's guard looks at both
#: steps with their powers (with 4 the powers pushed them out and each was computed again)
MEMO = 8

#: the energies in play of the spurious-root guard are at least this fraction of the largest it saw
#: at a step's start (:meth:`OutputBuilder.spurious_growth`): a root that creates less is harmless
SPURIOUS_FLOOR = 1e-9

#: the growth of the mechanical energy over a step, as a fraction of the energies in play, that marks a
#: spurious root (:meth:`OutputBuilder.spurious_growth`)
SPURIOUS_RATIO = 0.05

#: the energy terms of a state (:meth:`OutputBuilder.energy_terms`), then the ledger's
ENERGY_TERMS = ("kinetic", "strain", "potential", "contact_elastic")


def model_layout(model: dict) -> Layout:
    """The :class:`Layout` a run of ``model`` will have (node, element and contact names
    of its frames), known before the first step."""
    return OutputBuilder(Assembly(compile_model(model))).layout


class OutputBuilder:
    """Makes frames of one system; holds the energy ledger between them."""

    def __init__(self, asm: Assembly):
        self.asm = asm
        s = asm.sys
        self.sys = s
        record = s.settings.get("record", {})
        self.xi = np.array(record.get("element_stations", STATIONS), dtype=float)
        self.rates = bool(record.get("rates", True))
        #: float type of the bulky arrays (nodes, rotations, elements, modes)
        self.dtype = np.float32 if record.get("precision") == "single" else np.float64
        self.modal = ModalOutputs(s, self.xi)
        m = self.modal
        full = Layout(
            nodes=list(s.node_ids) + m.nodes,
            rotations=list(s.rot_slots) + m.rotations,
            elements=list(s.elem_info) + m.elements,
            element_length=np.concatenate([s.beams.L, m.element_length]),
            outer_fibre=np.concatenate([s.elem_fibre, m.outer_fibre]),
            flexible_links=[f.id for f in s.flex_links] + m.link_ids,
            drivers=[d.id for d in s.drivers],
            stations=tuple(self.xi.tolist()),
            modes=m.modes,
            mode_frequency=m.frequencies,
            contacts=[pair.id for pair in s.contacts],
            moving=[mv.id for mv in s.movers],
            rates=self.rates,
            force_windows=force_windows(s),
        )
        #: the layout of the frames: the entities ``solver.record`` chooses (:mod:`.selection`)
        self.layout, self.selection = select(full, record)
        self._midspan = [self._midspan_locator(f) for f in s.flex_links]
        self._driver_rows = np.array([d.row for d in s.drivers], dtype=int)
        self._driver_dofs = np.array([d.dof for d in s.drivers], dtype=int)
        self.ledger = {"work_loads": 0.0, "work_drivers": 0.0, "work_free_strains": 0.0, "dissipated_damping": 0.0,
                       "dissipated_friction": 0.0, "dissipated_restitution": 0.0, "dissipated_contact": 0.0}
        if any(mv.rows for mv in s.movers):  # a further term: the work of the moving rows' reactions
            self.ledger["work_moving"] = 0.0
        self._last_powers: tuple[float, ...] | None = None
        self._last_motion: tuple[np.ndarray, np.ndarray] | None = None  # (q, v) the powers were taken at
        #: Rayleigh damping, or modal damping of a modal link's coordinates (its damping ratios)
        self._damped = s.alpha > 0.0 or s.beta > 0.0 or s.modal.damped
        #: powers dissipated by contact friction and by the damping of compliant contact laws, and
        #: the power of the moving supports' and masses' reactions, at a state (set by the time loop), W
        self.contact_power: Callable[[State], tuple[float, float, float]] | None = None
        #: energy stored in compliant contacts at a state (set by the time loop), J
        self.contact_energy: Callable[[State], float] = lambda st: 0.0
        #: the state's energy terms and powers in one call, those of :meth:`energy_terms` and
        #: :meth:`powers` (set by the time loop when its contacts offer it), J and W
        self.state_terms: Callable[[State], tuple[tuple[float, ...], tuple[float, ...]]] | None = None
        self._memo: list[tuple[State, str, object]] = []
        self._largest_start = 0.0  # the largest energy at the start of a step the guard looked at, J
        #: strain and potential energy of the last configurations ``(q, t)``: a velocity jump keeps
        #: the state's ``q`` (never changed in place), so the states before and after it share them
        self._configurations: list[tuple[np.ndarray, float, tuple[float, float]]] = []

    def _midspan_locator(self, link) -> tuple[int, float]:
        """(element, local coordinate) of the link's mid-length point."""
        L = self.sys.beams.L[link.elements]
        s = np.concatenate([[0.0], np.cumsum(L)])
        half = 0.5 * s[-1]
        k = int(np.clip(np.searchsorted(s, half, side="right") - 1, 0, len(L) - 1))
        return int(link.elements[k]), float((half - s[k]) / L[k])

    # ------------------------------------------------------------------ energy ledger
    def _remembered(self, st: State, what: str, compute):
        """``compute()`` for state ``st``, remembered for the last few states (a step's end state is
        looked at by the energy guard, the ledger and the next step's guard)."""
        for state, key, value in self._memo:
            if state is st and key == what:
                return value
        value = compute()
        self._memo = [(st, what, value), *self._memo[:MEMO - 1]]
        return value

    def powers(self, st: State, t_loads: float | None = None) -> tuple[float, ...]:
        """Power of the loads, of the drivers, of damping, of contact friction, of contact
        damping, of the free strains and of the moving supports and masses, W (loads at ``t_loads``
        if given)."""
        if t_loads is None:
            if self.state_terms is not None:
                return self._remembered(st, "terms", lambda: self.state_terms(st))[1]
            return self._remembered(st, "powers", lambda: self._powers(st, None))
        return self._powers(st, t_loads)

    def _powers(self, st: State, t_loads: float | None) -> tuple[float, ...]:
        asm, s = self.asm, self.sys
        p_loads = 0.0
        if s.loads or s.movers:  # nodal loads, moving forces and the forces on moving masses
            p_loads = float(np.dot(asm.external(st.q, st.t if t_loads is None else t_loads) - s.gravity, st.v))
        p_drv = -float(np.dot(st.lam[self._driver_rows], st.v[self._driver_dofs])) if s.drivers else 0.0
        p_damp = asm.damping_power(st.q, st.v) if self._damped else 0.0
        p_fric, p_contact, p_moving = self.contact_power(st) if self.contact_power is not None else (0.0, 0.0, 0.0)
        return p_loads, p_drv, p_damp, p_fric, p_contact, self._free_strain_power(st, t_loads), p_moving

    def _free_strain_power(self, st: State, t_rates: float | None) -> float:
        """``dU/dt`` at fixed positions, W: the free strains' rates (at ``t_rates``, the left limit
        at a breakpoint, if given) against the elastic strains,
        ``-sum L (EA eps_el eps0' + EI (kappa_mean - kappa0) kappa0')`` (zero without free strains)."""
        free = self.sys.free_strains
        if not free.active:
            return 0.0
        beams, secs = self.sys.beams, self.asm.secs
        self.asm.set_time(st.t)
        d = deformations(st.q, self.sys.elem_dofs, secs)
        eps_el = d[:, 3] / beams.L - secs[:, EPS0] if self.sys.formulation == "thesis" else d[:, 6] / beams.EA
        kappa_el = (d[:, 5] - d[:, 4]) / beams.L - secs[:, KAPPA0]  # mean elastic curvature
        rate0, rate_kappa = free.at(st.t if t_rates is None else t_rates, beams.count, rate=True)
        return -float(np.sum(beams.L * (beams.EA * eps_el * rate0 + beams.EI * kappa_el * rate_kappa)))

    def energy_terms(self, st: State) -> tuple[float, float, float, float]:
        """Kinetic, strain, gravitational potential and contact energy, J."""
        if self.state_terms is not None:
            return self._remembered(st, "terms", lambda: self.state_terms(st))[0]
        return self._remembered(st, "energy", lambda: (*self._mechanical(st), self.contact_energy(st)))

    def _mechanical(self, st: State) -> tuple[float, float, float]:
        """Kinetic, strain and gravitational potential energy at ``st``, J, the last two remembered
        by its configuration: its ``q`` (the same array) and time."""
        for q, t, value in self._configurations:
            if q is st.q and t == st.t:
                return self.asm.kinetic_energy(st.q, st.v), *value
        kinetic, *value = self.asm.energies(st.q, st.v, st.t)
        self._configurations = [(st.q, st.t, tuple(value)), *self._configurations[:MEMO - 1]]
        return kinetic, *value

    def remember_energy(self, st: State, terms: tuple[float, float, float]) -> None:
        """Take ``terms`` (kinetic, strain and potential energy of ``st``, J: of :meth:`energy_terms`)
        with the contact energy of ``st`` as its :meth:`energy_terms`."""
        self._memo = [(st, "energy", (*terms, self.contact_energy(st))), *self._memo[:MEMO - 1]]

    def others_work(self) -> bool:
        """Whether loads, drivers, free strains or moving supports may work on the system."""
        s = self.sys
        return bool(s.loads or s.movers or s.drivers or s.free_strains.active)

    def spurious_candidates(self, start: State, terms: tuple[list[float], ...],
                            ratio: float = SPURIOUS_RATIO) -> np.ndarray:
        """The steps of a run from ``start`` (``terms``: the kinetic, strain and potential energy of their
        end states, J) that :meth:`spurious_growth` may flag: every one where loads, drivers, free strains or
        moving supports work; else those whose kinetic, strain and potential energy grew by more
        than ``ratio`` of the two ends' together, which a flagged step does when the contacts store
        no energy (the runs of open and closed Lagrange steps, :mod:`solver.integration.open_steps`)."""
        if self.others_work():
            return np.arange(len(terms[0]))
        energy = np.sum(np.array(terms), axis=0)
        before = np.concatenate([[sum(self.energy_terms(start)[:3])], energy[:-1]])
        return np.flatnonzero(energy - before > ratio * (np.abs(energy) + np.abs(before)))

    def spurious_growth(self, old: State, new: State, ratio: float = SPURIOUS_RATIO) -> bool:
        """Whether the mechanical energy grew over a step by more than ``ratio`` of the energies
        in play, beyond the work of loads, drivers and free strains: the mark of a spurious root of the
        Newmark equations (after an impulse the velocity-dependent inertia can offer one far
        from the start).  The energies in play are at least :data:`SPURIOUS_FLOOR` of the largest
        at a step's start so far: a model come to rest (a body stopped on a line without gravity,
        its energy 1e-23 J of round-off) does not make round-off a spurious root."""
        work = 0.0  # of the loads, the drivers, the free strains and the moving rows: none where none works
        if self.others_work():  # (not the friction power, which powers() finds too: a geometry per pair in Python)
            p0, p1 = self.powers(old), self.powers(new)
            work = 0.5 * (new.t - old.t) * sum(p0[i] + p1[i] for i in (0, 1, 5, 6))
        e0, e1 = self.energy_terms(old), self.energy_terms(new)
        self._largest_start = max(self._largest_start, sum(abs(x) for x in e0))
        scale = max(sum(abs(x) for x in e0 + e1) + abs(work), SPURIOUS_FLOOR * self._largest_start)
        return sum(e1) - sum(e0) - work > ratio * max(scale, 1e-30)

    def advance_ledger(self, st: State, h: float, t_loads: float | None = None) -> None:
        """Trapezoidal integration of the powers over the step just taken; the work of Rayleigh
        damping and of modal links' modal damping at the step's mean motion, ``h v_m^T C v_m`` (the
        work of the trapezoidal rule's damping forces, eq. 2.50 with tau = 1/2, for a constant
        ``C``): the powers at the ends book ``h (v_1 - v_0)^T C (v_1 - v_0) / 4`` more, the damping
        of a mode that alternates from step to step which the scheme never takes (the heated
        bimetal strip booked 1.9e-7 J of it, 0.13 of its energy in play, issue 26)."""
        start, damped = self._last_motion, self.ledger["dissipated_damping"]
        self._book_powers(self.powers(st, t_loads), h)
        if start is not None and self._damped:
            q_m, v_m = 0.5 * (start[0] + st.q), 0.5 * (start[1] + st.v)
            self.ledger["dissipated_damping"] = damped + h * self.asm.damping_power(q_m, v_m)
        self._last_motion = (st.q, st.v)

    def advance_ledger_drivers(self, steps: list[float], powers: np.ndarray, end: State,
                               p_fric: np.ndarray | None = None) -> list[float]:
        """:meth:`advance_ledger` over steps whose only powers are the drivers' and the modal
        damping's (``powers`` (steps, 2), W: the drivers' at each step's end, the damping's at its
        mean motion, :func:`~solver.fem.modal.modal_damping_power`) and contact friction's
        (``p_fric``, W, at each step's end, if given): no loads, Rayleigh damping, compliant
        contacts or free strains (a run of free steps, :mod:`solver.integration.free_steps`, or of
        closed Lagrange steps, :mod:`solver.integration.closed_steps`, that ends at ``end``); the
        other terms stay as they are.  Returns the drivers' work after each step, J."""
        works, p0 = self._integrated("work_drivers", 1, steps, powers[:, 0])
        damped = self.damping_work(steps, powers[:, 1])
        if damped:
            self.ledger["dissipated_damping"] = damped[-1]
        friction = 0.0
        if p_fric is not None:
            friction = self._integrated("dissipated_friction", 3, steps, p_fric)[1]
        if p0 is not None:
            self._last_powers = (0.0, p0, 0.0, friction, 0.0, 0.0, 0.0)
        self._last_motion = (end.q, end.v)
        return works

    def damping_work(self, steps: list[float], powers: np.ndarray) -> list[float]:
        """The damping dissipated of the ledger (J) after each of ``steps`` (s) with the modal damping's
        ``powers`` at their mean motion (W), as :meth:`advance_ledger_drivers` would book it (step by
        step, as :meth:`advance_ledger` books it), not booked."""
        damped, works = self.ledger["dissipated_damping"], []
        for h, p_damp in zip(steps, powers.tolist()):
            damped += h * p_damp
            works.append(damped)
        return works

    def drivers_work(self, steps: list[float], powers: np.ndarray) -> list[float]:
        """The drivers' work of the ledger (J) after each of ``steps`` (s) with the drivers' ``powers``
        at their ends (W), as :meth:`advance_ledger_drivers` would book it, not booked."""
        return self._integrated("work_drivers", 1, steps, powers, book=False)[0]

    def _integrated(self, key: str, slot: int, steps: list[float],
                    powers: np.ndarray, book: bool = True) -> tuple[list[float], float | None]:
        """The ledger's ``key`` advanced by the trapezoidal rule over ``steps`` with the ``powers``
        at their ends (W; the last step's powers' ``slot`` before them): its values after each step
        (J) and the last power; with ``book``, the last value booked."""
        work = self.ledger[key]
        works = []
        p0 = None if self._last_powers is None else self._last_powers[slot]
        for h, p1 in zip(steps, powers.tolist()):
            if p0 is not None:
                work += 0.5 * h * (p0 + p1)
            p0 = p1
            works.append(work)
        if book:
            self.ledger[key] = work
        return works, p0

    @property
    def driver_rows_dofs(self) -> tuple[np.ndarray, np.ndarray]:
        """The drivers' multiplier rows and dofs: their power is ``-sum lam[rows] v[dofs]``."""
        return self._driver_rows, self._driver_dofs

    def _book_powers(self, p: tuple[float, ...], h: float) -> None:
        if self._last_powers is not None:
            for key, p0, p1 in zip(("work_loads", "work_drivers", "dissipated_damping", "dissipated_friction",
                                    "dissipated_contact", "work_free_strains", "work_moving"), self._last_powers, p):
                if key in self.ledger:
                    self.ledger[key] += 0.5 * h * (p0 + p1)
        self._last_powers = p

    def book_impulses(self, impacts, after: State) -> None:
        """Impulses at contacts: friction and the normal impulse do the work of the kinetic
        energy jump (Routh's W_t and W_n), and the friction of the sliding pairs held during it
        (W_held); the joints' impulse before a Lagrange onset (W_joints) and the held rows' impulses on
        the velocities they hold (W_held_rows) go with the restitution, the drivers' impulses (W_drivers) with
        the drivers' work; the next step starts from the powers after it (also after a change of contact mode
        without impulses)."""
        for r in impacts:
            self.ledger["dissipated_friction"] -= r.W_t + r.W_held
            self.ledger["dissipated_restitution"] -= r.W_n + r.W_joints + r.W_held_rows
            self.ledger["work_drivers"] += r.W_drivers
        self._last_powers, self._last_motion = self.powers(after), (after.q, after.v)

    def restart_ledger(self, before: State, after: State) -> None:
        """After a restart at a breakpoint: a jump of a prescribed velocity is an impulse of
        the driver, whose work is the jump of kinetic energy (positions do not move); the
        next step starts from the powers after the jump."""
        self.ledger["work_drivers"] += self.asm.kinetic_energy(after.q, after.v) - self.asm.kinetic_energy(before.q, before.v)
        self._last_powers, self._last_motion = self.powers(after), (after.q, after.v)

    # ------------------------------------------------------------------ frames
    def frame(self, st: State) -> Frame:
        if self._last_powers is None:
            self._last_powers, self._last_motion = self.powers(st), (st.q, st.v)
        self.asm.set_time(st.t)
        energy = dict(zip(ENERGY_TERMS, self.energy_terms(st)))
        energy.update(self.ledger)
        m = self.modal.frame_parts(st.q, st.v, st.a)
        columns = self._columns(st.q[None], st.v[None], st.a[None], st.lam[None], {k: v[None] for k, v in m.items()})
        return Frame(time=st.t, energy=energy, **{key: values[0] for key, values in columns.items()})

    def energy_keys(self) -> tuple[str, ...]:
        """The keys of a frame's energy terms: :data:`ENERGY_TERMS`, then the ledger's."""
        return (*ENERGY_TERMS, *self.ledger)

    def energy_row(self, st: State) -> tuple[float, ...]:
        """The values of :meth:`energy_keys` at ``st`` (the terms :meth:`frame` gives it), J."""
        if self._last_powers is None:
            self._last_powers = self.powers(st)
        return (*self.energy_terms(st), *self.ledger.values())

    def frame_block(self, times: np.ndarray, states: tuple[np.ndarray, ...], work_drivers: list[float]) -> FrameBlock:
        """The frames of states ``(q, v, a, lam)`` (rows: one state each) at ``times``, s, of a run
        of free steps (:mod:`solver.integration.free_steps`: no contacts, loads, free strains or
        modal links), the drivers' work of the ledger ``work_drivers``, J, at each: the frames
        :meth:`frame` gives, to the last bit, as columns."""
        Q, V = (np.ascontiguousarray(x) for x in states[:2])
        kinetic, strain, potential = self.asm.stacked_energies(Q, V)
        ledger = dict(zip(ENERGY_TERMS, (0.0,) * len(ENERGY_TERMS)), **self.ledger)
        energies = [{**ledger, "kinetic": k, "strain": u, "potential": p, "work_drivers": w}  # the terms that change
                    for k, u, p, w in zip(kinetic.tolist(), strain.tolist(), potential.tolist(), work_drivers)]
        return self.states_block(times, states, energies)

    def states_block(self, times: np.ndarray, states: tuple[np.ndarray, ...], energies: list[dict[str, float]],
                     contact: ContactBlock | None = None) -> FrameBlock:
        """The frames of states ``(q, v, a, lam)`` (rows: one state each) at ``times``, s, with
        their ``energies``, J, and ``contact`` columns, of a run without modal links, moving
        supports or free strains: the arrays :meth:`frame` gives each, to the last bit, as columns."""
        Q, V, A, LAM = (np.ascontiguousarray(x) for x in states)
        m = self.modal.frame_parts(Q[0], V[0], A[0])  # no modal links: empty
        columns = self._columns(Q, V, A, LAM, {k: np.broadcast_to(v, (len(Q), *v.shape)) for k, v in m.items()})
        columns.update(moving_s=np.zeros((len(Q), 0)), moving_speed=np.zeros((len(Q), 0)),
                       moving_force=np.zeros((len(Q), 0, 2)))  # no moving supports (a Frame's defaults)
        return FrameBlock(np.asarray(times, dtype=float), columns, energies, contact)

    def _columns(self, Q: np.ndarray, V: np.ndarray, A: np.ndarray, LAM: np.ndarray, m: dict) -> dict[str, np.ndarray]:
        """The frame arrays of states ``Q, V, A, LAM`` (K, ...) with the modal parts ``m`` (K, ...),
        each (K, *its frame shape)."""
        s = self.sys
        axial_N, axial_eps, bend_eps, bend_M, midspan = self._element_outputs(Q)
        drivers = {
            "driver_angle": Q[:, self._driver_dofs] - s.constraints.dm_base[self._driver_rows],
            "driver_speed": V[:, self._driver_dofs],
            "driver_reaction": -LAM[:, self._driver_rows],
        }
        nd = s.node_dofs
        bulky = {
            "node_xy": (Q[:, nd], m["node_xy"]), "node_v": (V[:, nd], m["node_v"]), "node_a": (A[:, nd], m["node_a"]),
            "rot": (Q[:, s.rot_dofs], m["rot"]), "rot_v": (V[:, s.rot_dofs], m["rot_v"]),
            "rot_a": (A[:, s.rot_dofs], m["rot_a"]),
            "axial_force": (axial_N, m["axial_force"]), "axial_strain": (axial_eps, m["axial_strain"]),
            "bending_strain": (bend_eps, m["bending_strain"]), "bending_moment": (bend_M, m["bending_moment"]),
            **{key: (m[key],) for key in MODAL_FIELDS},
        }  # fmt: skip
        K = len(Q)
        arrays = {key: _joined(parts).astype(self.dtype, copy=False) for key, parts in bulky.items()
                  if self.rates or key not in RATE_FIELDS}
        if not self.rates:
            arrays.update(node_v=np.zeros((K, 0, 2), self.dtype), node_a=np.zeros((K, 0, 2), self.dtype),
                          rot_v=np.zeros((K, 0), self.dtype), rot_a=np.zeros((K, 0), self.dtype))
        midspan = np.concatenate([midspan, m["midspan"]], axis=1)
        chosen = self.selection
        if not chosen.everything:
            arrays.update({key: arrays[key][:, chosen.elements] for key in ELEMENT_FIELDS})
            arrays.update({key: arrays[key][:, chosen.modes] for key in MODAL_FIELDS})
            midspan = midspan[:, chosen.links]
        return {"midspan": midspan, **drivers, **arrays}

    def _element_outputs(self, Q: np.ndarray):
        """Axial force and strain, bending strain and moment (K, E, S) and the mid-span
        deflections (K, links) of the states of ``Q`` (K, dofs)."""
        s = self.sys
        beams = s.beams
        K, E, S = len(Q), beams.count, len(self.xi)
        if E == 0:
            z = np.zeros((K, 0, S))
            return z, z, z, z, np.zeros((K, 0))
        secs = self.asm.secs
        d = stacked_deformations(Q, s.elem_dofs, secs)
        c, sn, u, tb1, tb2 = d[..., 0], d[..., 1], d[..., 3], d[..., 4], d[..., 5]
        if s.formulation == "thesis":
            eps = u / beams.L - secs[:, EPS0]  # (A.17)
            N = beams.EA * eps
        else:
            N = d[..., 6]
            eps = N / beams.EA
        xi, phi, L = self.xi[None, None, :], beams.shear[None, :, None], beams.L[None, :, None]
        kappa = curvature.py_func(xi, phi, L, tb1[..., None], tb2[..., None]) - secs[None, :, KAPPA0, None]
        axial_N = np.repeat(N[..., None], S, axis=2)
        axial_eps = np.repeat(eps[..., None], S, axis=2)
        bend_M = beams.EI[None, :, None] * kappa
        bend_eps = -s.elem_fibre[None, :, None] * kappa
        mid = np.empty((K, len(s.flex_links)))
        for i, (link, (e, x)) in enumerate(zip(s.flex_links, self._midspan)):
            L = beams.L[e]
            N3, N6, _P3, _P6 = shapes.py_func(x, beams.shear[e], L)
            v_loc = N3 * tb1[:, e] + N6 * tb2[:, e]  # (A.9), or the IIE's
            qe = Q[:, s.elem_dofs[e]]
            p = qe[:, :2] + x * (qe[:, 3:5] - qe[:, :2]) + v_loc[:, None] * np.stack([-sn[:, e], c[:, e]], axis=1)
            first = Q[:, s.elem_dofs[link.elements[0], :2]]
            chord = Q[:, s.elem_dofs[link.elements[-1], 3:5]] - first
            normal = np.stack([-chord[:, 1], chord[:, 0]], axis=1) / np.sqrt(np.vecdot(chord, chord))[:, None]
            mid[:, i] = np.vecdot(p - first, normal) / link.length  # vecdot: np.dot's arithmetic, row by row
        return axial_N, axial_eps, bend_eps, bend_M, mid


def _joined(parts: tuple[np.ndarray, ...]) -> np.ndarray:
    """``parts`` (K, ...) joined along their second axis: the first itself when the others are
    empty (the modal parts of a run without modal links; the first is an array of its own)."""
    if len(parts) == 2 and parts[1].shape[1] == 0:
        return parts[0]
    return np.concatenate(parts, axis=1)
