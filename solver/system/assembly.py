"""Global forces and the Newton matrix of a compiled system.

The out-of-balance force (thesis eq. 2.44 with the constraint reactions)

    Psi = f_in(q, qdot, qddot) + C qdot + f(q) - F(t) + G^T lambda

is assembled from all beam elements at once (one batched call, no loop over
elements), the modal links (:mod:`solver.fem.modal`, one dense block each) and the
constant diagonal masses of lumped masses and rigid bodies.
The Newton matrix is the saddle-point system

    [ c_a M + c_v C_T + K_T    s G^T ] [ dq ]     [ Psi ]
    [ s G                      0     ] [ dmu ] = -[ s g ]

(eqs. 2.54-2.59 with constraints), ``lambda = s mu`` scaled for conditioning.
It is stored on a fixed sparsity pattern and factorised as a band matrix in reverse
Cuthill-McKee order (:mod:`solver.system.banded`): cost linear in the number of elements.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import scipy.sparse as sp
from ..jit import njit

from .banded import BandLU, BandPattern, band_factor, band_factorize
from .constraints import constraint_eval
from .mass_cholesky import MAX_CONSTRAINTS, MIN_DOFS, MassCholesky, MassPattern
from .compile import System
from .moving import moving_forces
from .state_energies import gravity_potential, lumped_kinetic, stacked_state_energies, state_energies, strain_total
from ..fem.beam import (FORMULATIONS, add_element_masses, assemble_beams, deformation_rate_power, log_magnitude,
                        mass_matrices, strain_energies)
from ..fem.beam_energy import kinetic_energy_beams
from ..fem.modal import BLOCKS, assemble_modal, modal_energies, modal_gravity, move_diagonal

@dataclass
class Forces:
    """Global force vectors at one state (all (n,))."""

    residual: np.ndarray  # Psi without the constraint reactions
    internal: np.ndarray  # f(q)
    external: np.ndarray  # F(t) including gravity
    inertial: np.ndarray  # f_in
    damping: np.ndarray  # C qdot


#: applied loads and reactions count in Newton's reference force up to this many times the
#: forces that move the mechanism (inertia, internal forces, loads net of reactions)
CARRIED_LOAD_RATIO = 100.0


@njit(cache=True)
def newton_terms(q, v, a, lam, F_ext, mass_diag, alpha, beta, form, dofs, secs, Mbars, modal, want, c_a, c_v, c_k,
                 blocks, dm_dofs, dm_target, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, rows, cols, psi, g, vals):
    """Out-of-balance force ``psi`` (with the reactions ``G^T lambda``), constraint residual
    ``g`` and Jacobian values of one Newton iteration in one compiled call; returns
    ``(reference force, |psi|, |g|)`` for the convergence test (eq. 2.64).  The reference
    is the largest of the inertia forces, the internal forces, the applied loads and the
    reactions, the last two counted up to :data:`CARRIED_LOAD_RATIO` times the largest of the
    first two and the applied loads net of the reactions: a load that supports carry whole
    (10¹² N pressing a slider into its guide) would otherwise set a tolerance larger than every
    force of the mechanism.  ``modal``
    are the packed modal links (:mod:`solver.fem.modal`), their blocks written with ``want``."""
    n = q.shape[0]
    work = np.empty((4, n))  # one allocation for the four force vectors of the evaluation
    internal, inertial, damping, reac = work[0], work[1], work[2], work[3]
    for i in range(n):
        internal[i] = 0.0
        inertial[i] = mass_diag[i] * a[i]
        damping[i] = alpha * mass_diag[i] * v[i]
        reac[i] = 0.0
    assemble_beams(q, v, a, dofs, secs, Mbars, form, alpha, beta, want, c_a, c_v, c_k, internal, inertial, damping, blocks)
    assemble_modal(q, v, a, modal, alpha, want, c_a, c_v, c_k, internal, inertial, damping)
    constraint_eval(q, q[:0], dm_dofs, dm_target, dm_target, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, g, vals, g)
    for k in range(rows.shape[0]):
        reac[cols[k]] += vals[k] * lam[rows[k]]
    # the squared norms of psi, the inertia and internal forces, the net loads, the loads and the reactions
    s_psi = s_in = s_int = s_net = s_ext = s_reac = 0.0
    for i in range(n):
        p = inertial[i] + damping[i] + internal[i] - F_ext[i] + reac[i]
        psi[i] = p
        d = F_ext[i] - reac[i]
        s_psi += p * p
        s_in += inertial[i] * inertial[i]
        s_int += internal[i] * internal[i]
        s_net += d * d
        s_ext += F_ext[i] * F_ext[i]
        s_reac += reac[i] * reac[i]
    flow = math.sqrt(max(s_in, s_int, s_net))
    ref = max(flow, min(math.sqrt(max(s_ext, s_reac)), CARRIED_LOAD_RATIO * flow))
    s_g = 0.0  # |g|, not max |g_i|: a pin's two rows turn with the model
    for i in range(g.shape[0]):
        s_g += g[i] * g[i]
    return ref, math.sqrt(s_psi), math.sqrt(s_g)


@njit(cache=True)
def newton_scale(blocks, diag):
    """Typical size of a diagonal entry (geometric mean of the nonzero ones): scales the
    constraint rows of the Newton matrix."""
    acc = 0.0
    count = np.int64(0)  # not the literal 0: log_magnitude compiles once (numba types a call eagerly)
    for e in range(blocks.shape[0]):
        for i in range(blocks.shape[1]):
            acc, count = log_magnitude(blocks[e, i, i], acc, count)
    for i in range(diag.shape[0]):
        acc, count = log_magnitude(diag[i], acc, count)
    return np.exp(acc / count) if count else 1.0


@njit(cache=True)
def matrix_values(blocks, diag, G_vals, scale, extra):
    """The saddle-point matrix's values in pattern order: blocks, diagonal, ``s G``, ``s G^T``,
    and the ``extra`` blocks of force elements outside the beams (compliant contacts)."""
    nb, nd, ng, ne = blocks.size, diag.shape[0], G_vals.shape[0], extra.shape[0]
    vals = np.empty(nb + nd + 2 * ng + ne)
    vals[:nb] = blocks.ravel()
    vals[nb:nb + nd] = diag
    for k in range(ng):
        vals[nb + nd + k] = scale * G_vals[k]
        vals[nb + nd + ng + k] = scale * G_vals[k]
    vals[nb + nd + 2 * ng:] = extra
    return vals


@njit(cache=True)
def newton_factorize(q, v, a, lam, F_ext, mass_diag, alpha, beta, form, dofs, secs, Mbars, modal, c_a, c_v, blocks,
                     extra, dm_dofs, dm_target, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, rows, cols, psi, g, vals,
                     scale, band_row, band_col, AB, kl, ku, ipiv, pivot_ratio, fresh):
    """The Newton matrix at ``(q, v, a)`` (:func:`newton_terms` with the blocks
    ``c_a M + c_v C_T + K_T``, the ``extra`` blocks of :attr:`Assembly.extra_size` and the
    modal links' blocks), factorised in place into ``AB, ipiv``, in one compiled call;
    ``scale <= 0`` asks for a new :func:`newton_scale`.  Returns ``(scale, singular)``; ``psi, g,
    vals`` and ``fresh`` = (1, reference force, ``|psi|``, ``max |g|``) are the residual at
    ``(q, v, a)``, for the first Newton iteration with the new matrix."""
    fresh[0] = 0.0  # np.bool_ below: a bool to numba, not a literal (newton_terms compiles once)
    fresh[1], fresh[2], fresh[3] = newton_terms(q, v, a, lam, F_ext, mass_diag, alpha, beta, form, dofs, secs, Mbars,
                                                modal, np.bool_(True), c_a, c_v, 1.0, blocks, dm_dofs, dm_target, bp_n, bp_b,
                                                bp_r, sl_n, sl_nrm, sl_p, rows, cols, psi, g, vals)
    fresh[0] = 1.0
    diag = (c_a + c_v * alpha) * mass_diag
    move_diagonal(modal, diag)
    if scale <= 0.0:
        scale = newton_scale(blocks, diag)
    values = np.concatenate((matrix_values(blocks, diag, vals, scale, extra), modal[BLOCKS].ravel()))
    singular = band_factorize(AB, band_row, band_col, values, kl, ku, ipiv, pivot_ratio)
    return scale, singular


@njit(cache=True)
def mass_factorize(q, dofs, secs, Mbars, form, mass_diag, G_vals, extra_size, band_row, band_col, band_pos, AB, kl,
                   ku, ipiv, pivot_ratio):
    """The constrained mass matrix ``[M  s G^T; s G  0]`` at ``q`` of a system without modal links,
    filled into ``AB`` and factorised in place in one compiled pass: each element's mass block
    (:func:`~solver.fem.beam.add_element_masses`, at the flat positions ``band_pos`` of the
    column-major ``AB``) goes into the band as it is made, with its share of the scale ``s``
    (:func:`newton_scale`).  Returns ``(s, singular)``; bit for bit the factors
    of :meth:`Assembly.factorize` with the blocks of ``mass_matrices`` and ``newton_scale``
    (the same sums in the same order)."""
    AB[:, :] = 0.0
    acc, count = add_element_masses(q, dofs, secs, Mbars, form, band_pos, AB.T.reshape(-1))
    k = band_pos.shape[0]
    for i in range(mass_diag.shape[0]):
        acc, count = log_magnitude(mass_diag[i], acc, count)
        AB[band_row[k], band_col[k]] += mass_diag[i]
        k += 1
    scale = np.exp(acc / count) if count else 1.0
    ng = G_vals.shape[0]
    for i in range(ng):
        AB[band_row[k + i], band_col[k + i]] += scale * G_vals[i]
    for i in range(ng):
        AB[band_row[k + ng + i], band_col[k + ng + i]] += scale * G_vals[i]
    k += 2 * ng
    for i in range(extra_size):  # the zero blocks of compliant pairs (as matrix_values lays them out)
        AB[band_row[k + i], band_col[k + i]] += 0.0
    return scale, band_factor(AB, kl, ku, ipiv, pivot_ratio)


class Assembly:
    """Evaluates forces, energies and Newton matrices of a :class:`System`."""

    def __init__(self, system: System):
        self.sys = system
        self.n = system.n
        self.m = system.constraints.count
        self.Mbar = np.ascontiguousarray(system.beams.local_mass())
        self.secs = system.beams.sections()
        self._secs_time: float | None = None  # the time of the free strains in ``secs``
        self.form = FORMULATIONS[system.formulation]
        #: the packed modal links; ``modal[BLOCKS]`` holds their Newton blocks (off-diagonal part)
        #: of the last evaluation with blocks
        self.modal = system.modal.args
        E = system.beams.count
        self._blocks = np.zeros((E, 6, 6))
        self._no_blocks = np.zeros((E, 6, 6))
        #: pairs whose forces enter the Newton matrix as dense blocks on their dofs (compliant contact)
        self.force_pairs = [p for p in system.contacts if p.model_kind == "compliant"]
        self.extra_size = sum(len(p.dofs) ** 2 for p in self.force_pairs)
        self._mass_memo: tuple[float, np.ndarray, BandLU | MassCholesky, float] | None = None  # (t, q, factors, scale)
        self._mass_pattern: MassPattern | None = None  # set by :meth:`factor_mass_by_cholesky`
        #: ``contact_forces(q, v)``: generalised contact forces added to the loads, set by the time loop
        self.contact_forces: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
        self._pattern()
        #: flat (column-major) band positions of the element blocks' entries, for :func:`mass_factorize`
        nb = 36 * E
        self._band_pos = np.ascontiguousarray(self.band.band_row[:nb] + self.band.band_col[:nb] * self.band.ldab)

    def set_time(self, t: float) -> None:
        """Bring the elements' free (thermal and creep) strains in :attr:`secs` to time ``t``
        (every beam evaluation at ``t`` first calls this; a no-op without free strains)."""
        if self.sys.free_strains.active and t != self._secs_time:
            self.sys.free_strains.write(self.secs, t)
            self._secs_time = t

    # ------------------------------------------------------------------ loads
    @property
    def follower_loads(self) -> bool:
        """Whether a load turns with the structure, or travels along a link (then F depends on q)."""
        return any(ld.follower for ld in self.sys.loads) or any(m.kind == "force" for m in self.sys.movers)

    def external(self, q: np.ndarray, t: float) -> np.ndarray:
        """Applied loads F(t) (gravity and moving forces included), N and N m (not to be modified in place)."""
        if not self.sys.loads and not self.sys.movers:
            return self.sys.gravity
        F = self.sys.gravity.copy()
        moving_forces(self.sys.movers, q, t, F)
        for ld in self.sys.loads:
            f = ld.function.value(t)
            fx, fy = ld.fx * f, ld.fy * f
            if ld.follower and ld.dofs[2] >= 0:
                a = q[ld.dofs[2]]
                fx, fy = fx * np.cos(a) - fy * np.sin(a), fx * np.sin(a) + fy * np.cos(a)
            F[ld.dofs[0]] += fx
            F[ld.dofs[1]] += fy
            if ld.dofs[2] >= 0:
                F[ld.dofs[2]] += ld.torque * f
        return F

    # ------------------------------------------------------------------ forces
    def forces(self, q: np.ndarray, v: np.ndarray, a: np.ndarray, t: float, *, blocks: tuple[float, float, float] | None = None, t_loads: float | None = None):
        """Forces at ``(q, v, a, t)``; with ``blocks=(c_a, c_v, c_k)`` also the Newton blocks.

        The external forces include the contact forces of :attr:`contact_forces` when set.

        The element block is ``c_a M + c_v (C_in + alpha M + beta B^T D0 B) + c_k (K_in + K_T)``
        and ``diag`` the same combination of the constant diagonal masses, plus the diagonal
        of the modal links' blocks, whose off-diagonal part stays in ``self.modal[BLOCKS]`` for
        :meth:`factorize` and :func:`dense_matrices`.
        Loads are evaluated at ``t_loads`` when given (the left limit at a breakpoint).
        """
        s = self.sys
        n = self.n
        internal = np.zeros(n)
        inertial = s.mass_diag * a
        damping = s.alpha * s.mass_diag * v
        want = blocks is not None
        c_a, c_v, c_k = blocks if want else (0.0, 0.0, 0.0)
        B = self._blocks if want else self._no_blocks
        self.set_time(t if t_loads is None else t_loads)
        assemble_beams(q, v, a, s.elem_dofs, self.secs, self.Mbar, self.form, s.alpha, s.beta, want,
                       c_a, c_v, c_k, internal, inertial, damping, B)
        assemble_modal(q, v, a, self.modal, s.alpha, want, c_a, c_v, c_k, internal, inertial, damping)
        external = self.external(q, t if t_loads is None else t_loads)
        if s.modal.links:  # the modal links' gravity, which depends on q, counted as an external force
            weight = np.zeros(n)
            modal_gravity(q, self.modal, weight)
            internal += weight
            external = external + weight
        if self.contact_forces is not None:
            external = external + self.contact_forces(q, v)
        out = Forces(inertial + damping + internal - external, internal, external, inertial, damping)
        if not want:
            return out
        diag = (c_a + c_v * s.alpha) * s.mass_diag
        move_diagonal(self.modal, diag)
        return out, B.copy(), diag

    # ------------------------------------------------------------------ energies
    def mass_matrix_elements(self, q: np.ndarray) -> np.ndarray:
        """Element mass matrices in configuration q (eq. 2.32), (E, 6, 6)."""
        return mass_matrices(q, self.sys.elem_dofs, self.secs, self.Mbar, self.form)

    def kinetic_energy(self, q: np.ndarray, v: np.ndarray) -> float:
        """T = 1/2 qdot^T M qdot (eq. 2.31), J (the lumped masses' summed as
        :func:`~solver.system.state_energies.state_energies` sums them)."""
        T = kinetic_energy_beams(q, v, self.sys.elem_dofs, self.secs, self.Mbar, self.form)
        return T + 0.5 * lumped_kinetic(self.sys.mass_diag, v) + self._modal_energies(q, v)[0]

    def strain_energy(self, q: np.ndarray, t: float = 0.0) -> float:
        """U at time ``t`` (the free strains' time), J (eq. 2.16), the elements' summed in order."""
        self.set_time(t)
        return strain_total(strain_energies(q, self.sys.elem_dofs, self.secs, self.form)) + self._modal_energies(q)[1]

    def potential_energy(self, q: np.ndarray) -> float:
        """Gravitational potential from the sketched configuration, J."""
        return gravity_potential(self.sys.gravity, q, self.sys.q0) + self._modal_energies(q)[2]

    def energies(self, q: np.ndarray, v: np.ndarray, t: float = 0.0) -> tuple[float, float, float]:
        """Kinetic, strain (at time ``t``) and gravitational potential energy, J: what
        :meth:`kinetic_energy`, :meth:`strain_energy` and :meth:`potential_energy` give, to the
        last bit, in one compiled pass (:func:`~solver.system.state_energies.state_energies`, which
        the compiled runs call too)."""
        s = self.sys
        if s.modal.links:
            return self.kinetic_energy(q, v), self.strain_energy(q, t), self.potential_energy(q)
        self.set_time(t)
        return state_energies(q, v, *self.energy_arguments(), np.empty(s.beams.count))

    def energy_arguments(self) -> tuple:
        """The arguments of :func:`~solver.system.state_energies.state_energies` after ``(q, v)``
        but its scratch: ``q0, gravity, mass_diag, elem_dofs, secs, Mbar, formulation``."""
        s = self.sys
        return s.q0, s.gravity, s.mass_diag, s.elem_dofs, self.secs, self.Mbar, self.form

    def stacked_energies(self, Q: np.ndarray, V: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Kinetic, strain and gravitational potential energy (each (K,), J) of the states of ``Q``
        and ``V`` (K, dofs, C-ordered) of a system without modal links or free strains: of each
        state what :meth:`energies` gives, to the last bit (the same compiled function)."""
        out = np.empty((3, len(Q)))
        stacked_state_energies(Q, V, *self.energy_arguments(), out)
        return out[0], out[1], out[2]

    def _modal_energies(self, q: np.ndarray, v: np.ndarray | None = None) -> tuple[float, float, float, float]:
        """Kinetic, strain, potential energy and ``q'^T Cqq q'`` of the modal links."""
        if not self.sys.modal.links:
            return 0.0, 0.0, 0.0, 0.0
        return modal_energies(q, np.zeros(self.n) if v is None else v, self.sys.q0, self.modal)

    def damping_power(self, q: np.ndarray, v: np.ndarray) -> float:
        """Power dissipated by Rayleigh damping, qdot^T C qdot, W."""
        s = self.sys
        P = 0.0
        if s.beta > 0.0:
            P += s.beta * deformation_rate_power(q, v, s.elem_dofs, self.secs)
        P += self._modal_energies(q, v)[3]  # beta and modal damping of the modal coordinates
        if s.alpha > 0.0:
            P += s.alpha * (2.0 * self.kinetic_energy(q, v))
        return P

    # ------------------------------------------------------------------ matrices
    def _pattern(self) -> None:
        """Fixed sparsity pattern of the saddle-point matrix, in band storage (RCM order)."""
        s, n, m = self.sys, self.n, self.m
        idx = s.elem_dofs
        er = np.repeat(idx, 6, axis=1).ravel()
        ec = np.tile(idx, (1, 6)).ravel()
        dr = np.arange(n)
        gr, gc = s.constraints.rows + n, s.constraints.cols
        xr = [np.repeat(p.dofs, len(p.dofs)) for p in self.force_pairs]  # row-major on each pair's dofs
        xc = [np.tile(p.dofs, len(p.dofs)) for p in self.force_pairs]
        mr, mc = s.modal.pattern()
        self.size = n + m
        self.band = BandPattern(np.concatenate([er, dr, gr, gc, *xr, mr]).astype(np.int64),
                                np.concatenate([ec, dr, gc, gr, *xc, mc]).astype(np.int64), self.size)

    def factorize(self, blocks: np.ndarray, diag: np.ndarray, G_vals: np.ndarray, scale: float) -> BandLU:
        """LU factors of the saddle-point matrix with the given values (no force-element blocks;
        the modal links' blocks of the last :meth:`forces` with blocks)."""
        values = matrix_values(blocks, diag, G_vals, scale, np.zeros(self.extra_size))
        return BandLU.of(self.band, np.concatenate((values, self.modal[BLOCKS].ravel())))


    def factor_mass_by_cholesky(self) -> None:
        """From now on factorise the constrained mass matrix by Cholesky and the constraints' Schur
        complement (:mod:`.mass_cholesky`; the time loop asks for it in runs with velocity jumps),
        where that applies and pays: no modal links, at most :data:`MAX_CONSTRAINTS` constraint rows,
        at least :data:`MIN_DOFS` dofs, and until a mass matrix is not positive definite."""
        if not self.sys.modal.links and self.m <= MAX_CONSTRAINTS and self.n >= MIN_DOFS:
            cons = self.sys.constraints
            self._mass_pattern = MassPattern(self.sys.elem_dofs, self.n, cons.rows, cons.cols, cons.count)

    def mass_factors(self, q: np.ndarray, t: float) -> tuple[BandLU | MassCholesky, float]:
        """Factors of the constrained mass matrix ``[M  s G^T; s G  0]`` at ``(q, t)`` and its
        scale ``s``: the matrix of consistent accelerations and of the velocity jumps of
        impulses (thesis eqs. 3.10-3.21).  The band LU with ``s`` of :func:`newton_scale`, or
        after :meth:`factor_mass_by_cholesky` the Cholesky factors of :mod:`.mass_cholesky`
        with ``s = 1``.  The last one is remembered: an impulse, a second impulse at the same
        instant and the restart after them factorise it once."""
        memo = self._mass_memo
        if memo is not None and memo[0] == t and np.array_equal(memo[1], q):
            return memo[2], memo[3]
        if self._mass_pattern is not None:  # the Cholesky factors, where they apply
            self.set_time(t)
            factors = MassCholesky.of(self._mass_pattern, self, q)
            if factors is not None:
                self._mass_memo = (t, q.copy(), factors, 1.0)
                return factors, 1.0
            self._mass_pattern = None  # not positive definite: the band LU from now on
        if self.sys.modal.links:  # their mass blocks come with an evaluation of the forces
            zero = np.zeros(self.n)
            _f, B, diag = self.forces(q, zero, zero, t, blocks=(1.0, 0.0, 0.0))
            scale = newton_scale(B, diag)
            lu = self.factorize(B, diag, self.sys.constraints.values(q), scale)
        else:  # the same blocks (c_a = 1, c_v = c_k = 0), without the forces and the stiffness
            self.set_time(t)
            p, s = self.band, self.sys
            AB = np.empty((p.ldab, p.size), order="F")
            ipiv = np.empty(p.size, dtype=np.int64)
            scale, singular = mass_factorize(q, s.elem_dofs, self.secs, self.Mbar, self.form, s.mass_diag,
                                             s.constraints.values(q), self.extra_size, p.band_row, p.band_col,
                                             self._band_pos, AB, p.kl, p.ku, ipiv, BandLU.PIVOT_RATIO)
            lu = BandLU(p, AB, ipiv, singular)
        self._mass_memo = (t, q.copy(), lu, scale)
        return lu, scale


def global_matrix(asm: Assembly, q: np.ndarray, t: float, blocks: tuple[float, float, float]) -> sp.csr_matrix:
    """The global matrix ``c_a M + c_v C + c_k K_T`` of ``blocks = (c_a, c_v, c_k)`` at rest in
    configuration ``q``, sparse (n, n): the beams' element blocks, the modal links' and the
    diagonal (``(1, 0, 0)``: the mass matrix, eq. 2.32)."""
    n = asm.n
    zero = np.zeros(n)
    _f, B, diag = asm.forces(q, zero, zero, t, blocks=blocks)
    idx = asm.sys.elem_dofs
    mr, mc = asm.sys.modal.pattern()
    rows = np.concatenate([np.repeat(idx, 6, axis=1).ravel(), mr, np.arange(n)])
    cols = np.concatenate([np.tile(idx, (1, 6)).ravel(), mc, np.arange(n)])
    values = np.concatenate([B.ravel(), asm.modal[BLOCKS].ravel(), diag])
    return sp.csr_matrix((values, (rows, cols)), shape=(n, n))  # duplicates are summed


def dense_matrices(asm: Assembly, q: np.ndarray, t: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Global mass ``M`` (eq. 2.32) and tangent stiffness ``K_T`` at rest in configuration ``q``,
    dense (n, n): for modal analysis and small static problems."""
    return (global_matrix(asm, q, t, (1.0, 0.0, 0.0)).toarray(), global_matrix(asm, q, t, (0.0, 0.0, 1.0)).toarray())
