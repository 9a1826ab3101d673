"""The compliant pairs of a run whose closed steps :func:`.compliant_steps.compliant_steps` may take
(and the steps in which an open pair is live, its contact starts and separations:
:mod:`.circle_events`; not a Kelvin-Voigt pair's loading steps): which runs it serves, when, and a run of its steps
with everything the time loop keeps in Python (the contact model's history and events, the ledger,
the guard, the watch, the stall window, the integrator's factors) taken to it and back
(:meth:`ClosedCircles.run`)."""
from __future__ import annotations

import numpy as np

from ..contact.step_criteria import ORDER
from ..contact.state_terms import mechanical_args
from ..contact.tracker import RATE_KEYS, ContactTracker
from ..results.frame_block import BLOCK_FRAMES, FrameBlock
from ..results.frames import CONTACT_KEYS, StepRecord
from ..results.gathered_frames import GatheredFrames, block_of_rows
from ..results.outputs import SPURIOUS_FLOOR, OutputBuilder
from ..system.state import State
from . import compliant_steps as cs
from .circle_events import START
from .compiled_runs import FREE_RUN_WORK
from .divergence import DAMPING_ONSET, MAX_EXTENT, DivergenceWatch
from .newmark import NewmarkIntegrator
from .step_limits import MAX_SMALL_STEPS, StepLimits

#: a closed compliant step's work per dof, in units of :data:`~.compiled_runs.FREE_RUN_WORK`'s (a
#: factorisation at nearly every step, the forces at every iterate, the guard, the criteria, the
#: bookkeeping): a run takes at most FREE_RUN_WORK // (STEP_WORK n) steps, 682 of the rigid
#: clearance slider-crank's (n = 3) at 30-50 µs each, so that the loop checks for a cancel every 20-35 ms
STEP_WORK = 16
#: the contact columns the compiled run writes (:func:`.compliant_steps.frame_rows`), in its order
FRAME_KEYS = (*CONTACT_KEYS, *RATE_KEYS, "penetration_m", "eccentricity_m", "impacts")
#: rows of a run's contact starts and separations (:mod:`.circle_events`): a run ends before a step
#: that might find no row left
EVENT_ROWS = 64


def slopes(forces) -> tuple[float, float]:
    """∂F/∂δ (N/m) and ∂F/∂δ̇ (N s/m) of a pair's normal force
    (:class:`~solver.contact.pair_forces.PairForces` ``forces``), 0 where it is open."""
    normal = forces.normal
    return (0.0, 0.0) if normal is None else (normal.dF_ddelta, normal.dF_ddelta_dot)


