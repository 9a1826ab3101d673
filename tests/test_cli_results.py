"""``flexmech run --record`` and ``flexmech export --csv``."""
from __future__ import annotations

import pytest

from app.shell import cli
from solver import api
from solver.results.files import write_results
from solver.results.frames import Results
from tests.solver.test_results_io import make_results
from tests.test_cli import _streams


def test_record_options_set_what_the_run_records(monkeypatch, tmp_path):
    seen = []

    def simulate(model, progress=None, cancel=None, frames=None):
        seen.append(model["solver"])
        return Results(model={}, layout=None, meta={"status": "completed"})

    monkeypatch.setattr(api, "simulate", simulate)
    _streams(monkeypatch, [])
    argv = ["run", "slider_crank_flexible", "--out", str(tmp_path), "--quiet", "--record", "stations=0,0.5",
            "--record", "rates=no", "--record", "steps=off", "--record", "precision=single", "--record", "interval=1e-3"]
    assert cli.main(argv) == cli.EXIT_OK
    assert seen[0]["output_interval"] == 1e-3
    assert seen[0]["record"] == {"element_stations": [0.0, 0.5], "rates": False, "steps": False, "precision": "single"}


def test_record_options_choose_the_links_contacts_and_moving_entries(monkeypatch, tmp_path):
    seen = []
    monkeypatch.setattr(api, "simulate", lambda model, **k: seen.append(model["solver"]["record"]) or Results(
        model={}, layout=None, meta={"status": "completed"}))
    _streams(monkeypatch, [])
    argv = ["run", "slider_crank_flexible", "--out", str(tmp_path), "--quiet", "--record", "links=rod",
            "--record", "contacts=none", "--record", "moving=all"]
    assert cli.main(argv) == cli.EXIT_OK
    assert seen[0] == {"links": ["rod"], "contacts": []}  # 'all' leaves the field out: its default


def test_a_record_of_all_links_undoes_the_models_choice(tmp_path):
    from app.shell.cli_results import record_edit

    doc = {"solver": {"record": {"links": ["rod"], "contacts": ["tip"]}}}
    record_edit(["links=all", "contacts=tip, top"])(doc)
    assert doc["solver"]["record"] == {"contacts": ["tip", "top"]}


def test_the_run_records_the_chosen_links_only(tmp_path):
    import json

    from solver.model.io import examples_dir
    from solver.results.files import load_results

    model = json.loads((examples_dir() / "four_bar_flexible.json").read_text(encoding="utf-8"))
    model["solver"]["end_time"] = 0.002
    (tmp_path / "four_bar.json").write_text(json.dumps(model), encoding="utf-8")
    argv = ["run", str(tmp_path / "four_bar.json"), "--out", str(tmp_path / "out"), "--quiet",
            "--record", "links=coupler,follower"]
    assert cli.main(argv) == cli.EXIT_OK
    results = load_results(tmp_path / "out")
    assert results.layout.flexible_links == ["coupler", "follower"] and list(results.layout.unrecorded_links) == ["crank"]


@pytest.mark.parametrize(("spec", "said"), [
    ("stations=2", "solver.record.element_stations[0]: must be <= 1"),
    ("precision=half", "solver.record.precision"),
    ("rates=maybe", "--record: rates=maybe: expected yes or no"),
    ("interval=soon", "--record: interval=soon: 'soon' is not a number: expected a time, s (0: every step)"),
    ("stations=0,mid", "--record: stations=0,mid: 'mid' is not a number: expected comma-separated fractions"),
    ("colour=red", "--record: 'colour=red': expected KEY=VALUE"),
    ("links=crank", "solver.record.links[0]: link 'crank' is rigid"),
    ("links=rood", "solver.record.links[0]: no link with id 'rood'"),
])
def test_a_bad_record_option_is_named_and_nothing_runs(monkeypatch, tmp_path, capsys, spec, said):
    monkeypatch.setattr(api, "simulate", lambda *a, **k: pytest.fail("ran"))
    assert cli.main(["run", "slider_crank_flexible", "--out", str(tmp_path), "--record", spec]) == cli.EXIT_INVALID
    assert said in capsys.readouterr().err


