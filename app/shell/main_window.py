"""The main window: the sketch canvas, model tree, property panel, problems and history round one document.

The window owns the :class:`~app.document.model_document.ModelDocument` and the
:class:`~app.document.selection.Selection`; the views only listen to them, and every edit is
an undo command pushed on the document (Edit menu: Undo, Redo, Delete).  File errors
reach the user as message boxes that name every problem (``path: rule``), and a
model that cannot be opened leaves the current one in place.  Unsaved changes are
guarded: the title shows ``*``, New / Open / Close ask to save, and a modified model
is autosaved to a recovery file that the next start offers after a crash.
"""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import shiboken6
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QUndoView,
    QWidget,
)

from solver.model.io import examples_dir, list_examples, load_model, save_model
from solver.model.validate import ModelError, Problem

from ..document.commands import RemoveEntities, make_compliant, rename_entity, set_field, toggle_link_kind
from ..document.model_document import ModelDocument
from ..document.edits import get_value
from ..document.entities import SETTINGS, EntityRef, entity_path, find_entity
from ..panels.model_tree import ModelTree
from ..panels.problems_view import ProblemsView
from ..panels.property_view import PropertyView
from .exception_hook import report_unstopped
from .help import HelpUi
from .start_page import StartPage, fill_examples_menu
from .layout import Docks, WindowLayout
from .recent_files import RecentFiles
from .recovery import RecoveryFile
from ..document.selection import Selection
from .results_ui import ResultsUi
from .simulation_ui import SimulationUi
from .sweeps_ui import SweepsUi
from .analysis_ui import AnalysisUi
from .window_parts import add_dock, make_action
from ..canvas.sketch_view import SketchView
from ..canvas.tools.base import ToolContext
from ..canvas.tools.controller import ToolController
from ..canvas.tools.toolbar import TOOLS, ToolBar


APP_NAME = "Flexmech"
FILE_FILTER = "Flexmech models (*.json);;All files (*)"
#: problems listed in a message box; the rest are counted
MAX_LISTED_PROBLEMS = 25
#: seconds between autosaves of a modified model (QSettings "autosave/interval_s" overrides)
AUTOSAVE_INTERVAL_S = 60


def new_model() -> dict:
    """The document File > New starts from: no entities yet."""
    return {"format": "flexmech", "version": 1, "name": "", "nodes": []}


def problems_text(intro: str, problems: list[Problem]) -> str:
    """``intro`` and one ``path: rule`` line per problem (the first few when there are many)."""
    lines = [str(p) for p in problems[:MAX_LISTED_PROBLEMS]]
    if len(problems) > MAX_LISTED_PROBLEMS:
        lines.append(f"... and {len(problems) - MAX_LISTED_PROBLEMS} more")
    return intro + "\n\n" + "\n".join(lines)


