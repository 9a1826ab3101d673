"""Finite elements, one element kind per module: :mod:`.beam` is the corotational
planar beam (thesis ch. 2, App. A), all elements of a run evaluated in one compiled
call.

Imports nothing else of the solver: elements take arrays and return arrays.
"""
