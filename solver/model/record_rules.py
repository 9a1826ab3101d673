"""Rules of ``solver.record`` that a schema cannot state: the entities it names.

Called by :func:`solver.model.validate.semantic_problems` on schema-valid documents with a
``bad(keys, message)`` callback.  ``record.links`` names flexible or modal links (a rigid link
has no elements to record; an unknown id the schema's reference check already refuses);
``record.contacts`` names contact pairs or clearance joints (a clearance joint is the contact
pair of its journal and bearing).
"""
from __future__ import annotations

from typing import Callable

Bad = Callable[[list, str], None]


def record_problems(doc: dict, bad: Bad) -> None:
    record = doc.get("solver", {}).get("record", {})
    kinds = {link["id"]: link.get("kind") for link in doc.get("links", [])}
    for i, link in enumerate(record.get("links", [])):
        if kinds.get(link) == "rigid":
            bad(["solver", "record", "links", i], f"link '{link}' is rigid: it has no elements to record")
    pairs = {c["id"] for c in doc.get("contacts", [])}
    pairs |= {j["id"] for j in doc.get("joints", []) if j.get("kind") == "clearance"}
    for i, pair in enumerate(record.get("contacts", [])):
        if pair not in pairs:
            bad(["solver", "record", "contacts", i], f"no contact pair or clearance joint with id '{pair}'")
