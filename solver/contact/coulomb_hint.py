"""Why a run with a compliant pair under Coulomb's friction law failed where the pair sticks.

Coulomb's law, Flores et al. 2006 eq. (13), ``F_t = -c_f F_n sign(v_t)``, has no sticking
state: its force jumps by ``2 c_f F_n`` as the slip velocity turns (:func:`.friction_laws.coulomb`,
"an integrator cannot step across its jump").  Where the contact would stick -- a disc that
has come to roll, a point held by a tangential load below ``c_f F_n`` -- the slip velocity
chatters about zero, Newton cannot converge across the jump, and the steps shrink until the
run stalls; no smaller step helps.  A disc (1 kg, r = 10 mm) thrown at 0.3 m/s along a
floor with ``c_f = 0.5``, pushed along it by gravity of 2 m/s^2: it rolls from 20.8 ms on and
its run stalled at 22.5 ms (2000 steps of 3.3e-7 s on average, a slip velocity of 1-5 um/s),
with the advice to try a smaller step; at half the step it stalls the same.  Under
``rooney_deravi`` (a stick band), ``threlfall`` or ``ambrosio`` the runs complete.

:func:`coulomb_hint` says so when a run fails with such a pair closed and nearly sticking at
the last sound state.

The other laws are continuous, but steep about rest: their force turns by ``c_f F_n`` over a slip of
``friction_velocity`` (Ambrosio's v0 to v1, with kinks at both; Rooney-Deravi's band; Threlfall's
``v_r``), a tangential damping of ``c_f F_n / friction_velocity`` that a point pressed hard enough
cannot be stepped across by Newton at the run's step: a disc (0.5 kg, r = 10 mm) pressed 2.4 mm
into a turning link (1200 N, Hertz) under Ambrosio's law (c_f = 0.5, 6.7e5 N s/m between v0 and v1)
stalled at 3.29 ms with its slip at the law's v0; at half or a quarter of the step it completes, and with
v0, v1 ten times larger at its step.  No step may do: the flexible slider-crank's clearance joint (journal 0.1 mm
smaller than its bearing, Dubowsky-Freudenstein, c_f = 0.2 under Threlfall's law, 4 kN: 8e6 N s/m) stalled at
5.40, 5.34 and 5.61 ms at its step, half and a quarter of it, and completes with ``v_r`` ten times larger.
:func:`band_hint` names such pairs in a failed run's message, their damper ``c_f F_n / friction_velocity``,
and the two remedies, the wider band first.

>>> STICKING_SPEEDS
10.0
"""
from __future__ import annotations

#: a closed pair slipping slower than this many times its ``friction_velocity`` is nearly
#: sticking (the stalled disc: 1-5 um/s; two flexible links struck tip to side: 5-250 um/s,
#: against the default 100 um/s)
STICKING_SPEEDS = 10.0


def coulomb_hint(tracker, st) -> str | None:
    """The closed compliant pairs under Coulomb's law that were nearly sticking at ``st`` (the
    last accepted state of a failed run), and what to choose instead, in words; otherwise None.
    ``tracker``: the run's :class:`~solver.contact.tracker.ContactTracker` (its pairs, with the
    compliant ``model`` of each and ``mu_d`` its c_f, and their frame columns at ``st``:
    ``F_n_N``, N, ``v_t_m_s``, m/s); nothing is evaluated for a run without such a pair."""
    stuck = near_rest(tracker, st, lambda p: p.model.get("friction_law") == "coulomb")
    if not stuck:
        return None
    named = ", ".join(f"'{tracker.pairs[k].id}' (slip velocity {v:.2g} m/s)" for k, v, _F in stuck)
    return (f"contact {named} was closed and nearly sticking under the coulomb friction law, whose force jumps "
            "from -c_f F_n to +c_f F_n as the slip turns: it has no sticking state, so the slip chatters about "
            "zero and no step, however small, crosses the jump; give the pair the rooney_deravi law (Coulomb with "
            "a stick band of friction_velocity), threlfall or ambrosio")


def band_hint(tracker, st) -> str | None:
    """The closed compliant pairs under the continuous friction laws (not ``coulomb``) that slipped within
    :data:`STICKING_SPEEDS` ``friction_velocity`` at ``st`` (the last accepted state of a failed run),
    where the law's force is steepest, and what to try, in words; otherwise None (``tracker`` as
    :func:`coulomb_hint` has it)."""
    near = near_rest(tracker, st, lambda p: p.model_kind == "compliant" and p.model.get("friction_law") != "coulomb")
    if not near:
        return None
    pairs = tracker.pairs
    named = ", ".join(f"'{pairs[k].id}' ({pairs[k].model['friction_law']} friction, slip velocity {v:.2g} m/s, "
                      f"normal force {F:.3g} N: a tangential damper of "
                      f"{pairs[k].mu_d * F / pairs[k].model['friction_velocity']:.2g} N s/m)" for k, v, F in near)
    band = ("friction_velocity and friction_velocity_1" if any(pairs[k].model["friction_law"] == "ambrosio"
                                                            for k, _v, _F in near) else "friction_velocity")
    return (f"compliant contact {named} was closed and slipping near rest, where its friction law turns by c_f F_n "
            f"over a slip of friction_velocity: pressed hard, that damper is too stiff for Newton, at this step and "
            f"perhaps at any; widen the law's band ({band} times 10: a damper ten times softer), or "
            f"halve solver.step, which may pass here")


def near_rest(tracker, st, chosen) -> list[tuple[int, float, float]]:
    """``(k, v_t m/s, F_n N)`` of each frictional pair ``k`` of ``tracker`` that ``chosen(pair)`` takes, closed
    (``F_n > 0``) and slipping slower than :data:`STICKING_SPEEDS` ``friction_velocity`` at ``st``; the frame
    columns are evaluated only where a pair is chosen."""
    ks = [k for k, p in enumerate(tracker.pairs) if p.mu_d > 0.0 and chosen(p)]
    if not ks:
        return []
    data = tracker.frame_data(st)
    return [(k, float(data["v_t_m_s"][k]), float(data["F_n_N"][k])) for k in ks if data["F_n_N"][k] > 0.0
            and abs(data["v_t_m_s"][k]) < STICKING_SPEEDS * tracker.pairs[k].model["friction_velocity"]]
