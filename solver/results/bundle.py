"""The small tables of a results folder (versions 3 and 4) in one file, ``tables.zip``: a ZIP
archive whose members, stored (not compressed by ZIP), are the tables of at most
:data:`BUNDLE_BYTES` each, as Arrow IPC files (``nodes.arrow``; read by pyarrow, pandas, polars,
R's arrow, DuckDB...), and in version 3 the event log as ``events.csv`` (version 4 keeps it in
``summary.json`` only).  In version 4 a member of more than :data:`COMPRESS_BYTES` has its
buffers compressed by Arrow IPC's own zstd (every Arrow reader decompresses them).

A run of a few hundred frames is then three files (``summary.json``, ``model.json`` and this
one) instead of thirteen: what a small write costs is per file (creating, flushing, renaming,
hashing it; a Parquet writer and its compressor), not per byte (``docs/performance.md``,
*Fewer files for small runs*).  An Arrow IPC file is written with no encoding, in microseconds
(a table of up to 1 MB compressed in about a millisecond, where its Parquet file took 4-8: the
writer's encodings), and its values read back bit for bit; the tables over :data:`BUNDLE_BYTES`
keep Parquet files of their own (:mod:`.columnar`), written a row group at a time.

>>> data = bundle_bytes({"energy.arrow": ipc_bytes(table)})  # doctest: +SKIP
>>> ArrowFile("tables.zip:energy.arrow", members("tables.zip", data)["energy.arrow"]).read(["time_s"])  # doctest: +SKIP
"""
from __future__ import annotations

import io
import zipfile
from functools import lru_cache
from types import SimpleNamespace

import pyarrow as pa

from ..errors import ResultsFormatError

#: the archive of a folder's small tables (versions 3 and 4)
BUNDLE = "tables.zip"
#: a table of at most this many bytes of values (its Arrow buffers': ``Table.get_total_buffer_size()``, where
#: ``nbytes`` took 15-20 us a table; version 3's event log, its text)
#: goes into the archive, a larger one into a file of its own: a Parquet writer costs 0.2-0.4 ms
#: a file and encodes a table of 0.5-1 MB in 4-8 ms, which Arrow IPC compresses as small in 0.5-1 ms
#: (version 3: 64 kB)
BUNDLE_BYTES = 1 << 20
#: a member of more than this many bytes of values is compressed (zstd level 1, Arrow IPC's own
#: buffer compression: about 0.1 ms and a fifth to a half of the bytes at 64 kB); a smaller one
#: is not (the codec's set-up would cost a small run's write more than it saves)
COMPRESS_BYTES = 64 * 1024
#: a fixed time stamp for the members (1980-01-01, ZIP's first): the archive's bytes depend on
#: the tables only, as a Parquet file's do
_STAMP = (1980, 1, 1, 0, 0, 0)
#: Arrow's current IPC format, given (left out, pyarrow reads two environment variables a file);
#: the same with zstd level 1 for members over COMPRESS_BYTES
_IPC_OPTIONS = pa.ipc.IpcWriteOptions()
_IPC_COMPRESSED = pa.ipc.IpcWriteOptions(compression=pa.Codec("zstd", compression_level=1))


def member(table: str) -> str:
    """The member of :data:`BUNDLE` holding table ``table``."""
    return "events.csv" if table == "events" else f"{table}.arrow"


def ipc_bytes(table: pa.Table) -> bytes:
    """``table`` as an Arrow IPC file (one record batch; its buffers zstd-compressed when its
    values take more than :data:`COMPRESS_BYTES`)."""
    sink = pa.BufferOutputStream()
    options = _IPC_COMPRESSED if table.get_total_buffer_size() > COMPRESS_BYTES else _IPC_OPTIONS
    with pa.ipc.new_file(sink, table.schema, options=options) as writer:
        if table.num_rows:
            writer.write_table(table)
    return sink.getvalue().to_pybytes()


@lru_cache(maxsize=64)
def empty_ipc_bytes(schema: pa.Schema) -> bytes:
    """An Arrow IPC file of ``schema`` without rows (kept: a run has several such tables, each
    write the same)."""
    return ipc_bytes(schema.empty_table())


def bundle_bytes(contents: dict[str, bytes]) -> bytes:
    """A ZIP archive of the members ``contents`` (name: bytes), stored, in the order given."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, data in contents.items():
            archive.writestr(zipfile.ZipInfo(name, _STAMP), data)
    return buffer.getvalue()


#: a member is refused whose size is more than this many times its bytes in the archive, and an
#: archive whose members together are more than this many times its own size: a "ZIP bomb" is
#: refused before anything is decompressed (Flexmech stores its members, ratio 1; zstd inside an
#: Arrow member is Arrow's, not ZIP's)
MAX_RATIO = 100


def members(source: str, data: bytes) -> dict[str, bytes]:
    """The members of archive ``data`` (from ``source``), by name; refused with
    :class:`ResultsFormatError` unless it is a ZIP archive whose members read whole, within
    :data:`MAX_RATIO` of their compressed size and of the archive's."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            _check_sizes(source, archive.infolist(), len(data))
            return {name: archive.read(name) for name in archive.namelist()}
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
        raise ResultsFormatError(f"{source}: not a ZIP archive ({exc})") from None


def _check_sizes(source: str, infos: list[zipfile.ZipInfo], size: int) -> None:
    """Refuse members that would decompress to more than :data:`MAX_RATIO` times their size
    (zipfile reads a member no further than the size it declares)."""
    for info in infos:
        if info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise ResultsFormatError(f"{source}: member {info.filename} would decompress to {info.file_size} bytes "
                                     f"from {info.compress_size}, more than {MAX_RATIO} times (refused as a ZIP bomb)")
    total = sum(info.file_size for info in infos)
    if total > MAX_RATIO * max(size, 1):
        raise ResultsFormatError(f"{source}: members of {total} bytes in an archive of {size}, more than "
                                 f"{MAX_RATIO} times (refused as a ZIP bomb)")


class ArrowFile:
    """An Arrow IPC file's table, read with the calls :class:`pyarrow.parquet.ParquetFile` offers
    the readers (``schema_arrow``, ``metadata``, ``read``, ``read_row_group``): one row group."""

    def __init__(self, source: str, data: bytes):
        """Refused with :class:`ResultsFormatError` unless ``data`` is an Arrow IPC file."""
        try:
            self._table = pa.ipc.open_file(pa.BufferReader(data)).read_all()
        except (pa.ArrowException, OSError) as exc:
            raise ResultsFormatError(f"{source}: not an Arrow IPC file ({exc})") from None
        self.schema_arrow = self._table.schema
        rows = self._table.num_rows
        self.metadata = SimpleNamespace(num_rows=rows, num_row_groups=1 if rows else 0,
                                        row_group=lambda g: SimpleNamespace(num_rows=rows))

    def read(self, columns: list[str] | None = None) -> pa.Table:
        return self._table if columns is None else self._table.select(columns)

    def read_row_group(self, g: int, columns: list[str] | None = None) -> pa.Table:
        return self.read(columns)
