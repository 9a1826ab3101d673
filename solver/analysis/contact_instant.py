"""A contact pair at one instant: the system's inertia seen from the contact, its
approach velocity and its friction and restitution — what Routh's closed form needs.

The inertia is ``D = J M^-1 J^T`` with the joints and drivers held (thesis eqs.
3.10-3.21, LAJSS 2024 eq. 5), from :func:`solver.contact.jump.contact_inertia` at the
configuration of the instant, as the time loop forms it for an impulse there.  Three instants can be taken:

* the start of a model whose contact point touches its target
  (:func:`instant_at_start`),
* any time of a run, from its stored frame (:func:`instant_in_run`),
* an impulse of a run's event log, which records ``D`` and the approach velocity it
  was solved with (:func:`instant_from_event`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..contact.jump import contact_inertia
from ..model.paths import item_label
from ..results.frames import Frame, Results
from ..system.assembly import Assembly
from ..system.compile import compile_model
from ..system.initial import initial_state


class InstantError(ValueError):
    """No contact instant can be taken as asked (the message says why)."""


@dataclass(frozen=True)
class ContactInstant:
    """Contact ``contact`` at time ``time`` (s): ``D = [[a, c], [c_tn, b]]`` (1/kg and
    kg^-1 m^2 units of ``J M^-1 J^T``; ``c_tn`` None where ``D`` is symmetric, the
    ``D[1, 0]`` of an impulse a Lagrange pair held sliding through: its event's ``c_tn``),
    approach velocity ``(v_n0, v_t0)`` (m/s, ``v_n0 < 0`` approaching), friction
    coefficients, restitution and its law; ``source`` says where it was taken."""

    contact: str
    time: float
    a: float
    b: float
    c: float
    v_n0: float
    v_t0: float
    mu_s: float
    mu_d: float
    e: float
    law: str
    source: str
    c_tn: float | None = None

    @property
    def mu_c(self) -> float:
        """Critical friction coefficient ``|c_tn| / b`` (LAJSS eq. 14, general sign; thesis 3.37-3.38)."""
        return abs(self.c if self.c_tn is None else self.c_tn) / self.b

    def with_law(self, law: str | None) -> ContactInstant:
        """The same instant under another restitution law (``None`` keeps its own)."""
        return self if law is None else replace(self, law=law)


def instant_from_event(event: dict) -> ContactInstant:
    """The instant of an impulse event (``kind == 'impulse'``) of a run's event log."""
    if event.get("kind") != "impulse":
        raise InstantError(f"event at t = {event.get('time_s')} s is a {event.get('kind')}, not an impulse")
    return ContactInstant(
        contact=event["contact"], time=float(event["time_s"]), a=float(event["a"]), b=float(event["b"]),
        c=float(event["c"]), v_n0=float(event["v_n_pre_m_s"]), v_t0=float(event["v_t_pre_m_s"]),
        mu_s=float(event["mu_s"]), mu_d=float(event["mu_d"]), e=float(event["e"]), law=str(event["law"]),
        source=f"impulse of {event['contact']} at t = {float(event['time_s']):.6g} s",
        c_tn=float(event["c_tn"]) if event.get("c_tn") is not None else None)


def instant_at_start(model: dict, contact: str) -> ContactInstant:
    """The instant ``t = 0`` of ``model`` (its initial state, velocities made consistent
    with the joints and drivers) for contact pair ``contact``."""
    asm = Assembly(compile_model(model))
    s = initial_state(asm)
    return _instant(asm, s.q, s.v, 0.0, contact, "start of the model")


def instant_in_run(results: Results, contact: str, time: float) -> ContactInstant:
    """The instant of the last stored frame of ``results`` at or before ``time`` (s), a time within the
    run's frames (:class:`InstantError` otherwise: not the first or the last frame in its stead).
    A frame at the time of an impulse holds the state after it: take an earlier frame,
    or the impulse itself (:func:`instant_from_event`)."""
    if not results.frames:
        raise InstantError("the run has no frames")
    times = results.time
    if not times[0] <= time <= times[-1]:  # nan too
        raise InstantError(f"--time {time:g}: the run's frames are from {times[0]:g} to {times[-1]:g} s")
    i = max(int(np.searchsorted(times, time, side="right")) - 1, 0)
    asm = Assembly(compile_model(results.model))
    q, v = state_from_frame(asm, results.frames[i])
    return _instant(asm, q, v, float(times[i]), contact, f"frame at t = {times[i]:.6g} s")


def state_from_frame(asm: Assembly, frame: Frame) -> tuple[np.ndarray, np.ndarray]:
    """Generalised positions and velocities ``(q, v)`` of a stored frame.

    Frames hold the nodes and rotations; the centres of rigid links are found from
    their attachment constraints (``G`` and the velocity equations ``G v = -g_t``, least
    squares over the dofs a frame lacks)."""
    s, cons = asm.sys, asm.sys.constraints
    q, v = np.full(s.n, np.nan), np.full(s.n, np.nan)
    q[s.node_dofs], v[s.node_dofs] = frame.node_xy, frame.node_v
    q[s.rot_dofs], v[s.rot_dofs] = frame.rot, frame.rot_v
    missing = np.isnan(q)
    if missing.any():
        q[missing] = s.q0[missing]
        for _ in range(3):   # the attachments are linear in a body's centre: one step is exact
            G = cons.jacobian_dense(q, s.n)
            q[missing] += np.linalg.lstsq(G[:, missing], -cons.residual(q, frame.time), rcond=None)[0]
        G = cons.jacobian_dense(q, s.n)
        rhs = cons.velocity_rhs(frame.time) - G[:, ~missing] @ v[~missing]
        v[missing] = np.linalg.lstsq(G[:, missing], rhs, rcond=None)[0]
        scale = 1.0 + np.abs(q).max()
        if np.abs(cons.residual(q, frame.time)).max() > 1e-9 * scale:
            raise InstantError("the frames of this model do not determine its whole state")
    return q, v


def _instant(asm: Assembly, q: np.ndarray, v: np.ndarray, t: float, contact: str, source: str) -> ContactInstant:
    pairs = {p.id: p for p in asm.sys.contacts}
    if contact not in pairs:
        known = ", ".join(pairs) or "none"
        raise InstantError(f"contacts{item_label(contact)}: no such contact pair (the model has: {known})")
    pair = pairs[contact]
    if pair.model_kind == "compliant":
        raise InstantError(f"contacts{item_label(contact)}: a compliant contact resolves impacts by a force law, "
                           "not by Routh's impulses: it has no impulse types")
    geometry = pair.geometry(q)
    if not geometry.reachable:
        raise InstantError(f"contacts{item_label(contact)}: the point is beside its target at t = {t:.6g} s")
    _X, D = contact_inertia(asm, q, t, geometry.J)
    v_n0, v_t0 = (float(x) for x in geometry.J @ v)
    return ContactInstant(contact=contact, time=t, a=float(D[0, 0]), b=float(D[1, 1]), c=float(D[0, 1]),
                          v_n0=v_n0, v_t0=v_t0, mu_s=pair.mu_s, mu_d=pair.mu_d, e=pair.e, law=pair.law,
                          source=source)
