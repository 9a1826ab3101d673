"""The frames of a run held in memory as columns: what :func:`solver.api.simulate` returns
in ``Results.frames`` (a run that writes its frames to a folder as it goes keeps none:
:mod:`.streaming`).

A run appends one :class:`~solver.results.frames.Frame` per output time; :class:`FrameColumns`
copies its arrays into one row of a block (one ``np.concatenate`` a frame for the arrays of
each float type: the bulky arrays in the run's precision, the others float64) and keeps its
time, energy and contact data (the contact data as rows of a table, a block's as its own:
:class:`~solver.results.frame_block.ContactBlock`).  One quantity over all frames (:meth:`FrameColumns.field`) is
then a copy of a column of the blocks, not a stack of thousands of small arrays, and a
frame's arrays cost their values, not a numpy object each (the 16-element slider-crank saved
at every step: 47 748 frames of 22 arrays).  ``frames[i]`` is a :class:`Frame` made on
access, its arrays views of its row.  The frames of one run share their arrays' shapes and
float types (its :class:`~solver.results.frames.Layout` fixes them; the first frame sets the
blocks', and a frame of other sizes is refused by ``np.concatenate``).

>>> frames = simulate(model).frames                            # doctest: +SKIP
>>> frames[5000].node_xy, frames.field("rot")[:, -1]            # doctest: +SKIP
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import fields as dataclass_fields
from operator import attrgetter
from typing import Sequence

import numpy as np

from .frame_block import ContactBlock, FrameBlock
from .frames import Frame, FrameSequence

#: the Frame fields held in the blocks: every array (time, energy and contact are kept aside)
ARRAY_FIELDS = tuple(f.name for f in dataclass_fields(Frame) if f.name not in ("time", "energy", "contact"))
#: bytes of one block of rows (of one float type); a block's pages are taken as its rows are written
BLOCK_BYTES = 1 << 22


class _Group:
    """The fields of one float type: their place in a row, and the blocks of rows."""

    def __init__(self, names: list[str], first: Frame, rows: int):
        arrays = [getattr(first, n) for n in names]
        self.dtype = arrays[0].dtype
        self.shapes = {n: a.shape for n, a in zip(names, arrays)}
        ends = np.cumsum([a.size for a in arrays])
        self.place = {n: (int(end) - a.size, int(end)) for n, a, end in zip(names, arrays, ends)}
        self.width = int(ends[-1])
        self.rows = rows
        self.arrays, self.single = attrgetter(*names), len(names) == 1
        self.blocks: list[np.ndarray] = []

    def append(self, frame: Frame, index: int) -> None:
        block, row = divmod(index, self.rows)
        if block == len(self.blocks):
            self.blocks.append(np.zeros((self.rows, self.width), dtype=self.dtype))  # pages taken as written
        arrays = self.arrays(frame)
        np.concatenate((arrays,) if self.single else arrays, axis=None, out=self.blocks[block][row])

    def extend(self, block: FrameBlock, index: int) -> None:
        """Copy the frames of ``block`` into rows ``index`` on (a row's values as :meth:`append` puts them)."""
        names, done = list(self.place), 0
        while done < len(block):
            number, row = divmod(index + done, self.rows)
            if number == len(self.blocks):
                self.blocks.append(np.zeros((self.rows, self.width), dtype=self.dtype))
            count = min(len(block) - done, self.rows - row)
            parts = [block.arrays[n][done:done + count].reshape(count, -1) for n in names]
            np.concatenate(parts, axis=1, out=self.blocks[number][row:row + count])
            done += count

    def row(self, index: int) -> np.ndarray:
        block, row = divmod(index, self.rows)
        return self.blocks[block][row]

    def column(self, name: str, start: int, stop: int) -> np.ndarray:
        """Field ``name`` of frames ``start`` to ``stop`` (stop - start, *shape): a new array."""
        a, b = self.place[name]
        parts = [self.blocks[k][max(start - k * self.rows, 0):stop - k * self.rows, a:b]
                 for k in range(start // self.rows, (stop - 1) // self.rows + 1)] if stop > start else []
        values = np.concatenate(parts) if len(parts) > 1 else np.array(parts[0]) if parts else np.empty((0, b - a), self.dtype)
        return values.reshape((stop - start, *self.shapes[name]))


class _ContactTable:
    """The frames' contact data as a table (F, keys, C) of floats, kept in parts (a frame's own,
    or a block's, :class:`~solver.results.frame_block.ContactBlock`): the layout
    :func:`~solver.results.tables.contact_arrays` makes of the frames' dicts, to the bit."""

    def __init__(self) -> None:
        self.keys: tuple[str, ...] = ()
        self.parts: list[ContactBlock] = []
        self.starts: list[int] = []  # the first frame of each part
        self.count = 0

    def append(self, contact: dict[str, np.ndarray]) -> None:
        if not contact:  # a run without contact data holds none in any frame
            self.count += 1
            return
        if not self.parts:
            self.keys = tuple(contact)
        row = np.concatenate([contact[k] for k in self.keys]).astype(float, copy=False)
        self.extend(ContactBlock(self.keys, row.reshape(1, len(self.keys), -1)), 1)

    def extend(self, block: ContactBlock | None, count: int) -> None:
        """``count`` frames' contact data, ``block``'s (None: the frames hold none)."""
        if block is not None:
            self.keys = block.keys
            self.parts.append(block)
            self.starts.append(self.count)
        self.count += count

    def frame(self, i: int) -> dict[str, np.ndarray]:
        if not self.parts:
            return {}
        k = bisect_right(self.starts, i) - 1
        return self.parts[k].frame(i - self.starts[k])

    def columns(self) -> dict[str, np.ndarray]:
        """Each key's values (F, C)."""
        if not self.parts:
            return {}
        table = np.concatenate([p.table for p in self.parts]) if len(self.parts) > 1 else self.parts[0].table
        return {k: table[:, j, :] for j, k in enumerate(self.keys)}


class FrameColumns(FrameSequence):
    """A run's frames in memory, kept as columns (see the module); ``append`` adds the next.

    ``fields``: the frame arrays kept (default: all); a frame read back has zeros of the first
    frame's shapes for the others (a table written a chunk at a time keeps only its own:
    :mod:`.streaming`).
    """

    def __init__(self, fields: Sequence[str] = ARRAY_FIELDS) -> None:
        self._fields = tuple(fields)
        self._groups: list[_Group] = []
        self._group_of: dict[str, _Group] = {}
        self._times: list[float] = []
        self._times_array = np.zeros(0)
        #: each frame's energy terms (dicts, as the frames hold them), J
        self.energies: list[dict[str, float]] = []
        #: each frame's contact data, as a table of rows
        self.contacts = _ContactTable()
        #: the fields no block holds (not kept, or of no values: rates a run does not record, no
        #: modes): zeros of the first frame's shapes
        self._empty: dict[str, np.ndarray] = {}
        self._contact_rows: tuple[int, dict[str, np.ndarray]] = (-1, {})

    def append(self, frame: Frame) -> None:
        """Copy ``frame`` in as the last frame."""
        index = len(self._times)
        if not index:
            self._begin(frame)
        for group in self._groups:
            group.append(frame, index)
        self.energies.append(frame.energy)
        self.contacts.append(frame.contact)
        self._times.append(frame.time)  # last: the frame counts once it is stored

    def append_block(self, block: FrameBlock) -> None:
        """Copy the frames of ``block`` in as the last frames (no frame objects made)."""
        index = len(self._times)
        if not index:
            self._begin(block.frame(0))
        for group in self._groups:
            group.extend(block, index)
        self.energies.extend(block.energies)
        self.contacts.extend(block.contact, len(block))
        self._times.extend(block.times.tolist())

    def _begin(self, first: Frame) -> None:
        """The blocks' layout, from the run's first frame: a group per float type."""
        by_type: dict[np.dtype, list[str]] = {}
        for name in self._fields:
            by_type.setdefault(np.asarray(getattr(first, name)).dtype, []).append(name)
        for names in by_type.values():
            width = sum(np.asarray(getattr(first, n)).size for n in names)
            if not width:
                continue
            rows = max(1, BLOCK_BYTES // (width * np.dtype(np.asarray(getattr(first, names[0])).dtype).itemsize))
            self._groups.append(_Group(names, first, rows))
        self._group_of = {n: g for g in self._groups for n in g.shapes}
        self._empty = {n: np.zeros_like(getattr(first, n)) for n in ARRAY_FIELDS
                       if n not in self._group_of and hasattr(first, n)}

    # ------------------------------------------------------------------ frames
    def __len__(self) -> int:
        return len(self._times)

    def _frame(self, i: int) -> Frame:
        arrays = {name: empty.copy() for name, empty in self._empty.items()}
        for group in self._groups:
            row = group.row(i)
            arrays.update({n: row[a:b].reshape(group.shapes[n]) for n, (a, b) in group.place.items()})
        return Frame(time=self._times[i], energy=self.energies[i], contact=self.contacts.frame(i), **arrays)

    def _contact(self, i: int) -> dict[str, np.ndarray]:
        return self.contacts.frame(i)

    # ------------------------------------------------------------------ columns
    @property
    def times(self) -> np.ndarray:
        """Each frame's time (F,), s (read-only: one array while no frame is added)."""
        if len(self._times_array) != len(self._times):
            self._times_array = np.array(self._times, dtype=float)
            self._times_array.flags.writeable = False
        return self._times_array

    def field(self, name: str, start: int = 0, stop: int | None = None) -> np.ndarray:
        """Frame field ``name`` of frames ``start`` to ``stop`` (default: all) stacked,
        (frames, *shape), in the frames' float type: a new array."""
        start, stop = self._span(start, stop)
        group = self._group_of.get(name)
        if group is not None:
            return group.column(name, start, stop)
        empty = self._empty.get(name, np.zeros(0))
        return np.zeros((stop - start, *empty.shape), dtype=empty.dtype)

    def contact_rows(self) -> dict[str, np.ndarray]:
        """Each contact key's values (F, C) as floats (``state``'s codes too): made once while no
        frame is added (the summary and the contacts table both read them)."""
        if self._contact_rows[0] != len(self):
            self._contact_rows = (len(self), self.contacts.columns())
        return self._contact_rows[1]


class FramesAndBlocks:
    """A table's frames of a chunk under way (:mod:`.streaming`): the ``fields`` of blocks of
    frames (:class:`~solver.results.frame_block.FrameBlock`) kept as blocks, each field one
    contiguous copy (where :class:`FrameColumns` copies a block into its rows of all fields),
    and frames appended one at a time copied into :class:`FrameColumns`; read as the tables
    read frames (``times``, ``energies``, ``field``, ``contact_rows``), each field concatenated
    once."""

    def __init__(self, fields: Sequence[str]) -> None:
        self._fields = tuple(fields)
        self._parts: list[FrameColumns | FrameBlock] = []
        self._count = 0

    def append(self, frame: Frame) -> None:
        if not self._parts or not isinstance(self._parts[-1], FrameColumns):
            self._parts.append(FrameColumns(self._fields))
        self._parts[-1].append(frame)
        self._count += 1

    def append_block(self, block: FrameBlock) -> None:
        """Keep the fields of ``block`` this store holds (a copy: the block's other fields are let go)."""
        self._parts.append(FrameBlock(block.times, {n: block.arrays[n].copy() for n in self._fields}, block.energies,
                                      block.contact))
        self._count += len(block)

    def __len__(self) -> int:
        return self._count

    @property
    def times(self) -> np.ndarray:
        """Each frame's time (F,), s."""
        return np.concatenate([np.asarray(p.times, dtype=float) for p in self._parts]) if self._parts else np.zeros(0)

    @property
    def energies(self) -> list[dict[str, float]]:
        return [e for p in self._parts for e in p.energies]

    def field(self, name: str, start: int = 0, stop: int | None = None) -> np.ndarray:
        """Frame field ``name`` of frames ``start`` to ``stop`` (default: all), (frames, *shape)."""
        parts = [p.arrays[name] if isinstance(p, FrameBlock) else p.field(name) for p in self._parts]
        if not parts:
            return np.zeros(0)
        return np.concatenate(parts)[start:stop] if len(parts) > 1 else parts[0][start:stop]

    def contact_rows(self) -> dict[str, np.ndarray]:
        """Each contact key's values (F, C) as floats."""
        table = _ContactTable()
        for p in self._parts:
            for part in p.contacts.parts if isinstance(p, FrameColumns) else [p.contact] * (p.contact is not None):
                table.extend(part, len(part.table))
        return table.columns()
