"""Export: plotted series CSV, plot images, animations, the results bundle."""
from __future__ import annotations

import csv
from pathlib import Path

import imageio.v2
import imageio.v3 as iio
import numpy as np
import pytest
from PySide6.QtGui import QColor, QImage

from app.results import export
from app.results.export import VideoCodecMissing, export_animation, export_plot, frame_times, image_array, write_series_csv
from app.results.plots_dock import PlotsDock
from solver.results.frames import Results
from solver.results.files import load_results, write_results
from solver.results.impulse_instants import impulse_instants


@pytest.fixture
def dock(shown, bar_mass) -> PlotsDock:
    d = shown(PlotsDock(), 500, 400)
    d.set_results(bar_mass)
    return d


def read_csv(path: Path) -> tuple[list[str], np.ndarray]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], np.array([[float(c) if c else np.nan for c in row] for row in rows[1:]])


def test_plotted_series_csv_reads_back_equal(dock, bar_mass, tmp_path):
    """The plotted curves as drawn: the impulses at their events' instants (``event_time_s``), the
    energy at the frames' times (``time_s``)."""
    dock.add_panel("time", ["energy/kinetic"])
    write_series_csv(dock.plotted(), tmp_path / "plotted.csv")
    header, values = read_csv(tmp_path / "plotted.csv")
    assert header == ["event_time_s", "contact.striker-end.I_n_N_s", "contact.striker-end.I_t_N_s", "time_s",
                      "energy.kinetic_J"]
    instants, impulses = impulse_instants(bar_mass.events, "contact/striker-end/I_n")
    assert 0 < len(instants) < len(bar_mass.frames)
    np.testing.assert_array_equal(values[:len(instants), 0], instants)
    np.testing.assert_array_equal(values[:len(instants), 1], impulses)
    assert np.isnan(values[len(instants):, :3]).all()
    np.testing.assert_array_equal(values[:, 3], bar_mass.time)
    np.testing.assert_array_equal(values[:, 4], bar_mass.energy("kinetic"))


def test_csv_values_are_the_shortest_text_that_reads_back(dock, bar_mass, tmp_path):
    """Issue #27: 0.003, not 0.0030000000000000001, in the series and the table CSV; every cell
    still reads back bit for bit."""
    from solver.results.tables import csv_tables

    curve = dock.plotted()[0]
    curve = curve._replace(x=np.array([0.003, 0.1, 1e-5]), y=np.array([np.float32(0.1), 2.0, -0.0]))
    write_series_csv([curve], tmp_path / "short.csv")
    lines = (tmp_path / "short.csv").read_text(encoding="utf-8").splitlines()
    assert lines[1:] == ["0.003,0.10000000149011612", "0.1,2.0", "1e-05,-0.0"]
    text = csv_tables(bar_mass, ("contacts",))["contacts.csv"]
    times = [row.split(",")[0] for row in text.splitlines()[1:]]
    assert [float(t) for t in times] == bar_mass.time.tolist()
    assert all(t == repr(float(t)) for t in times)
    assert "0.0030000000000000001" not in text


def test_curves_with_other_abscissae_bring_their_own_columns(dock, bar_mass, tmp_path):
    partial = Results(model=bar_mass.model, layout=bar_mass.layout, frames=bar_mass.frames[:7])
    other = PlotsDock()
    other.set_results(partial)
    for plots in (dock, other):
        plots.add_panel("time", ["energy/kinetic"])
    curves = [dock.plotted()[-1], other.plotted()[-1]]
    curves[1] = curves[1]._replace(run="first frames")
    write_series_csv(curves, tmp_path / "two.csv")
    header, values = read_csv(tmp_path / "two.csv")
    assert header == ["time_s", "energy.kinetic_J", "first frames: time_s", "first frames: energy.kinetic_J"]
    assert np.isnan(values[7:, 2:]).all() and len(values) == len(bar_mass.frames)
    np.testing.assert_array_equal(values[:7, 3], values[:7, 1])
    other.deleteLater()


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml")])
def test_plot_images_are_written(dock, tmp_path, suffix, magic):
    path = tmp_path / ("plot" + suffix)
    export_plot(dock.panels[0].plot, path, width=400)
    assert path.read_bytes().startswith(magic)
    if suffix == ".svg":
        assert "<path" in path.read_text() or "<polyline" in path.read_text()
    with pytest.raises(ValueError, match="png or .svg"):
        export_plot(dock.panels[0].plot, tmp_path / "plot.jpg")


def test_frame_times_at_a_slow_motion_factor():
    times = frame_times(0.1, 0.102, 1e-3, 25.0)     # 2 ms of impact in 2 s of video
    assert len(times) == 51
    np.testing.assert_allclose(np.diff(times), 4e-5)
    assert times[0] == 0.1 and times[-1] == pytest.approx(0.102)


def test_image_array_reads_pixels():
    image = QImage(3, 2, QImage.Format.Format_ARGB32)
    image.fill(QColor(10, 20, 30))
    image.setPixelColor(2, 1, QColor(200, 100, 50))
    pixels = image_array(image)
    assert pixels.shape == (2, 3, 3)
    assert pixels[0, 0].tolist() == [10, 20, 30] and pixels[1, 2].tolist() == [200, 100, 50]


