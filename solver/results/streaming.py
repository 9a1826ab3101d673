"""Writing a results folder while the run produces it: frames go to the Parquet files in
chunks (one row group each) as they are appended, so a run's memory is bounded by a chunk
of frames, not by their number.

:func:`streamed_results` gives a stream whose files are temporaries
(:func:`~solver.safe_write.replacing_set`); the run appends its frames to
:attr:`ResultsStream.frames` (``solver.api.simulate(..., frames=...)``), and
:meth:`ResultsStream.finish` writes the tables still held, ``model.json``, the step log,
``tables.zip`` (the tables of at most :data:`~solver.results.bundle.BUNDLE_BYTES`:
:mod:`.bundle`) and ``summary.json`` (the event log, and the SHA-256 of every other file) and renames them
all into place, ``summary.json`` last; then it removes the files the previous run's
``summary.json`` listed that this run does not write (a table that moved into ``tables.zip``
or out of it, an older version's files such as ``events.csv``; an exported CSV file stays).  Until then the
folder holds the previous run: a run that fails, is interrupted or killed leaves it (and at
most temporary files ``.<name>.<random>.tmp``, removed by the next write).  A table's Parquet
file is begun when its first chunk is full; chunks are cut exactly as
:func:`~solver.results.files.write_results` cuts them (it writes a finished run's frames the
same way): the files are the same, byte for byte.  A full chunk is written on the stream's
writer thread (:mod:`.writer_thread`) while the run goes on (and hashed there as it is written:
:class:`~solver.results.integrity.GrowingFileHash`), and the links' strain peaks of
``summary.json`` are gathered from the elements' chunks as they are handed over
(:class:`~solver.results.summary.StrainPeaks`): no table is read back for them.  A chunk holds
at most :data:`CHUNK_FRAMES` frames (see :func:`chunk_frames`).

>>> with streamed_results("out/cantilever") as stream:             # doctest: +SKIP
...     results = simulate(model, frames=stream.frames)
...     stream.finish(results)
"""
from __future__ import annotations

import json
import os
import traceback
from contextlib import contextmanager
from pathlib import Path
from functools import partial
from typing import Callable, Iterator, Sequence

import pyarrow as pa

from ..errors import SolverError, unexpected_error
from ..model.io import dumps_model
from ..safe_write import Replacement, replacing_set
from .bundle import BUNDLE, BUNDLE_BYTES, ArrowFile, bundle_bytes, empty_ipc_bytes, ipc_bytes, member
from .columnar import ROW_GROUP_ROWS, TableSpec, frame_tables, parquet_file, parquet_writer, step_table, value_fields
from .frame_block import FrameBlock
from .frame_columns import FramesAndBlocks
from .frames import Frame, Results, frame_times
from .integrity import MODEL, SUMMARY, TABLE_FILES, GrowingFileHash, file_sha256, read_bytes, self_hash_tail
from .lazy import LazyFrames
from .summary import StrainPeaks, summarize
from .validity import run_warnings
from .writer_thread import ChunkWriter
from .tables import SELF_HASH, TABLES, VERSION, jsonable, sha256
from .wear_table import WEAR_FILE, wear_csv

__all__ = ["ResultsStream", "streamed_results", "summary_text"]

#: every file a results folder of any version may hold but summary.json (what a write may replace or remove)
FOLDER_FILES = (MODEL, BUNDLE, *dict.fromkeys(f for files in TABLE_FILES.values() for f in files.values()))


#: a folder of at most this many bytes is renamed into place without flushing its files to disk
#: first: a journal commit waited for costs a small run's write more than all else on a busy disk
#: (1-15 ms against a solve of 20 ms), a kill leaves the same outcomes (the files are renamed in
#: the same order), and after a power cut within seconds of the write the folder may be refused
#: (a file empty or old, which its SHA-256 tells) -- never a mix that loads; a run so small is
#: run again in a second.  A larger folder is flushed, as every folder was before.
FLUSH_BYTES = 1 << 20
#: frames of a row group at most (fewer where :data:`ROW_GROUP_ROWS` rows are fewer frames): a
#: run's row groups are written on the writer thread as it goes, not at its finish (the
#: 16-element slider-crank's nodes table, 18 rows a frame, held all of 8001 frames till then)
CHUNK_FRAMES = 1024


