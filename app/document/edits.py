"""Edits of a model document as plain functions on the dict: set, insert, remove, find references.

Plain Python, no Qt.  The undo commands (:mod:`app.document.commands`) are thin wrappers that
call these and keep what they return to undo exactly: a field that was absent is
absent again after undo, a removed entity comes back at its old index.

>>> doc = {"nodes": [{"id": "A", "x": 0.0, "y": 0.0}]}
>>> old = set_value(doc, ["nodes", 0, "x"], 0.5)
>>> doc["nodes"][0]["x"], old
(0.5, (['nodes', 0, 'x'], 0.0))
>>> restore(doc, old); doc["nodes"][0]["x"]
0.0
"""
from __future__ import annotations

import copy
from typing import Any, Iterator

from solver.model.fields import Str, field_at
from solver.model.schema import COLLECTIONS, MODEL

from .entities import EntityRef, find_entity


class _Missing:
    """The value of a field the document does not have."""

    def __repr__(self) -> str:
        return "MISSING"

    def __deepcopy__(self, memo: dict) -> "_Missing":
        return self  # one sentinel, compared by identity


#: a field that is absent (setting a field to MISSING deletes it)
MISSING = _Missing()

#: collections that may refer to other entities, besides the id-carrying ones
REFERRING = COLLECTIONS + ("initial_velocities",)


def get_value(doc: Any, keys: list) -> Any:
    """The value at ``keys`` (MISSING if any step of the path is absent)."""
    node = doc
    for key in keys:
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
        else:
            return MISSING
    return node


def _put(doc: Any, keys: list, value: Any) -> None:
    parent = doc
    for key in keys[:-1]:
        parent = parent[key]
    if value is MISSING:
        del parent[keys[-1]]
    else:
        parent[keys[-1]] = value


def set_value(doc: dict, keys: list, value: Any) -> tuple[list, Any]:
    """Set the field at ``keys`` (creating absent parent objects); return what :func:`restore` needs.

    The returned ``(keys, old)`` names the shallowest part of the path that was
    absent (so undo removes the parents it created), else the field and its old value.
    """
    keys = list(keys)
    undo: tuple[list, Any] | None = None
    node = doc
    for depth, key in enumerate(keys[:-1]):
        if isinstance(node, dict) and key not in node:
            undo = undo or (keys[:depth + 1], MISSING)
            node[key] = {}
        node = node[key]
    if undo is None:
        undo = (keys, copy.deepcopy(get_value(doc, keys)))
    _put(doc, keys, copy.deepcopy(value))
    return undo


def restore(doc: dict, undo: tuple[list, Any]) -> None:
    """Undo :func:`set_value` with what it returned."""
    keys, old = undo
    _put(doc, keys, copy.deepcopy(old))


def iter_references(doc: dict, collection: str, index: int) -> Iterator[tuple[str, str]]:
    """``(collection, id)`` of every entity the item ``doc[collection][index]`` names.

    Which strings are references comes from the schema (``Str(ref=...)``).
    """
    item = doc[collection][index]

    def walk(value: Any, keys: list) -> Iterator[tuple[str, str]]:
        if isinstance(value, dict):
            for k, v in value.items():
                yield from walk(v, keys + [k])
        elif isinstance(value, list):
            for i, v in enumerate(value):
                yield from walk(v, keys + [i])
        elif isinstance(value, str):
            spec = field_at(MODEL, [collection, index] + keys, doc)
            if isinstance(spec, Str) and spec.ref:
                yield spec.ref, value

    yield from walk(item, [])


