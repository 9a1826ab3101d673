"""What a sweep varies and how: parameters by path, the design, fixed settings and the
quantities collected from every run.

A sweep is a :class:`SweepSpec`; the command line builds one from ``--vary``,
``--set`` and ``--collect`` (:func:`parse_vary`, :func:`parse_set`), the GUI from its
dialog, and a file holds it as JSON (:func:`spec_from_json`, :func:`spec_to_json`):

.. code-block:: json

    {"parameters": [{"path": "contacts[B-ground].mu_s", "low": 0.4, "high": 0.85, "count": 10},
                     {"path": "contacts[B-ground].e", "values": [0.2, 0.5, 0.8]}],
     "design": "grid", "set": {"contacts[B-ground].mu_d": 0.4},
     "collect": ["max(contact/B-ground/F_n)"], "keep_results": false}

Designs: ``grid`` (full factorial: every combination of the parameters' values),
``zip`` (the parameters' lists side by side: the k-th run takes the k-th value of
each), ``lhs`` (a Latin hypercube of ``samples`` points over the parameters' ranges,
``seed`` for repeatability; a list parameter picks among its values), ``ensemble``
(``samples`` copies of the model, each field of ``perturb`` moved from the model's own
value by an offset drawn uniformly from ``[-size, +size]``, ``seed`` for repeatability:
the spread of a chaotic run's statistics, :mod:`solver.sweeps.spread`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

DESIGNS = ("grid", "zip", "lhs", "ensemble")
#: the designs whose run count is ``samples``
SAMPLED = ("lhs", "ensemble")

#: the largest number of runs a sweep may have
MAX_RUNS = 100_000


class SweepError(ValueError):
    """A sweep that cannot run; ``problems`` lists every reason, each naming its field."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class Parameter:
    """One varied field: its model path and either a list of ``values`` or a range
    ``low .. high`` in ``count`` equal steps (``count`` is ignored by ``lhs``)."""

    path: str
    values: tuple[float, ...] | None = None
    low: float | None = None
    high: float | None = None
    count: int | None = None

    @property
    def size(self) -> int:
        """How many values :meth:`levels` gives, without making them."""
        return len(self.values) if self.values is not None else int(self.count or 2)

    def levels(self) -> list[float]:
        """The values of a grid or zip design."""
        if self.values is not None:
            return list(self.values)
        n = self.size
        return [self.low + (self.high - self.low) * k / (n - 1) for k in range(n)] if n > 1 else [self.low]

    @property
    def is_range(self) -> bool:
        return self.values is None

    def describe(self) -> str:
        """The ``--vary`` text of this parameter: ``path=low:high:count`` or ``path=a,b,c``."""
        if self.values is not None:
            return f"{self.path}=" + ",".join(f"{v:g}" for v in self.values)
        return f"{self.path}={self.low:g}:{self.high:g}:{self.count or 2}"

    def problems(self, where: str) -> list[str]:
        """What is wrong with this parameter, each line naming ``where`` it is."""
        out = []
        if self.values is not None:
            if not self.values:
                out.append(f"{where}.values: needs at least one value")
            if not all(_is_number(v) for v in self.values):
                out.append(f"{where}.values: must be finite numbers")
            if self.low is not None or self.high is not None:
                out.append(f"{where}: give either values or low and high, not both")
            return out
        if not (_is_number(self.low) and _is_number(self.high)):
            out.append(f"{where}: give values, or low and high (finite numbers)")
        elif self.high < self.low:
            out.append(f"{where}.high: must be >= low")
        if self.count is not None and (not isinstance(self.count, int) or isinstance(self.count, bool)
                                       or not 1 <= self.count <= MAX_RUNS):
            out.append(f"{where}.count: must be an integer from 1 to {MAX_RUNS}")
        return out


