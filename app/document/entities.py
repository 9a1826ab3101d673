"""Entities of a model document: how views name, find, group and describe them.

Plain Python, no Qt: the tree, the canvas and the property view all address an
entity by an :class:`EntityRef` -- the collection it lives in and its id -- never by
a list index, so a reference stays valid while other entities are added or removed.
An initial velocity, which has no id, goes by the id of the node, link or body it
starts (its path, what the validator writes and ``--vary`` reads, names it by its index:
:func:`entity_text`); the model's own fields (name, gravity...) and the solver settings are the
two entities of the pseudo-collection :data:`SETTINGS`.

>>> doc = {"nodes": [{"id": "O", "x": 0.0, "y": 0.0}]}
>>> find_entity(doc, EntityRef("nodes", "O"))
(0, {'id': 'O', 'x': 0.0, 'y': 0.0})
>>> describe("nodes", doc["nodes"][0])
'(0, 0) m'
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.model.paths import item_label
from solver.model.validate import format_path

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
    ("Moving", "moving"),
    ("Contacts", "contacts"),
    ("Initial velocities", "initial_velocities"),
)

#: the pseudo-collection of the model's own fields and of the solver settings
SETTINGS = "settings"
#: the model's own fields shown as the ``settings[model]`` entity
MODEL_FIELDS = ("name", "description", "source", "gravity", "damping")


@dataclass(frozen=True)
class EntityRef:
    """An entity of the document: its collection (``"links"``) and its id (``"rod"``)."""

    collection: str
    id: str

    def __str__(self) -> str:
        """The entity's path as the validator writes it: ``links[rod]``, ``links["a[b]"]`` (an id bare
        text would not read back, quoted: :func:`~solver.model.paths.item_label`); an initial velocity's
        is by its index, which only the document knows (:func:`entity_text`)."""
        return f"{self.collection}{item_label(self.id)}"


MODEL_SETTINGS = EntityRef(SETTINGS, "model")
SOLVER_SETTINGS = EntityRef(SETTINGS, "solver")


def entity_id(collection: str, item: dict) -> str:
    """The id an entity goes by: its own, or for an initial velocity its node's, link's or body's.

    >>> entity_id("initial_velocities", {"body": "block", "vx": -15.0})
    'block'
    """
    if collection == "initial_velocities":
        return item.get("node") or item.get("link") or item.get("body") or ""
    return item["id"]


def entity_refs(doc: dict, collection: str) -> list[EntityRef]:
    """References to every entity of one collection, in document order."""
    return [EntityRef(collection, entity_id(collection, item)) for item in doc.get(collection, [])]


def find_entity(doc: dict, ref: EntityRef) -> tuple[int, dict] | None:
    """``(index, item)`` of the entity ``ref`` names, or None if the document has none."""
    for index, item in enumerate(doc.get(ref.collection, [])):
        if entity_id(ref.collection, item) == ref.id:
            return index, item
    return None


def entity_path(doc: dict, ref: EntityRef) -> list | None:
    """Keys of the entity in the document: ``["links", 1]``; ``[]`` for the model's own
    fields and ``["solver"]`` for the solver settings; None if there is no such entity.

    >>> entity_path({"links": [{"id": "crank"}, {"id": "rod"}]}, EntityRef("links", "rod"))
    ['links', 1]
    """
    if ref.collection == SETTINGS:
        return {"model": [], "solver": ["solver"]}.get(ref.id)
    found = find_entity(doc, ref)
    return None if found is None else [ref.collection, found[0]]


def entity_text(doc: dict, ref: EntityRef) -> str:
    """The entity's path as the validator writes it and ``--vary`` reads it: ``str(ref)``, save for
    an initial velocity, named by its index rather than by the id it goes by here.

    >>> doc = {"initial_velocities": [{"node": "A"}, {"body": "block", "vx": -15.0}]}
    >>> entity_text(doc, EntityRef("initial_velocities", "block")), entity_text(doc, EntityRef("nodes", "A"))
    ('initial_velocities[1]', 'nodes[A]')
    """
    path = entity_path(doc, ref) if ref.collection != SETTINGS else None
    return format_path(doc, path) if path else str(ref)


#: an initial velocity's fields and their units, as the model tree lists them
_VELOCITY_UNITS = (("vx", "m/s"), ("vy", "m/s"), ("omega", "rad/s"))


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
    if collection == "moving":
        return f"{kind} along {item['link']}"
    if collection == "contacts":
        point = item["point"].get("node") or item["point"].get("body")
        return f"{point} against {item['target']['kind']}"
    if collection == "initial_velocities":
        parts = [f"{key} = {_num(item[key])} {unit}" for key, unit in _VELOCITY_UNITS if item.get(key)]
        return ", ".join(parts) or "at rest"
    return kind
