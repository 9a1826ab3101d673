"""The impulses of a contact pair at the instants they act, from the event log.

A frame's ``I_n_N_s``, ``I_t_N_s`` are the impulses applied since the previous frame
(``docs/results-format.md``): they stand at the frame's time, the output time after the impact,
up to an output interval after it.  The event log has each
impulse of a momentum-balance pair (thesis ch. 3, eqs. 3.8-3.30) and each onset jump of a
Lagrange pair (thesis §4.7) with its own time, so a plot draws its stems there, and a reading
at an event's time gives the impulses of that instant, not the zero of the frame before it.
A compliant pair logs no impulses: its series is the integral of its force over each frame
interval (:func:`impulse_instants` returns None), read at the frames.

>>> events = [{"time_s": 0.1526, "kind": "impulse", "contact": "tip", "I_n_N_s": 1.44, "I_t_N_s": -0.13},
...           {"time_s": 0.1536, "kind": "separation", "contact": "tip"}]
>>> impulse_instants(events, "contact/tip/I_n")
(array([0.1526]), array([1.44]))
>>> impulse_at(impulse_instants(events, "contact/tip/I_t"), 0.1526), impulse_at(impulse_instants(events, "contact/tip/I_t"), 0.15)
(-0.13, 0.0)
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable

import numpy as np

from .series import Series

#: the event key of each impulsive contact series (``contact/<pair>/I_n``: the normal impulse, N s)
EVENT_KEYS = {"I_n": "I_n_N_s", "I_t": "I_t_N_s"}

#: times closer than this fraction of their size (and at least this many seconds) are one
#: instant: an event's time and the time a playback cursor or a table selection carries
SAME_INSTANT = 1e-12


def impulse_instants(events: Iterable[dict[str, Any]], key: str,
                     until: float = np.inf) -> tuple[np.ndarray, np.ndarray] | None:
    """The impulses of series ``key`` (``contact/<pair>/I_n`` or ``I_t``) at their instants: the
    times (s) of its pair's events of kind ``impulse`` up to ``until`` (s) and the impulses (N s),
    those of one instant summed (as a frame sums them).  None when ``key`` is no impulse series or
    its pair logged no impulse (a compliant pair: its impulses are read at the frames)."""
    head, _, name = key.rpartition("/")
    kind, _, pair = head.partition("/")
    if kind != "contact" or name not in EVENT_KEYS:
        return None
    hits = [(e["time_s"], e.get(EVENT_KEYS[name]) or 0.0) for e in events
            if e.get("kind") == "impulse" and e.get("contact") == pair and e["time_s"] <= until]
    if not hits:
        return None
    times, values = np.array(hits, dtype=float).T
    instants, which = np.unique(times, return_inverse=True)
    return instants, np.bincount(which, weights=values, minlength=len(instants))


def acting_at(instants: tuple[np.ndarray, np.ndarray], t: float) -> np.ndarray:
    """Which of ``instants`` (:func:`impulse_instants`) act at time ``t`` (s): within
    :data:`SAME_INSTANT` of it (a boolean mask)."""
    return np.abs(instants[0] - t) <= SAME_INSTANT * max(abs(t), 1.0)


def impulse_at(instants: tuple[np.ndarray, np.ndarray], t: float) -> float:
    """The impulse (N s) of ``instants`` (:func:`impulse_instants`) acting at time ``t`` (s), 0
    between them."""
    return float(instants[1][acting_at(instants, t)].sum())


def snapped_time(frame_times: np.ndarray, instants: np.ndarray, t: float) -> float:
    """Where a time cursor dragged to ``t`` (s) stands: the last of the frames' times and the drawn
    impulses' ``instants`` (s) at or before ``t`` (the first frame before the first), so that a
    cursor dragged onto a stem reads its impulse, not the zero of the frame before it.

    >>> snapped_time(np.array([0.15, 0.155]), np.array([0.1526]), 0.153), snapped_time(np.array([0.15, 0.155]), np.array([0.1526]), 0.156)
    (0.1526, 0.155)
    """
    frame = frame_times[max(int(np.searchsorted(frame_times, t, side="right")) - 1, 0)]
    earlier = instants[instants <= t]
    return float(max(frame, earlier.max())) if earlier.size else float(frame)


def event_time_axis(time: Series) -> Series:
    """The abscissa of impulses drawn at their events' instants: the time axis ``time`` named
    ``event time`` (its CSV column ``event_time_s``, beside the frames' ``time_s``)."""
    return replace(time, key="event_time", label="event time")
