"""Issue 29: hostile output folders.  A symbolic link planted at any name a command writes
(a run's results, an export, a sweep's files, a model save, an image) is never followed: the
file it names stays as it was and the command refuses, naming the link; a dangling link gets
no folder created.  And the loader refuses what is not a regular file in a results folder."""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from app.shell import cli
from solver.model.io import examples_dir, save_model
from solver.results.files import export_csv, load_results, write_results
from solver.results.streaming import FOLDER_FILES
from solver.safe_write import UnsafeTarget, atomic_write_text, replacing, safe_folder
from solver.sweeps.table import SWEEP_JSON, TABLE, TABLE_CSV, write_rows
from tests.solver.test_results_io import make_results

THEIRS = "theirs: not Flexmech's to change\n"


@pytest.fixture
def victim(tmp_path) -> Path:
    """A file outside every folder a command writes."""
    path = tmp_path / "elsewhere" / "victim.txt"
    path.parent.mkdir()
    path.write_text(THEIRS, encoding="utf-8")
    return path


@pytest.fixture
def model_file(tmp_path) -> Path:
    """The rigid rod's impact, a few milliseconds of it."""
    model = json.loads((examples_dir() / "rod_impact_rigid.json").read_text(encoding="utf-8"))
    model["solver"]["end_time"] = 0.002
    path = tmp_path / "rod.json"
    path.write_text(json.dumps(model), encoding="utf-8")
    return path


def plant(link: Path, target: Path) -> None:
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(target)


def untouched(victim: Path) -> bool:
    return victim.read_text(encoding="utf-8") == THEIRS


# --------------------------------------------------------------------------- runs
@pytest.mark.parametrize("name", ["summary.json", "model.json", "tables.zip"])
def test_a_run_refuses_a_link_at_a_name_it_writes(tmp_path, capsys, victim, model_file, name):
    out = tmp_path / "out"
    plant(out / name, victim)
    assert cli.main(["run", str(model_file), "--out", str(out), "--quiet"]) == cli.EXIT_INVALID
    err = capsys.readouterr().err
    assert f"{out / name} is a symbolic link" in err and "Traceback" not in err
    assert untouched(victim) and (out / name).is_symlink()
    assert sorted(p.name for p in out.iterdir()) == [name]  # nothing else written, no temporary left


def test_links_at_every_name_of_a_results_folder_reach_nothing(tmp_path, victim, model_file):
    out = tmp_path / "out"
    for name in FOLDER_FILES:
        plant(out / name, victim)
    cli.main(["run", str(model_file), "--out", str(out), "--quiet"])
    assert untouched(victim)
    with pytest.raises(UnsafeTarget):
        write_results(make_results(), out)
    assert untouched(victim)


def test_a_dangling_link_gets_no_folder_made(tmp_path, capsys, model_file):
    out = tmp_path / "out"
    plant(out / "summary.json", tmp_path / "made" / "by" / "nobody.json")
    assert cli.main(["run", str(model_file), "--out", str(out), "--quiet"]) == cli.EXIT_INVALID
    assert "is a symbolic link" in capsys.readouterr().err
    assert not (tmp_path / "made").exists()


def test_a_folder_or_fifo_at_a_name_is_refused(tmp_path):
    (tmp_path / "a" / "tables.zip").mkdir(parents=True)
    with pytest.raises(UnsafeTarget, match="tables.zip is a folder"):
        write_results(make_results(), tmp_path / "a")
    os.mkfifo(tmp_path / "b.json")
    with pytest.raises(UnsafeTarget, match="b.json is a FIFO"):
        atomic_write_text(tmp_path / "b.json", "{}")


def test_a_link_planted_after_the_check_is_replaced_not_followed(tmp_path, victim):
    """The rename replaces a name: a link put there while the file was written is gone."""
    target = tmp_path / "out.csv"
    with replacing(target) as tmp:
        tmp.write_text("ours", encoding="utf-8")
        plant(target, victim)
    assert untouched(victim) and not target.is_symlink() and target.read_text(encoding="utf-8") == "ours"


