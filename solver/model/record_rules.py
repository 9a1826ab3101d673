"""Rules of ``solver.record`` that a schema cannot state: the entities it names.

Called by :func:`solver.model.validate.semantic_problems` on schema-valid documents with a
``bad(keys, message)`` callback.  ``record.links`` names flexible or modal links (a rigid link
has no elements to record; an unknown id the schema's reference check already refuses);
``record.contacts`` names contact pairs, clearance joints (a clearance joint is the contact
pair of its journal and bearing) or the corners of translational clearance joints (a pair each,
``<joint>.<corner>``, :mod:`.translational_rules`).
"""
from __future__ import annotations

from typing import Callable

from .translational_rules import corner_pair_ids, translational_joints

Bad = Callable[[list, str], None]


def record_problems(doc: dict, bad: Bad) -> None:
    record = doc.get("solver", {}).get("record", {})
    kinds = {link["id"]: link.get("kind") for link in doc.get("links", [])}
    for i, link in enumerate(record.get("links", [])):
        if kinds.get(link) == "rigid":
            bad(["solver", "record", "links", i], f"link '{link}' is rigid: it has no elements to record")
    pairs = contact_pair_ids(doc)
    for i, pair in enumerate(record.get("contacts", [])):
        if pair not in pairs:
            bad(["solver", "record", "contacts", i],
                f"no contact pair, clearance joint or slider corner with id '{pair}'")


def contact_pair_ids(doc: dict) -> set[str]:
    """Ids of the contact pairs a run of ``doc`` has: its contacts, its clearance joints and the
    corners of its translational clearance joints."""
    pairs = {c.get("id") for c in doc.get("contacts", [])}
    pairs |= {j.get("id") for j in doc.get("joints", []) if j.get("kind") == "clearance"}
    return pairs | {pair for j in translational_joints(doc) for pair in corner_pair_ids(j)}
