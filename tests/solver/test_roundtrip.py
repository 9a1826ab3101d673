"""Load -> save rewrites a model file unchanged: every bundled example, and generated models."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.model.io import dumps_model, load_model, model_with_defaults, save_model
from solver.model.limits import MIN_MAGNITUDE
from solver.model.validate import validate


def test_example_round_trips_byte_exactly(example):
    text = example.read_text(encoding="utf-8")
    assert dumps_model(load_model(example)) == text


def test_example_save_rewrites_the_same_bytes(example, tmp_path):
    copy = tmp_path / example.name
    save_model(load_model(example), copy)
    assert copy.read_bytes() == example.read_bytes()


# ----------------------------------------------------------------------------- generated models

IDS = st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,7}", fullmatch=True)


def usable(x: float) -> float:
    """``x``, or 0 where it is closer to 0 than a model's numbers may be (limits.MIN_MAGNITUDE)."""
    return 0.0 if abs(x) < MIN_MAGNITUDE else x


REAL = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False).map(usable)
POSITIVE = st.floats(min_value=MIN_MAGNITUDE, max_value=1e12)
NON_NEGATIVE = st.floats(min_value=0.0, max_value=1e6).map(usable)
FRACTION = st.floats(min_value=0.0, max_value=1.0).map(usable)


def _maybe(draw, obj: dict, key: str, strategy) -> None:
    """Give ``obj[key]`` a drawn value, or leave the optional field out."""
    if draw(st.booleans()):
        obj[key] = draw(strategy)


@st.composite
def sections(draw, materials: list[str]) -> dict:
    kind = draw(st.sampled_from(["circle", "rectangle", "tube", "area", "per_length"]))
    sec: dict = {"kind": kind}
    if kind != "per_length":
        sec["material"] = draw(st.sampled_from(materials))
    if kind == "circle":
        sec["d"] = draw(POSITIVE)
    elif kind == "rectangle":
        sec.update(b=draw(POSITIVE), h=draw(POSITIVE))
    elif kind == "tube":
        d_outer = draw(st.floats(min_value=1e-6, max_value=1.0))
        sec.update(d_outer=d_outer, d_inner=usable(d_outer * draw(st.floats(min_value=0.0, max_value=0.99))))
    elif kind == "area":
        sec.update(A=draw(POSITIVE), I=draw(POSITIVE))
        _maybe(draw, sec, "c", POSITIVE)
    else:
        sec.update(EA=draw(POSITIVE), EI=draw(POSITIVE), rhoA=draw(POSITIVE))
        _maybe(draw, sec, "rhoI", NON_NEGATIVE)
        _maybe(draw, sec, "c", POSITIVE)
    return sec


@st.composite
def meshes(draw) -> dict:
    if draw(st.booleans()):
        mesh: dict = {}
        _maybe(draw, mesh, "elements", st.integers(1, 40))
        return mesh
    inner = draw(st.sets(st.integers(1, 99), max_size=5))  # no element shorter than 1 % of the link
    return {"kind": "stations", "stations": [0.0, *(k / 100 for k in sorted(inner)), 1.0]}


@st.composite
def time_functions(draw) -> dict:
    kind = draw(st.sampled_from(["constant", "ramp", "linear", "window", "table", "sine"]))
    if kind == "constant":
        fn: dict = {"kind": "constant"} if draw(st.booleans()) else {}
        _maybe(draw, fn, "value", REAL)
    elif kind == "ramp":
        t0 = draw(st.floats(min_value=0.0, max_value=10.0).map(usable))
        fn = {"kind": "ramp", "t0": t0, "t1": t0 + draw(st.floats(min_value=1e-3, max_value=10.0)), "v1": draw(REAL)}
    elif kind == "linear":
        fn = {"kind": "linear", "rate": draw(REAL)}
    elif kind == "window":
        fn = {"kind": "window", "t_off": draw(st.floats(min_value=1e-3, max_value=10.0)), "value": draw(REAL)}
    elif kind == "table":
        times = sorted(draw(st.sets(st.floats(min_value=0.0, max_value=100.0).map(usable), min_size=2, max_size=6)))
        fn = {"kind": "table", "t": times, "v": draw(st.lists(REAL, min_size=len(times), max_size=len(times)))}
    else:
        fn = {"kind": "sine", "frequency": draw(POSITIVE)}
        _maybe(draw, fn, "phase", REAL)
    return fn


