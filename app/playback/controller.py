"""Playback of a run's frames: the current frame, play / pause at a real-time factor,
stepping, scrubbing, looping, jumping between contact events.

:class:`PlaybackController` reads a list of :class:`~solver.results.frames.Frame` that may
still grow while the solver runs (:meth:`PlaybackController.frames_grew`); until the
user takes over it *follows* the run, showing the newest frame.  Playing advances the
simulated time by the wall time elapsed times :attr:`~PlaybackController.speed`
(impacts last milliseconds: a new run's default factor plays it whole in about
5 s, :func:`default_speed`) and shows the last frame at or before it.  Views listen to ``frame_changed`` and ``time_changed``; plots share the
time cursor through :meth:`~PlaybackController.set_time`.
"""
from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal, Slot

from solver.results.frames import Frame, frame_times

#: the real-time factors offered: 1/n with n = 1, 2, 4, 5 times a power of ten up to
#: 1/50 000 (impacts last microseconds), and 2×, 5×, 10×
SPEEDS = tuple(sorted({1.0 / (m * 10 ** k) for k in range(5) for m in (1, 2, 4, 5)} | {2.0, 5.0, 10.0}))
#: wall-clock time the default speed plays a whole run in, s
WHOLE_RUN_S = 5.0
#: event kinds the next / previous event buttons stop at
CONTACT_EVENT_KINDS = ("impulse", "contact_start")
#: timer interval while playing, ms (about 60 frames a second)
TICK_MS = 16


def speed_label(factor: float) -> str:
    """A real-time factor as shown: ``1/40×``, ``1×``, ``2×``.

    >>> speed_label(0.025), speed_label(1.0), speed_label(2.0)
    ('1/40×', '1×', '2×')
    """
    return f"1/{round(1.0 / factor)}×" if factor < 1.0 else f"{factor:g}×"


def default_speed(duration: float) -> float:
    """The offered factor closest (on a log scale) to playing ``duration`` s of simulated time in
    :data:`WHOLE_RUN_S` of wall time; 1× for an empty run.

    >>> speed_label(default_speed(0.0837758041)), speed_label(default_speed(0.2)), speed_label(default_speed(3.0))
    ('1/50×', '1/20×', '1/2×')
    """
    if not duration > 0.0:
        return 1.0
    target = duration / WHOLE_RUN_S
    return min(SPEEDS, key=lambda f: abs(np.log(f / target)))


def frame_at(times: np.ndarray, t: float) -> int:
    """Index of the last frame at or before ``t`` (the first when ``t`` is before them all)."""
    return max(int(np.searchsorted(times, t, side="right")) - 1, 0)


