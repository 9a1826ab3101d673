"""The plots dock: several :class:`~app.results.plots.PlotPanel` s of a run, a preset
chooser, an "Add plot" button, and the reference overlays of the run's model.

The dock applies the presets of :func:`app.results.series.presets`, forwards the time
cursor, and offers every panel the bundled references that apply to the run's model
(:func:`solver.results.references.references_for`), drawn dashed over the series they
name; a "Refs" button hides them, and a note says why a reference of the same
mechanism is not shown (the model changed away from the published configuration).
"""
from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDockWidget, QFrame, QHBoxLayout, QLabel, QMainWindow, QPushButton, QScrollArea,
                               QSplitter, QToolButton, QVBoxLayout, QWidget)

from solver.results.frames import Frame, Results
from solver.results.references import Reference, ReferenceError, bundled_references, references_for

from .combos import narrow_combo
from .overlays import Overlay, reference_overlays
from .plots import PlotPanel, PlottedSeries
from .series import Panel, default_preset, presets


#: the share of its window's height and width the plots take at least when a run starts, docked
#: above or below the canvas (a remembered layout may have left them a strip)
RUN_SHARE = (0.4, 0.45)


class PlotsDock(QDockWidget):
    """A dock of several :class:`PlotPanel` s, a preset chooser and an "Add plot" button.

    Signals
    -------
    time_scrubbed(float)
        A panel's time cursor was dragged to this time (s): scrub playback there.

    Slots
    -----
    set_results(results)
        Show a run (complete or partial); applies the default preset the first time and
        whenever the run's layout differs.  For a run just started, pass
        ``Results(model, solver.api.output_layout(model))`` (no frames yet), then the
        frames as they come, then the final ``Results`` (the panels stay).
    append_frames(frames)
        Frames the running solver produced since the last call (≤ 30 per second).
    set_time(t)
        Move every panel's time cursor (playback's current time, s).

    clear()
        Show no run.

    come_forward()
        A run started: show the plots in front of the docks tabbed with them, and at least
        :data:`RUN_SHARE` of the window.

    Functions: :meth:`add_panel`, :meth:`remove_panel`, :meth:`apply_preset`,
    :attr:`panels`, :meth:`plotted` (every drawn curve's data).
    """

    time_scrubbed = Signal(float)

    def __init__(self, parent: QWidget | None = None):
        super().__init__("Plots", parent)
        self.setObjectName("plots_dock")
        self._results: Results | None = None
        self._time = 0.0
        self.panels: list[PlotPanel] = []

        self._bundled: list[Reference] | None = None
        self._references: list[Overlay] = []
        self.references_check = QToolButton(text="Refs")
        self.references_check.setCheckable(True)
        self.references_check.setChecked(True)
        self.references_check.setToolTip("Draw the published or closed-form reference curves of this model "
                                         "(resources/references) dashed over the series they name")
        self.references_check.toggled.connect(lambda _on: self._offer_references())
        self.reference_note = QLabel()
        self.reference_note.setWordWrap(True)
        self.reference_note.setStyleSheet("color: #666")
        self.reference_note.hide()
        self.preset_combo = narrow_combo()
        self.preset_combo.setToolTip("Thesis-style plot presets for this run")
        self.preset_combo.activated.connect(lambda _: self.apply_preset(self.preset_combo.currentText()))
        add = QPushButton("Add plot")
        add.clicked.connect(lambda: self.add_panel())
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Preset:"))
        bar.addWidget(self.preset_combo, 1)
        bar.addWidget(self.references_check)
        bar.addWidget(add)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(bar)
        layout.addWidget(self.reference_note)   # shown only when a reference is left out
        # the panels scroll where the dock is shorter than their least heights: four plots of a run at
        # 1280 x 800 asked for 590 px and left the canvas above them 95 px
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.splitter)
        layout.addWidget(scroll, 1)
        self.hint = QLabel("Run the model (F5) to plot its results here.")
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setEnabled(False)
        layout.addWidget(self.hint, 1)
        self.splitter.hide()
        self.setWidget(body)

    def set_results(self, results: Results) -> None:
        layout_changed = self._results is None or _names(self._results) != _names(results)
        self._results = results
        self.hint.hide()
        self.splitter.show()
        self._find_references(results.model)
        shown = self.preset_combo.currentText()
        self.preset_combo.clear()
        self.preset_combo.addItems(list(presets(results)))
        if layout_changed:
            self.apply_preset(default_preset(results))
        else:  # the same panels: the chooser keeps naming the preset they show
            self.preset_combo.setCurrentText(shown)
            for panel in self.panels:
                panel.set_results(results)
        self._offer_references()

    def come_forward(self) -> None:
        """Show the plots in front (a sweep's plot tabbed with them may have been), and, docked
        above or below the canvas, at least :data:`RUN_SHARE` of the window's height and width."""
        self.show()
        self.raise_()
        window = self.parentWidget()
        if self.isFloating() or not isinstance(window, QMainWindow):
            return
        if window.dockWidgetArea(self) not in (Qt.DockWidgetArea.BottomDockWidgetArea,
                                               Qt.DockWidgetArea.TopDockWidgetArea):
            return
        height = math.ceil(RUN_SHARE[0] * window.height())
        if self.height() < height:
            window.resizeDocks([self], [height], Qt.Orientation.Vertical)
        width = math.ceil(RUN_SHARE[1] * window.width())
        if self.width() < width:  # the docks beside share what is left
            beside = [d for d in window.findChildren(QDockWidget) if d is not self and not d.isFloating()
                      and window.dockWidgetArea(d) == window.dockWidgetArea(self) and _in_front(d)]
            rest = sum(d.width() for d in beside) + self.width() - width
            if beside and rest < sum(d.minimumSizeHint().width() for d in beside):
                self._take_the_row(window, beside)  # the help open beside the model: no room for both
                return
            widths = [max(rest // len(beside), 1)] * len(beside) if beside else []
            window.resizeDocks([self, *beside], [width, *widths], Qt.Orientation.Horizontal)

    def _take_the_row(self, window: QMainWindow, beside: list[QDockWidget]) -> None:
        """The docks ``beside`` tabbed behind the plots, which take the whole row: a row too narrow
        for the plots' share and the docks' least widths (the help open beside the model tree, at
        1280 px) left the plot 90 px wide.  The docks, and those tabbed with them, stay a tab away."""
        for dock in [d for front in beside for d in (front, *window.tabifiedDockWidgets(front))]:
            window.tabifyDockWidget(self, dock)  # with the docks tabbed behind them (Compare runs)
        self.raise_()

    def _find_references(self, model: dict) -> None:
        """The reference overlays that apply to ``model``, and the note on those that do not."""
        try:
            if self._bundled is None:
                self._bundled = bundled_references()
            refs, notes = references_for(model, self._bundled)
        except ReferenceError as exc:
            refs, notes = [], [f"References unavailable: {exc}"]
        self._references = reference_overlays(refs)
        self.reference_note.setText("\n".join(notes))
        self.reference_note.setVisible(bool(notes))
        self.references_check.setToolTip("References: draw " + (", ".join(r.title for r in refs)
                                                                 or "none (none applies to this model)"))

    def _offer_references(self) -> None:
        shown = self._references if self.references_check.isChecked() else []
        for panel in self.panels:
            panel.set_overlays(shown)

    def append_frames(self, frames: list[Frame]) -> None:
        for panel in self.panels:
            panel.append_frames(frames)

    def clear(self) -> None:
        """Show no run: no panels, no presets, no references (another model was opened)."""
        for panel in list(self.panels):
            self.remove_panel(panel)
        self.preset_combo.clear()
        self._results = None
        self._time = 0.0
        self._references = []
        self.reference_note.hide()
        self.splitter.hide()
        self.hint.show()

    def set_time(self, t: float) -> None:
        self._time = float(t)
        for panel in self.panels:
            panel.set_time(t)

    def add_panel(self, x: str = "time", series=()) -> PlotPanel:
        """A new plot at the bottom, of ``series`` against ``x``."""
        panel = PlotPanel()
        panel.time_scrubbed.connect(lambda t: self._scrubbed(panel, t))
        panel.remove_requested.connect(lambda: self.remove_panel(panel))
        self.splitter.addWidget(panel)
        self.panels.append(panel)
        if self._results is not None:
            panel.set_results(self._results)
            panel.set_x_axis(x)
            panel.set_series(series)
            panel.set_time(self._time)
            panel.set_overlays(self._references if self.references_check.isChecked() else [])
        return panel

    def remove_panel(self, panel: PlotPanel) -> None:
        self.panels.remove(panel)
        panel.setParent(None)
        panel.deleteLater()

    def apply_preset(self, name: str) -> None:
        """Replace the panels by those of preset ``name`` (see :func:`app.results.series.presets`)."""
        if self._results is None:
            return
        panels: list[Panel] = presets(self._results)[name]
        for panel in list(self.panels):
            self.remove_panel(panel)
        for x, series in panels:
            self.add_panel(x, series)
        self.preset_combo.setCurrentText(name)

    def plotted(self) -> list[PlottedSeries]:
        """Every panel's drawn curves, top to bottom."""
        return [s for panel in self.panels for s in panel.plotted()]

    def _scrubbed(self, source: PlotPanel, t: float) -> None:
        self._time = t
        for panel in self.panels:
            if panel is not source:
                panel.set_time(t)
        self.time_scrubbed.emit(t)


def _in_front(dock: QDockWidget) -> bool:
    """Whether ``dock`` shows (a tab group's docks behind the front one are moved away, not hidden)."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def _names(results: Results) -> tuple:
    """What a run's series are named after: its layout's ids."""
    layout = results.layout
    return (layout.nodes, layout.elements, layout.stations, layout.flexible_links, layout.drivers, layout.contacts,
            layout.modes)
