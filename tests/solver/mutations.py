"""Hypothesis strategies that break the shipped examples the way a hostile user would.

:func:`mutated_models` takes a bundled example (``resources/examples/*.json``) and applies
one or two mutations: a number set to an extreme (0, negative, tiny, huge, 1e308,
NaN, a 401-digit integer), a node moved onto another or merged with it, an entity
dropped or duplicated, a field deleted, any JSON value put anywhere.
:func:`mutated_texts` goes one level lower and breaks the file's text: truncation,
numbers that are no floats, deep nesting, bytes that are not UTF-8.

Used by ``test_fuzz.py``; the documented outcome of every case is a model, a
:class:`~solver.model.validate.ModelError`, a :class:`~solver.errors.SolverError` or a
failed run, never any other exception.
"""
from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import strategies as st

from solver.model.io import dumps_model, examples_dir
from solver.model.schema import COLLECTIONS

EXAMPLES = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(examples_dir().glob("*.json"))}

#: extremes a number field is set to (JSON has no NaN, but Python's reader takes it)
EXTREME_FLOATS = [0.0, -0.0, -1.0, 1e-300, 5e-324, 1e-30, -1e-12, 1e15, -1e15, 1e16, 1e100, 1e308, -1e308,
                  float("nan"), float("inf"), float("-inf")]
#: extremes of integer fields (counts, iterations): a mesh of a million elements, 401 digits
EXTREME_INTS = [0, -1, 1, 2, 10**6, 10**20, 10**401]

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=5,
)


def locations(doc: Any, keys: tuple = ()) -> list[tuple]:
    """Every key path inside a document, the document itself first."""
    found = [keys]
    if isinstance(doc, dict):
        for k, v in doc.items():
            found += locations(v, keys + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            found += locations(v, keys + (i,))
    return found


def _at(doc: Any, keys: tuple) -> Any:
    for k in keys:
        doc = doc[k]
    return doc


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


@st.composite
def _set_number(draw, doc: dict) -> None:
    """A number field set to an extreme, scaled by a power of ten, or negated."""
    spots = [k for k in locations(doc) if k and _is_number(_at(doc, k))]
    if not spots:
        return
    keys = draw(st.sampled_from(spots))
    old = _at(doc, keys)
    if isinstance(old, int):
        new = draw(st.sampled_from(EXTREME_INTS + [2.5]))
    else:
        new = draw(st.sampled_from(EXTREME_FLOATS) | st.builds(lambda e: old * 10.0**e, st.integers(-30, 30))
                   | st.just(-old))
    _at(doc, keys[:-1])[keys[-1]] = new


def _node_ids(doc: dict) -> list[str]:
    return [n["id"] for n in doc.get("nodes", []) if isinstance(n, dict) and isinstance(n.get("id"), str)]


@st.composite
def _move_node(draw, doc: dict) -> None:
    """A node moved onto another node, or next to it (1e-9 m to 1e-15 m away)."""
    nodes = [n for n in doc["nodes"]]
    if len(nodes) < 2:
        return
    a, b = draw(st.permutations(nodes))[:2]
    offset = draw(st.sampled_from([0.0, 1e-15, 1e-9]))
    a["x"], a["y"] = b["x"] + offset, b["y"]


def _renamed_refs(node: Any, old: str, new: str) -> Any:
    """``node`` with every reference to node ``old`` (``node``, ``pivot``, ``nodes`` items) named ``new``."""
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k in ("node", "pivot") and v == old:
                v = new
            elif k == "nodes" and isinstance(v, list):
                v = [new if x == old else x for x in v]
            else:
                v = _renamed_refs(v, old, new)
            out[k] = v
        return out
    if isinstance(node, list):
        return [_renamed_refs(v, old, new) for v in node]
    return node


@st.composite
def _merge_nodes(draw, doc: dict) -> None:
    """Two nodes merged: every reference to the second names the first, which replaces it."""
    ids = _node_ids(doc)
    if len(ids) < 2:
        return
    keep, gone = draw(st.permutations(ids))[:2]
    nodes = [n for n in doc["nodes"] if n.get("id") != gone]
    merged = _renamed_refs({k: v for k, v in doc.items() if k != "nodes"}, gone, keep)
    doc.clear()
    doc.update(merged, nodes=nodes)


@st.composite
def _drop_entity(draw, doc: dict) -> None:
    colls = [c for c in (*COLLECTIONS, "initial_velocities") if isinstance(doc.get(c), list) and doc[c]]
    if colls:
        items = doc[draw(st.sampled_from(colls))]
        del items[draw(st.integers(0, len(items) - 1))]


@st.composite
def _duplicate_entity(draw, doc: dict) -> None:
    """An item copied: with the same id (a duplicate) or a new one (a second, coincident entity)."""
    colls = [c for c in (*COLLECTIONS, "initial_velocities") if isinstance(doc.get(c), list) and doc[c]]
    if not colls:
        return
    items = doc[draw(st.sampled_from(colls))]
    item = copy.deepcopy(draw(st.sampled_from(items)))
    if isinstance(item, dict) and "id" in item and draw(st.booleans()):
        item["id"] = f"{item['id']}-copy"
    items.append(item)


@st.composite
def _delete_field(draw, doc: dict) -> None:
    spots = [k for k in locations(doc) if k and isinstance(_at(doc, k[:-1]), dict)]
    keys = draw(st.sampled_from(spots))
    del _at(doc, keys[:-1])[keys[-1]]


@st.composite
def _any_value(draw, doc: dict) -> None:
    keys = draw(st.sampled_from([k for k in locations(doc) if k]))
    _at(doc, keys[:-1])[keys[-1]] = draw(JSON_VALUES)


@st.composite
def _solver_setting(draw, doc: dict) -> None:
    """A step, end time, output interval or impact step from another order of magnitude."""
    key = draw(st.sampled_from(["step", "end_time", "output_interval", "impact_step", "max_iterations",
                                "max_step_cuts"]))
    value = draw(st.sampled_from([1e-300, 1e-12, 1e-6, 0.5, 1.0, 2.0, 100.0, 1e6, 1e308, 0, 10**6]))
    doc.setdefault("solver", {})[key] = value


#: the mutations, those that keep a model valid more often drawn more often (so that most
#: cases reach the solver)
MUTATIONS = [_set_number, _set_number, _set_number, _move_node, _move_node, _merge_nodes, _merge_nodes,
             _duplicate_entity, _duplicate_entity, _solver_setting, _drop_entity, _delete_field, _any_value]


@st.composite
def mutated_models(draw, examples: list[str] | None = None) -> tuple[str, Any]:
    """``(example name, document)``: a bundled example with one or two mutations."""
    name = draw(st.sampled_from(examples or sorted(EXAMPLES)))
    doc = copy.deepcopy(EXAMPLES[name])
    for _ in range(draw(st.integers(1, 2))):
        if not isinstance(doc, dict) or not isinstance(doc.get("nodes"), list) or not doc["nodes"]:
            break
        try:
            draw(draw(st.sampled_from(MUTATIONS))(doc))
        except (KeyError, TypeError, AttributeError, IndexError):
            pass  # an earlier mutation took away what this one changes
    return name, doc


# ------------------------------------------------------------------------------ file text

_BAD_NUMBERS = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1" * 401, "9" * 5001, "-" + "7" * 5001,
                "0x10", "1.", ".5", "01", "+1", "1e", "--1", "true", "null", '"1"', "[]", "{}"]


