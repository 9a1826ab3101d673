"""The playback toolbar: play / pause, step, jump between contact events, loop, a time
slider, the speed as a real-time factor, the deflection exaggeration, strain
colouring and node traces.

It drives a :class:`~app.playback.controller.PlaybackController` and a
:class:`~app.playback.layer.PlaybackLayer`, and follows the controller's frame.
"""
from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QSlider, QStyle, QToolBar, QWidget

from .controller import DEFAULT_SPEED, SPEEDS, PlaybackController
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
        self.previous_event_action = self._action("Previous contact event", icon(pixmap.SP_MediaSeekBackward),
                                                  playback.previous_event)
        self.step_back_action = self._action("Step back one frame", icon(pixmap.SP_MediaSkipBackward),
                                             lambda: playback.step(-1))
        self.play_action = self._action("Play / pause", icon(pixmap.SP_MediaPlay), playback.toggle)
        self.step_forward_action = self._action("Step forward one frame", icon(pixmap.SP_MediaSkipForward),
                                                lambda: playback.step(1))
        self.next_event_action = self._action("Next contact event", icon(pixmap.SP_MediaSeekForward),
                                              playback.next_event)
        self.loop_action = self._action("Loop", icon(pixmap.SP_BrowserReload), None)
        self.loop_action.setCheckable(True)
        self.loop_action.toggled.connect(playback.set_loop)

        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setToolTip("Scrub through the frames")
        self.slider.setMinimumWidth(220)
        self.slider.valueChanged.connect(self._on_slider)
        self.addWidget(self.slider)

        self.speed = self._combo(SPEEDS, "Playback speed: simulated time per wall-clock time")
        self.speed.setCurrentText(DEFAULT_SPEED)
        self.speed.currentIndexChanged.connect(lambda _i: playback.set_speed(self.speed.currentData()))
        self.exaggeration = self._combo(EXAGGERATIONS, "Scale of the flexible links' deflection from their chords")
        self.exaggeration.currentIndexChanged.connect(lambda _i: layer.set_exaggeration(self.exaggeration.currentData()))
        self.strain = self._combo(STRAIN_MODES, "Colour the flexible links by strain")
        self.strain.currentIndexChanged.connect(lambda _i: layer.set_strain_mode(self.strain.currentData()))
        self.trace_action = self._action("Trace the selected nodes", icon(pixmap.SP_FileDialogDetailedView), None)
        self.trace_action.setCheckable(True)

        playback.frame_count_changed.connect(self._on_count)
        playback.frame_changed.connect(self._on_frame)
        playback.playing_changed.connect(self._on_playing)
        self._on_count(0)

    def _action(self, text: str, icon, slot) -> QAction:
        action = QAction(icon, text, self)
        action.setToolTip(text)
        if slot is not None:
            action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
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
        for action in (self.previous_event_action, self.step_back_action, self.play_action,
                       self.step_forward_action, self.next_event_action):
            action.setEnabled(count > 0)
        self.slider.setEnabled(count > 0)

    def _on_frame(self, index: int) -> None:
        with QSignalBlocker(self.slider):
            self.slider.setValue(index)

    def _on_playing(self, playing: bool) -> None:
        pixmap = QStyle.StandardPixmap.SP_MediaPause if playing else QStyle.StandardPixmap.SP_MediaPlay
        self.play_action.setIcon(self.style().standardIcon(pixmap))
