"""A frame at every step gathered a run of free steps at a time (``solver.results.frame_block``)
and written on the results' writer thread (``solver.results.writer_thread``): the frames are
those made one at a time, bit for bit, in memory and in the folder; a chunk that fails to
write stops the run with its time and cause; every wait of the writer is bounded."""
from __future__ import annotations

import json
import threading
from math import nan

import numpy as np
import pyarrow.parquet as pq
import pytest

from app.shell import cli
from app.shell.cli_results import record_edit
from solver.api import load_model, simulate
from solver.integration import compiled_runs, newmark
from solver.model.io import examples_dir
from solver.results import streaming
from solver.results.files import write_results
from solver.results.frame_columns import ARRAY_FIELDS
from solver.results.frames import energy_matrix
from solver.results.outputs import OutputBuilder
from solver.results.streaming import streamed_results
from solver.results.summary import link_summary
from solver.results.tables import jsonable
from solver.results.writer_thread import QUEUED_CHUNKS, ChunkWriter, ResultsWriteError

STEPS = 120


def _every_step(*record: str) -> dict:
    """The flexible slider-crank over STEPS steps, a frame at every step (and ``record``)."""
    model = load_model(examples_dir() / "slider_crank_flexible.json")
    model["solver"]["end_time"] = STEPS * model["solver"]["step"]
    record_edit(["interval=0", *record])(model)
    return model


def _one_at_a_time(monkeypatch, model: dict):
    """``model`` run with ordinary steps (no compiled runs: each frame made alone by OutputBuilder.frame)."""
    with monkeypatch.context() as m:
        m.setattr(newmark.NewmarkIntegrator, "runs_free_steps", property(lambda self: False))
        return simulate(model)


def _assert_same_frames(a, b) -> None:
    assert len(a.frames) == len(b.frames) == STEPS + 1
    assert a.frames.times.tobytes() == b.frames.times.tobytes()
    for name in ARRAY_FIELDS:
        x, y = a.frames.field(name), b.frames.field(name)
        assert x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes(), name
    assert a.frames.energies == b.frames.energies


def test_a_run_saved_at_every_step_makes_no_frame_one_at_a_time(monkeypatch):
    """Only the first frame is made alone; the others come in blocks (was: a Frame a step)."""
    made = []
    frame = OutputBuilder.frame
    monkeypatch.setattr(OutputBuilder, "frame", lambda self, st: made.append(st.t) or frame(self, st))
    results = simulate(_every_step())
    assert results.meta["steps"] == STEPS and len(results.frames) == STEPS + 1
    assert made == [0.0]


@pytest.mark.parametrize("record", [(), ("stations=0,0.5", "rates=no", "precision=single")])
def test_gathered_frames_are_those_made_one_at_a_time_bit_for_bit(monkeypatch, record):
    """Blocks of 7 frames (crossing the stores' blocks of rows) and the default blocks give the
    frames, energies and times of ordinary steps each saved alone, to the last bit."""
    model = _every_step(*record)
    alone = _one_at_a_time(monkeypatch, model)
    _assert_same_frames(simulate(model), alone)
    monkeypatch.setattr(compiled_runs, "BLOCK_FRAMES", 7)
    _assert_same_frames(simulate(model), alone)


def test_a_streamed_run_at_every_step_writes_the_folder_of_frames_made_one_at_a_time(monkeypatch, tmp_path):
    """Row groups of 20 frames handed to the writer thread: the tables are byte for byte those
    written from the ordinary run's frames, and the summary's peaks those of all the frames."""
    model = _every_step()
    monkeypatch.setattr(streaming, "ROW_GROUP_ROWS", 20 * 8 * 5)  # the elements table: 20 frames a row group
    alone = _one_at_a_time(monkeypatch, model)
    write_results(alone, tmp_path / "alone")
    with streamed_results(tmp_path / "gathered") as stream:
        stream.finish(simulate(model, frames=stream.frames))
    summaries = [json.loads((tmp_path / name / "summary.json").read_text()) for name in ("alone", "gathered")]
    files = summaries[1]["files"]
    assert "elements.parquet" in files and pq.ParquetFile(tmp_path / "gathered" / "elements.parquet").num_row_groups > 2
    for name in files:
        assert (tmp_path / "gathered" / name).read_bytes() == (tmp_path / "alone" / name).read_bytes(), name
    assert summaries[1]["energy"] == summaries[0]["energy"]
    # the strain peaks gathered chunk by chunk as the elements were written: those of all the frames at once
    assert summaries[1]["links"] == summaries[0]["links"] == jsonable(link_summary(alone, alone.time.astype(float)))


