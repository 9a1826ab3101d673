"""``flexmech orbit|poincare|spectrum|bifurcation|lyapunov``: each writes its PNG and CSV
into --out (nothing elsewhere), prints what it found, and names the argument at fault."""
from __future__ import annotations

import csv

import pytest
from PIL import Image

from app.shell.cli import main
from tests.analysis_runs import CLEARANCE, bracketed, dry, ideal, small_sweep  # noqa: F401 (fixtures)


def _table(path) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def _written(out, name: str) -> tuple[list[str], list[list[str]]]:
    """The command's CSV, its PNG checked to be a picture, and nothing else in ``out``."""
    assert sorted(p.name for p in out.iterdir()) == [f"{name}.csv", f"{name}.png"]
    with Image.open(out / f"{name}.png") as image:
        assert image.size[0] > 500
    return _table(out / f"{name}.csv")


def test_orbit_writes_the_journal_path(dry, tmp_path, capsys):
    assert main(["orbit", str(dry), "--colour", "force", "--out", str(tmp_path / "o")]) == 0
    header, rows = _written(tmp_path / "o", "orbit")
    assert header == ["time_s", "ex_m", "ey_m", "eccentricity_m", "penetration_m", "F_n_N"]
    assert len(rows) > 100
    assert "clearance 0.0005 m" in capsys.readouterr().out


def test_poincare_writes_the_sections(ideal, tmp_path, capsys):
    assert main(["poincare", str(ideal), "--x", "node/B/ux", "--y", "node/B/vx", "--out", str(tmp_path / "p")]) == 0
    header, rows = _written(tmp_path / "p", "poincare")
    assert header == ["section", "time_s", "node.B.ux_m", "node.B.vx_m_s"]
    assert [r[0] for r in rows] == ["0", "1", "2"]
    assert "3 sections every 0.012 s (a turn of motor)" in capsys.readouterr().out


def test_spectrum_writes_the_bins_with_the_harmonics(ideal, tmp_path, capsys):
    assert main(["spectrum", str(ideal), "--series", "driver/motor/reaction", "--out", str(tmp_path / "s")]) == 0
    header, rows = _written(tmp_path / "s", "spectrum")
    assert header == ["frequency_Hz", "amplitude_N_m", "harmonic"]
    assert [r[2] for r in rows if r[2]][:3] == ["1", "2", "3"]
    assert "harmonics of motor: 83.3333 Hz" in capsys.readouterr().out


def test_lyapunov_runs_the_twin_and_reports_the_fit(dry, tmp_path, capsys):
    assert main(["lyapunov", str(dry), "--out", str(tmp_path / "l")]) == 0
    header, rows = _written(tmp_path / "l", "lyapunov")
    assert header == ["time_s", "separation_m", "ln_separation", "fitted_separation_m", "in_fit"]
    out = capsys.readouterr().out
    assert "twin: joints[B-clearance].offset.x moved by 1e-07" in out
    assert "largest Lyapunov exponent: " in out and "r^2 = " in out


def test_lyapunov_perturbs_by_default_a_joint_whose_id_holds_brackets(bracketed, tmp_path, capsys):
    """Joint 'B[clearance]': the default perturbation joints[B[clearance]].offset.x was a path nothing
    could read (exit 1); the id is quoted, and the twin runs."""
    assert main(["lyapunov", str(bracketed), "--out", str(tmp_path / "l")]) == 0
    assert 'twin: joints["B[clearance]"].offset.x moved by 1e-07' in capsys.readouterr().out


@pytest.mark.slow
def test_bifurcation_of_a_small_sweep_writes_its_samples(tmp_path, capsys):
    sweep = small_sweep(tmp_path / "sweep")
    capsys.readouterr()
    assert main(["bifurcation", str(sweep), "--series", "node/B/vx", "--out", str(tmp_path / "b")]) == 0
    header, rows = _written(tmp_path / "b", "bifurcation")
    assert header == ["run", "drivers[motor].function.value", "time_s", "node.B.vx_m_s"]
    assert len({r[1] for r in rows}) == 2 and len(rows) == 6        # two speeds, three sections each
    assert "6 samples of node/B/vx from 2 runs" in capsys.readouterr().out
    assert main(["bifurcation", str(sweep), "--series", "node/B/speed", "--out", str(tmp_path / "c")]) == 1
    assert "--series node/B/speed: the run has no such series" in capsys.readouterr().err
    assert main(["bifurcation", str(sweep), "--series", "node/B/vx", "--field", "solver.step",
                 "--out", str(tmp_path / "c")]) == 1
    assert "--field solver.step: the sweep does not vary it" in capsys.readouterr().err
    # two turns after a transient of two: one section a run, which looks periodic whatever the motion: refused
    assert main(["bifurcation", str(sweep), "--series", "node/B/vx", "--transient", "2",
                 "--out", str(tmp_path / "d")]) == 1
    assert "holds one section every 0.0" in capsys.readouterr().err