class ClosedCircles:
    """A run's dry circle pairs (every contact of the run) and the loop's parts the compiled run of
    their closed steps reads and writes."""

    def __init__(self, contacts: ContactTracker, integ: NewmarkIntegrator, out: OutputBuilder, limits: StepLimits,
                 watch: DivergenceWatch, retries: int):
        self.model, self.integ, self.out, self.limits, self.watch = contacts.forces, integ, out, limits, watch
        m, asm = self.model, integ.asm
        self.retries = retries
        cons = asm.sys.constraints
        codes = [0 if f is None else 1 if integrate else 2 for f, integrate in zip(cons.functions, cons.integrate)]
        values = [0.0 if f is None else f.spec["value"] for f in cons.functions]
        self.motion = (np.array(codes, dtype=np.int64), np.array(values, dtype=float), cons.dm_base, asm.sys.gravity)
        self.mechanical = mechanical_args(asm)
        self.positions = watch.position_dofs.astype(np.int64)
        band, cons = asm.band, asm.sys.constraints
        self.inertia = (asm._band_pos, np.empty((band.ldab, band.size), order="F"), np.empty(band.size, dtype=np.int64),
                        cons.target(0.0), np.empty(cons.count), np.empty(cons.rows.size), np.empty(cons.count),
                        asm.extra_size)
        self.free = 0  # steps of the last run taken with every pair open
        self.props = np.zeros((len(m.pairs), 6))
        for k, (pair, law) in enumerate(zip(m.pairs, m.laws)):
            self.props[k, 0] = pair.model.get("friction_velocity", np.inf) if law.friction is not None else np.inf
            if law.line_contact is not None:
                self.props[k, 1:] = (1.0, *law.line_contact)

    @staticmethod
    def serves(contacts: ContactTracker, integ: NewmarkIntegrator, out: OutputBuilder) -> bool:
        """Whether a run may take its closed steps compiled: its contacts all dry circle pairs served compiled
        with their energies in one pass (:meth:`ContactTracker.state_terms`: no loads, moving
        supports, Rayleigh damping, modal links or free strains), fewer beam elements than
        :data:`.compliant_steps.SEQUENTIAL_SUM`, drivers of constant
        speed, no follower loads, modified Newton, the frames' contact columns those of :data:`FRAME_KEYS`."""
        s = integ.asm.sys
        return (out.state_terms is not None and contacts.forces is not None and not integ.asm.follower_loads
                and integ.modified and integ.step_reuse == 0.0 and s.beams.count < cs.SEQUENTIAL_SUM
                and not s.modal.links
                and contacts.frame_keys == FRAME_KEYS
                and all(f is None or f.kind == "constant" for f in s.constraints.functions))

    def ready(self) -> bool:
        """Whether the next steps may be compiled: no closed pair a loading Kelvin-Voigt pair (its maximum
        compression is looked for), the ledger started."""
        m = self.model
        loading = np.array([law.normal == "kelvin_voigt" for law in m.laws]) & ~m.unloading & (m.state != 0)
        return not loading.any() and self.out._last_powers is not None

    def _scalars(self, loop) -> np.ndarray:
        """The run's scalars (:data:`.compliant_steps.T` …) from the loop's state."""
        m, integ, watch = self.model, self.integ, self.watch
        run = np.zeros(cs.SCALARS)
        breakpoint_ = loop.breakpoints[0] if loop.breakpoints else np.inf
        run[[cs.T, cs.H, cs.H0, cs.T_END, cs.EPS_T, cs.SHORTEST, cs.BREAKPOINT, cs.NEXT_OUT, cs.DT_OUT]] = (
            loop.state.t, loop.h, loop.h0, loop.t_end, loop.eps_t, self.limits.shortest, breakpoint_, loop.next_out,
            loop.dt_out)
        run[[cs.ACCURACY, cs.INCREMENT, cs.TOL, cs.H_ERROR, cs.LARGEST, cs.IN_PLAY, cs.BALANCE0, cs.WINDOW]] = (
            m.accuracy, m.increment, m.tol, m.h_error, self.out._largest_start, watch._in_play, watch._balance0,
            self.limits._window[0])
        run[[cs.LAST_STEP, cs.EXTENT, cs.UNDAMPED, cs.NU, cs.TAU, cs.ALPHA_M, cs.ALPHA_F, cs.CONTRACTION]] = (
            self.limits.last_step, MAX_EXTENT * watch.size, float(loop.undamped), integ.nu, integ.tau,
            integ.alpha_m, integ.alpha_f, integ.CONTRACTION)
        run[[cs.RETRIES, cs.MAX_WINDOW, cs.ONSET, cs.FLOOR, cs.ORDER, cs.MAX_CUTS]] = (
            self.retries, MAX_SMALL_STEPS, DAMPING_ONSET, SPURIOUS_FLOOR, ORDER, self.limits.max_cuts)
        return run

    def _factors(self) -> np.ndarray:
        """The integrator's factor state as the compiled run carries it (:data:`.compliant_steps.VALID_F` …):
        valid only for factors made with the contact forces following the iterates."""
        integ = self.integ
        integ.factor_state()  # the band storage allocated
        valid = integ._factor is not None and not integ._factor.singular and integ._factor_follower
        nan = np.nan
        return np.array([float(valid), nan if integ._factor_h is None else integ._factor_h, integ._scale,
                         nan if integ._scale_h is None else integ._scale_h, 0.0, 0.0])

    def _before(self, st: State) -> tuple:
        """The pairs' values, energies and powers at ``st`` as the loop holds them (the forces of the
        last accepted step, the guard's and the ledger's remembered terms)."""
        m = self.model
        forces = m._last or m._forces_at(st)
        pv = np.array([[f.delta, f.v_n, f.v_t, f.F_n, f.F_t, 1.0, f.geometry.gap, *slopes(f)] for f in forces])
        return pv, np.array(self.out.energy_terms(st), dtype=float), np.array(self.out.powers(st), dtype=float)

    def _records(self, loop, gathering: bool) -> tuple:
        """The run's rows (:func:`.compliant_steps.compliant_steps`' ``records``): a block of frames at most."""
        n, m, C = len(loop.state.q), len(loop.state.lam), len(self.model.pairs)
        budget = max(1, FREE_RUN_WORK // (STEP_WORK * n))
        rows = min(budget, BLOCK_FRAMES) if gathering else 0
        budget = rows if gathering else budget
        return (np.empty(budget), np.empty(budget), np.zeros(budget, dtype=np.int64), np.empty(rows),
                np.empty((rows, n)), np.empty((rows, n)), np.empty((rows, n)), np.empty((rows, m)),
                np.empty((rows, len(self.out.energy_keys()))), np.empty((rows, len(FRAME_KEYS), C)))

    def run(self, loop, gathered: GatheredFrames | None) -> tuple:
        """A run of closed steps from the loop's state (its frames' rows gathered with ``gathered``):
        ``(state, next step, steps taken, Newton corrections, block)`` with the loop's parts
        written back; ``block`` the frames of the steps taken (None without ``gathered``)."""
        m, out, integ, st = self.model, self.out, self.integ, loop.state
        run, fs, before = self._scalars(loop), self._factors(), self._before(st)
        self._valid = bool(fs[cs.VALID_F])
        state = tuple(x.copy() for x in (st.q, st.v, st.a, st.a_pseudo, st.lam))
        peaks = np.array([m.peak, m.peak_force, m.largest["penetration_m"], m.largest["force_N"]])
        report = np.array([m.report[key] for key in m.report], dtype=np.int64)
        pairs = (m._batch, m.state, m.delta_dot_0, m.trial_rate, m.unloading, peaks, report, m._acc, self.props,
                 m.impacts, m.scale, m.touched_at)
        contact = (*m._batch, m.live, np.empty(len(m.pairs)), m.unloading)  # live and rates: each attempt's
        system = integ.run_arguments()
        snapshot = (np.empty(6), np.empty_like(system[25]), np.empty_like(system[28]), *(np.empty_like(system[i])
                    for i in (18, 19, 20)), np.empty_like(system[-1]), np.empty(3))
        ledger, last_powers = np.array(list(out.ledger.values())), np.array(out._last_powers, dtype=float)
        records = self._records(loop, gathered is not None)
        events = np.empty((EVENT_ROWS, 7))
        work = tuple(np.empty_like(x) for x in state)
        taken, _verdict = cs.compliant_steps(run, fs, state, work, pairs, self.motion, contact, self.mechanical, system,
                                            np.zeros(integ.asm.extra_size), ledger, last_powers, before, self.positions,
                                            records, snapshot, self.inertia, events)
        self._write_back(run, fs, peaks, report, ledger, last_powers, records, taken)
        new = State(float(run[cs.T]), *state[:3], state[4], state[3]) if taken else st
        if taken:
            out._last_motion = (new.q, new.v)
            self._logged(events[:int(run[cs.EVENT_COUNT])], new)
        block = self._block(records, taken, gathered) if gathered is not None and taken else None
        return new, float(run[cs.H]), taken, int(records[2][:taken].sum()), block

    def _write_back(self, run, fs, peaks, report, ledger, last_powers, records, taken: int) -> None:
        """The run's results in the loop's parts (:meth:`run`)."""
        m, out, integ, limits = self.model, self.out, self.integ, self.limits
        m.peak[:], m.peak_force[:], m.largest["penetration_m"][:], m.largest["force_N"][:] = peaks
        for key, row in zip(m.report, report):
            m.report[key][:] = row
        m.h_error = float(run[cs.H_ERROR])
        out._largest_start = float(run[cs.LARGEST])
        self.watch._in_play = float(run[cs.IN_PLAY])
        integ.factorizations += int(fs[cs.FACTORIZATIONS])
        integ.evaluations += int(fs[cs.EVALUATIONS])
        if fs[cs.FACTORIZATIONS]:
            integ._scale = float(fs[cs.SCALE])
            integ._adopt_factors(float(fs[cs.FACTOR_H]), True, False)
        if not fs[cs.VALID_F] and (fs[cs.FACTORIZATIONS] or self._valid):  # (factors of open steps, made without
            integ._factor = None  # the contact forces, stay the loop's where the run made none)
        if taken:
            m._last = None  # the forces at the run's last state: computed again with the same history
            m.last_step = float(records[1][taken - 1])
            for key, value in zip(list(out.ledger), ledger.tolist()):
                out.ledger[key] = value
            out._last_powers = tuple(last_powers.tolist())
            limits._window = (int(run[cs.WINDOW]), limits._window[1])
            limits.last_step = float(run[cs.LAST_STEP])
        self.rejected = int(run[cs.REJECTED])
        self.free = int(run[cs.FREE])
        self.steps = [StepRecord(*row) for row in zip(records[0][:taken].tolist(), records[1][:taken].tolist(),
                                                      records[2][:taken].tolist())]

    def _logged(self, events: np.ndarray, new: State) -> None:
        """The run's contact starts and separations (:mod:`.circle_events`' rows) logged as the model logs its
        own; the forces at the run's last state as a contact start there saw them."""
        m, started = self.model, []
        for kind, k, t, a, b, c, d in events.tolist():
            if kind == START:
                m.log_start(int(k), t, a, b, int(d), c)
                if t == new.t:
                    started.append(int(k))
            else:
                m.log_separation(int(k), t, a, b, c, d)
        if started:
            m.seen_at_start(new, started)

    def _block(self, records, taken: int, gathered: GatheredFrames) -> FrameBlock:
        """The frames of the steps taken, as :class:`GatheredFrames` makes them."""
        t, Q, V, A, LAM, energy, contact = (x[:taken] for x in records[3:])
        if gathered.contact_row is None:
            contact = None
        elif gathered.chosen is not None:
            contact = contact[:, :, gathered.chosen]
        else:
            contact = contact.copy()
        return block_of_rows(self.out, t.copy(), (Q.copy(), V.copy(), A.copy(), LAM.copy()), energy.copy(),
                             gathered.contact_keys, contact)
