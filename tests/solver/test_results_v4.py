"""Results format version 4: the small tables together in ``tables.zip`` (Arrow IPC members),
each larger one in a file of its own, the event log once (``summary.json``'s ``events``);
folders of versions 1 to 3 still read exactly; a write removes the files of the run it replaces
that it does not write itself."""
from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pyarrow as pa
import pytest

import solver.safe_write as model_io
from solver.results import streaming
from solver.results.bundle import BUNDLE
from solver.results.files import export_csv, load_results, write_results
from tests.solver.test_results_io import assert_results_equal, make_results

DATA = Path(__file__).parent.parent / "data"
#: make_results() written by the version-1, -2 and -3 writers (main at aa26b5e for version 2, at
#: 28e44a8 for version 3: its events.csv a member of tables.zip)
V1, V2, V3 = DATA / "results_v1", DATA / "results_v2", DATA / "results_v3"


@pytest.fixture
def own_files(monkeypatch):
    """Every table in a file of its own (none is small enough for tables.zip)."""
    monkeypatch.setattr(streaming, "BUNDLE_BYTES", -1)


def _summary(folder: Path) -> dict:
    return json.loads((folder / "summary.json").read_text(encoding="utf-8"))


def test_a_small_run_is_three_files(tmp_path):
    write_results(make_results(), tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.json", "summary.json", "tables.zip"]
    with zipfile.ZipFile(tmp_path / BUNDLE) as archive:
        assert archive.namelist() == [*(f"{t}.arrow" for t in (
            "nodes", "rotations", "elements", "links", "drivers", "modes", "moving", "energy", "contacts", "steps"))]
        assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_STORED}
        nodes = pa.ipc.open_file(archive.read("nodes.arrow")).read_all()  # any Arrow reader opens a member
    assert nodes.column_names == ["time_s", "node", "x_m", "y_m", "vx_m_s", "vy_m_s", "ax_m_s2", "ay_m_s2"]
    assert _summary(tmp_path)["version"] == 5
    assert _summary(tmp_path)["files"][BUNDLE]["tables"]["nodes"] == nodes.num_rows


@pytest.mark.parametrize("lazy", [True, False])
def test_a_version_4_folder_reads_back_bit_for_bit(tmp_path, lazy):
    results = make_results()
    write_results(results, tmp_path)
    assert_results_equal(load_results(tmp_path, lazy=lazy), results)


@pytest.mark.parametrize("lazy", [True, False])
def test_tables_over_the_limit_get_files_of_their_own(tmp_path, monkeypatch, lazy):
    """With a limit between the sizes of the tables, the larger ones are Parquet files, the rest
    members; the folder reads back the same."""
    monkeypatch.setattr(streaming, "BUNDLE_BYTES", 1000)
    results = make_results()
    write_results(results, tmp_path)
    files = _summary(tmp_path)["files"]
    bundled = set(files[BUNDLE]["tables"])
    own = {name.split(".")[0] for name in files if name.endswith(".parquet")}
    assert own and bundled and not own & bundled and own | bundled == {
        "nodes", "rotations", "elements", "links", "drivers", "modes", "moving", "energy", "contacts", "steps"}
    assert "elements" in own and "modes" in bundled  # its rows, and no rows
    assert_results_equal(load_results(tmp_path, lazy=lazy), results)


def test_every_table_in_its_own_file_reads_back(tmp_path, own_files):
    results = make_results()
    write_results(results, tmp_path)
    files = _summary(tmp_path)["files"]
    assert "events.csv" not in files and "elements.parquet" in files and files[BUNDLE]["tables"] == {}
    assert_results_equal(load_results(tmp_path), results)


@pytest.mark.parametrize("lazy", [True, False])
@pytest.mark.parametrize("older, version", [(V2, 2), (V3, 3)])
def test_an_older_folder_is_read_exactly(lazy, older, version):
    assert _summary(older)["version"] == version
    assert_results_equal(load_results(older, lazy=lazy), make_results())


def test_the_events_are_written_once(tmp_path):
    """In summary.json's ``events`` (which load_results reads); the contacts' summaries count
    their impulses; ``flexmech export --csv`` still writes events.csv, as from a version-3 folder."""
    results = make_results()
    write_results(results, tmp_path)
    summary = _summary(tmp_path)
    assert summary["events"] == results.events and len(results.events) == 2
    assert summary["contacts"]["tip-floor"]["impulses"] == 1
    assert _summary(V3)["contacts"]["tip-floor"]["impulses"] == [results.events[0]]  # version 3 copied them
    with zipfile.ZipFile(tmp_path / BUNDLE) as archive:
        assert "events.csv" not in archive.namelist()
    mine, theirs = export_csv(tmp_path, tmp_path / "csv", ["events"]), export_csv(V3, tmp_path / "csv3", ["events"])
    assert mine[0].name == "events.csv" and mine[0].read_bytes() == theirs[0].read_bytes()


@pytest.mark.parametrize("lazy", [True, False])
def test_members_over_the_limit_are_compressed_and_read_back_bit_for_bit(tmp_path, monkeypatch, lazy):
    """A member of more than COMPRESS_BYTES has its buffers zstd-compressed by Arrow IPC (zstd
    frames in its bytes), read by any Arrow reader, equal bit for bit."""
    from solver.results import bundle

    results = make_results()
    monkeypatch.setattr(bundle, "COMPRESS_BYTES", 1 << 30)
    write_results(results, tmp_path / "plain")
    monkeypatch.setattr(bundle, "COMPRESS_BYTES", 0)
    write_results(results, tmp_path / "packed")
    zstd_frame = b"\x28\xb5\x2f\xfd"  # the magic number opening a zstd frame
    for name, compressed in (("plain", False), ("packed", True)):
        with zipfile.ZipFile(tmp_path / name / BUNDLE) as archive:
            data = archive.read("nodes.arrow")
        assert (zstd_frame in data) is compressed
        assert pa.ipc.open_file(data).read_all().num_rows == len(results.frames) * len(results.layout.nodes)
    assert_results_equal(load_results(tmp_path / "packed", lazy=lazy), results)


