"""Arrays without reference counts in the compiled kernels (solver/borrowing.py), the stand-ins
of solver/jit.py, and the drivers' motion on an array of times (the runs of free steps)."""
import numpy as np
import pytest
from numba import njit

import solver.jit as jit
from solver.borrowing import borrowed, local_array
from solver.model.io import examples_dir, load_model
from solver.system.compile import compile_model
from solver.model.timefn import POLYNOMIAL, TimeFunction


@njit
def _scale_all(arrays, factor):
    """Scale the borrowed arrays of ``arrays`` = (a, (b, k)) in place; returns k."""
    a, (b, k) = borrowed(arrays)
    for i in range(a.shape[0]):
        a[i] *= factor
    for i in range(b.shape[0]):
        for j in range(b.shape[1]):
            b[i, j] *= factor
    return k


@njit
def _gram(x):
    """``x x^T`` of a 3-vector through stack scratch, summed: ``(sum x)^2``."""
    G = local_array(3, 3)
    for i in range(3):
        for j in range(3):
            G[i, j] = x[i] * x[j]
    return G.sum(), G.shape[0], G.shape[1], G.strides[0], G.strides[1]


def test_borrowed_arrays_are_the_callers_memory():
    a, b = np.arange(3.0), np.ones((2, 2))
    assert _scale_all((a, (b, 7)), 2.0) == 7
    np.testing.assert_array_equal(a, [0.0, 2.0, 4.0])
    np.testing.assert_array_equal(b, np.full((2, 2), 2.0))


def test_local_array_is_a_c_ordered_matrix():
    total, rows, cols, s0, s1 = _gram(np.array([1.0, 2.0, 2.0]))
    assert (total, rows, cols, s0, s1) == (25.0, 3, 3, 24, 8)


def test_stand_ins_do_what_the_intrinsics_mean_in_python():
    value = (np.zeros(2), 3)
    assert jit.Intrinsic("borrowed", lambda v: v)(value) is value
    assert jit.Intrinsic("local_array", jit._empty)(4, 6).shape == (4, 6)
    assert jit.Intrinsic("borrowed", lambda v: v).intrinsic() is borrowed


@pytest.mark.parametrize("spec", [
    {"kind": "constant", "value": 150},
    {"kind": "linear", "rate": 0.3},
    {"kind": "free", "s0": 0.2, "speed0": -1.5},
])
@pytest.mark.parametrize("integrate", [False, True])
def test_polynomial_motion_on_an_array_of_times_is_bit_for_bit_the_scalar_one(spec, integrate):
    """``ConstraintSet.motion_at`` evaluates these kinds on the whole array of a run's step ends."""
    assert spec["kind"] in POLYNOMIAL
    cons = compile_model(load_model(examples_dir() / "slider_crank_flexible.json")).constraints
    driver = cons._moving[0]
    cons.functions[driver], cons.integrate[driver] = TimeFunction(spec), integrate
    times = np.cumsum(np.full(997, 2 * np.pi / 150 / 1000))
    targets, accelerations = cons.motion_at(times)
    np.testing.assert_array_equal(targets, [cons.target(t) for t in times.tolist()])
    np.testing.assert_array_equal(accelerations, [cons.prescribed(t, 2) for t in times.tolist()])