def test_short_gif_of_the_scrubbed_plot(dock, bar_mass, tmp_path):
    panel = dock.panels[0]

    def render(t: float) -> QImage:
        panel.set_time(t)
        return panel.plot.grab().toImage()

    done = []
    count = export_animation(render, tmp_path / "impact.gif", 0.0, bar_mass.time[-1], real_time_factor=0.5,
                             fps=10, progress=lambda k, n: done.append((k, n)))
    frames = iio.imread(tmp_path / "impact.gif", index=None)
    assert count == len(frames) == len(frame_times(0.0, bar_mass.time[-1], 0.5, 10)) == done[-1][0] == done[-1][1] > 5
    size = panel.plot.grab().size()
    assert frames.shape[1:3] == (size.height(), size.width())


def test_mp4_without_the_codec_says_so_and_renders_nothing(monkeypatch, tmp_path):
    monkeypatch.setattr(export, "video_codec_available", lambda: False)
    rendered = []
    with pytest.raises(VideoCodecMissing, match="imageio-ffmpeg.*GIF export works"):
        export_animation(rendered.append, tmp_path / "a.mp4", 0.0, 1.0)
    assert rendered == [] and not (tmp_path / "a.mp4").exists()


def test_mp4_with_the_codec(tmp_path):
    pytest.importorskip("imageio_ffmpeg")
    image = QImage(64, 48, QImage.Format.Format_RGB32)

    def render(t: float) -> QImage:
        image.fill(QColor(int(255 * t), 0, 0))
        return image

    assert export_animation(render, tmp_path / "a.mp4", 0.0, 1.0, fps=10) == 11
    with imageio.v2.get_reader(tmp_path / "a.mp4", format="FFMPEG") as video:
        assert video.count_frames() == 11


def test_bundle_replays_without_solving(dock, bar_mass, tmp_path):
    """The results bundle is a results folder: reopened, it plots the same curves."""
    write_results(bar_mass, tmp_path / "bundle")
    assert (tmp_path / "bundle" / "model.json").exists()
    reopened = load_results(tmp_path / "bundle")
    again = PlotsDock()
    again.set_results(reopened)
    for a, b in zip(again.plotted(), dock.plotted(), strict=True):
        np.testing.assert_array_equal(a.x, b.x)
        np.testing.assert_array_equal(a.y, b.y)
    again.deleteLater()


def test_the_table_export_dialog_is_wide_enough_for_its_title(qtbot, window):
    """Issue #27: a window manager showed "Export… table": the dialog is now wider than its
    title needs (the title's text plus room for the title bar's buttons)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QInputDialog

    seen = []

    def inspect():
        dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QInputDialog) and w.isVisible())
        seen.append((dialog.windowTitle(), dialog.width(), dialog.fontMetrics().horizontalAdvance(dialog.windowTitle())))
        dialog.reject()

    QTimer.singleShot(200, inspect)
    window.results_ui.export_table_dialog()
    title, width, needed = seen[0]
    assert title == "Export results table" and width >= needed + 120


def test_a_table_the_run_has_nothing_in_is_said_to_be_header_only(qtbot, window, tmp_path, monkeypatch, bar_mass):
    """File > Export > Results Table as CSV… of the modes of a run without modal links wrote the header
    and said 'Exported …' as of any table; it says what `flexmech export` says (the nodes table: as before)."""
    from PySide6.QtWidgets import QFileDialog, QInputDialog

    window.results_ui.show_results(bar_mass)
    for table, said in (("modes", " (its header only: the run has nothing in this table)"), ("nodes", "")):
        path = tmp_path / f"{table}.csv"
        monkeypatch.setattr(QInputDialog, "getItem", lambda *a, t=table, **k: (t, True))
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, p=path, **k: (str(p), ""))
        window.results_ui.export_table_action.trigger()
        assert window.statusBar().currentMessage() == f"Exported {path}{said}"
        assert (path.read_text().count("\n") == 1) == bool(said)


def test_plotted_series_with_no_curve_drawn_is_refused_saying_why(qtbot, window, tmp_path, monkeypatch, bar_mass,
                                                                 message_boxes):
    """Every series unticked, File > Export > Plotted Series as CSV… wrote a file of one empty line and said
    'Exported …'; it says there is nothing plotted and writes nothing. So does Plots as PNG… with every plot closed."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QFileDialog, QToolButton

    window.results_ui.show_results(bar_mass)
    for panel in window.results_ui.plots.panels:
        panel.set_series([])
    path = tmp_path / "series.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    window.results_ui.export_series_action.trigger()
    assert not path.exists()
    kind, title, text = message_boxes[-1]
    assert (kind, title) == ("critical", "Export plotted series") and "no curve is plotted" in text
    for panel in list(window.results_ui.plots.panels):  # every plot closed: Plots as PNG said 'Exported', wrote none
        close = next(b for b in panel.findChildren(QToolButton) if b.text() == "✕")
        qtbot.mouseClick(close, Qt.MouseButton.LeftButton)
    assert not window.results_ui.plots.panels
    image = tmp_path / "plots.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(image), ""))
    window.results_ui.export_plots_action.trigger()
    kind, title, text = message_boxes[-1]
    assert (kind, title) == ("critical", "Export plots") and "there is no plot" in text and not image.exists()
