"""Export: a results table or the plotted series as CSV, plots as PNG / SVG, the animation
as GIF / MP4.

The whole results of a run, and the results bundle that reopens without solving, are
a results folder: :func:`solver.results.files.write_results` writes ``model.json``,
``summary.json`` (with the event log), ``tables.zip`` and the time series in Parquet (units in every column
name), and :func:`solver.results.files.load_results` reads them back into an equal
:class:`~solver.results.frames.Results` that every view here accepts.  Any one table of it
is written as CSV by :func:`write_table_csv` (as ``flexmech export --csv`` does).

Animation frames come from a callback ``render(t) -> QImage`` (the playback canvas at
simulated time ``t``), written by imageio: GIF through Pillow, always available; MP4
needs the optional package ``imageio-ffmpeg`` (:class:`VideoCodecMissing` otherwise).
"""
from __future__ import annotations

import csv
import importlib.util
import itertools
import math
import os
from pathlib import Path
from typing import Callable

import numpy as np
import pyqtgraph as pg
import pyqtgraph.exporters
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator

from solver.safe_write import atomic_write_text, replacing, replacing_private
from solver.results.frames import Results
from solver.results.tables import FLOAT, csv_tables

from .plots import PlottedSeries


#: animation formats and whether they need imageio-ffmpeg
ANIMATION_FORMATS = {".gif": False, ".mp4": True}


class VideoCodecMissing(RuntimeError):
    """MP4 export was asked for without the optional video codec package."""


# ------------------------------------------------------------------ table CSV
def write_table_csv(results: Results, table: str, path: str | os.PathLike) -> bool:
    """Write the results table ``table`` (``nodes``, ``elements``, ``energy``... see
    :data:`solver.results.tables.TABLES`) to ``path`` as CSV, units in the header; whether it
    has a row beside its header (the run may have nothing in it: the modes of a run without
    modal links)."""
    text = csv_tables(results, (table,))[table + ".csv"]
    atomic_write_text(path, text)
    return text.count("\n") > 1


