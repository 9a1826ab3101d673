"""The compiled kernels of a run loaded from numba's cache on a thread while the run is set up.

Loading the fifteen kernels a run calls first takes 0.04 s of CPU (0.11 s while numba
parsed their cached bitcode at every load, :mod:`solver.jit`): reading their cache files
(which imports the numba modules their machine code refers to), in Python, and LLVM linking
their machine code into the process, without the GIL.  The set-up before the first of them
(reading and checking the model, compiling the system, the initial state's sparse algebra)
is Python too.  :func:`load_kernels_ahead` imports numba and these kernels' modules, then
loads :func:`first_kernels` on a daemon thread (:func:`solver.jit.load_signatures`): a
kernel the run reaches before the thread has loaded it the run loads itself, as without it.
"""
from __future__ import annotations

import atexit
import threading

from ..jit import cached_signatures, load_signatures, start_runtime


def first_kernels() -> tuple:
    """The kernels runs call from Python first (rigid links and contact pairs alike), in the
    order of their first calls: the initial state, the first frame (its element outputs), the first Newton matrix of
    steps taken one at a time (``newton_scale``, ``matrix_values``, ``band_factorize``: a run of
    free steps alone does not call them, and loading them on the thread costs it nothing it
    waits for), and the output time a run lands on and the plan of a run of free steps (their
    modules are imported here).  The step kernels that follow depend on the model (free_steps, or
    converge_step and newton_factorize) and load at their first calls."""
    from ..fem.beam import assemble_beams, deformations, stacked_deformations
    from ..fem.beam_energy import kinetic_energy_beams
    from ..fem.modal import assemble_modal, move_diagonal
    from ..system.assembly import mass_factorize, matrix_values, newton_scale
    from ..system.banded import band_factorize, band_solve
    from ..system.constraints import constraint_eval
    from ..system.state_energies import state_energies
    from .free_steps import plan_steps
    from .step_ends import output_target

    return (constraint_eval, deformations, stacked_deformations, assemble_beams, assemble_modal, move_diagonal, mass_factorize,
            newton_scale, matrix_values, band_factorize, band_solve, state_energies, kinetic_energy_beams, output_target,
            plan_steps)


#: how long (s) the interpreter waits at exit for a load still under way (a daemon thread inside
#: LLVM as the interpreter shuts down can crash it)
EXIT_WAIT_S = 60.0


def load_kernels_ahead() -> threading.Thread:
    """Import numba and start its runtime on a thread (:func:`~solver.jit.start_runtime`) while
    the kernels' modules are imported; read which signatures of :func:`first_kernels` are
    cached (all of this in the caller's thread, which imports modules), then start loading them
    on a daemon thread, which is returned."""
    runtime = start_runtime()
    pairs = cached_signatures(first_kernels())
    thread = threading.Thread(target=load_signatures, args=(pairs,), name="flexmech-kernels", daemon=True)
    thread.start()
    for started in (runtime, thread):
        atexit.register(started.join, EXIT_WAIT_S)
    return thread
