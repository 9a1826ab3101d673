"""A run's frames kept in memory as columns (``solver.results.frame_columns``): every frame reads
back bit for bit, in its float types, across blocks; one quantity over the frames equals the
frames' arrays stacked; and the results write the same files as the same frames in a list."""
from __future__ import annotations

import dataclasses
import os
import pickle
from dataclasses import replace

import numpy as np
import pytest

from solver.api import simulate
from solver.results import frame_columns
from solver.results.frame_columns import ARRAY_FIELDS, FrameColumns
from solver.results.files import write_results
from solver.results.tables import contact_values
from tests.solver.builders import beam_model
from tests.solver.test_results_io import assert_results_equal, make_results


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of a few rows: the test results' 7 frames span several."""
    monkeypatch.setattr(frame_columns, "BLOCK_BYTES", 200)


def _columns(frames) -> FrameColumns:
    store = FrameColumns()
    for frame in frames:
        store.append(frame)
    return store


def test_every_frame_reads_back_bit_for_bit_across_blocks(small_blocks):
    results = make_results()
    store = _columns(results.frames)
    assert sum(len(g.blocks) for g in store._groups) > len(store._groups)  # more than one block each
    assert len(store) == len(results.frames)
    assert_results_equal(replace(results, frames=store), results)
    assert_results_equal(replace(results, frames=pickle.loads(pickle.dumps(store))), results)
    for i in (-1, 3, 0):
        for field in ARRAY_FIELDS:
            assert getattr(store[i], field).dtype == getattr(results.frames[i], field).dtype
    with pytest.raises(IndexError):
        store[len(results.frames)]


def test_one_quantity_over_the_frames_equals_their_arrays_stacked(small_blocks):
    results = make_results()
    store = _columns(results.frames)
    for field in ARRAY_FIELDS:
        stacked = np.stack([getattr(f, field) for f in results.frames])
        np.testing.assert_array_equal(store.field(field), stacked, err_msg=field)
        np.testing.assert_array_equal(store.field(field, 2, 6), stacked[2:6], err_msg=field)
        assert store.field(field, 4, 4).shape == (0, *stacked.shape[1:])
    values = store.field("node_xy")
    values[:] = 0.0  # a new array: the frames keep theirs
    np.testing.assert_array_equal(store[1].node_xy, results.frames[1].node_xy)
    np.testing.assert_array_equal(store.times, [f.time for f in results.frames])
    for key, column in contact_values(store, ["F_n_N", "state", "gap_m"], 1, 5).items():
        np.testing.assert_array_equal(column, contact_values(results.frames, [key], 1, 5)[key], err_msg=key)
    light = list(store.light(("rot", "bending_strain"), 2))
    assert [f.time for f in light] == [f.time for f in results.frames[2:]]
    for got, frame in zip(light, results.frames[2:]):
        np.testing.assert_array_equal(got.bending_strain, frame.bending_strain)
        assert got.energy == frame.energy


def test_a_store_of_some_fields_reads_the_others_as_zeros():
    results = make_results()
    store = FrameColumns(("rot",))  # one field: a group of one
    for frame in results.frames:
        store.append(frame)
    np.testing.assert_array_equal(store[2].rot, results.frames[2].rot)
    assert store[2].node_xy.shape == results.frames[2].node_xy.shape and not store[2].node_xy.any()
    assert store.field("axial_force", 0, 3).shape == (3, *results.frames[0].axial_force.shape)


def test_a_run_single_precision_keeps_its_float_types():
    model = beam_model(n=6, solver={"end_time": 0.01, "step": 1e-3, "record": {"precision": "single"}})
    frames = simulate(model).frames
    assert isinstance(frames, FrameColumns)
    assert frames.field("bending_strain").dtype == np.float32 and frames[3].node_xy.dtype == np.float32
    assert frames.field("driver_reaction").dtype == np.float64 and frames[3].midspan.dtype == np.float64


def test_results_kept_as_columns_write_the_files_of_the_same_frames_in_a_list(tmp_path, small_blocks):
    results = simulate(beam_model(n=12, solver={"end_time": 0.03, "step": 1e-3}))
    assert isinstance(results.frames, FrameColumns) and len(results.frames) == 31
    listed = replace(results, frames=list(results.frames))
    for frame in listed.frames:  # each frame its own arrays, as a run's list held them
        for field in dataclasses.fields(frame):
            value = getattr(frame, field.name)
            if isinstance(value, np.ndarray):
                setattr(frame, field.name, value.copy())
    write_results(results, tmp_path / "columns")
    write_results(listed, tmp_path / "list")
    names = sorted(os.listdir(tmp_path / "list"))
    assert sorted(os.listdir(tmp_path / "columns")) == names
    for name in names:
        assert (tmp_path / "columns" / name).read_bytes() == (tmp_path / "list" / name).read_bytes(), name


def test_ranges_are_taken_as_a_lists_slice_takes_them(small_blocks):
    results = make_results()
    store = _columns(results.frames)
    stacked = np.stack([f.rot for f in results.frames])
    for start, stop in [(-1, None), (-3, -1), (0, -2), (5, 2), (2, 100), (-100, 3)]:
        np.testing.assert_array_equal(store.field("rot", start, stop), stacked[start:stop], err_msg=f"{start}:{stop}")
        assert [f.time for f in store.light(("rot",), start, stop)] == [f.time for f in results.frames[start:stop]]


@pytest.mark.parametrize("steps", [("append", 1, "extend"), ("extend", 4, "append"), ("extend", 4, "extend"),
                                   ("extend", 2, "extend")])
def test_a_table_stream_writes_every_frame_however_they_come(tmp_path, steps):
    """Frames appended one at a time and a finished run's frames given at once, in any order:
    the files of the same frames written at once."""
    from solver.results.streaming import streamed_results

    results = make_results()
    first, split, then = steps
    write_results(results, tmp_path / "whole")
    with streamed_results(tmp_path / "parts") as stream:
        stream._results = results
        for how, frames in ((first, results.frames[:split]), (then, results.frames[split:])):
            if how == "append":
                for frame in frames:
                    stream._append(frame)
            else:
                stream.write_frames(replace(results, frames=frames))
        stream.finish(results)
    for name in sorted(os.listdir(tmp_path / "whole")):
        assert (tmp_path / "parts" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name
