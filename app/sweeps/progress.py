"""The progress of a sweep: a bar over its runs, the counts, Cancel, and the runs that
failed with their messages (a failed run does not stop the sweep)."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QProgressBar, QPushButton, QVBoxLayout, QWidget


class SweepProgressView(QWidget):
    """Shows a sweep going on; ``cancel_requested`` when the user presses Cancel."""

    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.title = QLabel("No sweep yet: Sweeps ▸ New Sweep…")
        self.title.setWordWrap(True)
        self.bar = QProgressBar()
        self.bar.setFormat("%v of %m runs")
        self.counts = QLabel()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Drop the runs not started, stop those running; the finished rows stay")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.failures = QListWidget()
        self.failures.setToolTip("Runs that failed, with the solver's message")
        row = QHBoxLayout()
        row.addWidget(self.bar, 1)
        row.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addLayout(row)
        layout.addWidget(self.counts)
        layout.addWidget(self.failures, 1)

    def started(self, request) -> None:
        self.title.setText(f"Sweep into {request.folder} on "
                           + (f"the cluster at {request.scheduler}" if request.scheduler
                              else f"a local cluster of {request.workers} workers")
                           + ": starting…")
        self.bar.setRange(0, 0)      # busy until the first run ends
        self.counts.setText("")
        self.failures.clear()
        self.cancel_button.setEnabled(True)

    def show_progress(self, p) -> None:
        self.bar.setRange(0, p.total)
        self.bar.setValue(p.done)
        skipped = f"; {p.skipped} already in the table" if p.skipped else ""
        self.counts.setText(f"{p.completed} completed, {p.failed} failed{skipped}")
        if p.row is not None and p.row.get("status") == "failed":
            self.failures.addItem(f"run {p.row['run']}: {p.row.get('message', '')}")

    def ended(self, outcome, message: str) -> None:
        self.cancel_button.setEnabled(False)
        if outcome is None:
            self.bar.setRange(0, 1)
            self.bar.setValue(0)
            self.title.setText("The sweep could not run:")
            self.counts.setText(message)
            return
        state = "cancelled" if outcome.cancelled else "finished"
        self.title.setText(f"Sweep {state}: {len(outcome.rows)} runs in {outcome.folder / 'sweep.parquet'}")
        if self.bar.maximum() == 0:
            self.bar.setRange(0, 1)
            self.bar.setValue(1)
        self.counts.setText(f"{outcome.completed} completed, {outcome.failed} failed, "
                            f"{outcome.skipped} already in the table")
