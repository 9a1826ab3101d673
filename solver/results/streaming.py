"""Writing a results folder while the run produces it: frames go to the Parquet files in
chunks (one row group each) as they are appended, so a run's memory is bounded by a chunk
of frames, not by their number.

:func:`streamed_results` opens the folder's files as temporaries (:func:`~solver.model.io.replacing_together`);
the run appends its frames to :attr:`ResultsStream.frames` (``solver.api.simulate(..., frames=...)``),
and :meth:`ResultsStream.finish` writes ``model.json``, the step log, the events and
``summary.json`` (with the SHA-256 of every other file) and renames them all into place,
``summary.json`` last.  Until then the folder holds the previous run: a run that fails,
is interrupted or killed leaves it (and at most temporary files ``.<name>.<random>.tmp``,
removed by the next write).  Chunks are cut exactly as :func:`~solver.results.files.write_results`
cuts them (it streams its frames the same way): the files are the same, byte for byte.

>>> with streamed_results("out/cantilever") as stream:             # doctest: +SKIP
...     results = simulate(model, frames=stream.frames)
...     stream.finish(results)
"""
from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

import pyarrow as pa

from ..model.io import dumps_model, replacing_together
from .columnar import ROW_GROUP_ROWS, TableSpec, frame_tables, parquet_writer, step_table, value_fields
from .frames import Frame, Results
from .integrity import MODEL, SUMMARY, TABLE_FILES, file_sha256
from .lazy import LazyFrames
from .summary import summarize
from .tables import VERSION, csv_tables, sha256

__all__ = ["ResultsStream", "streamed_results", "summary_text"]