class MainWindow(QMainWindow):
    """Flexmech's main window; ``settings`` defaults to the application's QSettings."""

    def __init__(self, settings: QSettings | None = None, parent: QWidget | None = None,
                 recovery_dir: Path | None = None):
        super().__init__(parent)
        self.settings = settings if settings is not None else QSettings(self)
        self.recent = RecentFiles(self.settings)
        #: this window's autosave file; ``recovery_dir`` defaults to the application data folder
        self.recovery = RecoveryFile(recovery_dir)
        self.document = ModelDocument(self)
        self.selection = Selection(self)

        self.sketch = SketchView()
        self.setCentralWidget(self.sketch)
        self.tree = ModelTree()
        self.properties = PropertyView()
        self.tree_dock = add_dock(self, "Model", "model_tree_dock", self.tree)
        self.property_dock = add_dock(self, "Properties", "property_dock", self.properties)
        self.problems = ProblemsView()
        self.problems_dock = add_dock(self, "Problems", "problems_dock", self.problems)
        self.history = QUndoView(self.document.undo_stack)
        self.history.setEmptyLabel("<opened>")
        self.history_dock = add_dock(self, "History", "history_dock", self.history)
        self.cursor_label = QLabel()
        self.statusBar().addPermanentWidget(self.cursor_label)

        self._build_menus()
        self._build_tools()
        self.simulation = SimulationUi(self)
        self.results_ui = ResultsUi(self, self.simulation)
        self.sweeps_ui = SweepsUi(self, self.simulation, self.results_ui)   # before the layout restores its docks
        self.help = HelpUi(self, self.help_menu, self.about_action,
                           [*self.tool_bar.actions_by_name.values(), self.tool_bar.escape_action])
        self.analysis_ui = AnalysisUi(self, self.results_ui, self.sweeps_ui)
        results = self.results_ui
        areas = Qt.ToolBarArea
        self.window_layout = WindowLayout(self, self.settings, Docks(
            self.tree_dock, self.property_dock, self.history_dock, self.problems_dock, results.plots,
            results.events_dock, results.compare_dock, self.help.dock,
            ((areas.TopToolBarArea, self.simulation.toolbar), (areas.RightToolBarArea, self.tool_bar),
             (areas.BottomToolBarArea, self.simulation.bar))))
        self.reset_layout_action = make_action(self, "&Reset Layout", self.window_layout.reset,
                                               tip="Put every panel and tool bar back where it was at first start")
        self.reset_layout_action.triggered.connect(self.sweeps_ui.hide_docks)
        self.reset_layout_action.triggered.connect(self.analysis_ui.hide_dock)
        self.view_menu.addSeparator()
        self.view_menu.addAction(self.reset_layout_action)
        self.help.reopen()
        self.document.replaced.connect(self._on_document_replaced)
        self.document.path_changed.connect(self._update_title)
        self.document.changed.connect(self._on_document_changed)
        self.document.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self.tree.selection_changed.connect(self.selection.replace)
        self.problems.entity_clicked.connect(lambda ref: self.selection.replace((ref,)))
        self.properties.edit_planned.connect(self.apply_edit)
        self.properties.edit_refused.connect(lambda message: self.statusBar().showMessage(message, 8000))
        self.selection.changed.connect(self._on_selection_changed)
        self.sketch.cursor_moved.connect(self._show_cursor)
        self._update_title()
        self.autosave_timer = QTimer(self)
        self.autosave_timer.setInterval(int(float(self.settings.value("autosave/interval_s", AUTOSAVE_INTERVAL_S)) * 1000))
        self.autosave_timer.timeout.connect(self.autosave)
        self.autosave_timer.start()
        #: True when the window started on a model recovered after a crash
        self.recovered = self.offer_recovery()

    # ------------------------------------------------------------------ building
    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self.new_action = make_action(self, "&New", self.new_document, QKeySequence.StandardKey.New, "Start a new model")
        self.save_action = make_action(self, "&Save", self.save, QKeySequence.StandardKey.Save, "Save the model")
        file_menu.addAction(self.new_action)
        self.open_action = make_action(self, "&Open…", self.open_dialog, QKeySequence.StandardKey.Open,
                                        "Open a model file")
        self.save_as_action = make_action(self, "Save &As…", self.save_as, QKeySequence.StandardKey.SaveAs,
                                           "Save the model to a new file")
        self.quit_action = make_action(self, "&Quit", self.close, QKeySequence.StandardKey.Quit, "Quit Flexmech")
        file_menu.addAction(self.open_action)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        file_menu.addAction(self.save_action)
        file_menu.addAction(self.save_as_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        self._update_recent_menu()

        edit_menu = bar.addMenu("&Edit")
        stack = self.document.undo_stack
        self.undo_action = stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcut(QKeySequence.StandardKey.Redo)
        self.delete_action = make_action(self, "&Delete", self.delete_selection, QKeySequence.StandardKey.Delete,
                                          "Delete the selected entities and what refers to them")
        edit_menu.addAction(self.undo_action)
        edit_menu.addAction(self.redo_action)
        edit_menu.addSeparator()
        edit_menu.addAction(self.delete_action)

        view_menu = self.view_menu = bar.addMenu("&View")
        self.zoom_fit_action = make_action(self, "&Zoom to Fit", self.sketch.zoom_to_fit, "Ctrl+0",
                                            "Show the whole model")
        view_menu.addAction(self.zoom_fit_action)
        self.check_action = make_action(self, "&Check Model", self.check_model, "F7",
                                         "List the model's problems and degrees of freedom")
        view_menu.addAction(self.check_action)
        view_menu.addSeparator()
        view_menu.addAction(self.tree_dock.toggleViewAction())
        view_menu.addAction(self.property_dock.toggleViewAction())
        view_menu.addAction(self.history_dock.toggleViewAction())
        view_menu.addAction(self.problems_dock.toggleViewAction())

        self.example_actions = fill_examples_menu(self, bar.addMenu("&Examples"), self.open_example)

        self.help_menu = bar.addMenu("&Help")
        self.start_page_action = make_action(self, "&Start Page", self.show_start_page,
                                             tip="Getting Started, a new model or an example, by source")
        self.about_action = make_action(self, "&About Flexmech", self.about, tip="Version and licence")
        self.help_menu.addAction(self.start_page_action)
        self.help_menu.addAction(self.about_action)

    def _build_tools(self) -> None:
        """The canvas tools and their tool bar (prompts go to the status bar)."""
        context = ToolContext(self.document, self.selection, self.sketch, self.statusBar().showMessage)
        self.tools = ToolController(context, TOOLS, self)
        self.tool_bar = ToolBar(self.tools, self)
        self.addToolBar(Qt.ToolBarArea.RightToolBarArea, self.tool_bar)

    def _update_recent_menu(self) -> None:
        self.recent_menu.clear()
        paths = self.recent.paths()
        for i, path in enumerate(paths, start=1):
            action = make_action(self, f"&{i} {path.name}", lambda p=path: self.open_recent(p), tip=str(path))
            self.recent_menu.addAction(action)
        if paths:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction(make_action(self, "Clear Recent Files", self._clear_recent))
        self.recent_menu.setEnabled(bool(paths))

    # ------------------------------------------------------------------ files
    def finish_editing(self) -> bool:
        """Commit a property entry still in its editor (typed, no Enter yet); False when it is refused
        (the panel and the status bar say why)."""
        return self.properties.finish_edit()

    def maybe_save(self) -> bool:
        """Offer to save unsaved changes; False when the user cancels (or the save fails, or a
        property entry still in its editor is refused)."""
        if not self.finish_editing():
            return False
        if self.document.is_empty or not self.document.is_modified:
            return True
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.warning(
            self, "Unsaved changes", f"Save the changes to {self.document.title}?",
            buttons.Save | buttons.Discard | buttons.Cancel, buttons.Save,
        )
        if answer == buttons.Save:
            return self.save()
        return answer == buttons.Discard

    def new_document(self) -> bool:
        """Start a new, empty model (after offering to save the current one)."""
        if not self.maybe_save():
            return False
        self.document.replace(new_model(), None)
        self.recovery.remove()
        return True

    def open_path(self, path: str | Path) -> bool:
        """Open a model file (after offering to save); on problems, list them and keep the current model."""
        return self.maybe_save() and self._open_file(path)

    def _open_file(self, path: str | Path) -> bool:
        """Open the model file ``path``; a bundled example's file (``flexmech`` opens the default one, ``flexmech
        open NAME`` one by its name) opens as the example, without a file: Save asks where, and the example shipped
        with Flexmech is never overwritten."""
        path = Path(path)
        try:
            model = load_model(path)
        except ModelError as exc:
            self.show_problems(f"Cannot open {path.name}", f"{path} is not a usable Flexmech model:", exc.problems)
            return False
        if path.resolve().parent == examples_dir().resolve():
            self._show_example(path.stem, model)
            return True
        self.document.replace(model, path.resolve())
        self.recovery.remove()
        self.recent.add(path)
        self._update_recent_menu()
        self.statusBar().showMessage(f"Opened {path}", 5000)
        return True

    def open_example(self, name: str) -> bool:
        """Open a bundled example as a model without a file (Save As gives it one)."""
        if not self.maybe_save():
            return False
        path = next(p for n, p, _d in list_examples() if n == name)
        try:
            model = load_model(path)
        except ModelError as exc:
            self.show_problems(f"Cannot open example {name}", f"The example {name} has problems:", exc.problems)
            return False
        self._show_example(name, model)
        return True

    def _show_example(self, name: str, model: dict) -> None:
        """The bundled example ``name`` as a model without a file (Save As gives it one)."""
        self.document.replace(model, None)
        self.recovery.remove()
        self.statusBar().showMessage(f"Opened example {name}: Save As keeps your changes in a file of your own", 5000)

    def open_recent(self, path: Path) -> bool:
        """Open a recent file; forget it if it no longer exists."""
        if self.open_path(path):
            return True
        if not path.exists():
            self.recent.remove(path)
            self._update_recent_menu()
        return False

    def open_dialog(self) -> bool:
        """Ask for a model file and open it (after offering to save the current one)."""
        if not self.maybe_save():
            return False
        start = str(self.document.path.parent) if self.document.path else ""
        name, _filter = QFileDialog.getOpenFileName(self, "Open Model", start, FILE_FILTER)
        return self._open_file(name) if name else False

    def save(self) -> bool:
        """Save the model to its file (atomically); Save As when it has none."""
        if not self.finish_editing():
            return False
        if self.document.path is None:
            return self.save_as()
        return self._write(self.document.path)

    def save_as(self) -> bool:
        """Ask for a file name and save the model there (atomically)."""
        if self.document.is_empty:
            return False
        start = self.document.path or Path.home() / f"{self.document.title}.json"
        name, _filter = QFileDialog.getSaveFileName(self, "Save Model As", str(start), FILE_FILTER)
        if not name:
            return False
        path = Path(name) if Path(name).suffix else Path(name).with_suffix(".json")
        return self._write(path)

    def _write(self, path: Path) -> bool:
        if path.resolve().parent == examples_dir().resolve():  # opened as the example it is: never written over
            QMessageBox.critical(self, "Cannot save", f"Cannot save {path}:\nit is an example shipped with "
                                                      "Flexmech; save your model in a folder of your own.")
            return False
        try:
            save_model(self.document.model, path)
        except OSError as exc:
            QMessageBox.critical(self, "Cannot save", f"Cannot save {path}:\n{exc.strerror or exc}")
            return False
        self.document.mark_saved()
        self.recovery.remove()
        if self.document.path != path.resolve():
            self.document.set_path(path.resolve())
        self.recent.add(path)
        self._update_recent_menu()
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def autosave(self) -> None:
        """Write a modified model to the recovery file (and drop the file when nothing is unsaved)."""
        if self.document.is_empty or not self.document.is_modified:
            self.recovery.remove()
            return
        try:
            self.recovery.write(self.document.model, self.document.path)
        except OSError as exc:
            self.statusBar().showMessage(f"Autosave failed: {exc.strerror or exc}", 8000)

    def offer_recovery(self) -> bool:
        """Offer to restore what a crashed session left in a recovery file; True if restored."""
        leftovers = self.recovery.leftovers()
        if not leftovers:
            return False
        recovered = leftovers[0]  # the newest; older ones are offered at the next start
        model = recovered.model
        name = model.get("name") or (recovered.source.name if recovered.source else "an unsaved model")
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self, "Recover unsaved work",
            f"Flexmech did not close cleanly. Restore the unsaved changes to {name}?",
            buttons.Yes | buttons.No, buttons.Yes,
        )
        if answer != buttons.Yes:
            self.recovery.discard(recovered)
            return False
        self.document.replace(model, recovered.source)
        self.document.mark_modified()
        self.autosave()  # the work is now this window's: keep it safe before dropping the leftover
        self.recovery.discard(recovered)
        self._update_title()
        self.statusBar().showMessage("Restored unsaved changes", 5000)
        return True

    def _clear_recent(self) -> None:
        self.recent.clear()
        self._update_recent_menu()

    def show_problems(self, title: str, intro: str, problems: list[Problem]) -> None:
        QMessageBox.critical(self, title, problems_text(intro, problems))

    def show_start_page(self) -> StartPage:
        """The start page (Help > Start Page; at the first launch)."""
        page = StartPage(self.settings, self.open_example, self.new_action.trigger, self.help.show_getting_started,
                         self)
        page.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        page.open()
        return page

    def about(self) -> None:
        try:
            release = version("flexmech")
        except PackageNotFoundError:
            release = "(not installed)"
        QMessageBox.about(
            self, "About Flexmech",
            f"<b>Flexmech</b> {release}<p>Planar flexible multibody dynamics with frictional impact: "
            "sketch a mechanism, mesh its flexible links, simulate, plot.</p><p>MIT licence.</p>",
        )

    # ------------------------------------------------------------------ views
    def _on_document_replaced(self) -> None:
        self.selection.clear()
        model = self.document.model
        self.tree.show_model(model)
        self.sketch.show_model(model)
        self.properties.show_entity(model, None)
        self.problems.show_problems(model)

    def _on_document_changed(self) -> None:
        """An undo command changed the model: redraw, and drop selected entities that are gone."""
        model = self.document.model
        alive = tuple(ref for ref in self.selection.refs if entity_path(model, ref) is not None)
        self.tree.show_model(model)
        self.sketch.redraw(model, alive)
        self.problems.show_problems(model)
        if alive != self.selection.refs:
            self.selection.replace(alive)
        else:
            self.tree.select(alive)
            self.properties.show_entity(model, self.selection.single)

    def apply_edit(self, ref: EntityRef, keys: list, value: object) -> None:
        """Push a checked property edit as an undo command (a link's kind as its own command)."""
        if get_value(self.document.model, [*entity_path(self.document.model, ref), *keys]) == value:
            return  # nothing changes: no history entry
        if keys == ["id"]:
            renamed = tuple(EntityRef(r.collection, value) if r == ref else r for r in self.selection.refs)
            self.document.push(rename_entity(self.document, ref, value))
            self.selection.replace(renamed)
        elif keys:
            self.document.push(set_field(self.document, ref, keys, value))
        elif ref.collection == "links":
            if value.get("kind") != find_entity(self.document.model, ref)[1].get("kind"):
                self.document.push(toggle_link_kind(self.document, ref.id, value.get("kind")))
        elif ref.collection == "contacts":  # made compliant
            self.document.push(make_compliant(self.document, ref.id))
        else:
            self.document.push(set_field(self.document, ref, keys, value, text=f"Set {ref}.kind"))

    def check_model(self, select_first: bool = False) -> None:
        """Run the model checks now and bring the problems panel forward (with its first
        problem, and that problem's entity, selected when ``select_first``)."""
        self.problems.show_problems(self.document.model)
        self.problems_dock.show()
        self.problems_dock.raise_()
        if select_first:
            self.problems.select_row(0)

    def delete_selection(self) -> None:
        """Delete the selected entities (and what refers to them) as one undoable command."""
        refs = [ref for ref in self.selection.refs if ref.collection != SETTINGS]
        if refs:
            self.document.push(RemoveEntities(self.document, refs))

    def _on_selection_changed(self, refs: tuple[EntityRef, ...]) -> None:
        self.tree.select(refs)
        self.sketch.highlight(refs)
        self.properties.show_entity(self.document.model, self.selection.single)

    def _on_clean_changed(self, _clean: bool) -> None:
        # the stack also says so while it is destroyed with the window: nothing to show then
        if shiboken6.isValid(self.document.undo_stack):
            self._update_title()

    def _update_title(self) -> None:
        if self.document.is_empty:
            self.setWindowTitle(APP_NAME)
        else:
            star = "*" if self.document.is_modified else ""
            self.setWindowTitle(f"{APP_NAME} — {self.document.title}{star}")
        self.save_as_action.setEnabled(not self.document.is_empty)
        self.save_action.setEnabled(not self.document.is_empty)

    def _show_cursor(self, x: float, y: float) -> None:
        self.cursor_label.setText(self.sketch.cursor_text(x, y))  # in the canvas axes' units (mm, m)

    # ------------------------------------------------------------------ closing
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        if not self.maybe_save():
            event.ignore()
            return
        self.autosave_timer.stop()
        self.recovery.close()
        # the workers stop once the close goes ahead (Cancel above leaves them); one that does not within
        # its bound is left to end on its own, the user told why, and the close goes on
        stuck = self.simulation.close_runs() + self.sweeps_ui.close_sweeps() + self.analysis_ui.close_twin()
        if stuck:
            report_unstopped(self, stuck)
        self.window_layout.save()
        super().closeEvent(event)
