"""Frames gathered a block at a time: the frames of a run saved at every step.

A run saved at every step (``output_interval`` 0) used to cost a frame's Python at every step:
a compiled run of one step, a :class:`~solver.results.frames.Frame` of some twenty small
arrays made from the state, then copied into the store's columns.  A run of free steps
(:mod:`solver.integration.free_steps`) now records the state at each of its steps' ends
into preallocated rows, and :meth:`~solver.results.outputs.OutputBuilder.frame_block` turns
those rows into the frames' columns in one pass (the element kernels in one compiled call
over the states), with the same arithmetic as a frame made alone, to the last bit.  A
:class:`FrameBlock` holds them as columns; the stores take it whole
(:meth:`~solver.results.frame_columns.FrameColumns.append_block`, a streamed folder's
``append_block``): no frame object is made, unless the caller asks for them
(:meth:`FrameBlock.frames`, the frames of :func:`solver.api.iter_simulation`).  A run with
contact pairs gathers its frames' rows step by step (:mod:`.gathered_frames`), their contact
columns a :class:`ContactBlock`.

>>> block = out.frame_block(times, states, work_drivers)          # doctest: +SKIP
>>> block.arrays["node_xy"].shape, block.frame(0).time            # doctest: +SKIP
((256, 19, 2), 0.00125)
"""
from __future__ import annotations

from typing import Iterator

import numpy as np

from .frames import Frame

__all__ = ["BLOCK_FRAMES", "ContactBlock", "FrameBlock", "store_block"]

#: frames of one block at most (a run of free steps gathered at once is at most this long, and
#: at most :data:`~solver.integration.compiled_runs.FREE_RUN_WORK` dof-steps, some 20 ms: the loop
#: looks for a cancel between blocks)
BLOCK_FRAMES = 1024


class ContactBlock:
    """The contact columns of consecutive frames: ``table`` (K, len(keys), C), float64, row ``i``
    the values of ``keys`` of each of the C pairs in frame ``i`` (``state``'s codes as floats): the
    layout :func:`~solver.results.tables.contact_arrays` makes of the frames' dicts.  A compiled run
    of steps can fill ``table`` as it goes, one row a frame."""

    def __init__(self, keys: tuple[str, ...], table: np.ndarray):
        self.keys, self.table = keys, table

    def __getitem__(self, span: slice) -> ContactBlock:
        return ContactBlock(self.keys, self.table[span])

    def frame(self, i: int) -> dict[str, np.ndarray]:
        """Frame ``i``'s contact data as a frame holds it (``state`` as ints)."""
        row = self.table[i]
        return {k: row[j].astype(int) if k == "state" else row[j] for j, k in enumerate(self.keys)}


class FrameBlock:
    """Consecutive frames of a run as columns: ``times`` (K,), s; ``arrays``: each array field of
    :class:`Frame` (K, *its shape); ``energies``: each frame's energy terms (dicts, J);
    ``contact``: their contact columns (:class:`ContactBlock`; None: the frames hold none).  No
    moving-support data: a block comes from a run without them."""

    def __init__(self, times: np.ndarray, arrays: dict[str, np.ndarray], energies: list[dict[str, float]],
                 contact: ContactBlock | None = None):
        self.times, self.arrays, self.energies, self.contact = times, arrays, energies, contact

    def __len__(self) -> int:
        return len(self.times)

    @property
    def time(self) -> float:
        """The time of the last frame, s (what a progress report reads)."""
        return float(self.times[-1])

    def __getitem__(self, span: slice) -> FrameBlock:
        """Frames ``span`` (a slice) as a block of views."""
        return FrameBlock(self.times[span], {k: v[span] for k, v in self.arrays.items()}, self.energies[span],
                          None if self.contact is None else self.contact[span])

    def frame(self, i: int) -> Frame:
        """Frame ``i``, its arrays views of the block's."""
        contact = {} if self.contact is None else self.contact.frame(i)
        return Frame(time=float(self.times[i]), energy=self.energies[i], contact=contact,
                     **{k: v[i] for k, v in self.arrays.items()})

    def frames(self) -> Iterator[Frame]:
        """Each frame in turn (:meth:`frame`)."""
        return (self.frame(i) for i in range(len(self)))


def store_block(store, block: FrameBlock) -> None:
    """Append ``block``'s frames to a run's frame store: at once if it takes blocks
    (``append_block``), else frame by frame."""
    append_block = getattr(store, "append_block", None)
    if append_block is not None:
        append_block(block)
        return
    for frame in block.frames():
        store.append(frame)
