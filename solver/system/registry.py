"""The registry of entity compilers: one module per kind of model entity, walked in order.

Every module ``solver/system/compile_<kind>.py`` registers the steps that compile its
entities with :func:`compiler`, each at a :class:`Phase` of the dof numbering; a new
kind of joint is one new such module and touches no other: :func:`compile_steps`
imports every ``compile_*`` module of this package and returns their steps in phase
order, and :func:`solver.system.compile.compile_model` runs them on one
:class:`~solver.system.builder.Compilation`.
"""
from __future__ import annotations

import functools
import importlib
import pkgutil
from enum import IntEnum
from typing import Callable, NamedTuple


class Phase(IntEnum):
    """The phases of compiling a model, in order.  Dofs are numbered up to :attr:`WELDS`;
    from :attr:`ELEMENTS` on their number is final."""

    DOCUMENT = 0  #: rewrite the document (defaults filled in) before anything is numbered
    POINTS = 10  #: the sketch's nodes, the points of bodies and of moving masses
    MESH = 20  #: flexible links' inner nodes, elements and rotation slots
    FRAMES = 30  #: modal links' floating frames and the nodes tied to them
    BODIES = 40  #: rigid links and rigid bodies (centre-of-mass dofs) and points on them
    WELDS = 50  #: shared rotations, then the compact numbering
    ELEMENTS = 60  #: the element arrays, on the final dofs
    MASSES = 70  #: lumped masses and inertias
    GRAVITY = 80  #: the mass diagonal and the weights
    CONSTRAINTS = 90  #: ground pins, clamps, sliders, drivers
    CONSTRAINT_SET = 95  #: the body points and linear rows, the loose dofs held, stacked
    LOADS = 100  #: applied forces and torques
    CONTACTS = 110  #: contact pairs, clearance pairs, moving supports and masses


Step = Callable[["Compilation"], None]  # noqa: F821 -- solver.system.builder.Compilation


class _Entry(NamedTuple):
    phase: int
    rank: int
    module: str
    step: Step


_STEPS: list[_Entry] = []


def compiler(phase: Phase, rank: int = 0) -> Callable[[Step], Step]:
    """Register ``step(compilation)`` to run at ``phase``; steps of one phase run by ``rank``
    (where their order numbers dofs or rows), then by module name."""

    def register(step: Step) -> Step:
        _STEPS.append(_Entry(int(phase), rank, step.__module__, step))
        return step

    return register


@functools.cache
def compile_steps() -> tuple[Step, ...]:
    """Every registered step in order, after importing every ``compile_*`` module here."""
    for info in pkgutil.iter_modules(importlib.import_module(__package__).__path__):
        if info.name.startswith("compile_"):
            importlib.import_module(f"{__package__}.{info.name}")
    entries = sorted(_STEPS, key=lambda e: (e.phase, e.rank, e.module, e.step.__name__))
    return tuple(e.step for e in entries)
