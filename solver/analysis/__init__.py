"""Analyses about one configuration, without a time loop: static equilibrium
(:mod:`.static`) and natural modes with Rayleigh damping (:mod:`.modal`).

May import :mod:`solver.system` and below; never :mod:`solver.integration`.
"""
