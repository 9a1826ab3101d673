"""The impact-type map view: Routh's impulse type of a contact pair over two of μs, μD,
e, the approach angle and the velocity ratio (:mod:`solver.analysis.impact_map`),
drawn as categorical cells with the paper's boundaries, exported as PNG or CSV.

The instant is the start of the model (when its contact point touches its target) or
an impulse of the last run; the inertia ``D`` of the system there is fixed and every
cell is the closed form, so a map of 100 x 100 cells draws at once.
"""
from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Signal
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFileDialog, QGridLayout, QHBoxLayout, QLabel, QPushButton,
                               QSpinBox, QVBoxLayout, QWidget)

from solver.analysis.contact_instant import InstantError, instant_at_start, instant_from_event
from solver.analysis.impact_map import AXES, BOUNDARIES, KIND_NAMES, Axis, ImpactMap, MapError, impact_map, write_map_csv
from solver.errors import SolverError
from solver.model.validate import ModelError, validate
from solver.results.frames import Results

from ..canvas.axes import axis_label
from .map_image import BOUNDARY_COLOURS, KIND_COLOURS, map_rgb, map_title, write_map_png

#: default axes: quantity -> (low, high)
DEFAULT_RANGES = {"mu_s": (0.0, 1.2), "mu_d": (0.0, 1.2), "e": (0.0, 1.0), "angle": (-80.0, 80.0), "ratio": (-3.0, 3.0)}
START = "start of the model"


#: the impulses of a run offered as instants: a chattering run has tens of thousands
LISTED_IMPULSES = 500


class _AxisEditor(QWidget):
    """Quantity, low, high and cell count of one axis."""

    def __init__(self, name: str, count: int = 100):
        super().__init__()
        self.quantity = QComboBox()
        for key, (label, _unit) in AXES.items():
            self.quantity.addItem(label, key)
        self.low, self.high = QDoubleSpinBox(decimals=3), QDoubleSpinBox(decimals=3)
        for box in (self.low, self.high):
            box.setRange(-89.999, 1000.0)
        self.count = QSpinBox(minimum=2, maximum=2000, value=count)
        self.quantity.currentIndexChanged.connect(lambda _i: self._defaults())
        self.quantity.setCurrentIndex(self.quantity.findData(name))
        self._defaults()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for w in (self.quantity, QLabel("from"), self.low, QLabel("to"), self.high, QLabel("cells"), self.count):
            layout.addWidget(w)

    def _defaults(self) -> None:
        low, high = DEFAULT_RANGES[self.quantity.currentData()]
        self.low.setValue(low)
        self.high.setValue(high)

    def axis(self) -> Axis:
        return Axis(self.quantity.currentData(), self.low.value(), self.high.value(), self.count.value())