# ------------------------------------------------------------------ series CSV
def write_series_csv(series: list[PlottedSeries], path: str | os.PathLike) -> None:
    """Write plotted curves to one CSV file, units in the column names (:func:`series_columns`).
    Columns of different lengths are padded with empty cells.  Raises ValueError when there is no
    curve (it wrote a file of one empty line).
    """
    if not series:
        raise ValueError("no curve is plotted: tick a series in a plot's list first")
    columns = series_columns(series)
    rows = max((len(values) for _, values in columns), default=0)
    with replacing(path) as tmp, open(tmp, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow([name for name, _ in columns])
        for i in range(rows):
            writer.writerow([FLOAT % values[i] if i < len(values) else "" for _, values in columns])


def series_columns(series: list[PlottedSeries]) -> list[tuple[str, np.ndarray]]:
    """The CSV columns of plotted curves, ``(name, values)``, every name distinct.

    Curves with the same abscissa (the same series, the same values) share its column, each
    abscissa followed by its curves (``time_s``, then ``contact.striker-end.F_n_N``, ...); a curve
    drawn twice is written once.  Curves of a compared run carry its label (``μ = 0.7:
    node.B.vy_m_s``), and so does an abscissa column only that run uses.  A name already taken
    is qualified by what it belongs to, before ``: `` -- an abscissa by its first curve
    (``contact.c.I_t_N_s: event_time_s``: impulses at other instants), a curve by its abscissa
    (``driver.crank.angle_deg: contact.c.F_n_N``) -- so that the name after the last ``: `` stays
    the quantity and unit the overlays read (:mod:`~app.results.overlay_abscissa`).
    """
    groups: list[list[PlottedSeries]] = []
    for s in series:
        group = next((g for g in groups if g[0].x_series.key == s.x_series.key and np.array_equal(g[0].x, s.x)), None)
        if group is None:
            groups.append([s])
        elif not any(c.column == s.column and np.array_equal(c.y, s.y, equal_nan=True) for c in group):
            group.append(s)
    columns: list[tuple[str, np.ndarray]] = []
    taken: set[str] = set()
    for group in groups:
        runs = {s.run for s in group}
        x_name = group[0].x_series.column
        x_name = _distinct(f"{group[0].run}: {x_name}" if len(runs) == 1 and group[0].run else x_name,
                           group[0].column, taken)
        columns.append((x_name, group[0].x))
        columns += [(_distinct(s.column, x_name, taken), s.y) for s in group]
    return columns


def _distinct(name: str, owner: str, taken: set[str]) -> str:
    """``name`` when no column has it yet, else ``owner: name`` (numbered if need be); marked taken."""
    candidates = itertools.chain((name, f"{owner}: {name}"), (f"{owner} ({k}): {name}" for k in itertools.count(2)))
    chosen = next(c for c in candidates if c not in taken)
    taken.add(chosen)
    return chosen


# ---------------------------------------------------------------- plot images
def export_plot(plot: pg.PlotWidget | pg.PlotItem, path: str | os.PathLike, width: int | None = None) -> None:
    """Save ``plot`` as PNG (``width`` pixels wide, default its size on screen) or SVG,
    by the suffix of ``path``."""
    item = plot.getPlotItem() if isinstance(plot, pg.PlotWidget) else plot
    suffix = Path(path).suffix.lower()
    if suffix == ".png":
        exporter = pg.exporters.ImageExporter(item)
        if width is not None:
            exporter.parameters()["width"] = int(width)
    elif suffix == ".svg":
        exporter = pg.exporters.SVGExporter(item)
    else:
        raise ValueError(f"plots export as .png or .svg, not {suffix or 'a file without suffix'}")
    with replacing_private(path) as tmp:  # never through a link planted at path (solver.safe_write)
        try:
            exporter.export(str(tmp))
        except ValueError:
            if suffix != ".svg":
                raise
            # pyqtgraph 0.14's SVGExporter cannot parse the closed paths ("... Z") that
            # recent Qt writes (pyqtgraph issue #3495): let Qt write the SVG itself.
            _qt_svg(item, tmp)


def _qt_svg(item: pg.PlotItem, path: str | os.PathLike) -> None:
    """Write ``item`` as SVG with Qt's own generator, in its on-screen size."""
    rect = item.sceneBoundingRect()
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(rect.size().toSize())
    generator.setViewBox(QRectF(0, 0, rect.width(), rect.height()))
    generator.setTitle(item.titleLabel.text or "Flexmech plot")
    painter = QPainter(generator)
    try:
        item.scene().render(painter, QRectF(0, 0, rect.width(), rect.height()), rect)
    finally:
        painter.end()


# ------------------------------------------------------------------ animation
def video_codec_available() -> bool:
    """Whether MP4 can be written (the optional package ``imageio-ffmpeg`` is installed)."""
    return importlib.util.find_spec("imageio_ffmpeg") is not None


def frame_times(t_start: float, t_end: float, real_time_factor: float, fps: float) -> np.ndarray:
    """Simulated times (s) of the animation frames: ``fps`` frames per second of the
    video, ``real_time_factor`` simulated seconds per video second (1e-3 slows an
    impact down a thousandfold), from ``t_start`` to ``t_end`` inclusive."""
    if not (real_time_factor > 0.0 and fps > 0.0 and t_end >= t_start):
        raise ValueError("need real_time_factor > 0, fps > 0 and t_end >= t_start")
    step = real_time_factor / fps
    count = math.floor((t_end - t_start) / step * (1.0 + 1e-12)) + 1
    return t_start + step * np.arange(count)


def image_array(image: QImage) -> np.ndarray:
    """``image`` as an (h, w, 3) uint8 RGB array."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    h, w, stride = rgb.height(), rgb.width(), rgb.bytesPerLine()
    return np.frombuffer(rgb.constBits(), dtype=np.uint8, count=h * stride).reshape(h, stride)[:, : 3 * w].reshape(
        h, w, 3).copy()


def export_animation(
    render: Callable[[float], QImage],
    path: str | os.PathLike,
    t_start: float,
    t_end: float,
    real_time_factor: float = 1.0,
    fps: float = 25.0,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Render the animation from ``t_start`` to ``t_end`` (simulated s) and write it as
    GIF or MP4 (by the suffix of ``path``); returns the number of frames.

    ``render(t)`` draws the scene at time ``t`` (every frame is scaled to the size of
    the first); ``progress(done, total)`` is called after each frame.  Raises
    :class:`VideoCodecMissing` for MP4 without ``imageio-ffmpeg`` (before rendering
    anything), ``ValueError`` for another suffix.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in ANIMATION_FORMATS:
        raise ValueError(f"animations export as {' or '.join(ANIMATION_FORMATS)}, not {suffix or 'no suffix'}")
    if ANIMATION_FORMATS[suffix] and not video_codec_available():
        raise VideoCodecMissing(
            "MP4 export needs the optional package imageio-ffmpeg (pip install imageio-ffmpeg); "
            "GIF export works without it.")
    import imageio.v2  # here: imageio costs the window's start 0.1 s
    import imageio.v3 as iio

    times = frame_times(t_start, t_end, real_time_factor, fps)
    with replacing_private(path) as tmp:  # never through a link planted at path (solver.safe_write)
        if suffix == ".gif":
            with iio.imopen(tmp, "w", plugin="pillow", extension=".gif") as gif:
                _render_frames(render, times, lambda frame: gif.write(frame, duration=1000.0 / fps, loop=0), progress)
        else:
            with imageio.v2.get_writer(tmp, format="FFMPEG", fps=fps, macro_block_size=1) as video:
                _render_frames(render, times, video.append_data, progress)
    return len(times)


def _render_frames(render: Callable[[float], QImage], times: np.ndarray, write: Callable[[np.ndarray], object],
                   progress: Callable[[int, int], None] | None) -> None:
    """Render the frame at each of ``times`` and ``write`` it as an RGB array, every
    frame in the size of the first."""
    size = None
    for k, t in enumerate(times):
        image = render(float(t))
        if size is None:
            size = image.size()
        elif image.size() != size:
            image = image.scaled(size)
        write(image_array(image))
        if progress is not None:
            progress(k + 1, len(times))
