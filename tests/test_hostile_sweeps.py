"""Sweeps against hostile or careless input (issue 29): schedulers that never answer or
speak another protocol, designs past the cap, two sweeps into one folder, tables edited
or orphaned, the local cluster reachable only from this machine."""
import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.shell.cli import main
from app.shell.cli_sweep import EXIT_INVALID
from solver.model.io import examples_dir, load_model
from solver.sweeps import Parameter, SweepError, SweepSpec, read_rows, run_sweep, spec_from_json
from solver.sweeps.cluster import sweep_client
from solver.sweeps.folder_lock import sweep_lock
from solver.sweeps.scheduler_probe import probe_scheduler

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rod():
    return load_model(examples_dir() / "rod_impact_rigid.json")


@pytest.fixture
def listener():
    """A TCP listener on the loopback that accepts and then sends ``reply`` (nothing:
    silent); yields its address."""
    servers = []

    def start(reply: bytes = b"") -> str:
        server = socket.create_server(("127.0.0.1", 0))
        servers.append(server)

        def serve():
            while True:
                try:
                    conn, _ = server.accept()
                except OSError:
                    return
                servers.append(conn)
                if reply:
                    conn.sendall(reply)

        threading.Thread(target=serve, daemon=True).start()
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"

    yield start
    for s in servers:
        s.close()


def test_a_scheduler_that_never_answers_is_reported_within_its_timeout(rod, listener, tmp_path, monkeypatch):
    address = listener()
    monkeypatch.setattr("solver.sweeps.scheduler_probe.ANSWER_TIMEOUT_S", 2)
    started = time.monotonic()
    with pytest.raises(SweepError, match=f"scheduler {address}: accepted the connection but said nothing within 2 s"):
        run_sweep(rod, SweepSpec((Parameter("contacts[B-ground].e", (0.5,)),)), tmp_path, scheduler=address)
    assert time.monotonic() - started < 30


