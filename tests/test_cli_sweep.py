"""``flexmech sweep`` and ``flexmech map`` (no Qt)."""
import csv
import re

import pytest

from app.shell.cli import main
from app.shell.cli_sweep import EXIT_CANCELLED, EXIT_FAILED, EXIT_INVALID, EXIT_OK
from app.shell import cli
from solver.contact.routh import routh_impulse
from solver.sweeps import read_rows


def test_exit_codes_are_the_commands_own():
    assert (EXIT_OK, EXIT_INVALID, EXIT_FAILED, EXIT_CANCELLED) == (cli.EXIT_OK, cli.EXIT_INVALID, cli.EXIT_FAILED,
                                                                    cli.EXIT_CANCELLED)


def test_sweep_runs_the_variants_and_writes_the_table(tmp_path, capsys):
    out = tmp_path / "e"
    code = main(["sweep", "rod_impact_rigid", "--vary", "contacts[B-ground].e=0.5,1", "--set",
                 "solver.end_time=0.01", "--collect", "final(energy/kinetic)", "--out", str(out), "--workers", "1",
                 "--quiet"])
    assert code == EXIT_OK
    printed = capsys.readouterr().out
    assert "2 completed, 0 failed, 0 already in the table" in printed
    assert re.search(r"s on 1 worker: \S+ s solving 2 runs, -?\d+ ms per run beyond its solve", printed)
    rows = read_rows(out)
    assert [r["contacts[B-ground].e"] for r in rows] == [0.5, 1.0]
    assert [r["solver.end_time"] for r in rows] == [0.01, 0.01]
    # 1/2 (0.6^2 + 1) before the impact, plus the closed form's kinetic energy change
    dT = routh_impulse([[2.5, -1.5], [-1.5, 2.5]], -1.0, 0.6, 0.73, 0.7, 0.5, "energetic").dT
    assert rows[0]["final(energy/kinetic)"] == pytest.approx(0.68 + dT, abs=1e-9)
    with open(out / "sweep.csv", encoding="utf-8") as f:
        assert len(list(csv.DictReader(f))) == 2


@pytest.mark.parametrize("argv, message", [
    (["--vary", "contacts[B-ground].e=0.5:x"], "--vary contacts[B-ground].e=0.5:x: '0.5:x' is not"),
    (["--vary", "contacts[B-ground].e=0.5,2"], "contacts[B-ground].e: must be <= 1"),
    (["--vary", "contacts[tip].e=0.5"], "contacts[tip].e: no item 'tip' in contacts"),
    (["--vary", "contacts[B-ground].e=0.5", "--collect", "max(node/C/vx)"], "the runs have no series 'node/C/vx'"),
    (["--vary", "contacts[B-ground].e=0.5", "--collect", "contacts.B-ground.impulses[0].I_n_N_s"],
     "contacts.B-ground.impulses is the number of impulses"),
    ([], "parameters: vary at least one field"),
])
def test_a_bad_sweep_runs_nothing_and_says_why(tmp_path, capsys, argv, message):
    code = main(["sweep", "rod_impact_rigid", "--out", str(tmp_path / "s"), "--quiet", *argv])
    assert code == EXIT_INVALID
    assert message in capsys.readouterr().err
    assert not (tmp_path / "s" / "sweep.parquet").exists()


def test_map_writes_png_and_csv_and_reports_the_types(tmp_path, capsys):
    png, table = tmp_path / "map.png", tmp_path / "map.csv"
    code = main(["map", "rod_impact_rigid", "--x", "mu_s=0.2:1:81", "--y", "e=0:1:11", "--png", str(png),
                 "--csv", str(table)])
    assert code == EXIT_OK
    text = capsys.readouterr().out
    assert "μc = |c|/b = 0.6" in text
    assert "SCD        440 of 891 cells" in text and "SCS        451 of 891 cells" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with open(table, encoding="utf-8") as f:
        assert sum(1 for _ in f) == 892


def test_a_map_output_that_is_a_folder_is_refused_before_the_run_and_the_map(tmp_path, capsys, monkeypatch):
    """A map at an impulse of a model runs the model first; a --png or --csv named where a folder is was refused
    only after the run and the map (and a PNG written before a refused CSV was left); now before anything."""
    monkeypatch.setattr("solver.api.simulate", lambda *a, **k: pytest.fail("the model was run"))
    png = tmp_path / "map.png"
    code = main(["map", "pendulum_impact", "--impulse", "1", "--x", "mu_s=0:2:5", "--y", "e=0:1:5",
                 "--png", str(png), "--csv", str(tmp_path)])
    assert code == EXIT_INVALID
    assert "is a folder, not a file Flexmech may replace" in capsys.readouterr().err
    assert not png.exists()