def chunk_frames(per_frame: int) -> int:
    """Frames of one row group of a table of ``per_frame`` rows a frame (about :data:`ROW_GROUP_ROWS` rows)."""
    return max(1, ROW_GROUP_ROWS // per_frame)


class _TableStream:
    """One Parquet table written chunk by chunk: the frames of the chunk under way, kept
    with only the fields the table reads."""

    def __init__(self, path: Path, spec: TableSpec, fields: tuple[str, ...]):
        self.path, self.spec, self.fields = path, spec, fields
        self.size = chunk_frames(spec.per_frame) if spec.per_frame else 0
        self.pending: list[SimpleNamespace] = []
        self.rows = 0
        self.writer = parquet_writer(path, spec.schema)

    def append(self, frame: Frame) -> None:
        if not self.size:  # a table without rows holds no row group
            return
        self.pending.append(SimpleNamespace(**{f: getattr(frame, f) for f in self.fields}))
        if len(self.pending) == self.size:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            table = pa.table(self.spec.columns(self.pending), schema=self.spec.schema)
            self.writer.write_table(table)
            self.rows += table.num_rows
            self.pending = []

    def close(self) -> dict:
        """Write the last chunk and the file's footer; its entry in ``summary.json``."""
        self.flush()
        self.writer.close()
        return {"rows": self.rows, "sha256": file_sha256(self.path)}


class _StreamedFrames:
    """The frames of a run being written: appended to the tables as they come; once
    :meth:`ResultsStream.finish` has closed the files, read back from them (:class:`LazyFrames`)."""

    def __init__(self, stream: ResultsStream):
        self._stream = stream
        self.count = 0

    def append(self, frame: Frame) -> None:
        self._stream._append(frame)
        self.count += 1

    def __len__(self) -> int:
        return self.count

    def __bool__(self) -> bool:
        return self.count > 0


class ResultsStream:
    """A results folder being written: see :func:`streamed_results`."""

    def __init__(self, temporaries: dict[str, Path]):
        self._tmp = temporaries
        self._results: Results | None = None
        self._tables: dict[str, _TableStream] = {}
        self._first: Frame | None = None
        self.finished = False
        #: the run's frames went to the files as it ran and are read back from them
        self.read_back = False

    def frames(self, results: Results) -> _StreamedFrames:
        """The frame store of the run of ``results`` (its layout complete by the first frame);
        pass this method as ``simulate(..., frames=stream.frames)``."""
        self._results = results
        return _StreamedFrames(self)

    def _append(self, frame: Frame) -> None:
        if not self._tables:
            self._open(frame)
        for table in self._tables.values():
            table.append(frame)

    def _open(self, first: Frame | None) -> None:
        self._first = first
        files = TABLE_FILES[VERSION]
        layout = self._results.layout
        fields = {name: ("time", *(f for f, _ in value_fields(name, layout))) for name in files
                  if name not in ("energy", "contacts", "steps", "events")}
        fields.update(energy=("time", "energy"), contacts=("time", "contact"))
        self._tables = {name: _TableStream(self._tmp[files[name]], spec, fields[name])
                        for name, spec in frame_tables(layout, first).items()}

    def write_frames(self, results: Results) -> None:
        """Append the frames of a finished run (:func:`~solver.results.files.write_results`)."""
        self._results = results
        for frame in results.frames:
            self._append(frame)

    def finish(self, results: Results) -> None:
        """Close the tables, write the step log, ``model.json``, the events and ``summary.json``;
        ``results.frames`` then reads the frames back from the files, which
        :func:`streamed_results` renames into place."""
        files = TABLE_FILES[VERSION]
        self._results = results
        if not self._tables:
            self._open(results.frames[0] if results.frames else None)
        entries = {files[name]: table.close() for name, table in self._tables.items()}
        steps_schema, step_chunks = step_table(results)
        with parquet_writer(self._tmp[files["steps"]], steps_schema) as writer:
            rows = 0
            for columns in step_chunks:
                chunk = pa.table(columns, schema=steps_schema)
                writer.write_table(chunk)
                rows += chunk.num_rows
        entries[files["steps"]] = {"rows": rows, "sha256": file_sha256(self._tmp[files["steps"]])}
        self.read_back = isinstance(results.frames, _StreamedFrames)
        if self.read_back:  # the energy and contact keys the frames hold
            keys = (list(self._first.energy), list(self._first.contact)) if self._first is not None else ([], [])
            results.frames = LazyFrames.open(results.layout, {name: self._tmp[files[name]] for name in self._tables},
                                             len(results.frames), *keys)
        model = dumps_model(results.model)
        _write_text(self._tmp[MODEL], model)
        events = csv_tables(results, ("events",))["events.csv"]
        _write_text(self._tmp[files["events"]], events)
        summary = summarize(results)
        summary["files"] = {**entries, files["events"]: {"rows": events.count("\n") - 1, "sha256": sha256(events)},
                            MODEL: {"sha256": sha256(model)}}
        _write_text(self._tmp[SUMMARY], summary_text(summary))
        self.finished = True

    def abort(self) -> None:
        """Close the files of an unfinished stream (their temporaries are then removed)."""
        for table in self._tables.values():
            table.writer.close()
        self._tables = {}


class _Unfinished(Exception):
    """The block of :func:`streamed_results` ended before :meth:`ResultsStream.finish`."""


@contextmanager
def streamed_results(directory: str | os.PathLike) -> Iterator[ResultsStream]:
    """A :class:`ResultsStream` into ``directory`` (created if needed; our files there are
    replaced once :meth:`ResultsStream.finish` has run and the block ends without error,
    and the results of a run that appended its frames to :meth:`ResultsStream.frames` have
    :attr:`~solver.results.frames.Results.folder` ``directory``; otherwise the folder is left
    as it was)."""
    directory = Path(directory)
    files = TABLE_FILES[VERSION]
    names = [MODEL, *(files[name] for name in files if name != "events"), files["events"], SUMMARY]  # summary last
    try:
        with replacing_together([directory / name for name in names]) as temporaries:
            stream = ResultsStream(dict(zip(names, temporaries)))
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
    (json's C encoder, where ``indent`` takes the Python one: seconds for a run with many events)."""
    dumps = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode  # one encoder for every line

    def entry(key: str, value) -> str:
        if isinstance(value, list) and value:
            return f"  {dumps(key)}: [\n" + ",\n".join("    " + dumps(v) for v in value) + "\n  ]"
        return f"  {dumps(key)}: {dumps(value)}"

    return "{\n" + ",\n".join(entry(k, v) for k, v in summary.items()) + "\n}\n"


def _write_text(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
