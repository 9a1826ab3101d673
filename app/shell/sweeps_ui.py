"""The main window's sweeps: a Sweeps menu, the sweep's progress, its results, and the
impact-type map.

:class:`SweepsUi` adds to a :class:`~app.shell.main_window.MainWindow` (through
:class:`~app.shell.window_parts.WindowParts`) a Sweeps menu — New Sweep… (the
:class:`~app.sweeps.dialog.SweepDialog` on the document's model), Open Sweep Folder…,
Cancel Sweep, Optimum of a Field… (the :class:`~app.sweeps.optimum_dialog.OptimumDialog`:
the value of a field, such as where a sliding support stops, that minimises a measure
of the run, plotted against the field), Impact-Type Map… — and three docks: the
:class:`~app.sweeps.progress.SweepProgressView` with Cancel, the
:class:`~app.sweeps.results_view.SweepResultsView` (table and plot; clicking a point
opens that run for playback: its kept results folder, or the run simulated again from
``sweep.json``; the document is not changed), and the
:class:`~app.results.map_view.ImpactMapView` of the document's contacts and of the
last run's impulses.  The sweep runs on dask in a worker thread; closing the window
(once the user has answered its question on unsaved changes) cancels it, closes the
cluster and stops the search of every optimum dialog (:meth:`SweepsUi.close_sweeps`).
"""
from __future__ import annotations

import copy
import re
import time
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QDialog, QFileDialog, QMenu, QMessageBox

from solver.model.paths import set_path
from solver.results.files import ResultsFormatError, load_results
from solver.sweeps import SweepError, read_rows, read_sweep
from solver.sweeps.variants import run_id

from ..document.checks import model_problems
from ..results.map_view import ImpactMapView
from ..sweeps.controller import SweepController, SweepThreadStuck
from ..sweeps.dialog import SweepDialog
from ..sweeps.optimum_dialog import OptimumDialog, OptimumThreadStuck
from ..sweeps.progress import SweepProgressView
from ..sweeps.results_view import SweepResultsView
from .results_ui import ResultsUi
from .simulation_ui import SimulationUi, motion_bounds
from .window_parts import WindowParts, add_dock, make_action, scrolled

#: seconds between refreshes of the results table while a sweep goes on
LIVE_REFRESH_S = 1.0


#: the impact-type map's floating dock when first shown, px: its four rows of controls and a
#: readable map
MAP_SIZE = (820, 680)

