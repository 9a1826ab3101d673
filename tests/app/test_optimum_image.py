"""The optimum's PNG (``flexmech optimize --png``), drawn with Pillow: its axes and the
searches that give too little to draw a curve."""
from __future__ import annotations

import doctest

import pytest
from PIL import Image

from app.results import map_image, optimum_image, png_axes
from app.results.optimum_image import write_optimum_png
from solver.sweeps import Optimum


@pytest.mark.parametrize("module", [png_axes, optimum_image, map_image])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("runs", [[], [(0.5, float("nan"))], [(0.5, 2.0)], [(0.1, 3.0), (0.5, 3.0), (0.9, 3.0)]])
def test_searches_with_little_to_draw_still_give_a_picture(tmp_path, runs):
    finite = [r for r in runs if r[1] == r[1]]
    best = min(finite, key=lambda r: r[1]) if finite else (float("nan"), float("nan"))
    opt = Optimum("masses[m].mass", "max(energy/kinetic)", (0.0, 1.0), best[0], best[1], runs, cancelled=True)
    path = tmp_path / "opt.png"
    write_optimum_png(opt, path, "cancelled")
    with Image.open(path) as image:
        assert image.size == optimum_image.SIZE
