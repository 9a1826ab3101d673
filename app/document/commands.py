"""Undo commands: the only way the GUI changes a model document.

Each command changes ``document.model`` in place through :mod:`app.document.edits`, keeps what
it needs to undo exactly, and tells the document it changed.  Their texts name what
they did ("Set links[rod].section.d", "Add node N3", "Delete link rod") and appear in
the Edit menu and the undo history.
"""
from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QUndoCommand

from . import edits
from .entities import EntityRef, entity_path, entity_text, find_entity
from .new_entities import compliant_contact, toggled_link

if TYPE_CHECKING:
    from .model_document import ModelDocument

#: id shared by the moves of one drag, so that they merge into one history entry
MOVE_ID = 1

_SINGULAR = {"bodies": "body", "masses": "mass", "initial_velocities": "initial velocity"}


def singular(collection: str) -> str:
    """``"links"`` -> ``"link"``; ``"bodies"`` -> ``"body"``."""
    return _SINGULAR.get(collection, collection.removesuffix("s"))


def _index(doc: dict, ref: EntityRef) -> int:
    found = find_entity(doc, ref)
    if found is None:
        raise KeyError(f"the model has no {ref}")
    return found[0]


class _DocumentCommand(QUndoCommand):
    """A command on a document; subclasses implement :meth:`apply` and :meth:`revert`."""

    def __init__(self, document: ModelDocument, text: str):
        super().__init__(text)
        self.document = document

    def redo(self) -> None:
        self.apply(self.document.model)
        self.document.notify_changed()

    def undo(self) -> None:
        self.revert(self.document.model)
        self.document.notify_changed()

    def apply(self, doc: dict) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def revert(self, doc: dict) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class SetFields(_DocumentCommand):
    """Set one or more fields; ``changes`` is a list of ``(keys, value)``, value MISSING deletes."""

    def __init__(self, document: ModelDocument, changes: list[tuple[list, Any]], text: str):
        super().__init__(document, text)
        self.changes = [(list(keys), copy.deepcopy(value)) for keys, value in changes]
        self._undo: list = []

    def apply(self, doc: dict) -> None:
        self._undo = [edits.set_value(doc, keys, value) for keys, value in self.changes]

    def revert(self, doc: dict) -> None:
        for undo in reversed(self._undo):
            edits.restore(doc, undo)


def set_field(document: ModelDocument, ref: EntityRef, keys: list, value: Any, text: str | None = None) -> SetFields:
    """Set ``keys`` (e.g. ``["section", "d"]``) of the entity ``ref``: "Set links[rod].section.d";
    an object that was absent is "Add links[rod].free_strains", one set to MISSING "Remove ...".

    Empty ``keys`` replace the whole entity.
    """
    path = entity_path(document.model, ref)
    if path is None:
        raise KeyError(f"the model has no {ref}")
    dotted = "".join(f".{k}" for k in keys)
    old = edits.get_value(document.model, [*path, *keys])
    verb = "Set"
    if keys and isinstance(value, dict) and old is edits.MISSING:
        verb = "Add"
    elif keys and value is edits.MISSING and isinstance(old, dict):
        verb = "Remove"
    return SetFields(document, [([*path, *keys], value)], text or f"{verb} {entity_text(document.model, ref)}{dotted}")


class MoveNodes(SetFields):
    """Move nodes to new positions; successive moves of the same nodes merge (one drag, one entry).

    Moves merge only if they carry the same ``drag`` number, so two drags of one node
    are two entries.  ``collection="bodies"`` moves free bodies (their x, y) instead.
    """

    def __init__(self, document: ModelDocument, positions: dict[str, tuple[float, float]], drag: int = 0,
                 collection: str = "nodes"):
        doc = document.model
        changes = []
        for node_id, (x, y) in positions.items():
            i = _index(doc, EntityRef(collection, node_id))
            changes += [([collection, i, "x"], float(x)), ([collection, i, "y"], float(y))]
        ids = list(positions)
        text = f"Move {singular(collection)} {ids[0]}" if len(ids) == 1 else f"Move {len(ids)} {collection}"
        super().__init__(document, changes, text)
        self.moved = frozenset((collection, i) for i in ids)
        self.drag = drag

    def id(self) -> int:  # noqa: A003 (Qt override)
        return MOVE_ID

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt override)
        if not isinstance(other, MoveNodes) or (other.moved, other.drag) != (self.moved, self.drag):
            return False
        self.changes = other.changes  # keep our own undo data: the positions before the first move
        return True


