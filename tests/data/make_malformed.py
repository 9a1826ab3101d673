"""Write ``tests/data/malformed/``: one broken model file per case, and ``index.json`` saying
which path each problem names and a fragment of its message.  Run from anywhere:
``python tests/data/make_malformed.py`` (the corpus is committed; rerun it after changing a case).
"""
import copy
import json
import sys
from pathlib import Path

sys.set_int_max_str_digits(0)
ROOT = Path(__file__).parent / "malformed"
EX = Path(__file__).parents[2] / "resources" / "examples"


def example(name):
    return json.loads((EX / f"{name}.json").read_text(encoding="utf-8"))


SC = example("slider_crank_flexible")
PEND = example("pendulum_flexible_modal1_newton")
cases = []


def add(name, category, path, message, doc=None, text=None, data=None):
    """Write case ``name``: a document, a text or raw bytes, refused at ``path`` with ``message``."""
    f = ROOT / f"{name}.json"
    if data is None:
        if text is None:
            text = json.dumps(doc, indent=2)
        data = text.encode("utf-8")
    f.write_bytes(data)
    cases.append({"file": f.name, "category": category, "path": path, "message": message})


def mut(change, base=None):
    """A copy of ``base`` (the slider-crank) changed in place by ``change``."""
    doc = copy.deepcopy(base or SC)
    change(doc)
    return doc


def _parent(doc, keys):
    for k in keys[:-1]:
        doc = doc[k]
    return doc


def S(keys, value, base=None):
    """``base`` with the field at ``keys`` set to ``value``."""
    return mut(lambda d: _parent(d, keys).__setitem__(keys[-1], value), base)


def D(keys, base=None):
    """``base`` without the field at ``keys``."""
    return mut(lambda d: _parent(d, keys).__delitem__(keys[-1]), base)


# types
add("type-string-coordinate", "types", "nodes[A].x", "must be a number", S(["nodes", 1, "x"], "0.15"))
add("type-boolean-mass", "types", "masses[slider].mass", "must be a number", S(["masses", 0, "mass"], True))
add("type-object-links", "types", "links", "must be a list", S(["links"], {"crank": 1}))
add("type-list-solver", "types", "solver", "must be an object", S(["solver"], [1, 2]))
add("type-null-name", "types", "name", "must be a string", S(["name"], None))
add("type-float-elements", "types", "links[rod].mesh.elements", "must be an integer", S(["links", 1, "mesh", "elements"], 2.5))
add("type-string-version", "types", "version", "must be an integer", S(["version"], "1"))
# ranges
add("range-negative-mass", "ranges", "masses[slider].mass", "must be >= 0", S(["masses", 0, "mass"], -0.5))
add("range-zero-diameter", "ranges", "links[rod].section.d", "must be > 0", S(["links", 1, "section", "d"], 0.0))
add("range-zero-elements", "ranges", "links[rod].mesh.elements", "must be >= 1", S(["links", 1, "mesh", "elements"], 0))
add("range-negative-step", "ranges", "solver.step", "must be > 0", S(["solver", "step"], -1e-4))
add("range-restitution-above-one", "ranges", "contacts[tip].e", "must be <= 1",
    mut(lambda d: d.update(contacts=[{"id": "tip", "point": {"node": "B"}, "target": {"kind": "ground_line", "y": -0.1}, "e": 1.5}])))
add("range-poisson", "ranges", "materials[steel].poisson", "must be < 0.5", S(["materials", 0, "poisson"], 0.5))
add("range-version", "ranges", "version", "must be <= 1", S(["version"], 2))
# references
add("ref-unknown-node", "references", "links[crank].nodes[1]", "no node with id 'Z'", S(["links", 0, "nodes", 1], "Z"))
add("ref-unknown-material", "references", "links[rod].section.material", "no material with id 'aluminium'", S(["links", 1, "section", "material"], "aluminium"))
add("ref-unknown-link", "references", "drivers[motor].link", "no link with id 'arm'", S(["drivers", 0, "link"], "arm"))
add("ref-pivot-not-on-link", "references", "drivers[motor].pivot", "is not a node of link 'crank'", S(["drivers", 0, "pivot"], "B"))
# duplicates
add("dup-node-id", "duplicates", "nodes[A].id", "duplicate id 'A'", mut(lambda d: d["nodes"].append({"id": "A", "x": 1.0, "y": 1.0})))
add("dup-link-node", "duplicates", "links[rod].nodes", "names the same node twice", S(["links", 1, "nodes"], ["A", "A"]))
# missing / unknown / kinds
add("missing-nodes", "required fields", "nodes", "is required", D(["nodes"]))
add("missing-format", "required fields", "format", "is required", D(["format"]))
add("unknown-field", "unknown fields", "nodes[O]", "unknown field 'z'", S(["nodes", 0, "z"], 0.0))
add("unknown-kind", "kinds", "links[rod].kind", "must be one of rigid | flexible | modal", S(["links", 1, "kind"], "elastic"))
# huge integers
big = S(["nodes", 1, "x"], 10**400)
add("huge-integer-401-digits", "huge integers", "nodes[A].x", "401-digit integer is too large", big)
add("huge-integer-5001-digits", "huge integers", "nodes[A].x", "must be finite",
    text=json.dumps(SC, indent=2).replace('"x": 0.15', '"x": ' + "9" * 5001, 1))
add("huge-integer-elements", "huge integers", "links[rod].mesh.elements", "is too large", S(["links", 1, "mesh", "elements"], 10**20))
add("huge-float-speed", "huge numbers", "drivers[motor].function.value", "1e+308 is too large", S(["drivers", 0, "function", "value"], 1e308))
add("huge-float-beyond-range", "huge numbers", "materials[steel].E", "must be finite",
    text=json.dumps(SC, indent=2).replace("200000000000.0", "1e999", 1))
