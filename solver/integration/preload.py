"""The compiled kernels of a run loaded from numba's cache on a thread while the run is set up.

Loading the kernels a run calls first takes about a fifth of ``flexmech run``'s start on
the slider-crank (0.15 s of 1 s), mostly LLVM parsing their cached bitcode, without the
GIL; the set-up before the first of them (reading and checking the model, compiling the
system, the initial state's sparse algebra) is Python.  :func:`load_kernels_ahead`
imports numba and these kernels' modules, then loads :data:`FIRST_KERNELS` on a daemon
thread (:func:`solver.jit.load_signatures`): a kernel the run reaches before the thread is
loaded the run loads itself, as without it.
"""
from __future__ import annotations

import atexit
import threading

from ..fem.beam import assemble_beams, deformations, mass_matrices, strain_energies
from ..fem.beam_energy import kinetic_energy_beams
from ..fem.modal import assemble_modal
from ..jit import cached_signatures, compile_kernels, load_signatures
from ..system.assembly import matrix_values, newton_scale
from ..system.banded import band_factorize, band_solve
from ..system.constraints import constraint_eval

#: the kernels every run calls from Python first (rigid links and contact pairs alike), in the
#: order of their first calls: the initial state, the first frame, the first Newton matrix.  The
#: step kernels that follow depend on the model (free_steps, or converge_step and
#: newton_factorize) and load at their first calls
FIRST_KERNELS = (constraint_eval, deformations, assemble_beams, assemble_modal, mass_matrices, newton_scale,
                 matrix_values, band_factorize, band_solve, kinetic_energy_beams, strain_energies)

#: how long (s) the interpreter waits at exit for a load still under way (a daemon thread inside
#: LLVM as the interpreter shuts down can crash it)
EXIT_WAIT_S = 60.0


def load_kernels_ahead() -> threading.Thread:
    """Import numba and read which signatures of :data:`FIRST_KERNELS` are cached (here, in the
    caller's thread, which imports modules), then start loading them on a daemon thread, which
    is returned."""
    compile_kernels()
    thread = threading.Thread(target=load_signatures, args=(cached_signatures(FIRST_KERNELS),),
                              name="flexmech-kernels", daemon=True)
    thread.start()
    atexit.register(thread.join, EXIT_WAIT_S)
    return thread
