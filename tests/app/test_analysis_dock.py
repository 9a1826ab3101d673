"""The Analysis menu opens the analysis dock at each tab on the results folder the window
shows: orbit, Poincaré section and spectrum draw at once, the Lyapunov tab runs the
twin off the GUI thread, the bifurcation tab reads a sweep folder, and each exports the
command line's PNG and CSV; a run without a clearance joint is said in the tab."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog

from solver.sweeps.table import RUNS, SWEEP_JSON, TABLE, write_rows, write_sweep
from solver.sweeps import SweepSpec, parse_vary
from tests.analysis_runs import CLEARANCE, bracketed, dry, example, ideal  # noqa: F401 (fixtures)


def _menu_action(window, text: str):
    menu = window.analysis_ui.menu
    assert menu.title() == "&Analysis"
    return next(a for a in menu.actions() if a.text().replace("&", "") == text)


@pytest.mark.parametrize(("entry", "tab", "said"), [
    ("Journal Orbit…", "orbit", "B-clearance: clearance 0.5 mm"),
    ("Poincaré Section…", "poincare", "2 sections every 0.012 s"),
    ("Spectrum…", "spectrum", "dashed: harmonics of motor"),
])
def test_each_entry_of_the_menu_draws_its_tab_and_exports_it(window, dry, tmp_path, monkeypatch, entry, tab, said):
    assert window.results_ui.open_results(dry)
    _menu_action(window, entry).trigger()
    view = window.analysis_ui.view
    assert window.analysis_ui.dock.isVisible() and view.currentWidget() is getattr(view, tab)
    shown = getattr(view, tab)
    assert shown.result is not None and said in shown.message.text()
    for button, suffix in ((shown.png_button, "png"), (shown.csv_button, "csv")):
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, s=suffix, **k: (str(tmp_path / f"a.{s}"), ""))
        button.click()
        assert (tmp_path / f"a.{suffix}").stat().st_size > 50
    assert "Exported" in shown.message.text()


def test_a_run_without_clearance_joint_is_said_in_the_orbit_tab(window, ideal):
    assert window.results_ui.open_results(ideal)
    _menu_action(window, "Journal Orbit…").trigger()
    orbit = window.analysis_ui.view.orbit
    assert orbit.result is None
    assert "no clearance joint" in orbit.message.text()


@pytest.mark.parametrize(("run", "path"), [("dry", "joints[B-clearance].offset.x"),
                                         ("bracketed", 'joints["B[clearance]"].offset.x')])
def test_the_lyapunov_tab_runs_the_twin_and_fits(window, request, qtbot, run, path):
    """The clearance joint perturbed by default; one with id 'B[clearance]' was offered as
    joints[B[clearance]].offset.x, a path the tab could not read (Run the twin raised): its id is quoted."""
    assert window.results_ui.open_results(request.getfixturevalue(run))
    _menu_action(window, "Lyapunov Exponent…").trigger()
    tab = window.analysis_ui.view.lyapunov
    assert tab.path.text() == path
    with qtbot.waitSignal(tab.finished, timeout=120_000):
        tab.draw_button.click()
    assert tab.result is not None and tab.result.slope > 0.0
    assert "largest Lyapunov exponent" in tab.message.text()


def test_the_bifurcation_tab_reads_a_sweep_folder(window, dry, tmp_path):
    """A sweep folder of one kept run (the results folder of the dry run) at its crank speed."""
    import shutil

    folder = tmp_path / "sweep"
    speed = example(CLEARANCE, 1)["drivers"][0]["function"]["value"]
    spec = SweepSpec((parse_vary(f"drivers[motor].function.value={speed}"),), keep_results=True)
    write_sweep(folder, example(CLEARANCE, 1), spec)
    write_rows(folder, [{"run": "r1", "drivers[motor].function.value": speed, "status": "completed"}], ["run"])
    shutil.copytree(dry, folder / RUNS / "r1")
    assert (folder / SWEEP_JSON).is_file() and (folder / TABLE).is_file()
    _menu_action(window, "Bifurcation Diagram…").trigger()
    tab = window.analysis_ui.view.bifurcation
    tab.set_folder(str(folder))
    assert tab.field.currentText() == "drivers[motor].function.value"
    tab.series.setText("node/B/vx")
    tab.draw_button.click()
    assert tab.result is not None and len(tab.result.values) == 2
    assert "2 samples from 1 runs" in tab.message.text()


def test_the_tabs_follow_the_run_the_window_shows(window, dry, ideal, tmp_path, monkeypatch):
    """Another run opened while the dock shows a spectrum: the dock analyses the new run, never the
    spectrum of the run gone (it stayed drawn, its Draw and CSV on the old run's frames)."""
    assert window.results_ui.open_results(dry)
    _menu_action(window, "Spectrum…").trigger()
    spectrum = window.analysis_ui.view.spectrum
    assert spectrum.result is not None
    before = tuple(spectrum.result.peak)
    assert window.results_ui.open_results(ideal)
    assert spectrum.results is window.results_ui.results
    assert spectrum.result is not None and tuple(spectrum.result.peak) != before  # drawn again on the new run
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "s.csv"), ""))
    spectrum.csv_button.click()
    assert (tmp_path / "s.csv").read_text() == _spectrum_csv(ideal, spectrum, tmp_path)
    window.new_document()
    assert spectrum.results is None and spectrum.result is None
    assert not spectrum.draw_button.isEnabled() and not spectrum.csv_button.isEnabled()
    assert not spectrum.plot.getPlotItem().listDataItems()


