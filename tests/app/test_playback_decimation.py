"""Playback of a link of 2000 elements: drawn through at most a few hundred points, both ends
among them, within a pixel of the full mesh's shape at the view's scale (and again after
zooming in); with strain colours the most strained element's colour is drawn.  The
decimation itself (:mod:`app.playback.decimation`) on curves with a known answer."""
from __future__ import annotations

import numpy as np
import pytest

from app.playback.decimation import MAX_POINTS, decimate, extreme_per_span, with_breaks
from app.playback.layer import element_strain
from solver.api import load_model, simulate
from solver.model.io import examples_dir

ELEMENTS = 2000


@pytest.fixture(scope="module")
def struck_cantilever():
    """The tapered cantilever meshed with 2000 elements, its 100 N tip load applied at once:
    a bending wave runs from the tip (4 ms in 0.2 ms steps, a frame every 1 ms)."""
    model = load_model(examples_dir() / "tapered_cantilever.json")
    model["links"][0]["mesh"]["elements"] = ELEMENTS
    del model["loads"][0]["function"]
    model["solver"].update(end_time=0.004, step=2e-4, output_interval=1e-3)
    return model, simulate(model)


def distance_to_polyline(points: np.ndarray, line: np.ndarray) -> np.ndarray:
    """Distance of each of ``points`` (n, 2) from the polyline through ``line`` (m, 2)."""
    a, b = line[:-1][None], line[1:][None]
    ab, ap = b - a, points[:, None] - a
    t = np.clip(np.sum(ap * ab, axis=2) / np.maximum(np.sum(ab * ab, axis=2), 1e-300), 0.0, 1.0)
    return np.min(np.hypot(*np.moveaxis(ap - t[..., None] * ab, 2, 0)), axis=1)


def drawn_segments(layer) -> tuple[np.ndarray, list[str]]:
    """The drawn segments (M, 4) of the flexible links in order along the link, and their colours."""
    ends, colours = [], []
    for pen, lines in layer.flexible.segments():
        ends += [[ln.x1(), ln.y1(), ln.x2(), ln.y2()] for ln in lines]
        colours += [pen.color().name()] * len(lines)
    order = np.argsort(np.array(ends)[:, 0], kind="stable")  # the cantilever runs along +x
    return np.array(ends)[order], [colours[k] for k in order]


def full_shape(layer, frame) -> np.ndarray:
    """The link's mesh nodes as the layer would draw them undecimated (exaggeration applied)."""
    rows, fractions, _ids = layer._flex[0]
    xy = frame.node_xy[rows]
    chord = xy[0] + fractions[:, None] * (xy[-1] - xy[0])
    return chord + layer.exaggeration * (xy - chord)


def show(window, model, results, index: int = -1):
    """Play ``results`` of ``model`` in ``window`` (1280 x 800, zoomed to fit), frame ``index`` at ×100."""
    window.resize(1280, 800)
    window.document.replace(model, None)
    sim = window.simulation
    sim.show_run(results)
    window.sketch.zoom_to_fit()
    sim.layer.set_exaggeration(100.0)
    sim.playback.set_index(len(results.frames) + index if index < 0 else index)
    return sim.layer, results.frames[sim.playback.index]


def check_drawn(layer, frame, pixel: float) -> np.ndarray:
    ends, _colours = drawn_segments(layer)
    drawn = np.vstack([ends[:, :2], ends[-1:, 2:]])
    np.testing.assert_array_equal(ends[1:, :2], ends[:-1, 2:])  # one connected polyline
    full = full_shape(layer, frame)
    assert len(drawn) <= MAX_POINTS < len(full)
    np.testing.assert_allclose(drawn[[0, -1]], full[[0, -1]], atol=1e-12)  # both ends
    assert np.max(distance_to_polyline(full, drawn)) <= pixel  # the mesh within a pixel of the drawing
    assert np.max(distance_to_polyline(drawn, full)) <= 1e-9 * pixel  # drawn points are mesh nodes
    return drawn


def test_a_2000_element_link_is_drawn_through_few_points_within_a_pixel(qtbot, window, struck_cantilever):
    model, results = struck_cantilever
    layer, frame = show(window, model, results)
    pixel = window.sketch.metres_per_pixel()
    full = full_shape(layer, frame)
    assert np.ptp(full[:, 1]) > 100 * pixel  # a curve many pixels deep, not a straight line
    drawn = check_drawn(layer, frame, pixel)
    assert len(drawn) < 100  # a smooth shape needs far fewer points than a pixel each
    # zoomed in four times about the tip: drawn again for the finer pixel
    box = window.sketch.getViewBox()
    box.scaleBy((0.25, 0.25), center=tuple(full[-1]))
    finer = window.sketch.metres_per_pixel()
    assert finer == pytest.approx(pixel / 4, rel=0.05)
    check_drawn(layer, frame, finer)


def test_strain_colours_keep_the_most_strained_elements_colour(qtbot, window, struck_cantilever):
    model, results = struck_cantilever
    layer, frame = show(window, model, results, index=1)
    layer.set_strain_mode("bending")
    ends, colours = drawn_segments(layer)
    assert len(ends) < MAX_POINTS
    check_drawn(layer, frame, window.sketch.metres_per_pixel())
    strain = element_strain(frame, "bending")
    peak = layer._colour_index(strain[[np.argmax(np.abs(strain))]])[0]
    assert layer.flexible.pens[peak].color().name() in colours
    assert len(set(colours)) > 5


# ---------------------------------------------------------------------- the decimation
def test_decimation_of_a_smooth_arc_keeps_its_ends_and_stays_within_tolerance():
    s = np.linspace(0.0, 1.0, 2001)
    arc = np.column_stack([np.cos(3 * s), np.sin(3 * s)])  # 3 rad of a unit circle
    tol = 1e-4
    kept = decimate(arc, tol, MAX_POINTS)
    assert kept[0] == 0 and kept[-1] == 2000 and np.all(np.diff(kept) > 0)
    assert np.max(distance_to_polyline(arc, arc[kept])) <= tol
    # a chord of a circle of radius 1 departs from it by 1 - cos(a / 2) over an angle a:
    # within 1e-4 every 0.0283 rad, so about 106 chords for 3 rad
    assert 100 <= len(kept) - 1 <= 2 * 106


def test_decimation_caps_the_points_of_a_noisy_line_and_keeps_the_largest_spikes():
    rng = np.random.default_rng(7)
    x = np.linspace(0.0, 1.0, 5001)
    y = 1e-3 * rng.standard_normal(len(x))
    y[1234], y[4321] = 0.5, -0.4  # two spikes far above the noise
    kept = decimate(np.column_stack([x, y]), 1e-6, 50)
    assert len(kept) == 50 and kept[0] == 0 and kept[-1] == 5000
    assert {1234, 4321} <= set(kept.tolist())


def test_colour_breaks_are_added_within_the_cap_and_spans_take_their_extreme_strain():
    kept = np.array([0, 10])
    classes = np.array([1, 1, 2, 2, 2, 3, 3, 3, 3, 3])  # changes at nodes 2 and 5
    np.testing.assert_array_equal(with_breaks(kept, classes, 10), [0, 2, 5, 10])
    assert len(with_breaks(kept, classes, 3)) == 3
    strain = np.array([0.1, -0.2, 0.3, -0.5, 0.4, 0.0, 0.0, 0.0, 0.2, -0.1])
    np.testing.assert_array_equal(extreme_per_span(strain, np.array([0, 2, 5, 10])), [-0.2, -0.5, 0.2])
