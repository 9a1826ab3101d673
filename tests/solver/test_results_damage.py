"""Damaged results folders: every kind of damage is refused with a ResultsFormatError that
names the file, and leftover temporary files neither disturb loading nor survive a write.

A damage marked *rehashed* also rewrites the file's SHA-256 (and row count) in
``summary.json``, as a careless tool would: the checks behind the hash must catch it too.
The damages of summary.json and model.json are done to a version-5 folder (``write_results``)
and to a copy of the version-2 folder in ``tests/data``, those of the Parquet files to the
version-2 copy, those of ``tables.zip`` to a version-5 folder, to copies of the version-4 and version-3
folders (the version-3 one's ``tables.zip`` holds the event log), those of CSV tables to a copy of
the version-1 folder in ``tests/data``.
"""
from __future__ import annotations

import hashlib
import json
import io
import shutil
import zipfile
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from solver.model.io import dumps_model, examples_dir
from solver.results.files import ResultsFormatError, load_results, summary_text, write_results
from tests.solver.test_results_io import assert_results_equal, make_results


def _summary(folder: Path) -> dict:
    return json.loads((folder / "summary.json").read_text(encoding="utf-8"))


def _write_summary(folder: Path, summary: dict) -> None:
    """As a tool that knows the format would: its own hash made again (summary_text), so that the
    checks behind the hash are what refuses the damage."""
    (folder / "summary.json").write_text(summary_text(summary), encoding="utf-8")


def _edit_summary(change):
    def damage(folder: Path) -> None:
        summary = _summary(folder)
        change(summary)
        _write_summary(folder, summary)
    return damage


