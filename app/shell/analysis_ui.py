"""The main window's analysis plots: an Analysis menu and the analysis dock.

:class:`AnalysisUi` adds to a :class:`~app.shell.main_window.MainWindow` an Analysis menu —
Journal Orbit…, Poincaré Section…, Spectrum…, Bifurcation Diagram…, Lyapunov Exponent… —
each showing the :class:`~app.results.analysis_view.AnalysisView` dock at its tab, on the
window's run (its last run, or results opened) and, for the bifurcation diagram, the sweep
folder the Sweeps menu shows.  The orbit, section and spectrum are drawn at once when
the run allows them.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QMenu

from ..results.analysis_view import AnalysisView
from ..results.lyapunov_tab import TwinThreadStuck
from .results_ui import ResultsUi
from .sweeps_ui import SweepsUi
from .window_parts import WindowParts, add_dock, make_action, scrolled

#: the menu's entries: text, the view's tab, tip
ENTRIES = (("Journal &Orbit…", "orbit", "The journal centre of a clearance joint in its clearance circle"),
           ("&Poincaré Section…", "poincare", "Two series once per period of the driver, over their phase portrait"),
           ("&Spectrum…", "spectrum", "Windowed amplitude spectrum of a series, the driver's harmonics marked"),
           ("&Bifurcation Diagram…", "bifurcation", "Poincaré samples of a series against the field of a sweep"),
           ("&Lyapunov Exponent…", "lyapunov", "The separation of the run and a perturbed twin, and its log growth"))


class AnalysisUi(QObject):
    """The Analysis menu and dock of ``window``, on the run of ``results`` and the sweep of ``sweeps``."""

    def __init__(self, window: WindowParts, results: ResultsUi, sweeps: SweepsUi):
        super().__init__(window)
        self.window, self.results, self.sweeps = window, results, sweeps
        self.view = AnalysisView()
        self.dock = add_dock(window, "Analysis", "analysis_dock", scrolled(self.view),
                             Qt.DockWidgetArea.BottomDockWidgetArea)
        self.dock.hide()
        self.menu = QMenu("&Analysis", window)
        menu_bar = window.menuBar()
        menu_bar.insertMenu(menu_bar.actions()[-1], self.menu)  # before Help
        self.actions = {}
        for text, tab, tip in ENTRIES:
            self.actions[tab] = make_action(window, text, lambda tab=tab: self.show_tab(tab), tip=tip)
            self.menu.addAction(self.actions[tab])
        view_menu = next(a.menu() for a in menu_bar.actions() if a.text() == "&View")
        view_menu.addAction(self.dock.toggleViewAction())
        results.results_changed.connect(self._on_results_changed)

    def close_twin(self) -> list[str]:
        """The window closes (the user has answered its question on unsaved changes): stop the
        Lyapunov twin's run under way and wait for it (a bounded wait); what did not stop within it."""
        try:
            self.view.lyapunov.stop_twin()
        except TwinThreadStuck as exc:
            return [str(exc)]
        return []

    def show_tab(self, name: str):
        """Show the dock at tab ``name`` on the window's run; the tab."""
        self.view.set_results(self.results.results)
        if self.sweeps.folder is not None and not self.view.bifurcation.folder.text():
            self.view.bifurcation.set_folder(str(self.sweeps.folder))
        tab = getattr(self.view, name)
        self.view.setCurrentWidget(tab)
        if not self.dock.isVisible():
            self.window.tabifyDockWidget(self.results.plots, self.dock)
        self.dock.show()
        self.dock.raise_()
        self._draw_at_once(tab)
        return tab

    def _draw_at_once(self, tab) -> None:
        """Draw ``tab`` when it is one drawn at once (orbit, section, spectrum) and the run allows it."""
        if tab in (self.view.orbit, self.view.poincare, self.view.spectrum) and tab.draw_button.isEnabled():
            tab.draw()

    def _on_results_changed(self, results) -> None:
        """Another run in the window: the tabs analyse it (what they drew of the run before goes),
        the tab shown drawn again at once when it is drawn so."""
        self.view.set_results(results)
        if self.dock.isVisible():
            self._draw_at_once(self.view.currentWidget())

    def hide_dock(self) -> None:
        """Hide the dock (View > Reset Layout)."""
        self.dock.setFloating(False)
        self.dock.hide()