def chunk_frames(spec: TableSpec) -> int:
    """Frames of one row group of the table of ``spec``: :data:`CHUNK_FRAMES`, at most
    :data:`ROW_GROUP_ROWS` rows, and more than :data:`~solver.results.bundle.BUNDLE_BYTES` of
    values (a table that fills a row group would not have been a member of ``tables.zip``: its
    fixed-width columns alone, :func:`row_bytes` a row, are larger)."""
    bundled = BUNDLE_BYTES // (spec.per_frame * row_bytes(spec.schema)) + 1
    return max(1, min(ROW_GROUP_ROWS // spec.per_frame, max(CHUNK_FRAMES, bundled)))


def row_bytes(schema: pa.Schema) -> int:
    """Bytes a row of ``schema`` holds at least in an Arrow table: each column's fixed width (a
    text column's dictionary indices)."""
    types = [t.index_type if pa.types.is_dictionary(t) else t for t in schema.types]
    return sum(t.bit_width // 8 for t in types if pa.types.is_primitive(t) and not pa.types.is_boolean(t))


class _TableStream:
    """One table written chunk by chunk: the frames of the chunk under way (kept as columns of
    only the fields the table reads, or the last frames of a finished run's, from an index),
    and once a chunk is full, its Parquet file."""

    def __init__(self, stream: ResultsStream, name: str, spec: TableSpec, fields: tuple[str, ...]):
        self.stream, self.name, self.spec, self.fields = stream, name, spec, fields
        #: the links' strain peaks, gathered from the elements table's chunks as they are written
        self.strains = stream.strains if name == "elements" else None
        self.size = chunk_frames(spec) if spec.per_frame else 0
        self.pending = FramesAndBlocks(fields)
        #: fewer than a chunk of a finished run's frames, not yet written (its frames and the first)
        self.held: tuple[Sequence[Frame], int] | None = None
        self.rows = 0
        self.writer = None
        self.path: Path | None = None
        self.digest: GrowingFileHash | None = None  # of the Parquet file, hashed as its row groups are written

    def append(self, frame: Frame) -> None:
        if not self.size:  # a table without rows holds no row group
            return
        self._take_held()
        self.pending.append(frame)
        if len(self.pending) == self.size:
            self._hand_over_pending()

    def append_block(self, block: FrameBlock) -> None:
        """Append the frames of ``block``, the chunks cut where :meth:`append` cuts them."""
        if not self.size:
            return
        self._take_held()
        done = 0
        while done < len(block):
            count = min(len(block) - done, self.size - len(self.pending))
            self.pending.append_block(block[done:done + count])
            done += count
            if len(self.pending) == self.size:
                self._hand_over_pending()

    def extend(self, frames: Sequence[Frame]) -> None:
        """Append the frames of a finished run: straight from ``frames``, a chunk at a time."""
        if not self.size:
            return
        self._take_held()
        i = 0
        while len(self.pending) and i < len(frames):
            self.append(frames[i])
            i += 1
        while len(frames) - i >= self.size:
            self._hand_over(frames, i, i + self.size)
            i += self.size
        if i < len(frames):  # fewer than a chunk: written by close, or taken up by the next frames
            self.held = (frames, i)

    def _take_held(self) -> None:
        """The frames held from a finished run into the chunk under way (more frames follow them)."""
        if self.held is not None:
            frames, start = self.held
            self.held = None
            for i in range(start, len(frames)):
                self.pending.append(frames[i])

    def _begin(self) -> None:
        """Begin the table's Parquet file, if not yet begun."""
        if self.writer is None:
            self.path = self.stream.temporary(TABLE_FILES[VERSION][self.name])
            self.writer = parquet_writer(self.path, self.spec.schema)
            self.digest = GrowingFileHash(self.path)

    def _hand_over_pending(self) -> None:
        """Hand the chunk under way to the writer; a new chunk begins."""
        self._hand_over(self.pending, 0, len(self.pending))
        self.pending = FramesAndBlocks(self.fields)

    def _hand_over(self, frames, start: int, stop: int) -> None:
        """Hand frames ``start`` to ``stop`` of ``frames`` (no longer changed) to the stream's
        writer thread as one row group (the table's Parquet file begun with its first); the
        table's frames are read there only (frames read from files: one reader a file)."""
        self._begin()
        self.rows += (stop - start) * self.spec.per_frame
        self.stream.chunk_writer.submit(partial(self._write_chunk, self.writer, frames, start, stop),
                                        self.stream.last_time)

    def _write_chunk(self, writer, frames, start: int, stop: int) -> None:
        """Write frames ``start`` to ``stop`` as a row group with ``writer`` (their strain peaks
        gathered first: the elements table's), and hash it."""
        self._gather_peaks(frames, start, stop)
        writer.write_table(pa.table(self.spec.columns(frames, start, stop), schema=self.spec.schema))
        self.digest.catch_up()

    def _gather_peaks(self, frames, start: int, stop: int) -> None:
        """The strain peaks of frames ``start`` to ``stop`` (the elements table's)."""
        if self.strains is not None:
            self.strains.add(frames, start, stop, frame_times(frames, start, stop))

    def close(self, bundled: dict[str, bytes]) -> Callable[[], dict] | None:
        """Take what is held: into ``bundled`` (its IPC file under its member's name; returns
        ``None``) if the table is small and has no file, else returns the closing of its file
        (its last row group written, the file closed: returns the file's entry in
        ``summary.json``), to be called once the chunks handed over are written."""
        frames, start = self.held if self.held is not None else (self.pending, 0)
        if self.size:
            self._gather_peaks(frames, start, len(frames))
        table = pa.table(self.spec.columns(frames, start), schema=self.spec.schema) if len(frames) > start else None
        if self.writer is None and (table.get_total_buffer_size() if table is not None else 0) <= BUNDLE_BYTES:
            bundled[member(self.name)] = ipc_bytes(table) if table is not None else empty_ipc_bytes(self.spec.schema)
            self.rows = table.num_rows if table is not None else 0
            return None
        self._begin()  # a table without rows: its schema only
        self.rows += table.num_rows if table is not None else 0
        writer, digest, rows = self.writer, self.digest, self.rows

        def close_file() -> dict:
            if table is not None:
                writer.write_table(table)
            writer.close()
            return {"rows": rows, "sha256": digest.hexdigest()}

        return close_file

    def reader(self, bundled: dict[str, bytes]):
        """The table as written, read column by column (:class:`~solver.results.lazy.LazyFrames`)."""
        if self.writer is None:
            return ArrowFile(f"{BUNDLE}:{member(self.name)}", bundled[member(self.name)])
        return parquet_file(str(self.path), str(self.path))


class _StreamedFrames:
    """The frames of a run being written: appended to the tables as they come; once
    :meth:`ResultsStream.finish` has closed the files, read back from them (:class:`LazyFrames`)."""

    def __init__(self, stream: ResultsStream):
        self._stream = stream
        self.count = 0

    def append(self, frame: Frame) -> None:
        self._stream._append(frame)
        self.count += 1

    def append_block(self, block: FrameBlock) -> None:
        self._stream._append_block(block)
        self.count += len(block)

    def __len__(self) -> int:
        return self.count

    def __bool__(self) -> bool:
        return self.count > 0


class ResultsStream:
    """A results folder being written: see :func:`streamed_results`."""

    def __init__(self, directory: Path, replacement: Replacement):
        self._directory, self._replacement = directory, replacement
        self._previous = previous_files(directory)
        self._results: Results | None = None
        self._tables: dict[str, _TableStream] = {}
        self.strains: StrainPeaks | None = None  # of the elements written, once the tables are open
        self._first: Frame | None = None
        self.last_time = 0.0  # of the last frame appended, s
        self._chunk_writer: ChunkWriter | None = None
        self.finished = False
        self.warnings: list[str] = []
        #: the run's frames went to the files as it ran and are read back from them
        self.read_back = False

    def temporary(self, name: str, data: bytes = b"") -> Path:
        """The temporary file of the folder's file ``name``, holding ``data`` (renamed into place
        in the order made)."""
        return self._replacement.temporary(self._directory / name, data)

    @property
    def chunk_writer(self) -> ChunkWriter:
        """The thread writing the tables' full chunks (started with the first)."""
        if self._chunk_writer is None:
            self._chunk_writer = ChunkWriter()
        return self._chunk_writer

    def _drain(self) -> None:
        """Wait for the writer thread to write every chunk handed over (raises its error); the
        next chunk starts a new thread."""
        if self._chunk_writer is not None:
            writer, self._chunk_writer = self._chunk_writer, None
            writer.drain()

    def _close_files(self, closing: dict[str, Callable[[], dict] | None]) -> dict[str, dict | None]:
        """Each table's entry in ``summary.json`` (None: in ``tables.zip``), its file closed
        (:meth:`_TableStream.close`): the last file on this thread, the others on the writer's
        at the same time (pyarrow encodes without the GIL: two cores at once)."""
        entries: dict[str, dict | None] = dict.fromkeys(closing)
        files = [(name, close) for name, close in closing.items() if close is not None]
        for name, close in files[:-1]:
            self.chunk_writer.submit(partial(_enter, entries, name, close), self.last_time)
        if files:
            entries[files[-1][0]] = files[-1][1]()
        self._drain()
        return entries

    def frames(self, results: Results) -> _StreamedFrames:
        """The frame store of the run of ``results`` (its layout complete by the first frame);
        pass this method as ``simulate(..., frames=stream.frames)``."""
        self._results = results
        return _StreamedFrames(self)

    def _append(self, frame: Frame) -> None:
        if not self._tables:
            self._open(frame)
        self.last_time = frame.time
        for table in self._tables.values():
            table.append(frame)

    def _append_block(self, block: FrameBlock) -> None:
        if not self._tables:
            self._open(block.frame(0))
        self.last_time = block.time
        for table in self._tables.values():
            table.append_block(block)

    def _open(self, first: Frame | None) -> None:
        self._first = first
        layout = self._results.layout
        self.strains = StrainPeaks(layout)
        fields = {name: tuple(f for f, _ in value_fields(name, layout)) for name in TABLES
                  if name not in ("energy", "contacts", "steps", "events")}
        fields.update(energy=(), contacts=())
        self._tables = {name: _TableStream(self, name, spec, fields[name])
                        for name, spec in frame_tables(layout, first).items()}

    def write_frames(self, results: Results) -> None:
        """Append the frames of a finished run (:func:`~solver.results.files.write_results`)."""
        self._results = results
        if not self._tables:
            self._open(results.frames[0] if results.frames else None)
        self.last_time = results.frames[len(results.frames) - 1].time if results.frames else 0.0
        for table in self._tables.values():
            table.extend(results.frames)

    def finish(self, results: Results) -> None:
        """Write the tables still held, the step log, ``model.json``, ``tables.zip`` and
        ``summary.json`` (with the events); ``results.frames`` then reads the frames back from the files,
        which :func:`streamed_results` renames into place."""
        self._results = results
        if not self._tables:
            self._open(results.frames[0] if results.frames else None)
        self._drain()
        bundled: dict[str, bytes] = {}
        entries = self._close_files({name: table.close(bundled) for name, table in self._tables.items()})
        entries["steps"] = self._write_steps(results, bundled)
        self.read_back = isinstance(results.frames, _StreamedFrames)
        if self.read_back:  # the energy and contact keys the frames hold
            keys = (list(self._first.energy), list(self._first.contact)) if self._first is not None else ([], [])
            readers = {name: (name, table.reader(bundled)) for name, table in self._tables.items()}
            results.frames = LazyFrames.from_files(results.layout, readers, len(results.frames), *keys)
        model = dumps_model(results.model)
        self.temporary(MODEL, model.encode("utf-8"))
        rows = {name: table.rows for name, table in self._tables.items()}
        rows["steps"] = len(results.steps)
        files = {TABLE_FILES[VERSION][name]: entry for name, entry in entries.items() if entry is not None}
        bundle = bundle_bytes({m: bundled[m] for m in (member(name) for name in TABLES) if m in bundled})
        self.temporary(BUNDLE, bundle)
        files[BUNDLE] = {"sha256": sha256(bundle), "tables": {name: rows[name] for name in TABLES
                                                              if member(name) in bundled}}
        files[MODEL] = {"sha256": sha256(model)}
        wear = wear_csv(results.meta)
        if wear is not None:
            self.temporary(WEAR_FILE, wear)
            files[WEAR_FILE] = {"sha256": sha256(wear)}
        summary = summarize(results, self.strains if self._tables["elements"].size else None)
        summary["warnings"] = run_warnings(results, summary["links"]) if results.meta.get("status") == "completed" else []
        #: the warnings written (the links' peaks read back once)
        self.warnings = summary["warnings"]
        summary["files"] = files
        self.temporary(SUMMARY, summary_text(summary).encode("utf-8"))
        self._replacement.remove_after([self._directory / f for f in self._previous if f not in files])
        self.finished = True

    def fail(self, error: BaseException) -> Results | None:
        """Finish the folder of a run that raised ``error`` (a bug, or a solver error after its
        first step) with the frames it appended so far, and return its results: status
        ``failed``, the message naming the error and the time of its last frame (:func:`failure_message`), the
        traceback in ``meta["traceback"]`` (in ``summary.json``).  None when the run appended
        no frame (the folder is then left as it was)."""
        results = self._results
        if results is None or not isinstance(results.frames, _StreamedFrames) or not len(results.frames):
            return None
        cause = str(error) if isinstance(error, SolverError) else unexpected_error(error)
        results.meta.update(status="failed", message=failure_message(self.last_time, cause),
                            traceback="".join(traceback.format_exception(error)))
        self.finish(results)
        return results

    def _write_steps(self, results: Results, bundled: dict[str, bytes]) -> dict | None:
        """The step log: into ``bundled`` if small (returns ``None``), else its Parquet file's entry."""
        schema, chunks = step_table(results)
        tables = [pa.table(columns, schema=schema) for columns in chunks]
        if len(tables) <= 1 and sum(t.get_total_buffer_size() for t in tables) <= BUNDLE_BYTES:
            bundled[member("steps")] = ipc_bytes(tables[0]) if tables else empty_ipc_bytes(schema)
            return None
        path = self.temporary(TABLE_FILES[VERSION]["steps"])
        with parquet_writer(path, schema) as writer:
            for table in tables:
                writer.write_table(table)
        return {"rows": len(results.steps), "sha256": file_sha256(path)}

    def abort(self) -> None:
        """Close the files of an unfinished stream (their temporaries are then removed)."""
        if self._chunk_writer is not None:
            self._chunk_writer.stop()
        for table in self._tables.values():
            if table.writer is not None:
                table.writer.close()
        self._tables = {}


def _enter(entries: dict, name: str, close: Callable[[], dict]) -> None:
    """``entries[name]``: what ``close()`` returns."""
    entries[name] = close()


def previous_files(directory: Path) -> list[str]:
    """The files (of :data:`FOLDER_FILES`) the folder's ``summary.json`` lists: the previous run's,
    which a new run replaces or removes (files exported beside them stay); none if unreadable."""
    try:
        listed = json.loads(read_bytes(directory / SUMMARY))["files"]  # never a FIFO or a link
    except (OSError, ValueError, TypeError, KeyError, RecursionError):
        return []
    return [f for f in FOLDER_FILES if isinstance(listed, dict) and f in listed]


class _Unfinished(Exception):
    """The block of :func:`streamed_results` ended before :meth:`ResultsStream.finish`."""


def failure_message(last_time: float, cause: str) -> str:
    """The message of a run that raised ``cause`` with its last frame kept at ``last_time`` (s): a cause that says
    when the run stopped (a solver error's ``stopped at t = ...``) first, the time of the last frame after it;
    else that time, as when it stopped.

    >>> failure_message(0.001, "stopped at t = 0.00110557 s: the impulse of contact 'c' cannot be computed")
    "stopped at t = 0.00110557 s: the impulse of contact 'c' cannot be computed; the frames kept end at t = 0.001 s"
    >>> failure_message(0.0035, "the contact law has no root")
    'stopped at t = 0.0035 s (its last frame): the contact law has no root'
    """
    if cause.startswith("stopped at t = "):
        return f"{cause}; the frames kept end at t = {last_time:.6g} s"
    return f"stopped at t = {last_time:.6g} s (its last frame): {cause}"


@contextmanager
def streamed_results(directory: str | os.PathLike) -> Iterator[ResultsStream]:
    """A :class:`ResultsStream` into ``directory`` (created if needed; our files there are
    replaced once :meth:`ResultsStream.finish` has run and the block ends without error,
    and the results of a run that appended its frames to :meth:`ResultsStream.frames` have
    :attr:`~solver.results.frames.Results.folder` ``directory``; otherwise the folder is left
    as it was)."""
    directory = Path(directory)
    try:
        with replacing_set(flush_over=FLUSH_BYTES) as replacement:
            replacement.remove_stale([directory / name for name in (*FOLDER_FILES, SUMMARY)])
            stream = ResultsStream(directory, replacement)
            try:
                yield stream
            finally:
                if not stream.finished:
                    stream.abort()
            if not stream.finished:
                raise _Unfinished
        if stream.read_back:
            stream._results.folder = directory
    except _Unfinished:
        pass


def summary_text(summary: dict) -> str:
    """``summary.json``'s text: a key of the summary per line (a list per item), the values compact
    (json's C encoder, where ``indent`` takes the Python one: seconds for a run with many events).
    An item the encoder refuses (numpy values, nan: an event as the solver made it) is made
    JSON-ready first (:func:`~solver.results.tables.jsonable`: nan as null).  The last line is
    :data:`~solver.results.tables.SELF_HASH`, the SHA-256 of the text before it (closed
    again: :func:`~solver.results.integrity.check_self_hash`); a ``SELF_HASH`` in ``summary`` is
    replaced."""
    encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode  # one encoder for every line

    def dumps(value) -> str:
        try:
            return encode(value)
        except (TypeError, ValueError):
            return encode(jsonable(value))

    def entry(key: str, value) -> str:
        if isinstance(value, list) and value:
            return f"  {dumps(key)}: [\n" + ",\n".join("    " + dumps(v) for v in value) + "\n  ]"
        return f"  {dumps(key)}: {dumps(value)}"

    body = "{\n" + ",\n".join(entry(k, v) for k, v in summary.items() if k != SELF_HASH) + "\n}\n"
    return body[: -len("\n}\n")] + self_hash_tail(sha256(body))
