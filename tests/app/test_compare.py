"""Compare runs: one series of two runs overlaid, labelled by run."""
from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

from app.results.compare import CompareView, common_keys, compare_series
from app.results.export import write_series_csv
from app.results.stems import Stems
from solver.api import load_model, simulate
from solver.results.frames import Results

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def rod_with_friction(mu: float) -> Results:
    """The rigid rod of the LAJSS paper striking the ground with friction coefficient ``mu``."""
    model = copy.deepcopy(load_model(EXAMPLES / "rod_impact_rigid.json"))
    model["contacts"][0].update(mu_s=mu, mu_d=mu)
    return simulate(model)


@pytest.fixture(scope="module")
def runs() -> list[tuple[str, Results]]:
    return [("μ = 0.7", rod_with_friction(0.7)), ("μ = 0.95", rod_with_friction(0.95))]


def test_two_runs_overlaid_in_one_plot(qtbot, runs):
    view = CompareView()
    qtbot.addWidget(view)
    view.set_runs(runs)
    view.set_x_axis("time")
    view.set_series("node/B/vx")
    curves = view.plotted()
    assert [c.run for c in curves] == ["μ = 0.7", "μ = 0.95"]
    for curve, (_, results) in zip(curves, runs):
        np.testing.assert_array_equal(curve.x, results.time)
        np.testing.assert_array_equal(curve.y, results.stack("node_v")[:, results.node_index("B"), 0])
    assert not np.allclose(curves[0].y, curves[1].y)      # friction changed the rebound
    drawn = view.plot.getPlotItem().listDataItems()
    assert [d.name() for d in drawn] == ["μ = 0.7", "μ = 0.95"]
    for d, curve in zip(drawn, curves):
        np.testing.assert_array_equal(d.getData()[1], curve.y)


def test_choosing_another_series_keeps_both_runs(qtbot, runs):
    view = CompareView()
    qtbot.addWidget(view)
    view.set_runs(runs)
    assert view.series_combo.currentData() == "contact/B-ground/I_n"     # the default preset's first series: an impulse pair's impulses
    assert all(isinstance(item, Stems) for item in view.plot.getPlotItem().items)   # drawn as stems
    view.series_combo.setCurrentIndex(view.series_combo.findData("energy/dissipated_friction"))
    view.series_combo.activated.emit(view.series_combo.currentIndex())
    assert [c.y_series.key for c in view.plotted()] == ["energy/dissipated_friction"] * 2
    view.set_runs(runs[:1])                                             # the choice survives new runs
    assert [c.y_series.key for c in view.plotted()] == ["energy/dissipated_friction"]


def test_compared_series_export_with_run_labels(runs, tmp_path):
    write_series_csv(compare_series(runs, "time", "node/B/vy"), tmp_path / "compare.csv")
    header = (tmp_path / "compare.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "time_s,μ = 0.7: node.B.vy_m_s,μ = 0.95: node.B.vy_m_s"    # same times: one time column


def test_common_keys_are_those_every_run_has(runs):
    bar = simulate(load_model(EXAMPLES / "pendulum_impact.json"))
    x_keys, y_keys = common_keys([runs[0], ("pendulum", bar)])
    assert x_keys == ["time"] and "energy/kinetic" in y_keys and "contact/B-ground/F_n" not in y_keys


def test_runs_of_different_models_are_flagged(qtbot, runs, bar_mass):
    """Issue #27: Compare runs mixed a rod and a bar without a word; it now says so."""
    view = CompareView()
    qtbot.addWidget(view)
    view.set_runs(runs)
    assert view.note.isHidden()
    view.set_runs([*runs, ("3: bar", bar_mass)])
    assert not view.note.isHidden() and "different models" in view.note.text()


def test_compared_impulses_stand_at_their_instants_between_frames(qtbot):
    """The pendulum's frames are 5 ms apart and its impulses fall between them (152.626 ms, the
    frame after it 155 ms): each run's stems at its events' instants, over the run's span."""
    pendulum = simulate(load_model(EXAMPLES / "pendulum_impact.json"))
    view = CompareView()
    qtbot.addWidget(view)
    view.set_runs([("pendulum", pendulum)])
    view.set_series("contact/tip-surface/I_n")
    impulses = [e for e in pendulum.events if e["kind"] == "impulse"]
    [curve] = view.plotted()
    np.testing.assert_array_equal(curve.x, [e["time_s"] for e in impulses])
    np.testing.assert_array_equal(curve.y, [e["I_n_N_s"] for e in impulses])
    assert not np.isin(curve.x, pendulum.time).any()
    [stems] = [item for item in view.plot.getPlotItem().items if isinstance(item, Stems)]
    np.testing.assert_array_equal(stems.stems()[0], curve.x)
    np.testing.assert_array_equal(stems.getData()[0][:2], pendulum.time[[0, -1]])