def reference_paths(doc: dict, collection: str, entity_id: str) -> list[list]:
    """Key paths of every field that names the entity ``collection[entity_id]``.

    >>> doc = {"nodes": [{"id": "A", "x": 0, "y": 0}], "joints": [{"id": "j", "kind": "ground", "node": "A"}]}
    >>> reference_paths(doc, "nodes", "A")
    [['joints', 0, 'node']]
    """
    paths = []
    for coll in REFERRING:
        for i, item in enumerate(doc.get(coll, [])):
            for keys in _string_paths(item, []):
                value = get_value(item, keys)
                spec = field_at(MODEL, [coll, i, *keys], doc)
                if value == entity_id and isinstance(spec, Str) and spec.ref == collection:
                    paths.append([coll, i, *keys])
    return paths


def _string_paths(value: Any, keys: list) -> Iterator[list]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _string_paths(v, keys + [k])
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _string_paths(v, keys + [i])
    elif isinstance(value, str):
        yield keys


def rename_changes(doc: dict, collection: str, old_id: str, new_id: str) -> list[tuple[list, str]]:
    """``(keys, new_id)`` for the entity's id and every reference to it."""
    index = next(i for i, item in enumerate(doc.get(collection, [])) if item.get("id") == old_id)
    return [([collection, index, "id"], new_id)] + [(keys, new_id) for keys in reference_paths(doc, collection, old_id)]


def dependents(doc: dict, collection: str, entity_id: str) -> list[tuple[str, int]]:
    """``(collection, index)`` of the entity and of everything that refers to it, transitively.

    Removing a node removes its links, the joints, drivers and contacts on them, and so on; a
    contact pair whose node target takes its face's reach from the links at its node goes with
    the last of them (:func:`_stranded_node_targets`).  Sorted by collection then index.
    """
    doomed: set[tuple[str, str]] = {(collection, entity_id)}
    found = find_entity(doc, EntityRef(collection, entity_id))
    positions: set[tuple[str, int]] = {(collection, found[0])} if found else set()
    changed = True
    while changed:
        changed = False
        for coll in REFERRING:
            for i, item in enumerate(doc.get(coll, [])):
                if (coll, i) in positions:
                    continue
                if any(ref in doomed for ref in iter_references(doc, coll, i)) or \
                        (coll == "contacts" and _stranded_node_target(doc, item, doomed)):
                    positions.add((coll, i))
                    if isinstance(item.get("id"), str):
                        doomed.add((coll, item["id"]))
                    changed = True
    return sorted(positions)


def _stranded_node_target(doc: dict, contact: dict, doomed: set[tuple[str, str]]) -> bool:
    """Whether ``contact`` has a node target without a ``reach`` of its own whose node is left on
    no link once the ``doomed`` links go: its face would have no reach to take (validation
    refuses it), so the pair goes with the last link at its node."""
    target = contact.get("target", {})
    if target.get("kind") != "node" or "reach" in target:
        return False
    links = [("links", link["id"]) for link in doc.get("links", []) if target.get("node") in link.get("nodes", [])]
    return bool(links) and all(link in doomed for link in links)


def remove_items(doc: dict, positions: list[tuple[str, int]]) -> list[tuple[str, int, dict]]:
    """Remove the items at ``positions``; return ``(collection, index, item)`` for :func:`reinsert`."""
    removed = [(coll, i, doc[coll][i]) for coll, i in sorted(positions)]
    for coll, i, _item in sorted(removed, key=lambda r: (r[0], -r[1])):
        del doc[coll][i]
    return removed


def reinsert(doc: dict, removed: list[tuple[str, int, dict]]) -> None:
    """Put back what :func:`remove_items` took out, each at its old index."""
    for coll, i, item in sorted(removed, key=lambda r: (r[0], r[1])):
        doc[coll].insert(i, item)


def unique_id(doc: dict, collection: str, prefix: str) -> str:
    """The first of ``prefix1``, ``prefix2``, ... not yet an id in ``collection``.

    >>> unique_id({"nodes": [{"id": "N1"}]}, "nodes", "N")
    'N2'
    """
    taken = {item.get("id") for item in doc.get(collection, [])}
    n = 1
    while f"{prefix}{n}" in taken:
        n += 1
    return f"{prefix}{n}"
