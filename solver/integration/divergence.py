"""Divergence: a run whose state has left what the model and floating point can mean stops at
once, instead of cutting its step until the stall bound ends it (docs/solver.md, *Every run ends*).

Two marks, checked after accepted steps (counted in steps, never in wall-clock time):

- **Flown apart**: a node (or rigid body) farther from the origin than :data:`MAX_EXTENT` times
  the model's size ``L = max(1 m, max |q0|)``.  Newton's position tolerance is ``1e-10 L``
  (:class:`~solver.integration.newmark.NewmarkIntegrator`); coordinates of ``1e6 L`` carry a
  round-off of ``2e-10 L``, so no step there can meet it (a free beam pushed by 10¹² N).
- **Energy created** (every :data:`ENERGY_EVERY` steps: the energies cost a tenth of a small
  model's step): the kinetic, strain and contact energy exceed :data:`MAX_ENERGY_RATIO`
  times every energy the run has booked (the energy at the start, the change of gravity's
  potential and each work and dissipation of the ledger, in absolute value; the largest sum so
  far): the integration created the energy itself (an unstable spurious solution).

Between the two, the watch tells when the energy balance (:data:`~solver.results.frames.ENERGY_BALANCE_SIGNS`)
has risen by :data:`DAMPING_ONSET` of the largest kinetic and strain energy (:meth:`DivergenceWatch.created_energy`):
energy no law of the model creates.  After an impulse on a flexible link it is the trapezoidal rule
(tau = 0.5), which does not conserve the energy of a nonlinear element (Crisfield & Shi 1994, Simo &
Tarnow 1992), growing the modes no step resolves; the time loop then switches numerical damping on
(docs/solver.md, *Numerical damping after impacts*).

When a run fails, :func:`mesh_hint` says whether a flexible link bent more than its mesh can
follow: an element whose ends turned more than :data:`FOLD_SLOPE` against its chord is far
outside the small-slope cubic of the corotational element (its mean strain ``1/2 v'^2``,
thesis eq. A.3, lets the chord shrink to zero at finite energy once the end slopes pass about
2.4 rad), so no step can follow it; that is what a user can change.  :func:`strain_hint` says
whether a link's strain passed :data:`ELASTIC_STRAIN`, outside the linear elastic, small-strain
beam of the model (steel yields near 0.2 %): a motion that strains a link so far has left what any
beam model describes, which no refinement changes (docs/solver.md, *Runaway motions*).

>>> MAX_EXTENT, MAX_ENERGY_RATIO, FOLD_SLOPE, ELASTIC_STRAIN, DAMPING_ONSET
(1000000.0, 1000.0, 1.0, 0.05, 0.01)
"""
from __future__ import annotations

import numpy as np

from ..fem.beam import deformations
from ..fem.timoshenko import curvature
from ..results.frames import ENERGY_BALANCE_SIGNS
from ..results.outputs import ENERGY_TERMS, OutputBuilder
from ..results.validity import ELASTIC_STRAIN
from ..system.state import State

#: coordinates beyond this many model sizes: the model flew apart
MAX_EXTENT = 1e6

#: mechanical energy beyond this many times all the energy booked: the integration diverged
MAX_ENERGY_RATIO = 1e3

#: the position of each energy term in :meth:`~solver.results.outputs.OutputBuilder.energy_terms`
_TERM = {key: i for i, key in enumerate(ENERGY_TERMS)}

#: accepted steps between two looks at the energy
ENERGY_EVERY = 10

#: rise of the energy balance, of the largest kinetic and strain energy so far, that marks energy the
#: integration created (the struck slider-crank of §5.4 at tau = 0.5: 0.008 within 0.8 ms of the impact,
#: 0.7 within 7 ms; the impulses of its e = 1 contact move it by under 0.001)
DAMPING_ONSET = 0.01

#: end slope of an element against its chord (rad) beyond which a failed run names the mesh
FOLD_SLOPE = 1.0


