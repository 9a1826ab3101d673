"""Band storage is Fortran-ordered for numba whatever the pattern: a diagonal pattern (rigid links'
masses, a rigid block under Lagrange contact) stored in one row was C- as well as
Fortran-contiguous, numba typed it C, and every kernel taking the factors (the Newton iterations,
the runs of open and closed steps) compiled a second time for it: 167 s in a fresh checkout."""
from __future__ import annotations

import numba
import numpy as np

from solver.system.banded import BandLU, BandPattern


def test_a_diagonal_pattern_is_stored_fortran_ordered_and_solved_exactly():
    diagonal = np.arange(3)
    pattern = BandPattern(diagonal, diagonal, 3)
    lu = BandLU.of(pattern, np.array([2.0, 4.0, 8.0]))
    assert numba.typeof(lu.AB).layout == "F" and lu.AB.shape[0] >= 2
    assert lu.solve(np.array([1.0, 1.0, 1.0])).tolist() == [0.5, 0.25, 0.125]


def test_a_pattern_with_a_band_is_stored_as_before():
    rows, cols = np.array([0, 1, 1, 2]), np.array([0, 0, 1, 2])  # one entry below the diagonal
    pattern = BandPattern(rows, cols, 3)
    assert (pattern.kl, pattern.ku) in ((1, 0), (0, 1)) and pattern.ldab == 2 * pattern.kl + pattern.ku + 1
    matrix = np.array([[2.0, 0.0, 0.0], [1.0, 4.0, 0.0], [0.0, 0.0, 8.0]])
    lu = BandLU.of(pattern, matrix[rows, cols])
    assert numba.typeof(lu.AB).layout == "F"
    assert np.allclose(lu.solve(np.array([2.0, 5.0, 8.0])), np.linalg.solve(matrix, [2.0, 5.0, 8.0]), rtol=0, atol=1e-15)
