"""The runs of a sweep: the design's points (:func:`design_points`) applied to copies of
the model, each validated before anything runs (:func:`build_variants`).

A run is known by the SHA-256 of its model's canonical text (:func:`run_id`): the same
variant gets the same id in every sweep of the same model, which is how a sweep run
again skips what its table already holds.
"""
from __future__ import annotations

import copy
import hashlib
import itertools
from dataclasses import dataclass

import numpy as np

from ..model.io import dumps_model
from ..model.paths import PathError, get_path, numeric_field, path_keys, set_path
from ..model.validate import number_accepted, schema_problems, semantic_problems, validate
from .spec import SweepError, SweepSpec

#: problems listed for a sweep whose variants are invalid; the rest are counted
MAX_LISTED = 20


@dataclass(frozen=True)
class Variant:
    """One run of a sweep: its id, the values of the varied (and fixed) fields by path,
    and its complete model."""

    run_id: str
    values: dict[str, float]
    model: dict


def run_id(model: dict) -> str:
    """The id of a run: the first 16 hex digits of the SHA-256 of its model's text."""
    return hashlib.sha256(dumps_model(model).encode("utf-8")).hexdigest()[:16]


def design_points(spec: SweepSpec) -> list[dict[str, float]]:
    """The values of every run, by parameter path, in the design's order; for an
    ensemble, each perturbed field's offset from the model's value (uniform in
    ``[-size, +size]``, from ``seed``).

    >>> from solver.sweeps.spec import Parameter, SweepSpec
    >>> design_points(SweepSpec((Parameter("a", (1.0, 2.0)), Parameter("b", (5.0, 6.0)))))
    [{'a': 1.0, 'b': 5.0}, {'a': 1.0, 'b': 6.0}, {'a': 2.0, 'b': 5.0}, {'a': 2.0, 'b': 6.0}]
    """
    problems = spec.problems()
    if problems:
        raise SweepError(problems)
    if spec.over_cap():
        raise SweepError([spec.over_cap()])
    paths = spec.paths
    if spec.design == "grid":
        rows = itertools.product(*(p.levels() for p in spec.parameters))
    elif spec.design == "zip":
        rows = zip(*(p.levels() for p in spec.parameters))
    elif spec.design == "ensemble":
        sizes = np.array([size for _path, size in spec.perturb], dtype=float)
        rows = np.random.default_rng(spec.seed).uniform(-1.0, 1.0, (spec.samples, len(sizes))) * sizes
    else:
        from scipy.stats import qmc  # here: scipy.stats takes a second to import

        unit = qmc.LatinHypercube(d=len(paths), rng=np.random.default_rng(spec.seed)).random(spec.samples)
        rows = (tuple(_lhs_value(p, u) for p, u in zip(spec.parameters, point)) for point in unit)
    return [dict(zip(paths, (float(v) for v in row))) for row in rows]


def _lhs_value(parameter, u: float) -> float:
    """Unit sample ``u`` in [0, 1) mapped onto a parameter's range, or onto one of its values."""
    if parameter.is_range:
        return parameter.low + u * (parameter.high - parameter.low)
    levels = parameter.levels()
    return levels[min(int(u * len(levels)), len(levels) - 1)]