class DivergenceWatch:
    """Watches the accepted states of one run for the two marks of divergence."""

    def __init__(self, out: OutputBuilder, start: State):
        s = out.sys
        self.out = out
        bodies = [dofs[:2] for _, dofs in s.rigid_bodies]
        self.position_dofs = np.concatenate([s.node_dofs.ravel(), np.array(bodies, dtype=int).ravel()])
        self.size = max(1.0, float(np.abs(s.q0).max(initial=0.0)))
        kinetic, strain, self._potential0, contact = out.energy_terms(start)
        self._start = kinetic + strain + contact + abs(self._potential0)  # J
        self._booked = self._start  # the largest sum of booked energies so far, J
        self._steps = 0
        self._energy_due = ENERGY_EVERY  # the step count at which the energy is looked at next
        #: the last state looked at whose energy was within all the energy the run was given
        self.last_sound = start
        self._balance0 = self.balance(start)  # J
        self._in_play = kinetic + strain  # the largest kinetic and strain energy so far, J

    def balance(self, st: State) -> float:
        """The energy balance at ``st`` (J): :data:`~solver.results.frames.ENERGY_BALANCE_SIGNS` over
        its energies and the ledger."""
        energies, ledger, total = self.out.energy_terms(st), self.out.ledger, 0
        for key, sign in ENERGY_BALANCE_SIGNS.items():  # summed in this order, as frame by frame
            total += sign * (ledger[key] if key in ledger else energies[_TERM[key]] if key in _TERM else 0.0)
        return total

    def check(self, st: State, steps: int = 1) -> str | None:
        """The cause, in words, when ``st``, reached by ``steps`` accepted steps since the last
        check, shows divergence; otherwise None."""
        if self.position_dofs.size:
            far = float(np.abs(st.q[self.position_dofs]).max())
            if not np.isfinite(far) or far > MAX_EXTENT * self.size:
                return (f"the model flew apart: a node is {far:.3g} m from the origin, over {MAX_EXTENT:.0e} "
                        f"times the model's size ({self.size:.3g} m), where its coordinates keep too few digits "
                        "for Newton's tolerance")
        self._steps += steps
        if self._steps < self._energy_due:
            return None
        self._energy_due = self._steps + ENERGY_EVERY
        kinetic, strain, potential, contact = self.out.energy_terms(st)
        held = kinetic + strain + contact
        booked = self._start + abs(potential - self._potential0) + sum(abs(w) for w in self.out.ledger.values())
        self._booked = max(self._booked, booked)
        if not np.isfinite(held) or held > MAX_ENERGY_RATIO * self._booked > 0.0:
            return (f"the integration diverged: the kinetic and strain energy ({held:.3g} J) is over "
                    f"{MAX_ENERGY_RATIO:.0f} times all the energy the run was given ({self._booked:.3g} J)")
        if held <= self._booked:
            self.last_sound = st
        return None

    def first_created(self, terms: tuple[list[float], ...], works: dict[str, list[float]], count: int) -> int:
        """The first of the first ``count`` states of a run that :meth:`created_energy` would flag, looking
        at each in turn, else ``count``; nothing remembered (:meth:`saw`).  ``terms``: the states'
        kinetic, strain and potential energy (J, written in the run, :mod:`.energy_screen`),
        their pairs storing none; ``works``: ledger entries as booked to each state (J: the drivers'
        work, the modal damping's), the rest of the ledger as it stands.  Elementwise over the
        states, each balance summed in :meth:`balance`'s order: the same numbers."""
        if count <= 0:
            return count
        kinetic, strain, potential = (np.asarray(x[:count]) for x in terms)
        energies, ledger, total = (kinetic, strain, potential, np.zeros(count)), self.out.ledger, 0
        for key, sign in ENERGY_BALANCE_SIGNS.items():
            total += sign * (np.asarray(works[key][:count]) if key in works else ledger[key] if key in ledger
                             else energies[_TERM[key]] if key in _TERM else 0.0)
        in_play = np.fmax.accumulate(np.concatenate([[self._in_play], kinetic + strain]))[1:]  # max() in turn
        flagged = np.flatnonzero(total - self._balance0 > DAMPING_ONSET * in_play)
        return int(flagged[0]) if len(flagged) else count

    def saw(self, terms: tuple[list[float], ...], count: int) -> None:
        """The first ``count`` states of ``terms`` (as :meth:`first_created` has them) looked at: the
        largest kinetic and strain energy so far taken from them, as :meth:`created_energy` takes it."""
        for kinetic, strain in zip(terms[0][:count], terms[1][:count]):
            self._in_play = max(self._in_play, kinetic + strain)

    def created_energy(self, st: State) -> bool:
        """Whether the energy balance at ``st`` has risen by :data:`DAMPING_ONSET` of the largest
        kinetic and strain energy so far (looked at every step: on a rod struck end-on at a step
        four times its axial period, the energy held for 54 ms and then grew 300-fold in 6 ms)."""
        kinetic, strain, _, _ = self.out.energy_terms(st)
        self._in_play = max(self._in_play, kinetic + strain)
        return self.balance(st) - self._balance0 > DAMPING_ONSET * self._in_play