def test_the_shipped_bifurcation_sweep_varies_the_crank_speed_over_thirty_turns():
    """resources/sweeps/slider_crank_clearance_bifurcation.json: 2000 to 6000 rpm, each run 30
    turns of its crank, the results kept for ``flexmech bifurcation``."""
    import json
    import math

    from solver.model.io import examples_dir, load_model
    from solver.sweeps import build_variants, spec_from_json

    path = examples_dir().parent / "sweeps" / "slider_crank_clearance_bifurcation.json"
    spec = spec_from_json(json.loads(path.read_text(encoding="utf-8")))
    assert spec.problems() == [] and spec.keep_results and spec.design == "zip"
    variants = build_variants(load_model(examples_dir() / f"{CLEARANCE}.json"), spec)
    speeds = [v.values["drivers[motor].function.value"] * 60.0 / (2.0 * math.pi) for v in variants]
    assert speeds == pytest.approx(list(range(2000, 6001, 200)))
    for v in variants:
        turns = v.values["solver.end_time"] * v.values["drivers[motor].function.value"] / (2.0 * math.pi)
        assert turns == pytest.approx(30.0, rel=1e-5)


@pytest.mark.parametrize(("argv", "message"), [
    (["orbit", "{ideal}"], "{ideal}: the run's model has no clearance joint"),
    (["orbit", "{dry}", "--joint", "pin"], "--joint pin: no clearance joint of that id (the model has: B-clearance)"),
    (["poincare", "{ideal}", "--x", "node/B/ux", "--y", "node/Q/vx"], "--y node/Q/vx: the run has no such series"),
    (["poincare", "{ideal}", "--x", "node/B/ux", "--y", "node/B/vx", "--driver", "pump"],
     "--driver pump: no driver of that id (the model has: motor)"),
    (["spectrum", "{ideal}", "--series", "node/B/vx", "--window", "gauss"], "--window gauss: one of hann"),
    (["spectrum", "{ideal}", "--series", "node/B/vx", "--fmax", "-5"], "--fmax -5: must be a positive frequency, Hz"),
    (["spectrum", "{ideal}", "--series", "node/B/vx", "--fmax", "nan"], "--fmax nan: must be a positive frequency"),
    (["lyapunov", "{ideal}"], "--perturb: the model has no clearance joint to perturb by default"),
    (["lyapunov", "{ideal}", "--perturb", "nodes[B].x=tiny"], "--perturb nodes[B].x=tiny: write PATH=SIZE"),
    (["lyapunov", "{dry}", "--perturb", "solver.rho_inf=0.05"], "--perturb solver.rho_inf: a solver setting"),
    (["lyapunov", "{dry}", "--perturb", "joints[B-clearance].restitution=0.5"],
     "the twin is not a valid model: joints[B-clearance].restitution: must be <= 1"),
    # the size follows the last '=' (an id may hold one): the path is read, not cut at its first '='
    (["lyapunov", "{dry}", "--perturb", "joints[B=x].offset.x=1e-7"], "no item 'B=x' in joints"),
    (["orbit", "{missing}"], "{missing}: no such results folder"),
    (["lyapunov", "{dry}", "--twin", "{dry}"], "the two runs do not separate: they are one run (--twin)"),
    (["lyapunov", "{dry}", "--twin", "{dry}", "--saturation", "0"], "--saturation 0: a fraction of the largest"),
    (["poincare", "{ideal}", "--x", "node/B/ux", "--y", "node/B/vx", "--transient", "-1"],
     "--transient -1: must be 0 or more periods"),
    (["bifurcation", "{ideal}", "--series", "node/B/vx"], "{ideal}: not a sweep folder (no sweep.json)"),
])
def test_a_bad_argument_is_named(dry, ideal, tmp_path, capsys, argv, message):
    names = {"ideal": str(ideal), "dry": str(dry), "missing": str(tmp_path / "none")}
    out = tmp_path / "out"
    assert main([a.format(**names) for a in argv] + ["--out", str(out)]) == 1
    assert message.format(**names) in capsys.readouterr().err
    assert not any(out.iterdir())