def build_variants(model: dict, spec: SweepSpec, workers: int | None = None) -> list[Variant]:
    """Every run of the sweep, validated: a :class:`SweepError` lists each variant that
    is not a valid model (``run 3 (contacts[tip].mu_s = 0.2): contacts[tip].mu_d: must
    be <= mu_s``) and every path that names no number of the model; a design over the
    cap is refused with what it would cost (:func:`solver.sweeps.estimate.sweep_cost`,
    on ``workers``)."""
    if spec.over_cap() and not spec.problems():
        from .cluster import default_workers
        from .estimate import sweep_cost

        raise SweepError([f"{spec.over_cap()}: {sweep_cost(model, spec.run_count, workers or default_workers())}"])
    problems = []
    fields = {}
    for path in [*spec.paths, *(p for p, _v in spec.fixed)]:
        try:
            fields[path] = numeric_field(model, path)
        except PathError as exc:
            problems.append(str(exc))
    if problems:
        raise SweepError(problems)
    base = copy.deepcopy(model)
    fixed = {path: typed_value(fields[path], value) for path, value in spec.fixed}
    for path, value in fixed.items():
        set_path(base, path, value)
    nominal = {path: get_path(base, path, fields[path].default) for path, _size in spec.perturb}
    problems = [f"perturb[{path}]: the model gives this field no value to perturb"
                for path, value in nominal.items() if value is None]
    if problems:
        raise SweepError(problems)
    variants: dict[str, Variant] = {}
    invalid = 0
    points = design_points(spec)
    by_numbers = _checked_by_numbers(base, spec.paths)
    for k, point in enumerate(points):
        doc = copy.deepcopy(base)
        values = {path: typed_value(fields[path], nominal.get(path, 0.0) + value) for path, value in point.items()}
        for path, value in values.items():
            set_path(doc, path, value)
        bad = _problems(doc, values, fields, by_numbers)
        if bad:
            invalid += 1
            if len(problems) < MAX_LISTED:
                shown = ", ".join(f"{p} = {v:g}" for p, v in values.items())
                problems += [f"run {k + 1} ({shown}): {p}" for p in bad]
            continue
        rid = run_id(doc)
        variants.setdefault(rid, Variant(rid, {**fixed, **values}, doc))
    if problems:
        raise SweepError([f"{invalid} of {len(points)} runs are not valid models; nothing was run:"]
                         + problems[:MAX_LISTED])
    return list(variants.values())


def _checked_by_numbers(base: dict, paths: tuple[str, ...]) -> bool:
    """Whether the variants of ``base`` may be validated by their varied numbers alone
    (:func:`_problems`): ``base`` passes the schema and every varied field's object is in it, so that
    a variant differs from it in those numbers only (no object made on the way by ``set_path``)."""
    for path in paths:
        node = base
        for key in path_keys(base, path)[:-1]:
            node = node.get(key) if isinstance(node, dict) else node[key] if isinstance(node, list) else None
        if not isinstance(node, dict):
            return False
    return not schema_problems(base)


def _problems(doc: dict, values: dict, fields: dict, by_numbers: bool) -> list:
    """The problems of the variant ``doc`` of the sweep's base, whose numbers at ``values``' paths
    (described by ``fields``) are its only difference from the base: with ``by_numbers``
    (:func:`_checked_by_numbers`) none when the schema accepts each of those numbers
    (:func:`~solver.model.validate.number_accepted`, all the schema looks at there) and the rules
    across fields find nothing, 0.1 ms instead of a whole validation's 1-3 ms; else, and whenever
    something is wrong, those of :func:`~solver.model.validate.validate` (its messages)."""
    if by_numbers and all(number_accepted(fields[p], v) for p, v in values.items()) and not semantic_problems(doc):
        return []
    return validate(doc)


def foreign_rows(model: dict, rows: list[dict]) -> list[str]:
    """The rows of a sweep table that are not runs of ``model``: a row's input columns
    (those naming a number of the model) set on the model must give the row's run id.
    One line per such row (an edited value, another model's row), for at most
    :data:`MAX_LISTED` rows."""
    inputs: dict[str, bool] = {}
    out = []
    for row in rows:
        doc = copy.deepcopy(model)
        for key, value in row.items():
            if value is not None and inputs.setdefault(key, _names_number(model, key)):
                set_path(doc, key, value)
        if run_id(doc) != row.get("run"):
            shown = ", ".join(f"{k} = {v:g}" for k, v in row.items() if inputs.get(k) and v is not None)
            out.append(f"run {row.get('run')} ({shown}): its values are not those of the run it names")
            if len(out) == MAX_LISTED:
                break
    return out


def _names_number(model: dict, key: str) -> bool:
    try:
        numeric_field(model, key)
    except (PathError, ValueError):
        return False
    return True


def typed_value(spec, value: float) -> float | int:
    """``value`` as the field wants it: integers rounded (a Latin hypercube samples reals)."""
    return int(round(value)) if spec.integer else float(value)
