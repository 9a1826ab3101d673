"""Render screenshots of the main window for the README and the docs, at 1280 × 800.

    python docs/screenshots.py                                           # offscreen, every shot below
    xvfb-run -a -s "-screen 0 1280x800x24" python docs/screenshots.py    # the same under a real X server
    python docs/screenshots.py slider_crank_block                        # only the shots of one example

The window at start (the default example, as ``flexmech`` opens it) is the README's first
shot; the one of ``docs/getting-started.md`` (the run at its first impact, also in
``docs/gui-simulation.md``) is taken by the test that follows the page's steps, so that it
shows what the steps give::

    FLEXMECH_SHOTS=docs/screenshots QT_QPA_PLATFORM=offscreen python -m pytest tests/app/test_getting_started.py

The editing shots open a bundled example and select one entity (so the canvas shows
a highlight and the property view has content).  The run shots open an example, run
it (F5's path, in the worker thread) and stop playback at a telling moment: the
impact examples just after their largest impulse (deformed shape, contact state and
force arrow, plots, the impulse's row and Routh diagram in the events tab), the chapter-2 examples in motion at their largest mid-span
deflection, with the strain colours on and the deflection exaggerated where it is
too small to see.  The overlay shots run the wave-theory examples and show their plots
dock alone, the reference curves dashed over the computed ones; the sweep shots show the
rod's sweep results and its impact-type map (``python docs/screenshots.py sweep map``).
Each is ``window.grab()`` (or a dock's) saved as PNG in
``docs/screenshots/``.  The Lagrange shots (``python docs/screenshots.py lagrange``) are the
plots dock of the rod striking the floor (§5.5) in its four cases with the Lagrange-multiplier
contact (normal and tangential force histories), and the Compare runs dock of the rotating beam
(§5.2) run with both contact models (strain at the gauge, the root's angular velocity).  Settings go to a throw-away folder, so the user's saved
window layout does not leak into the pictures.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

if "DISPLAY" not in os.environ and "WAYLAND_DISPLAY" not in os.environ:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402 (after choosing the platform)
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.document.entities import EntityRef  # noqa: E402
from app.shell.gui import DEFAULT_EXAMPLE  # noqa: E402
from app.shell.main_window import MainWindow  # noqa: E402

OUT_DIR = Path(__file__).resolve().parent / "screenshots"
#: every shot: the size the default layout is made for
SIZE = (1280, 800)
RUN_SIZE = SIZE
#: file name -> (example, entity selected in the shot, property row scrolled into view or None)
SHOTS = {
    "free_block.png": ("slider_crank_block", EntityRef("initial_velocities", "block"), None),
    "clearance_joint.png": ("slider_crank_clearance_lankarani_nikravesh", EntityRef("joints", "B-clearance"), None),
    "modal_link.png": ("slider_crank_modal", EntityRef("links", "rod"), "mode frequencies"),
    "thermal_strains.png": ("bimetal_strip_heated", EntityRef("links", "strip"), "free_strains.creep_function.value"),
}

#: run shots: file name -> (example, deflection exaggeration, strain colouring)
RUN_SHOTS = {
    "run_rod_impact_rigid.png": ("rod_impact_rigid", 1.0, ""),
    "run_pendulum_impact.png": ("pendulum_impact", 1.0, ""),
    "run_bar_mass_impact.png": ("bar_mass_impact", 1.0, "axial"),
    "run_two_bars_impact.png": ("two_bars_impact", 1.0, "axial"),
    "run_rod_floor_flexible.png": ("rod_floor_flexible", 10.0, "combined"),
    "run_rotating_beam_stop.png": ("rotating_beam_stop", 10.0, "bending"),
    "run_slider_crank_block.png": ("slider_crank_block", 10.0, "combined"),
    "run_robot_arm.png": ("robot_arm", 10.0, "bending"),
    "run_flying_beam.png": ("flying_beam", 1.0, "combined"),
    "run_two_link_flight.png": ("two_link_flight", 1.0, "combined"),
    "run_slider_crank_flexible.png": ("slider_crank_flexible", 10.0, "combined"),
    "run_four_bar_flexible.png": ("four_bar_flexible", 10.0, "combined"),
    "run_slider_crank_clearance.png": ("slider_crank_clearance_lankarani_nikravesh", 1.0, ""),
    "run_pendulum_flexible_modal5_energetic.png": ("pendulum_flexible_modal5_energetic", 10.0, "bending"),
    "run_slider_crank_modal.png": ("slider_crank_modal", 10.0, "combined"),
    "run_moving_mass_beam.png": ("moving_mass_beam", 10.0, ""),
}
#: overlay shots: file name -> (example, the plots: (abscissa, series) per panel)
OVERLAY_SHOTS = {
    "overlay_bar_mass_impact.png": ("bar_mass_impact", [("time", ("contact/striker-end/F_n",)),
                                                        ("time", ("node/striker/vx", "node/end/vx"))]),
    "overlay_two_bars_impact.png": ("two_bars_impact", [("time", ("contact/front-end/F_n",)),
                                                        ("time", ("node/front/vx", "node/back/vx"))]),
}
#: size of the plots dock in an overlay shot
OVERLAY_SIZE = (1100, 760)
#: the sweep shot: the rod over mu_s x e (docs/sweeps.md), its table and plot, and its map
SWEEP_SHOTS = {"sweep_rod_impact_rigid.png": "sweep", "map_rod_impact_rigid.png": "map"}
#: force-history shots of the rod striking the floor (thesis §5.5) with the Lagrange-multiplier
#: contact: file name -> (initial horizontal velocity of the rod, m/s; friction coefficient)
LAGRANGE_ROD_SHOTS = {
    "lagrange_rod_floor_mu0.png": (0.0, 0.0),
    "lagrange_rod_floor_mu0.8.png": (0.0, 0.8),
    "lagrange_rod_floor_vt-1_mu0.7.png": (-1.0, 0.7),
    "lagrange_rod_floor_vt-1_mu0.95.png": (-1.0, 0.95),
}
#: the stretch of the rod's run the force shots show, s
ROD_SHOT_SPAN = (0.0, 0.004)
#: size of the floated plots dock in those shots, pixels
ROD_SHOT_SIZE = (1100, 520)
#: the longest a shot's run may take, s
RUN_TIMEOUT_S = 300


@contextmanager
def example_window(example: str, size: tuple[int, int], settings: QSettings):
    """A shown main window with ``example`` open (and a throw-away recovery folder, so no
    leftover autosave asks to be restored); closed afterwards."""
    with tempfile.TemporaryDirectory() as recovery:
        window = MainWindow(settings, recovery_dir=Path(recovery))
        window.resize(*size)
        window.show()
        window.open_example(example)
        try:
            yield window
        finally:
            window.document.mark_saved()  # edits made for a shot: no "save changes?" box
            window.close()


def save_shot(window: MainWindow, out: Path) -> None:
    for _ in range(5):
        QApplication.processEvents()
    window.grab().save(str(out))


def render(example: str, selected: EntityRef, out: Path, settings: QSettings, row: str | None = None) -> None:
    """Save a screenshot of the main window showing ``example`` with ``selected`` selected
    (and its property ``row`` scrolled into view)."""
    with example_window(example, SIZE, settings) as window:
        window.selection.replace((selected,))
        if row is not None:
            view = window.properties
            QApplication.processEvents()  # the table laid out first
            view.table.scrollToBottom()
            view.table.setCurrentCell(view.row_of(row), 1)
        save_shot(window, out)


def shot_time(results) -> float:
    """The moment a run shot shows: just after the largest impulse, else at the largest
    contact force (compliant contact), else at the largest mid-span deflection, else in
    the middle of the run."""
    frames = results.frames
    impulses = [e for e in results.events if e["kind"] == "impulse"]
    if impulses:
        return max(impulses, key=lambda e: abs(e["I_n_N_s"]))["time_s"]
    forces = [float(np.abs(f.contact.get("F_n_N", np.zeros(1))).max(initial=0.0)) for f in frames]
    if max(forces, default=0.0) > 0.0:
        return frames[int(np.argmax(forces))].time
    if results.layout.flexible_links:
        deflection = [float(np.abs(f.midspan).max()) for f in frames]
        return frames[int(np.argmax(deflection))].time
    return frames[len(frames) // 2].time


def run_in_window(window: MainWindow) -> None:
    """Run the open model (F5's path) and wait for the run to end."""
    simulation = window.simulation
    simulation.run()
    started = time.monotonic()
    while simulation.runs.running and time.monotonic() - started < RUN_TIMEOUT_S:
        QApplication.processEvents()
        time.sleep(0.01)
    simulation.runs.wait()
    QApplication.processEvents()


def render_run(example: str, exaggeration: float, strain: str, out: Path, settings: QSettings) -> None:
    """Run ``example`` in the window and save it at :func:`shot_time`."""
    with example_window(example, RUN_SIZE, settings) as window:
        simulation = window.simulation
        run_in_window(window)
        bar = simulation.bar
        bar.exaggeration.setCurrentIndex(bar.exaggeration.findData(exaggeration))
        bar.strain.setCurrentIndex(bar.strain.findData(strain))
        results = simulation.runs.results
        simulation.playback.set_time(shot_time(results))
        impulses = [i for i, e in enumerate(results.events) if e["kind"] == "impulse"]
        if impulses:  # its row in the events table, with its Routh diagram
            largest = max(impulses, key=lambda i: abs(results.events[i]["I_n_N_s"]))
            window.results_ui.events_dock.raise_()
            window.results_ui.events.select_event(largest)
        window.sketch.zoom_to_fit()
        save_shot(window, out)


def render_start(out: Path, settings: QSettings) -> None:
    """The window as ``flexmech`` opens it: the default example, nothing selected."""
    with example_window(DEFAULT_EXAMPLE, SIZE, settings) as window:
        save_shot(window, out)


def render_rod_forces(vx: float, mu: float, out: Path, settings: QSettings) -> None:
    """The rod of §5.5 with its tip-floor pair switched to the Lagrange-multiplier model: the plots
    dock's normal and tangential force histories over :data:`ROD_SHOT_SPAN`."""
    with example_window("rod_floor_flexible", RUN_SIZE, settings) as window:
        model = window.document.model
        model["contacts"][0].update(mu_s=mu, mu_d=mu, model={"kind": "lagrange"})
        model["initial_velocities"][0]["vx"] = vx
        model["name"] = f"Rod striking the floor, v_t = {vx:g} m/s, mu = {mu:g}, Lagrange multipliers"
        window.document.replace(model, None)
        run_in_window(window)
        plots = window.results_ui.plots
        plots.setFloating(True)
        plots.resize(*ROD_SHOT_SIZE)
        for panel in plots.panels:
            panel.plot.setXRange(*ROD_SHOT_SPAN, padding=0.0)
        window.simulation.playback.set_time(ROD_SHOT_SPAN[1])
        for _ in range(5):
            QApplication.processEvents()
        plots.grab().save(str(out))


#: the rotating beam (thesis §5.2) run with both contact models, overlaid in Compare runs:
#: file name -> series
ROTATING_BEAM_SHOTS = {
    "compare_rotating_beam_strain.png": "strain/beam/9/0/bending",
    "compare_rotating_beam_omega.png": "rotation/hub/root/omega",
}


def render_rotating_beam_compare(settings: QSettings) -> None:
    """§5.2 with the momentum-balance contact, then with its pair switched to Lagrange
    multipliers in the property panel: the strain at 0.46 m and the root's angular velocity of
    the two runs in the floated Compare runs dock."""
    with example_window("rotating_beam_stop", RUN_SIZE, settings) as window:
        run_in_window(window)
        window.selection.replace((EntityRef("contacts", "beam-stop"),))
        window.properties.commit_field("model.kind", "lagrange")
        run_in_window(window)
        dock = window.results_ui.compare_dock
        dock.setFloating(True)
        dock.resize(*ROD_SHOT_SIZE)
        for name, key in ROTATING_BEAM_SHOTS.items():
            window.results_ui.compare.set_series(key)
            for _ in range(5):
                QApplication.processEvents()
            dock.grab().save(str(OUT_DIR / name))
            print(OUT_DIR / name)


def render_overlay(example: str, panels: list, out: Path, settings: QSettings) -> None:
    """Run ``example`` and save its plots dock, floated, with ``panels``."""
    with example_window(example, RUN_SIZE, settings) as window:
        run_in_window(window)
        plots = window.results_ui.plots
        for panel in list(plots.panels):
            plots.remove_panel(panel)
        for x, series in panels:
            plots.add_panel(x, series)
        plots.setFloating(True)
        plots.resize(*OVERLAY_SIZE)
        for _ in range(5):
            QApplication.processEvents()
        plots.grab().save(str(out))


def render_sweep(shot: str, out: Path, settings: QSettings) -> None:
    """The rod's mu_s x e sweep of docs/sweeps.md in the window (its results dock), or the
    impact-type map of the rod (its map dock), floated and grabbed."""
    from app.sweeps.dialog import SweepRequest
    from solver.sweeps import SweepSpec, parse_set, parse_vary

    with example_window("rod_impact_rigid", RUN_SIZE, settings) as window, tempfile.TemporaryDirectory() as tmp:
        ui = window.sweeps_ui
        if shot == "sweep":
            spec = SweepSpec((parse_vary("contacts[B-ground].mu_s=0.4:0.85:10"),
                              parse_vary("contacts[B-ground].e=0:1:10")),
                             fixed=(parse_set("contacts[B-ground].mu_d=0.4"), parse_set("initial_velocities[0].vx=1")))
            ui.start(window.document.model, SweepRequest(spec, Path(tmp) / "sweep", None, 2))
            started = time.monotonic()
            while ui.controller.running and time.monotonic() - started < RUN_TIMEOUT_S:
                QApplication.processEvents()
                time.sleep(0.01)
            ui.table.y_combo.setCurrentText("contact.B-ground.first_I_t_N_s")
            dock = ui.table_dock
        else:
            ui.show_map()
            ui.map.x_axis.high.setValue(1.2)
            ui.map.draw()
            dock = ui.map_dock
        dock.setFloating(True)
        dock.resize(*OVERLAY_SIZE)
        for _ in range(5):
            QApplication.processEvents()
        dock.grab().save(str(out))


def main(argv: list[str]) -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    OUT_DIR.mkdir(exist_ok=True)
    only = set(argv)
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        if not only or DEFAULT_EXAMPLE in only:
            render_start(OUT_DIR / "start.png", settings)
            print(OUT_DIR / "start.png")
        for name, (example, selected, row) in SHOTS.items():
            if not only or example in only:
                render(example, selected, OUT_DIR / name, settings, row)
                print(OUT_DIR / name)
        for name, (example, exaggeration, strain) in RUN_SHOTS.items():
            if not only or example in only:
                render_run(example, exaggeration, strain, OUT_DIR / name, settings)
                print(OUT_DIR / name)
        for name, (vx, mu) in LAGRANGE_ROD_SHOTS.items():
            if not only or "lagrange" in only:
                render_rod_forces(vx, mu, OUT_DIR / name, settings)
                print(OUT_DIR / name)
        if not only or "lagrange" in only:
            render_rotating_beam_compare(settings)
        for name, (example, panels) in OVERLAY_SHOTS.items():
            if not only or example in only:
                render_overlay(example, panels, OUT_DIR / name, settings)
                print(OUT_DIR / name)
        for name, shot in SWEEP_SHOTS.items():
            if not only or shot in only:
                render_sweep(shot, OUT_DIR / name, settings)
                print(OUT_DIR / name)
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
