"""Model checks for the problems panel: the validator's problems plus what cannot run.

Plain Python, no Qt.  :func:`model_problems` lists

* every problem of :func:`solver.model.validate.validate` (errors);
* warnings for models that validate but cannot run as meant: a field its contact model
  does not use (:func:`solver.model.validate.model_warnings`), a driven link that is
  also clamped, a node both driven and fixed, two drivers on one link, a contact
  pair whose point can never reach its target, a heated link whose material does not
  expand;
* the mechanism's degrees of freedom by a Grübler count of its rigid-body motion, as
  information: free-flying and impacting models are legitimately unconstrained.

>>> doc = {"format": "flexmech", "version": 1,
...        "nodes": [{"id": "O", "x": 0, "y": 0}, {"id": "A", "x": 1, "y": 0}],
...        "links": [{"id": "bar", "kind": "rigid", "nodes": ["O", "A"], "mass": 1.0}],
...        "joints": [{"id": "pin", "kind": "ground", "node": "O"}]}
>>> gruebler_count(doc)
(1, 0)
"""
from __future__ import annotations

import json
from collections import defaultdict
from functools import lru_cache

from solver.model.paths import PathError, item_label, path_keys, split_path
from solver.model.validate import Problem, model_warnings, validate

from .entities import EntityRef, entity_id, entity_path
from .new_entities import struck_target

#: target kinds fixed in space
FIXED_TARGETS = ("ground_line", "ground_segment", "circle")
_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def _links_at(doc: dict) -> dict[str, list[str]]:
    at: dict[str, list[str]] = defaultdict(list)
    for link in doc.get("links", []):
        for node in link["nodes"]:
            at[node].append(link["id"])
    return at


def _clamped_links(doc: dict) -> dict[str, str]:
    """Link id -> id of a fixed joint that clamps its rotation."""
    at = _links_at(doc)
    out = {}
    for joint in doc.get("joints", []):
        if joint.get("kind") == "fixed":
            for link in joint.get("links") or at[joint["node"]]:
                out.setdefault(link, joint["id"])
    return out


def _grounded_nodes(doc: dict) -> dict[str, str]:
    """Node id -> id of a ground or fixed joint that holds it in place."""
    return {j["node"]: j["id"] for j in doc.get("joints", []) if j.get("kind") in ("ground", "fixed")}


def gruebler_count(doc: dict) -> tuple[int, int]:
    """``(mobility, drivers)``: rigid-body freedoms minus joint constraints, and the number of drivers.

    Links count 3 each (flexible and modal ones as if rigid), rigid free bodies 3, point bodies
    and nodes on no link 2.  Links sharing a node are pinned (2 each beyond the
    first); a ground joint takes 2, a fixed joint 2 plus 1 per clamped link, a
    slider 1, a weld 1 per link beyond the first; a clearance joint frees the pin it
    replaces (2); a translational clearance joint adds its slider (3) pinned at its node (2).
    """
    at = _links_at(doc)
    freedoms = 3 * len(doc.get("links", []))
    freedoms += sum(3 if b.get("kind") == "rigid" else 2 for b in doc.get("bodies", []))
    freedoms += 2 * sum(1 for n in doc.get("nodes", []) if not at.get(n["id"]))
    constraints = sum(2 * (len(links) - 1) for links in at.values() if links)
    for joint in doc.get("joints", []):
        kind = joint.get("kind", "")
        if kind == "ground":
            constraints += 2
        elif kind == "fixed":
            constraints += 2 + len(joint.get("links") or at[joint["node"]])
        elif kind == "slider":
            constraints += 1
        elif kind == "weld":
            constraints += len(joint["links"]) - 1
        elif kind == "clearance":
            constraints -= 2
        elif kind == "translational_clearance":  # a slider (3 dofs) pinned at the node (2 constraints)
            constraints -= 1
    return freedoms - constraints, len(doc.get("drivers", []))


