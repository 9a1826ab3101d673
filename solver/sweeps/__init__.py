"""Parameter sweeps: many runs of one model, each a variant with some fields changed by
their path (``contacts[tip].mu_s``), executed as tasks on dask.distributed, reduced to
one tidy table of scalars.

What a sweep varies (:mod:`.spec`), its runs (:mod:`.variants`), the scalars of a run
(:mod:`.scalars`), runs as a task (:mod:`.task`), the cluster (:mod:`.cluster`) and its
workers loading the kernels as they start (:mod:`.warm`), the
sweep folder and its table (:mod:`.table`), running it all (:mod:`.engine`) and the
spread of an ensemble's statistics (:mod:`.spread`); the
value of one field that minimises a measure of a run, found over runs of the model
(:mod:`.optimum`).

May import :mod:`solver.integration`, :mod:`solver.analysis` and every stage below;
:mod:`solver.api` imports it, never the reverse.
"""
from .engine import SweepOutcome, SweepPlan, SweepProgress, plan_sweep, run_sweep
from .optimum import Optimum, OptimumError, find_optimum
from .spec import DESIGNS, Parameter, SweepError, SweepSpec, parse_set, parse_vary, spec_from_json, spec_to_json
from .spread import spread
from .table import read_rows, read_sweep
from .variants import Variant, build_variants, design_points

__all__ = [
    "DESIGNS", "Optimum", "OptimumError", "Parameter", "SweepError", "SweepOutcome", "SweepPlan", "SweepProgress", "SweepSpec", "Variant",
    "build_variants", "design_points", "find_optimum", "parse_set", "parse_vary", "plan_sweep", "read_rows", "read_sweep",
    "run_sweep", "spec_from_json", "spec_to_json", "spread",
]
