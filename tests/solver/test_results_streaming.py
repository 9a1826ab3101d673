"""A run writing its results folder as it goes (``solver.results.streaming``) writes the
files ``write_results`` writes of the same run, byte for byte; a folder read on demand
(``LazyFrames``) equals one read at once; a run that ends before its folder is finished
leaves the previous run in place.  (A killed streaming ``flexmech run``: test_results_kill.)"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import replace

import numpy as np
import pytest

from solver.api import simulate
from solver.results import streaming
from solver.results.files import load_results, write_results
from solver.results.lazy import LazyFrames
from solver.results.streaming import streamed_results
from tests.solver.builders import beam_model
from solver.results.frames import Results
from tests.solver.test_results_io import assert_results_equal, make_results

#: rows of a row group in these tests: a run of a few dozen frames spans several
SMALL_ROW_GROUP = 200


def _model() -> dict:
    return beam_model(n=12, solver={"end_time": 0.03, "step": 1e-3})


def _timeless(results) -> None:
    """The run's wall times set to 0 (two runs of a model differ in nothing else)."""
    for key in list(results.meta):
        if key.endswith(("wall_s", "wall_time_s")):
            results.meta[key] = 0.0


def _same(a: Results, b: Results) -> None:
    """Equal results, their arrays of the same float types."""
    assert_results_equal(a, b)
    for fa, fb in zip(a.frames, b.frames):
        for field in dataclasses.fields(fa):
            x = getattr(fa, field.name)
            if isinstance(x, np.ndarray) and x.size:
                assert x.dtype == getattr(fb, field.name).dtype, field.name


@pytest.fixture
def small_row_groups(monkeypatch):
    monkeypatch.setattr(streaming, "ROW_GROUP_ROWS", SMALL_ROW_GROUP)


