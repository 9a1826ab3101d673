"""A frame at every step of a run with contact pairs gathered a block at a time
(``solver.results.gathered_frames``): the frames, their contact columns, the events and the
summary are those of frames made one at a time, bit for bit, in memory and in a streamed folder;
no frame and no contact dict is made a step."""
from __future__ import annotations

import json

import numpy as np
import pytest

from app.shell import cli
from app.shell.cli_results import record_edit
from solver.api import load_model, simulate
from solver.contact.tracker import ContactTracker
from solver.integration.closed_steps import ClosedRows
from solver.integration import time_loop
from solver.model.io import examples_dir
from solver.results import gathered_frames, lazy, streaming
from solver.results.files import write_results
from solver.results.frame_columns import ARRAY_FIELDS
from solver.results.outputs import OutputBuilder
from solver.results.streaming import streamed_results

#: (example, steps run): a compliant clearance joint (LN law, contact from the start), a Lagrange
#: pair (its onset within the steps), impulse pairs on a flexible rod
EXAMPLES = (("slider_crank_clearance_lankarani_nikravesh", 80), ("bar_mass_impact_lagrange", 272),
            ("rod_floor_flexible", 200))


def _every_step(name: str, steps: int, *record: str) -> dict:
    """Example ``name`` over about ``steps`` steps, a frame at every step (and ``record``)."""
    model = load_model(examples_dir() / f"{name}.json")
    model["solver"]["end_time"] = min(model["solver"]["end_time"], steps * model["solver"]["step"])
    record_edit(["interval=0", *record])(model)
    return model


def _one_at_a_time(monkeypatch, model: dict):
    """``model`` run with each frame made alone (OutputBuilder.frame, ContactTracker.frame_data)."""
    with monkeypatch.context() as m:
        m.setattr(time_loop._Loop, "_gathered", lambda self: None)
        return simulate(model)