def _spectrum_csv(folder, tab, tmp_path) -> str:
    """The CSV of the spectrum the tab's settings give for the results in ``folder``."""
    from solver.analysis.spectrum import series_spectrum, write_spectrum_csv
    from solver.results.files import load_results

    path = tmp_path / "expected.csv"
    write_spectrum_csv(series_spectrum(load_results(folder), tab.series.currentText(), tab.window.currentText()), path)
    return path.read_text()


def test_a_twin_under_way_is_not_started_again_nor_fitted_to_another_run(window, dry, ideal, qtbot):
    """Draw stays off while the twin runs, also once the menu shows the tab again or another run is
    opened (a second click replaced the running thread, whose QThread was then destroyed running);
    a twin of the run before is not fitted to the new one."""
    assert window.results_ui.open_results(dry)
    _menu_action(window, "Lyapunov Exponent…").trigger()
    tab = window.analysis_ui.view.lyapunov
    with qtbot.waitSignal(tab.finished, timeout=120_000):
        tab.draw_button.click()
        _menu_action(window, "Lyapunov Exponent…").trigger()
        assert not tab.draw_button.isEnabled()
        assert window.results_ui.open_results(ideal)
        assert not tab.draw_button.isEnabled()
    assert tab.result is None and tab.twin is None
    assert "the run changed while its twin ran" in tab.message.text()
    assert tab.draw_button.isEnabled()


def test_a_draw_refused_leaves_no_plot_of_the_settings_before(window, dry, tmp_path, monkeypatch):
    """The spectrum drawn, then a start past the run's end: the tab says why and shows nothing (it kept
    the spectrum from 0 s drawn under the red line, and CSV… wrote it as if it were the new one)."""
    assert window.results_ui.open_results(dry)
    _menu_action(window, "Spectrum…").trigger()
    tab = window.analysis_ui.view.spectrum
    assert tab.result is not None and tab.csv_button.isEnabled()
    tab.start.setValue(100.0)
    tab.draw_button.click()
    assert "cannot be drawn" in tab.message.text()
    assert tab.result is None and not tab.csv_button.isEnabled() and not tab.png_button.isEnabled()
    assert not tab.plot.getPlotItem().listDataItems()


def test_closing_the_window_stops_a_twin_under_way_and_a_twin_that_did_not_complete_is_not_fitted(window, dry,
                                                                                                  qtbot):
    """The twin of a long run under way, the window closed: the close waited for the whole twin (minutes,
    the window frozen); the twin is stopped. A twin that did not complete (failed or stopped) was fitted as
    if it had: the tab says so instead."""
    import time

    from solver.results.files import load_results

    results = load_results(dry)
    results.model["solver"]["end_time"] *= 300  # 300 turns: a twin of a minute or more
    tab = window.analysis_ui.view.lyapunov
    tab.set_results(results)
    tab.path.setText("joints[B-clearance].offset.x")
    with qtbot.waitSignal(tab.finished, timeout=120_000):
        tab.draw_button.click()
        qtbot.wait(500)
        start = time.monotonic()
        tab.stop_twin()  # what closing the window does
        assert time.monotonic() - start < 10.0
    assert tab.result is None and "the twin run did not complete" in tab.message.text()


def test_a_twin_that_does_not_stop_gives_an_error_not_a_hang_and_a_close_taken_back_leaves_it(
        window, dry, qtbot, monkeypatch):
    """Waiting for the twin's thread at close had no limit (a twin stuck in a step froze the window for good);
    it is bounded, as a run's, a sweep's and a search's are. A close answered Cancel leaves the twin going."""
    import threading

    from PySide6.QtWidgets import QMessageBox

    from app.document.entities import EntityRef
    from app.results import lyapunov_tab

    release = threading.Event()

    def stuck_twin(model, cancel=None, **_options):  # ignores its cancel
        release.wait(60)  # bounded too: the test cannot hang if it breaks
        raise RuntimeError("released")

    monkeypatch.setattr("solver.api.simulate", stuck_twin)
    monkeypatch.setattr(QMessageBox, "warning", lambda *_a: QMessageBox.StandardButton.Cancel)
    assert window.results_ui.open_results(dry)
    window.apply_edit(EntityRef("links", "rod"), ["mass"], 0.5)  # a change unsaved
    _menu_action(window, "Lyapunov Exponent…").trigger()
    tab = window.analysis_ui.view.lyapunov
    tab.draw_button.click()
    assert tab.message.text() == "Running the twin…"
    window.quit_action.trigger()  # answered Cancel: the twin goes on
    assert window.isVisible() and tab.message.text() == "Running the twin…" and not tab.draw_button.isEnabled()
    with pytest.raises(lyapunov_tab.TwinThreadStuck, match="did not end within 0.2 s of being stopped"):
        tab.stop_twin(limit_s=0.2)
    with qtbot.waitSignal(tab.finished, timeout=60_000):
        release.set()
    assert "the twin run failed: released" in tab.message.text() and tab.draw_button.isEnabled()