def mesh_hint(out: OutputBuilder, st: State) -> str | None:
    """The flexible link that bent more than its mesh can follow at ``st``, in words (the element
    whose end slope against its chord is largest, if over :data:`FOLD_SLOPE`); otherwise None."""
    s = out.sys
    if not s.beams.count:
        return None
    out.asm.set_time(st.t)
    slopes = np.abs(deformations(st.q, s.elem_dofs, out.asm.secs)[:, 4:6]).max(axis=1)
    e = int(np.argmax(slopes))
    if not slopes[e] > FOLD_SLOPE:
        return None
    link, k = s.elem_info[e][0], s.elem_info[e][1]
    count = sum(1 for info in s.elem_info if info[0] == link)
    return (f"link '{link}' bent more than its {count} elements can follow: its element {k + 1} turned "
            f"{slopes[e]:.2g} rad against its chord, where a beam element holds well under {FOLD_SLOPE:g} rad; "
            "refine its mesh, or lower the loads or speeds")


def element_strains(out: OutputBuilder, st: State) -> tuple[np.ndarray, np.ndarray]:
    """Every beam element's largest axial strain ``|u| / L`` and outer-fibre bending strain
    ``c |kappa|`` at its ends (eq. A.3) at ``st``, shape (E,) each."""
    s = out.sys
    out.asm.set_time(st.t)
    d = deformations(st.q, s.elem_dofs, out.asm.secs)
    L, phi = s.beams.L, s.beams.shear
    kappa = np.maximum(np.abs(curvature.py_func(0.0, phi, L, d[:, 4], d[:, 5])),
                       np.abs(curvature.py_func(1.0, phi, L, d[:, 4], d[:, 5])))
    return np.abs(d[:, 3] / L), np.nan_to_num(s.elem_fibre) * kappa


def strain_hint(out: OutputBuilder, st: State) -> str | None:
    """The flexible link strained beyond :data:`ELASTIC_STRAIN` at ``st`` (the last state the watch
    saw with its energy balance sound), in words; otherwise None."""
    if not out.sys.beams.count:
        return None
    axial, bending = element_strains(out, st)
    e = int(np.argmax(np.maximum(axial, bending)))
    if not max(axial[e], bending[e]) > ELASTIC_STRAIN:
        return None
    link = out.sys.elem_info[e][0]
    mine = np.array([info[0] == link for info in out.sys.elem_info])
    return (f"at t = {st.t:.6g} s, before the energy went wrong, link '{link}' was already strained far beyond a "
            f"linear elastic beam (axial strain {axial[mine].max():.2g}, bending strain {bending[mine].max():.2g}; "
            "steel yields near 0.002): the motion has left what a linear elastic beam describes, which no finer mesh "
            "or step changes; lower the speeds or loads, stiffen the link, or give it material damping")
