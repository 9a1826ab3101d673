"""A plot's **CSV** menu: CSV files the user loads over the plot, and the note saying which
of them the plot does not draw (their abscissa is not the plot's) or reads with a unit assumed.

:class:`CsvOverlays` holds the files' overlays (:func:`~.overlays.csv_overlays`) and gives
those a plot against a given abscissa draws (:meth:`CsvOverlays.aligned`).
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtWidgets import QFileDialog, QLabel, QMenu, QMessageBox, QToolButton, QWidget

from solver.results.references import ReferenceError
from solver.results.series import Series

from .overlays import Overlay, aligned_csv, csv_overlays


class CsvOverlays:
    """The **CSV** button of a plot (``button``, actions ``load_action`` and ``clear_action``) and the
    ``note`` under it; ``changed`` is called when the files loaded change."""

    def __init__(self, parent: QWidget, changed: Callable[[], None]):
        self.parent = parent
        self.changed = changed
        self.loaded: list[Overlay] = []
        self.button = QToolButton(parent, text="CSV")
        self.button.setToolTip("Overlay a CSV file on this plot, or remove the overlays loaded")
        self.button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.button)
        self.load_action = menu.addAction("Overlay a CSV File…")
        self.load_action.setToolTip("Every column of a CSV file against the abscissa its header names, dash-dotted")
        self.load_action.triggered.connect(lambda _checked=False: self.load_dialog())
        self.clear_action = menu.addAction("Remove the CSV Overlays")
        self.clear_action.triggered.connect(lambda _checked=False: self.clear())
        self.button.setMenu(menu)
        self.note = QLabel(parent)
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #a33")
        self.note.hide()

    def load(self, path) -> int:
        """Overlay every column of the CSV file ``path``; the number of curves added.
        Raises :class:`~solver.results.references.ReferenceError` naming the problem."""
        added = csv_overlays(path)
        self.loaded += added
        self.changed()
        return len(added)

    def load_dialog(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self.parent, "Overlay a CSV file", "",
                                                    "CSV files (*.csv);;All files (*)")
        if not path:
            return
        try:
            self.load(path)
        except ReferenceError as exc:
            QMessageBox.warning(self.parent, "Cannot overlay the file", str(exc))

    def clear(self) -> None:
        self.loaded = []
        self.changed()

    def aligned(self, axis: Series | None) -> list[Overlay]:
        """The loaded overlays a plot against ``axis`` draws (all of them before a run gives it one);
        the note says which it does not, and why."""
        drawn, notes = aligned_csv(self.loaded, axis) if axis is not None else (self.loaded, [])
        self.note.setText("\n".join(notes))
        self.note.setVisible(bool(notes))
        return drawn
