"""Entities of a model document: how views name, find, group and describe them.

Plain Python, no Qt: the tree, the canvas and the property view all address an
entity by an :class:`EntityRef` -- the collection it lives in and its id -- never by
a list index, so a reference stays valid while other entities are added or removed.

>>> doc = {"nodes": [{"id": "O", "x": 0.0, "y": 0.0}]}
>>> find_entity(doc, EntityRef("nodes", "O"))
(0, {'id': 'O', 'x': 0.0, 'y': 0.0})
>>> describe("nodes", doc["nodes"][0])
'(0, 0) m'
"""
from __future__ import annotations

from dataclasses import dataclass

#: the groups of the model tree: (title, collection), in display order
GROUPS: tuple[tuple[str, str], ...] = (
    ("Materials", "materials"),
    ("Nodes", "nodes"),
    ("Links", "links"),
    ("Joints", "joints"),
    ("Masses", "masses"),
    ("Bodies", "bodies"),
    ("Drivers", "drivers"),
    ("Loads", "loads"),
    ("Contacts", "contacts"),
)


@dataclass(frozen=True)
class EntityRef:
    """An entity of the document: its collection (``"links"``) and its id (``"rod"``)."""

    collection: str
    id: str

    def __str__(self) -> str:
        return f"{self.collection}[{self.id}]"


def entity_refs(doc: dict, collection: str) -> list[EntityRef]:
    """References to every entity of one collection, in document order."""
    return [EntityRef(collection, item["id"]) for item in doc.get(collection, [])]


def find_entity(doc: dict, ref: EntityRef) -> tuple[int, dict] | None:
    """``(index, item)`` of the entity ``ref`` names, or None if the document has none."""
    for index, item in enumerate(doc.get(ref.collection, [])):
        if item.get("id") == ref.id:
            return index, item
    return None


def _num(value: float) -> str:
    return f"{value:.6g}"


def describe(collection: str, item: dict) -> str:
    """A one-line summary of an entity for the model tree."""
    kind = item.get("kind", "")
    if collection == "materials":
        return f"E = {_num(item['E'])} Pa, ρ = {_num(item['density'])} kg/m³"
    if collection == "nodes":
        return f"({_num(item['x'])}, {_num(item['y'])}) m"
    if collection == "links":
        return f"{kind} {'–'.join(item['nodes'])}"
    if collection in ("joints", "masses", "loads"):
        label = kind or (f"{_num(item['mass'])} kg" if collection == "masses" else "load")
        return f"{label} at {item['node']}"
    if collection == "bodies":
        return f"{item.get('kind', 'point')} body, {_num(item['mass'])} kg"
    if collection == "drivers":
        where = f"{item['link']} about {item['pivot']}" if "link" in item else f"{item['node']} along {item['direction']}"
        return f"{kind} of {where}"
    if collection == "contacts":
        point = item["point"].get("node") or item["point"].get("body")
        return f"{point} against {item['target']['kind']}"
    return kind
