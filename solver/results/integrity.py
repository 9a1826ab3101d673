"""The checks a results folder passes before :func:`solver.results.files.load_results`
returns it: ``summary.json`` against a JSON schema, every table found in exactly one place
(:func:`locate_tables`), every other file (CSV, Parquet, ``tables.zip`` or ``model.json``)
against the SHA-256 ``summary.json`` records, ``model.json`` a valid model
whose ids the layout names, and a layout whose parts agree with each other.

Each failure is a :class:`~solver.errors.ResultsFormatError` naming the file and the
reason (``summary.json: layout.nodes[2]: 5 is not of type 'string'``).
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any, NamedTuple

from jsonschema import Draft202012Validator

from ..errors import ResultsFormatError
from ..model.io import parse_model
from ..model.record_rules import contact_pair_ids
from ..model.validate import ModelError
from .bundle import BUNDLE, member
from .frames import Layout
from .tables import FORMAT, SELF_HASH, TABLES, VERSION, sha256
from .wear_table import WEAR_FILE

#: the file of each table, by format version: version 1 all CSV, version 2 the time series in
#: Parquet and the events CSV; version 3 (and 4) as 2 for a table with a file of its own, the others
#: are members of ``tables.zip`` (:mod:`.bundle`)
TABLE_FILES = {
    1: {name: name + ".csv" for name in TABLES},
    2: {name: name + (".csv" if name == "events" else ".parquet") for name in TABLES},
}
TABLE_FILES[3] = TABLE_FILES[2]
#: version 4 as 3 but the event log, which is ``summary.json``'s ``events`` only
TABLE_FILES[4] = {name: file for name, file in TABLE_FILES[3].items() if name != "events"}
#: version 5 as 4, ``summary.json`` hashed too (:func:`check_self_hash`)
TABLE_FILES[5] = TABLE_FILES[4]
#: tables a folder written before ``modes`` or ``moving`` existed lacks (versions 1 and 2)
OPTIONAL_TABLES = ("modes", "moving")
SUMMARY, MODEL = "summary.json", "model.json"

_TEXTS = {"type": "array", "items": {"type": "string"}}
_NUMBERS = {"type": "array", "items": {"type": ["number", "null"]}}  # null: a value that was not finite
_HASH = {"type": "string", "pattern": "^[0-9a-f]{64}$"}


def _pairs(*types: str) -> dict[str, Any]:
    """An array of fixed-length arrays of the JSON ``types``."""
    return {"type": "array", "items": {"type": "array", "prefixItems": [{"type": t} for t in types],
                                       "minItems": len(types), "maxItems": len(types)}}


#: the parts of summary.json that load_results reads (the scalar results are for people and tools)
SUMMARY_SCHEMA = {
    "type": "object",
    "required": ["format", "version", "files", "layout", "frame_keys", "events", "meta"],
    "properties": {
        "run": {"type": "object", "properties": {"model_sha256": _HASH}},
        "files": {
            "type": "object",
            "propertyNames": {"enum": sorted({*TABLE_FILES[1].values(), *TABLE_FILES[2].values(), MODEL, BUNDLE,
                                              WEAR_FILE})},
            "properties": {
                MODEL: {"type": "object", "required": ["sha256"], "properties": {"sha256": _HASH}},
                WEAR_FILE: {"type": "object", "required": ["sha256"], "properties": {"sha256": _HASH}},
                BUNDLE: {"type": "object", "required": ["sha256", "tables"], "properties": {
                    "sha256": _HASH, "tables": {"type": "object", "propertyNames": {"enum": list(TABLES)},
                                                "additionalProperties": {"type": "integer", "minimum": 0}}}},
            },
            "additionalProperties": {"type": "object", "required": ["rows", "sha256"],
                                     "properties": {"rows": {"type": "integer", "minimum": 0}, "sha256": _HASH}},
        },
        "layout": {
            "type": "object",
            "required": ["nodes", "rotations", "elements", "element_length_m", "outer_fibre_m", "stations",
                         "flexible_links", "drivers", "contacts"],
            "properties": {
                "nodes": _TEXTS, "rotations": _pairs("string", "string"),
                "elements": _pairs("string", "integer", "string", "string"),
                "element_length_m": _NUMBERS, "outer_fibre_m": _NUMBERS,
                "stations": {"type": "array", "items": {"type": "number"}},
                "flexible_links": _TEXTS, "drivers": _TEXTS, "contacts": _TEXTS,
                "modes": _pairs("string", "integer"), "mode_frequency_Hz": _NUMBERS, "moving": _TEXTS,
                "rates": {"type": "boolean"},
                "unrecorded_links": {"type": "object", "additionalProperties": {
                    "type": "object", "required": ["nodes", "fractions"],
                    "properties": {"nodes": _TEXTS, "fractions": _NUMBERS}}},
            },
        },
        "frame_keys": {"type": "object", "required": ["energy", "contact"],
                       "properties": {"energy": _TEXTS, "contact": _TEXTS}},
        "events": {"type": "array", "items": {"type": "object"}},
        "meta": {"type": "object"},
    },
}  # fmt: skip
_VALIDATOR = Draft202012Validator(SUMMARY_SCHEMA)


def open_regular(path: Path):
    """A file of a results folder opened for reading (binary); refused unless it is a regular
    file: a symbolic link is not followed, and a FIFO, a device or a folder is never read
    (a FIFO would wait for a writer for ever, ``/dev/zero`` never ends)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ResultsFormatError(f"{path}: a symbolic link, not a regular file (a results folder's files "
                                     f"are read where they are, never through a link)") from None
        raise ResultsFormatError(f"cannot read {path}: {exc.strerror}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ResultsFormatError(f"{path}: not a regular file (a FIFO, a device or a folder)")
    return os.fdopen(fd, "rb")


def read_bytes(path: Path) -> bytes:
    """A file's bytes; a file that is missing, unreadable or not a regular file is refused."""
    with open_regular(path) as fh:
        try:
            return fh.read()
        except OSError as exc:
            raise ResultsFormatError(f"cannot read {path}: {exc.strerror}") from None


def as_text(path: Path, data: bytes) -> str:
    """``data`` (read from ``path``) as UTF-8 text; refused if it is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ResultsFormatError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def read_text(path: Path) -> str:
    """A file's UTF-8 text; a file that is missing, unreadable or not UTF-8 is refused."""
    return as_text(path, read_bytes(path))


def read_summary(directory: Path) -> dict[str, Any]:
    """``summary.json`` parsed and checked against :data:`SUMMARY_SCHEMA`, its CSV files all listed."""
    path = directory / SUMMARY
    if not directory.is_dir():
        raise ResultsFormatError(f"{directory}: not a folder")
    text = read_text(path)
    try:
        summary = json.loads(text)
    except RecursionError:
        raise ResultsFormatError(f"{path}: invalid JSON: nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, or an integer of more digits than Python converts
        what = ("empty" if not text.strip() else f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
                if isinstance(exc, json.JSONDecodeError) else f"invalid JSON: {exc}")
        raise ResultsFormatError(f"{path}: {what}") from None
    if not isinstance(summary, dict) or summary.get("format") != FORMAT or not isinstance(
            summary.get("version"), int) or summary["version"] not in TABLE_FILES:
        found = (summary.get("format"), summary.get("version")) if isinstance(summary, dict) else (None, None)
        raise ResultsFormatError(f"{path}: not a {FORMAT} version 1 to {VERSION} summary "
                                 f"(format {found[0]!r}, version {found[1]!r})")
    check_self_hash(path, text, summary)
    error = next(iter(sorted(_VALIDATOR.iter_errors(summary), key=lambda e: list(map(str, e.absolute_path)))), None)
    if error is not None:
        raise ResultsFormatError(f"{path}: {_json_path(error.absolute_path) or 'the document'}: {error.message}")
    version = summary["version"]
    allowed = {*TABLE_FILES[version].values(), MODEL, *((BUNDLE, WEAR_FILE) if version >= 3 else ())}
    foreign = [name for name in summary["files"] if name not in allowed]
    foreign += [f"{BUNDLE}: {name}" for name in summary["files"].get(BUNDLE, {}).get("tables", {})
                if version >= 3 and name not in TABLE_FILES[version]]
    if foreign:
        raise ResultsFormatError(f"{path}: files: {', '.join(foreign)} not of a version {version} folder")
    locate_tables(directory, summary)
    if WEAR_FILE in summary["files"]:
        read_recorded(directory, WEAR_FILE, summary["files"][WEAR_FILE]["sha256"])
    return summary


def self_hash_tail(recorded: str) -> str:
    """The end of a ``summary.json`` text whose own SHA-256 is ``recorded``: its last line."""
    return f',\n  "{SELF_HASH}": "{recorded}"\n}}\n'


def check_self_hash(path: Path, text: str, summary: dict[str, Any]) -> None:
    """Refuse a ``summary.json`` (of version 5, or any holding :data:`SELF_HASH`) whose text is not
    the one its hash records: the SHA-256 of the text without its last line (the hash) and closed
    again, ``... \n}\n``.  A change of a byte anywhere (an event, the layout, the hash itself) is
    refused -- its only copy of the event log included."""
    if summary.get("version", 0) < 5 and SELF_HASH not in summary:
        return
    recorded = summary.get(SELF_HASH)
    tail = self_hash_tail(recorded) if isinstance(recorded, str) else None
    if tail is None or not text.endswith(tail) or sha256(text[: -len(tail)] + "\n}\n") != recorded:
        raise ResultsFormatError(f"{path}: not the text its {SELF_HASH} records (changed after writing)")


class Located(NamedTuple):
    """Where a table of a folder is: its file, the member of that file (``tables.zip``) or
    ``None``, and its rows as ``summary.json`` records them."""

    file: str
    member: str | None
    rows: int


def locate_tables(directory: Path, summary: dict[str, Any]) -> dict[str, Located]:
    """Each table's place in the folder, by name (a version-1 folder written before a table
    existed lacks it); refused naming ``summary.json`` for a table it places nowhere or twice."""
    files, version = summary["files"], summary["version"]
    bundled = files.get(BUNDLE, {}).get("tables", {}) if version >= 3 else {}
    located, missing = {}, []
    for table, file in TABLE_FILES[version].items():
        if file in files and table in bundled:
            raise ResultsFormatError(f"{directory / SUMMARY}: files: {table} both in {file} and in {BUNDLE}")
        if file in files:
            located[table] = Located(file, None, files[file]["rows"])
        elif table in bundled:
            located[table] = Located(BUNDLE, member(table), bundled[table])
        elif version >= 3 or table not in OPTIONAL_TABLES:
            missing.append(file)
    if missing:
        raise ResultsFormatError(f"{directory / SUMMARY}: files: no entry for {', '.join(missing)}")
    return located


def _json_path(parts) -> str:
    """``layout.nodes[2]`` from the parts ``("layout", "nodes", 2)``."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts).lstrip(".")


def read_recorded(directory: Path, name: str, recorded: str | None) -> bytes:
    """The bytes of ``name``, refused unless their SHA-256 is the one ``summary.json`` recorded."""
    data = read_bytes(directory / name)
    if recorded is None:
        raise ResultsFormatError(f"{directory / SUMMARY}: records no SHA-256 of {name}")
    if hashlib.sha256(data).hexdigest() != recorded:
        raise ResultsFormatError(f"{directory / name}: not the file {SUMMARY} records "
                                 f"(changed after writing, or a write into the folder was interrupted)")
    return data


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file, read a block of 16 MB at a time."""
    return GrowingFileHash(path).hexdigest()


class GrowingFileHash:
    """The SHA-256 of a file being written by appending, hashed as it grows: :meth:`catch_up`
    hashes what was appended since (a block of 16 MB at a time), so that a results file's
    row groups are hashed on the thread that wrote them, while the run goes on, not read
    back whole once it is closed."""

    def __init__(self, path: Path):
        self.path, self.hashed, self._digest = path, 0, hashlib.sha256()

    def catch_up(self) -> None:
        """Hash the bytes appended since the last call."""
        with open_regular(self.path) as fh:
            fh.seek(self.hashed)
            while block := fh.read(1 << 24):
                self._digest.update(block)
                self.hashed += len(block)

    def hexdigest(self) -> str:
        """The SHA-256 of the whole file (it is complete)."""
        self.catch_up()
        return self._digest.hexdigest()


def check_recorded(directory: Path, name: str, recorded: str) -> None:
    """Refuse ``name`` unless its SHA-256 is the one ``summary.json`` recorded (read a block
    at a time: the file is not kept in memory)."""
    try:
        found = file_sha256(directory / name)
    except OSError as exc:
        raise ResultsFormatError(f"cannot read {directory / name}: {exc.strerror}") from None
    if found != recorded:
        raise ResultsFormatError(f"{directory / name}: not the file {SUMMARY} records "
                                 f"(changed after writing, or a write into the folder was interrupted)")


def read_model(directory: Path, summary: dict[str, Any]) -> dict:
    """``model.json``: the file ``summary.json`` records (folders written before it recorded
    ``files.model.json`` are checked against ``run.model_sha256``), and a valid model."""
    recorded = summary["files"].get(MODEL, {}).get("sha256") or summary.get("run", {}).get("model_sha256")
    path = directory / MODEL
    try:
        return parse_model(as_text(path, read_recorded(directory, MODEL, recorded)))
    except ModelError as exc:
        shown = "; ".join(str(p) for p in exc.problems[:3]) + ("; ..." if len(exc.problems) > 3 else "")
        raise ResultsFormatError(f"{path}: not a valid model: {shown}") from None


def check_layout(layout: Layout, model: dict, path: Path) -> None:
    """The layout's parts agree in length and reference each other's and the model's ids."""
    def refuse(reason: str) -> None:
        raise ResultsFormatError(f"{path}: layout: {reason}")

    n_e, n_k = len(layout.elements), len(layout.modes)
    if len(layout.element_length) != n_e or len(layout.outer_fibre) != n_e:
        refuse(f"{n_e} elements but {len(layout.element_length)} lengths and {len(layout.outer_fibre)} outer fibres")
    if len(layout.mode_frequency) != n_k:
        refuse(f"{n_k} modes but {len(layout.mode_frequency)} frequencies")
    nodes = set(layout.nodes)
    named = {"rotations": {n for n, _ in layout.rotations}, "elements": {n for e in layout.elements for n in e[2:]},
             "unrecorded_links": {n for chain, _ in layout.unrecorded_links.values() for n in chain}}
    for link, (chain, fractions) in layout.unrecorded_links.items():
        if len(chain) != len(fractions) or len(chain) < 2:
            refuse(f"unrecorded_links.{link}: {len(chain)} nodes but {len(fractions)} fractions")
    for part, used in named.items():
        if used - nodes:
            refuse(f"{part} name nodes that are not in nodes: {sorted(used - nodes)}")
    ids = {kind: {e.get("id") for e in model.get(kind, [])}
           for kind in ("nodes", "links", "drivers", "contacts", "moving")}
    ids["contacts"] = contact_pair_ids(model)
    for part, kind in (("flexible_links", "links"), ("unrecorded_links", "links"), ("drivers", "drivers"),
                       ("contacts", "contacts"), ("moving", "moving")):
        unknown = set(getattr(layout, part)) - ids[kind]
        if unknown:
            refuse(f"{part} {sorted(unknown)} are not in {MODEL} (not the model that was run)")
    if ids["nodes"] - nodes:
        refuse(f"the nodes {sorted(ids['nodes'] - nodes)} of {MODEL} are missing (not the model that was run)")