def _replace(name: str, text: str | bytes, rehash: bool = False):
    """Write ``text`` (or a function of the old text) to ``name``; with ``rehash`` record it in summary.json."""
    def damage(folder: Path) -> None:
        path = folder / name
        new = text(path.read_text(encoding="utf-8")) if callable(text) else text
        path.write_bytes(new if isinstance(new, bytes) else new.encode("utf-8"))
        if rehash:
            summary = _summary(folder)
            entry = summary["files"][name]
            entry["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
            if "rows" in entry:
                entry["rows"] = max(path.read_bytes().count(b"\n") - 1, 0)
            _write_summary(folder, summary)
    return damage


def _parquet(name: str, change):
    """Rewrite Parquet file ``name`` as ``change(table)`` and record it in summary.json (rehashed)."""
    def damage(folder: Path) -> None:
        path = folder / name
        pq.write_table(change(pq.read_table(path)), path)
        summary = _summary(folder)
        summary["files"][name] = {"rows": pq.read_metadata(path).num_rows,
                                  "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
        _write_summary(folder, summary)
    return damage


def _edit_bytes(name: str, change, rehash: bool = False, source: str | None = None):
    """Write ``change(bytes)`` to ``name`` (or the bytes of the file ``source``); with ``rehash`` record them."""
    def damage(folder: Path) -> None:
        path = folder / name
        path.write_bytes((folder / source).read_bytes() if source else change(path.read_bytes()))
        if rehash:
            summary = _summary(folder)
            summary["files"][name]["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
            if source:
                summary["files"][name]["rows"] = summary["files"][source]["rows"]
            _write_summary(folder, summary)
    return damage


def _member(name: str, change, rows: int | None = None):
    """Rewrite member ``name`` of tables.zip as ``change(bytes)`` (``None``: leave it out) and
    record the archive in summary.json (rehashed; ``rows``: the member's rows recorded)."""
    def damage(folder: Path) -> None:
        path = folder / "tables.zip"
        with zipfile.ZipFile(path) as archive:
            members = {m: archive.read(m) for m in archive.namelist()}
        members[name] = change(members[name])
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for m, data in members.items():
                if data is not None:
                    archive.writestr(m, data)
        path.write_bytes(buffer.getvalue())
        summary = _summary(folder)
        summary["files"]["tables.zip"]["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
        if rows is not None:
            summary["files"]["tables.zip"]["tables"][name.split(".")[0]] = rows
        _write_summary(folder, summary)
    return damage


def _arrow(change):
    """An Arrow IPC member's bytes changed as ``change(table)``."""
    def rewrite(data: bytes) -> bytes:
        table = change(pa.ipc.open_file(data).read_all())
        sink = pa.BufferOutputStream()
        with pa.ipc.new_file(sink, table.schema) as writer:
            writer.write_table(table)
        return sink.getvalue().to_pybytes()
    return rewrite


def _as_text(column: str):
    return lambda t: t.set_column(t.schema.get_field_index(column), column, pc.cast(t[column], pa.string()))


def _set_column(column: str, values):
    return lambda t: t.set_column(t.schema.get_field_index(column), column, pa.array(values(t)))


def _delete(name: str):
    return lambda folder: (folder / name).unlink()


def _csv_cell(name: str, row: int, column: str, value: str):
    """Set one cell of a CSV file (row 1 = first data row)."""
    def edit(text: str) -> str:
        lines = text.split("\n")
        header = lines[0].split(",")
        cells = lines[row].split(",")
        cells[header.index(column)] = value
        lines[row] = ",".join(cells)
        return "\n".join(lines)
    return _replace(name, edit, rehash=True)


def _drop_column(name: str, column: str):
    def edit(text: str) -> str:
        rows = [line.split(",") for line in text.split("\n")[:-1]]
        k = rows[0].index(column)
        return "".join(",".join(r[:k] + r[k + 1:]) + "\n" for r in rows)
    return _replace(name, edit, rehash=True)


def _another_model() -> str:
    return (examples_dir() / "rod_impact_rigid.json").read_text(encoding="utf-8")


def _set(path: tuple, value):
    def change(summary):
        target = summary
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _delete_key(path: tuple):
    def change(summary):
        target = summary
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return change


#: (kind of damage, how to do it, the file the message must name, words of the reason)
DAMAGES = [
    # summary.json
    ("summary.json missing", _delete("summary.json"), "summary.json", "cannot read"),
    ("summary.json empty", _replace("summary.json", ""), "summary.json", "empty"),
    ("summary.json truncated", _replace("summary.json", lambda t: t[: len(t) // 2]), "summary.json", "invalid JSON"),
    ("summary.json not UTF-8", _replace("summary.json", b'{"format": "\xff\xfe"}'), "summary.json", "UTF-8"),
    ("summary.json a list", _replace("summary.json", "[1, 2]"), "summary.json", "not a flexmech-results"),
    ("summary.json newer version", _edit_summary(_set(("version",), 99)), "summary.json", "version 99"),
    ("summary.json version as text", _edit_summary(_set(("version",), "1")), "summary.json", "version '1'"),
    ("summary.json without layout", _edit_summary(_delete_key(("layout",))), "summary.json", "'layout'"),
    ("summary.json without files", _edit_summary(_delete_key(("files",))), "summary.json", "'files'"),
    ("files a list", _edit_summary(_set(("files",), [])), "summary.json", "files"),
    ("a file listed outside the format", _edit_summary(_set(("files", "../secret.csv"), {"rows": 0, "sha256": "0" * 64})),
     "summary.json", "../secret.csv"),
    ("layout nodes as text", _edit_summary(_set(("layout", "nodes"), "root")), "summary.json", "layout.nodes"),
    ("element index as text", _edit_summary(_set(("layout", "elements", 0, 1), "zero")), "summary.json",
     "layout.elements[0][1]"),
    ("events an object", _edit_summary(_set(("events",), {})), "summary.json", "events"),
    ("frame keys without contact", _edit_summary(_delete_key(("frame_keys", "contact"))), "summary.json",
     "'contact'"),
    ("element lengths of the wrong shape", _edit_summary(_set(("layout", "element_length_m"), [0.4])), "summary.json",
     "2 elements but 1 lengths"),
    ("a rotation at an unknown node", _edit_summary(_set(("layout", "rotations", 0, 0), "nowhere")), "summary.json",
     "nowhere"),
    # model.json
    ("model.json missing", _delete("model.json"), "model.json", "cannot read"),
    ("model.json empty", _replace("model.json", ""), "model.json", "not the file summary.json records"),
    ("model.json truncated", _replace("model.json", lambda t: t[:-40]), "model.json", "not the file"),
    ("model.json swapped for another model", _replace("model.json", _another_model()), "model.json", "not the file"),
    ("model.json swapped, rehashed", _replace("model.json", _another_model(), rehash=True), "summary.json",
     "not the model that was run"),
    ("model.json empty, rehashed", _replace("model.json", "", rehash=True), "model.json", "invalid JSON"),
    ("model.json invalid, rehashed", _replace("model.json", lambda t: t.replace('"x": 1.0', '"x": "far"'), rehash=True),
     "model.json", "not a valid model"),
    ("model.json hash not recorded", _edit_summary(lambda s: (s["files"].pop("model.json"), s["run"].pop("model_sha256"))),
     "summary.json", "no SHA-256 of model.json"),
]

#: damages of the CSV tables (a version-1 folder): (kind, how, file, reason)
CSV_DAMAGES = [
    ("a CSV file missing", _delete("nodes.csv"), "nodes.csv", "cannot read"),
    ("a CSV file edited", _replace("nodes.csv", lambda t: t.replace("rod#1", "rod#9")), "nodes.csv", "not the file"),
    ("a CSV file truncated", _replace("elements.csv", lambda t: t[: len(t) // 3]), "elements.csv", "not the file"),
    ("a CSV file not UTF-8, rehashed", _replace("links.csv", b"time_s,link\n\xff\n", rehash=True), "links.csv", "UTF-8"),
    ("a CSV file empty, rehashed", _replace("energy.csv", "", rehash=True), "energy.csv", "no header line"),
    ("text in a numeric column, rehashed", _csv_cell("nodes.csv", 2, "x_m", "abc"), "nodes.csv", "abc"),
    ("text in the time column, rehashed", _csv_cell("energy.csv", 1, "time_s", "noon"), "energy.csv", "noon"),
    ("an unknown contact state, rehashed", _csv_cell("contacts.csv", 1, "state", "flying"), "contacts.csv", "flying"),
    ("a step without iterations, rehashed", _csv_cell("steps.csv", 3, "newton_iterations", "nan"), "steps.csv",
     "newton_iterations"),
    ("a column missing, rehashed", _drop_column("rotations.csv", "omega_rad_s"), "rotations.csv", "omega_rad_s"),
    ("a row missing, rehashed", _replace("nodes.csv", lambda t: t[: t.rstrip("\n").rindex("\n") + 1], rehash=True),
     "nodes.csv", "expected 7 frames x 3"),
    ("a row more, rehashed", _replace("drivers.csv", lambda t: t + t.split("\n")[1] + "\n", rehash=True),
     "drivers.csv", "expected 7 frames x 1"),
    ("a CSV file cut within a line, rehashed", _replace("energy.csv", lambda t: t[:-3], rehash=True), "energy.csv",
     "ends within a line"),
    ("rows recorded wrongly", _edit_summary(_set(("files", "links.csv", "rows"), 3)), "links.csv", "records 3"),
    ("rows as text", _edit_summary(_set(("files", "nodes.csv", "rows"), "21")), "summary.json",
     "files.nodes.csv.rows"),
    ("a CSV file not listed", _edit_summary(_delete_key(("files", "nodes.csv"))), "summary.json", "nodes.csv"),
]

#: damages of the Parquet tables (a copy of the version-2 folder)
PARQUET_DAMAGES = [
    ("a Parquet file missing", _delete("nodes.parquet"), "nodes.parquet", "cannot read"),
    ("a Parquet file edited", _edit_bytes("nodes.parquet", lambda b: b[:len(b) // 2] + bytes([b[len(b) // 2] ^ 1])
                                          + b[len(b) // 2 + 1:]), "nodes.parquet", "not the file"),
    ("a Parquet file truncated", _edit_bytes("elements.parquet", lambda b: b[: len(b) // 3]), "elements.parquet",
     "not the file"),
    ("a Parquet file cut short, rehashed", _edit_bytes("energy.parquet", lambda b: b[:-20], rehash=True),
     "energy.parquet", "not a Parquet file"),
    ("a Parquet file not Parquet, rehashed", _replace("elements.parquet", "time_s,link\n", rehash=True),
     "elements.parquet", "not a Parquet file"),
    ("a Parquet file empty, rehashed", _replace("energy.parquet", "", rehash=True), "energy.parquet",
     "not a Parquet file"),
    ("text in a numeric column, rehashed", _parquet("nodes.parquet", _as_text("x_m")), "nodes.parquet",
     "'x_m' holds string, not numbers"),
    ("text in the time column, rehashed", _parquet("energy.parquet", _as_text("time_s")), "energy.parquet", "time_s"),
    ("an unknown contact state, rehashed",
     _parquet("contacts.parquet", _set_column("state", lambda t: ["flying"] * t.num_rows)), "contacts.parquet", "flying"),
    ("a step without iterations, rehashed",
     _parquet("steps.parquet", _set_column("newton_iterations", lambda t: [float("nan")] * t.num_rows)),
     "steps.parquet", "newton_iterations"),
    ("a column missing, rehashed", _parquet("rotations.parquet", lambda t: t.drop_columns(["omega_rad_s"])),
     "rotations.parquet", "omega_rad_s"),
    ("a row missing, rehashed", _parquet("nodes.parquet", lambda t: t.slice(0, t.num_rows - 1)), "nodes.parquet",
     "expected 7 frames x 3"),
    ("a row more, rehashed", _parquet("drivers.parquet", lambda t: pa.concat_tables([t, t.slice(0, 1)])),
     "drivers.parquet", "expected 7 frames x 1"),
    ("another table in its place, rehashed", _edit_bytes("nodes.parquet", lambda b: None, rehash=True,
                                                          source="links.parquet"), "nodes.parquet", "'x_m'"),
    ("rows recorded wrongly", _edit_summary(_set(("files", "links.parquet", "rows"), 3)), "links.parquet",
     "records 3"),
    ("rows as text", _edit_summary(_set(("files", "nodes.parquet", "rows"), "21")), "summary.json",
     "files.nodes.parquet.rows"),
    ("a Parquet file not listed", _edit_summary(_delete_key(("files", "nodes.parquet"))), "summary.json",
     "nodes.parquet"),
    ("a CSV file listed in a version-2 folder", _edit_summary(_set(("files", "nodes.csv"), {"rows": 0, "sha256": "0" * 64})),
     "summary.json", "nodes.csv not of a version 2 folder"),
    ("events.csv not UTF-8, rehashed", _replace("events.csv", b"time_s,kind\n\xff\n", rehash=True), "events.csv",
     "UTF-8"),
    ("tables.zip in a version-2 folder", _edit_summary(_set(("files", "tables.zip"), {"sha256": "0" * 64, "tables": {}})),
     "summary.json", "tables.zip not of a version 2 folder"),
]


#: damages of tables.zip (of versions 3 and 4)
BUNDLE_DAMAGES = [
    ("tables.zip missing", _delete("tables.zip"), "tables.zip", "cannot read"),
    ("tables.zip edited", _edit_bytes("tables.zip", lambda b: b.replace(b"rod#1", b"rod#9")), "tables.zip",
     "not the file"),
    ("tables.zip not a ZIP archive, rehashed", _replace("tables.zip", "time_s,link\n", rehash=True), "tables.zip",
     "not a ZIP archive"),
    ("a member missing, rehashed", _member("rotations.arrow", lambda b: None), "tables.zip", "no member rotations.arrow"),
    ("a member not Arrow, rehashed", _member("nodes.arrow", lambda b: b"PAR1"), "nodes.arrow", "not an Arrow IPC file"),
    ("a member cut short, rehashed", _member("energy.arrow", lambda b: b[:-20]), "energy.arrow", "not an Arrow IPC file"),
    ("text in a numeric column of a member, rehashed", _member("nodes.arrow", _arrow(_as_text("x_m"))), "nodes.arrow",
     "x_m"),
    ("a column missing in a member, rehashed", _member("rotations.arrow", _arrow(lambda t: t.drop_columns(["omega_rad_s"]))),
     "rotations.arrow", "omega_rad_s"),
    ("a row missing in a member, rehashed", _member("nodes.arrow", _arrow(lambda t: t.slice(0, t.num_rows - 1)),
                                                    rows=20), "nodes.arrow", "expected 7 frames x 3"),
    ("a member's rows recorded wrongly", _edit_summary(_set(("files", "tables.zip", "tables", "links"), 3)),
     "links.arrow", "records 3"),
    ("an unknown contact state in a member, rehashed",
     _member("contacts.arrow", _arrow(_set_column("state", lambda t: ["flying"] * t.num_rows))), "contacts.arrow",
     "flying"),
    ("an unknown contact state in a member's dictionary, rehashed",
     _member("contacts.arrow", _arrow(_set_column("state", lambda t: pa.DictionaryArray.from_arrays(
         pa.array([1] * t.num_rows, pa.int32()), pa.array(["open", "flying"]))))), "contacts.arrow", "flying"),
    ("a table nowhere", _edit_summary(lambda s: s["files"]["tables.zip"]["tables"].pop("nodes")), "summary.json",
     "no entry for nodes.parquet"),
    ("a table in two places", _edit_summary(_set(("files", "nodes.parquet"), {"rows": 21, "sha256": "0" * 64})),
     "summary.json", "nodes both in nodes.parquet and in tables.zip"),
    ("tables.zip listing an unknown table", _edit_summary(_set(("files", "tables.zip", "tables", "strains"), 3)),
     "summary.json", "strains"),
]

#: damages of a version-3 folder's event log (a member of tables.zip), and of a version-4 folder
#: naming one (its events are summary.json's only)
EVENT_DAMAGES = [
    ("events.csv member not UTF-8, rehashed", _member("events.csv", lambda b: b"time_s,kind\n\xff\n", rows=1),
     "events.csv", "UTF-8", 3),
    ("tables.zip listing the events", _edit_summary(_set(("files", "tables.zip", "tables", "events"), 3)),
     "summary.json", "tables.zip: events not of a version 5 folder", 5),
    ("an events.csv file listed", _edit_summary(_set(("files", "events.csv"), {"rows": 2, "sha256": "0" * 64})),
     "summary.json", "events.csv not of a version 5 folder", 5),
]

DATA = Path(__file__).parent.parent / "data"
V1, V2, V3, V4 = DATA / "results_v1", DATA / "results_v2", DATA / "results_v3", DATA / "results_v4"
#: (kind, how, file, reason, version of the damaged folder)
ALL_DAMAGES = ([(*d, 5) for d in DAMAGES] + [(*d, 2) for d in DAMAGES] + [(*d, 1) for d in CSV_DAMAGES]
               + [(*d, 2) for d in PARQUET_DAMAGES] + [(*d, v) for d in BUNDLE_DAMAGES for v in (3, 4, 5)]
               + EVENT_DAMAGES)


def test_at_least_41_kinds_of_damage_are_covered():
    kinds = [f"{kind} (version {v})" for kind, *_, v in ALL_DAMAGES]
    assert len(kinds) >= 41 and len(set(kinds)) == len(kinds)


@pytest.mark.parametrize(("kind", "damage", "file", "reason", "version"), ALL_DAMAGES,
                         ids=[f"v{d[4]}: {d[0]}" for d in ALL_DAMAGES])
def test_damage_is_refused_naming_the_file_and_the_reason(tmp_path, kind, damage, file, reason, version):
    if version < 5:
        shutil.copytree({1: V1, 2: V2, 3: V3, 4: V4}[version], tmp_path, dirs_exist_ok=True)
    else:
        write_results(make_results(), tmp_path)
    damage(tmp_path)
    with pytest.raises(ResultsFormatError) as refused:
        load_results(tmp_path)
    message = str(refused.value)
    assert file in message and reason in message, message


def test_a_folder_that_does_not_exist_is_refused(tmp_path):
    with pytest.raises(ResultsFormatError, match="not a folder"):
        load_results(tmp_path / "nowhere")


def test_summary_json_records_the_hash_of_model_json(tmp_path):
    results = make_results()
    write_results(results, tmp_path)
    recorded = _summary(tmp_path)["files"]["model.json"]["sha256"]
    assert recorded == hashlib.sha256(dumps_model(results.model).encode()).hexdigest()


def test_a_folder_written_before_model_json_was_listed_is_checked_against_the_run_hash(tmp_path):
    results = make_results()
    write_results(results, tmp_path)
    _edit_summary(_delete_key(("files", "model.json")))(tmp_path)
    assert_results_equal(load_results(tmp_path), results)
    (tmp_path / "model.json").write_text(_another_model(), encoding="utf-8")
    with pytest.raises(ResultsFormatError, match="model.json: not the file"):
        load_results(tmp_path)


def test_leftover_temporary_files_are_ignored_and_the_next_write_removes_them(tmp_path):
    results = make_results()
    write_results(results, tmp_path)
    leftovers = [tmp_path / ".nodes.parquet.0123456789ab.tmp", tmp_path / ".summary.json.ba9876543210.tmp"]
    for path in leftovers:
        path.write_text("half a fi", encoding="utf-8")
    assert_results_equal(load_results(tmp_path), results)
    write_results(results, tmp_path)
    assert not any(path.exists() for path in leftovers)
    assert_results_equal(load_results(tmp_path), results)
