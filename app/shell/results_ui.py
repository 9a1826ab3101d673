"""The main window's results half: plots, impact events, run comparison and export.

:class:`ResultsUi` adds to a :class:`~app.shell.main_window.MainWindow` (through :class:`~app.shell.window_parts.WindowParts`) (after its
:class:`~app.shell.simulation_ui.SimulationUi`) three docks — the
:class:`~app.results.plots_dock.PlotsDock`, the :class:`~app.results.events_view.EventsView` with its
Routh diagram, and the :class:`~app.results.compare.CompareView` of the runs of this session
— and a File > Export menu.  The plots grow with the frames of a run going on and
share playback's time cursor: dragging a plot's cursor or selecting an impulse in
the events table moves playback there.  Opening another model (File > New, Open, an
example) clears the plots and the events; finished runs stay in Compare runs,
labelled by their model.

Export: the results bundle (``model.json``, ``summary.json``, the Parquet and CSV files,
which File > Open Results… replays without solving: a run's own scratch folder, linked or
copied, :func:`~solver.results.files.copy_results`), any table of the results as CSV, the
plotted series as CSV, the plots
as PNG or SVG, and the animation as GIF or MP4 at playback's real-time factor; each
dialog proposes a name after the model (``slider-crank-series.csv``).
"""
from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMenu, QMessageBox

from solver.results.frames import Results
from solver.results.files import ResultsFormatError, copy_results, load_results, write_results
from solver.results.table_names import HEADER_ONLY
from solver.results.tables import TABLES

from ..results.compare import CompareView, run_label
from ..results.events_view import EventsView
from ..results.export import VideoCodecMissing, export_animation, export_plot, write_series_csv, write_table_csv
from ..results.plots_dock import PlotsDock
from ..running.controller import FAILED
from .simulation_ui import SimulationUi, motion_bounds
from .window_parts import WindowParts, add_dock, make_action

#: runs kept for comparison (the oldest is dropped)
MAX_COMPARED_RUNS = 6
#: frames per second of an exported animation
ANIMATION_FPS = 25.0


def file_stem(title: str) -> str:
    """A model's title as the start of a file name.

    >>> file_stem("Slider-crank struck by a free block"), file_stem("")
    ('slider-crank-struck-by-a-free-block', 'flexmech')
    """
    words = re.findall(r"[A-Za-z0-9]+", title.lower())
    return "-".join(words) or "flexmech"