add("tiny-ramp-time", "tiny numbers", "drivers[motor].function.t1", "is too small: a number is 0 or at least 1e-30",
    S(["drivers", 0, "function"], {"kind": "ramp", "t1": 5e-324, "v1": 150.0}))
add("too-many-iterations", "ranges", "solver.max_iterations", "must be <= 1000", S(["solver", "max_iterations"], 10**6))
# non-finite
add("nan-mass", "non-finite numbers", "links[crank].mass", "NaN is not one",
    text=json.dumps(SC, indent=2).replace('"mass": 0.0333778511\n', '"mass": NaN\n', 1))
add("infinity-gravity", "non-finite numbers", "gravity.y", "must be finite", mut(lambda d: d.update(gravity={"y": float("-inf")})))
# deep nesting
add("deep-nesting", "deep nesting", "", "nested too deeply", text="[" * 100_000)
add("deep-nesting-in-field", "deep nesting", "nodes[0]", "must be an object",
    text=json.dumps(SC, indent=2).replace('"nodes": [', '"nodes": [' + "[" * 500 + "]" * 500 + ",", 1))
# coincident nodes, zero lengths
add("coincident-crank-nodes", "coincident nodes", "links[crank].nodes[1]", "coincides with node 'O'", S(["nodes", 1, "x"], 0.0))
add("coincident-rod-nodes", "coincident nodes", "links[rod].nodes[1]", "coincides with node 'A'", S(["nodes", 2, "x"], 0.15))
add("near-coincident-nodes", "coincident nodes", "links[rod].nodes[1]", "coincides with node 'A'", S(["nodes", 2, "x"], 0.15 + 1e-9))
add("zero-length-elements", "zero lengths", "links[rod].mesh.stations", "has no length",
    S(["links", 1, "mesh"], {"kind": "stations", "stations": [0.0, 0.5, 0.5 + 1e-12, 1.0]}))
add("zero-length-segment", "zero lengths", "contacts[wall].target", "the segment's two ends coincide",
    mut(lambda d: d.update(contacts=[{"id": "wall", "point": {"node": "B"},
        "target": {"kind": "ground_segment", "x1": 0.5, "y1": -0.1, "x2": 0.5, "y2": -0.1}}])))
add("coincident-modal-link-ends", "coincident nodes", "links[rod].nodes[1]", "coincides with node 'O'", S(["nodes", 1, "x"], 0.0, PEND))
# counts, intervals, steps
add("too-many-elements", "counts too large", "links[rod].mesh.elements", "at most", S(["links", 1, "mesh", "elements"], 100000))
add("too-many-frames", "intervals too large", "solver.output_interval", "stored frames",
    mut(lambda d: d["solver"].update(end_time=2e6, step=1e-1, output_interval=1e-1)))
add("too-many-steps", "counts too large", "solver.step", "steps over end_time",
    mut(lambda d: d["solver"].update(end_time=1e4, step=1e-5, output_interval=1.0)))
add("output-interval-below-any-step", "intervals too small", "solver.output_interval", "shorter than any step",
    S(["solver", "output_interval"], 1e-12))
add("impact-step-below-any-step", "intervals too small", "solver.impact_step", "shorter than any step",
    S(["solver", "impact_step"], 1e-12))
add("step-above-end-time", "step > end time", "solver.step", "must be <= end_time", S(["solver", "step"], 1.0))
# models that validated and then crashed or ran impossibly (issue 29): refused at validation
GOLDSMITH, ROLLING = example("cylinders_goldsmith"), example("disc_rolling_beam")
CLEARANCE, MODAL = example("slider_crank_clearance_hertz"), example("robot_arm_modal")
add("ball-radius-equals-bore", "geometry the solver cannot run", "contacts[bore].point",
    "leaves a radial clearance of 0 m", mut(lambda d: (d["bodies"][0].update(radius=0.01), d["contacts"][0].update(
        model={"kind": "compliant", "law": "lankarani_nikravesh", "stiffness": 1e9})), GOLDSMITH))
add("clearance-1e-30", "geometry the solver cannot run", "joints[B-clearance].clearance",
    "leaves a radial clearance of 0 m", mut(lambda d: [j.update(clearance=1e-30) or j.pop("journal_radius")
                                                       for j in d["joints"] if j["kind"] == "clearance"], CLEARANCE))
add("modal-link-20000-elements", "counts too large", "links[arm].mesh.elements", "dense eigenproblem of 60003 dofs",
    S(["links", 0, "mesh", "elements"], 20000, MODAL))
add("disc-inside-beam", "starts penetrated", "contacts[roll].point", "starts inside the target (penetration 0.25 m",
    S(["bodies", 0, "y"], -0.2, ROLLING))
# files that are no model
text = json.dumps(SC, indent=2)
add("truncated", "truncated JSON", "", "invalid JSON at line", text=text[: len(text) // 2])
add("empty", "truncated JSON", "", "invalid JSON at line 1, column 1", text="")
add("top-level-list", "wrong top-level type", "", "the model must be a JSON object", text="[1, 2, 3]")
add("top-level-string", "wrong top-level type", "", "the model must be a JSON object", text='"flexmech"')
add("top-level-null", "wrong top-level type", "", "the model must be a JSON object", text="null")
add("not-utf8", "encoding", "", "not UTF-8 text", data='{"name": "Fl\xe9xmech"}'.encode("latin-1"))
add("trailing-garbage", "truncated JSON", "", "invalid JSON at line", text=text + "}")
(ROOT / "index.json").write_text(json.dumps({"about": "malformed model files: each is refused with a problem at "
    "'path' whose message contains 'message' (path '' : the whole file)", "cases": cases}, indent=2) + "\n")
print(len(cases))
