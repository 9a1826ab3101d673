"""The analysis plots drawn as PNG with Pillow (no Qt, so the ``flexmech orbit``,
``poincare``, ``spectrum``, ``bifurcation`` and ``lyapunov`` commands draw them on a
server; the analysis dock exports the same pictures): the journal orbit in its clearance
circle coloured by time or contact force, the Poincaré section over its phase portrait,
the amplitude spectrum with the driver's harmonics, the bifurcation diagram, and the
separation of two runs with the fit of its log growth.
"""
from __future__ import annotations

import math
import os

import numpy as np
from PIL import Image

from solver.analysis.lyapunov import LyapunovFit
from solver.analysis.orbit import JournalOrbit
from solver.analysis.poincare import PoincareSection
from solver.analysis.spectrum import AmplitudeSpectrum
from solver.safe_write import replacing
from solver.sweeps.bifurcation import Bifurcation

from .optimum_image import padded
from .png_axes import Axes, Pen

SIZE = (980, 640)
PLOT = (100, 80, 760, 560)   # left, top, right, bottom of the plot area, px
#: colours: curves, the points of a section, the marks of harmonics and fits, the clearance circle
CURVE, POINTS, MARK, CIRCLE = "#1f6fb4", "#c0392b", "#e69f00", "#444444"
#: the colour scale of an orbit (viridis at five stops), low to high
SCALE = ((68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37))
#: the orbit's colourings: name -> (label, unit)
COLOURINGS = {"time": ("time", "s"), "force": ("normal contact force", "N")}


def scale_rgb(u: np.ndarray) -> np.ndarray:
    """The colours (n, 3) of the scale at ``u`` in [0, 1] (clipped), linear between its stops."""
    u = np.clip(np.nan_to_num(np.asarray(u, float)), 0.0, 1.0) * (len(SCALE) - 1)
    stops = np.array(SCALE, dtype=float)
    k = np.minimum(u.astype(int), len(SCALE) - 2)
    w = (u - k)[:, None]
    return ((1.0 - w) * stops[k] + w * stops[k + 1]).astype(np.uint8)


class _Figure:
    """A white picture with one plot area, its axes over ``x_range``, ``y_range`` and a title."""

    def __init__(self, x_range, y_range, x_title: str, y_title: str, title: list[str], size=SIZE, box=PLOT):
        self.image = Image.new("RGB", size, "white")
        self.pen = Pen(self.image)
        self.axes = Axes(self.image, self.pen, box, x_range, y_range)
        self.axes.frame(x_title, y_title, grid=True)
        for k, line in enumerate(title):
            self.pen.write((box[0], 14 + 22 * k), line, big=k == 0)

    def line(self, x, y, colour: str = CURVE, width: int = 1) -> None:
        points = [self.axes.px(a, b) for a, b in zip(x, y) if math.isfinite(a) and math.isfinite(b)]
        if len(points) > 1:
            self.pen.draw.line(points, fill=colour, width=width)

    def dots(self, x, y, colours, radius: float = 2.5) -> None:
        """Dots at ``(x, y)``, one colour each (a colour string or an RGB row)."""
        for a, b, c in zip(x, y, colours):
            if math.isfinite(a) and math.isfinite(b):
                u, v = self.axes.px(a, b)
                self.pen.draw.ellipse((u - radius, v - radius, u + radius, v + radius),
                                      fill=c if isinstance(c, str) else tuple(int(i) for i in c))

    def legend(self, entries: list[tuple[str, str]]) -> None:
        """Swatches with their labels right of the plot area."""
        x, y = PLOT[2] + 16, PLOT[1]
        for colour, text in entries:
            self.pen.draw.rectangle((x, y + 2, x + 14, y + 14), fill=colour)
            self.pen.write((x + 20, y), text)
            y += 22

    def save(self, path: str | os.PathLike) -> None:
        with replacing(path) as tmp:  # never through a link planted at path (solver.safe_write)
            self.image.save(tmp, format="PNG")


def write_orbit_png(orbit: JournalOrbit, path: str | os.PathLike, colour: str = "time") -> None:
    """The orbit in mm, square, inside its clearance circle, coloured by ``colour`` (time or force)."""
    reach = 1e3 * max(orbit.clearance + orbit.largest_penetration, float(np.max(orbit.eccentricity, initial=0.0)))
    span = (-1.08 * reach, 1.08 * reach)
    box = (100, 80, 580, 560)
    fig = _Figure(span, span, "e_x (mm)", "e_y (mm)", [
        f"Journal orbit of {orbit.joint}: journal centre relative to the bearing centre",
        f"clearance c = {orbit.clearance * 1e3:.4g} mm, largest penetration {orbit.largest_penetration * 1e6:.4g} µm, "
        f"{len(orbit.time)} frames"], box=box)
    c = 1e3 * orbit.clearance
    circle = np.linspace(0.0, 2.0 * np.pi, 361)
    fig.line(c * np.cos(circle), c * np.sin(circle), CIRCLE, 2)
    values = orbit.time if colour == "time" else orbit.force
    low, high = float(np.nanmin(values)), float(np.nanmax(values))
    rgb = scale_rgb((values - low) / (high - low) if high > low else np.zeros(len(values)))
    fig.dots(1e3 * orbit.ex, 1e3 * orbit.ey, rgb, radius=1.5)
    _colour_bar(fig, low, high, *COLOURINGS[colour])
    fig.save(path)


