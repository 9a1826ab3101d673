"""The Parquet time series (results format versions 2 and 3), the version-1 reader, what a run
records (``solver.record``) and the CSV export."""
from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from solver.api import load_model, simulate
from solver.model.io import examples_dir
from solver.results.files import export_csv, load_results, write_results
from tests.solver.test_results_io import assert_results_equal, make_results
from tests.solver.test_results_v4 import own_files  # noqa: F401 - a fixture

V1 = Path(__file__).parent.parent / "data" / "results_v1"


def test_a_version_1_folder_is_read_exactly():
    assert_results_equal(load_results(V1), make_results())


def test_a_version_1_folder_exports_its_own_csv_files(tmp_path):
    """The same cells, numbers bit for bit (written now in their shortest text, the fixture with
    %.17g); the fixture predates the ``moving`` table, which exports with its header only."""
    written = export_csv(V1, tmp_path)
    assert {p.name for p in written} == {p.name for p in V1.glob("*.csv")} | {"moving.csv"}
    for path in written:
        if path.name == "moving.csv":
            assert path.read_text(encoding="utf-8") == "time_s,moving,s_m,speed_m_s,F_n_N,F_t_N\n"
        else:
            assert _cells(path) == _cells(V1 / path.name), path.name


def _cells(path) -> list[list]:
    """The CSV's cells, numbers as floats (nan as text, to compare equal)."""
    def cell(text: str):
        try:
            value = float(text)
        except ValueError:
            return text
        return "nan" if value != value else value
    return [[cell(c) for c in line.split(",")] for line in path.read_text(encoding="utf-8").splitlines()]


def test_export_of_one_table_into_another_folder(tmp_path):
    write_results(make_results(), tmp_path / "run")
    assert export_csv(tmp_path / "run", tmp_path / "csv", ["links"]) == [tmp_path / "csv" / "links.csv"]
    assert (tmp_path / "csv" / "links.csv").read_text().splitlines()[0] == "time_s,link,midspan_deflection_rel"
    with pytest.raises(ValueError, match="no table 'strains'"):
        export_csv(tmp_path / "run", tables=["strains"])


def _short_slider_crank(**record) -> dict:
    model = copy.deepcopy(load_model(examples_dir() / "slider_crank_flexible.json"))
    model["solver"].update(end_time=0.005, record=record)
    return model


def test_what_a_run_records_is_what_the_folder_holds(tmp_path):
    """Stations at mid-element only, no rates, no step log, single precision: a round trip."""
    results = simulate(_short_slider_crank(element_stations=[0.5], rates=False, steps=False, precision="single"))
    full = simulate(_short_slider_crank())
    assert results.layout.stations == (0.5,) and not results.layout.rates
    first = results.frames[-1]
    assert first.node_xy.dtype == np.float32 and first.node_v.shape == (0, 2) and first.rot_a.shape == (0,)
    assert first.axial_strain.shape == (8, 1) and results.steps == [] and results.meta["steps"] == len(full.steps)
    np.testing.assert_allclose(first.node_xy, full.frames[-1].node_xy, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(first.bending_strain[:, 0], full.frames[-1].bending_strain[:, 2], rtol=1e-5, atol=1e-12)
    write_results(results, tmp_path)
    loaded = load_results(tmp_path)
    assert_results_equal(loaded, results)
    assert loaded.frames[-1].node_xy.dtype == np.float32
    export_csv(tmp_path)
    assert (tmp_path / "nodes.csv").read_text().splitlines()[0] == "time_s,node,x_m,y_m"


def test_no_element_stations_record_no_element_rows(tmp_path):
    results = simulate(_short_slider_crank(element_stations=[]))
    write_results(results, tmp_path)
    loaded = load_results(tmp_path)
    assert loaded.layout.stations == () and loaded.frames[-1].axial_force.shape == (8, 0)
    assert_results_equal(loaded, results)


def test_the_same_results_write_the_same_bytes(tmp_path):
    """Files are a function of the results (a killed write is told from a whole one by their hashes)."""
    results = make_results()
    results.layout.rotations = [("root", "rod"), ("root", "rod")]  # repeated labels in one frame
    for name in ("a", "b"):
        write_results(results, tmp_path / name)
    assert {p.name: p.read_bytes() for p in (tmp_path / "a").iterdir()} == {
        p.name: p.read_bytes() for p in (tmp_path / "b").iterdir()}


def test_the_axial_columns_are_stored_plain_the_other_floats_byte_stream_split(tmp_path, own_files):
    results = make_results()
    write_results(results, tmp_path)
    meta = pq.ParquetFile(tmp_path / "elements.parquet").metadata
    encodings = {meta.schema.column(i).name: meta.row_group(0).column(i).encodings for i in range(meta.num_columns)}
    for name in ("axial_force_N", "axial_strain"):
        assert "BYTE_STREAM_SPLIT" not in encodings[name], name
    for name in ("s_m", "bending_strain", "bending_moment_N_m"):
        assert "BYTE_STREAM_SPLIT" in encodings[name], name
    assert_results_equal(load_results(tmp_path), results)  # bit for bit