def test_a_run_at_every_step_reads_no_table_back(monkeypatch, tmp_path):
    """``flexmech run`` saved at every step writes its folder without reading a row group of it
    back: the summary, its warnings (a mesh warning read the first frame's every table: 0.4 s
    of the 16-element slider-crank's 8001 frames) and the command's own."""
    path = tmp_path / "model.json"
    path.write_text(json.dumps(_every_step()))
    monkeypatch.setattr(streaming, "ROW_GROUP_ROWS", 20 * 8 * 5)  # Parquet files, not tables.zip
    reads = []
    monkeypatch.setattr(pq.ParquetFile, "read_row_group", lambda self, *a, **k: reads.append(a))
    monkeypatch.setattr(pq.ParquetFile, "read", lambda self, *a, **k: reads.append(a))
    assert cli.main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == cli.EXIT_OK
    assert (tmp_path / "out" / "elements.parquet").exists() and reads == []


def test_row_groups_hold_at_most_1024_frames_and_the_small_tables_stay_in_the_archive(tmp_path):
    """1100 frames: the elements table's row groups are cut at 1024 frames (written as the run
    goes, not all at its finish), while the nodes (0.7 MB), links, drivers and energy tables stay
    members of tables.zip as before (a row group of theirs holds more than 1 MB of values)."""
    model = _every_step()
    model["solver"]["end_time"] = 1099 * model["solver"]["step"]
    with streamed_results(tmp_path / "out") as stream:
        stream.finish(simulate(model, frames=stream.frames))
    files = json.loads((tmp_path / "out" / "summary.json").read_text())["files"]
    meta = pq.ParquetFile(tmp_path / "out" / "elements.parquet").metadata
    per_frame = meta.num_rows // 1100
    assert [meta.row_group(g).num_rows // per_frame for g in range(meta.num_row_groups)] == [1024, 76]
    assert {"nodes", "links", "drivers", "energy"} <= set(files["tables.zip"]["tables"])


def test_energy_terms_a_frame_lacks_are_the_missing_value():
    """The energy columns of frames with the first frame's terms, and of frames with others."""
    same = [{"kinetic": 1.0, "work_drivers": 2.0}, {"work_drivers": 4.0, "kinetic": 3.0}]
    np.testing.assert_array_equal(energy_matrix(same, ["work_drivers", "strain", "kinetic"]),
                                  [[2.0, nan, 1.0], [4.0, nan, 3.0]])
    other = [{"kinetic": 1.0, "strain": 5.0}, {"kinetic": 3.0, "work_drivers": 4.0}]
    assert energy_matrix(other, ["work_drivers", "strain"], 0.0).tolist() == [[0.0, 5.0], [4.0, 0.0]]
    assert energy_matrix(same[:1] + [{"kinetic": 3.0}], ["work_drivers"], -1.0).tolist() == [[2.0], [-1.0]]


def test_a_chunk_that_fails_to_write_stops_the_run_with_its_time_and_cause(monkeypatch, tmp_path, capsys):
    """The writer thread's error reaches the run at its next chunk: ``flexmech run`` stops naming
    the time of the last frame handed over and the cause, and the folder keeps the previous run."""
    path = tmp_path / "model.json"
    path.write_text(json.dumps(_every_step()))
    out = tmp_path / "out"
    assert cli.main(["run", str(path), "--out", str(out), "--quiet"]) == cli.EXIT_OK
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    monkeypatch.setattr(streaming, "ROW_GROUP_ROWS", 10 * 8 * 5)
    write_table = pq.ParquetWriter.write_table
    calls = []

    def failing(self, table, *args, **kwargs):
        calls.append(threading.current_thread().name)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return write_table(self, table, *args, **kwargs)

    monkeypatch.setattr(pq.ParquetWriter, "write_table", failing)
    capsys.readouterr()
    assert cli.main(["run", str(path), "--out", str(out), "--quiet"]) == cli.EXIT_INVALID
    err = capsys.readouterr().err
    assert "stopped at t = " in err and "No space left on device" in err and "Traceback" not in err
    assert calls[2] == "flexmech-results-writer"
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_every_wait_of_the_writer_is_bounded():
    """A writer stuck on a chunk: handing over more than it queues raises instead of waiting
    for ever, and so does draining it; its error names the time of the last frame handed over."""
    stuck, release = threading.Event(), threading.Event()

    def stuck_job():
        stuck.set()
        release.wait()

    writer = ChunkWriter(wait_s=0.05)
    writer.submit(stuck_job, t=0.5)
    assert stuck.wait(30)
    with pytest.raises(ResultsWriteError, match="took no chunk"):
        for k in range(QUEUED_CHUNKS + 1):
            writer.submit(lambda: None, t=1.0 + k)
    with pytest.raises(ResultsWriteError, match=r"stopped at t = \d"):
        writer.drain()
    release.set()
    writer.stop()


def test_a_failed_chunk_drops_the_later_ones_and_is_raised_when_draining():
    writer = ChunkWriter()
    written = []
    writer.submit(lambda: written.append(1), t=0.1)
    writer.submit(lambda: np.zeros(1)[3], t=0.2)  # IndexError on the writer's thread
    writer.submit(lambda: written.append(3), t=0.3)
    with pytest.raises(ResultsWriteError, match=r"frames up to t = 0.2 s failed: index 3"):
        writer.drain()
    assert written == [1]