def _colour_bar(fig: _Figure, low: float, high: float, label: str, unit: str) -> None:
    x, top, bottom = 640, PLOT[1] + 20, PLOT[3] - 20
    for k in range(bottom - top):
        colour = tuple(int(i) for i in scale_rgb(np.array([1.0 - k / (bottom - top)]))[0])
        fig.pen.draw.line([(x, top + k), (x + 20, top + k)], fill=colour)
    fig.pen.draw.rectangle((x, top, x + 20, bottom), outline="black")
    fig.pen.write((x + 26, top - 8), f"{high:.4g}")
    fig.pen.write((x + 26, bottom - 8), f"{low:.4g}")
    fig.pen.write((x - 10, top - 30), f"{label} ({unit})")


def write_poincare_png(section: PoincareSection, path: str | os.PathLike) -> None:
    """The phase portrait (thin line) with the section's points over it."""
    fig = _Figure(padded(list(section.portrait_x)), padded(list(section.portrait_y)), section.x.title,
                  section.y.title, [
                      f"Poincaré section: {section.x.label} against {section.y.label}",
                      f"{len(section.times)} sections, one every {section.period:.6g} s"
                      + (f" (a turn of {section.driver})" if section.driver else "")
                      + f", after {section.transient} periods"])
    fig.line(section.portrait_x, section.portrait_y, "#9ab8d8")
    fig.dots(section.xs, section.ys, [POINTS] * len(section.xs), radius=4)
    fig.legend([("#9ab8d8", "phase portrait"), (POINTS, "sections")])
    fig.save(path)


#: the harmonics of the driver a spectrum shows by default
SHOWN_HARMONICS = 20


def write_spectrum_png(s: AmplitudeSpectrum, path: str | os.PathLike, fmax: float | None = None) -> None:
    """The amplitude against frequency up to ``fmax`` (default: :data:`SHOWN_HARMONICS` harmonics
    of the driver, or the whole spectrum without one), the driver's harmonics as dashed marks."""
    if fmax is None:
        fmax = SHOWN_HARMONICS * s.harmonics[0] if len(s.harmonics) else float(s.frequency[-1])
    shown = s.frequency <= fmax
    top = float(np.max(s.amplitude[shown], initial=0.0)) or 1.0
    fig = _Figure((0.0, fmax), (0.0, 1.08 * top), "frequency (Hz)",
                  f"amplitude ({s.unit})" if s.unit not in ("", "-") else "amplitude", [
                      f"Amplitude spectrum of {s.key}",
                      f"{s.samples} samples {s.dt:.4g} s apart, {s.window} window, bins of {s.resolution:.4g} Hz; "
                      f"peak {s.peak[1]:.4g} at {s.peak[0]:.4g} Hz"])
    for f in s.harmonics[s.harmonics <= fmax]:
        for k in range(0, 100, 4):
            fig.line([f, f], [top * 1.08 * k / 100, top * 1.08 * (k + 2) / 100], MARK, 1)
    fig.line(s.frequency[shown], s.amplitude[shown], CURVE, 2)
    if len(s.harmonics):
        fig.legend([(CURVE, "amplitude"), (MARK, f"harmonics of {s.driver}")])
    fig.save(path)


def write_bifurcation_png(b: Bifurcation, path: str | os.PathLike) -> None:
    """The samples against the swept field's value."""
    x_title = b.field + (f" ({b.field_unit})" if b.field_unit != "-" else "")
    fig = _Figure(padded(list(b.x)), padded(list(b.values)), x_title,
                  b.key + (f" ({b.unit})" if b.unit not in ("", "-") else ""), [
                      f"Bifurcation diagram: {b.key} once per period against {b.field}",
                      f"{len(set(b.runs))} runs, {len(b.values)} samples, the first {b.transient} periods of each "
                      "left out"])
    fig.dots(b.x, b.values, [CURVE] * len(b.x), radius=2)
    fig.save(path)


def write_lyapunov_png(fit: LyapunovFit, path: str | os.PathLike, period: float | None = None) -> None:
    """``log10`` of the separation against time, the fitted line over its window."""
    positive = fit.separation > 0.0
    logs = np.log10(fit.separation[positive])
    fig = _Figure(padded(list(fit.time)), padded(list(logs)), "time (s)", "log10 separation (m)",
                  [f"Largest Lyapunov exponent: {fit.slope:.4g} 1/s"
                   + (f" ({fit.slope * period:.4g} per period of {period:.4g} s)" if period else ""),
                   f"ln d = {fit.intercept:.4g} + {fit.slope:.4g} t over {fit.window[0]:.4g} to {fit.window[1]:.4g} s, "
                   f"{fit.points} frames, r² = {fit.r2:.3f}"])
    fig.line(fit.time[positive], logs, CURVE, 1)
    inside = np.linspace(*fit.window, 50)
    fig.line(inside, np.log10(fit.fitted(inside)), POINTS, 3)
    fig.legend([(CURVE, "separation"), (POINTS, "fit")])
    fig.save(path)