class SweepsUi(QObject):
    """Sweeps and impact-type maps for ``window``, playing runs through ``simulation`` and ``results``."""

    def __init__(self, window: WindowParts, simulation: SimulationUi, results: ResultsUi):
        super().__init__(window)
        self.window, self.simulation, self.results = window, simulation, results
        self.controller = SweepController(self)
        #: the sweep shown: its folder, model and varied and fixed paths
        self.folder: Path | None = None
        self.sweep_model: dict = {}
        self.parameters: list[str] = []
        self._live: dict[str, dict] = {}
        self._refreshed = 0.0

        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        self.progress = SweepProgressView()
        self.progress_dock = add_dock(window, "Sweep progress", "sweep_progress_dock", scrolled(self.progress), bottom)
        self.table = SweepResultsView()
        self.table_dock = add_dock(window, "Sweep results", "sweep_results_dock", scrolled(self.table), bottom)
        self.map = ImpactMapView()
        self.map_dock = add_dock(window, "Impact-type map", "impact_map_dock", scrolled(self.map), bottom)
        self.docks = (self.progress_dock, self.table_dock, self.map_dock)
        # hidden until used, then tabbed beside the events (progress) or the plots (results,
        # map): a tabbed dock widens the window's minimum even while hidden.  The window's
        # layout restores them as the user left them.
        self._unplaced = set(self.docks)
        self.hide_docks()

        self.new_action = make_action(window, "&New Sweep…", self.new_sweep, "Ctrl+Shift+W",
                                      "Run variants of the model with fields varied, on a dask cluster")
        self.open_action = make_action(window, "&Open Sweep Folder…", self.open_folder_dialog,
                                       tip="Show the table of a sweep run before")
        self.cancel_action = make_action(window, "&Cancel Sweep", self.controller.cancel,
                                         tip="Stop the sweep; the finished runs stay in its table")
        self.cancel_action.setEnabled(False)
        self.optimum_action = make_action(window, "Optimum of a &Field…", self.find_optimum,
                                          tip="The value of a field that minimises a measure of the run, over runs "
                                              "of the model")
        self.map_action = make_action(window, "Impact-Type &Map…", self.show_map,
                                      tip="Routh's impulse types of a contact over two parameters, in closed form")
        self.menu = QMenu("S&weeps", window)
        menu_bar = window.menuBar()
        menu_bar.insertMenu(menu_bar.actions()[-1], self.menu)  # before Help
        for action in (self.new_action, self.open_action, self.cancel_action, self.optimum_action):
            self.menu.addAction(action)
        self.menu.addSeparator()
        self.menu.addAction(self.map_action)
        view_menu = next(a.menu() for a in menu_bar.actions() if a.text() == "&View")
        for dock in self.docks:
            view_menu.addAction(dock.toggleViewAction())

        self.controller.started.connect(self._on_started)
        self.controller.progressed.connect(self._on_progress)
        self.controller.ended.connect(self._on_ended)
        self.progress.cancel_requested.connect(self.controller.cancel)
        self.table.run_chosen.connect(self.open_run)
        results.results_changed.connect(self.map.set_results)  # the impulses of the run the window shows
        window.document.replaced.connect(self._on_document_changed)
        window.document.changed.connect(self._on_document_changed)

    def reveal(self, dock) -> None:
        """Show ``dock`` in front (tabbed in its place when it was hidden, the first time)."""
        if dock in self._unplaced:
            self._unplaced.discard(dock)
            if not dock.isVisible() and not dock.isFloating():
                beside = self.results.events_dock if dock is self.progress_dock else self.results.plots
                self.window.tabifyDockWidget(beside, dock)
        dock.show()
        dock.raise_()

    def hide_docks(self) -> None:
        """Hide the sweep docks (View > Reset Layout: they come back in place when used)."""
        for dock in self.docks:
            dock.setFloating(False)
            dock.hide()
        self._unplaced = set(self.docks)

    def _on_document_changed(self) -> None:
        self.map.set_model(self.window.document.model)

    # ------------------------------------------------------------------ sweep
    def new_sweep(self) -> bool:
        """Ask for a sweep of the document's model and start it; False when none starts."""
        document = self.window.document
        if self.controller.running:
            self.window.statusBar().showMessage("A sweep is going on: cancel it first", 8000)
            return False
        if not self.window.finish_editing():
            return False
        errors = [p for p in model_problems(document.model) if p.severity == "error"]
        if document.is_empty or errors:
            self.window.show_problems("Cannot sweep", "The model cannot run:" if errors else "There is no model.",
                                      errors)
            return False
        dialog = SweepDialog(document.model, str(self.default_folder()), self.window)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        return self.start(document.model, dialog.request())

    def start(self, model: dict, request) -> bool:
        """Run the sweep ``request`` of ``model`` (what the dialog's Run does)."""
        self.folder, self.sweep_model = request.folder, copy.deepcopy(model)
        self.parameters = [*request.spec.paths, *(p for p, _v in request.spec.fixed)]
        self._live = {}
        return self.controller.start(model, request)

    def default_folder(self) -> Path:
        document = self.window.document
        stem = re.sub(r"[^\w.-]+", "-", document.title).strip("-") or "model"
        parent = document.path.parent if document.path else Path.home() / "flexmech-sweeps"
        return parent / f"{stem}-sweep"

    def _on_started(self, request) -> None:
        self.progress.started(request)
        self.cancel_action.setEnabled(True)
        self.reveal(self.progress_dock)

    def _on_progress(self, p) -> None:
        self.progress.show_progress(p)
        if p.row is not None:
            self._live[p.row["run"]] = p.row
        if time.monotonic() - self._refreshed > LIVE_REFRESH_S:
            self._refreshed = time.monotonic()
            self._show_rows(list(self._live.values()))

    def _on_ended(self, outcome, message: str) -> None:
        self.progress.ended(outcome, message)
        self.cancel_action.setEnabled(False)
        if outcome is None:
            QMessageBox.warning(self.window, "The sweep could not run", message)
            return
        self._show_rows(outcome.rows)
        self.window.statusBar().showMessage(
            f"Sweep {'cancelled' if outcome.cancelled else 'finished'}: {outcome.completed} completed, "
            f"{outcome.failed} failed, {outcome.skipped} already in the table", 10000)

    def _show_rows(self, rows: list[dict]) -> None:
        self.table.set_rows(rows, self.parameters)
        self.reveal(self.table_dock)

    def open_folder(self, folder: str | Path) -> bool:
        """Show the sweep in ``folder`` (its table, its model for replaying runs)."""
        try:
            found = read_sweep(folder)
            if found is None:
                raise SweepError([f"{folder}: no sweep.json here"])
            rows = read_rows(folder)
        except (SweepError, OSError) as exc:  # OSError: a file of it that is a folder or a link, unreadable
            problems = exc.problems if isinstance(exc, SweepError) else [str(exc)]
            QMessageBox.critical(self.window, "Cannot open the sweep", "\n".join(problems))
            return False
        self.folder, (self.sweep_model, spec) = Path(folder), found
        self.parameters = [*spec.paths, *(p for p, _v in spec.fixed)]
        self._show_rows(rows)
        return True

    def open_folder_dialog(self) -> bool:
        folder = QFileDialog.getExistingDirectory(self.window, "Open sweep folder")
        return bool(folder) and self.open_folder(folder)

    # ------------------------------------------------------------------ runs
    def open_run(self, rid: str) -> bool:
        """Play back run ``rid`` of the sweep shown: its results folder when kept, else the
        run simulated again from the sweep's model and its row's values."""
        row = next((r for r in self.table.rows if r.get("run") == rid), None)
        if row is None or self.folder is None:
            return False
        if self.simulation.runs.running:  # neither simulated beside it nor shown over it (which cancelled it)
            self.window.statusBar().showMessage(f"Run {rid} of the sweep not opened: a run is going on "
                                                "(cancel it first, Esc)", 8000)
            return False
        kept = self.folder / row["results"] if row.get("results") else None
        if kept is not None and kept.is_dir():
            try:
                results = load_results(kept)
                bounds = motion_bounds(results.frames)  # a read error of its frames said here, not later
            except (OSError, ResultsFormatError) as exc:
                QMessageBox.critical(self.window, "Cannot open the run", f"{kept}:\n\n{exc}")
                return False
            self.simulation.show_run(results, bounds)
            self.results.show_results(results)
            self.window.statusBar().showMessage(f"Playing run {rid} of the sweep (the model is unchanged)", 8000)
            return True
        model = copy.deepcopy(self.sweep_model)
        for path in self.parameters:
            if path in row:
                set_path(model, path, row[path])
        if run_id(model) != rid:
            QMessageBox.warning(self.window, "Cannot open the run",
                                f"Run {rid} cannot be rebuilt from the sweep's model and its row.")
            return False
        self.window.statusBar().showMessage(f"Simulating run {rid} of the sweep (the model is unchanged)", 8000)
        return self.simulation.run_other(model)

    # ------------------------------------------------------------------ optimum
    def find_optimum(self) -> OptimumDialog | None:
        """Show the optimum dialog on the document's model (None when the model cannot run)."""
        document = self.window.document
        if not self.window.finish_editing():
            return None
        errors = [p for p in model_problems(document.model) if p.severity == "error"]
        if document.is_empty or errors:
            self.window.show_problems("Cannot search", "The model cannot run:" if errors else "There is no model.",
                                      errors)
            return None
        dialog = OptimumDialog(copy.deepcopy(document.model), self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def close_sweeps(self) -> list[str]:
        """The window closes (the user has answered its question on unsaved changes): cancel a sweep
        going on, wait for it (a bounded wait, :meth:`~app.sweeps.controller.SweepController.wait`) and
        close the kept cluster; stop the search of every optimum dialog (a bounded wait too,
        :meth:`~app.sweeps.optimum_dialog.OptimumDialog.stop`) and close the dialogs; what did not stop
        within its bound (its dialog hidden, not closed: closing would wait again, and delete the thread)."""
        stuck = []
        if self.controller.running:
            self.controller.cancel()
            try:
                self.controller.wait()
            except SweepThreadStuck as exc:
                stuck.append(str(exc))
        self.controller.close_cluster()
        for dialog in self.window.findChildren(OptimumDialog):
            try:
                dialog.stop()
            except OptimumThreadStuck as exc:
                stuck.append(str(exc))
                dialog.hide()
                continue
            dialog.close()
        return stuck

    # ------------------------------------------------------------------ map
    def show_map(self) -> None:
        """Show the impact-type map of the document's model (drawn at once the first time)."""
        self.map.set_model(self.window.document.model)
        self.map.set_results(self.results.results)
        first = self.map_dock in self._unplaced
        self.reveal(self.map_dock)
        if first:  # its controls and plot need more than a third of the bottom area: a window of its own
            self.map_dock.setFloating(True)
            self.map_dock.resize(*MAP_SIZE)
            centre = self.window.geometry().center()
            self.map_dock.move(centre.x() - MAP_SIZE[0] // 2, centre.y() - MAP_SIZE[1] // 2)
        if self.map.map is None and self.map.contact.count():
            self.map.draw()
