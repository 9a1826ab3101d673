"""Fields of a model named by their path as the validator prints it.

A path is the text a problem report shows (``contacts[tip].mu_s``,
``links[rod].mesh.elements``, ``initial_velocities[0].vx``, ``solver.end_time``):
names joined by dots, list items in brackets by their ``id`` or, for items without
one, by their index.  Sweeps vary fields by such paths and reference curves state the
conditions they hold under with them.

Any id the model accepts can be named: one that bare text in brackets would not read back
(a bracket or a double quote in it, spaces at its ends) is written as a JSON string,
``links["a[b]"].section.A`` -- :func:`item_label` writes it, :func:`split_path` reads it.

>>> doc = {"contacts": [{"id": "tip", "mu_s": 0.3}], "solver": {}}
>>> get_path(doc, "contacts[tip].mu_s")
0.3
>>> set_path(doc, "solver.end_time", 2.0); doc["solver"]
{'end_time': 2.0}
"""
from __future__ import annotations

import json
import re
from typing import Any

from .fields import Num, field_at
from .schema import MODEL

_TOKEN = re.compile(r'\.?([A-Za-z_][A-Za-z0-9_]*)|\[\s*("(?:[^"\\]|\\.)*")\s*\]|\[([^\]]+)\]')
#: what makes an id unreadable as bare text in brackets (it is quoted then)
_NEEDS_QUOTES = re.compile(r'[\[\]"]|^\s|\s$|^$')


class PathError(ValueError):
    """A path that names no field of the model, or not a field of the kind asked for."""

    def __init__(self, path: str, message: str):
        self.path = path
        super().__init__(f"{path}: {message}")


def split_path(path: str) -> list[str | tuple[str]]:
    """The steps of ``path``: field names as ``str``, bracketed labels as 1-tuples
    (a quoted label read as the JSON string it is).

    >>> split_path("links[rod].mesh.elements")
    ['links', ('rod',), 'mesh', 'elements']
    >>> split_path('links["a[b]"].mass')
    ['links', ('a[b]',), 'mass']
    """
    steps: list[str | tuple[str]] = []
    pos = 0
    text = path.strip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        name, quoted, label = match.groups() if match else (None, None, None)
        dotted = match is not None and match.group(0).startswith(".")
        if match is None or (name is not None and dotted != (pos > 0)):
            raise PathError(path, f"cannot read the path at '{text[pos:]}'")
        if quoted is not None:
            try:
                label = json.loads(quoted)
            except ValueError:
                raise PathError(path, f"{quoted} is not a JSON string") from None
        steps.append(name if name is not None else (label if quoted is not None else label.strip(),))
        pos = match.end()
    if not steps or isinstance(steps[0], tuple):
        raise PathError(path, "a path starts with a field name")
    return steps


def item_label(item_id: str) -> str:
    """The step naming the list item ``item_id`` in a path: the id in brackets, quoted as a JSON
    string where bare text would not read back as the id.

    >>> item_label("rod"), item_label("link.1"), item_label("a[b]")
    ('[rod]', '[link.1]', '["a[b]"]')
    """
    return f"[{json.dumps(item_id, ensure_ascii=False)}]" if _NEEDS_QUOTES.search(item_id) else f"[{item_id}]"


def path_keys(doc: Any, path: str) -> list[str | int]:
    """The dict keys and list indices ``path`` names in ``doc``; items of a list are
    found by their ``id`` (or by an integer label, their index)."""
    keys: list[str | int] = []
    node = doc
    for step in split_path(path):
        if isinstance(step, str):
            keys.append(step)
            node = node.get(step) if isinstance(node, dict) else None
            continue
        label = step[0]
        if not isinstance(node, list):
            raise PathError(path, f"'{_shown(keys)}' is not a list")
        index = _item_index(node, label)
        if index is None:
            raise PathError(path, f"no item '{label}' in {_shown(keys)}")
        keys.append(index)
        node = node[index]
    return keys


def _item_index(items: list, label: str) -> int | None:
    for i, item in enumerate(items):
        if isinstance(item, dict) and item.get("id") == label:
            return i
    if label.lstrip("-").isdigit() and -len(items) <= int(label) < len(items):
        return int(label) % len(items)
    return None


def _shown(keys: list) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else (f".{k}" if i else k) for i, k in enumerate(keys))


def get_path(doc: Any, path: str, default: Any = None) -> Any:
    """The value at ``path`` in ``doc`` (``default`` when the field is absent)."""
    node = doc
    for key in path_keys(doc, path):
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and isinstance(key, int):
            node = node[key]
        else:
            return default
    return node


def set_path(doc: Any, path: str, value: Any) -> None:
    """Set the field or list item at ``path`` in ``doc`` (in place; ``moving[f].position.v[1]``, an item of
    a table), creating absent objects on the way."""
    keys = path_keys(doc, path)
    node = doc
    for key in keys[:-1]:
        if isinstance(node, dict) and not isinstance(node.get(key), (dict, list)):
            node[key] = {}
        node = node[key]
    if not (isinstance(node, dict) or isinstance(node, list) and isinstance(keys[-1], int)):
        raise PathError(path, "does not end in a field of an object or an item of a list")
    node[keys[-1]] = value


def numeric_field(doc: Any, path: str) -> Num:
    """The description of the numeric field at ``path`` (its unit, range, integer or not);
    raises :class:`PathError` when the path names no number of the model."""
    spec = field_at(MODEL, path_keys(doc, path), doc)
    if spec is None:
        raise PathError(path, "no such field in the model")
    if not isinstance(spec, Num):
        raise PathError(path, f"is not a number (it is {spec.type_name()})")
    return spec


def numeric_paths(doc: dict) -> list[str]:
    """The paths of every numeric field ``doc`` sets, in document order (what a sweep
    can vary; omitted fields with a default can be named too)."""
    out: list[str] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, f"{path}.{key}" if path else key)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                item_id = item.get("id") if isinstance(item, dict) else None
                walk(item, path + (item_label(item_id) if isinstance(item_id, str) else f"[{i}]"))
        elif isinstance(node, (int, float)) and not isinstance(node, bool) and path != "version":
            out.append(path)

    walk(doc, "")
    return [p for p in out if isinstance(field_at(MODEL, path_keys(doc, p), doc), Num)]
