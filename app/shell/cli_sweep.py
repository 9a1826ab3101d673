"""The ``flexmech sweep`` and ``flexmech map`` commands (registered by :mod:`.cli`).

``sweep`` runs a parameter sweep of a model on dask (:mod:`solver.sweeps`): a local
cluster by default, ``--scheduler ADDRESS`` for an existing one; a progress bar over
the runs on stderr, Ctrl-C cancels (the finished runs stay in the table).  ``map``
draws the impact-type map of a contact pair (:mod:`solver.analysis.impact_map`) as
PNG and CSV.  Neither loads Qt.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable

EXIT_OK, EXIT_INVALID, EXIT_FAILED, EXIT_CANCELLED = 0, 1, 4, 130


def add_sweep_commands(sub, load: Callable[[str], dict | None], error: Callable[[str], None],
                       cancel_on_interrupt: Callable[[], object]) -> None:
    """Add ``sweep`` and ``map`` to the subcommands ``sub``; ``load(FILE)`` returns the
    model (or None after printing its problems), ``error`` prints a message,
    ``cancel_on_interrupt()`` is the context manager whose ``requested()`` turns True at
    the first Ctrl-C."""
    p = sub.add_parser("sweep", help="run a parameter sweep of a model on dask and tabulate the runs",
                       description="Vary fields of a model by their path (as 'flexmech validate' prints them) and "
                                   "run every variant; see docs/sweeps.md.")
    p.add_argument("file", metavar="FILE", help="model file (.json)")
    p.add_argument("--vary", action="append", default=[], metavar="PATH=SPEC",
                   help="a varied field: PATH=LOW:HIGH:COUNT or PATH=A,B,C (repeat for more)")
    p.add_argument("--set", action="append", default=[], metavar="PATH=VALUE", help="a field fixed for every run")
    p.add_argument("--perturb", action="append", default=[], metavar="PATH=SIZE",
                   help="an ensemble's perturbed field: each run moves it by up to +-SIZE (repeat for more)")
    p.add_argument("--design", choices=("grid", "zip", "lhs", "ensemble"),
                   help="grid (default), zip, lhs (Latin hypercube) or ensemble (--samples runs of --perturb)")
    p.add_argument("--samples", type=int, help="runs of a Latin hypercube or an ensemble")
    p.add_argument("--seed", type=int, help="seed of a Latin hypercube or an ensemble (default 0)")
    p.add_argument("--collect", action="append", default=[], metavar="QUANTITY",
                   help="another column: REDUCTION(SERIES) such as max(contact/tip/F_n), or a summary path")
    p.add_argument("--spec", metavar="JSON", help="read the sweep from a file (the options above add to it)")
    p.add_argument("--out", required=True, metavar="DIR", help="sweep folder: sweep.parquet, sweep.csv, sweep.json")
    p.add_argument("--keep-results", action="store_true", help="also write each run's results folder (DIR/runs/ID)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="an existing dask scheduler, tcp://host:port")
    p.add_argument("--workers", type=int, help="worker processes of the local cluster (default: one per core)")
    p.add_argument("--overwrite", action="store_true", help="start afresh in a folder of another model's sweep")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(command=lambda args: _cmd_sweep(args, load, error, cancel_on_interrupt))

    p = sub.add_parser("map", help="impact-type map of a contact pair (Routh's closed form over two parameters)",
                       description="Routh's impulse type over a grid of two of mu_s, mu_d, e, angle, ratio, with the "
                                   "system's inertia at one instant; see docs/sweeps.md.")
    p.add_argument("file", metavar="SOURCE", help="model file (.json), or a results folder")
    p.add_argument("--contact", metavar="ID", help="contact pair (default: the first)")
    when = p.add_mutually_exclusive_group()
    when.add_argument("--time", type=float, metavar="T", help="the instant: the run's frame at T s")
    when.add_argument("--impulse", type=int, metavar="K", help="the instant: the pair's K-th impulse (1 = first)")
    p.add_argument("--x", required=True, metavar="NAME=LOW:HIGH:COUNT", help="abscissa: mu_s, mu_d, e, angle, ratio")
    p.add_argument("--y", required=True, metavar="NAME=LOW:HIGH:COUNT", help="ordinate, as --x")
    p.add_argument("--law", choices=("newton", "poisson", "energetic"), help="restitution law (default: the pair's)")
    p.add_argument("--mu-d-rule", choices=("ratio", "fixed"), default="ratio",
                   help="mu_d when only mu_s is an axis (and the reverse): follows at the pair's ratio, or stays")
    p.add_argument("--png", metavar="FILE", help="write the map as a PNG image")
    p.add_argument("--csv", metavar="FILE", help="write one row per cell")
    p.set_defaults(command=lambda args: _cmd_map(args, load, error))


# ----------------------------------------------------------------------------- sweep
def _cmd_sweep(args: argparse.Namespace, load, error, cancel_on_interrupt) -> int:
    from solver.sweeps import SweepError, run_sweep

    model = load(args.file)
    if model is None:
        return EXIT_INVALID
    try:
        spec = _spec_from_args(args)
        with _RunsBar(args.quiet) as bar, cancel_on_interrupt() as cancel:
            outcome = run_sweep(model, spec, args.out, scheduler=args.scheduler, workers=args.workers,
                                progress=bar.update, cancel=cancel.requested, overwrite=args.overwrite)
    except SweepError as exc:
        for problem in exc.problems:
            error(problem)
        return EXIT_INVALID
    except OSError as exc:  # a name of the folder refused (solver.safe_write), or not writable
        error(f"cannot write the sweep to {args.out}: {exc.strerror or exc}")
        return EXIT_INVALID
    print(f"{outcome.completed} completed, {outcome.failed} failed, {outcome.skipped} already in the table; "
          f"{len(outcome.rows)} runs in {Path(args.out) / 'sweep.parquet'} (and sweep.csv)")
    for row in outcome.rows:
        if row.get("status") == "failed":
            error(f"run {row['run']} failed: {row.get('message')}")
    if outcome.spread:
        print("\n".join(_spread_report(outcome.spread, spec.collect, Path(args.out))))
    if outcome.timing is not None and outcome.timing.runs:
        print(_timing_report(outcome.timing))
    if outcome.cancelled:
        error("cancelled; the finished runs are in the table, the same command runs the rest")
        return EXIT_CANCELLED
    return EXIT_FAILED if any(r.get("status") == "failed" for r in outcome.rows) else EXIT_OK


def _timing_report(t) -> str:
    """The sweep's wall time, its runs' solve time and the overhead per run beyond it."""
    return (f"{t.wall_s:.2f} s on {t.workers} worker{'s' * (t.workers != 1)}: {t.solve_s:.2f} s solving "
            f"{t.runs} runs, {t.overhead_per_run_s * 1e3:.0f} ms per run beyond its solve "
            f"(wall x workers - solve, over the runs)")


def _spec_from_args(args: argparse.Namespace):
    from dataclasses import replace

    from solver.sweeps import SweepError, SweepSpec, parse_set, parse_vary, spec_from_json

    spec = SweepSpec(())
    if args.spec:
        try:
            spec = spec_from_json(json.loads(Path(args.spec).read_text(encoding="utf-8")))
        except (OSError, ValueError, RecursionError) as exc:
            if isinstance(exc, SweepError):
                raise SweepError([f"{args.spec}: {p}" for p in exc.problems]) from None
            raise SweepError([f"{args.spec}: cannot read the sweep ({exc})"]) from None
    changes = {"parameters": spec.parameters + tuple(parse_vary(v) for v in args.vary),
               "fixed": spec.fixed + tuple(parse_set(s) for s in args.set),
               "perturb": spec.perturb + tuple(parse_set(s, "--perturb") for s in args.perturb),
               "collect": spec.collect + tuple(args.collect),
               "keep_results": spec.keep_results or args.keep_results}
    for name in ("design", "samples", "seed"):
        if getattr(args, name) is not None:
            changes[name] = getattr(args, name)
    spec = replace(spec, **changes)
    problems = spec.problems()
    if problems:
        raise SweepError(problems)
    return spec


def _spread_report(rows: list[dict], collect: tuple[str, ...], folder: Path) -> list[str]:
    """The ensemble's spread as a table: the collected quantities (all statistics when
    none was collected), then where the whole spread is."""
    from solver.sweeps.spread import SPREAD_CSV

    shown = [r for r in rows if r["column"] in collect] or rows
    width = max(len(r["column"]) for r in shown)
    lines = [f"{'statistic':<{width}}  {'runs':>4}  {'mean':>11}  {'std':>10}  {'min':>11}  {'median':>11}  "
             f"{'max':>11}  std/|mean|"]
    lines += [f"{r['column']:<{width}}  {r['runs']:>4}  {r['mean']:>11.5g}  {r['std']:>10.4g}  {r['min']:>11.5g}  "
              f"{r['median']:>11.5g}  {r['max']:>11.5g}  {r['std_rel']:>9.2%}" for r in shown]
    lines.append(f"the spread of every statistic: {folder / SPREAD_CSV}")
    return lines


class _RunsBar:
    """A tqdm bar over the runs of a sweep, fed by its progress callback."""

    def __init__(self, disable: bool):
        from tqdm import tqdm

        self._bar = tqdm(total=0, disable=disable, unit="run", file=sys.stderr,
                         bar_format="{l_bar}{bar}| {n}/{total} runs{postfix} [{elapsed}<{remaining}]")

    def update(self, p) -> None:
        self._bar.total = p.total
        self._bar.set_postfix_str(f"{p.failed} failed" if p.failed else "", refresh=False)
        self._bar.update(p.done - self._bar.n)

    def __enter__(self) -> _RunsBar:
        return self

    def __exit__(self, *exc) -> None:
        self._bar.close()


# ----------------------------------------------------------------------------- map
def _cmd_map(args: argparse.Namespace, load, error) -> int:
    from solver.analysis.contact_instant import InstantError
    from solver.analysis.impact_map import MapError, impact_map, write_map_csv
    from solver.errors import SolverError

    from solver.safe_write import check_target

    from ..results.map_image import write_map_png

    try:
        x, y = _axis(args.x, "--x"), _axis(args.y, "--y")
        for target in (args.png, args.csv):  # refused before a run and the map, not after them
            if target:
                check_target(target)
        instant = _instant(args, load)
        if instant is None:
            return EXIT_INVALID
        m = impact_map(instant, x, y, law=args.law, mu_d_rule=args.mu_d_rule)
        if args.png:
            write_map_png(m, args.png)
        if args.csv:
            write_map_csv(m, args.csv)
    except (MapError, InstantError, SolverError, OSError) as exc:
        error(str(exc))
        return EXIT_INVALID
    print("\n".join(_map_report(m)))
    return EXIT_OK


def _axis(text: str, option: str):
    from solver.analysis.impact_map import Axis, MapError

    name, _sep, spec = text.partition("=")
    try:
        low, high, count = spec.split(":")
        return Axis(name.strip(), float(low), float(high), int(count))
    except ValueError:
        raise MapError(f"{option} {text}: write NAME=LOW:HIGH:COUNT (NAME one of mu_s, mu_d, e, angle, ratio)") \
            from None


def _instant(args: argparse.Namespace, load):
    """The contact instant asked for: from a model's start, or from a run (simulated
    here, or read from a results folder) at ``--time`` or at its ``--impulse``."""
    from solver.analysis.contact_instant import InstantError, instant_at_start, instant_from_event, instant_in_run
    from solver.api import simulate
    from solver.model.paths import item_label
    from solver.results.files import ResultsFormatError, load_results

    if Path(args.file).is_dir():
        try:
            results = load_results(args.file)
        except ResultsFormatError as exc:
            raise InstantError(f"{args.file}: {exc}") from None
        model = results.model
    else:
        model, results = load(args.file), None
        if model is None:
            return None
    contacts = [c["id"] for c in model.get("contacts", [])]
    contact = args.contact or (contacts[0] if contacts else None)
    if contact not in contacts:
        raise InstantError(f"--contact {contact}: the model has no such contact pair (it has: "
                           f"{', '.join(contacts) or 'none'})")
    if args.time is None and args.impulse is None:
        if results is not None:
            raise InstantError("a results folder needs --time or --impulse")
        return instant_at_start(model, contact)
    if results is None:
        results = simulate(model)
    if args.time is not None:
        return instant_in_run(results, contact, args.time)
    impulses = [e for e in results.events if e.get("kind") == "impulse" and e.get("contact") == contact]
    if not 1 <= args.impulse <= len(impulses):
        raise InstantError(f"--impulse {args.impulse}: the run has {len(impulses)} impulses at contacts{item_label(contact)}")
    return instant_from_event(impulses[args.impulse - 1])


def _map_report(m) -> list[str]:
    from solver.analysis.impact_map import BOUNDARIES, INVALID, KIND_NAMES
    from solver.contact.routh import KINDS

    from ..results.map_image import map_title

    lines = map_title(m)
    cells = m.kind.size
    for kind in m.kinds_present():
        code = INVALID if kind == "invalid" else KINDS.index(kind)
        share = int((m.kind == code).sum())
        lines.append(f"  {kind:<7} {share:>6} of {cells} cells  {KIND_NAMES[kind]}")
    for name, segments in m.boundaries.items():
        if len(segments):
            lines.append(f"  boundary {BOUNDARIES[name]}: {len(segments)} segments")
    return lines
