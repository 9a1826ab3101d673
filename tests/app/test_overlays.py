"""Reference overlays in the plots dock, and any CSV drawn over a plot."""
from __future__ import annotations

import doctest

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from app.results import overlay_abscissa
from app.results.export import write_series_csv
from app.results.plots_dock import PlotsDock
from solver.api import load_model, simulate
from solver.model.io import examples_dir
from solver.results.references import bundled_references


def reference(name):
    return next(r for r in bundled_references() if r.name == name)


@pytest.fixture
def dock(shown) -> PlotsDock:
    return shown(PlotsDock(), 700, 600)


def test_the_bar_struck_by_a_mass_shows_its_wave_theory_dashed_over_the_contact_force(dock, bar_mass, qtbot):
    dock.set_results(bar_mass)
    assert dock.panels[0].overlaid() == []  # its impulses, shown first, have no reference
    dock.apply_preset("contact forces vs time")
    panel = dock.panels[0]
    wave = reference("bar_mass_impact.wave")
    curve, peak = panel.overlaid()
    assert (curve.label, curve.column, peak.points) == ("Wave theory (Johnson 1972), thesis §5.1.1",
                                                        "contact.striker-end.F_n_N", True)
    np.testing.assert_array_equal(curve.y, wave.table.columns["contact.striker-end.F_n_N"])
    assert peak.y[0] == pytest.approx(0.2135, abs=5e-5)
    item = panel.overlay_layer.items[0][1]
    assert item.opts["pen"].style() == Qt.PenStyle.DashLine           # a style of its own
    # the user switches the references off and on again
    qtbot.mouseClick(dock.references_check, Qt.MouseButton.LeftButton)
    assert panel.overlaid() == []
    qtbot.mouseClick(dock.references_check, Qt.MouseButton.LeftButton)
    assert len(panel.overlaid()) == 2
    # a new panel of the mass's velocity gets its own reference curve
    other = dock.add_panel("time", ["node/striker/vx"])
    assert [o.column for o in other.overlaid()] == ["node.striker.vx_m_s"]


def test_the_two_bars_show_their_wave_theory_force_and_velocities(dock, example_results):
    res = example_results("two_bars_impact")
    dock.set_results(res)
    dock.apply_preset("contact forces vs time")
    assert [o.column for o in dock.panels[0].overlaid()] == ["contact.front-end.F_n_N"]
    assert max(dock.panels[0].overlaid()[0].y) == pytest.approx(1e6)
    panel = dock.add_panel("time", ["node/front/vx", "node/back/vx"])
    assert [o.column for o in panel.overlaid()] == ["node.front.vx_m_s", "node.back.vx_m_s"]


def test_a_reference_is_drawn_only_against_its_abscissa(dock, example_results):
    """The slider-crank's Exudyn peak is a point at a crank angle: not on a time axis."""
    dock.set_results(example_results("slider_crank_flexible"))
    panel = dock.panels[0]
    assert [o.column for o in panel.overlaid()] == ["midspan.rod"]
    assert panel.overlaid()[0].x[0] == 670.98
    panel.x_combo.setCurrentIndex(panel.x_combo.findData("time"))
    assert panel.overlaid() == []


def test_a_model_changed_from_the_published_one_says_why_its_reference_is_not_shown(dock):
    rod = load_model(examples_dir() / "rod_impact_rigid.json")
    rod["contacts"][0]["e"] = 0.5
    dock.set_results(simulate(rod))
    assert all(p.overlaid() == [] for p in dock.panels)
    assert dock.reference_note.isVisibleTo(dock)
    assert "contacts[B-ground].e is 0.5, the reference needs 0.82" in dock.reference_note.text()


