"""The contact models of a run, speaking to the time loop for all of them (thesis §3.1-3.2, §4.8).

:class:`ContactTracker` builds one :class:`~solver.contact.base.ContactModel` per model
kind used by the run's pairs (and one for the rows of moving supports and masses,
:mod:`.moving`) and, for the time loop:

* sizes the step: the impact step (eq. 3.5) while any pair is in contact;
* gathers the contact rows of the next step (:class:`~solver.system.bordered.ContactRows`)
  and lays the state's contact multipliers out among the models;
* asks for the time a tentative step must end at instead (the predictor, eq. 3.4, and the
  models' own switching times);
* after an accepted step, applies the models' mode switches and velocity jumps, books
  their works in the energy ledger, and makes accelerations and multipliers consistent
  with the rows now in force (:func:`solver.system.initial.restart`);
* writes the contact columns of the output frames and the friction power of the ledger.
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..results.frames import CONTACT_KEYS
from ..results.outputs import OutputBuilder
from ..system.assembly import Assembly
from ..system.bordered import ContactRows
from ..system.initial import restart
from ..system.state import State
from ..system.state_energies import strain_total
from ..system.impact_times import run_impact_step
from .base import ContactModel
from .compliant import CompliantModel
from .impulse import ImpulseModel
from .jump import Held
from .lagrange import LagrangeModel
from .moving import MovingModel, mover_outputs
from .rolling import RollingModel
from .state_terms import mechanical_args

#: further contact columns of the frames (after CONTACT_KEYS): the impulses of the last
#: impact step over that step (the momentum-balance model's per-step impulse rate), N
RATE_KEYS = ("F_n_impulse_rate_N", "F_t_impulse_rate_N")

#: the contact model classes by ``model.kind``
MODELS: dict[str, type[ContactModel]] = {"impulse": ImpulseModel, "lagrange": LagrangeModel,
                                         "compliant": CompliantModel, "rolling": RollingModel}

#: times the rows may be made consistent again after a restart contradicted a mode
MAX_CHECKS = 4


class ContactTracker:
    """The contact pairs of a run, their models and the event log."""

    def __init__(self, asm: Assembly, settings: dict):
        self.asm = asm
        self.pairs = asm.sys.contacts
        self.events: list[dict] = []
        self.impact_step = run_impact_step(asm.sys)
        self.models: list[ContactModel] = []
        for kind in dict.fromkeys(p.model["kind"] for p in self.pairs):
            mine = [(k, p) for k, p in enumerate(self.pairs) if p.model["kind"] == kind]
            model = MODELS[kind]
            self.models.append(model(asm, mine, settings, self.events, self.impact_step))
        if any(m.rows for m in asm.sys.movers):  # the rows of moving supports and masses
            self.models.append(MovingModel(asm, settings, self.events))
        self._layout: list[slice] = self._slices()
        self._frame_layout()
        #: the model of contact forces the Newton iteration evaluates (None: no compliant pair)
        self.forces: CompliantModel | None = next((m for m in self.models if isinstance(m, CompliantModel)), None)
        if self.forces is not None:
            asm.contact_forces = self.forces.generalized_forces

    @property
    def active(self) -> bool:
        return bool(self.models)

    def closed(self) -> bool:
        return any(m.closed() for m in self.models)

    @property
    def jumps(self) -> bool:
        """Whether velocities may jump (impulses, Lagrange onsets): the loop then watches for
        spurious roots."""
        return any(m.impact_steps for m in self.models)

    def step_size(self, h: float) -> float:
        """The impact step while a pair of a model that uses it is in contact (eq. 3.5), and
        what the models allow; else ``h``."""
        if any(m.impact_steps and m.closed() for m in self.models):
            h = min(h, self.impact_step)
        for m in self.models:
            h = m.step_size(h)
        return h

    def damp(self, tau: float) -> None:
        """Numerical damping ``tau`` from the next step on, in every model (:meth:`ContactModel.damp`)."""
        for m in self.models:
            m.damp(tau)

    def step_tau(self) -> float | None:
        """The Newmark ``tau`` of the next step where a model asks for another than the run's (the
        first step after a Lagrange onset on flexible elements), the largest asked; else None."""
        taus = [t for t in (m.step_tau() for m in self.models) if t is not None]
        return max(taus) if taus else None

    def begin_step(self, s: State, h: float) -> None:
        """Prepare the models for an attempt at a step of size ``h`` from ``s``, the multipliers laid out
        for their modes then (a handed attempt, :func:`~solver.integration.attempts.advance`, needs no rows)."""
        for m in self.models:
            m.begin_step(s, h)
        self._layout = self._slices()

    # ------------------------------------------------------------------ rows
    def _slices(self) -> list[slice]:
        out, start = [], 0
        for m in self.models:
            out.append(slice(start, start + m.row_count()))
            start += m.row_count()
        return out

    def rows(self, s: State) -> ContactRows | None:
        """The contact rows of a step from ``s`` in the models' present modes (None when no model
        adds any); the state's contact multipliers are laid out the same way."""
        self._layout = self._slices()
        total = self._layout[-1].stop if self._layout else 0
        if not total:
            return None
        rows = ContactRows.build(total)
        for m, sl in zip(self.models, self._layout):
            m.fill_rows(s, rows, sl.start)
        if s.lam_c.shape[0] == total:
            rows.lam[:] = s.lam_c
        curved = [(m, sl.start) for m, sl in zip(self.models, self._layout) if sl.stop > sl.start]

        def refresh(q: np.ndarray, v: np.ndarray) -> bool:
            return any([m.refresh(q, v, rows, start) for m, start in curved])

        rows.refresh = refresh
        rows.holders = tuple(m.kind for m, sl in zip(self.models, self._layout) for _ in range(sl.start, sl.stop))
        return rows

    def _lam(self, s: State, i: int) -> np.ndarray:
        lam = s.lam_c[self._layout[i]]
        return lam if lam.shape[0] == self._layout[i].stop - self._layout[i].start else np.zeros(0)

    # ------------------------------------------------------------------ the step
    def event_time(self, old: State, new: State) -> float | None:
        """The earliest time within ``old -> new`` at which a model wants the step to end."""
        times = [m.event_time(old, new, self._lam(old, i), self._lam(new, i)) for i, m in enumerate(self.models)]
        times = [t for t in times if t is not None]
        return min(times) if times else None

    def forecast(self, s: State, h: float) -> float | None:
        """The earliest time within a step of ``h`` from ``s`` at which a model expects it to
        have to end (the predictor on the step's expansion), or None."""
        times = [t for t in (m.forecast(s, h) for m in self.models) if t is not None]
        return min(times) if times else None

    def short_of_contact(self, s: State) -> bool:
        """Whether a pair in contact is apart beyond TOL at ``s`` (a step cut by the forecast that
        ended before the contact it expected)."""
        return any(m.short_of_contact(s) for m in self.models)

    def after_step(self, old: State | None, new: State, out: OutputBuilder) -> State:
        """Mode switches and velocity jumps at the end of an accepted step, booked in the
        ledger; the state restarted consistently with the rows then in force."""
        changed = False
        for i, m in enumerate(self.models):
            m.note_behind(new, old is None)
            if old is not None:
                m.step_ended(self._lam(old, i), self._lam(new, i))
            changed |= m.switch(old, new, self._lam(new, i))
            out.ledger["dissipated_contact"] += m.take_dissipation()
        s, impacts, held = new, [], Held(self.rows, self.settle)
        for m in self.models:
            m.last_step = new.t - old.t if old is not None else m.rate_window
            s, res = m.jumps(s, held)
            impacts += res
        for m in self.models:  # after all jumps: one model's impulse may stop another's slips
            out.ledger["dissipated_friction"] += m.take_friction()
        if not (changed or impacts):
            return s
        for _ in range(MAX_CHECKS):
            s = restart(self.asm, s, self.rows(s), jump=False)
            if not any([m.check(s, self._lam(s, i)) for i, m in enumerate(self.models)]):
                break
        else:  # the last switches take effect without a further check
            s = restart(self.asm, s, self.rows(s), jump=False)
        out.book_impulses(impacts, s)
        return s

    def settle(self, s: State, v: np.ndarray, lam: np.ndarray) -> State | None:
        """For an impulse from ``s`` to the velocities ``v`` (m/s) with the impulses ``lam`` (N s) of the rows of
        :meth:`rows` at ``s``: ``s`` with the pairs released that it would pull (:meth:`~.lagrange.LagrangeModel.
        release_pulled`), else with the slips stopped of the pairs it would turn, each now sticking
        (``stick_turned``, ``stop_slips``, friction's work taken by ``take_friction``); None when neither."""
        if lam.size and any([m.release_pulled(s, lam[sl]) for m, sl in zip(self.models, self._layout)]):
            return s
        if not any([m.stick_turned(s, v) for m in self.models]):
            return None
        for m in self.models:
            s = m.stop_slips(s, self.rows)
        return s

    # ------------------------------------------------------------------ outputs
    def contact_power(self, s: State) -> tuple[float, float, float]:
        """Power dissipated by friction (sliding Lagrange pairs, compliant pairs) and by the
        damping of compliant laws, and the power of the reactions of time-variant rows (moving
        supports and masses) at ``s``, W."""
        return (sum(m.friction_power(s, self._lam(s, i)) for i, m in enumerate(self.models)),
                sum(m.damping_power(s) for m in self.models),
                sum(m.reaction_power(s, self._lam(s, i)) for i, m in enumerate(self.models)))

    def state_terms(self) -> Callable[[State], tuple[tuple[float, ...], tuple[float, ...]]] | None:
        """The energies (:meth:`OutputBuilder.energy_terms`, J) and powers (:meth:`OutputBuilder.powers`,
        W) of a state in one compiled pass (:mod:`.state_terms`), the same numbers, for a run whose only
        contacts are compliant pairs all served compiled, without loads, moving supports, Rayleigh
        damping, modal links or free strains; else None."""
        s, model = self.asm.sys, self.forces
        if (self.models != [model] or model.kernel_args() is None or s.loads or s.movers or s.alpha > 0.0
                or s.beta > 0.0 or s.modal.links or s.free_strains.active):
            return None
        mechanical = mechanical_args(self.asm)
        strains = mechanical[-1]

        def terms(st: State) -> tuple[tuple[float, ...], tuple[float, ...]]:
            kinetic, potential, p_drivers, p_friction, p_contact, elastic = model.state_terms(st, mechanical)
            # the sums of energy_terms, powers, contact_power and elastic_energy over the one model
            return ((kinetic, strain_total(strains) + 0.0 if len(strains) else 0.0, potential, 0.0 + elastic),
                    (0.0, p_drivers, 0.0, 0 + p_friction, 0 + p_contact, 0.0, 0 + 0.0))
        return terms

    def elastic_energy(self, s: State) -> float:
        """Energy stored in compliant contacts at ``s``, J."""
        return sum((m.elastic_energy(s) for m in self.models), 0.0)

    def summary(self) -> dict[str, dict]:
        """The run's metadata of the contact models (per compliant pair: impacts, peaks, the
        laws' validity counts)."""
        compliant = {k: v for m in self.models for k, v in m.summary().items()}
        return {"compliant_contacts": compliant} if compliant else {}

    def moving_outputs(self, s: State) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Arc length (m), speed along the link (m/s) and force on the link ``(F_n, F_t)`` (N) of
        every moving support, mass and force at ``s`` (:func:`solver.contact.moving.mover_outputs`)."""
        for i, m in enumerate(self.models):
            if isinstance(m, MovingModel):
                return m.outputs(s, self._lam(s, i))
        return mover_outputs(self.asm.sys.movers, s.q, s.v, s.t, {})

    def _frame_layout(self) -> None:
        """The contact columns' keys (:data:`CONTACT_KEYS`, :data:`RATE_KEYS`, the models' further
        keys), the row a frame's values are written into (keys, C) and its blank: 0, nan in the
        columns of one model (for the others' pairs)."""
        further = dict.fromkeys(k for m in self.models for k in m.frame_keys)
        self.frame_keys = tuple(dict.fromkeys((*CONTACT_KEYS, *RATE_KEYS, *further)))
        self._blank = np.zeros((len(self.frame_keys), len(self.pairs)))
        for j, key in enumerate(self.frame_keys):
            if key in further:
                self._blank[j] = math.nan
        self._row = self._blank.copy()
        self._views = {key: self._row[j] for j, key in enumerate(self.frame_keys)}
        #: ``(model, j, k)`` of the pairs whose gap and contact velocities the tracker fills
        self._unfilled = [(m, j, k) for m in self.models if not m.fills_kinematics for j, k in enumerate(m.index)]

    def frame_row(self, s: State) -> np.ndarray:
        """Per pair: gap, contact velocities, forces, state, impulses since the last frame,
        the per-step impulse rates (:data:`RATE_KEYS`) and the models' further columns
        (:attr:`frame_keys`), as rows (keys, C) of floats (``state``'s codes too): an array the
        next call overwrites."""
        out = self._views
        self._row[:] = self._blank
        for m, j, k in self._unfilled:
            g = m.pair_geometry(j, s.q)  # remembered from the step's switches and jumps at this state
            out["gap_m"][k] = g.gap if g.reachable else math.nan
            out["v_n_m_s"][k], out["v_t_m_s"][k] = g.velocity(s.v)
        for i, m in enumerate(self.models):
            m.frame_data(s, self._lam(s, i), out)
        return self._row

    def frame_data(self, s: State) -> dict[str, np.ndarray]:
        """:meth:`frame_row` as a frame holds it: a (C,) array per key, ``state`` as ints."""
        row = self.frame_row(s)
        out = {key: row[j].copy() for j, key in enumerate(self.frame_keys)}
        out["state"] = out["state"].astype(int)
        return out
