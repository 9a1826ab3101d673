"""The ``flexmech`` command line: every command and every exit code.

Most tests call :func:`app.shell.cli.main` in-process with the solver or the GUI replaced;
the end-to-end ones start ``python -m app.shell.cli`` as a user would.
"""
from __future__ import annotations

import errno
import json
import os
import re
import signal
import subprocess
import sys
import time
import types
from contextlib import contextmanager
from pathlib import Path

import pytest

from app.shell import cli, qt_check
from solver import api
from solver.model.io import examples_dir, list_examples
from solver.results.frames import Results

DEFAULT_EXAMPLE = examples_dir() / "slider_crank_flexible.json"


def _cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "app.shell.cli", *args], capture_output=True, text=True, timeout=timeout
    )


def _no_traceback(proc: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in proc.stdout + proc.stderr


# ----------------------------------------------------------------------------- examples

def test_examples_lists_every_bundled_example_with_its_description(examples):
    proc = _cli("examples")
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    for name, _path, description in list_examples():
        assert any(line.startswith(name) and line.endswith(description) for line in lines), name
    listed = {line.split()[0] for line in lines if line and not line.startswith("(")}
    assert listed == {path.stem for path in examples}
    assert len(examples) >= 5


def test_help_lists_commands_and_exit_codes():
    proc = _cli("--help")
    assert proc.returncode == 0
    for word in ("open", "run", "validate", "examples", "130"):
        assert word in proc.stdout


# ----------------------------------------------------------------------------- validate

def test_validate_a_valid_model(example, capsys):
    """In process (the command as a process: the tests of ``examples``, ``--help`` and the runs below)."""
    assert cli.main(["validate", str(example)]) == cli.EXIT_OK
    assert capsys.readouterr().out == f"{example}: valid\n"


def test_validate_accepts_an_example_name():
    assert cli.main(["validate", "robot_arm"]) == cli.EXIT_OK


def test_validate_an_invalid_model_lists_every_problem(tmp_path):
    doc = json.loads(DEFAULT_EXAMPLE.read_text(encoding="utf-8"))
    doc["links"][1]["section"]["d"] = -0.006
    doc["masses"][0]["mass"] = "heavy"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    proc = _cli("validate", str(path))
    assert proc.returncode == 1
    _no_traceback(proc)
    assert proc.stdout.splitlines() == [
        "links[rod].section.d: must be > 0",
        "masses[slider].mass: must be a number",
    ]


def test_validate_a_missing_file(tmp_path):
    proc = _cli("validate", str(tmp_path / "nothing.json"))
    assert proc.returncode == 1
    _no_traceback(proc)
    assert "No such file or directory" in proc.stdout


@pytest.mark.parametrize(
    "argv",
    [["validate"], ["run", str(DEFAULT_EXAMPLE)], ["simulate", "x.json"], ["examples", "--verbose"], ["open"]],
    ids=["validate-no-file", "run-no-out", "unknown-command", "unknown-option", "open-no-file"],
)
def test_usage_errors_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == cli.EXIT_USAGE
    assert "usage: flexmech" in capsys.readouterr().err


def test_headless_commands_never_import_qt(tmp_path):
    code = (
        "import sys\n"
        "from app.shell.cli import main\n"
        f"main(['validate', {str(DEFAULT_EXAMPLE)!r}])\n"
        "main(['examples'])\n"
        f"main(['run', {str(tmp_path / 'missing.json')!r}, '--out', {str(tmp_path / 'out')!r}])\n"
        "qt = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'app.shell.gui'))\n"
        "print(qt)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "[]"


def test_a_run_limits_openblas_to_one_thread_before_numpy_loads_it():
    """The command line is parsed without numpy (``flexmech run`` sets OPENBLAS_NUM_THREADS
    first: OpenBLAS reads it once, as numpy loads it, and would start a spinning thread a core)."""
    code = ("import sys\nfrom app.shell.cli import build_parser\nbuild_parser()\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'scipy', 'numba', 'pyarrow')))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "[]"


# ----------------------------------------------------------------------------- GUI

@pytest.fixture
def fake_gui(monkeypatch):
    """Replace ``app.shell.gui`` by a recorder; Qt is taken to be available."""
    calls: list[str | None] = []

    def launch(path: str | None, welcome: bool = False) -> int:
        calls.append(path)
        launch.welcome = welcome  # the start page: for flexmech without a file only
        return 0

    monkeypatch.setitem(sys.modules, "app.shell.gui", types.SimpleNamespace(launch=launch))
    monkeypatch.setattr(qt_check, "qt_problem", lambda gui=False: None)
    return calls


def test_no_command_opens_the_default_example(fake_gui):
    assert cli.main([]) == cli.EXIT_OK
    assert fake_gui == [str(DEFAULT_EXAMPLE)]
    assert sys.modules["app.shell.gui"].launch.welcome is True


def test_open_a_file(fake_gui, tmp_path):
    path = tmp_path / "model.json"
    path.write_text(DEFAULT_EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    assert cli.main(["open", str(path)]) == cli.EXIT_OK
    assert fake_gui == [str(path)]
    assert sys.modules["app.shell.gui"].launch.welcome is False


def test_a_model_file_alone_opens_it(fake_gui, tmp_path):
    """``flexmech model.json`` (a file manager's Open With) stopped with argparse's 'invalid choice'."""
    path = tmp_path / "model.json"
    path.write_text(DEFAULT_EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    assert cli.main([str(path)]) == cli.EXIT_OK
    assert fake_gui == [str(path)]


def test_open_an_example_by_name(fake_gui):
    assert cli.main(["open", "robot_arm"]) == cli.EXIT_OK
    assert fake_gui == [str(examples_dir() / "robot_arm.json")]


def test_open_a_missing_file(fake_gui, tmp_path, capsys):
    assert cli.main(["open", str(tmp_path / "nothing.json")]) == cli.EXIT_INVALID
    assert fake_gui == []
    assert "no such file" in capsys.readouterr().err


def test_gui_without_qt_libraries_names_the_apt_line(fake_gui, monkeypatch, capsys):
    monkeypatch.setattr(qt_check, "qt_problem", lambda gui=False: qt_check._message("Qt cannot be loaded: libEGL.so.1"))
    with pytest.raises(SystemExit) as info:
        cli.main([])
    assert info.value.code == 1
    assert fake_gui == []
    assert "apt-get install -y libegl1 libgl1" in capsys.readouterr().err


# ----------------------------------------------------------------------------- Qt check

def test_qt_loads_here():
    assert qt_check.qt_problem() is None


def test_missing_qt_library_gives_the_apt_command(monkeypatch, capsys):
    import PySide6

    monkeypatch.delattr(PySide6, "QtGui")
    monkeypatch.setitem(sys.modules, "PySide6.QtGui", None)
    with pytest.raises(SystemExit) as info:
        qt_check.require_qt()
    assert info.value.code == 1
    err = capsys.readouterr().err
    assert "Qt cannot be loaded" in err
    assert qt_check.apt_command() in err
    for package in ("libegl1", "libgl1", "libxkbcommon0", "libfontconfig1", "libdbus-1-3", "libxcb-cursor0"):
        assert f" {package}" in err


def test_window_needs_the_xcb_libraries(monkeypatch):
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.setattr(qt_check, "_loadable", lambda soname: soname != "libxcb-cursor.so.0")
    problem = qt_check.qt_problem(gui=True)
    assert problem is not None and "missing libxcb-cursor.so.0" in problem
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert qt_check.qt_problem(gui=True) is None


# ----------------------------------------------------------------------------- run

class _Stream:
    """A results folder the CLI streams into, recording what it is given instead of writing it."""

    def __init__(self, directory: Path, calls: list, error: OSError | None = None):
        self.directory, self.calls, self.error = directory, calls, error
        self.finished = False
        self.warnings: list[str] = []  # what finish wrote into summary.json

    def frames(self, results: Results) -> list:
        return []

    def finish(self, results: Results) -> None:
        if self.error is not None:
            raise self.error
        self.calls.append((results, self.directory))
        self.finished = True

    def fail(self, error: BaseException) -> None:
        """A run that raised before its first frame: nothing to keep."""
        return None


def _streams(monkeypatch, calls: list, fail: OSError | None = None) -> None:
    @contextmanager
    def streamed_results(directory):
        yield _Stream(Path(directory), calls, fail)

    monkeypatch.setattr("solver.results.streaming.streamed_results", streamed_results)


@pytest.fixture
def written(monkeypatch):
    """Record the results the CLI writes instead of writing them."""
    calls: list[tuple[Results, Path]] = []
    _streams(monkeypatch, calls)
    return calls


def _results(status: str, message: str = "") -> Results:
    return Results(model={}, layout=None, meta={"status": status, "message": message})


def test_run_completed(monkeypatch, written, tmp_path, capsys):
    def simulate(model, progress=None, cancel=None, on_frame=None, frames=None):
        for t in (0.0, 0.04, 0.0837758041):
            progress(t, 0.0837758041)
        return _results("completed")

    monkeypatch.setattr(api, "simulate", simulate)
    assert cli.main(["run", str(DEFAULT_EXAMPLE), "--out", str(tmp_path)]) == cli.EXIT_OK
    assert [d for _r, d in written] == [tmp_path]
    out, err = capsys.readouterr()
    assert f"results written to {tmp_path}" in out
    assert "100%" in err and "t = 0.08378 of 0.08378 s" in err


def test_run_quiet_prints_nothing(monkeypatch, written, tmp_path, capsys):
    def simulate(model, progress=None, cancel=None, frames=None):
        progress(1.0, 1.0)
        return _results("completed")

    monkeypatch.setattr(api, "simulate", simulate)
    assert cli.main(["run", str(DEFAULT_EXAMPLE), "--out", str(tmp_path), "--quiet"]) == cli.EXIT_OK
    assert capsys.readouterr() == ("", "")


def test_run_an_invalid_model(tmp_path, written, capsys):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "flexmech", "version": 1, "nodes": []}', encoding="utf-8")
    assert cli.main(["run", str(path), "--out", str(tmp_path / "out")]) == cli.EXIT_INVALID
    assert "nodes: the model has nothing that moves" in capsys.readouterr().err
    assert written == []


def test_run_into_a_folder_it_cannot_make_says_so_before_running(monkeypatch, written, tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setattr(api, "simulate", lambda *a, **k: pytest.fail("ran although it cannot write"))
    assert cli.main(["run", str(DEFAULT_EXAMPLE), "--out", str(blocker / "out")]) == cli.EXIT_INVALID
    err = capsys.readouterr().err
    assert err.startswith(f"flexmech: cannot write results to {blocker / 'out'}: ") and "Traceback" not in err
    assert written == []


def test_run_whose_results_cannot_be_written_exits_1(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(api, "simulate", lambda model, progress=None, cancel=None, frames=None: _results("completed"))
    _streams(monkeypatch, [], OSError(errno.ENOSPC, "No space left on device"))
    assert cli.main(["run", str(DEFAULT_EXAMPLE), "--out", str(tmp_path / "out")]) == cli.EXIT_INVALID
    err = capsys.readouterr().err  # after the progress bar
    assert err.endswith(f"flexmech: cannot write results to {tmp_path / 'out'}: No space left on device\n")
    assert "Traceback" not in err


def test_run_unsupported_feature_exits_3(monkeypatch, written, tmp_path, capsys):
    def simulate(model, progress=None, cancel=None, frames=None):
        raise api.UnsupportedFeature("this model needs solver features not available yet: contact pairs")

    monkeypatch.setattr(api, "simulate", simulate)
    assert cli.main(["run", str(DEFAULT_EXAMPLE), "--out", str(tmp_path / "out")]) == cli.EXIT_UNSUPPORTED
    assert "flexmech: this model needs solver features not available yet: contact pairs" in capsys.readouterr().err
    assert written == []


def test_run_solver_error_exits_4(monkeypatch, written, tmp_path, capsys):
    def simulate(model, progress=None, cancel=None, frames=None):
        raise api.SolverError("the mass matrix is singular")

    monkeypatch.setattr(api, "simulate", simulate)
    assert cli.main(["run", str(DEFAULT_EXAMPLE), "--out", str(tmp_path)]) == cli.EXIT_FAILED
    assert "the run failed: the mass matrix is singular" in capsys.readouterr().err


def _failing_frames(monkeypatch, after: int, error: Exception) -> None:
    """The run's frame after ``after`` of them raises ``error`` (a bug in the solver)."""
    from solver.results.outputs import OutputBuilder

    made = OutputBuilder.frame
    count = [0]

    def frame(self, st):
        count[0] += 1
        if count[0] > after:
            raise error
        return made(self, st)

    monkeypatch.setattr(OutputBuilder, "frame", frame)


def test_a_run_stopped_by_a_bug_keeps_its_frames_and_says_so_in_a_line(monkeypatch, tmp_path, capsys):
    """An unexpected error mid-run: the frames so far written (status failed, the time and
    the error in the message), one line said, the traceback in the error log, none on the terminal."""
    from solver.results.files import load_results

    monkeypatch.setenv("FLEXMECH_LOG_DIR", str(tmp_path / "log"))
    _failing_frames(monkeypatch, 5, ZeroDivisionError("float division by zero"))
    assert cli.main(["run", str(DEFAULT_EXAMPLE), "--out", str(tmp_path / "out"), "--quiet"]) == cli.EXIT_FAILED
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1
    assert err.startswith("flexmech: the run failed: stopped at t = ") and "(its last frame): an unexpected error, " \
        "ZeroDivisionError: float division by zero; partial results written to " in err
    assert f"the details are in {tmp_path / 'log' / 'flexmech.log'}" in err
    assert "Traceback" in (tmp_path / "log" / "flexmech.log").read_text(encoding="utf-8")
    results = load_results(tmp_path / "out")
    assert results.meta["status"] == "failed" and len(results.frames) == 5
    assert "ZeroDivisionError" in results.meta["traceback"]


def test_a_run_stopped_by_a_bug_before_its_first_frame_says_so_in_a_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("FLEXMECH_LOG_DIR", str(tmp_path / "log"))
    _failing_frames(monkeypatch, 0, KeyError("mesh"))
    assert cli.main(["run", str(DEFAULT_EXAMPLE), "--out", str(tmp_path / "out"), "--quiet"]) == cli.EXIT_FAILED
    err = capsys.readouterr().err
    assert err == (f"flexmech: the run failed: an unexpected error, KeyError: 'mesh'; the details are in "
                   f"{tmp_path / 'log' / 'flexmech.log'}\n")
    assert not (tmp_path / "out" / "summary.json").exists()


def test_a_bug_in_any_command_is_said_in_a_line_and_logged(monkeypatch, tmp_path, capsys):
    """Never a traceback on the terminal: an unexpected error (here in ``examples``) exits 70 with
    one line, the traceback in the error log."""
    monkeypatch.setenv("FLEXMECH_LOG_DIR", str(tmp_path))

    def broken():
        raise KeyError("description")

    monkeypatch.setattr(cli, "list_examples", broken)
    assert cli.main(["examples"]) == cli.EXIT_INTERNAL == 70
    err = capsys.readouterr().err
    assert err == (f"flexmech: an unexpected error, KeyError: 'description'; the details are in "
                   f"{tmp_path / 'flexmech.log'}\n")
    assert "Traceback" in (tmp_path / "flexmech.log").read_text(encoding="utf-8")


def test_run_failed_writes_partial_results_and_exits_4(monkeypatch, written, tmp_path, capsys):
    message = "stopped at t = 0.01 s: Newton did not converge"
    monkeypatch.setattr(api, "simulate", lambda model, progress=None, cancel=None, frames=None: _results("failed", message))
    assert cli.main(["run", str(DEFAULT_EXAMPLE), "--out", str(tmp_path), "--quiet"]) == cli.EXIT_FAILED
    assert [r.meta["status"] for r, _d in written] == ["failed"]
    err = capsys.readouterr().err
    assert message in err and "partial results written" in err


def test_run_ctrl_c_cancels_writes_partial_results_and_exits_130(monkeypatch, written, tmp_path, interactive_sigint):
    def simulate(model, progress=None, cancel=None, frames=None):
        os.kill(os.getpid(), signal.SIGINT)
        deadline = time.monotonic() + 10
        while not cancel() and time.monotonic() < deadline:
            time.sleep(0.01)
        return _results("cancelled" if cancel() else "completed")

    monkeypatch.setattr(api, "simulate", simulate)
    assert cli.main(["run", str(DEFAULT_EXAMPLE), "--out", str(tmp_path), "--quiet"]) == cli.EXIT_CANCELLED
    assert [r.meta["status"] for r, _d in written] == ["cancelled"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_run_started_with_sigint_ignored_keeps_ignoring_it(monkeypatch, written, tmp_path, ignored_sigint):
    """A background job: Ctrl-C at the terminal is not for it, and the run completes."""
    def simulate(model, progress=None, cancel=None, frames=None):
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        os.kill(os.getpid(), signal.SIGINT)
        return _results("cancelled" if cancel() else "completed")

    monkeypatch.setattr(api, "simulate", simulate)
    assert cli.main(["run", str(DEFAULT_EXAMPLE), "--out", str(tmp_path), "--quiet"]) == cli.EXIT_OK
    assert [r.meta["status"] for r, _d in written] == ["completed"]
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


# ----------------------------------------------------------------------------- end to end

def _shortened(example: Path, tmp_path: Path, steps: int = 10) -> Path:
    doc = json.loads(example.read_text(encoding="utf-8"))
    solver = doc.setdefault("solver", {})
    solver["end_time"] = steps * solver.get("step", 1e-3)
    path = tmp_path / example.name
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


def test_run_every_example(example, tmp_path, capsys):
    """A few steps of every bundled example, in process (as a process: :func:`test_ctrl_c_stops_a_real_run`
    and the default example's run below): results, or a clear 'not yet available' (exit 3)."""
    out = tmp_path / "out"
    code = cli.main(["run", str(_shortened(example, tmp_path)), "--out", str(out)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert code in (cli.EXIT_OK, cli.EXIT_UNSUPPORTED), err[-2000:]
    if code == cli.EXIT_OK:
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        assert summary["run"]["status"] == "completed"
    else:
        assert "not available" in err and not out.exists()


def test_run_the_default_example_as_a_process(tmp_path):
    out = tmp_path / "out"
    proc = _cli("run", str(_shortened(DEFAULT_EXAMPLE, tmp_path)), "--out", str(out))
    _no_traceback(proc)
    assert proc.returncode == cli.EXIT_OK, proc.stderr[-2000:]
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["run"]["status"] == "completed"


def test_ctrl_c_stops_a_real_run(tmp_path, interactive_sigint):
    """SIGINT during a run: the solver stops at the next step and the partial results are written."""
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.shell.cli", "run", "robot_arm", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    seen = ""
    while not re.search(r"t = (0\.0*[1-9]|[1-9])", seen) and proc.poll() is None:
        seen += proc.stderr.read(1)
    proc.send_signal(signal.SIGINT)
    try:
        _stdout, stderr = proc.communicate(timeout=120)
    finally:
        proc.kill()  # no run left behind when the test fails
    assert proc.returncode == cli.EXIT_CANCELLED, stderr[-2000:]
    assert "cancelled; partial results written" in stderr
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["run"]["status"] == "cancelled"


def test_modes_prints_frequencies_and_rayleigh_coefficients(capsys):
    assert cli.main(["modes", "four_bar_flexible", "--count", "3", "--damping", "0.02"]) == cli.EXIT_OK
    out = capsys.readouterr().out
    freqs = [float(line.split()[1]) for line in out.splitlines()[1:4]]
    assert freqs == sorted(freqs) and freqs[0] > 1.0
    assert re.search(r"alpha = [0-9.e+-]+ 1/s, beta = [0-9.e+-]+ s", out)


@pytest.mark.parametrize(("option", "value", "reason"), [
    ("--damping", "-1", ">= 0"), ("--damping", "nan", ">= 0"), ("--damping", "inf", ">= 0"),
    ("--damping", "lots", "not a number"), ("--count", "0", "at least 1 mode"), ("--count", "-3", "at least 1 mode"),
    ("--count", "2.5", "not an integer")])
def test_modes_refuses_a_damping_ratio_or_a_count_that_is_not_one(capsys, option, value, reason):
    """A negative ratio printed negative Rayleigh coefficients; a count of 0 or -3 printed no mode at all."""
    with pytest.raises(SystemExit) as stop:
        cli.main(["modes", "four_bar_flexible", option, value])
    assert stop.value.code == cli.EXIT_USAGE
    err = capsys.readouterr().err
    assert f"argument {option}: " in err and reason in err


def _cantilever(tmp_path: Path) -> Path:
    """The robot arm's link clamped at its root, under 1 N down at its tip."""
    doc = json.loads((cli.examples_dir() / "robot_arm.json").read_text())
    doc["drivers"] = []
    doc["joints"] = [{"id": "clamp", "kind": "fixed", "node": "root"}]
    doc["loads"] = [{"id": "tip", "node": "tip", "fy": -1.0}]
    path = tmp_path / "cantilever.json"
    path.write_text(json.dumps(doc))
    return path


def test_static_prints_the_equilibrium(tmp_path, capsys):
    assert cli.main(["static", str(_cantilever(tmp_path))]) == cli.EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split() for line in lines[2:] if len(line.split()) == 5}
    assert float(rows["tip"][4]) == pytest.approx(-1.0 * 10.0**3 / (3 * 1.0e3), rel=0.01)


@pytest.mark.parametrize("command", ["static", "examples"])
def test_output_into_a_closed_pipe_ends_quietly_with_141(tmp_path, command):
    """``flexmech static MODEL | head`` once head has read its lines: no traceback."""
    argv = ["static", str(_cantilever(tmp_path))] if command == "static" else ["examples"]
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line is written
    try:
        proc = subprocess.run([sys.executable, "-m", "app.shell.cli", *argv], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(write_end)
    assert proc.returncode == cli.EXIT_BROKEN_PIPE
    assert proc.stderr == ""


@pytest.mark.parametrize(("value", "reason"), [("nan", "NaN is not one"), ("1e300", "must be at most 1e+15"),
                                               ("inf", "must be finite"), ("soon", "is not a number")])
def test_static_refuses_a_time_that_is_not_one(capsys, value, reason):
    """nan gave 'not restrained against rigid motion', the wrong cause; 1e300 overflowed a driver's angle with
    a RuntimeWarning on the terminal."""
    with pytest.raises(SystemExit) as stop:
        cli.main(["static", "gear_tooth", "--time", value])
    assert stop.value.code == cli.EXIT_USAGE
    err = capsys.readouterr().err
    assert "argument --time: " in err and reason in err and "Warning" not in err


def test_static_of_a_free_structure_fails_cleanly(capsys):
    assert cli.main(["static", "flying_beam"]) == cli.EXIT_FAILED
    assert "not restrained" in capsys.readouterr().err


def test_a_run_in_process_leaves_a_collector_turned_off_by_someone_else_off(tmp_path):
    """The GUI turns automatic garbage collection off (``GuiThreadCollector``: a collection on a
    run's worker thread can deadlock with the GUI thread); ``main(["run", ...])`` called in that
    process must not turn it back on, as only ``entry_point`` turned it off."""
    import gc

    from app.shell.cli import main

    was = gc.isenabled()
    gc.disable()
    try:
        assert main(["run", "rod_impact_rigid", "--out", str(tmp_path / "out")]) == 0
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()
