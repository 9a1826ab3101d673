"""The frames of a run going on, as the window sees them, in bounded memory.

A run started in the window writes its frames to a results folder as it produces them
(:mod:`.worker`, :func:`solver.results.streaming.streamed_results`); the Parquet files of
that folder can be read only once the run has ended and closed them.  Meanwhile playback,
the plots and the traces read :class:`RunFrames`: every frame's time, and the frames
themselves within :data:`LIVE_BYTES`, the newest half of it exactly (the *tail*: frames the
window has not taken up yet are among them) and the older frames thinned to every
``stride``-th, the stride doubling whenever they outgrow their half.  A frame thinned away
reads as the kept frame before it.  A run whose frames fit keeps them all (below 128 MiB:
some 25 000 frames of a 20-element mechanism); once it ends, the window reads the folder's
frames, every one exact (:class:`~solver.results.lazy.LazyFrames`).

The worker's thread appends; the window's thread reads (each step of either is atomic
under the GIL: a frame is stored before the count that makes it visible grows).

>>> from types import SimpleNamespace
>>> frames = RunFrames(live_bytes=4 * 80)    # room for 4 frames of 80 B
>>> for i in range(10):
...     frames.append(SimpleNamespace(time=0.1 * i, node_xy=np.zeros(10)))
>>> len(frames), frames.kept(), frames.stride
(10, [0, 4, 8, 9], 4)
>>> frames[6].time == frames[4].time, float(frames.times[6])
(True, 0.6000000000000001)
"""
from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

from solver.results.frames import Frame

#: bytes of frame arrays a run going on keeps in memory (half the newest frames, half thinned older ones)
LIVE_BYTES = 128 * 2**20


def frame_bytes(frame: Frame) -> int:
    """Bytes of a frame's arrays (its numpy fields and contact data)."""
    arrays = [v for v in vars(frame).values() if isinstance(v, np.ndarray)]
    contact = getattr(frame, "contact", None) or {}
    return sum(a.nbytes for a in arrays) + sum(np.asarray(v).nbytes for v in contact.values())


class RunFrames(Sequence[Frame]):
    """A run's frames so far: every time, the frames themselves within ``live_bytes`` (see the module)."""

    def __init__(self, live_bytes: int = LIVE_BYTES):
        self._live_bytes = live_bytes
        self._kept: dict[int, Frame] = {}
        self._times: list[float] = []
        self._tail = 0  # newest frames kept exactly (set by the first frame's size)
        #: frames older than the tail are kept when their index is a multiple of the stride
        self.stride = 1

    def append(self, frame: Frame) -> None:
        """Add the run's next frame (the worker's thread)."""
        index = len(self._times)
        if not self._tail:
            self._tail = max(1, self._live_bytes // (2 * max(frame_bytes(frame), 1)))
        self._kept[index] = frame
        self._times.append(float(frame.time))  # visible from here on
        leaving = index - self._tail  # the frame that has just left the tail
        if leaving > 0 and leaving % self.stride:
            self._kept.pop(leaving, None)
        if len(self._kept) > 2 * self._tail:
            self._thin(leaving + 1)

    def _thin(self, tail_start: int) -> None:
        """Double the stride of the frames before ``tail_start``, dropping those off it."""
        self.stride *= 2
        for i in [i for i in list(self._kept) if i < tail_start and i % self.stride]:
            del self._kept[i]

    def kept(self) -> list[int]:
        """Indices of the frames held in memory."""
        return sorted(self._kept)

    @property
    def times(self) -> np.ndarray:
        """Every frame's time so far (F,), s."""
        return np.array(self._times[:len(self)], dtype=float)

    def __len__(self) -> int:
        return len(self._times)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        count = len(self)
        i = int(index) + (count if int(index) < 0 else 0)
        if not 0 <= i < count:
            raise IndexError(f"frame {index} of {count}")
        frame = self._kept.get(i)
        while frame is None:  # thinned away (or being thinned now): the kept frame before it
            i = (i - 1) - (i - 1) % self.stride if i % self.stride == 0 else i - i % self.stride
            frame = self._kept.get(max(i, 0))
        return frame

    def __iter__(self) -> Iterator[Frame]:
        for i in range(len(self)):
            yield self[i]