@dataclass(frozen=True)
class SweepSpec:
    """A sweep: the parameters, the design (:data:`DESIGNS`), the ``samples`` and
    ``seed`` of a Latin hypercube or an ensemble, fields ``fixed`` for every run (path ->
    value), the fields an ensemble ``perturb``s (path -> largest offset, in the field's
    unit), the ``collect`` quantities (:mod:`solver.sweeps.scalars`) and whether each
    run's full results folder is kept."""

    parameters: tuple[Parameter, ...]
    design: str = "grid"
    samples: int | None = None
    seed: int = 0
    fixed: tuple[tuple[str, float], ...] = ()
    collect: tuple[str, ...] = ()
    keep_results: bool = False
    perturb: tuple[tuple[str, float], ...] = ()

    @property
    def run_count(self) -> int:
        """The runs of the design, counted in Python integers (no wrap-around) without
        making them; 0 for a spec with problems that leave it unknown."""
        if self.design in SAMPLED:
            return self.samples if _is_count(self.samples) else 0
        sizes = [p.size for p in self.parameters if not p.problems("")]
        if len(sizes) < len(self.parameters) or not sizes:
            return 0
        return math.prod(sizes) if self.design == "grid" else sizes[0]

    @property
    def paths(self) -> list[str]:
        """The fields that change from run to run: the varied ones, or an ensemble's perturbed ones."""
        return [p.path for p in self.parameters] + [path for path, _size in self.perturb]

    def problems(self) -> list[str]:
        """What is wrong with the spec itself (before the model is looked at)."""
        out = self._ensemble_problems() if self.design == "ensemble" else []
        if not self.parameters and self.design != "ensemble":
            out.append("parameters: vary at least one field")
        if self.perturb and self.design != "ensemble":
            out.append(f"perturb: only an ensemble perturbs fields (design is {self.design})")
        for i, p in enumerate(self.parameters):
            out += p.problems(f"parameters[{p.path or i}]")
        seen = [p.path for p in self.parameters]
        for path in sorted({p for p in seen if seen.count(p) > 1}):
            out.append(f"parameters[{path}]: varied twice")
        for path, _value in self.fixed:
            if path in seen or path in dict(self.perturb):
                out.append(f"set[{path}]: is also varied")
            if not _is_number(_value):
                out.append(f"set[{path}]: must be a finite number")
        if self.design not in DESIGNS:
            out.append(f"design: must be one of {', '.join(DESIGNS)}, got '{self.design}'")
        if self.design in SAMPLED and not _is_count(self.samples):
            out.append(f"samples: {'an ensemble' if self.design == 'ensemble' else 'a Latin hypercube'} "
                       "needs samples >= 1")
        for p in self.parameters:
            if self.design not in SAMPLED and p.values is None and p.count == 1 and not p.problems("") \
                    and p.high > p.low:
                out.append(f"parameters[{p.path}].count: 1 runs low = {p.low:g} only, not high = {p.high:g}: "
                           "give a count of 2 or more, or the one value as a list")
        if self.design == "zip" and len({p.size for p in self.parameters if not p.problems("")}) > 1:
            out.append("design zip: every parameter needs as many values ("
                       + ", ".join(f"{p.path}: {p.size}" for p in self.parameters) + ")")
        return out

    def over_cap(self) -> str | None:
        """``design grid: 1000000 runs, more than 100000`` when the design has more runs
        than :data:`MAX_RUNS`, else None."""
        count = self.run_count
        return f"design {self.design}: {count} runs, more than {MAX_RUNS}" if count > MAX_RUNS else None


    def _ensemble_problems(self) -> list[str]:
        """What is wrong with an ensemble: it perturbs fields and varies none."""
        out = []
        if not self.perturb:
            out.append("perturb: an ensemble perturbs at least one field (PATH=SIZE)")
        if self.parameters:
            out.append("parameters: an ensemble varies no field; perturb it (or fix it with set)")
        paths = [path for path, _size in self.perturb]
        for path, size in self.perturb:
            if not _is_number(size) or size <= 0:
                out.append(f"perturb[{path}]: the size must be a finite number > 0")
        for path in sorted({p for p in paths if paths.count(p) > 1}):
            out.append(f"perturb[{path}]: perturbed twice")
        return out


def _is_count(x: Any) -> bool:
    """A positive integer (not a bool)."""
    return isinstance(x, int) and not isinstance(x, bool) and x >= 1


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


# ------------------------------------------------------------------ text forms
def parse_vary(text: str) -> Parameter:
    """``path=low:high:count`` (a range), ``path=a,b,c`` (a list) or ``path=a``; the values
    follow the last ``=`` (an id in the path may hold one).

    >>> parse_vary("contacts[tip].mu_s=0.1:0.9:9")
    Parameter(path='contacts[tip].mu_s', values=None, low=0.1, high=0.9, count=9)
    >>> parse_vary("links[rod].mesh.elements=4,8,16").values
    (4.0, 8.0, 16.0)
    """
    path, sep, spec = text.rpartition("=")
    path, spec = path.strip(), spec.strip()
    if not sep or not path or not spec:
        raise SweepError([f"--vary {text}: write PATH=LOW:HIGH:COUNT or PATH=A,B,C"])
    try:
        if ":" in spec:
            parts = spec.split(":")
            if len(parts) != 3:
                raise ValueError
            return Parameter(path, low=float(parts[0]), high=float(parts[1]), count=int(parts[2]))
        return Parameter(path, values=tuple(float(v) for v in spec.split(",")))
    except ValueError:
        raise SweepError([f"--vary {text}: '{spec}' is not LOW:HIGH:COUNT (count an integer) "
                          "nor a comma-separated list of numbers"]) from None