# ------------------------------------------------------------------------- exports
def test_export_csv_refuses_a_link_at_a_table_name(tmp_path, capsys, victim):
    write_results(make_results(), tmp_path / "run")
    plant(tmp_path / "run" / "nodes.csv", victim)
    assert cli.main(["export", str(tmp_path / "run"), "--csv"]) == 1
    assert "nodes.csv is a symbolic link" in capsys.readouterr().err
    plant(tmp_path / "csv" / "energy.csv", tmp_path / "nowhere" / "energy.csv")
    with pytest.raises(UnsafeTarget):
        export_csv(tmp_path / "run", tmp_path / "csv", ["energy"])
    assert untouched(victim) and not (tmp_path / "nowhere").exists()


def test_map_and_optimum_images_refuse_a_link(tmp_path, capsys, victim):
    plant(tmp_path / "map.png", victim)
    plant(tmp_path / "map.csv", victim)
    argv = ["map", "rod_impact_rigid", "--x", "mu_s=0.2:1:3", "--y", "e=0:1:3"]
    assert cli.main([*argv, "--png", str(tmp_path / "map.png")]) == cli.EXIT_INVALID
    assert cli.main([*argv, "--csv", str(tmp_path / "map.csv")]) == cli.EXIT_INVALID
    assert capsys.readouterr().err.count("is a symbolic link") == 2
    assert untouched(victim)


def test_plot_and_animation_exports_refuse_a_link(qtbot, tmp_path, victim):
    import pyqtgraph as pg
    from PySide6.QtGui import QImage

    from app.results.export import export_animation, export_plot

    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.plot([0, 1], [0, 1])
    for name in ("plot.png", "plot.svg"):
        plant(tmp_path / name, victim)
        with pytest.raises(UnsafeTarget):
            export_plot(plot, tmp_path / name)
    plant(tmp_path / "motion.gif", victim)
    with pytest.raises(UnsafeTarget):
        export_animation(lambda t: QImage(8, 8, QImage.Format.Format_RGB888), tmp_path / "motion.gif", 0.0, 0.1,
                         fps=10.0)
    export_plot(plot, tmp_path / "fresh.svg")  # a name free of links is written, no temporary left
    assert untouched(victim) and sorted(p.name for p in tmp_path.iterdir()) == [
        "elsewhere", "fresh.svg", "motion.gif", "plot.png", "plot.svg"]


# -------------------------------------------------------------------------- sweeps
def test_a_sweep_refuses_a_link_at_its_description(tmp_path, capsys, victim):
    plant(tmp_path / "s" / SWEEP_JSON, victim)
    argv = ["sweep", "rod_impact_rigid", "--vary", "contacts[B-ground].e=0.5", "--out", str(tmp_path / "s"), "--quiet"]
    assert cli.main(argv) == cli.EXIT_INVALID
    assert "sweep.json is a symbolic link" in capsys.readouterr().err
    assert untouched(victim)


def test_a_sweep_refuses_a_link_at_its_lock(tmp_path, capsys, victim):
    plant(tmp_path / "s" / "sweep.lock", victim)
    argv = ["sweep", "rod_impact_rigid", "--vary", "contacts[B-ground].e=0.5", "--out", str(tmp_path / "s"), "--quiet"]
    assert cli.main(argv) == cli.EXIT_INVALID
    assert "sweep.lock: cannot take the sweep's lock" in capsys.readouterr().err
    assert untouched(victim)


def test_an_ensembles_spread_refuses_a_link(tmp_path, victim):
    from solver.sweeps.spread import SPREAD_CSV, write_spread

    plant(tmp_path / SPREAD_CSV, victim)
    with pytest.raises(UnsafeTarget, match="is a symbolic link"):
        write_spread(tmp_path, [{"column": "x", "runs": 2, "mean": 1.0, "std": 0.0, "min": 1.0, "p05": 1.0,
                                 "median": 1.0, "p95": 1.0, "max": 1.0, "std_rel": 0.0}])
    assert untouched(victim)


