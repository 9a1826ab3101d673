"""Frames of a run with contact pairs saved at every step, gathered a block at a time.

A run of contact steps (the loop takes them one by one in Python) saved at every step used to
make a whole :class:`~solver.results.frames.Frame` at every step: some twenty small arrays of
the state, a dict of the energy terms, a dict of a (C,) array per contact key, each then copied
into the store's columns.  :class:`GatheredFrames` copies instead what a frame is made of into
preallocated rows -- the state ``(t, q, v, a, lam)``, the energy terms (the values the step's
energy guard already computed, :meth:`~solver.results.outputs.OutputBuilder.energy_row`) and the
contact columns (one row (keys, C) a frame,
:meth:`~solver.contact.tracker.ContactTracker.frame_row`) -- and makes the frames of
:data:`~solver.results.frame_block.BLOCK_FRAMES` rows at once
(:meth:`~solver.results.outputs.OutputBuilder.states_block`, the element outputs in one compiled
call): the frames :meth:`~solver.results.outputs.OutputBuilder.frame` makes, to the last bit.

>>> gathered = GatheredFrames(out, tracker.frame_keys, tracker.frame_row, chosen)   # doctest: +SKIP
>>> full = gathered.add(state); block = gathered.take()                           # doctest: +SKIP
"""
from __future__ import annotations

import time
from typing import Callable

import numpy as np

from ..system.state import State
from .frame_block import BLOCK_FRAMES, ContactBlock, FrameBlock
from .outputs import OutputBuilder

__all__ = ["GatheredFrames", "block_of_rows"]

#: a block is due once its first frame is this old, s of wall, if not full before: a window showing
#: the run sees it go on (a block's frames are those of frames made alone wherever it is cut)
LIVE_S = 0.1


class GatheredFrames:
    """The rows of the frames due since the last block: ``add`` a state's, ``take`` the block.

    ``contact_keys`` and ``contact_row``: the contact columns' keys and the row (keys, C) of a
    state (None: the frames hold no contact data); ``chosen``: the pairs the frames keep
    (indices into C, in order: ``solver.record.contacts``)."""

    def __init__(self, out: OutputBuilder, contact_keys: tuple[str, ...],
                 contact_row: Callable[[State], np.ndarray] | None, chosen: np.ndarray):
        self.out, self.contact_keys, self.contact_row = out, contact_keys, contact_row
        #: the pairs kept, None: every pair (the row copied whole)
        self.chosen = None if len(chosen) == len(out.sys.contacts) else np.asarray(chosen, dtype=int)
        self.width = len(chosen)
        self.energy_keys = out.energy_keys()
        self.count = 0
        self._rows: dict[str, np.ndarray] | None = None  # each block its own arrays (a block is handed on)
        self._started = 0.0  # when the block's first frame was added, s (perf_counter)

    def _allocate(self, st: State) -> dict[str, np.ndarray]:
        """Rows for a block of frames of states shaped as ``st``."""
        rows = {key: np.empty((BLOCK_FRAMES, *getattr(st, key).shape)) for key in ("q", "v", "a", "lam")}
        rows.update(t=np.empty(BLOCK_FRAMES), energy=np.empty((BLOCK_FRAMES, len(self.energy_keys))))
        if self.contact_row is not None:
            rows["contact"] = np.empty((BLOCK_FRAMES, len(self.contact_keys), self.width))
        return rows

    def add(self, st: State) -> bool:
        """Copy the frame of ``st`` into the next row (its contact data taken now: the impulses
        since the last frame); whether the block is due: full, or :data:`LIVE_S` old."""
        if self._rows is None:
            self._rows, self._started = self._allocate(st), time.perf_counter()
        rows, i = self._rows, self.count
        rows["t"][i], rows["q"][i], rows["v"][i], rows["a"][i], rows["lam"][i] = st.t, st.q, st.v, st.a, st.lam
        rows["energy"][i] = self.out.energy_row(st)
        if self.contact_row is not None and self.chosen is None:
            rows["contact"][i] = self.contact_row(st)
        elif self.contact_row is not None:
            np.take(self.contact_row(st), self.chosen, axis=1, out=rows["contact"][i])
        self.count += 1
        return self.count == BLOCK_FRAMES or time.perf_counter() - self._started >= LIVE_S

    def contact_block(self, times: np.ndarray, states: tuple[np.ndarray, ...]) -> ContactBlock | None:
        """The contact columns of the frames of states ``(q, v, a, lam)`` (rows) at ``times``, s,
        taken in turn as :meth:`add` takes them (a run of open steps recorded in one compiled call)."""
        if self.contact_row is None:
            return None
        table = np.empty((len(times), len(self.contact_keys), self.width))
        for i, (t, q, v, a, lam) in enumerate(zip(times.tolist(), *states)):
            row = self.contact_row(State(t, q, v, a, lam))
            table[i] = row if self.chosen is None else row[:, self.chosen]
        return ContactBlock(self.contact_keys, table)

    def take(self) -> FrameBlock | None:
        """The frames added since the last block (None: none)."""
        if not self.count:
            return None
        rows, k = self._rows, self.count
        self._rows, self.count = None, 0
        states = tuple(rows[key][:k] for key in ("q", "v", "a", "lam"))
        contact = rows["contact"][:k] if "contact" in rows else None
        if contact is not None and k < BLOCK_FRAMES:  # the stores keep it: not a view of unused rows
            contact = contact.copy()
        return block_of_rows(self.out, rows["t"][:k], states, rows["energy"][:k], self.contact_keys, contact)


def block_of_rows(out: OutputBuilder, times: np.ndarray, states: tuple[np.ndarray, ...], energy: np.ndarray,
                  contact_keys: tuple[str, ...], contact: np.ndarray | None) -> FrameBlock:
    """The frames of K rows gathered by a run of steps: ``times`` (K,), s; ``states`` ``(q, v, a,
    lam)`` (K, ...); ``energy`` (K, len(out.energy_keys())), J, each row
    :meth:`~solver.results.outputs.OutputBuilder.energy_row` of its state; ``contact`` (K,
    len(contact_keys), chosen pairs), each row the chosen columns of
    :meth:`~solver.contact.tracker.ContactTracker.frame_row` (None: the frames hold no contact
    data).  The arrays are the block's own (not copied)."""
    energies = [dict(zip(out.energy_keys(), values)) for values in energy.tolist()]
    block = None if contact is None else ContactBlock(contact_keys, contact)
    return out.states_block(times, states, energies, block)
