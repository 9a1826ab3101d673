"""Runs of compiled steps while every Lagrange-multiplier contact pair is open.

A model whose only contact pairs are Lagrange-multiplier pairs (thesis ch. 4) on a node or a
ground line steps, while all of them are open, exactly as a model without pairs: no contact
rows border its Newton matrix, no pair has a force, and the contact rules act at a step's end
only when a pair's gap closes -- the predictor (eq. 3.4) when a gap fell below ``-TOL``, the
onset jump (§4.7) when a point within ``TOL`` approaches.  :func:`open_steps` takes such steps
in one compiled call, one :func:`~.free_steps.free_steps` step at a time, and looks at every
pair's gap at each step's end (:func:`gaps_closing`, the gap of
:meth:`~solver.system.contact_pairs.ContactPair.geometry` operation for operation).  A step
that ends with a gap at or below ``2 TOL`` ends the run: its start is the run's last state and
the step itself is handed to the time loop as the first attempt of its next step
(:func:`~.attempts.advance`), which applies the contact rules to it as to a step it had
taken itself -- the arithmetic is the same, so the compiled path gives the steps of the Python
path to the bit.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ..contact.lagrange import LagrangeModel
from ..contact.tracker import ContactTracker
from ..jit import borrowed, njit
from ..results.outputs import SPURIOUS_RATIO
from ..system.contact_pairs import ContactPair
from ..system.state import State
from . import compliant_steps as cs
from .divergence import DAMPING_ONSET
from .energy_screen import GOING, JUMPED, ON, RATIO, WATCH, screen_start, screened
from .free_steps import FAILED, RUN_ARGS, free_step, step_work
from .newmark import NewtonFailure

if TYPE_CHECKING:
    from .divergence import DivergenceWatch

#: the pair kinds whose gap :func:`gaps_closing` computes
GROUND_LINE, NODE = 0, 1
KINDS = {"ground_line": GROUND_LINE, "node": NODE}

#: a gap at or below this many TOL at a step's end hands the step to the contact rules (they act
#: below 1 TOL: the factor covers the last bit of a gap computed in another order)
MARGIN = 2.0

#: how a run of :func:`open_steps` or :func:`~.closed_steps.closed_steps` ended: its steps all taken (or
#: the next failed), its last step handed to the contact rules, or (:mod:`.energy_screen`) its last step's
#: energy jumped or the created-energy watch flags it (:data:`~.energy_screen.JUMPED`, ``WATCHED``)
RAN, HANDED = 0, 1

#: the ledger's entries the run's watch adds to the energy balance (:func:`.compliant_steps.created`, after
#: the four energies): a run with a moving support's work has one more and is watched after it
LEDGER = len(cs.SIGNS) - 4

#: why a run's step whose energy jumped is cut
SPURIOUS = "the energy jumped in one step: a spurious root of the Newmark equations"


@njit(cache=True)
def gaps_closing(kinds, dofs, frames, q, limit):
    """Whether any pair's gap at ``q`` is at or below ``limit`` (m), or not a number.

    Per pair ``j``: ``kinds[j]`` (:data:`GROUND_LINE` or :data:`NODE`), ``dofs[j]`` = (x, y dofs of
    the point, x, y dofs of a node target), ``frames[j]`` = (n_x, n_y, x, y of a ground line's
    point, radius of the point, m); the gap is ``n . (p - x_target) - r`` (thesis eq. 3.1)."""
    for j in range(kinds.shape[0]):
        if not pair_gap(kinds, dofs, frames, j, q) > limit:
            return True
    return False


@njit(cache=True)
def pair_gap(kinds, dofs, frames, j, q):
    """The gap of pair ``j`` at ``q`` (m; the arrays of :func:`gaps_closing`)."""
    px, py = q[dofs[j, 0]], q[dofs[j, 1]]
    if kinds[j] == NODE:
        gap = frames[j, 0] * (px - q[dofs[j, 2]]) + frames[j, 1] * (py - q[dofs[j, 3]])
    else:
        gap = frames[j, 0] * (px - frames[j, 2]) + frames[j, 1] * (py - frames[j, 3])
    return gap - frames[j, 4]


@njit(cache=True, nogil=True)
def open_steps(kinds, dofs, frames, limit, before, aps, screen, *args):
    """The steps of :func:`~.free_steps.free_steps` (``args``: its arguments, borrowed as it borrows them),
    each followed by :func:`gaps_closing` at its end, then by the energies and looks of ``screen``
    (:func:`~.energy_screen.screened`); ``before`` (5, max(dofs, multipliers)) receives
    ``q, v, a, a~, lam`` at the start of the last step taken, ``aps[k]``, if it has rows, the
    pseudo-acceleration ``a~`` at the end of step k.  Returns ``(steps, ending)``:
    ``steps`` as :func:`~.free_steps.free_steps` returns it, ``ending`` :data:`HANDED` if the last step
    taken ended with a gap at or below ``limit`` (it is not counted), the screen's ending
    (:data:`~.energy_screen.JUMPED`, ``WATCHED``) if it ended the run, else :data:`RAN`."""
    (targets, accs, h, nu, af, c_a, c_v, pseudo_ratio, lam_factor, modified, q, v, a, ap, lam, F_ext, drv_rows,
     drv_dofs, iterations, powers, states, factor, scale) = borrowed(args[:RUN_ARGS])
    system = borrowed(args[RUN_ARGS:])
    U = screen_start(screen, q, v, F_ext, system)
    for k in range(targets.shape[0]):
        if not open_step(k, before, aps, targets, accs, h, nu, af, c_a, c_v, pseudo_ratio, lam_factor, modified, q, v,
                         a, ap, lam, F_ext, drv_rows, drv_dofs, iterations, powers, states, factor, scale, *system):
            return FAILED - k, RAN
        if gaps_closing(kinds, dofs, frames, q, limit):
            return k + 1, HANDED
        ending = screened(screen, k, U, q, v, F_ext, system)
        if ending != GOING:
            return k + 1, ending
    return targets.shape[0], RAN


@njit(cache=True, nogil=True)
def open_step(k, before, aps, targets, accs, h, nu, af, c_a, c_v, pseudo_ratio, lam_factor, modified, q, v, a, ap,
              lam, F_ext, drv_rows, drv_dofs, iterations, powers, states, factor, scale, *system):
    """Step ``k`` of a run of open steps (:func:`open_steps`' arguments from ``targets`` on): the
    state at its start into ``before``, the step by :func:`~.free_steps.free_step`, its end's
    pseudo-acceleration into ``aps[k]`` if it has rows; whether it was taken (``factor[3]``: the
    steps taken)."""
    n, m = q.shape[0], lam.shape[0]
    before[0, :n] = q
    before[1, :n] = v
    before[2, :n] = a
    before[3, :n] = ap
    before[4, :m] = lam
    if scale[2] != h:
        factor[0] = 0
    taken = free_step(k, targets, accs, h, nu, af, c_a, c_v, pseudo_ratio, lam_factor, modified, q, v, a, ap, lam,
                      F_ext, drv_rows, drv_dofs, iterations, powers, states, factor, scale,
                      step_work(q, lam, system[-8].shape[0]), *system)
    factor[3] = k + 1 if taken else k
    if taken and aps.shape[0] > k:
        aps[k] = ap
    return taken


class OpenGaps:
    """The pairs of a run whose open steps :func:`open_steps` may take, as its arrays."""

    def __init__(self, pairs: list[ContactPair], tol: float):
        self.kinds = np.array([KINDS[p.kind] for p in pairs], dtype=np.int64)
        self.dofs = np.array([[*p.point, *(p.target or (0, 0))] for p in pairs], dtype=np.int64)
        self.frames = np.array([_frame(p.kind, p.params, p.radius) for p in pairs])
        self.limit = MARGIN * tol  # m
        self.before = np.empty((5, 0))
        self.aps = np.empty((0, 0))  # the pseudo-accelerations at the steps' ends, m/s^2 (rad/s^2)
        #: the run's energies and looks (:mod:`.energy_screen`): marks, q0, energies, the watch's scalars and ledger
        self.screen = (np.zeros(5), np.empty(0), np.empty((0, 4)), np.zeros(cs.SCALARS), np.zeros(LEDGER))
        self.jumped = False  # whether the last run ended at a step whose energy jumped

    #: the longest step of a run, s; whether its states are kept for :meth:`book`
    cap, records = math.inf, False
    #: the steps of a run of the first one's size (the rest grow as the loop grows them, up to :attr:`grown`,
    #: s); whether the run's steps may change size (its kernel then takes the factors of nearby steps itself)
    uniform, grown, resizes = math.inf, math.inf, False
    #: whether the pairs may store energy (compliant pairs): the watch then looks at a run's states one by
    #: one (:meth:`checked`); Lagrange pairs store none
    stores_energy = False

    @staticmethod
    def serves(contacts: ContactTracker) -> bool:
        """Whether every contact model of the run is the Lagrange model and every pair is on a
        node or a ground line (no forces, no moving supports or masses)."""
        return (contacts.active and all(type(m) is LagrangeModel for m in contacts.models)
                and all(p.kind in KINDS for p in contacts.pairs))

    def step_size(self, h: float) -> float:
        """The first step of a run where the loop would take a step of ``h`` (s): at most :attr:`cap`."""
        return min(h, self.cap)

    def steps(self, args: tuple, n: int, m: int, recorded: int) -> tuple[int, bool]:
        """:func:`open_steps` with the arguments ``args`` of :func:`~.free_steps.free_steps`, for
        ``n`` dofs and ``m`` multipliers, the pseudo-accelerations of the first ``recorded``
        steps kept in :attr:`aps`."""
        if self.before.shape[1] < max(n, m):
            self.before = np.empty((5, max(n, m)))
        self.aps = np.empty((recorded, n))
        return self.ended_by(open_steps(self.kinds, self.dofs, self.frames, self.limit, self.before, self.aps,
                                        self.screen, *args))

    def run_terms(self, count: int) -> tuple[list[float], ...]:
        """The kinetic, strain and potential energy at the ends of the last run's first ``count`` steps,
        J, as lists (written in the run, :mod:`.energy_screen`)."""
        return tuple(self.screen[2][:count, :3].T.tolist())

    def ended_by(self, run: tuple[int, int]) -> tuple[int, bool]:
        """``(steps, closing)`` of a compiled run that returned ``(steps, ending)``: whether its last step is
        handed over; whether its energy jumped kept in :attr:`jumped`."""
        taken, ending = run
        self.jumped = ending == JUMPED
        return taken, ending == HANDED

    def screening(self, guard, watch: DivergenceWatch | None, out, steps: int) -> bool:
        """Set the next run of ``steps`` steps for the time loop's energy ``guard`` (an
        :class:`~solver.results.outputs.OutputBuilder`, or None) and created-energy ``watch`` (or None):
        its energies written in the run (:mod:`.energy_screen`) for a model without modal links whose
        contacts have no compiled state terms (``out``: the loop's
        :class:`~solver.results.outputs.OutputBuilder`), and where nothing but the contacts works
        (:meth:`~solver.results.outputs.OutputBuilder.others_work`), the guard's screen and the watch's looks
        taken in the run.  Returns whether the looks of both are taken in the run (it need not record its
        states for them)."""
        terms = not out.sys.modal.links and out.state_terms is None
        quiet = terms and not out.others_work()
        on = guard is not None and quiet
        watched = watch is not None and quiet and not self.stores_energy and len(out.ledger) == LEDGER
        marks, _q0, _energies, run, ledger = self.screen
        marks[ON], marks[RATIO], marks[WATCH] = float(on), SPURIOUS_RATIO, float(watched)
        if watched:
            run[[cs.IN_PLAY, cs.BALANCE0, cs.ONSET]] = watch._in_play, watch._balance0, DAMPING_ONSET
            ledger[:] = list(out.ledger.values())
        rows = steps if terms and (guard is not None or watch is not None) else 0
        self.screen = (marks, out.sys.q0, np.full((rows, 4), np.nan), run, ledger)
        self.jumped = False
        return (guard is None or on) and (watch is None or watched)

    def clear(self, s: State, h: float) -> bool:
        """Whether a run of open steps of about ``h`` (s) may start from ``s``: always (the gaps are
        looked at after each step)."""
        return True

    def begin(self, s: State, times: np.ndarray, steps: np.ndarray) -> None:
        """Prepare a run from ``s`` to the step ends ``times`` by ``steps`` (s): nothing for open steps."""

    def contact_block(self, gathered) -> Callable:
        """The contact columns of a run's frames from its times and states
        (:meth:`~solver.results.gathered_frames.GatheredFrames.contact_block` of ``gathered``)."""
        return gathered.contact_block

    def multipliers(self, k: int) -> np.ndarray | None:
        """The contact multipliers after the run's first ``k`` steps: none while the pairs are open."""
        return None

    def ended(self, new: State, failure, taken: int) -> tuple:
        """The run's last state after ``taken`` steps and the step handed over (``failure``), as they are."""
        return new, failure

    def book(self, out, hs: np.ndarray, powers: np.ndarray, end: State, recorded: tuple | None) -> list[float]:
        """The ledger over the run's steps ``hs`` that end at ``end``, the drivers' and the modal
        damping's ``powers`` (:meth:`~solver.results.outputs.OutputBuilder.advance_ledger_drivers`)."""
        return out.advance_ledger_drivers(hs.tolist(), powers, end)

    def screen_checked(self, start: State, times: np.ndarray, run: tuple, guard, watch: DivergenceWatch | None,
                       out) -> tuple:
        """The run ``(state, iterations, powers, failure)`` whose looks were taken in it (:meth:`screening`):
        its energies remembered for its last state (``out``'s
        :meth:`~solver.results.outputs.OutputBuilder.remember_energy`), the ``watch`` told of the states
        before it (:meth:`~.divergence.DivergenceWatch.saw`; the loop's watch looks at the last), the last
        step cut if the screen stopped at it (:attr:`jumped`) and ``guard`` finds its energy jumped
        (:meth:`~solver.results.outputs.OutputBuilder.spurious_candidates`, then ``spurious_growth``
        from the state before it, ``start`` for the first, as :meth:`checked` looks at it): ``(state,
        iterations, powers, failure)``, the failure then the spurious root, which the loop cuts."""
        new, iterations, powers, failure = run
        k = len(iterations) - 1
        if k < 0:
            return run
        terms = self.run_terms(k + 1)
        out.remember_energy(new, tuple(x[k] for x in terms))
        if watch is not None:
            watch.saw(terms, k)
        if not self.jumped:
            return run
        before = start if k == 0 else State(
            float(times[k - 1]), *(self.before[i, :len(x)].copy() for i, x in enumerate((new.q, new.v, new.a))),
            self.before[4, :len(new.lam)].copy(), self.before[3, :len(new.q)].copy(), self.multipliers(k))
        if k:
            out.remember_energy(before, tuple(x[k - 1] for x in terms))
        if len(guard.spurious_candidates(before, tuple(x[k:] for x in terms))) and guard.spurious_growth(before, new):
            return before, iterations[:k], powers[:k], NewtonFailure(SPURIOUS)
        return run

    def checked(self, start: State, times: np.ndarray, run: tuple, guard, watch: DivergenceWatch | None,
                out, stacked: bool) -> tuple:
        """The run ``(state, iterations, powers, failure, (q, v, a, lam) of each step)`` of
        :func:`~.free_steps.free_run` from ``start`` that recorded its steps, looked at step by step
        as the loop looks at each step it takes: cut before the first step whose energy jumped
        (``guard``'s :meth:`~solver.results.outputs.OutputBuilder.spurious_growth` from the state
        before it), handed back as a failure, the spurious root, which the loop cuts as it cuts any
        step that failed (:func:`~.attempts.advance`); cut after the first step but the last whose
        end state ``watch`` flags (the time loop's created-energy watch,
        :meth:`~.divergence.DivergenceWatch.created_energy`, which looks at every
        step's end, the last after the run, with the ledger of ``out``, an
        :class:`~solver.results.outputs.OutputBuilder`, as booked to that step: the drivers' work and
        the modal damping's set to each step's while it looks,
        :meth:`~solver.results.outputs.OutputBuilder.drivers_work` and ``damping_work``).
        Returns ``(state, iterations, powers, failure)``.  With ``stacked`` (a model without modal
        links whose energies are not the contacts' compiled state terms) the states' energies as the run
        wrote them (:meth:`run_terms`, the same numbers), which
        also screen the steps the guard looks at
        (:meth:`~solver.results.outputs.OutputBuilder.spurious_candidates`), and, where the pairs store no
        energy, give the watch's looks in one pass (:meth:`_watched`)."""
        new, iterations, powers, failure, (q, v, a, lam) = run
        count = len(iterations)
        if not count:
            return run[:4]
        terms = self.run_terms(count) if stacked else None
        looked = np.ones(count, dtype=bool)
        if guard is not None and terms is not None:
            looked[:] = False
            looked[guard.spurious_candidates(start, terms)] = True
        ledger, booked = out.ledger, {key: out.ledger[key] for key in ("work_drivers", "dissipated_damping")}
        works = None
        if watch is not None:  # the drivers' work and the modal damping's after each step
            hs = np.diff(times[:count], prepend=start.t).tolist()
            works = {"work_drivers": out.drivers_work(hs, powers[:, 0]),
                     "dissipated_damping": out.damping_work(hs, powers[:, 1])}
        if watch is not None and terms is not None and not self.stores_energy:
            return self._watched(start, times, run, guard, watch, out, terms, looked, works)
        before = start
        try:
            for k in range(count):
                st = State(float(times[k]), q[k], v[k], a[k], lam[k], self.aps[k], self.multipliers(k + 1))
                if terms is not None:
                    out.remember_energy(st, tuple(x[k] for x in terms))
                if guard is not None and looked[k] and guard.spurious_growth(before, st):
                    jumped = NewtonFailure(SPURIOUS)
                    return (before if k == 0 else _copied(before)), iterations[:k], powers[:k], jumped
                if watch is not None and k < count - 1:
                    ledger.update({key: booked_k[k] for key, booked_k in works.items()})
                    if watch.created_energy(st):
                        return _copied(st), iterations[:k + 1], powers[:k + 1], None
                before = st
        finally:
            ledger.update(booked)  # the run's steps are booked after it
        return new, iterations, powers, failure

    def _watched(self, start: State, times: np.ndarray, run: tuple, guard, watch, out, terms: tuple,
                 looked: np.ndarray, works: dict[str, list[float]]) -> tuple:
        """:meth:`checked` with the watch's looks at the states (the energies ``terms``, the ledger's
        ``works`` booked to each step: the drivers' and the modal damping's) taken in one pass
        (:meth:`~.divergence.DivergenceWatch.first_created`, the same numbers) and the guard's only at
        its candidates ``looked`` up to the first state the watch flags, in the order :meth:`checked`
        takes them; the watch then told which states it saw (:meth:`~.divergence.DivergenceWatch.saw`)."""
        new, iterations, powers, failure, (q, v, a, lam) = run
        count = len(iterations)
        flagged = watch.first_created(terms, works, count - 1)  # count - 1: none (the last is the loop's)

        def state(k: int) -> State:
            st = State(float(times[k]), q[k], v[k], a[k], lam[k], self.aps[k], self.multipliers(k + 1))
            out.remember_energy(st, tuple(x[k] for x in terms))
            return st

        if guard is not None:
            for k in np.flatnonzero(looked[:flagged + 1]).tolist():
                before = start if k == 0 else state(k - 1)
                if guard.spurious_growth(before, state(k)):
                    watch.saw(terms, k)
                    return (before if k == 0 else _copied(before)), iterations[:k], powers[:k], NewtonFailure(SPURIOUS)
        if flagged == count - 1:
            watch.saw(terms, count - 1)
            out.remember_energy(new, tuple(x[-1] for x in terms))  # the loop's watch looks at it next
            return new, iterations, powers, failure
        watch.saw(terms, flagged + 1)
        return _copied(state(flagged)), iterations[:flagged + 1], powers[:flagged + 1], None


def _copied(st: State) -> State:
    """``st`` with arrays of its own (not views of a run's recorded states)."""
    return State(st.t, *(x.copy() for x in (st.q, st.v, st.a, st.lam, st.a_pseudo)), st.lam_c)


def _frame(kind: str, params: dict, radius: float) -> tuple[float, ...]:
    """``(n_x, n_y, x, y, r)`` of a pair (:func:`gaps_closing`): the normal of a node target
    (``angle``) or of a ground line (its left normal, through its point ``x, y``)."""
    a = params["angle"]
    if kind == "node":
        return math.cos(a), math.sin(a), 0.0, 0.0, radius
    return -math.sin(a), math.cos(a), params["x"], params["y"], radius