@pytest.mark.parametrize("name", [TABLE, TABLE_CSV])
def test_a_sweep_table_refuses_a_link(tmp_path, victim, name):
    plant(tmp_path / name, victim)
    with pytest.raises(UnsafeTarget, match="is a symbolic link"):
        write_rows(tmp_path, [{"run": "r0", "x": 1.0}], ["run"])
    assert untouched(victim)


def test_the_runs_folder_of_a_sweep_is_never_a_link(tmp_path, victim):
    plant(tmp_path / "runs", victim.parent)
    with pytest.raises(UnsafeTarget, match="runs is a symbolic link"):
        safe_folder(tmp_path / "runs")
    (tmp_path / "runs2").write_text("", encoding="utf-8")
    with pytest.raises(UnsafeTarget, match="runs2 is a file, not a folder"):
        safe_folder(tmp_path / "runs2")
    assert safe_folder(tmp_path / "runs3" / "r0").is_dir()
    assert sorted(p.name for p in victim.parent.iterdir()) == ["victim.txt"]


# --------------------------------------------------------------------------- saves
def test_a_model_save_and_a_recovery_file_refuse_a_link(tmp_path, victim):
    from app.shell.recovery import RecoveryFile

    plant(tmp_path / "model.json", victim)
    with pytest.raises(UnsafeTarget):
        save_model({"format": "flexmech-model"}, tmp_path / "model.json")
    recovery = RecoveryFile(tmp_path / "recovery")
    plant(recovery.path, victim)
    with pytest.raises(UnsafeTarget):
        recovery.write({}, None)
    recovery.abandon()
    assert untouched(victim)


# ---------------------------------------------------------------- the loader
@pytest.mark.parametrize("name", ["summary.json", "model.json", "tables.zip"])
def test_the_loader_refuses_a_fifo_or_a_link_to_a_device(tmp_path, name):
    write_results(make_results(), tmp_path / "run")
    (tmp_path / "run" / name).unlink()
    os.mkfifo(tmp_path / "run" / name)
    with pytest.raises(Exception, match="not a regular file"):  # never waits for a writer
        load_results(tmp_path / "run")
    (tmp_path / "run" / name).unlink()
    (tmp_path / "run" / name).symlink_to("/dev/zero")
    with pytest.raises(Exception, match="symbolic link"):
        load_results(tmp_path / "run")


def test_concurrent_runs_into_one_folder_each_succeed(tmp_path):
    """Two writes at once: neither removes the other's temporaries, their renames do not
    interleave: each ends without error and the folder loads."""
    errors = []

    def write():
        try:
            for _ in range(5):
                write_results(make_results(), tmp_path / "run")
        except Exception as exc:  # noqa: BLE001 -- collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=write) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    load_results(tmp_path / "run")


def test_a_zip_bomb_in_tables_zip_is_refused_before_it_is_decompressed(tmp_path):
    """A member of 200 MB of zeros deflated to 200 kB, the summary made to match (its hashes)."""
    import hashlib
    import zipfile

    from solver.results.files import summary_text

    write_results(make_results(), tmp_path / "run")
    bundle = tmp_path / "run" / "tables.zip"
    with zipfile.ZipFile(bundle) as archive:
        kept = {name: archive.read(name) for name in archive.namelist() if name != "nodes.arrow"}
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("nodes.arrow", "w", force_zip64=True) as member:
            for _ in range(200):
                member.write(bytes(1 << 20))
        for name, data in kept.items():
            archive.writestr(name, data)
    summary = json.loads((tmp_path / "run" / "summary.json").read_text(encoding="utf-8"))
    summary["files"]["tables.zip"]["sha256"] = hashlib.sha256(bundle.read_bytes()).hexdigest()
    (tmp_path / "run" / "summary.json").write_text(summary_text(summary), encoding="utf-8")
    from solver.errors import ResultsFormatError

    with pytest.raises(ResultsFormatError, match=r"nodes.arrow would decompress to 209715200 bytes .* more than 100 "
                                                 r"times \(refused as a ZIP bomb\)"):
        load_results(tmp_path / "run")
