"""Finite elements, one element kind per module: :mod:`.beam` is the corotational
planar beam (thesis ch. 2, App. A), all elements of a run evaluated in one compiled
call, and :mod:`.timoshenko` its shear-flexible variant (the interdependent-interpolation
element's shapes and coefficients, which the beam kernels take per element); :mod:`.modal` is the modal link (a floating frame of reference with the link's
vibration modes), whose modes and inertia shape integrals :mod:`.modal_basis` computes
from the link's own beam mesh.

Imports nothing else of the solver: elements take arrays and return arrays.
"""
