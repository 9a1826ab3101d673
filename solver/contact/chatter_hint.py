"""Which momentum-balance pairs chattered when a run failed, and which model holds such a contact.

The momentum-balance model (thesis ch. 3) meets a point that approaches its target with an
impulse at the end of the step, and holds no position.  Where the point stays pressed on the
target -- a body pushed along by a turning link, a block squeezed by a mechanism -- each step
ends with the point approaching again, and the pair strikes at every step while the contact
predictor (eq. 3.4) cuts the steps to its forecast, until the run stalls.  A smaller step
stalls the same: a generated body (0.2 kg) pushed by a rigid chain turning at 15 rad/s, e = 0,
struck 2007 times and stalled at 3.77 ms (the last 2000 steps 0.38 us each); at half and a
tenth of the step it stalled at 3.58 and 12.6 ms after 2016 and 2138 strikes; with the pair a
Lagrange pair (a multiplier holds the lasting contact) the run completes in 83 steps.
:func:`chatter_hint` says so when a run fails with one pair's strikes filling its last events.

>>> CHATTER_WINDOW, CHATTER_STRIKES
(200, 100)
"""
from __future__ import annotations

from collections import Counter

#: the last events of a failed run looked at
CHATTER_WINDOW = 200
#: strikes of one momentum-balance pair among them that make a chatter
CHATTER_STRIKES = 100


def chatter_hint(tracker) -> str | None:
    """The momentum-balance pairs whose strikes fill the last :data:`CHATTER_WINDOW` events of a failed
    run (:data:`CHATTER_STRIKES` or more each), and what to choose instead, in words; otherwise None.
    ``tracker``: the run's :class:`~solver.contact.tracker.ContactTracker` (its models and event log)."""
    struck = {p.id for m in tracker.models if m.kind == "impulse" for p in m.pairs}
    last = [e for e in tracker.events[-CHATTER_WINDOW:] if e.get("kind") == "impulse" and e.get("contact") in struck]
    counts = Counter(e["contact"] for e in last)
    chattering = [pid for pid, n in counts.items() if n >= CHATTER_STRIKES]
    if not chattering:
        return None
    total = Counter(e.get("contact") for e in tracker.events if e.get("kind") == "impulse")
    named = ", ".join(f"'{pid}' (struck {total[pid]} times, the last {counts[pid]} within "
                      f"{_span(last, pid):.3g} s)" for pid in chattering)
    return (f"momentum-balance contact {named} chattered: its points stay pressed together, and this model "
            "meets them with an impulse at the end of every step and holds no contact, so no step, however small, "
            "gets past it; give the pair the lagrange model, whose multiplier holds a lasting contact (or the "
            "compliant model, a force law)")


def _span(events: list[dict], pair: str) -> float:
    """The time (s) from the first to the last of ``pair``'s strikes among ``events``."""
    times = [e["time_s"] for e in events if e["contact"] == pair]
    return times[-1] - times[0]
