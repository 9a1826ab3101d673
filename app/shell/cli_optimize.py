"""The ``flexmech optimize`` command (registered by :mod:`.cli`): the value of one field of a
model that minimises a measure of its run (:mod:`solver.sweeps.optimum`, Amirouche & Xie
eqs. 28-29), printed as a table of the objective against the field's value and written
as CSV and as a PNG plot (drawn with Pillow).  Does not load Qt.
"""
from __future__ import annotations

import argparse
import csv
import sys
from typing import Callable

from solver.safe_write import check_target, replacing

from .cli_sweep import EXIT_CANCELLED, EXIT_INVALID, EXIT_OK


def add_optimize_command(sub, load: Callable[[str], dict | None], error: Callable[[str], None],
                         cancel_on_interrupt: Callable[[], object]) -> None:
    """Add ``optimize`` to the subcommands ``sub`` (arguments as :func:`.cli_sweep.add_sweep_commands`)."""
    p = sub.add_parser("optimize", help="the value of a field that minimises a measure of the run (e.g. a support's "
                                        "position)",
                       description="Scan a numeric field of a model over its bounds, then refine the best value with "
                                   "Brent's bounded method, one run of the model per value; see docs/cli.md.")
    p.add_argument("file", metavar="FILE", help="model file (.json)")
    p.add_argument("--field", required=True, metavar="PATH", help="the field, by its path (moving[prop].position.v1)")
    p.add_argument("--bounds", required=True, nargs=2, type=float, metavar=("LOW", "HIGH"), help="its range")
    p.add_argument("--objective", required=True, metavar="REDUCTION(SERIES)",
                   help="what to minimise: mean(energy/strain), rms(node/tip/uy), absmax(node/mid/uy), ...")
    p.add_argument("--scan", type=int, default=5, metavar="N", help="values scanned before the refinement (default 5)")
    p.add_argument("--xatol", type=float, metavar="DX", help="tolerance on the field (default 1e-3 of the bounds' width)")
    p.add_argument("--maxiter", type=int, default=20, metavar="N", help="runs of the refinement at most (default 20)")
    p.add_argument("--csv", metavar="FILE", help="write the runs, field value and objective, one per row")
    p.add_argument("--png", metavar="FILE", help="draw the objective against the field's value as a PNG image")
    p.add_argument("--quiet", action="store_true", help="no line per run on stderr")
    p.set_defaults(command=lambda args: _cmd_optimize(args, load, error, cancel_on_interrupt))


def _cmd_optimize(args: argparse.Namespace, load, error, cancel_on_interrupt) -> int:
    from solver.sweeps import OptimumError, find_optimum

    model = load(args.file)
    if model is None:
        return EXIT_INVALID

    def progress(opt) -> None:
        if not args.quiet:
            x, value = opt.runs[-1]
            print(f"run {len(opt.runs)}: {opt.path} = {x:.6g}, {opt.objective} = {value:.6g}", file=sys.stderr)

    try:
        for target in (args.csv, args.png):  # a folder or a link there refused before the runs, not after them
            if target:
                check_target(target)
        with cancel_on_interrupt() as cancel:
            opt = find_optimum(model, args.field, tuple(args.bounds), args.objective, scan=args.scan,
                               xatol=args.xatol, maxiter=args.maxiter, progress=progress, cancel=cancel.requested)
        if args.csv:
            _write_csv(opt, args.csv)
        if args.png:
            from ..results.optimum_image import write_optimum_png

            write_optimum_png(opt, args.png, report(opt)[-1])
    except (OptimumError, OSError) as exc:
        for problem in getattr(exc, "problems", [str(exc)]):
            error(problem)
        return EXIT_INVALID
    print("\n".join(report(opt)))
    if opt.cancelled:
        error("cancelled; the best of the runs made is shown")
        return EXIT_CANCELLED
    return EXIT_OK


def report(opt) -> list[str]:
    """The table of the objective against the field's value and the optimum found."""
    width = max(len(opt.path), 12)
    lines = [f"{opt.path:>{width}}  {opt.objective}"]
    lines += [f"{x:>{width}.6g}  {value:.6g}" + ("  <- optimum" if x == opt.x else "") for x, value in opt.table()]
    lines.append(f"optimum: {opt.path} = {opt.x:.6g}, {opt.objective} = {opt.value:.6g} ({len(opt.runs)} runs)")
    return lines


def _write_csv(opt, path: str) -> None:
    with replacing(path) as tmp, open(tmp, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow([opt.path, opt.objective])
        out.writerows(opt.table())
