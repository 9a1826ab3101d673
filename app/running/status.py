"""The run's state in the status bar: while it goes on, a bar of simulated time, steps
per second and the time left, with a Cancel button beside it; afterwards, how it ended."""
from __future__ import annotations

import math

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QToolButton, QWidget

from ..document.units import format_quantity

#: steps of the progress bar
RESOLUTION = 1000


def progress_text(t: float, t_end: float, steps_per_s: float, eta: float) -> str:
    """``t = 12 ms / 83.78 ms · 950 steps/s · 3 s left`` (no estimate before the first step).

    >>> progress_text(0.012, 0.0837758041, 950.4, 3.2)
    't = 12 ms / 83.78 ms · 950 steps/s · 3 s left'
    """
    left = f"{eta:.0f} s left" if math.isfinite(eta) else "estimating"
    return f"t = {format_quantity(t, 's')} / {format_quantity(t_end, 's')} · {steps_per_s:.0f} steps/s · {left}"


class RunStatus(QWidget):
    """What the current run is doing, or how it ended; ``cancel_action`` is the button's action.

    While a run goes on: the bar, the progress text and Cancel.  After it: one line
    saying how it ended (kept until the next run, or until another model is opened).
    """

    def __init__(self, cancel_action: QAction, parent: QWidget | None = None):
        super().__init__(parent)
        self.bar = QProgressBar()
        self.bar.setRange(0, RESOLUTION)
        self.bar.setTextVisible(False)
        self.bar.setMaximumWidth(160)
        self.label = QLabel()
        self.cancel_button = QToolButton()
        self.cancel_button.setDefaultAction(cancel_action)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.bar)
        layout.addWidget(self.label)
        layout.addWidget(self.cancel_button)
        self.clear()

    def started(self) -> None:
        self.bar.setValue(0)
        self.label.setText("Run starting")
        for widget in (self.bar, self.cancel_button, self):
            widget.setVisible(True)

    def show_progress(self, t: float, t_end: float, steps_per_s: float, eta: float) -> None:
        self.bar.setValue(round(RESOLUTION * min(max(t / t_end, 0.0), 1.0)) if t_end > 0 else 0)
        self.label.setText("Running: " + progress_text(t, t_end, steps_per_s, eta))

    def ended(self, text: str, details: str = "") -> None:
        """The run ended: ``text`` says how (``Run completed: 501 frames, t = 83.78 ms``);
        ``details``, shown as the label's tool tip, what it warns of in full."""
        self.bar.setVisible(False)
        self.cancel_button.setVisible(False)
        self.label.setText(text)
        self.label.setToolTip(details)
        self.setVisible(True)

    def clear(self) -> None:
        """No run (yet) for the model shown."""
        self.label.setText("")
        self.label.setToolTip("")
        self.setVisible(False)