class ResultsUi(QObject):
    """Plots, events, comparison and export for ``window``, following ``simulation``'s runs and playback."""

    #: the results shown were replaced (by a run started or ended, results opened, another model): the new ones, or None
    results_changed = Signal(object)

    def __init__(self, window: WindowParts, simulation: SimulationUi):
        super().__init__(window)
        self.window = window
        self.simulation = simulation
        self.playback = simulation.playback
        #: the results shown: the last run (partial while it goes on) or opened results
        self.results: Results | None = None
        #: ``(label, results)`` of this session's finished runs, for comparison
        self.runs: list[tuple[str, Results]] = []
        self._fed = 0  # frames of the running run handed to the plots
        self._run_label = ""  # what the running run is labelled by in Compare runs: its model

        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        self.plots = PlotsDock(window)
        window.addDockWidget(bottom, self.plots)
        self.events = EventsView()
        self.events_dock = add_dock(window, "Impact events", "events_dock", self.events, bottom)
        self.compare = CompareView()
        self.compare_dock = add_dock(window, "Compare runs", "compare_dock", self.compare, bottom)
        self.view_actions = [dock.toggleViewAction() for dock in (self.plots, self.events_dock, self.compare_dock)]

        self.open_results_action = make_action(window, "Open &Results…", self.open_results_dialog,
                                                  tip="Replay a results folder without solving again")
        self.export_results_action = make_action(window, "&Results Bundle…", self.export_results_dialog,
                                                    tip="Model, summary and CSV files of the run, in a folder")
        self.export_table_action = make_action(window, "Results &Table as CSV…", self.export_table_dialog,
                                                  tip="Any table of the run (nodes, elements, energy...), units in "
                                                      "the header")
        self.export_series_action = make_action(window, "Plotted &Series as CSV…", self.export_series_dialog,
                                                   tip="The curves of the plots, with units in the headers")
        self.export_plots_action = make_action(window, "&Plots as PNG or SVG…", self.export_plots_dialog,
                                                  tip="One image per plot")
        self.export_animation_action = make_action(window, "&Animation as GIF or MP4…", self.export_animation_dialog,
                                                      tip="The playback at its speed, 25 frames per second")
        self.export_actions = [self.export_results_action, self.export_table_action, self.export_series_action, self.export_plots_action,
                               self.export_animation_action]
        self._add_menus()
        self._enable_exports()

        simulation.runs.run_started.connect(self._on_run_started)
        simulation.runs.frames_changed.connect(self._on_frames_changed)
        simulation.runs.run_ended.connect(self._on_run_ended)
        simulation.runs.run_discarded.connect(self._compare)
        window.document.replaced.connect(self._on_document_replaced)
        self.playback.time_changed.connect(self.plots.set_time)
        self.plots.time_scrubbed.connect(self.playback.set_time)
        self.events.time_selected.connect(self.playback.set_time)

    def _add_menus(self) -> None:
        window = self.window
        file_menu = window.menuBar().actions()[0].menu()
        file_menu.insertAction(window.recent_menu.menuAction(), self.open_results_action)
        self.export_menu = QMenu("&Export", file_menu)
        file_menu.insertMenu(window.quit_action, self.export_menu)
        file_menu.insertSeparator(window.quit_action)
        for action in self.export_actions:
            self.export_menu.addAction(action)
        view_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
        for action in self.view_actions:
            view_menu.addAction(action)

    # ------------------------------------------------------------------ runs
    def _on_run_started(self, layout) -> None:
        self._run_label = self.window.document.title
        self.results = Results(self.simulation.run_model, layout, self.simulation.runs.frames)  # it grows
        self._fed = 0
        self.plots.set_results(self.results)
        self.events.set_results(self.results)  # none yet: the event log comes at the end, not the run before's
        self.plots.come_forward()
        self._enable_exports()
        self.results_changed.emit(self.results)

    def _on_frames_changed(self, count: int) -> None:
        frames = self.simulation.runs.frames
        if self.simulation.runs.running and count > self._fed:
            self.plots.append_frames(frames[self._fed:count])
            self._fed = count

    def _on_run_ended(self, results: Results | None) -> None:
        if results is None:
            return
        self.show_results(results)
        self._compare(results)

    def _compare(self, results: Results | None) -> None:
        """A run that ended joins Compare runs (also one cancelled as another model was opened),
        unless it failed: its frames are shown, but it is no run to compare."""
        if results is None or self.simulation.runs.state == FAILED:
            return
        when = datetime.now().strftime("%H:%M:%S")
        self.runs.append((run_label(len(self.runs) + 1, self._run_label, results, when), results))
        del self.runs[:-MAX_COMPARED_RUNS]
        self.compare.set_runs(self.runs)

    def _on_document_replaced(self) -> None:
        """Another model: its predecessor's results leave the plots and the events table
        (this session's finished runs stay in Compare runs)."""
        self.results = None
        self.plots.clear()
        self.events.set_results(None)
        self._enable_exports()
        self.results_changed.emit(None)

    def show_results(self, results: Results) -> None:
        """Show a run's results in the plots and the events table."""
        self.results = results
        self.plots.set_results(results)
        self.events.set_results(results)
        self._enable_exports()
        self.results_changed.emit(results)

    def _enable_exports(self) -> None:
        has_frames = self.results is not None and bool(self.results.frames)
        for action in self.export_actions:
            action.setEnabled(has_frames)

    # ------------------------------------------------------------------ files
    def open_results(self, folder: str | Path) -> bool:
        """Replay a results folder without solving: its model becomes the document (after
        the unsaved-changes prompt), its frames go to playback and the plots."""
        try:
            results = load_results(folder)
            bounds = motion_bounds(results.frames)  # frames read on demand: a read error is said before the model goes
        except (OSError, ResultsFormatError) as exc:
            QMessageBox.critical(self.window, "Cannot open results", f"{folder}:\n\n{exc}")
            return False
        if not self.window.maybe_save():
            return False
        self.window.document.replace(results.model, None)
        self.simulation.show_run(results, bounds)
        self.show_results(results)
        self.window.statusBar().showMessage(f"Opened results {folder}: {len(results.frames)} frames", 8000)
        return True

    def open_results_dialog(self) -> bool:
        folder = QFileDialog.getExistingDirectory(self.window, "Open results folder")
        return bool(folder) and self.open_results(folder)

    def export_results(self, folder: str | Path) -> None:
        """The results bundle in ``folder``: a run's own folder linked or copied there, other
        results (opened from a folder) written."""
        if self.results.folder is not None:
            copy_results(self.results.folder, folder)
        else:
            write_results(self.results, folder)

    def export_table(self, table: str, path: str | Path) -> bool:
        """One table of the results (:data:`~solver.results.tables.TABLES`) as a CSV file; whether it has rows."""
        return write_table_csv(self.results, table, path)

    def export_series(self, path: str | Path) -> None:
        write_series_csv(self.plots.plotted(), path)

    def export_plots(self, path: str | Path) -> list[Path]:
        """Each plot as an image: ``path`` itself for one plot, ``stem_1.png``, ... for several."""
        path = Path(path)
        panels = self.plots.panels
        if not panels:  # it said 'Exported' of no file
            raise ValueError("there is no plot: add one with Add plot")
        targets = [path] if len(panels) == 1 else [path.with_name(f"{path.stem}_{i}{path.suffix}")
                                                   for i in range(1, len(panels) + 1)]
        for panel, target in zip(panels, targets):
            export_plot(panel.plot, target)
        return targets

    def export_animation(self, path: str | Path, progress=None) -> int:
        """The playback from the first to the last frame at its real-time factor."""
        times = self.playback.times
        start_index = self.playback.index

        def render(t: float) -> QImage:
            self.playback.set_time(t)
            return self.window.sketch.grab().toImage()

        try:
            return export_animation(render, path, float(times[0]), float(times[-1]), self.playback.speed,
                                    ANIMATION_FPS, progress)
        finally:
            self.playback.set_index(start_index)

    def suggested_path(self, what: str) -> Path:
        """Where an export is proposed: ``<model>-<what>`` beside the model's file (else in
        the folder of the last export, else the home folder)."""
        document = self.window.document
        folder = document.path.parent if document.path else Path(
            str(self.window.settings.value("export/folder", str(Path.home()))))
        stem = document.path.stem if document.path else file_stem(document.title)
        return folder / f"{stem}-{what}"

    def _save_dialog(self, title: str, filters: str, what: str) -> str:
        path, _filter = QFileDialog.getSaveFileName(self.window, title, str(self.suggested_path(what)), filters)
        if path:
            self.window.settings.setValue("export/folder", str(Path(path).parent))
        return path

    def _export(self, title: str, filters: str, export, what: str, note=lambda _written: "") -> None:
        """Ask where, ``export(path)`` there, and say so (what ``note`` makes of what it returned after the path)."""
        path = self._save_dialog(title, filters, what)
        if not path:
            return
        try:
            written = export(path)
        except (OSError, ValueError, VideoCodecMissing) as exc:
            QMessageBox.critical(self.window, title, f"{path}:\n\n{exc}")
            return
        self.window.statusBar().showMessage(f"Exported {path}{note(written)}", 8000)

    def export_results_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.window, "Export results bundle into folder",
                                                  str(self.suggested_path("results")))
        if not folder:
            return
        try:
            self.export_results(folder)
        except (OSError, ResultsFormatError) as exc:
            QMessageBox.critical(self.window, "Export results bundle", f"{folder}:\n\n{exc}")
            return
        self.window.statusBar().showMessage(f"Results written to {folder}", 8000)

    def export_table_dialog(self) -> None:
        # a label as wide as the title bar needs: a window manager elides a narrow dialog's title
        table, chosen = QInputDialog.getItem(self.window, "Export results table",
                                             "The table of the results to write as CSV:", list(TABLES), 0, False)
        if chosen:
            self._export("Export results table", "CSV files (*.csv)", lambda path: self.export_table(table, path),
                         f"{table}.csv", lambda has_rows: "" if has_rows else f" ({HEADER_ONLY})")

    def export_series_dialog(self) -> None:
        self._export("Export plotted series", "CSV files (*.csv)", self.export_series, "series.csv")

    def export_plots_dialog(self) -> None:
        self._export("Export plots", "PNG images (*.png);;SVG drawings (*.svg)", self.export_plots, "plots.png")

    def export_animation_dialog(self) -> None:
        self._export("Export animation", "GIF animations (*.gif);;MP4 videos (*.mp4)", self.export_animation,
                     "animation.gif")