def driver_problems(doc: dict) -> list[Problem]:
    """Drivers that fight a joint or another driver."""
    out = []
    clamped, grounded = _clamped_links(doc), _grounded_nodes(doc)
    driven: dict[str, str] = {}
    for d in doc.get("drivers", []):
        where = str(EntityRef("drivers", d["id"]))
        if "link" in d:
            if d["link"] in clamped:
                out.append(Problem(where, f"link '{d['link']}' is clamped by joint '{clamped[d['link']]}' "
                                          "and cannot also be driven", "warning"))
            if d["link"] in driven:
                out.append(Problem(where, f"link '{d['link']}' is already driven by '{driven[d['link']]}'", "warning"))
            driven.setdefault(d["link"], d["id"])
        elif d.get("node") in grounded:
            out.append(Problem(where, f"node '{d['node']}' is held by joint '{grounded[d['node']]}' "
                                      "and cannot also be driven", "warning"))
    return out


def contact_problems(doc: dict) -> list[Problem]:
    """Contact pairs whose point can never reach the target."""
    out = []
    grounded = _grounded_nodes(doc)
    link_nodes = {link["id"]: link["nodes"] for link in doc.get("links", [])}
    for c in doc.get("contacts", []):
        where = str(EntityRef("contacts", c["id"]))
        node, target = c["point"].get("node"), c["target"]
        kind = target["kind"]
        if node is not None and kind == "node" and target["node"] == node:
            out.append(Problem(where, "the point and the target are the same node", "warning"))
        elif node is not None and kind == "link" and node in link_nodes.get(target["link"], []):
            out.append(Problem(where, f"node '{node}' belongs to the target link '{target['link']}'", "warning"))
        elif node in grounded and (kind in FIXED_TARGETS or (kind == "node" and target["node"] in grounded)):
            out.append(Problem(where, f"neither node '{node}' (held by joint '{grounded[node]}') "
                                      "nor the target can move", "warning"))
        elif kind == "node" and (side := _side_struck(doc, c)) is not None:
            out.append(Problem(where, f"the point is beside link '{side}', whose end node '{target['node']}' is the "
                                      "target: a node target is the link's end face, struck from beyond the end; "
                                      "to strike the link's side, make the target the link", "warning"))
    return out


def _side_struck(doc: dict, contact: dict) -> str | None:
    """The link whose side a node-target pair's point is beside in the sketch (None: it faces the node)."""
    where = {n["id"]: (n["x"], n["y"]) for n in doc.get("nodes", [])}
    where.update({b["id"]: (b["x"], b["y"]) for b in doc.get("bodies", [])})
    point = where.get(contact["point"].get("node", contact["point"].get("body")))
    if point is None or contact["target"]["node"] not in where:
        return None
    link = struck_target(doc, ("nodes", contact["target"]["node"]), point).get("link")
    own = any(link == item["id"] and contact["point"].get("node") in item["nodes"] for item in doc.get("links", []))
    return None if own else link


def free_strain_problems(doc: dict) -> list[Problem]:
    """Links heated or cooled whose material does not expand (``expansion`` left at 0); the
    problem names the material, where it is fixed.

    >>> doc = {"materials": [{"id": "steel", "E": 2.1e11, "density": 7850.0}],
    ...        "links": [{"id": "rod", "kind": "flexible", "nodes": ["A", "B"],
    ...                   "section": {"kind": "circle", "material": "steel", "d": 0.01},
    ...                   "free_strains": {"temperature_change": 50.0}}]}
    >>> [str(p) for p in free_strain_problems(doc)]
    ["materials[steel].expansion: is 0: the temperature of link 'rod' strains nothing (steel: 1.2e-5 1/K)"]
    """
    out = []
    expansion = {m["id"]: m.get("expansion", 0.0) for m in doc.get("materials", [])}
    for link in doc.get("links", []):
        strains, material = link.get("free_strains", {}), link.get("section", {}).get("material")
        heated = strains.get("temperature_change", 0.0) or strains.get("temperature_gradient", 0.0)
        if heated and expansion.get(material, 1.0) == 0.0:
            out.append(Problem(f"{EntityRef('materials', material)}.expansion", f"is 0: the temperature of link '{link['id']}' "
                               "strains nothing (steel: 1.2e-5 1/K)", "warning"))
    return out