def test_impulses_of_infinite_sum_are_summarised_and_written(tmp_path):
    """Impulses of +inf and -inf (a diverged run) sum to nan, written as null: the write goes on."""
    results = make_results()
    results.events = [dict(results.events[0], I_n_N_s=float("inf")), dict(results.events[0], I_n_N_s=float("-inf")),
                      dict(results.events[0], I_n_N_s=1e308), dict(results.events[0], I_n_N_s=1e308)]
    write_results(results, tmp_path)
    contact = _summary(tmp_path)["contacts"]["tip-floor"]
    assert contact["impulses"] == 4 and contact["normal_impulse_N_s"] is None


def test_events_of_numpy_values_and_nan_are_written_as_json(tmp_path):
    """The encoder takes most events as they are; one it refuses is made JSON-ready first:
    numpy scalars and arrays as numbers and lists, nan as null, tuples as lists."""
    import numpy as np

    results = make_results()
    odd = {"time_s": np.float64(0.3), "kind": "stick", "contact": "tip-floor", "v_t_m_s": np.float32(0.25),
           "count": np.int64(3), "onset": np.bool_(True), "D": np.eye(2), "gap_m": float("nan"), "pair": (1, 2)}
    results.events = [results.events[0], odd, results.events[1]]
    write_results(results, tmp_path)
    text = (tmp_path / "summary.json").read_text(encoding="utf-8")
    assert "NaN" not in text
    assert load_results(tmp_path).events[1] == {"time_s": 0.3, "kind": "stick", "contact": "tip-floor",
                                                "v_t_m_s": 0.25, "count": 3, "onset": True,
                                                "D": [[1.0, 0.0], [0.0, 1.0]], "gap_m": None, "pair": [1, 2]}
    assert load_results(tmp_path).events[0] == results.events[0]


@pytest.mark.parametrize("older", [V1, V2, V3])
def test_every_version_exports_the_same_csv_files(tmp_path, older):
    """Byte for byte, with the units in the header (the version-1 fixture predates ``moving``,
    which exports with its header only)."""
    write_results(make_results(), tmp_path / "v3")
    ours, theirs = export_csv(tmp_path / "v3", tmp_path / "csv3"), export_csv(older, tmp_path / "csv_old")
    assert [p.name for p in ours] == [p.name for p in theirs]
    for mine, other in zip(ours, theirs):
        if other.name != "moving.csv" or older is not V1:
            assert mine.read_bytes() == other.read_bytes(), mine.name
    assert (tmp_path / "csv3" / "nodes.csv").read_text().splitlines()[0] == "time_s,node,x_m,y_m,vx_m_s,vy_m_s,ax_m_s2,ay_m_s2"


@pytest.mark.parametrize("older", [V1, V2, V3])
def test_a_write_over_an_older_folder_removes_its_files_and_keeps_exports(tmp_path, older):
    shutil.copytree(older, tmp_path, dirs_exist_ok=True)
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    results = make_results()
    write_results(results, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.json", "notes.txt", "summary.json", "tables.zip"]
    export_csv(tmp_path, tables=["nodes"])
    write_results(results, tmp_path)  # an exported file is not the run's: it stays
    assert (tmp_path / "nodes.csv").exists()
    assert_results_equal(load_results(tmp_path), results)


def test_a_table_that_moves_into_tables_zip_leaves_no_file_behind(tmp_path, monkeypatch):
    monkeypatch.setattr(streaming, "BUNDLE_BYTES", -1)
    write_results(make_results(), tmp_path)
    assert (tmp_path / "nodes.parquet").exists()
    monkeypatch.setattr(streaming, "BUNDLE_BYTES", 64 * 1024)
    write_results(make_results(), tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.json", "summary.json", "tables.zip"]


def test_a_small_folder_is_not_flushed_a_larger_one_is(tmp_path, monkeypatch):
    flushed = []
    monkeypatch.setattr(model_io.os, "fsync", lambda fd: flushed.append(fd))
    write_results(make_results(), tmp_path / "small")
    assert flushed == []
    monkeypatch.setattr(streaming, "FLUSH_BYTES", 1000)  # the folder is larger than this
    write_results(make_results(), tmp_path / "large")
    assert len(flushed) == 3  # model.json, tables.zip, summary.json
    assert_results_equal(load_results(tmp_path / "small"), load_results(tmp_path / "large"))


def test_the_same_results_give_the_same_bytes(tmp_path):
    write_results(make_results(), tmp_path / "a")
    write_results(make_results(), tmp_path / "b")
    for name in ("tables.zip", "summary.json", "model.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


@pytest.mark.parametrize("name", ["rod_impact_rigid", "spheres_hertz"])  # impulses; a compliant law
def test_a_loaded_run_written_again_gives_the_same_files(tmp_path, name):
    """Its energy terms read back as they were written (a contact's stored energy a float 0.0
    while the pair is open, not an integer 0 that reads back as 0.0)."""
    from solver.api import simulate
    from solver.model.io import examples_dir, load_model

    results = simulate(load_model(examples_dir() / f"{name}.json"))
    assert all(isinstance(v, float) for e in results.frames.energies for v in e.values())
    write_results(results, tmp_path / "run")
    write_results(load_results(tmp_path / "run"), tmp_path / "again")
    for path in sorted((tmp_path / "run").iterdir()):
        assert (tmp_path / "again" / path.name).read_bytes() == path.read_bytes(), path.name