def test_a_listener_of_another_protocol_is_not_taken_for_a_scheduler(listener):
    address = listener(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
    with pytest.raises(SweepError, match="answered, but not as a dask scheduler does"):
        probe_scheduler(address, timeout=5)


@pytest.mark.parametrize("address, message", [
    ("tls://127.0.0.1:8786", "only tcp:// addresses are supported"),
    ("ucx://127.0.0.1:8786", "only tcp:// addresses are supported"),
    ("tcp://head", "write tcp://HOST:PORT"),
    ("tcp://head:99999", "write tcp://HOST:PORT"),
])
def test_addresses_a_sweep_cannot_use_are_refused_before_anything_runs(tmp_path, capsys, address, message):
    code = main(["sweep", "rod_impact_rigid", "--vary", "contacts[B-ground].e=0.5", "--out", str(tmp_path / "s"),
                 "--scheduler", address, "--quiet"])
    assert code == EXIT_INVALID
    assert message in capsys.readouterr().err
    assert not (tmp_path / "s").exists()


def test_the_local_cluster_listens_on_the_loopback_only():
    import psutil

    with sweep_client(workers=1) as client:
        client.wait_for_workers(1, timeout=60)
        me = psutil.Process()
        addresses = {c.laddr.ip for p in [me, *me.children(recursive=True)]
                     for c in p.net_connections(kind="inet") if c.status == psutil.CONN_LISTEN}
    assert addresses and addresses <= {"127.0.0.1"}, addresses


@pytest.mark.parametrize("argv", [
    ["--vary", "a=0:1:65536", "--vary", "b=0:1:65536", "--vary", "c=0:1:65536", "--vary", "d=0:1:65536"],
    ["--design", "zip", "--vary", "contacts[B-ground].e=" + ",".join(["0.5"] * 200_000)],
])
def test_run_counts_do_not_wrap_and_every_design_is_capped(tmp_path, capsys, argv):
    code = main(["sweep", "rod_impact_rigid", "--out", str(tmp_path / "s"), "--quiet", *argv])
    assert code == EXIT_INVALID
    assert "runs, more than 100000" in capsys.readouterr().err


def test_a_grid_over_the_cap_says_what_it_would_cost(rod, tmp_path):
    spec = SweepSpec((Parameter("contacts[B-ground].e", low=0, high=1, count=1000),
                      Parameter("contacts[B-ground].mu_s", low=0.7, high=1, count=1000)))
    with pytest.raises(SweepError) as info:
        run_sweep(rod, spec, tmp_path / "s", workers=2)
    text = str(info.value)
    assert "design grid: 1000000 runs, more than 100000: about" in text and "on 2 workers" in text
    assert "the table about" in text and "results folder (--keep-results) about" in text
    assert not (tmp_path / "s").exists()


def test_a_count_past_the_cap_is_refused_before_its_values_are_made():
    with pytest.raises(SweepError, match=r"count: must be an integer from 1 to 100000"):
        spec_from_json({"parameters": [{"path": "contacts[B-ground].e", "low": 0, "high": 1, "count": 10**20}]})


def test_a_second_sweep_into_a_folder_in_use_is_refused_and_a_dead_holders_lock_is_taken(rod, tmp_path):
    spec = SweepSpec((Parameter("contacts[B-ground].e", (0.5,)),))
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from solver.sweeps.folder_lock import "
                               "sweep_lock\nwith sweep_lock(sys.argv[1]):\n print('held', flush=True); time.sleep(60)",
                               str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(SweepError, match=rf"another sweep is running in this folder \(process {holder.pid} on"):
            run_sweep(rod, spec, tmp_path, workers=1)
        assert read_rows(tmp_path) == []
    finally:
        holder.kill()
        holder.communicate()
    outcome = run_sweep(rod, spec, tmp_path, workers=1)  # the killed holder's lock is stale: taken
    assert outcome.completed == 1


def test_resuming_refuses_edited_rows_orphaned_tables_and_rows_without_ids(rod, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    spec = SweepSpec((Parameter("contacts[B-ground].e", (0.4, 0.6)),), collect=("final(energy/kinetic)",))
    with sweep_lock(tmp_path):  # held by this process in another open file: the sweep is refused
        with pytest.raises(SweepError, match="another sweep is running in this folder"):
            run_sweep(rod, spec, tmp_path, workers=1)
    assert run_sweep(rod, spec, tmp_path, workers=1).completed == 2
    table = pq.read_table(tmp_path / "sweep.parquet")
    edited = table.set_column(table.schema.get_field_index("contacts[B-ground].e"), "contacts[B-ground].e",
                              pa.array([0.4, 0.7]))
    pq.write_table(edited, tmp_path / "sweep.parquet")
    with pytest.raises(SweepError, match=r"rows that are not runs of the model"):
        run_sweep(rod, spec, tmp_path, workers=1)
    pq.write_table(table.drop(["run"]), tmp_path / "sweep.parquet")
    with pytest.raises(SweepError, match="has rows without a run id"):
        run_sweep(rod, spec, tmp_path, workers=1)
    pq.write_table(table, tmp_path / "sweep.parquet")
    (tmp_path / "sweep.json").unlink()
    other = json.loads(json.dumps(rod))
    other["links"][0]["mass"] = 2.0
    with pytest.raises(SweepError, match="holds a sweep table but no sweep.json"):
        run_sweep(other, spec, tmp_path, workers=1)
    assert pq.read_table(tmp_path / "sweep.parquet").num_rows == 2


@pytest.mark.parametrize("spec_text, message", [
    ('{"parameters": [{"path": "contacts[B-ground].e", "low": 0, "high": 1}], "design": "lhs", "samples": true}',
     "samples: a Latin hypercube needs samples >= 1"),
    ("[" * 100_000 + "]" * 100_000, "cannot read the sweep"),
])
def test_bad_sweep_files_are_refused_in_words(tmp_path, capsys, spec_text, message):
    spec = tmp_path / "spec.json"
    spec.write_text(spec_text)
    code = main(["sweep", "rod_impact_rigid", "--spec", str(spec), "--out", str(tmp_path / "s"), "--quiet"])
    assert code == EXIT_INVALID
    assert message in capsys.readouterr().err


def test_an_out_that_is_a_file_is_refused(tmp_path, capsys):
    (tmp_path / "f").write_text("mine")
    code = main(["sweep", "rod_impact_rigid", "--vary", "contacts[B-ground].e=0.5", "--out", str(tmp_path / "f"),
                 "--quiet"])
    assert code == EXIT_INVALID
    assert "is a file; give a folder for the sweep" in capsys.readouterr().err
    assert (tmp_path / "f").read_text() == "mine"


def test_an_optimum_scan_of_a_billion_runs_is_refused(capsys):
    code = main(["optimize", "moving_support_beam", "--field", "moving[prop].position.v1", "--bounds", "2", "4",
                 "--objective", "mean(energy/strain)", "--scan", "1000000000", "--quiet"])
    assert code == EXIT_INVALID
    assert "scan: must be an integer from 1 to 1000" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--csv", "--png"])
def test_an_optimum_output_that_is_a_folder_or_a_link_is_refused_before_any_run(tmp_path, capsys, monkeypatch, option):
    """The CSV or PNG an optimum writes at its end, named where a folder or a link is, was refused after the
    search's runs; it is refused before the first."""
    monkeypatch.setattr("solver.sweeps.optimum.run", lambda *a, **k: pytest.fail("a run was started"))
    (tmp_path / "elsewhere").write_text("mine")
    (tmp_path / "link").symlink_to(tmp_path / "elsewhere")
    for target, said in ((tmp_path, "is a folder, not a file Flexmech may replace"),
                         (tmp_path / "link", "is a symbolic link")):
        code = main(["optimize", "rod_impact_rigid", "--field", "contacts[B-ground].e", "--bounds", "0", "1",
                     "--objective", "max(contact/B-ground/F_n)", option, str(target), "--quiet"])
        assert code == EXIT_INVALID and said in capsys.readouterr().err
    assert (tmp_path / "elsewhere").read_text() == "mine"
