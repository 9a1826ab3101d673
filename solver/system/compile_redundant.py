"""Joints' rows that hold one motion twice, dropped once the rows are stacked (:mod:`.registry`,
:mod:`.redundant_joints`): a rigid link pinned to the ground at both ends, a slider on two
collinear guides, a parallelogram with a third parallel link.  A model without such rows keeps
its constraint set as it was."""
from __future__ import annotations

import numpy as np

from .builder import Compilation
from .constraints import BodyPoint, ConstraintSet
from .redundant_joints import RedundantRow, dependent_rows, refuse_dependence
from .registry import Phase, compiler


@compiler(Phase.CONSTRAINT_SET, 1)
def redundant_rows(c: Compilation) -> None:
    """Drop the joints' rows that the links' own rows, the drivers and the joints before them hold
    (:func:`~.redundant_joints.dependent_rows` at the sketched configuration), the drivers' rows
    renumbered; the rows dropped are kept in ``constraints.redundant``."""
    cs = c.constraints
    if not cs.count:
        return
    G = cs.jacobian(c.b.q0, c.n)[:, np.unique(cs.cols)].toarray()
    k0, k2 = len(c.dm.dofs), len(c.sl.node_dofs)
    slider_rows = [cs.count - k2 + i for i in range(k2)]
    internal = set(range(k0, cs.count - k2)) | {r for r in slider_rows if not cs.owners[r]}
    drivers = {i for i in range(k0) if c.dm.functions[i] is not None}
    fixed = [i for i in range(k0) if i not in drivers]
    order = [*sorted(internal), *sorted(drivers), *fixed, *(r for r in slider_rows if r not in internal)]
    found = dependent_rows(G, order)
    if not found:
        return
    words = _motions(c)
    refuse_dependence(cs.owners, internal, drivers, found, lambda row: _motion(c, row, words))
    dm_keep = [i for i in range(k0) if i not in found]
    sl_keep = [i for i in range(k2) if cs.count - k2 + i not in found]
    redundant = tuple(RedundantRow(cs.owners[row], _motion(c, row, words),
                                   tuple(dict.fromkeys(cs.owners[k] for k in np.flatnonzero(coef)
                                                       if cs.owners[k] not in ('', cs.owners[row])
                                                       and abs(coef[k]) > 1e-8 * np.abs(coef).max())))
                      for row, coef in sorted(found.items()))
    for d in c.drivers:
        d.row = dm_keep.index(d.row)
    held_twice = ConstraintSet(c.dm.subset([i for i in range(k0) if i in found]), BodyPoint(),
                               c.sl.subset([i for i in range(k2) if cs.count - k2 + i in found]))
    c.dm, c.sl = c.dm.subset(dm_keep), c.sl.subset(sl_keep)
    c.constraints = ConstraintSet(c.dm, c.bp, c.sl)
    c.constraints.redundant, c.constraints.held_twice = redundant, held_twice


def _motions(c: Compilation) -> dict[int, str]:
    """The motion of each dof in words: ``x of node 'B'``, ``the rotation of link 'shelf' at node 'B'``."""
    words = {}
    for node, (dx, dy) in c.b.node_dof.items():
        words[dx], words[dy] = f"the x of node '{node}'", f"the y of node '{node}'"
    for (node, link), d in c.b.slot_dof.items():
        words.setdefault(d, f"the rotation of link '{link}' at node '{node}'")
    return words


def _motion(c: Compilation, row: int, words: dict[int, str]) -> str:
    """Row ``row``'s motion in words."""
    k0, k1 = len(c.dm.dofs), len(c.bp.node_dofs)
    if row < k0:
        return words.get(c.dm.dofs[row], "a motion")
    if row < k0 + 2 * k1:
        dofs = c.bp.node_dofs[(row - k0) // 2]
        return words.get(dofs[(row - k0) % 2], "a motion")
    dofs = c.sl.node_dofs[row - k0 - 2 * k1]
    node = next((n for n, d in c.b.node_dof.items() if d == tuple(dofs[:2])), None)
    return f"node '{node}' across its guide" if node else "a modal link's section rotation"
