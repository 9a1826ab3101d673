"""Which Lagrange-multiplier pairs were closed when a run failed, and what a user can try.

A Lagrange pair (thesis ch. 4) changes its rows only at the ends of steps: an onset, a release, a
stick or a slip (4.6-4.9), a hand-over to the next segment of a link target.  A step that cannot
be taken from such a change (Newton failing, or the energy jumping in one step at every cut) is
tied to where the steps fell and to the target's mesh, so a neighbouring step or mesh may pass
where this one failed (the struck 8-element cantilever of ``tests/oracles/found_defects.json``,
before its fix: 4 or 16 elements, or half the step, completed).  :func:`closed_hint` names the
pairs and their modes in the failure's message, with that advice.
"""
from __future__ import annotations

#: the words for a closed pair's mode (:data:`~solver.contact.lagrange.SLIDE`, ``STICK``)
MODE_WORDS = {1: "sliding", 2: "sticking"}


def closed_pairs(tracker) -> list[tuple[str, int]]:
    """``(id, mode)`` of the Lagrange pairs closed in ``tracker`` (a
    :class:`~solver.contact.tracker.ContactTracker`) at its last state, in its models' order."""
    return [(m.pairs[j].id, int(m.state[j])) for m in tracker.models if m.kind == "lagrange"
            for j in range(len(m.pairs)) if m.state[j]]


def closed_hint(tracker) -> str | None:
    """The Lagrange pairs closed at a failed run's last state, with their modes, and what to try,
    in words; None when none is closed.  ``tracker``: the run's
    :class:`~solver.contact.tracker.ContactTracker`."""
    closed = [f"'{pair}' ({MODE_WORDS[mode]})" for pair, mode in closed_pairs(tracker)]
    if not closed:
        return None
    return (f"Lagrange contact {', '.join(closed)} was closed: its switches are taken at the ends of steps, so "
            "halve solver.step, or refine the mesh of the link it touches, and the run may pass here")
