"""The analysis commands (registered by :mod:`.cli`): ``orbit``, ``poincare``, ``spectrum``
and ``lyapunov`` of a results folder, ``bifurcation`` of a sweep folder, each writing a PNG
(drawn with Pillow, :mod:`app.results.analysis_images`) and a CSV into ``--out DIR`` and
nothing elsewhere (:mod:`solver.safe_write`).  The computations are :mod:`solver.analysis`'s
and :mod:`solver.sweeps.bifurcation`'s; see docs/analysis-plots.md.  Does not load Qt.
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Callable

from .cli_sweep import EXIT_FAILED, EXIT_INVALID, EXIT_OK

SERIES_HELP = "a series by its key, as the plots name it: node/B/vx, driver/motor/reaction, contact/B-clearance/F_n"


def add_analysis_commands(sub, error: Callable[[str], None]) -> None:
    """Add ``orbit``, ``poincare``, ``spectrum``, ``bifurcation`` and ``lyapunov`` to ``sub``."""
    p = _command(sub, "orbit", "journal orbit of a clearance joint in its clearance circle", error, _orbit)
    p.add_argument("--joint", metavar="ID", help="the clearance joint (default: the first)")
    p.add_argument("--colour", choices=("time", "force"), default="time", help="colour by time or contact force")

    p = _command(sub, "poincare", "Poincaré section of two series once per period, over their phase portrait",
                 error, _poincare)
    p.add_argument("--x", required=True, metavar="SERIES", help="abscissa: " + SERIES_HELP)
    p.add_argument("--y", required=True, metavar="SERIES", help="ordinate, as --x")
    _period_options(p)

    p = _command(sub, "spectrum", "windowed amplitude spectrum of a series, the driver's harmonics marked",
                 error, _spectrum)
    p.add_argument("--series", required=True, metavar="SERIES", help=SERIES_HELP)
    p.add_argument("--window", default="hann", help="hann (default), hamming, blackman, flattop or boxcar")
    p.add_argument("--dt", type=float, metavar="S", help="resampling interval (default: the frames' median spacing)")
    p.add_argument("--start", type=float, metavar="T", help="leave out the run before T s (a transient)")
    p.add_argument("--driver", metavar="ID", help="whose harmonics are marked (default: the first at a constant rate)")
    p.add_argument("--fmax", type=float, metavar="HZ",
                   help="the picture's highest frequency (default: 20 harmonics of the driver; the CSV has every bin)")

    p = _command(sub, "bifurcation", "bifurcation diagram: Poincaré samples of a series against a swept field",
                 error, _bifurcation, source="SWEEP", source_help="sweep folder run with --keep-results")
    p.add_argument("--series", required=True, metavar="SERIES", help=SERIES_HELP)
    p.add_argument("--field", metavar="PATH", help="the swept field (default: the sweep's first)")
    _period_options(p)

    p = _command(sub, "lyapunov", "largest Lyapunov exponent from the run and a twin a small perturbation apart",
                 error, _lyapunov)
    twin = p.add_mutually_exclusive_group()
    twin.add_argument("--perturb", metavar="PATH=SIZE",
                      help="run the twin with this field moved by SIZE (default for a clearance joint: "
                           "joints[ID].offset.x=1e-7)")
    twin.add_argument("--twin", metavar="RESULTS", help="a results folder of the perturbed run, instead of running it")
    p.add_argument("--window", type=float, nargs=2, metavar=("T0", "T1"),
                   help="fit over T0..T1 s (default: from the start to saturation)")
    p.add_argument("--saturation", type=float, default=0.1, metavar="F",
                   help="the default window ends where the separation first reaches this fraction of its largest "
                        "(default 0.1)")


def _command(sub, name: str, text: str, error, run, source: str = "RESULTS",
             source_help: str = "results folder (written by 'flexmech run' or the GUI)") -> argparse.ArgumentParser:
    p = sub.add_parser(name, help=text, description=text + f"; writes {name}.png and {name}.csv into --out DIR "
                                                         "(see docs/analysis-plots.md).")
    p.add_argument("source", metavar=source, help=source_help)
    p.add_argument("--out", required=True, metavar="DIR", help="folder for the PNG and the CSV (created if needed)")
    p.set_defaults(command=lambda args: _guarded(args, name, run, error))
    return p


def _period_options(p: argparse.ArgumentParser) -> None:
    period = p.add_mutually_exclusive_group()
    period.add_argument("--driver", metavar="ID", help="sample once per turn of this driver (default: the first)")
    period.add_argument("--period", type=float, metavar="S", help="sample every S seconds")
    p.add_argument("--transient", type=int, default=0, metavar="N", help="leave out the first N periods (default 0)")


def _guarded(args: argparse.Namespace, name: str, run, error) -> int:
    """Run one command: a problem of an argument, a folder or a file is said in one line."""
    from solver.analysis.run_series import AnalysisError
    from solver.errors import ResultsFormatError, SolverError
    from solver.safe_write import safe_folder

    try:
        out = safe_folder(args.out)
        lines = run(args, out / f"{name}.png", out / f"{name}.csv")
    except ResultsFormatError as exc:
        error(f"{args.source}: cannot read the results: {exc}")
        return EXIT_INVALID
    except (AnalysisError, SolverError) as exc:  # a problem of an option names it, else the folder's
        error(str(exc) if str(exc).startswith(("--", args.source)) else f"{args.source}: {exc}")
        return EXIT_INVALID if isinstance(exc, AnalysisError) else EXIT_FAILED
    except OSError as exc:
        error(f"cannot write to {args.out}: {exc.strerror or exc}")
        return EXIT_INVALID
    print("\n".join([*lines, f"written: {out / (name + '.png')}, {out / (name + '.csv')}"]))
    return EXIT_OK


def _results(folder: str):
    from solver.analysis.run_series import AnalysisError
    from solver.results.files import load_results

    if not Path(folder).is_dir():
        raise AnalysisError(f"{folder}: no such results folder")
    return load_results(folder)


def _orbit(args, png: Path, csv: Path) -> list[str]:
    from solver.analysis.orbit import journal_orbit, write_orbit_csv

    from ..results.analysis_images import write_orbit_png

    orbit = journal_orbit(_results(args.source), args.joint)
    write_orbit_csv(orbit, csv)
    write_orbit_png(orbit, png, args.colour)
    return [f"journal orbit of {orbit.joint}: {len(orbit.time)} frames, clearance {orbit.clearance:.6g} m, largest "
            f"eccentricity {orbit.eccentricity.max():.6g} m, largest penetration {orbit.largest_penetration:.6g} m"]


def _poincare(args, png: Path, csv: Path) -> list[str]:
    from solver.analysis.poincare import poincare_section, write_poincare_csv

    from ..results.analysis_images import write_poincare_png

    s = poincare_section(_results(args.source), args.x, args.y, args.period, args.driver, args.transient)
    write_poincare_csv(s, csv)
    write_poincare_png(s, png)
    return [f"{len(s.times)} sections every {s.period:.6g} s" + (f" (a turn of {s.driver})" if s.driver else ""),
            f"spread of the samples: {s.spread[0]:.6g} {s.x.unit} in {args.x}, {s.spread[1]:.6g} {s.y.unit} in {args.y}"]


def _spectrum(args, png: Path, csv: Path) -> list[str]:
    from solver.analysis.run_series import AnalysisError
    from solver.analysis.spectrum import series_spectrum, write_spectrum_csv

    from ..results.analysis_images import write_spectrum_png

    if args.fmax is not None and not (math.isfinite(args.fmax) and args.fmax > 0.0):
        raise AnalysisError(f"--fmax {args.fmax:g}: must be a positive frequency, Hz")
    s = series_spectrum(_results(args.source), args.series, args.window, args.dt, args.driver, args.start)
    write_spectrum_csv(s, csv)
    write_spectrum_png(s, png, args.fmax)
    lines = [f"{s.samples} samples {s.dt:.6g} s apart, {s.window} window, bins of {s.resolution:.6g} Hz",
             f"peak: {s.peak[1]:.6g} {s.unit} at {s.peak[0]:.6g} Hz"]
    if len(s.harmonics):
        lines.append(f"harmonics of {s.driver}: {s.harmonics[0]:.6g} Hz and its multiples")
    return lines


def _bifurcation(args, png: Path, csv: Path) -> list[str]:
    from solver.analysis.run_series import AnalysisError
    from solver.sweeps.bifurcation import sweep_bifurcation, write_bifurcation_csv

    from ..results.analysis_images import write_bifurcation_png

    if not Path(args.source).is_dir():
        raise AnalysisError(f"{args.source}: no such sweep folder")
    b = sweep_bifurcation(args.source, args.series, args.field, args.transient, args.period, args.driver)
    write_bifurcation_csv(b, csv)
    write_bifurcation_png(b, png)
    return [f"{len(b.values)} samples of {b.key} from {len(set(b.runs))} runs over {b.field}",
            *(f"left out: {s}" for s in b.skipped)]


def _lyapunov(args, png: Path, csv: Path) -> list[str]:
    from solver.analysis.lyapunov import lyapunov_fit, write_lyapunov_csv
    from solver.analysis.run_series import AnalysisError, driver_period

    from ..results.analysis_images import write_lyapunov_png

    run = _results(args.source)
    twin, perturbation = (_results(args.twin), f"the run in {args.twin}") if args.twin else _twin(run, args.perturb)
    fit = lyapunov_fit(run, twin, tuple(args.window) if args.window else None, args.saturation)
    try:
        period = driver_period(run.model)[1]
    except AnalysisError:
        period = None
    write_lyapunov_csv(fit, csv)
    write_lyapunov_png(fit, png, period)
    per = f" ({fit.slope * period:.6g} per period of {period:.6g} s)" if period else ""
    return [f"twin: {perturbation}",
            f"largest Lyapunov exponent: {fit.slope:.6g} 1/s{per}",
            f"fit: ln d = {fit.intercept:.6g} + {fit.slope:.6g} t over {fit.window[0]:.6g} to {fit.window[1]:.6g} s, "
            f"{fit.points} frames, r^2 = {fit.r2:.4f}; saturation at {fit.saturation:.6g} m"]


def _twin(run, perturb: str | None):
    """The perturbed twin of ``run`` (simulated here) and what was perturbed."""
    from solver.analysis.lyapunov import perturbed_model
    from solver.analysis.orbit import clearance_joint_ids
    from solver.analysis.run_series import AnalysisError
    from solver.api import simulate
    from solver.model.paths import item_label

    if perturb is None:
        joints = clearance_joint_ids(run.model)
        if not joints:
            raise AnalysisError("--perturb: the model has no clearance joint to perturb by default; "
                                "give --perturb PATH=SIZE or --twin RESULTS")
        perturb = f"joints{item_label(joints[0])}.offset.x=1e-7"
    path, _sep, size = perturb.rpartition("=")  # an id in the path may hold a '='
    try:
        size_value = float(size)
    except ValueError:
        raise AnalysisError(f"--perturb {perturb}: write PATH=SIZE (SIZE a number)") from None
    twin = simulate(perturbed_model(run.model, path.strip(), size_value))
    if not twin.completed:
        raise AnalysisError(f"--perturb {perturb}: the twin run did not complete ({twin.meta.get('message', '')})")
    return twin, f"{path.strip()} moved by {size_value:g}"
