"""Description of a contact law for dispatch and for the model schema: its parameters
(name, unit, meaning, default) and the state it reads.

:mod:`solver.contact.normal_laws` and :mod:`solver.contact.friction_laws` each keep a
table ``{name: LawSpec}``; the model format builds its schema from those tables.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Parameter:
    """One parameter of a law.

    Attributes
    ----------
    name : str
        Keyword of the law function (``K``, ``c_e``, ``v_r``, ...).
    unit : str
        SI unit, ``"-"`` for a pure number.
    description : str
        Meaning, with the seed's symbol.
    default : float or None
        Value used when the model omits it; None means required.
    """

    name: str
    unit: str
    description: str
    default: float | None = None


@dataclass(frozen=True)
class LawSpec:
    """A law: its function, the state arguments it takes, in order, and its parameters.

    Attributes
    ----------
    name : str
        Key in the law table, as written in model files.
    equation : str
        Source of the formula.
    function : callable
        ``function(*state, **parameters)``.
    inputs : tuple of str
        Names of the positional state arguments of ``function``.
    parameters : tuple of Parameter
        Keyword parameters of ``function``.
    """

    name: str
    equation: str
    function: Callable
    inputs: tuple[str, ...]
    parameters: tuple[Parameter, ...]

    def bind(self, params: Mapping[str, float]) -> dict[str, float]:
        """Keyword arguments for ``function``: ``params`` with defaults filled in.

        Raises
        ------
        ValueError
            If ``params`` names a parameter the law does not have, or lacks a required one.
        """
        known = {p.name for p in self.parameters}
        unknown = sorted(set(params) - known)
        if unknown:
            raise ValueError(f"law {self.name!r} has no parameter(s) {unknown}; it takes {sorted(known)}")
        missing = [p.name for p in self.parameters if p.default is None and p.name not in params]
        if missing:
            raise ValueError(f"law {self.name!r} needs parameter(s) {missing}")
        return {p.name: float(params.get(p.name, p.default)) for p in self.parameters}
