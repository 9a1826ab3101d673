"""The ``flexmech`` command: open the GUI, or run, validate and list models headless.

The headless commands (``run``, ``static``, ``modes``, ``validate``, ``examples``,
``export`` of :mod:`.cli_results`,
``sweep`` and ``map`` of :mod:`.cli_sweep`, ``optimize`` of :mod:`.cli_optimize`, ``orbit``,
``poincare``, ``spectrum``, ``bifurcation`` and ``lyapunov`` of :mod:`.cli_analysis`) never import Qt: they are
thin shells over :mod:`solver.api` and :mod:`solver.model.io`.  Exit codes are
documented in ``docs/cli.md`` and listed in :data:`EXIT_CODES`.
"""
from __future__ import annotations

import argparse
import gc
import os
import signal
import sys
from pathlib import Path
from typing import Callable

from solver.model.io import ModelError, examples_dir, list_examples, load_model, model_with_defaults
from solver.model.validate import model_warnings

from .cli_analysis import add_analysis_commands
from .cli_check_step import check_step
from .cli_numbers import damping_ratio, mode_count, model_time
from .cli_optimize import add_optimize_command
from .cli_results import RECORD_HELP, add_export_command, record_edit
from .cli_sweep import add_sweep_commands

DEFAULT_EXAMPLE = "slider_crank_flexible"

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_UNSUPPORTED = 3
EXIT_FAILED = 4
EXIT_INTERNAL = 70  # EX_SOFTWARE of sysexits.h
EXIT_CANCELLED = 130
EXIT_BROKEN_PIPE = 141

EXIT_CODES = {
    EXIT_OK: "success",
    EXIT_INVALID: "invalid model, unreadable file, or problems found",
    EXIT_USAGE: "usage error (unknown command or option, missing argument)",
    EXIT_UNSUPPORTED: "the model needs solver features not yet available",
    EXIT_FAILED: "the run failed (partial results are written)",
    EXIT_INTERNAL: "an unexpected error (a bug), said in one line; its details in the error log",
    EXIT_CANCELLED: "cancelled by Ctrl-C (partial results are written)",
    EXIT_BROKEN_PIPE: "the reader of the output went away (as with '| head'), quietly",
}


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    args = build_parser().parse_args(with_open(sys.argv[1:] if argv is None else argv))
    if args.command is not _cmd_run:  # a run does so once it is set up
        _collect_garbage_from_here()
    try:
        code = args.command(args)
        sys.stdout.flush()  # inside the try: a closed pipe shows here, not at exit
        return code
    except KeyboardInterrupt:
        _error("cancelled")
        return EXIT_CANCELLED
    except BrokenPipeError:
        _silence_output()
        return EXIT_BROKEN_PIPE
    except Exception as exc:  # noqa: BLE001 -- a bug: one line here, the traceback in the error log
        from solver.errors import unexpected_error

        log = _log_unexpected(exc)
        _error(unexpected_error(exc) + (f"; the details are in {log}" if log else ""))
        return EXIT_INTERNAL


def with_open(argv: list[str]) -> list[str]:
    """``argv`` with the command ``open`` put before a model file given alone: ``flexmech
    model.json`` (as a file manager's *Open With* calls it) opens it, as ``flexmech open
    model.json`` does, where argparse said ``invalid choice``.

    >>> with_open(["model.json"]), with_open(["run", "model.json", "--out", "x"]), with_open([])
    (['open', 'model.json'], ['run', 'model.json', '--out', 'x'], [])
    """
    return ["open", *argv] if len(argv) == 1 and argv[0].lower().endswith(".json") else argv


#: modules whose threads, child processes or settings must be shut down in order when the
#: process ends (the GUI, a sweep's dask cluster): with one loaded, :func:`entry_point`
#: lets Python end the process as usual
ORDERLY_EXIT_MODULES = ("PySide6", "distributed")


