"""The optimum dialog: the value of one field of the model that minimises a measure of its run
(:func:`solver.sweeps.find_optimum`, Amirouche & Xie eqs. 28-29), with the objective plotted
against the field's value as the runs come in.

The field is one of the model's numeric fields by path (``moving[prop].position.v1``: where
a sliding support stops), the objective a reduction of a series as the sweeps collect it
(``mean(energy/strain)``).  The runs go on in a worker thread; Cancel stops the current
run at its next step and keeps the best so far.  Closing the dialog, or the window
(:meth:`OptimumDialog.stop`), cancels a search going on and waits for its thread at most
:data:`STOP_LIMIT_S`, then raises :class:`OptimumThreadStuck`, as a run's and a sweep's waits do.
"""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QDeadlineTimer, QThread
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout,
    QWidget,
)

from solver.model.fields import unit_at, with_defaults
from solver.model.moving_fields import MOVING
from solver.model.paths import PathError, get_path, numeric_paths, path_keys
from solver.model.schema import GROUND_JOINTS, MODEL
from solver.model.timefn import TimeFunction
from solver.sweeps import Optimum, find_optimum
from solver.sweeps.scalars import column_unit

from ..canvas import geometry as geo
from ..canvas.axes import axis_label
from ..document.entities import EntityRef, find_entity
from .worker import SweepTask, start_task

#: objectives offered (any REDUCTION(SERIES) may be typed)
OBJECTIVES = ("mean(energy/strain)", "max(energy/strain)", "mean(energy/kinetic)")
#: a moving position's starter bounds stay 1/HELD_PARTS of its link from an end a joint holds
HELD_PARTS = 20
#: how long (s) closing waits for a search's thread once cancelled (the run under way stops at its next step)
STOP_LIMIT_S = 300.0


class OptimumThreadStuck(RuntimeError):
    """The search's thread did not end within :data:`STOP_LIMIT_S` of being cancelled."""


def starter_bounds(model: dict, path: str) -> tuple[float, float] | None:
    """Bounds to start from for the field at ``path``: for a moving support's, mass's or force's
    position (m), the stretch of the link it travels between the points held either side of the
    field's value, 1/:data:`HELD_PARTS` of the link off each (:func:`_held_gap`); else half to one and
    a half times the field's value (0 to 1 for a zero); None for a path that names no number.

    >>> doc = {"nodes": [{"id": "A", "x": 0.0, "y": 0.0}, {"id": "B", "x": 6.0, "y": 0.0}],
    ...        "links": [{"id": "beam", "kind": "flexible", "nodes": ["A", "B"]}],
    ...        "moving": [{"id": "prop", "kind": "support", "link": "beam",
    ...                    "position": {"kind": "ramp", "t1": 1.0, "v0": 1.0, "v1": 3.0}}]}
    >>> starter_bounds(doc, "moving[prop].position.v1"), starter_bounds(doc, "nodes[B].x")
    ((0.0, 6.0), (3.0, 9.0))
    >>> doc["joints"] = [{"id": "clamp", "kind": "fixed", "node": "A"}]
    >>> starter_bounds(doc, "moving[prop].position.v1")
    (0.3, 6.0)
    >>> doc["moving"].append({"id": "stop", "kind": "support", "link": "beam", "position": {"value": 4.5}})
    >>> starter_bounds(doc, "moving[prop].position.v1"), starter_bounds(doc, "moving[prop].position.t1")
    ((0.3, 4.2), (0.5, 1.5))
    """
    try:
        keys = path_keys(model, path)
        value = get_path(model, path)
    except (PathError, KeyError, IndexError, TypeError, ValueError):
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    if len(keys) > 3 and keys[0] == "moving" and keys[2] == "position" and isinstance(keys[1], int) \
            and unit_at(MODEL, keys, model) == "m":
        gap = _held_gap(model, model["moving"][keys[1]], value)
        if gap is not None:
            return gap
    return (0.0, 1.0) if value == 0 else tuple(sorted((0.5 * value, 1.5 * value)))