def test_export_writes_the_chosen_tables_as_csv(tmp_path, capsys):
    write_results(make_results(), tmp_path / "run")
    argv = ["export", str(tmp_path / "run"), "--csv", "--out", str(tmp_path / "csv"), "--table", "nodes",
            "--table", "events"]
    assert cli.main(argv) == cli.EXIT_OK
    assert sorted(p.name for p in (tmp_path / "csv").iterdir()) == ["events.csv", "nodes.csv"]
    assert (tmp_path / "csv" / "nodes.csv").read_text().splitlines()[0] == (
        "time_s,node,x_m,y_m,vx_m_s,vy_m_s,ax_m_s2,ay_m_s2")
    assert str(tmp_path / "csv" / "nodes.csv") in capsys.readouterr().out


def test_export_says_which_table_the_run_has_nothing_in(tmp_path, capsys):
    """A table the run has no rows in (contacts of a model without pairs) is written with its header, and said."""
    assert cli.main(["run", "robot_arm", "--out", str(tmp_path / "run"), "--quiet"]) == cli.EXIT_OK
    capsys.readouterr()
    assert cli.main(["export", str(tmp_path / "run"), "--csv", "--out", str(tmp_path / "csv"), "--table", "contacts",
                     "--table", "nodes"]) == cli.EXIT_OK
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{tmp_path / 'csv' / 'contacts.csv'} (its header only: the run has nothing in this table)",
                   str(tmp_path / "csv" / "nodes.csv")]
    assert (tmp_path / "csv" / "contacts.csv").read_text().count("\n") == 1


def test_export_of_every_table_into_the_results_folder(tmp_path):
    write_results(make_results(), tmp_path)
    assert cli.main(["export", str(tmp_path), "--csv"]) == cli.EXIT_OK
    assert len(list(tmp_path.glob("*.csv"))) == 11  # ten time series and the events


def test_export_of_a_damaged_folder_says_why(tmp_path, capsys):
    write_results(make_results(), tmp_path)
    (tmp_path / "tables.zip").write_bytes(b"no")
    assert cli.main(["export", str(tmp_path), "--csv"]) == 1
    err = capsys.readouterr().err
    assert "tables.zip: not the file" in err and "Traceback" not in err


def test_export_needs_the_csv_flag_and_a_known_table(tmp_path):
    for argv in (["export", str(tmp_path)], ["export", str(tmp_path), "--csv", "--table", "strains"]):
        with pytest.raises(SystemExit) as usage:
            cli.main(argv)
        assert usage.value.code == cli.EXIT_USAGE


def test_a_model_too_big_to_record_in_full_runs_with_a_smaller_record(monkeypatch, tmp_path, capsys):
    """--record applies before the model is validated: the estimate of the results counts what is recorded."""
    import json

    from tests.benchmarks.bench_results_memory import cantilever

    path = tmp_path / "cantilever.json"
    path.write_text(json.dumps(cantilever(frames=200_000)), encoding="utf-8")
    ran = []
    monkeypatch.setattr(api, "simulate", lambda model, **k: ran.append(model) or Results(
        model={}, layout=None, meta={"status": "completed"}))
    _streams(monkeypatch, [])
    assert cli.main(["run", str(path), "--out", str(tmp_path / "out")]) == cli.EXIT_INVALID
    said = capsys.readouterr().err
    assert "solver.step: 2e+05 stored frames (one at each step) of 467 kB make about 93.3 GB of results" in said
    assert not ran
    argv = ["run", str(path), "--out", str(tmp_path / "out"), "--quiet", "--record", "stations=none",
            "--record", "rates=no", "--record", "precision=single"]
    assert cli.main(argv) == cli.EXIT_OK and len(ran) == 1