def entry_point() -> None:
    """The ``flexmech`` program: :func:`main`, then the end of the process.

    The program starts with Python's garbage collector off: the 100 000 objects that
    importing the solver and numba makes live to the end, and collecting while they are
    made walked them again and again (0.1 s of CPU before a run's first step).  Every
    command but ``run`` turns it back on at once, ``run`` once it is set up
    (:func:`_collect_garbage_from_here`).

    A headless command ends without Python's tear-down of the interpreter (freeing numba's
    compiled code and thousands of modules one by one: 0.3 s of CPU after a run, a third
    of its start): by then every file it wrote is closed (results are written through a
    temporary file and a rename), its output is flushed here, and no thread of its own is
    left.  With a module of :data:`ORDERLY_EXIT_MODULES` loaded the process ends as usual.
    """
    global _COLLECTOR_TURNED_OFF
    _COLLECTOR_TURNED_OFF = gc.isenabled()
    gc.disable()
    code = main()
    if any(name in sys.modules for name in ORDERLY_EXIT_MODULES):
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # the reader went away after main's last flush
            pass
    os._exit(code)


#: whether :func:`entry_point` turned the garbage collector off (for :func:`_collect_garbage_from_here`)
_COLLECTOR_TURNED_OFF = False


def _collect_garbage_from_here() -> None:
    """Turn the garbage collector back on if :func:`entry_point` turned it off, leaving out of
    its collections every object made so far (``gc.freeze``: modules, the model, numba's
    kernels, all kept to the end of the process).  Called in-process (tests, a window's
    process), it changes nothing: a collector someone else turned off stays off (the GUI's
    :class:`~app.running.gui_gc.GuiThreadCollector`, whose runs would otherwise collect Qt
    objects on their worker thread and deadlock with the GUI thread)."""
    global _COLLECTOR_TURNED_OFF
    if _COLLECTOR_TURNED_OFF:
        _COLLECTOR_TURNED_OFF = False
        gc.freeze()
        gc.enable()