class ImpactMapView(QWidget):
    """Choose a contact, an instant and two axes; draw and export the map.

    ``drawn`` is emitted with each new :class:`~solver.analysis.impact_map.ImpactMap`.
    """

    drawn = Signal(object)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.model: dict = {}
        self.events: list[dict] = []
        self.map: ImpactMap | None = None
        self.contact = QComboBox()
        self.instant = QComboBox()
        self.x_axis, self.y_axis = _AxisEditor("mu_s"), _AxisEditor("angle")
        self.law = QComboBox()
        self.law.addItem("the pair's", None)
        for law in ("newton", "poisson", "energetic"):
            self.law.addItem(law, law)
        self.rule = QComboBox()
        self.rule.addItem("μD follows μs at the pair's ratio", "ratio")
        self.rule.addItem("μD (or μs) keeps its value", "fixed")
        self.draw_button = QPushButton("Draw map")
        self.draw_button.clicked.connect(self.draw)
        self.png_button = QPushButton("PNG…")
        self.png_button.clicked.connect(lambda: self._export("PNG images (*.png)", write_map_png))
        self.csv_button = QPushButton("CSV…")
        self.csv_button.clicked.connect(lambda: self._export("CSV files (*.csv)", write_map_csv))
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.plot = pg.PlotWidget(background="w")
        self.plot.addLegend(offset=(-10, 10), brush=pg.mkBrush(255, 255, 255, 230), pen=pg.mkPen("#888"),
                            labelTextColor="k")
        self.image = pg.ImageItem(axisOrder="row-major")
        self.plot.addItem(self.image)
        self._extra: list = []

        grid = QGridLayout()
        grid.addWidget(QLabel("Contact:"), 0, 0)
        grid.addWidget(self.contact, 0, 1)
        grid.addWidget(QLabel("Inertia at:"), 0, 2)
        grid.addWidget(self.instant, 0, 3)
        grid.addWidget(QLabel("x:"), 1, 0)
        grid.addWidget(self.x_axis, 1, 1, 1, 3)
        grid.addWidget(QLabel("y:"), 2, 0)
        grid.addWidget(self.y_axis, 2, 1, 1, 3)
        grid.addWidget(QLabel("Restitution:"), 3, 0)
        grid.addWidget(self.law, 3, 1)
        grid.addWidget(self.rule, 3, 2, 1, 2)
        buttons = QHBoxLayout()
        buttons.addWidget(self.draw_button)
        buttons.addStretch(1)
        buttons.addWidget(QLabel("Export:"))
        buttons.addWidget(self.png_button)
        buttons.addWidget(self.csv_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(grid)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        layout.addWidget(self.plot, 1)
        self._enable()

    # ------------------------------------------------------------------ sources
    def set_model(self, model: dict) -> None:
        """The document's model: its contact pairs, and its start as an instant."""
        self.model = model
        current = self.contact.currentText()
        self.contact.clear()
        self.contact.addItems([c["id"] for c in model.get("contacts", []) if isinstance(c, dict) and "id" in c])
        self.contact.setCurrentText(current)
        self._fill_instants()

    def set_results(self, results: Results | None) -> None:
        """A run's impulses become instants to choose."""
        self.events = [e for e in (results.events if results is not None else []) if e.get("kind") == "impulse"]
        self._fill_instants()

    def _fill_instants(self) -> None:
        self.instant.clear()
        self.instant.addItem(START, None)
        for k, e in enumerate(self.events[:LISTED_IMPULSES]):
            self.instant.addItem(f"impulse {k + 1} of {e['contact']} at t = {e['time_s']:.6g} s ({e['type']})", k)
        if len(self.events) > LISTED_IMPULSES:  # said, not silently cut: a line that cannot be chosen
            self.instant.addItem(f"… {len(self.events) - LISTED_IMPULSES} later impulses not listed (the first "
                                 f"{LISTED_IMPULSES} of the run's {len(self.events)} are)", None)
            self.instant.model().item(self.instant.count() - 1).setEnabled(False)
        self._enable()

    def _enable(self) -> None:
        self.draw_button.setEnabled(self.contact.count() > 0)
        for button in (self.png_button, self.csv_button):
            button.setEnabled(self.map is not None)

    # ------------------------------------------------------------------ map
    def draw(self) -> ImpactMap | None:
        """Compute and draw the map as set up; a problem is shown, not raised."""
        try:
            k = self.instant.currentData()
            if k is None:
                problems = [p for p in validate(self.model) if p.severity == "error"]
                if problems:
                    raise ModelError(problems)
                instant = instant_at_start(self.model, self.contact.currentText())
            else:
                instant = instant_from_event(self.events[k])
                self.contact.setCurrentText(instant.contact)
            m = impact_map(instant, self.x_axis.axis(), self.y_axis.axis(), law=self.law.currentData(),
                           mu_d_rule=self.rule.currentData())
        except (MapError, InstantError, SolverError, ModelError) as exc:
            text = html.escape(str(exc)).replace("\n", "<br>")
            self.message.setText(f"<span style='color:#b00'>The map cannot be drawn: {text}</span>")
            self._clear()  # not the map of the settings before under the red line, nor exported as this one
            return None
        self.map = m
        self.message.setText("<br>".join(html.escape(line) for line in map_title(m)))
        self._show(m)
        self._enable()
        self.drawn.emit(m)
        return m

    def _clear(self) -> None:
        """No map drawn nor to export."""
        self.map = None
        self.image.clear()
        self._remove_extra()
        self._enable()

    def _remove_extra(self) -> None:
        for item in self._extra:
            self.plot.removeItem(item)
        self._extra = []

    def _show(self, m: ImpactMap) -> None:
        self._remove_extra()
        x, y = m.x.values, m.y.values
        dx, dy = x[1] - x[0], y[1] - y[0]
        self.image.setImage(map_rgb(m), autoLevels=False, levels=(0, 255))
        self.image.setRect(QRectF(x[0] - dx / 2, y[0] - dy / 2, dx * len(x), dy * len(y)))
        for kind in m.kinds_present():
            self._add(pg.ScatterPlotItem(symbol="s", size=12, brush=pg.mkBrush(KIND_COLOURS[kind]), pen=pg.mkPen("k"),
                                         name=f"{kind}: {KIND_NAMES[kind]}"))      # a legend swatch, no points
        for name, seg in m.boundaries.items():
            if len(seg):
                self._add(pg.PlotDataItem(seg[:, :, 0].ravel(), seg[:, :, 1].ravel(), connect="pairs",
                                          pen=pg.mkPen(BOUNDARY_COLOURS[name], width=3), name=BOUNDARIES[name]))
        x0, y0 = m.instant_point()
        self._add(pg.PlotDataItem([x0], [y0], pen=None, symbol="x", symbolSize=14, symbolBrush="k", name="this instant"))
        axis_label(self.plot.getPlotItem(), "bottom", *AXES[m.x.name])
        axis_label(self.plot.getPlotItem(), "left", *AXES[m.y.name])
        self.plot.getPlotItem().vb.setRange(xRange=(m.x.low, m.x.high), yRange=(m.y.low, m.y.high), padding=0)

    def _add(self, item) -> None:
        self.plot.addItem(item)
        self._extra.append(item)

    def kind_at(self, x: float, y: float) -> str:
        """The type of the cell nearest ``(x, y)`` (axis units) of the map drawn."""
        i = int(np.argmin(np.abs(self.map.x.values - x)))
        j = int(np.argmin(np.abs(self.map.y.values - y)))
        return self.map.kind_name(j, i)

    def _export(self, filters: str, write) -> None:
        path, _f = QFileDialog.getSaveFileName(self, "Export the impact-type map", "", filters)
        if not path:
            return
        try:
            write(self.map, path)
        except OSError as exc:
            self.message.setText(f"<span style='color:#b00'>{html.escape(f'{path}: {exc.strerror or exc}')}</span>")
            return
        self.message.setText(f"Exported {path}")