def parse_set(text: str, option: str = "--set") -> tuple[str, float]:
    """``path=value`` of ``--set`` (or ``path=size`` of ``--perturb``, named by ``option``), the
    value after the last ``=``.

    >>> parse_set("joints[B-clearance].offset.x=1e-7", "--perturb")
    ('joints[B-clearance].offset.x', 1e-07)
    """
    path, sep, value = text.rpartition("=")
    try:
        if not sep or not path.strip():
            raise ValueError
        return path.strip(), float(value)
    except ValueError:
        raise SweepError([f"{option} {text}: write PATH=NUMBER"]) from None


# ------------------------------------------------------------------ JSON form
def spec_to_json(spec: SweepSpec) -> dict[str, Any]:
    """The JSON form of ``spec`` (what ``sweep.json`` and ``--spec FILE`` hold)."""
    params = []
    for p in spec.parameters:
        entry: dict[str, Any] = {"path": p.path}
        if p.values is not None:
            entry["values"] = list(p.values)
        else:
            entry.update(low=p.low, high=p.high)
            if p.count is not None:
                entry["count"] = p.count
        params.append(entry)
    out: dict[str, Any] = {"parameters": params, "design": spec.design}
    if spec.design in SAMPLED:
        out.update(samples=spec.samples, seed=spec.seed)
    if spec.perturb:
        out["perturb"] = dict(spec.perturb)
    if spec.fixed:
        out["set"] = dict(spec.fixed)
    if spec.collect:
        out["collect"] = list(spec.collect)
    out["keep_results"] = spec.keep_results
    return out


_KEYS = {"parameters", "design", "samples", "seed", "set", "perturb", "collect", "keep_results"}
_PARAMETER_KEYS = {"path", "values", "low", "high", "count"}


def spec_from_json(doc: Any) -> SweepSpec:
    """A :class:`SweepSpec` from its JSON form; :class:`SweepError` names every bad field."""
    if not isinstance(doc, dict):
        raise SweepError(["the sweep must be a JSON object"])
    problems = [f"{k}: unknown field" for k in sorted(set(doc) - _KEYS)]
    raw = doc.get("parameters", [])
    if not isinstance(raw, list):
        raise SweepError(problems + ["parameters: must be a list"])
    params = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or not isinstance(item.get("path"), str):
            problems.append(f"parameters[{i}].path: is required (a model path such as contacts[tip].mu_s)")
            continue
        problems += [f"parameters[{item['path']}].{k}: unknown field" for k in sorted(set(item) - _PARAMETER_KEYS)]
        values = item.get("values")
        if values is not None and not isinstance(values, list):
            problems.append(f"parameters[{item['path']}].values: must be a list of numbers")
            continue
        params.append(Parameter(item["path"], tuple(values) if values is not None else None,
                                item.get("low"), item.get("high"), item.get("count")))
    fixed, perturb = doc.get("set", {}), doc.get("perturb", {})
    collect = doc.get("collect", [])
    if not isinstance(fixed, dict):
        problems.append("set: must be an object of path: number")
        fixed = {}
    if not isinstance(perturb, dict):
        problems.append("perturb: must be an object of path: size")
        perturb = {}
    if not (isinstance(collect, list) and all(isinstance(c, str) for c in collect)):
        problems.append("collect: must be a list of quantity names")
        collect = []
    seed = doc.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        problems.append("seed: must be an integer")
        seed = 0
    spec = SweepSpec(tuple(params), design=doc.get("design", "grid"), samples=doc.get("samples"), seed=seed,
                     fixed=tuple(fixed.items()), collect=tuple(collect), keep_results=bool(doc.get("keep_results")),
                     perturb=tuple(perturb.items()))
    problems += spec.problems()
    if problems:
        raise SweepError(problems)
    return spec