def test_the_user_loads_a_csv_over_a_plot_and_clears_it(dock, bar_mass, qtbot, tmp_path, monkeypatch,
                                                        message_boxes):
    dock.set_results(bar_mass)
    panel = dock.panels[0]
    measured = tmp_path / "measured.csv"
    measured.write_text("t_s,force_N,other\n0.1,0.05,1\n0.2,0.15,\n0.3,0.2,2\n")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(measured), "CSV files (*.csv)"))
    panel.csv.load_action.trigger()          # CSV ▸ Overlay a CSV File…
    loaded = [o for o in panel.overlaid() if o.origin == "csv"]
    assert [o.label for o in loaded] == ["measured: force_N", "measured: other"]
    np.testing.assert_array_equal(loaded[0].x, [0.1, 0.2, 0.3])
    assert np.isnan(loaded[1].y[1])                                    # an empty cell is a gap
    # the loaded curves stay when the plot changes
    panel.set_series(["contact/striker-end/F_n"])
    assert len([o for o in panel.overlaid() if o.origin == "csv"]) == 2
    panel.csv.clear_action.trigger()
    assert [o for o in panel.overlaid() if o.origin == "csv"] == []
    # a file that is not a table is refused with the reason, the plot unchanged
    measured.write_text("t_s,force_N\n0.1,zero\n")
    panel.csv.load_action.trigger()          # CSV ▸ Overlay a CSV File…
    assert message_boxes[-1][:2] == ("warning", "Cannot overlay the file")
    assert "line 2, column force_N: 'zero' is not a number" in message_boxes[-1][2]


def load_csv(panel, monkeypatch, path) -> list:
    """CSV ▸ Overlay a CSV File…, choosing ``path``; the CSV overlays drawn then."""
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), "CSV files (*.csv)"))
    panel.csv.load_action.trigger()
    return [o for o in panel.overlaid() if o.origin == "csv"]


def load_refused(dock, panel, monkeypatch, path, text: str) -> str:
    """Write ``text`` to ``path`` and load it over ``panel``, which draws none of it and shows a note; the note."""
    path.write_text(text)
    assert load_csv(panel, monkeypatch, path) == []
    assert panel.csv.note.isVisibleTo(dock)
    return panel.csv.note.text()


def test_a_csv_in_milliseconds_is_drawn_in_seconds_and_one_of_another_abscissa_is_refused_saying_why(
        dock, bar_mass, tmp_path, monkeypatch):
    """The first column was taken as the plot's x whatever it was: time in ms landed 1000 times too late,
    a position in mm on the time axis, and nothing said so."""
    dock.set_results(bar_mass)
    panel = dock.panels[0]
    measured = tmp_path / "measured.csv"
    measured.write_text("time_ms,force_N\n0.1,0.05\n0.2,0.15\n")
    loaded = load_csv(panel, monkeypatch, measured)
    np.testing.assert_allclose(loaded[0].x, [1e-4, 2e-4], rtol=1e-15)
    assert panel.csv.note.isHidden()
    bracketed = tmp_path / "bracketed.csv"
    bracketed.write_text("t (us),force_N\n100,0.05\n")
    assert load_csv(panel, monkeypatch, bracketed)[-1].x[0] == pytest.approx(1e-4, rel=1e-15)
    panel.csv.clear_action.trigger()
    note = load_refused(dock, panel, monkeypatch, tmp_path / "stroke.csv", "x_mm,force_N\n1,0.05\n2,0.15\n")
    assert "stroke.csv: not drawn, its abscissa 'x_mm' is not the plot's time (s): name the column time_s" in note
    untimed = tmp_path / "untimed.csv"
    untimed.write_text("time,force_N\n0.1,0.05\n")
    assert [o.source for o in load_csv(panel, monkeypatch, untimed)] == ["untimed.csv"]
    assert "untimed.csv: its abscissa 'time' gives no unit: read in s" in panel.csv.note.text()
    panel.csv.clear_action.trigger()
    assert panel.csv.note.isHidden()


def test_the_plots_own_csv_export_overlaid_lines_up_with_its_curves(dock, bar_mass, tmp_path, monkeypatch):
    """The export writes impulses against event_time_s and forces against time_s in one file: every
    column was drawn against the first, the forces at the impulses' instants."""
    dock.set_results(bar_mass)
    panel = dock.panels[0]
    panel.set_series(["contact/striker-end/I_n", "contact/striker-end/F_n"])
    exported = tmp_path / "exported.csv"
    write_series_csv(panel.plotted(), exported)
    assert sorted(set(exported.read_text().splitlines()[0].split(",")) & {"event_time_s", "time_s"}) == \
        ["event_time_s", "time_s"]
    loaded = {o.column: o for o in load_csv(panel, monkeypatch, exported)}
    for curve in panel.plotted():
        overlay = loaded[curve.y_series.column]
        assert overlay.x_column == curve.x_series.column
        finite = np.isfinite(overlay.x)
        np.testing.assert_allclose(overlay.x[finite], curve.x, rtol=1e-12)
        np.testing.assert_allclose(overlay.y[finite], curve.y, rtol=1e-12)
    assert panel.csv.note.isHidden()