@pytest.mark.parametrize("record", [{}, {"element_stations": [0.5], "rates": False, "precision": "single"}])
def test_a_streamed_run_writes_the_files_write_results_writes(tmp_path, small_row_groups, record):
    model = _model()
    model["solver"]["record"] = record
    with streamed_results(tmp_path / "streamed") as stream:
        streamed = simulate(model, frames=stream.frames)
        _timeless(streamed)
        stream.finish(streamed)
    assert isinstance(streamed.frames, LazyFrames) and len(streamed.frames) == 31
    whole = simulate(model)
    _timeless(whole)
    write_results(whole, tmp_path / "whole")
    names = sorted(os.listdir(tmp_path / "whole"))
    assert sorted(os.listdir(tmp_path / "streamed")) == names and "elements.parquet" in names
    for name in names:
        assert (tmp_path / "streamed" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name
    _same(streamed, whole)


def test_a_folder_read_on_demand_equals_it_read_at_once(tmp_path, small_row_groups):
    results = simulate(_model())
    write_results(results, tmp_path)
    lazy, eager = load_results(tmp_path), load_results(tmp_path, lazy=False)
    assert isinstance(lazy.frames, LazyFrames) and isinstance(eager.frames, list)
    _same(lazy, eager)
    backwards = slice(None, None, -7)  # every row group read again
    _same(replace(lazy, frames=lazy.frames[backwards]), replace(eager, frames=eager.frames[backwards]))
    for field in ("node_xy", "rot", "bending_strain", "node_v"):
        np.testing.assert_array_equal(lazy.stack(field), eager.stack(field))
        np.testing.assert_array_equal(lazy.frames.field(field, 5, 23), eager.stack(field)[5:23])
    np.testing.assert_array_equal(lazy.time, eager.time)
    np.testing.assert_array_equal(lazy.total_energy(), eager.total_energy())
    with pytest.raises(IndexError):
        lazy.frames[len(eager.frames)]


def test_the_test_results_read_on_demand_equal_them(tmp_path):
    """A run with a contact pair, drivers and every table (tests.solver.test_results_io)."""
    write_results(make_results(), tmp_path)
    _same(load_results(tmp_path), load_results(tmp_path, lazy=False))


def test_a_run_that_fails_leaves_the_previous_run(tmp_path):
    old = make_results()
    write_results(old, tmp_path)
    before = {name: (tmp_path / name).read_bytes() for name in os.listdir(tmp_path)}

    with pytest.raises(RuntimeError), streamed_results(tmp_path) as stream:
        simulate(_model(), frames=lambda results: _Failing(stream.frames(results), after=5))
    assert {name: (tmp_path / name).read_bytes() for name in os.listdir(tmp_path)} == before
    with streamed_results(tmp_path) as stream:  # left without finish (a command that returned early)
        simulate(_model(), frames=stream.frames)
    assert {name: (tmp_path / name).read_bytes() for name in os.listdir(tmp_path)} == before
    assert_results_equal(load_results(tmp_path), old)


class _Failing:
    """A frame store that fails at its ``after``-th frame."""

    def __init__(self, frames, after: int):
        self.frames, self.after = frames, after

    def append(self, frame) -> None:
        if len(self.frames) == self.after:
            raise RuntimeError("the disk went away")
        self.frames.append(frame)


def test_a_series_of_frames_read_on_demand_reads_the_same_values(tmp_path, small_row_groups):
    """Plots read one quantity over time from the arrays it needs (``Series.reads``)."""
    from solver.results.series import catalogue, series_xy, x_axes

    write_results(make_results(), tmp_path)
    lazy, eager = load_results(tmp_path), load_results(tmp_path, lazy=False)
    time = x_axes(eager)["time"]
    series = catalogue(eager)
    assert {key.split("/")[0] for key in series} >= {"contact", "energy", "driver", "midspan", "node", "rotation",
                                                      "strain"}
    for key, one in series.items():
        np.testing.assert_array_equal(series_xy(lazy.frames, time, one)[1], series_xy(eager.frames, time, one)[1],
                                      err_msg=key)


def test_frames_lacking_energy_terms_stream_as_they_are_written(tmp_path):
    """The keys the frames hold (not every column of the energy table) go to summary.json."""
    results = make_results()
    for frame in results.frames:
        frame.energy = {**{k: v for k, v in frame.energy.items() if k != "contact_elastic"}, "spring_J": 1.5}
    write_results(results, tmp_path / "whole")
    streamed = replace(results, frames=[])
    with streamed_results(tmp_path / "streamed") as stream:
        streamed.frames = stream.frames(streamed)
        for frame in results.frames:
            streamed.frames.append(frame)
        stream.finish(streamed)
    for name in os.listdir(tmp_path / "whole"):
        assert (tmp_path / "streamed" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name
    assert list(streamed.frames[3].energy) == list(results.frames[3].energy)


def test_a_run_saved_over_other_results_leaves_only_its_files_and_its_source_as_it_was(tmp_path):
    """``copy_results`` into a folder of other results: the old results' files that the run has
    not go (a file exported beside them stays), the linked source keeps its permission bits
    whatever the replaced files had, and saving the run twice leaves no temporaries."""
    from solver.results.files import copy_results

    with streamed_results(tmp_path / "run") as stream:
        results = simulate(_model(), frames=stream.frames)
        stream.finish(results)
    bigger = beam_model(n=200, solver={"end_time": 0.03, "step": 1e-3})  # tables past tables.zip: Parquet files
    write_results(simulate(bigger), tmp_path / "saved")
    (tmp_path / "saved" / "notes.txt").write_text("kept", encoding="utf-8")
    for name in os.listdir(tmp_path / "saved"):
        os.chmod(tmp_path / "saved" / name, 0o600)
    old = set(os.listdir(tmp_path / "saved"))
    names = sorted(os.listdir(tmp_path / "run"))
    modes = [os.stat(tmp_path / "run" / name).st_mode for name in names]
    copy_results(results.folder, tmp_path / "saved")
    copy_results(results.folder, tmp_path / "saved")
    assert old - {*names, "notes.txt"}  # the old results had files of their own ...
    assert sorted(os.listdir(tmp_path / "saved")) == sorted([*names, "notes.txt"])  # ... gone, no temporaries
    assert [os.stat(tmp_path / "run" / name).st_mode for name in names] == modes
    _same(load_results(tmp_path / "saved", lazy=False), load_results(tmp_path / "run", lazy=False))


@pytest.mark.parametrize("linked", [True, False])
def test_a_streamed_runs_folder_is_copied_file_for_file_linked_or_not(tmp_path, monkeypatch, linked):
    """``copy_results`` puts a run's folder elsewhere without reading a frame: hard links on one
    file system, copies where links fail; only a run that streamed its frames names its folder."""
    from solver.results.files import copy_results

    with streamed_results(tmp_path / "run") as stream:
        results = simulate(_model(), frames=stream.frames)
        stream.finish(results)
    assert results.folder == tmp_path / "run"
    if not linked:
        def no_link(*_args):
            raise OSError("Invalid cross-device link")
        monkeypatch.setattr(os, "link", no_link)
    (tmp_path / "saved").mkdir()
    (tmp_path / "saved" / "notes.txt").write_text("kept", encoding="utf-8")
    copy_results(results.folder, tmp_path / "saved")
    copy_results(results.folder, tmp_path / "run")  # onto itself: nothing to do
    names = sorted(p.name for p in (tmp_path / "run").iterdir())
    assert sorted(p.name for p in (tmp_path / "saved").iterdir()) == sorted([*names, "notes.txt"])
    for name in names:
        assert (tmp_path / "saved" / name).read_bytes() == (tmp_path / "run" / name).read_bytes()
        assert (tmp_path / "saved" / name).samefile(tmp_path / "run" / name) == linked
    _same(load_results(tmp_path / "saved", lazy=False), load_results(tmp_path / "run", lazy=False))
    written = simulate(_model())
    write_results(written, tmp_path / "written")
    assert written.folder is None  # its frames are in memory, not read from the folder


def test_a_run_that_raised_keeps_its_frames_so_far(tmp_path, monkeypatch):
    """``ResultsStream.fail``: the frames a run appended before it raised are written, status
    failed, the message naming the time of the last frame and the error; nothing before the first frame."""
    from solver.errors import SolverError
    from solver.results.outputs import OutputBuilder

    write_results(make_results(), tmp_path)
    before = {name: (tmp_path / name).read_bytes() for name in os.listdir(tmp_path)}
    made, count = OutputBuilder.frame, [0]

    def frame(self, st):
        count[0] += 1
        if count[0] in (1, 9):  # the first frame of the first run, the eighth of the second
            raise SolverError("the contact law has no root")
        return made(self, st)

    monkeypatch.setattr(OutputBuilder, "frame", frame)
    model = _model()
    model["solver"]["output_interval"] = 1e-3  # a frame at every step made one at a time (not gathered)
    for kept in (0, 7):
        with streamed_results(tmp_path) as stream:
            with pytest.raises(SolverError) as raised:
                simulate(model, frames=stream.frames)
            results = stream.fail(raised.value)
        if not kept:
            assert results is None
            assert {name: (tmp_path / name).read_bytes() for name in os.listdir(tmp_path)} == before
    loaded = load_results(tmp_path)
    assert len(loaded.frames) == 7 and loaded.meta["status"] == "failed"
    assert loaded.meta["message"] == f"stopped at t = {loaded.frames[6].time:.6g} s (its last frame): the contact law has no root"
    assert "SolverError" in loaded.meta["traceback"]


def test_a_failure_message_says_when_the_run_stopped_once():
    """:func:`~solver.results.streaming.failure_message`'s examples: a solver error that says when the run stopped
    leads, the time of the last frame kept after it (before: 'stopped at t = 0.001 s (its last frame): stopped
    at t = 0.00110557 s: ...'); an error that does not is dated by the last frame."""
    import doctest

    from solver.results import streaming

    tests = doctest.DocTestFinder().find(streaming.failure_message, "failure_message")
    outcome = doctest.DocTestRunner().run(tests[0])
    assert outcome.attempted == 2 and outcome.failed == 0