def _silence_output() -> None:
    """Point stdout and stderr at the null device: their reader is gone (``| head`` read
    its lines), and Python would otherwise report the failed flush of what is still
    buffered when it exits.  141 = 128 + SIGPIPE, what a shell reports for a command
    that a broken pipe stopped."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        try:
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError):  # not a real file (captured by a test)
            pass
    os.close(devnull)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="flexmech",
        description="Planar flexible multibody dynamics with impact. "
        "Without a command, opens the GUI on the default example.",
        epilog="FILE may also be the name of a bundled example (see 'flexmech examples'). "
        "Exit codes: " + "; ".join(f"{code} {text}" for code, text in EXIT_CODES.items()) + ".",
    )
    parser.set_defaults(command=_cmd_gui, file=None)
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")

    p = sub.add_parser("open", help="open a model in the GUI")
    p.add_argument("file", metavar="FILE", help="model file (.json)")
    p.set_defaults(command=_cmd_gui)

    p = sub.add_parser("run", help="simulate a model headless and write the results")
    p.add_argument("file", metavar="FILE", help="model file (.json)")
    p.add_argument("--out", required=True, metavar="DIR", help="results folder (created if needed)")
    p.add_argument("--quiet", action="store_true", help="no progress bar, only errors")
    p.add_argument("--record", action="append", default=[], metavar="KEY=VALUE", help=RECORD_HELP)
    p.add_argument("--check-step", action="store_true",
                   help="run again at half the step and print how the headline numbers moved")
    p.set_defaults(command=_cmd_run)

    p = sub.add_parser("static", help="static equilibrium under the model's loads and gravity")
    p.add_argument("file", metavar="FILE", help="model file (.json)")
    p.add_argument("--steps", type=int, default=10, help="load steps (default 10)")
    p.add_argument("--time", type=model_time, default=0.0, help="time at which loads and drivers are taken (s)")
    p.set_defaults(command=_cmd_static)

    p = sub.add_parser("modes", help="natural frequencies about the sketched configuration")
    p.add_argument("file", metavar="FILE", help="model file (.json)")
    p.add_argument("--count", type=mode_count, default=6, help="number of modes (default 6)")
    p.add_argument("--damping", type=damping_ratio, metavar="ZETA",
                   help="also give Rayleigh alpha, beta with this damping ratio at the first two elastic modes")
    p.set_defaults(command=_cmd_modes)

    p = sub.add_parser("validate", help="list every problem of a model file, one per line")
    p.add_argument("file", metavar="FILE", help="model file (.json)")
    p.set_defaults(command=_cmd_validate)

    p = sub.add_parser("examples", help="list the bundled example models")
    p.set_defaults(command=_cmd_examples)

    add_export_command(sub, error=_error)
    add_sweep_commands(sub, load=_load_reporting, error=_error, cancel_on_interrupt=_CancelOnInterrupt)
    add_optimize_command(sub, load=_load_reporting, error=_error, cancel_on_interrupt=_CancelOnInterrupt)
    add_analysis_commands(sub, error=_error)
    return parser


# ----------------------------------------------------------------------------- commands

def _cmd_gui(args: argparse.Namespace) -> int:
    """Open the GUI on FILE, or on the default example when no FILE is given."""
    path = _resolve(args.file or DEFAULT_EXAMPLE)
    if not path.is_file():
        _error(f"no such file: {path}")
        return EXIT_INVALID
    from app.shell.qt_check import require_qt

    require_qt(gui=True)
    from app.shell.gui import launch

    return launch(str(path), welcome=args.file is None)


def _cmd_validate(args: argparse.Namespace) -> int:
    path = _resolve(args.file)
    try:
        model = load_model(path)
    except ModelError as exc:
        for problem in exc.problems:
            print(problem)
        return EXIT_INVALID
    from solver.api import joint_problems

    joints = joint_problems(model)
    errors = [p for p in joints if p.severity == "error"]
    for problem in errors:
        print(problem)
    if errors:
        return EXIT_INVALID
    for warning in model_warnings(model) + joints:
        print(f"warning: {warning}")
    print(f"{path}: valid")
    return EXIT_OK


def _cmd_examples(args: argparse.Namespace) -> int:
    examples = list_examples()
    width = max((len(name) for name, _path, _desc in examples), default=0)
    for name, _path, description in examples:
        print(f"{name:<{width}}  {description}")
    print(f"\n(in {examples_dir()}; the GUI opens {DEFAULT_EXAMPLE} by default)")
    return EXIT_OK


def _cmd_run(args: argparse.Namespace) -> int:
    # one BLAS thread, set before numpy loads OpenBLAS (whose threads would otherwise start and
    # spin, 0.05 s of CPU): as in the GUI's runs (app.running.worker), the solver's dense algebra
    # is small and its large systems go to its own banded kernels
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        edit = record_edit(args.record)
    except ModelError as exc:
        _report(exc)
        return EXIT_INVALID
    model = _load_reporting(args.file, edit)
    if model is None:
        return EXIT_INVALID
    for warning in model_warnings(model):
        _error(f"warning: {warning}")
    out = Path(args.out)
    try:  # before the run: a folder it cannot write in is said at once, not after the solve
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _error(f"cannot write results to {out}: {exc.strerror or exc}")
        return EXIT_INVALID
    end_time = float(model_with_defaults(model)["solver"]["end_time"])
    # the solver (numpy, scipy) is imported only by the commands that run it, once the model is
    # found valid; numba and the kernels first, which load from numba's cache on a thread while
    # the rest is imported and the run set up (solver.integration.preload: 0.04 s of CPU); numpy's
    # subpackages scipy imports and the run never uses are executed only if used
    from solver.integration.preload import load_kernels_ahead

    from .deferred_modules import defer_unused_numpy_modules

    defer_unused_numpy_modules()
    load_kernels_ahead()
    from solver import api
    from solver.errors import unexpected_error
    from solver.results.streaming import streamed_results

    _collect_garbage_from_here()
    log = None
    try:  # the frames go to the folder as the run produces them; it is replaced when the run has ended
        with streamed_results(out) as stream:
            with _ProgressBar(end_time, disable=args.quiet) as bar, _CancelOnInterrupt() as cancel:
                try:
                    results = api.simulate(model, progress=bar.update, cancel=cancel.requested, frames=stream.frames)
                except api.UnsupportedFeature as exc:
                    _error(str(exc))
                    return EXIT_UNSUPPORTED
                except OSError:
                    raise
                except Exception as exc:  # noqa: BLE001 -- a bug, or a solver error mid-run: the frames so far kept
                    unexpected = not isinstance(exc, api.SolverError)
                    log = _log_unexpected(exc) if unexpected else None
                    results = stream.fail(exc)
                    if results is None:
                        _error(f"the run failed: {unexpected_error(exc) if unexpected else exc}"
                               + (f"; the details are in {log}" if log else ""))
                        return EXIT_FAILED
            if not stream.finished:
                stream.finish(results)
    except OSError as exc:
        _error(f"cannot write results to {out}: {exc.strerror or exc}")
        return EXIT_INVALID
    status = results.meta.get("status", "completed")
    if status == "cancelled":
        _error(f"cancelled; partial results written to {out}")
        return EXIT_CANCELLED
    if status == "failed":
        _error(f"the run failed: {results.meta.get('message', 'no reason given')}; partial results written to {out}"
               + (f"; the details are in {log}" if log else ""))
        return EXIT_FAILED
    if not args.quiet:
        print(f"results written to {out}")
        balance = _energy_balance(results)
        if balance:
            print(balance)
    for warning in stream.warnings:  # what summary.json holds
        _error(f"warning: {warning}")
    if args.check_step:
        check_step(model, results, _error)
    return EXIT_OK


def _log_unexpected(exc: BaseException) -> str | None:
    """Write an unexpected error (a bug) with its traceback to the user's error log
    (:mod:`app.shell.error_log`); the log file, or None when it cannot be written."""
    from app.shell.error_log import ErrorLog, one_sentence, traceback_text

    path = ErrorLog().write(one_sentence(type(exc), exc, exc.__traceback__),
                            traceback_text(type(exc), exc, exc.__traceback__))
    return str(path) if path is not None else None


def _energy_balance(results) -> str | None:
    """The run's energy balance in one line (``summary.json``'s ``energy.total``), or None
    without frames or energy in play."""
    from solver.results.summary import energy_summary

    total = energy_summary(results)["total"]
    if not total or total["max_abs_drift_rel"] is None:
        return None
    if not total["max_abs_drift_rel"] < 1.0:  # nothing moved (a body at rest): no scale to measure it by
        return (f"energy balance: largest drift {total['max_abs_drift_J']:.3g} J, the kinetic and strain energy "
                f"staying below it ({total['scale_J']:.3g} J at most)")
    return (f"energy balance: largest drift {total['max_abs_drift_J']:.3g} J, {total['max_abs_drift_rel']:.2g} of the "
            f"largest kinetic and strain energy ({total['scale_J']:.3g} J)")


def _cmd_static(args: argparse.Namespace) -> int:
    from solver import api

    model = _load_reporting(args.file)
    if model is None:
        return EXIT_INVALID
    try:
        eq = api.static_equilibrium(model, load_steps=args.steps, time=args.time)
    except api.SolverError as exc:
        return _solver_error(exc)
    s = eq.asm.sys
    print(f"static equilibrium in {len(eq.iterations)} load steps ({sum(eq.iterations)} Newton iterations)")
    print(f"{'node':<16}{'x_m':>14}{'y_m':>14}{'ux_m':>14}{'uy_m':>14}")
    for name, dofs in zip(s.node_ids, s.node_dofs):
        x, y = eq.q[dofs]
        x0, y0 = s.q0[dofs]
        print(f"{name:<16}{x:>14.6g}{y:>14.6g}{x - x0:>14.6g}{y - y0:>14.6g}")
    print(f"{'node':<16}{'link':<16}{'theta_rad':>14}")
    for (name, link), dof in zip(s.rot_slots, s.rot_dofs):
        print(f"{name:<16}{link:<16}{eq.q[dof]:>14.6g}")
    return EXIT_OK


def _cmd_modes(args: argparse.Namespace) -> int:
    from solver import api

    model = _load_reporting(args.file)
    if model is None:
        return EXIT_INVALID
    try:
        modes = api.natural_modes(model, count=args.count)
    except api.SolverError as exc:
        return _solver_error(exc)
    print(f"{'mode':>4}  {'frequency_Hz':>14}")
    for k, f in enumerate(modes.frequencies, 1):
        print(f"{k:>4}  {f:>14.6g}")
    if args.damping is not None:
        elastic = [f for f in modes.frequencies if f > 1e-6 * max(modes.frequencies.max(), 1e-30)]
        if len(elastic) < 2:
            _error("fewer than two elastic modes: cannot choose Rayleigh coefficients")
            return EXIT_FAILED
        alpha, beta = api.rayleigh_coefficients(elastic[0], elastic[1], args.damping)
        print(f"Rayleigh damping for zeta = {args.damping:g} at {elastic[0]:.6g} Hz and {elastic[1]:.6g} Hz: "
              f"alpha = {alpha:.6g} 1/s, beta = {beta:.6g} s")
    return EXIT_OK


# ----------------------------------------------------------------------------- helpers

def _solver_error(exc: Exception) -> int:
    """Print a solver error; its exit code (3 for a feature not available yet, else 4)."""
    from solver.errors import UnsupportedFeature

    _error(str(exc))
    return EXIT_UNSUPPORTED if isinstance(exc, UnsupportedFeature) else EXIT_FAILED


def _load_reporting(file: str, edit: Callable[[dict], None] | None = None) -> dict | None:
    """The model at FILE (changed by ``edit`` before it is validated), or None after printing its problems."""
    try:
        return load_model(_resolve(file), edit)
    except ModelError as exc:
        _report(exc)
        return None


def _report(exc: ModelError) -> None:
    for problem in exc.problems:
        _error(str(problem))


def _resolve(file: str) -> Path:
    """FILE as given, or the bundled example of that name when no such file exists."""
    path = Path(file)
    example = examples_dir() / f"{file}.json"
    if not path.exists() and example.is_file():
        return example
    return path


def _error(message: str) -> None:
    print(f"flexmech: {message}", file=sys.stderr)


class _ProgressBar:
    """A tqdm bar over simulated time, fed by the solver's ``progress(t, t_end)`` callback;
    none (tqdm not imported: 5-15 ms of a run's start) when ``disable``d (``--quiet``)."""

    def __init__(self, end_time: float, disable: bool):
        self._bar = None
        if disable:
            return
        from tqdm import tqdm

        self._bar = tqdm(
            total=end_time,
            unit="s",
            bar_format="{l_bar}{bar}| t = {n:.4g} of {total:.4g} s [{elapsed}<{remaining}]",
            file=sys.stderr,
        )

    def update(self, t: float, t_end: float) -> None:
        if self._bar is not None:
            self._bar.total = t_end
            self._bar.update(min(t, t_end) - self._bar.n)

    def __enter__(self) -> _ProgressBar:
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.close()


class _CancelOnInterrupt:
    """While active, the first Ctrl-C asks the solver to stop at the next step (so the
    partial results can be written); a second one interrupts at once.

    A process started with SIGINT ignored (a background job of a shell script, ``nohup``)
    keeps ignoring it, as Python itself does: Ctrl-C at the terminal is not meant for it."""

    def __init__(self) -> None:
        self._cancelled = False
        self._previous: Callable | int | None = None
        self._active = False

    def requested(self) -> bool:
        return self._cancelled

    def _on_sigint(self, signum, frame) -> None:
        self._cancelled = True
        signal.signal(signal.SIGINT, self._previous)

    def __enter__(self) -> _CancelOnInterrupt:
        self._previous = signal.getsignal(signal.SIGINT)
        self._active = self._previous is not signal.SIG_IGN
        if self._active:
            signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def __exit__(self, *exc) -> None:
        if self._active:
            signal.signal(signal.SIGINT, self._previous)


if __name__ == "__main__":
    entry_point()