class PlaybackController(QObject):
    """The current frame of a run and the clock that moves it."""

    #: index of the frame shown
    frame_changed = Signal(int)
    #: simulated time of the playback cursor, s
    time_changed = Signal(float)
    #: playing or paused
    playing_changed = Signal(bool)
    #: the number of frames available (it grows during a run)
    frame_count_changed = Signal(int)
    #: the real-time factor (a new run sets its default, :func:`default_speed`)
    speed_changed = Signal(float)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.frames: list[Frame] = []
        self.events: list[dict] = []
        self.times = np.empty(0)
        self.index = -1
        #: the playback cursor's simulated time, s
        self.time = 0.0
        self.speed = 1.0
        self.loop = False
        #: showing the newest frame as a run produces them
        self.following = False
        #: more frames may still come (a run is going on)
        self.growing = False
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)
        self._wall = 0.0

    # ------------------------------------------------------------------ frames
    def set_frames(self, frames: list[Frame], events: list[dict] | None = None, growing: bool = False,
                   duration: float | None = None) -> None:
        """Play ``frames`` (a list that may grow while ``growing``); follow it while it grows.

        The speed becomes the default for the run's ``duration`` (s; default: the
        frames' time span), so that it plays in about :data:`WHOLE_RUN_S`.
        """
        self.pause()
        self.frames, self.events = frames, list(events or [])
        self.times = frame_times(frames)
        if duration is None:
            duration = float(self.times[-1] - self.times[0]) if len(self.times) else 0.0
        if duration > 0.0:
            self.set_speed(default_speed(duration))
        self.growing = self.following = growing
        self.index = -1
        self.frame_count_changed.emit(len(frames))
        if frames:
            self.set_index(len(frames) - 1 if growing else 0)

    def frames_grew(self) -> None:
        """More frames were appended to the list (a run is producing them)."""
        count = len(self.frames)
        if count > len(self.times):
            times = getattr(self.frames, "times", None)  # a run's frames keep every time (app.running.run_frames)
            new = (np.asarray(times[len(self.times):count], dtype=float) if times is not None else
                   np.array([f.time for f in self.frames[len(self.times):count]], dtype=float))
            self.times = np.concatenate([self.times, new])
            self.frame_count_changed.emit(count)
            if self.following or self.index < 0:
                self.set_index(count - 1)

    def finish(self, frames: list[Frame], events: list[dict]) -> None:
        """The run ended: its final frame list and events (the cursor stays where it is)."""
        self.frames, self.events, self.growing, self.following = frames, list(events), False, False
        self.times = frame_times(frames)
        self.frame_count_changed.emit(len(frames))
        if frames:
            self.set_index(min(max(self.index, 0), len(frames) - 1))

    @property
    def count(self) -> int:
        return len(self.times)

    @property
    def frame(self) -> Frame | None:
        return self.frames[self.index] if 0 <= self.index < self.count else None

    # ------------------------------------------------------------------ cursor
    def set_index(self, index: int) -> None:
        """Show frame ``index`` (clamped) and put the time cursor on it."""
        if not self.count:
            return
        index = min(max(int(index), 0), self.count - 1)
        self._show(index, float(self.times[index]))

    @Slot(float)
    def set_time(self, t: float) -> None:
        """Put the cursor at ``t`` (s): the user scrubs, so stop following the run."""
        self.following = False
        if self.count:
            self._show(frame_at(self.times, t), float(t))

    def _show(self, index: int, t: float) -> None:
        changed = index != self.index
        self.index, self.time = index, t
        if changed:
            self.frame_changed.emit(index)
        self.time_changed.emit(t)

    def step(self, frames: int) -> None:
        """Step ``frames`` frames forward (negative: back), pausing playback."""
        self.pause()
        self.following = False
        self.set_index(self.index + frames)

    def next_event(self) -> None:
        """Jump to the first frame after the next contact event (impulse or contact start); past
        the last one (where a run that was followed to its end stands), to the first."""
        times = [e["time_s"] for e in self._contact_events()]
        later = [t for t in times if t > self.time + 1e-12]
        if later or times:
            self._jump(min(later or times), after=True)

    def previous_event(self) -> None:
        """Jump to the last frame before the previous contact event."""
        earlier = [e["time_s"] for e in self._contact_events() if e["time_s"] < self.time - 1e-12]
        if earlier:
            self._jump(max(earlier), after=False)

    def _contact_events(self) -> list[dict]:
        return [e for e in self.events if e.get("kind") in CONTACT_EVENT_KINDS]

    def _jump(self, t: float, after: bool) -> None:
        self.pause()
        self.following = False
        if not self.count:
            return
        index = int(np.searchsorted(self.times, t, side="left" if after else "right"))
        index = index if after else index - 1
        index = min(max(index, 0), self.count - 1)
        self._show(index, t)

    # ------------------------------------------------------------------ clock
    @property
    def playing(self) -> bool:
        return self._timer.isActive()

    def play(self) -> None:
        """Play from the cursor (from the start when it is at the end of a finished run)."""
        if not self.count or self.playing:
            return
        self.following = False
        if self.index >= self.count - 1 and not self.growing:
            self.set_index(0)
        self._wall = time.perf_counter()
        self._timer.start()
        self.playing_changed.emit(True)

    def pause(self) -> None:
        if self.playing:
            self._timer.stop()
            self.playing_changed.emit(False)

    def toggle(self) -> None:
        self.pause() if self.playing else self.play()

    def set_speed(self, factor: float) -> None:
        """Real-time factor: simulated seconds per wall-clock second."""
        if float(factor) != self.speed:
            self.speed = float(factor)
            self.speed_changed.emit(self.speed)

    def go_to_start(self) -> None:
        """Pause and show the first frame."""
        self.pause()
        self.following = False
        self.set_index(0)

    def set_loop(self, loop: bool) -> None:
        self.loop = bool(loop)

    @Slot()
    def _tick(self) -> None:
        now = time.perf_counter()
        t = self.time + (now - self._wall) * self.speed
        self._wall = now
        end = float(self.times[-1])
        if t > end:
            if self.growing:
                t = end  # wait for the solver
            elif self.loop:
                t = float(self.times[0])
            else:
                self._show(self.count - 1, end)
                self.pause()
                return
        index = frame_at(self.times, t)
        if t >= self.time and index < self.index:
            index = self.index  # the cursor was at an event between frames: don't step back
        self._show(index, t)