def _assert_same_results(a, b) -> None:
    assert len(a.frames) == len(b.frames) > 2
    assert a.frames.times.tobytes() == b.frames.times.tobytes()
    for name in ARRAY_FIELDS:
        x, y = a.frames.field(name), b.frames.field(name)
        assert x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes(), name
    assert a.frames.energies == b.frames.energies
    rows_a, rows_b = a.frames.contact_rows(), b.frames.contact_rows()
    assert list(rows_a) == list(rows_b)
    for key in rows_a:
        assert rows_a[key].tobytes() == rows_b[key].tobytes(), key
    for i in (0, 1, len(a.frames) // 2, len(a.frames) - 1):
        ca, cb = a.frames[i].contact, b.frames[i].contact
        assert list(ca) == list(cb) and all(ca[k].dtype == cb[k].dtype and ca[k].tobytes() == cb[k].tobytes()
                                            for k in ca), i
    assert json.dumps(a.events, sort_keys=True) == json.dumps(b.events, sort_keys=True)
    wall = [k for k in a.meta if k.endswith("wall_s") or k == "wall_time_s"]
    assert {k: v for k, v in a.meta.items() if k not in wall} == {k: v for k, v in b.meta.items() if k not in wall}


@pytest.mark.parametrize("name, steps", EXAMPLES)
def test_a_contact_run_saved_at_every_step_makes_no_frame_and_no_contact_dict_a_step(monkeypatch, name, steps):
    """Only the first frame is made alone (was: a Frame and a dict of contact columns a step)."""
    made, dicts = [], []
    frame, frame_data = OutputBuilder.frame, ContactTracker.frame_data
    monkeypatch.setattr(OutputBuilder, "frame", lambda self, st: made.append(st.t) or frame(self, st))
    monkeypatch.setattr(ContactTracker, "frame_data", lambda self, st: dicts.append(st.t) or frame_data(self, st))
    results = simulate(_every_step(name, steps))
    assert len(results.frames) == results.meta["steps"] + 1 > 100
    assert made == dicts == [0.0]


@pytest.mark.parametrize("name, steps", EXAMPLES)
def test_gathered_contact_frames_are_those_made_one_at_a_time_bit_for_bit(monkeypatch, name, steps):
    """Blocks of 7 frames, of one (each due at once: LIVE_S 0) and the default blocks: frames,
    contact columns, events and summary of the run whose frames are each made alone, to the last
    bit; the contact happened."""
    model = _every_step(name, steps)
    alone = _one_at_a_time(monkeypatch, model)
    assert np.any(alone.frames.contact_rows()["state"] > 0)
    _assert_same_results(simulate(model), alone)
    monkeypatch.setattr(gathered_frames, "BLOCK_FRAMES", 7)
    _assert_same_results(simulate(model), alone)
    monkeypatch.setattr(gathered_frames, "LIVE_S", 0.0)
    _assert_same_results(simulate(model), alone)


def test_gathered_frames_keep_the_chosen_pairs_and_precision(monkeypatch):
    """A record of single precision and no rates, one that keeps no contact pair, and two of the
    four pairs of the translational clearance joint (the second and the fourth)."""
    runs = [("rod_floor_flexible", 120, record) for record in (("rates=no", "precision=single"), ("contacts=none",))]
    runs.append(("slider_crank_translational_clearance", 40, ("contacts=guide.front_lower,guide.rear_upper",)))
    for name, steps, record in runs:
        model = _every_step(name, steps, *record)
        _assert_same_results(simulate(model), _one_at_a_time(monkeypatch, model))


def test_a_streamed_contact_run_writes_the_folder_of_frames_made_one_at_a_time(monkeypatch, tmp_path):
    """Row groups of 40 frames cut across blocks of 32: every file of the folder byte for byte
    that written from the run whose frames are each made alone."""
    model = _every_step("slider_crank_clearance_lankarani_nikravesh", 40)
    monkeypatch.setattr(gathered_frames, "BLOCK_FRAMES", 32)
    monkeypatch.setattr(streaming, "ROW_GROUP_ROWS", 40)
    alone = _one_at_a_time(monkeypatch, model)
    write_results(alone, tmp_path / "alone")
    with streamed_results(tmp_path / "gathered") as stream:
        stream.finish(simulate(model, frames=stream.frames))
    files = json.loads((tmp_path / "gathered" / "summary.json").read_text())["files"]
    assert "contacts.parquet" in files
    for name in files:
        assert (tmp_path / "gathered" / name).read_bytes() == (tmp_path / "alone" / name).read_bytes(), name


def test_flexmech_run_of_a_contact_run_at_every_step_reads_no_frame_back(monkeypatch, tmp_path):
    """The finish's warnings take the frames' times from the folder's time column (the force-spike
    warning read every frame back from the tables for its time: 235 frames here)."""
    path = tmp_path / "model.json"
    path.write_text(json.dumps(_every_step("slider_crank_clearance_lankarani_nikravesh", 80)))
    read = []
    frame = lazy.LazyFrames._frame
    monkeypatch.setattr(lazy.LazyFrames, "_frame", lambda self, i: read.append(i) or frame(self, i))
    assert cli.main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == cli.EXIT_OK
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["run"]["frame_count"] > 200
    assert read == []


def test_open_steps_of_a_run_at_every_step_are_gathered_in_compiled_runs(monkeypatch):
    """The bar struck by a mass (a damped Lagrange pair) at every step: its steps while the pair
    is open run a block at a time (was: a compiled run of one step a frame, some 130)."""
    runs = []
    compiled_run = time_loop.compiled_run
    monkeypatch.setattr(time_loop, "compiled_run", lambda *a, **k: runs.append(a[3]) or compiled_run(*a, **k))
    monkeypatch.setattr(ClosedRows, "ready", lambda self, s: False)  # closed steps framed one at a time
    results = simulate(_every_step("bar_mass_impact_lagrange", 272))
    # 272 steps and the onset's three half steps, one fewer since the second contact's release (0.53483 s)
    assert len(results.frames) == results.meta["steps"] + 1 == 275
    assert len(runs) <= 10