@st.composite
def mutated_texts(draw) -> tuple[str, bytes]:
    """``(what was done, file bytes)``: an example's text (itself perhaps mutated) broken at the
    level of characters."""
    name, doc = draw(mutated_models())
    text = dumps_model(doc) if _printable(doc) else json.dumps(EXAMPLES[name])
    how = draw(st.sampled_from(["as-is", "truncate", "number", "nest", "top-level", "bytes", "splice"]))
    if how == "truncate":
        text = text[: draw(st.integers(0, len(text)))]
    elif how == "number":
        starts = [i for i, ch in enumerate(text) if ch in "-0123456789" and text[i - 1] in " [:"]
        if starts:
            i = draw(st.sampled_from(starts))
            j = i + 1
            while j < len(text) and text[j] in "0123456789.eE+-":
                j += 1
            text = text[:i] + draw(st.sampled_from(_BAD_NUMBERS)) + text[j:]
    elif how == "nest":
        depth = draw(st.sampled_from([10, 500, 990, 1100, 100_000]))
        text = text.replace('"nodes": [', '"nodes": ' + "[" * depth, 1) + "]" * draw(st.sampled_from([0, depth]))
    elif how == "top-level":
        text = draw(st.sampled_from(["[]", "null", "1", '"model"', "true", "[" + text + "]", text + text]))
    elif how == "bytes":
        data = bytearray(text.encode("utf-8"))
        if data:
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        return how, bytes(data)
    elif how == "splice":
        i, j = sorted(draw(st.lists(st.integers(0, len(text)), min_size=2, max_size=2)))
        text = text[:i] + text[j:]
    return how, text.encode("utf-8")


def _printable(doc: Any) -> bool:
    """Whether the canonical writer can print ``doc`` (huge integers are beyond its digit limit)."""
    try:
        dumps_model(doc)
    except ValueError:
        return False
    return True
