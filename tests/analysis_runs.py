"""Short runs of the slider-crank for the tests of the analysis plots (solver, command line,
window): the ideal joint and the dry clearance joint (Lankarani-Nikravesh), a few crank
turns at 5000 rpm (one turn: 12 ms), and a sweep folder of two crank speeds."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from solver.api import load_model, simulate
from solver.model.io import examples_dir
from solver.results.files import write_results

#: the crank's speed in the examples, rad/s (5000 rpm), and one turn, s
OMEGA = 5000.0 * 2.0 * math.pi / 60.0
TURN = 2.0 * math.pi / OMEGA
CLEARANCE = "slider_crank_clearance_lankarani_nikravesh"
IDEAL = "slider_crank_ideal"


def example(name: str, turns: float) -> dict:
    """The example ``name`` run for ``turns`` turns of its crank."""
    model = load_model(examples_dir() / f"{name}.json")
    model["solver"]["end_time"] = turns * TURN
    return model


def run_folder(name: str, turns: float, folder: Path) -> Path:
    """``folder`` holding the results of ``turns`` turns of example ``name``."""
    write_results(simulate(example(name, turns)), folder)
    return folder


@pytest.fixture(scope="module")
def dry(tmp_path_factory) -> Path:
    """A results folder of one turn of the dry clearance joint."""
    return run_folder(CLEARANCE, 1, tmp_path_factory.mktemp("dry") / "run")


@pytest.fixture(scope="module")
def bracketed(tmp_path_factory) -> Path:
    """A results folder of one turn of the dry clearance joint, the joint's id 'B[clearance]' (brackets
    a path names it by only quoted)."""
    model = example(CLEARANCE, 1)
    model["joints"] = [dict(j, id="B[clearance]") if j["id"] == "B-clearance" else j for j in model["joints"]]
    folder = tmp_path_factory.mktemp("bracketed") / "run"
    write_results(simulate(model), folder)
    return folder


@pytest.fixture(scope="module")
def ideal(tmp_path_factory) -> Path:
    """A results folder of two turns of the ideal joint."""
    return run_folder(IDEAL, 2, tmp_path_factory.mktemp("ideal") / "run")


def small_sweep(folder: Path) -> Path:
    """A bifurcation sweep of the clearance example over two crank speeds (4000 and 5000 rpm), a
    little over two turns each."""
    from app.shell.cli import main

    speeds = (0.8 * OMEGA, OMEGA)
    ends = ",".join(f"{2.05 * 2.0 * math.pi / w:.9g}" for w in speeds)  # a little over two turns
    assert main(["sweep", str(examples_dir() / f"{CLEARANCE}.json"), "--design", "zip", "--vary",
                 "drivers[motor].function.value=" + ",".join(f"{w:.9g}" for w in speeds),
                 "--vary", f"solver.end_time={ends}", "--keep-results", "--workers", "1", "--quiet",
                 "--out", str(folder)]) == 0
    return folder