def _held_gap(model: dict, item: dict, s: float) -> tuple[float, float] | None:
    """The stretch of ``item``'s link about the arc length ``s`` (m) between the points held there,
    1/:data:`HELD_PARTS` of the link off each (a quarter of the stretch, when that is less): an end a
    joint holds to the ground, and for a support, where each other support on the link travels during
    the run (a support on a held point holds the link twice, and the run cannot go on). The travel
    of another support across ``s`` is passed over (the model already holds the link twice there)."""
    link_id = item.get("link", "")
    ends = geo.link_ends(model, link_id)
    if ends is None:
        return None
    length = math.dist(*ends)
    first, second = find_entity(model, EntityRef("links", link_id))[1]["nodes"][:2]
    held_nodes = {j.get("node") for j in model.get("joints", []) if j.get("kind") in GROUND_JOINTS}
    (low, low_held), (high, high_held) = (0.0, first in held_nodes), (length, second in held_nodes)
    if item.get("kind") == "support":
        end_time = model.get("solver", {}).get("end_time", 0.0)
        for other in model.get("moving", []):
            if other is item or other.get("kind") != "support" or other.get("link") != link_id:
                continue
            start, stop = _travel(other, end_time)
            if low <= stop < s and stop <= length:
                low, low_held = stop, True
            if s < start <= high and start >= 0.0:
                high, high_held = start, True
    margin = min(length / HELD_PARTS, (high - low) / 4)
    return low + margin * low_held, high - margin * high_held


def _travel(item: dict, end_time: float) -> tuple[float, float]:
    """The least and the greatest arc length (m) of a moving item from t = 0 to ``end_time`` (s): its
    position at the ends, at its function's kinks and at 400 steps between (nan while its function is
    being edited into shape)."""
    try:
        f = TimeFunction(with_defaults(MOVING, item)["position"])
        times = [*np.linspace(0.0, end_time, 401), *(t for t in f.breakpoints() if 0.0 <= t <= end_time)]
        s = [f.value(t) for t in times]
    except (KeyError, TypeError, ValueError):
        return math.nan, math.nan
    return min(s), max(s)


class OptimumWorker(SweepTask):
    """Runs :func:`find_optimum` on a copy of ``model``: progress is the list of runs so far,
    (field value, objective); the outcome the :class:`~solver.sweeps.Optimum`."""

    def __init__(self, model: dict, path: str, bounds: tuple[float, float], objective: str, scan: int):
        super().__init__(model)
        self.args = (path, bounds, objective)
        self.scan = scan

    def work(self, progress, cancel):
        return find_optimum(self.model, *self.args, scan=self.scan, progress=lambda o: progress(list(o.runs)),
                            cancel=cancel)