def mobility_problems(doc: dict) -> list[Problem]:
    """The degrees of freedom as information; where the count finds no freedom left, the joints that hold
    a motion twice (:func:`solver.api.joint_problems`: warnings naming them, or the error of a joint
    holding what a driver moves), else a warning when the count finds redundant constraints."""
    mobility, drivers = gruebler_count(doc)
    free = mobility - drivers
    flexible = any(link.get("kind") in ("flexible", "modal") for link in doc.get("links", []))
    text = f"degrees of freedom (Grübler count of the rigid motion): {mobility}"
    if drivers:
        text += f", {free} after {drivers} driver{'s' if drivers > 1 else ''}"
    if flexible:
        text += "; flexible and modal links add elastic freedoms"
    out = [Problem("", text, "info")]
    named = _joints_held_twice(doc) if free <= 0 else []  # what the joints hold twice, found as a run finds it
    if named:
        out += named
    elif free < 0:
        out.append(Problem("", f"the count finds {-free} more constraint{'s' if free < -1 else ''} than freedoms: "
                               "redundant constraints or conflicting drivers", "warning"))
    return out


#: the parts of a model that decide which joints hold a motion twice (its compiled constraint rows)
_JOINT_PARTS = ("format", "version", "nodes", "links", "joints", "drivers", "bodies", "materials", "masses")


def _joints_held_twice(doc: dict) -> list[Problem]:
    """:func:`solver.api.joint_problems` of a model with a rigid or modal link or a slider (nothing
    else holds a motion twice), remembered for its joints' parts: an edit of a load, a contact or a
    setting does not compile the model again (0.1 s on the shipped examples)."""
    kinds = {link.get("kind", "rigid") for link in doc.get("links", [])} | {j.get("kind") for j in doc.get("joints", [])}
    if not kinds & {"rigid", "modal", "slider"}:
        return []
    key = json.dumps({part: doc[part] for part in _JOINT_PARTS if part in doc}, sort_keys=True, default=str)
    return list(_joint_problems(key))


@lru_cache(maxsize=8)
def _joint_problems(key: str) -> tuple[Problem, ...]:
    from solver.api import joint_problems  # deferred: the solver's modules load with the first such model

    return tuple(joint_problems(json.loads(key)))


#: what the problems panel says of a model with nothing drawn yet (File > New)
EMPTY_MODEL = Problem("", "the model is empty: draw it with the tools right of the canvas "
                          "(Link, L, makes a link and its end nodes)", "info")


def nothing_drawn(doc: dict) -> bool:
    """Whether a model has neither nodes nor free bodies yet (a new one).

    >>> nothing_drawn({"format": "flexmech", "version": 1, "nodes": []}), nothing_drawn({})
    (True, True)
    """
    return not (isinstance(doc, dict) and (doc.get("nodes") or doc.get("bodies")))


def model_problems(doc: dict) -> list[Problem]:
    """Everything the problems panel lists: validation errors first, then warnings, then information.

    A new model with nothing drawn yet is no error: :data:`EMPTY_MODEL` says where to start.
    """
    if nothing_drawn(doc):
        return [EMPTY_MODEL]
    problems = validate(doc)
    if problems:
        return problems
    found = (model_warnings(doc) + driver_problems(doc) + contact_problems(doc) + free_strain_problems(doc)
             + mobility_problems(doc))
    return sorted(found, key=lambda p: _SEVERITY_ORDER[p.severity])


def entity_of(doc: dict, path: str) -> EntityRef | None:
    """The entity a problem's path names (``links[rod].section.d`` -> links[rod]), if it exists.

    >>> entity_of({"links": [{"id": "rod"}]}, "links[rod].section.d")
    EntityRef(collection='links', id='rod')
    >>> entity_of({"links": [{"id": "rod"}]}, "initial_velocities[0]") is None
    True
    >>> entity_of({"links": [{"id": "a[b]"}]}, 'links["a[b]"].mass')  # an id quoted where bare text would not read
    EntityRef(collection='links', id='a[b]')
    >>> entity_of({"initial_velocities": [{"body": "block", "vx": 1e300}]}, "initial_velocities[0].vx")
    EntityRef(collection='initial_velocities', id='block')
    """
    try:
        steps = split_path(path)
        if len(steps) < 2 or not isinstance(steps[1], tuple):
            return None
        collection, index = path_keys(doc, f"{steps[0]}{item_label(steps[1][0])}")
    except PathError:  # no path (the model as a whole), or no such item
        return None
    item = doc[collection][index]
    if not isinstance(item, dict) or collection != "initial_velocities" and not isinstance(item.get("id"), str):
        return None
    ref = EntityRef(collection, entity_id(collection, item))
    return ref if entity_path(doc, ref) == [collection, index] else None  # that item, not another going by its id
