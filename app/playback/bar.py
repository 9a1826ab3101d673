"""The playback toolbar: go to start, step, play / pause, jump between contact events,
loop, a time slider with the time shown, the speed as a real-time factor, the
deflection exaggeration, strain colouring, node traces and following the mechanism.

It drives a :class:`~app.playback.controller.PlaybackController` and a
:class:`~app.playback.layer.PlaybackLayer`, and follows the controller's frame.
Every button's tooltip names its key; the event jumps carry words, not only arrows
(they jump to the previous / next contact event, they do not rewind).
"""
from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox, QLabel, QSlider, QStyle, QToolBar, QToolButton, QWidget

from ..canvas.actions import with_key
from ..document.units import format_quantity
from .controller import SPEEDS, PlaybackController, speed_label
from .layer import STRAIN_MODES, PlaybackLayer

#: label -> factor on the deflection of flexible links from their chords
EXAGGERATIONS = {"Deflection ×1": 1.0, "×10": 10.0, "×100": 100.0, "×1000": 1000.0}


class PlaybackBar(QToolBar):
    """Playback controls for ``playback`` drawing through ``layer``."""

    def __init__(self, playback: PlaybackController, layer: PlaybackLayer, parent: QWidget | None = None):
        super().__init__("Playback", parent)
        self.setObjectName("playback_toolbar")
        self.playback, self.layer = playback, layer
        icon = self.style().standardIcon
        pixmap = QStyle.StandardPixmap
        self.start_action = self._action("Go to start", icon(pixmap.SP_MediaSkipBackward), playback.go_to_start,
                                         "Home")
        self.step_back_action = self._action("Step back one frame", icon(pixmap.SP_ArrowLeft),
                                             lambda: playback.step(-1), "Ctrl+Left")
        self.play_action = self._action("Play / pause", icon(pixmap.SP_MediaPlay), playback.toggle, "Ctrl+Space")
        self.step_forward_action = self._action("Step forward one frame", icon(pixmap.SP_ArrowRight),
                                                lambda: playback.step(1), "Ctrl+Right")
        self.previous_event_action = self._action("Previous contact event", icon(pixmap.SP_MediaSeekBackward),
                                                  playback.previous_event, "Ctrl+Shift+Left", "◂ Event")
        self.next_event_action = self._action("Next contact event", icon(pixmap.SP_MediaSeekForward),
                                              playback.next_event, "Ctrl+Shift+Right", "Event ▸")
        self.loop_action = self._action("Loop", icon(pixmap.SP_BrowserReload), None)
        self.loop_action.setCheckable(True)
        self.loop_action.toggled.connect(playback.set_loop)

        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setToolTip("Scrub through the frames")
        self.slider.setMinimumWidth(160)
        self.slider.valueChanged.connect(self._on_slider)
        self.addWidget(self.slider)
        self.time_label = QLabel()
        self.time_label.setToolTip("Time of the frame shown / end of the run")
        self.time_label.setMinimumWidth(self.fontMetrics().horizontalAdvance("888.8 ms / 888.8 ms "))
        self.addWidget(self.time_label)

        self.speed = self._combo({speed_label(f): f for f in SPEEDS},
                                 "Playback speed as a real-time factor (simulated time per wall-clock time); "
                                 "a new run starts at the one that plays it whole in about 5 s")
        self.speed.setCurrentIndex(self.speed.findData(playback.speed))
        self.speed.currentIndexChanged.connect(lambda _i: playback.set_speed(self.speed.currentData()))
        self.exaggeration = self._combo(EXAGGERATIONS, "Scale of the flexible links' deflection from their chords")
        self.exaggeration.currentIndexChanged.connect(lambda _i: layer.set_exaggeration(self.exaggeration.currentData()))
        self.strain = self._combo(STRAIN_MODES, "Colour the flexible links by strain")
        self.strain.currentIndexChanged.connect(lambda _i: layer.set_strain_mode(self.strain.currentData()))
        self.trace_action = self._action("Trace the selected nodes", icon(pixmap.SP_FileDialogDetailedView), None)
        self.trace_action.setCheckable(True)
        self.follow_action = self._action("Follow the mechanism: keep it in the middle of the view while playing",
                                          icon(pixmap.SP_FileDialogContentsView), None, text="Follow")
        self.follow_action.setCheckable(True)

        playback.frame_count_changed.connect(self._on_count)
        playback.frame_changed.connect(self._on_frame)
        playback.time_changed.connect(self._on_time)
        playback.playing_changed.connect(self._on_playing)
        playback.speed_changed.connect(self._on_speed)
        self._on_count(0)

    def _action(self, tip: str, icon, slot, shortcut: str | None = None, text: str | None = None) -> QAction:
        """A button; ``text`` is shown beside the icon (else the icon alone); the tooltip names the key."""
        action = QAction(icon, text or tip, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setToolTip(with_key(tip, action))
        if slot is not None:
            action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        if text:
            button = self.widgetForAction(action)
            if isinstance(button, QToolButton):
                button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        return action

    def _combo(self, choices: dict, tip: str) -> QComboBox:
        combo = QComboBox()
        combo.setToolTip(tip)
        for label, value in choices.items():
            combo.addItem(label, value)
        self.addWidget(combo)
        return combo

    def _on_slider(self, value: int) -> None:
        if 0 <= value < self.playback.count:
            self.playback.set_time(float(self.playback.times[value]))

    def _on_count(self, count: int) -> None:
        with QSignalBlocker(self.slider):
            self.slider.setRange(0, max(count - 1, 0))
        for action in (self.start_action, self.previous_event_action, self.step_back_action, self.play_action,
                       self.step_forward_action, self.next_event_action):
            action.setEnabled(count > 0)
        self.slider.setEnabled(count > 0)
        if not count:
            self.time_label.setText("")

    def _on_frame(self, index: int) -> None:
        with QSignalBlocker(self.slider):
            self.slider.setValue(index)

    def _on_time(self, t: float) -> None:
        times = self.playback.times
        end = format_quantity(float(times[-1]), "s") if len(times) else ""
        self.time_label.setText(f"{format_quantity(t, 's')} / {end}")

    def _on_speed(self, factor: float) -> None:
        with QSignalBlocker(self.speed):
            self.speed.setCurrentIndex(self.speed.findData(factor))

    def _on_playing(self, playing: bool) -> None:
        pixmap = QStyle.StandardPixmap.SP_MediaPause if playing else QStyle.StandardPixmap.SP_MediaPlay
        self.play_action.setIcon(self.style().standardIcon(pixmap))