def test_an_export_against_the_crank_angle_follows_the_plots_abscissa(dock, example_results, tmp_path, monkeypatch):
    """Exported against the crank angle in degrees: drawn on the angle in rad converted, and not on time."""
    dock.set_results(example_results("slider_crank_flexible"))
    panel = dock.panels[0]
    assert panel.x_combo.currentData() == "driver/motor/angle"
    exported = tmp_path / "angle.csv"
    write_series_csv(panel.plotted(), exported)
    degrees = load_csv(panel, monkeypatch, exported)[0].x
    panel.x_combo.setCurrentIndex(panel.x_combo.findData("driver/motor/value"))
    drawn = [o for o in panel.overlaid() if o.origin == "csv"]
    np.testing.assert_allclose(drawn[0].x, np.radians(degrees), rtol=1e-12)
    panel.x_combo.setCurrentIndex(panel.x_combo.findData("time"))
    assert [o for o in panel.overlaid() if o.origin == "csv"] == []
    assert "angle.csv: not drawn, its abscissa 'driver.motor.angle_deg' is not the plot's time (s)" \
        in panel.csv.note.text()


def test_one_series_in_two_plots_exports_under_two_names_each_drawn_against_its_own_abscissa(
        dock, example_results, tmp_path, monkeypatch):
    """The mid-span deflection against the crank angle and, in a second plot, against time: the export named
    both columns alike and its overlay was refused ('column names must be present and distinct'). The second
    is named after its abscissa, and each plot draws the column of its own abscissa."""
    dock.set_results(example_results("slider_crank_flexible"))
    by_angle = dock.panels[0]
    [curve] = by_angle.plotted()
    by_time = dock.add_panel("time", [curve.y_series.key])
    exported = tmp_path / "both.csv"
    write_series_csv(dock.plotted(), exported)
    header = exported.read_text().splitlines()[0].split(",")
    column = curve.y_series.column
    assert header == ["driver.motor.angle_deg", column, "time_s", f"time_s: {column}"]
    for panel, name in ((by_angle, column), (by_time, f"time_s: {column}")):
        [drawn] = load_csv(panel, monkeypatch, exported)
        [plotted] = panel.plotted()
        assert drawn.column == name
        np.testing.assert_allclose(drawn.x, plotted.x, rtol=1e-12)
        np.testing.assert_allclose(drawn.y, plotted.y, rtol=1e-12)


def test_the_abscissa_names_read_as_their_examples_say():
    assert doctest.testmod(overlay_abscissa).failed == 0


def test_a_first_column_named_as_tables_head_it_is_read_in_its_unit_or_refused_saying_which_unit(
        dock, bar_mass, tmp_path, monkeypatch):
    """Abscissae named otherwise than time_s: with the unit in brackets (t [s], Time (ms)) they were read;
    after a '/' as ISO 80000-1 heads a column (Time / ms) they were refused as 'not the plot's time', and
    so was a unit that does not read (Time (sec), which might as well be msec), naming the wrong reason.
    The first are read in their unit; the others are refused, the note naming the unit."""
    dock.set_results(bar_mass)
    panel = dock.panels[0]
    for header, factor in (("t [s]", 1.0), ("Time (ms)", 1e-3), ("Time / ms", 1e-3), ("t/us", 1e-6)):
        table = tmp_path / "measured.csv"
        table.write_text(f"{header},F / N\n100,0.05\n200,0.15\n")
        (drawn,) = load_csv(panel, monkeypatch, table)
        assert drawn.label == "measured: F / N" and drawn.x_column == header
        np.testing.assert_allclose(drawn.x, [100 * factor, 200 * factor], rtol=1e-15)
        assert panel.csv.note.isHidden()
        panel.csv.clear_action.trigger()
    note = load_refused(dock, panel, monkeypatch, tmp_path / "unread.csv", "Time (sec),F / N\n100,0.05\n")
    assert ("unread.csv: not drawn, its abscissa 'Time (sec)' gives its unit as 'sec', which does not read: "
            "name the column time_s" in note)
