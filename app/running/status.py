"""The run's state in the status bar: while it goes on, a bar of simulated time, steps
per second and the time left, with a Cancel button beside it; afterwards, how it ended.

A run that sends no frame for :data:`QUIET_S` says so, counting the seconds, and why that may be
(the first run of a contact model compiles its kernels: minutes on a busy machine, during which
it read ``3 s left`` and Cancel seemed to do nothing); a cancel asked says that the run stops
after the step it is in."""
from __future__ import annotations

import math
import time

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QAction, QPainter, QPaintEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QToolButton, QWidget

from ..document.units import format_quantity

#: steps of the progress bar
RESOLUTION = 1000
#: s without a frame after which the status counts the quiet seconds
QUIET_S = 3.0
#: ms between two looks at how long the run has been quiet
QUIET_CHECK_MS = 1000


def progress_text(t: float, t_end: float, steps_per_s: float, eta: float) -> str:
    """``t = 12 ms / 83.78 ms · 950 steps/s · 3 s left`` (no estimate before the first step).

    >>> progress_text(0.012, 0.0837758041, 950.4, 3.2)
    't = 12 ms / 83.78 ms · 950 steps/s · 3 s left'
    """
    left = f"{eta:.0f} s left" if math.isfinite(eta) else "estimating"
    return f"t = {format_quantity(t, 's')} / {format_quantity(t_end, 's')} · {steps_per_s:.0f} steps/s · {left}"


def quiet_text(t: float, t_end: float, quiet: float, cancelling: bool) -> str:
    """What a run that sent no frame for ``quiet`` s is doing, at simulated time ``t`` of ``t_end``.

    >>> quiet_text(0.01964, 0.04, 12.3, False)
    't = 19.64 ms / 40 ms · no new frame for 12 s (a first run with a contact model compiles it: a minute or more, once)'
    >>> quiet_text(0.01964, 0.04, 12.3, True)
    'Cancelling at t = 19.64 ms: the run stops after the step (or compilation) it is in · 12 s'
    >>> quiet_text(0.0, math.nan, 4.0, False)  # before the first frame: no end time yet
    'starting · no frame yet for 4 s (a first run with a contact model compiles it: a minute or more, once)'
    """
    at = f"t = {format_quantity(t, 's')}"
    if cancelling:
        return f"Cancelling at {at}: the run stops after the step (or compilation) it is in · {quiet:.0f} s"
    where = f"{at} / {format_quantity(t_end, 's')} · no new frame" if math.isfinite(t_end) else "starting · no frame yet"
    return f"{where} for {quiet:.0f} s (a first run with a contact model compiles it: a minute or more, once)"


#: px the status line keeps however long its text (the status bar's other parts share the rest)
LINE_MIN_WIDTH = 120


class _Line(QLabel):
    """A one-line label that asks no more room than :data:`LINE_MIN_WIDTH` and ends in … where its
    text is longer than the room it has; :meth:`text` stays whole. (A failed run's line made the status
    bar ask 1304 px: at 1280 it was cut mid-word, the cursor's coordinates pushed out.)"""

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(min(LINE_MIN_WIDTH, super().minimumSizeHint().width()), super().minimumSizeHint().height())

    def shown(self) -> str:
        """The text as drawn: elided to the label's width."""
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, self.contentsRect().width())

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        painter = QPainter(self)
        painter.drawText(self.contentsRect(), int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), self.shown())


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
        self.label = _Line()
        self.cancel_button = QToolButton()
        self.cancel_button.setDefaultAction(cancel_action)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.bar)
        layout.addWidget(self.label)
        layout.addWidget(self.cancel_button)
        self._last = (0.0, math.nan)  # the last progress's simulated time and end time (s)
        self._heard = time.monotonic()  # when the last progress (or the start) came
        self._cancelling = False
        self._quiet = QTimer(self)
        self._quiet.setInterval(QUIET_CHECK_MS)
        self._quiet.timeout.connect(self._check_quiet)
        cancel_action.triggered.connect(self._cancel_asked)
        self.clear()

    def started(self) -> None:
        self.bar.setValue(0)
        self.label.setText("Run starting")
        self._last, self._heard, self._cancelling = (0.0, math.nan), time.monotonic(), False
        self._quiet.start()
        for widget in (self.bar, self.cancel_button, self):
            widget.setVisible(True)

    def show_progress(self, t: float, t_end: float, steps_per_s: float, eta: float) -> None:
        self._last, self._heard = (t, t_end), time.monotonic()
        self.bar.setValue(round(RESOLUTION * min(max(t / t_end, 0.0), 1.0)) if t_end > 0 else 0)
        self.label.setText("Running: " + progress_text(t, t_end, steps_per_s, eta))

    def _cancel_asked(self) -> None:
        if self._quiet.isActive():
            self._cancelling = True
            self._check_quiet(force=True)

    def _check_quiet(self, force: bool = False) -> None:
        """A run quiet for :data:`QUIET_S` (or one being cancelled): the quiet seconds, and why."""
        quiet = time.monotonic() - self._heard
        if force or quiet >= QUIET_S:
            running = "" if self._cancelling else ("Running: " if math.isfinite(self._last[1]) else "Run ")
            self.label.setText(running + quiet_text(*self._last, quiet, self._cancelling))

    def ended(self, text: str, details: str = "") -> None:
        """The run ended: ``text`` says how (``Run completed: 501 frames, t = 83.78 ms``);
        ``details`` what it warns of in full: both in the label's tool tip (the line may be elided)."""
        self._quiet.stop()
        self.bar.setVisible(False)
        self.cancel_button.setVisible(False)
        self.label.setText(text)
        self.label.setToolTip("\n\n".join(t for t in (text, details) if t))
        self.setVisible(True)

    def clear(self) -> None:
        """No run (yet) for the model shown."""
        self._quiet.stop()
        self.label.setText("")
        self.label.setToolTip("")
        self.setVisible(False)