@st.composite
def models(draw) -> dict:
    """A valid model: random nodes, materials, links, joints, masses, bodies, drivers, loads,
    contacts and initial velocities whose references all name existing entities."""
    node_ids = draw(st.lists(IDS, min_size=2, max_size=6, unique=True))
    material_ids = draw(st.lists(IDS, min_size=1, max_size=3, unique=True))
    link_ids = draw(st.lists(IDS, max_size=4, unique=True))
    body_ids = draw(st.lists(IDS, max_size=2, unique=True))
    doc: dict = {"format": "flexmech", "version": 1}
    _maybe(draw, doc, "name", st.text(max_size=20))
    _maybe(draw, doc, "description", st.text(max_size=40))

    materials = []
    for m in material_ids:
        mat = {"id": m, "E": draw(POSITIVE), "density": draw(POSITIVE)}
        _maybe(draw, mat, "poisson", st.floats(min_value=-0.99, max_value=0.49).map(usable))
        materials.append(mat)
    doc["materials"] = materials
    # nodes 1 km apart along x: no two coincide within a millionth of the sketch's size (< 3 m)
    doc["nodes"] = [{"id": n, "x": usable(1e3 * k + draw(st.floats(-100.0, 100.0))), "y": draw(REAL)}
                    for k, n in enumerate(node_ids)]

    links = []
    for lid in link_ids:
        ends = draw(st.lists(st.sampled_from(node_ids), min_size=2, max_size=2, unique=True))
        if draw(st.booleans()):
            link = {"id": lid, "kind": "rigid", "nodes": ends, "mass": draw(POSITIVE)}
            _maybe(draw, link, "inertia", NON_NEGATIVE)
            _maybe(draw, link, "com", st.fixed_dictionaries({}, optional={"s": FRACTION, "n": REAL}))
        else:
            link = {"id": lid, "kind": "flexible", "nodes": ends, "section": draw(sections(material_ids))}
            _maybe(draw, link, "mesh", meshes())
        links.append(link)
    doc["links"] = links

    joints = []
    for i, node in enumerate(draw(st.lists(st.sampled_from(node_ids), max_size=4))):
        kind = draw(st.sampled_from(["ground", "slider", "pin", "fixed"]))
        joint = {"id": f"j{i}", "kind": kind, "node": node}
        if kind == "slider":
            _maybe(draw, joint, "angle", REAL)
        elif kind != "ground" and link_ids:
            _maybe(draw, joint, "links", st.lists(st.sampled_from(link_ids), unique=True))
        joints.append(joint)
    doc["joints"] = joints

    doc["masses"] = [
        {"id": f"m{i}", "node": node, "mass": draw(NON_NEGATIVE)}
        for i, node in enumerate(draw(st.lists(st.sampled_from(node_ids), max_size=3)))
    ]
    doc["bodies"] = [{"id": b, "x": draw(REAL), "y": draw(REAL), "mass": draw(POSITIVE)} for b in body_ids]

    drivers = []
    for i, link in enumerate(draw(st.lists(st.sampled_from(links), max_size=2)) if links else []):
        kind = draw(st.sampled_from(["angle", "speed"]))
        pivot = draw(st.sampled_from(link["nodes"]))
        drivers.append({"id": f"d{i}", "kind": kind, "link": link["id"], "pivot": pivot, "function": draw(time_functions())})
    doc["drivers"] = drivers

    loads = []
    for i, node in enumerate(draw(st.lists(st.sampled_from(node_ids), max_size=3))):
        load = {"id": f"f{i}", "node": node}
        _maybe(draw, load, "fx", REAL)
        _maybe(draw, load, "torque", REAL)
        _maybe(draw, load, "function", time_functions())
        loads.append(load)
    doc["loads"] = loads

    contacts = []  # one pair per point: two pairs of one point and target are refused
    for i, node in enumerate(draw(st.lists(st.sampled_from(node_ids), max_size=2, unique=True))):
        mu_s = draw(st.floats(min_value=0.0, max_value=2.0).map(usable))
        target = draw(  # the point never starts inside its target (validation refuses it)
            st.sampled_from(
                [{"kind": "ground_line", "y": -1e7}, {"kind": "circle", "radius": 1e8, "inside": True}]
                + [{"kind": "link", "link": lid, "side": _outside(doc, node, lid)} for lid in link_ids]
                + [{"kind": "node", "node": n} | ({} if any(n in link["nodes"] for link in links) else {"reach": 1.0})
                   for n in node_ids if n != node]
            )
        )
        contact = {"id": f"c{i}", "point": {"node": node}, "target": target, "mu_s": mu_s,
                   "mu_d": usable(mu_s * draw(FRACTION)), "e": draw(FRACTION)}
        _maybe(draw, contact, "law", st.sampled_from(["newton", "poisson", "energetic"]))
        models = [{"kind": "lagrange"}]
        if target["kind"] in ("link", "node"):  # a fixed target could find the node already inside it
            models.append({"kind": "compliant", "stiffness": 1e9, "friction_law": "threlfall"})
        _maybe(draw, contact, "model", st.sampled_from(models))
        if contact.get("model", {}).get("kind") == "compliant":
            contact["e"] = max(contact["e"], 0.05)  # c_e in (0, 1]
        contacts.append(contact)
    doc["contacts"] = contacts

    owners = [("node", n) for n in node_ids] + [("link", lid) for lid in link_ids] + [("body", b) for b in body_ids]
    doc["initial_velocities"] = [
        {key: value, "vx": draw(REAL), "omega": draw(REAL)}
        for key, value in draw(st.lists(st.sampled_from(owners), max_size=2))
    ]
    _maybe(draw, doc, "gravity", st.fixed_dictionaries({}, optional={"x": REAL, "y": REAL}))
    solver = draw(st.fixed_dictionaries({}, optional={"end_time": st.floats(1e-6, 1e6), "tau": st.floats(min_value=0.5, max_value=1.0)}))
    if "end_time" in solver or draw(st.booleans()):  # a step within the run, at most 10 000 of them
        solver["step"] = solver.get("end_time", 1.0) * draw(st.floats(min_value=1e-4, max_value=1.0))
    if solver or draw(st.booleans()):
        doc["solver"] = solver
    return doc


def _outside(doc: dict, node: str, link_id: str) -> str:
    """The side of link ``link_id``'s sketched line (its first two nodes) that ``node`` is on."""
    at = {n["id"]: (n["x"], n["y"]) for n in doc["nodes"]}
    nodes = next(link["nodes"] for link in doc["links"] if link["id"] == link_id)
    (x1, y1), (x2, y2), (x, y) = at[nodes[0]], at[nodes[1]], at[node]
    return "left" if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) >= 0.0 else "right"


@settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(doc=models())
def test_generated_model_is_valid_and_round_trips(tmp_path_factory, doc):
    assert [str(p) for p in validate(doc)] == []
    path = tmp_path_factory.mktemp("model") / "model.json"
    save_model(doc, path)
    loaded = load_model(path)
    assert loaded == doc
    assert path.read_text(encoding="utf-8") == dumps_model(doc)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(doc=models())
def test_defaults_keep_a_generated_model_valid(doc):
    """What the solver reads (the file with every default filled in) is valid too."""
    assert [str(p) for p in validate(model_with_defaults(doc))] == []