class AddEntity(_DocumentCommand):
    """Append an entity to its collection (creating the collection if the file had none)."""

    def __init__(self, document: ModelDocument, collection: str, item: dict, text: str | None = None):
        label = item.get("id", "")
        super().__init__(document, text or f"Add {singular(collection)} {label}".rstrip())
        self.collection = collection
        self.item = copy.deepcopy(item)
        self._created = False

    def apply(self, doc: dict) -> None:
        self._created = self.collection not in doc
        doc.setdefault(self.collection, []).append(copy.deepcopy(self.item))

    def revert(self, doc: dict) -> None:
        doc[self.collection].pop()
        if self._created:
            del doc[self.collection]


class RemoveEntities(_DocumentCommand):
    """Remove entities and everything that refers to them; undo puts all back where it was."""

    def __init__(self, document: ModelDocument, refs: list[EntityRef]):
        refs = list(dict.fromkeys(refs))
        if len(refs) == 1:
            text = f"Delete {singular(refs[0].collection)} {refs[0].id}"
        else:
            text = f"Delete {len(refs)} entities"
        super().__init__(document, text)
        self.refs = refs
        self._removed: list = []

    def apply(self, doc: dict) -> None:
        positions: set[tuple[str, int]] = set()
        for ref in self.refs:
            positions.update(edits.dependents(doc, ref.collection, ref.id))
        self._removed = edits.remove_items(doc, sorted(positions))

    def revert(self, doc: dict) -> None:
        edits.reinsert(doc, self._removed)

    @property
    def removed_refs(self) -> list[EntityRef]:
        """What the last :meth:`redo` removed (the entities asked for and their dependents)."""
        return [EntityRef(coll, item["id"]) for coll, _i, item in self._removed if "id" in item]


class ReplaceEntity(_DocumentCommand):
    """Replace an entity by another version of it (a change of kind)."""

    def __init__(self, document: ModelDocument, ref: EntityRef, item: dict, text: str):
        super().__init__(document, text)
        self.ref = ref
        self.item = copy.deepcopy(item)
        self._old: tuple[int, dict] | None = None

    def apply(self, doc: dict) -> None:
        index = _index(doc, self.ref)
        self._old = (index, doc[self.ref.collection][index])
        doc[self.ref.collection][index] = copy.deepcopy(self.item)

    def revert(self, doc: dict) -> None:
        index, old = self._old
        doc[self.ref.collection][index] = old


class Compound(QUndoCommand):
    """Several commands as one history entry: done in order, undone in reverse.

    (Python-side, not Qt child commands: PySide6 does not keep a child's Python object alive.)
    """

    def __init__(self, text: str, parts: list[QUndoCommand]):
        super().__init__(text)
        self.parts = parts

    def redo(self) -> None:
        for part in self.parts:
            part.redo()

    def undo(self) -> None:
        for part in reversed(self.parts):
            part.undo()


def rename_entity(document: ModelDocument, ref: EntityRef, new_id: str) -> SetFields:
    """Give an entity a new id and update every reference to it: "Rename node A to P"."""
    changes = edits.rename_changes(document.model, ref.collection, ref.id, new_id)
    return SetFields(document, changes, f"Rename {singular(ref.collection)} {ref.id} to {new_id}")


def toggle_link_kind(document: ModelDocument, link_id: str, kind: str | None = None) -> QUndoCommand:
    """"Make link rod rigid" / "Make link rod flexible" / "Make link rod modal" (adding steel
    when the model has no material for its section: one history entry for both); without
    ``kind``, rigid <-> flexible."""
    ref = EntityRef("links", link_id)
    link = document.model["links"][_index(document.model, ref)]
    new, material = toggled_link(document.model, link, kind)
    return _replace_adding(document, ref, new, material, f"Make link {link_id} {new['kind']}")


def _replace_adding(document: ModelDocument, ref: EntityRef, new: dict, material: dict | None,
                    text: str) -> QUndoCommand:
    """Replace the entity by ``new``, adding ``material`` first when there is one (one entry)."""
    if material is None:
        return ReplaceEntity(document, ref, new, text)
    return Compound(text, [AddEntity(document, "materials", material), ReplaceEntity(document, ref, new, text)])


def make_compliant(document: ModelDocument, contact_id: str) -> QUndoCommand:
    """"Make contact pair c compliant": its model, the surfaces' materials and the point's
    radius (:func:`.new_entities.compliant_contact`), with steel added when the model has no
    material (one history entry for both)."""
    ref = EntityRef("contacts", contact_id)
    new, material = compliant_contact(document.model, document.model["contacts"][_index(document.model, ref)])
    return _replace_adding(document, ref, new, material, f"Make contact pair {contact_id} compliant")
