"""Which entities a run records: ``solver.record.links``, ``contacts`` and ``moving``.

Each is a list of the model's ids; absent, every entity of its kind is recorded, ``[]`` none.
A run's full :class:`~solver.results.frames.Layout` (every entity of the system) becomes the
layout of its frames by keeping the chosen entities only; a :class:`Selection` holds the
indices that cut each frame array of the full system down to them.  What is always recorded,
whatever the choice: the positions and rotations of every node (the mesh nodes of unrecorded
links too), so that playback draws the whole mechanism; an unrecorded flexible link keeps its
chain of mesh nodes in ``Layout.unrecorded_links``.  Drivers and the energy ledger are
always recorded (one small row per frame).

>>> from solver.results.frames import Layout
>>> full = Layout(nodes=["A", "rod.1", "B"], rotations=[], elements=[("rod", 0, "A", "rod.1"), ("rod", 1, "rod.1", "B")],
...               element_length=np.array([0.5, 0.5]), outer_fibre=np.array([0.01, 0.01]), flexible_links=["rod"],
...               drivers=[], contacts=["tip"])
>>> layout, chosen = select(full, {"links": [], "contacts": ["tip"]})
>>> layout.elements, layout.unrecorded_links, chosen.contacts.tolist()
([], {'rod': (['A', 'rod.1', 'B'], [0.0, 0.5, 1.0])}, [0])
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .frames import Layout

#: ``solver.record`` fields that choose entities: field -> the Layout list of those entities
ENTITY_FIELDS = {"links": "flexible_links", "contacts": "contacts", "moving": "moving"}


@dataclass(frozen=True)
class Selection:
    """Indices of the recorded entities in the full system's frame arrays."""

    elements: np.ndarray  # (E_recorded,) into the system's elements (corotational, then modal)
    links: np.ndarray  # into the flexible links (mid-span deflection)
    modes: np.ndarray  # into the modal coordinates
    contacts: np.ndarray  # into the contact pairs
    moving: np.ndarray  # into the moving supports, masses and forces
    everything: bool  # whether every entity is recorded (nothing to cut)


def _chosen(ids: list[str], wanted: list[str] | None) -> np.ndarray:
    """Indices of ``ids`` that ``wanted`` names, in the order of ``ids`` (all when ``wanted`` is None)."""
    if wanted is None:
        return np.arange(len(ids), dtype=int)
    names = set(wanted)
    return np.array([i for i, x in enumerate(ids) if x in names], dtype=int)


def select(full: Layout, record: dict) -> tuple[Layout, Selection]:
    """The layout of a run recording ``record`` (``solver.record``) and the indices that cut
    frames of the full system down to it."""
    links = _chosen(full.flexible_links, record.get("links"))
    kept = {full.flexible_links[i] for i in links}
    elements = np.array([e for e, el in enumerate(full.elements) if el[0] in kept], dtype=int)
    modes = np.array([k for k, (link, _) in enumerate(full.modes) if link in kept], dtype=int)
    contacts = _chosen(full.contacts, record.get("contacts"))
    moving = _chosen(full.moving, record.get("moving"))
    chains = full.chains()
    unrecorded = {link: (nodes, fractions.tolist()) for link, (nodes, fractions, _ids) in chains.items()
                  if link not in kept}
    layout = replace(
        full,
        elements=[full.elements[e] for e in elements],
        element_length=full.element_length[elements],
        outer_fibre=full.outer_fibre[elements],
        flexible_links=[full.flexible_links[i] for i in links],
        modes=[full.modes[k] for k in modes],
        mode_frequency=full.mode_frequency[modes],
        contacts=[full.contacts[i] for i in contacts],
        moving=[full.moving[i] for i in moving],
        force_windows={full.contacts[i]: full.force_windows[full.contacts[i]] for i in contacts
                       if full.contacts[i] in full.force_windows},
        unrecorded_links={**full.unrecorded_links, **unrecorded},
    )
    everything = all(record.get(key) is None for key in ENTITY_FIELDS)
    return layout, Selection(elements, links, modes, contacts, moving, everything)