class OptimumDialog(QDialog):
    """Find and plot the optimum of a field of ``model``."""

    def __init__(self, model: dict, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Optimum of a Field")
        self.model = model
        self.optimum: Optimum | None = None
        self._thread: QThread | None = None
        self._worker: OptimumWorker | None = None

        self.field = QComboBox()
        self.field.setEditable(True)
        paths = numeric_paths(model)
        self.field.addItems(paths)
        moving = [p for p in paths if p.startswith("moving[") and ".position." in p]
        if moving:
            self.field.setCurrentText(moving[-1])
        self.low, self.high = QDoubleSpinBox(), QDoubleSpinBox()
        for box in (self.low, self.high):
            box.setDecimals(6)
            box.setRange(-1e9, 1e9)
        self.field.currentTextChanged.connect(self._set_starter_bounds)
        self._set_starter_bounds(self.field.currentText())
        self.objective = QComboBox()
        self.objective.setEditable(True)
        self.objective.addItems(OBJECTIVES)
        self.scan = QSpinBox()
        self.scan.setRange(3, 50)
        self.scan.setValue(5)
        bounds = QHBoxLayout()
        bounds.addWidget(self.low)
        bounds.addWidget(self.high)
        form = QFormLayout()
        form.addRow("Field (path)", self.field)
        form.addRow("Bounds (low, high)", bounds)
        form.addRow("Objective to minimise", self.objective)
        form.addRow("Values scanned first", self.scan)

        self.plot = pg.PlotWidget(background="w")
        self.plot.setLabel("left", "objective")
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.curve = self.plot.plot([], [], pen=pg.mkPen("#1f6fb4", width=2), symbol="o", symbolSize=7)
        self.best = self.plot.plot([], [], pen=None, symbol="star", symbolSize=16, symbolBrush="#c0392b")
        self.status = QLabel("Set the field, its bounds and the objective, then Run.")
        self.status.setWordWrap(True)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.run_button = self.buttons.addButton("Run", QDialogButtonBox.ButtonRole.ActionRole)
        self.cancel_button = self.buttons.addButton("Cancel Search", QDialogButtonBox.ButtonRole.ActionRole)
        self.cancel_button.setEnabled(False)
        self.run_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.resize(560, 520)

    def _set_starter_bounds(self, path: str) -> None:
        bounds = starter_bounds(self.model, path.strip())
        if bounds is not None:
            self.low.setValue(bounds[0])
            self.high.setValue(bounds[1])

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.isRunning()

    def start(self) -> bool:
        """Start the search with the dialog's settings; False when it cannot start."""
        if self.running:
            return False
        path, objective = self.field.currentText().strip(), self.objective.currentText().strip()
        axis_label(self.plot.getPlotItem(), "bottom", path, "-")  # a field's value, in its unit
        axis_label(self.plot.getPlotItem(), "left", objective, column_unit(objective))
        self._show_runs([])
        self.optimum = None  # the search before's optimum, not shown under this one's axes
        self.best.setData([], [])
        self._worker = OptimumWorker(self.model, path, (self.low.value(), self.high.value()), objective,
                                     self.scan.value())
        self._thread = start_task(self._worker, self)
        self._worker.progressed.connect(self._show_runs)
        self._worker.finished.connect(self._on_finished)
        self._worker.failed.connect(self._on_failed)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.status.setText(f"Searching {path} over [{self.low.value():g}, {self.high.value():g}]…")
        self._thread.start()
        return True

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.cancel()

    def _show_runs(self, runs: list[tuple[float, float]]) -> None:
        ordered = sorted(r for r in runs if np.isfinite(r[1]))
        self.curve.setData([x for x, _v in ordered], [v for _x, v in ordered])
        if runs:
            self.status.setText(f"{len(runs)} runs; last: {runs[-1][0]:.6g} → {runs[-1][1]:.6g}")

    def _on_finished(self, opt: Optimum) -> None:
        self.optimum = opt
        self._show_runs(opt.runs)
        if not math.isfinite(opt.value):  # every run failed (or none ran): no star, whose nan the plot cannot place
            said = f"no run gave a value of {opt.objective} ({len(opt.runs)} runs, each failed)" if opt.runs \
                else "no run finished"
            self.status.setText(("Cancelled; " if opt.cancelled else "") + said)
        else:
            self.best.setData([opt.x], [opt.value])
            self.status.setText(f"{'Cancelled; best so far' if opt.cancelled else 'Optimum'}: {opt.path} = "
                                f"{opt.x:.6g}, {opt.objective} = {opt.value:.6g} ({len(opt.runs)} runs)")
        self._done()

    def _on_failed(self, message: str) -> None:
        self.status.setText("Cannot search:\n" + message)
        self._done()

    def _done(self) -> None:
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def stop(self, limit_s: float | None = None) -> None:
        """Cancel a search going on and wait for its thread to end, at most ``limit_s`` seconds (default
        :data:`STOP_LIMIT_S`); past it raise :class:`OptimumThreadStuck` (the thread is kept: the search
        ends in its own time)."""
        if not self.running:
            return
        limit_s = STOP_LIMIT_S if limit_s is None else limit_s
        self.cancel()
        if not self._thread.wait(QDeadlineTimer(int(limit_s * 1000))):
            raise OptimumThreadStuck(f"the optimum search did not end within {limit_s:g} s of being cancelled")

    def done(self, result: int) -> None:  # noqa: D401 (Qt override)
        """Closing the dialog stops the search and waits for its thread (:meth:`stop`)."""
        self.stop()
        super().done(result)
