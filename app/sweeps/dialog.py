"""The sweep dialog: what to vary, the design, what to collect, where the table goes and
which cluster runs it.

Each varied field is a row: its path (a list of the model's numeric fields, or typed:
``solver.max_iterations`` works before the model sets it) and its values, written as
on the command line — ``0.1:0.9:9`` (a range in equal steps) or ``0.2, 0.5, 0.8`` (a
list).  The dialog counts the runs as the user types and refuses to close on a sweep
that cannot run, naming every problem (each variant is validated first, as
:func:`solver.sweeps.build_variants` does).
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel,
    QLineEdit, QPushButton, QRadioButton, QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from solver.model.paths import numeric_paths
from solver.sweeps import SweepError, SweepSpec, build_variants, parse_vary, plan_sweep
from solver.sweeps.scheduler_probe import scheduler_endpoint
from solver.sweeps.cluster import default_workers

#: design combo entries: label -> design name
DESIGNS = {"Full factorial (every combination)": "grid", "Side by side (zip)": "zip", "Latin hypercube": "lhs"}


@dataclass(frozen=True)
class SweepRequest:
    """What the dialog asks for: the spec, the folder, and the cluster (a scheduler
    address, or ``workers`` local processes)."""

    spec: SweepSpec
    folder: Path
    scheduler: str | None
    workers: int | None


class SweepDialog(QDialog):
    """Set up a sweep of ``model``; :meth:`request` after ``exec()`` accepted."""

    def __init__(self, model: dict, folder: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("New Parameter Sweep")
        self.model = model
        self.paths = numeric_paths(model)
        self._request: SweepRequest | None = None

        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels(["Field (path)", "Values: low:high:count, or a, b, c"])
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setColumnWidth(0, 260)
        self.add_button = QPushButton("Add field")
        self.add_button.clicked.connect(lambda: self.add_parameter())
        self.remove_button = QPushButton("Remove field")
        self.remove_button.clicked.connect(self._remove_selected)
        self.design = QComboBox()
        self.design.addItems(list(DESIGNS))
        self.samples = QSpinBox(minimum=1, maximum=100_000, value=20)
        self.seed = QSpinBox(minimum=0, maximum=2**31 - 1)
        self.collect = QLineEdit()
        self.collect.setPlaceholderText("max(contact/tip/F_n); energy.total.max_abs_drift_J")
        self.collect.setToolTip("More columns, separated by ';': REDUCTION(SERIES) with REDUCTION one of max, min, "
                                "absmax, mean, initial, final, or a path into the run's summary.json")
        self.folder = QLineEdit(folder)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        self.keep_results = QCheckBox("Keep each run's results folder (to replay it without solving)")
        self.local = QRadioButton("Local cluster, started for the sweep")
        self.local.setChecked(True)
        self.remote = QRadioButton("Existing cluster, scheduler at")
        group = QButtonGroup(self)
        group.addButton(self.local)
        group.addButton(self.remote)
        self.workers = QSpinBox(minimum=1, maximum=1024, value=default_workers(), suffix=" workers")
        self.scheduler = QLineEdit()
        self.scheduler.setPlaceholderText("tcp://host:8786")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.run_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.run_button.setText("Run sweep")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

        row = QHBoxLayout()
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        local_row = QHBoxLayout()
        local_row.addWidget(self.local)
        local_row.addWidget(self.workers)
        local_row.addStretch(1)
        remote_row = QHBoxLayout()
        remote_row.addWidget(self.remote)
        remote_row.addWidget(self.scheduler, 1)
        form = QFormLayout()
        form.addRow("Design:", self.design)
        form.addRow("Samples (Latin hypercube):", self.samples)
        form.addRow("Seed (Latin hypercube):", self.seed)
        form.addRow("Also collect:", self.collect)
        form.addRow("Sweep folder:", folder_row)
        form.addRow("", self.keep_results)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Vary these fields of the model:"))
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addLayout(form)
        layout.addLayout(local_row)
        layout.addLayout(remote_row)
        layout.addWidget(self.summary)
        layout.addWidget(buttons)
        self.resize(640, 560)

        for signal in (self.design.currentIndexChanged, self.samples.valueChanged, self.seed.valueChanged):
            signal.connect(lambda *_: self._update())
        self.collect.textChanged.connect(lambda *_: self._update())
        self.table.itemChanged.connect(lambda *_: self._update())
        self.add_parameter()

    # ------------------------------------------------------------------ rows
    def add_parameter(self, path: str = "", values: str = "") -> None:
        """A new row varying ``path`` over ``values`` (the user fills in what is empty)."""
        row = self.table.rowCount()
        self.table.insertRow(row)
        combo = QComboBox()
        combo.setEditable(True)
        combo.addItems(self.paths)
        combo.setCurrentText(path)
        combo.currentTextChanged.connect(lambda *_: self._update())
        self.table.setCellWidget(row, 0, combo)
        self.table.setItem(row, 1, QTableWidgetItem(values))
        self._update()

    def _remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()} or {self.table.rowCount() - 1}, reverse=True)
        for row in rows:
            if row >= 0:
                self.table.removeRow(row)
        self._update()

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Sweep folder", self.folder.text())
        if folder:
            self.folder.setText(folder)

    # ------------------------------------------------------------------ spec
    def spec(self) -> SweepSpec:
        """The sweep as set up now; :class:`SweepError` names what is wrong."""
        problems, params = [], []
        for row in range(self.table.rowCount()):
            path = self.table.cellWidget(row, 0).currentText().strip()
            item = self.table.item(row, 1)
            values = item.text().strip() if item is not None else ""
            if not path and not values:
                continue
            try:
                params.append(parse_vary(f"{path}={values}"))
            except SweepError as exc:
                problems.append(f"row {row + 1}: " + exc.problems[0].removeprefix(f"--vary {path}={values}: "))
        design = DESIGNS[self.design.currentText()]
        collect = tuple(c.strip() for c in self.collect.text().replace("\n", ";").split(";") if c.strip())
        spec = SweepSpec(tuple(params), design=design, samples=self.samples.value() if design == "lhs" else None,
                         seed=self.seed.value(), collect=collect, keep_results=self.keep_results.isChecked())
        problems += spec.problems()
        if problems:
            raise SweepError(problems)
        return spec

    def _update(self) -> None:
        self.samples.setEnabled(DESIGNS[self.design.currentText()] == "lhs")
        self.seed.setEnabled(DESIGNS[self.design.currentText()] == "lhs")
        try:
            spec = self.spec()
        except SweepError as exc:
            self.summary.setText(_error_html(exc.problems[:6]))
            return
        self.summary.setText(_error_html([spec.over_cap()]) if spec.over_cap() else f"{spec.run_count} runs")

    def accept(self) -> None:
        """Close only on a sweep that can run: every variant valid, the quantities to collect known, a folder
        it may go on in (not a file, nor one of another model's sweep), a scheduler."""
        problems = []
        folder = self.folder.text().strip()
        try:
            spec = self.spec()
            if spec.over_cap():  # build_variants would measure a run to say what it costs: not here
                raise SweepError([spec.over_cap()])
            # as the sweep checks before it runs (the collected quantities, the folder), so that the dialog,
            # not a box after it, says what is wrong: the rows typed stay
            plan_sweep(self.model, spec, folder) if folder else build_variants(self.model, spec)
        except SweepError as exc:
            problems += exc.problems
        except OSError as exc:  # a file of the folder that is a folder or a link
            problems.append(f"Sweep folder: {exc}")
        if not folder:
            problems.append("Sweep folder: choose where the table goes")
        if self.remote.isChecked() and not self.scheduler.text().strip():
            problems.append("Scheduler: give the address of the cluster's scheduler (tcp://host:port)")
        elif self.remote.isChecked():
            try:
                scheduler_endpoint(self.scheduler.text().strip())
            except SweepError as exc:
                problems += [f"Scheduler: {p}" for p in exc.problems]
        if problems:
            self.summary.setText(_error_html(problems[:12]))
            return
        self._request = SweepRequest(spec, Path(folder),
                                     self.scheduler.text().strip() if self.remote.isChecked() else None,
                                     None if self.remote.isChecked() else self.workers.value())
        super().accept()

    def request(self) -> SweepRequest | None:
        """The accepted sweep (None before acceptance)."""
        return self._request


def _error_html(problems: list[str]) -> str:
    return "<span style='color:#b00'>" + "<br>".join(html.escape(p) for p in problems) + "</span>"