def test_map_at_an_impulse_of_a_results_folder(tmp_path, capsys):
    assert main(["run", "pendulum_impact", "--out", str(tmp_path / "run"), "--quiet"]) == EXIT_OK
    code = main(["map", str(tmp_path / "run"), "--impulse", "1", "--x", "mu_s=0:2:5", "--y", "angle=-60:60:5"])
    assert code == EXIT_OK
    assert "impulse of tip-surface at t = 0.1526" in capsys.readouterr().out
    assert main(["map", str(tmp_path / "run"), "--impulse", "9", "--x", "mu_s=0:2:5", "--y", "e=0:1:5"]) \
        == EXIT_INVALID
    assert "--impulse 9: the run has 3 impulses at contacts[tip-surface]" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--x", "mu=0:1:5", "--y", "e=0:1:5"], "x axis: unknown quantity 'mu'"),
    (["--x", "mu_s=0:1", "--y", "e=0:1:5"], "--x mu_s=0:1: write NAME=LOW:HIGH:COUNT"),
    (["--x", "mu_s=0:1:5", "--y", "e=0:1:5", "--contact", "tip"], "--contact tip: the model has no such contact"),
])
def test_a_bad_map_says_why(capsys, argv, message):
    assert main(["map", "rod_impact_rigid", *argv]) == EXIT_INVALID
    assert message in capsys.readouterr().err


def test_ctrl_c_in_a_terminal_cancels_the_sweep_without_tracebacks(tmp_path, interactive_sigint):
    """Ctrl-C reaches the whole process group, workers included: the sweep stops, keeps
    its finished runs, exits 130, and no process prints a traceback."""
    import os
    import signal
    import subprocess
    import sys

    out = tmp_path / "sweep"
    proc = subprocess.Popen([sys.executable, "-m", "app.shell.cli", "sweep", "bar_mass_impact", "--vary",
                             "links[bar].mesh.elements=10:60:30", "--out", str(out), "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    seen = ""

    def runs_done() -> int:  # the progress bar's count (it may jump: two workers finish together)
        counts = re.findall(r" (\d+)/30 runs", seen)
        return int(counts[-1]) if counts else 0

    while runs_done() < 2 and proc.poll() is None:
        seen += proc.stderr.read(1)
    assert proc.poll() is None, "the sweep ended before two runs were reported"
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:  # the test failed: no sweep or workers left behind
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == EXIT_CANCELLED, stderr[-2000:]
    assert "Traceback" not in seen + stderr
    assert "cancelled; the finished runs are in the table" in stderr
    assert 2 <= len(read_rows(out)) < 30


def test_an_ensemble_reports_the_spread_of_its_statistics(tmp_path, capsys):
    """Six runs of the rigid rod, its approach speed perturbed by up to 1 cm/s: the
    spread of the rebound is reported and written, the perturbed values tabulated."""
    out = tmp_path / "ens"
    code = main(["sweep", "rod_impact_rigid", "--design", "ensemble", "--samples", "6", "--perturb",
                 "initial_velocities[0].vy=0.01", "--set", "solver.end_time=0.01", "--collect",
                 "final(energy/kinetic)", "--out", str(out), "--workers", "1", "--quiet"])
    assert code == EXIT_OK
    text = capsys.readouterr().out
    assert "final(energy/kinetic)     6" in text and "spread.csv" in text
    rows = read_rows(out)
    vy = [r["initial_velocities[0].vy"] for r in rows]
    assert len(set(vy)) == 6 and all(abs(v + 1.0) <= 0.01 for v in vy)
    with open(out / "spread.csv", encoding="utf-8") as f:
        spread = {r["column"]: r for r in csv.DictReader(f)}
    kinetic = [r["final(energy/kinetic)"] for r in rows]
    assert float(spread["final(energy/kinetic)"]["min"]) == pytest.approx(min(kinetic), rel=1e-12)
    assert float(spread["final(energy/kinetic)"]["max"]) == pytest.approx(max(kinetic), rel=1e-12)
    assert "initial_velocities[0].vy" not in spread  # an input, not a statistic
