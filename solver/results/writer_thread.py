"""A thread that writes a results folder's row groups while the run goes on.

A streamed run (:mod:`.streaming`) hands each full chunk of a table (its frames as columns) to a
:class:`ChunkWriter`: the chunk's Arrow columns are built, encoded and compressed into its
Parquet file on the writer's thread (pyarrow encodes without the GIL, and the compiled runs of
steps release it), so the run's thread only copies frames.  The hand-over is a bounded queue
of :data:`QUEUED_CHUNKS` chunks, written in the order handed over (a table's row groups stay in
order, and the files are the same, byte for byte, as written on the run's thread).  Every wait
has a bound (:data:`WAIT_S`).  A chunk that fails to write stops the writer (later chunks are
dropped) and the error is raised in the run's thread at its next hand-over or when the stream
finishes, as :class:`ResultsWriteError` naming the time of the last frame handed over and the
cause.

>>> writer = ChunkWriter()                               # doctest: +SKIP
>>> writer.submit(lambda: parquet.write_table(table), t=0.25)
>>> writer.drain()                                        # every chunk written, or the error raised
"""
from __future__ import annotations

import queue
import threading
from typing import Callable

__all__ = ["ChunkWriter", "ResultsWriteError", "QUEUED_CHUNKS", "WAIT_S"]

#: chunks waiting to be written at most (a chunk of the 16-element slider-crank's elements table
#: is some 6 500 frames, 25 MB of columns): the run waits when the writer is this far behind
QUEUED_CHUNKS = 2
#: the longest wait, s, for the writer to take a chunk or to finish: a writer stuck longer (a
#: disk that no longer answers) stops the run
WAIT_S = 120.0


class ResultsWriteError(OSError):
    """Writing a chunk of the results failed (or the writer stopped answering); the message names
    the time of the last frame handed over and the cause."""


class ChunkWriter:
    """One thread writing chunks in the order handed over (see the module)."""

    def __init__(self, wait_s: float = WAIT_S):
        self._wait_s = wait_s
        self._jobs: queue.Queue = queue.Queue(maxsize=QUEUED_CHUNKS)
        self._error: BaseException | None = None
        self._failed_at = 0.0
        self._abandoned = False
        self._last_time = 0.0
        self._thread = threading.Thread(target=self._work, name="flexmech-results-writer", daemon=True)
        self._thread.start()

    def submit(self, job: Callable[[], None], t: float) -> None:
        """Hand over ``job`` (writes one chunk, whose last frame is at ``t``, s); raises
        :class:`ResultsWriteError` if an earlier chunk failed or the writer takes none within the
        bound."""
        self.raise_error()
        self._last_time = t
        self._put((job, t))

    def drain(self) -> None:
        """Wait (at most the bound) for every chunk handed over to be written, and stop the
        thread; raises :class:`ResultsWriteError` if one failed."""
        if self._thread.is_alive():
            self._put(None)
            self._thread.join(self._wait_s)
            if self._thread.is_alive():
                raise ResultsWriteError(f"stopped at t = {self._last_time:.6g} s (its last frame handed to the "
                                        f"results writer): the writer did not finish within {self._wait_s:g} s")
        self.raise_error()

    def stop(self) -> None:
        """Stop the thread of an abandoned stream (chunks not yet written are dropped; waits at
        most the bound)."""
        self._abandoned = True
        try:
            self._put(None)
        except ResultsWriteError:
            return
        self._thread.join(self._wait_s)

    def raise_error(self) -> None:
        """Raise :class:`ResultsWriteError` if a chunk failed to write."""
        if self._error is not None:
            raise ResultsWriteError(f"stopped at t = {self._last_time:.6g} s (its last frame handed to the results "
                                    f"writer): writing the frames up to t = {self._failed_at:.6g} s failed: "
                                    f"{self._error}") from self._error

    def _put(self, item) -> None:
        try:
            self._jobs.put(item, timeout=self._wait_s)
        except queue.Full:
            raise ResultsWriteError(f"stopped at t = {self._last_time:.6g} s: the results writer took no chunk "
                                    f"for {self._wait_s:g} s") from None

    def _work(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            job, t = item
            if self._error is None and not self._abandoned:
                try:
                    job()
                except BaseException as exc:  # noqa: BLE001 -- any failure stops the writer; raised in the run's thread
                    self._failed_at, self._error = t, exc
