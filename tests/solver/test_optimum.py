"""The support position that minimises the vibration of the beam example (Amirouche & Xie eqs. 28-29)."""
from __future__ import annotations

import copy
import csv

import pytest

from app.shell.cli import main
from solver.model.io import examples_dir, load_model
from solver.sweeps import OptimumError, find_optimum
from solver.sweeps.optimum import _objective

EXAMPLE = examples_dir() / "moving_support_beam.json"
FIELD, OBJECTIVE = "moving[prop].position.v1", "mean(energy/strain)"


@pytest.fixture(scope="module")
def cli_optimum(tmp_path_factory):
    out = tmp_path_factory.mktemp("opt") / "runs.csv"
    png = out.with_suffix(".png")
    code = main(["optimize", str(EXAMPLE), "--field", FIELD, "--bounds", "2", "4", "--objective", OBJECTIVE,
                 "--scan", "5", "--xatol", "0.01", "--csv", str(out), "--png", str(png), "--quiet"])
    with out.open(encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return code, rows, png


def test_the_optimum_stop_beats_a_brute_force_scan(cli_optimum, capsys):
    """Where the sliding support should stop to least strain the beam over the run: the scan of
    2, 2.5, ..., 4 m brackets it, Brent refines it (measured 2.80 m); no scanned position, nor
    one 0.1 m either side, does better (the brute-force check)."""
    code, rows, _png = cli_optimum
    assert code == 0
    assert rows[0] == [FIELD, OBJECTIVE]
    runs = [(float(x), float(v)) for x, v in rows[1:]]
    x_opt, best = min(runs, key=lambda r: r[1])
    assert {2.0, 2.5, 3.0, 3.5, 4.0} <= {x for x, _v in runs}
    assert 2.5 < x_opt < 3.0
    model = load_model(EXAMPLE)
    for x in (x_opt - 0.1, x_opt + 0.1):
        assert _objective(model, FIELD, x, OBJECTIVE, None) > best
    assert x_opt == pytest.approx(2.80, abs=0.02)


def test_the_cli_draws_the_objective_against_the_position(cli_optimum):
    """``--png``: the runs' curve in blue, the optimum's diamond in red where the table's minimum is."""
    from PIL import Image

    from app.results.optimum_image import BEST, CURVE, PLOT, SIZE, padded
    from app.results.png_axes import Axes, Pen

    _code, rows, png = cli_optimum
    runs = [(float(x), float(v)) for x, v in rows[1:]]
    with Image.open(png) as opened:
        image = opened.convert("RGB")
    assert image.size == SIZE
    axes = Axes(image, Pen(image), PLOT, padded([x for x, _v in runs], (2.0, 4.0)), padded([v for _x, v in runs]))
    x_opt, best = min(runs, key=lambda r: r[1])
    u, w = axes.px(x_opt, best)
    assert image.getpixel((round(u), round(w))) == tuple(int(BEST[i:i + 2], 16) for i in (1, 3, 5))
    blue = tuple(int(CURVE[i:i + 2], 16) for i in (1, 3, 5))
    for x, v in runs:
        if abs(x - x_opt) > 0.05:
            u, w = axes.px(x, v)
            assert image.getpixel((round(u), round(w))) == blue


def test_bad_requests_name_the_option():
    model = load_model(EXAMPLE)
    with pytest.raises(OptimumError) as err:
        find_optimum(model, "moving[prop].position.v9", (2.0, 1.0), "median(energy/strain)")
    problems = err.value.problems
    assert len(problems) == 3 and problems[0].startswith("moving[prop].position.v9")
    assert problems[1].startswith("bounds:") and problems[2].startswith("objective median(energy/strain)")
    bad = copy.deepcopy(model)
    with pytest.raises(OptimumError, match="moving"):
        find_optimum(bad, "moving[prop].link", (0.0, 1.0), OBJECTIVE)


def test_a_bound_the_model_refuses_or_a_bad_tolerance_is_named_before_any_run(monkeypatch):
    """A bound outside the field's range (e <= 1) or against a rule across fields (mu_d <= mu_s), an objective of
    a series the runs lack and a tolerance that is not positive are refused before the first run, not after the
    scan's runs up to them."""
    rod = load_model(examples_dir() / "rod_impact_rigid.json")
    monkeypatch.setattr("solver.sweeps.optimum.run", lambda *a, **k: pytest.fail("a run was started"))
    objective = "max(contact/B-ground/F_n)"
    with pytest.raises(OptimumError) as err:
        find_optimum(rod, "contacts[B-ground].e", (0.0, 2.0), objective)
    assert err.value.problems == ["bounds: contacts[B-ground].e = 2: contacts[B-ground].e: must be <= 1"]
    with pytest.raises(OptimumError) as err:
        find_optimum(rod, "contacts[B-ground].mu_s", (0.1, 1.0), objective)
    assert err.value.problems == ["bounds: contacts[B-ground].mu_s = 0.1: contacts[B-ground].mu_d: must be <= mu_s"]
    with pytest.raises(OptimumError) as err:  # every run's objective was nan, the search ran on to its end
        find_optimum(rod, "contacts[B-ground].e", (0.0, 1.0), "max(contact/nowhere/F_n)")
    assert err.value.problems == ["objective max(contact/nowhere/F_n): the runs have no series 'contact/nowhere/F_n'"]
    for xatol in (-1.0, 0.0, float("nan")):
        with pytest.raises(OptimumError, match="xatol: must be a positive tolerance on the field"):
            find_optimum(rod, "contacts[B-ground].e", (0.0, 1.0), objective, xatol=xatol)
