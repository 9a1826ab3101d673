"""Analyses about one configuration, without a time loop: static equilibrium
(:mod:`.static`), natural modes with Rayleigh damping (:mod:`.modal`), a contact pair
at one instant (:mod:`.contact_instant`) and its impact-type maps (:mod:`.impact_map`,
with the zero lines of :mod:`.isolines`), and the wave-theory solutions of the
chapter-5 bar impacts (:mod:`.wave_theory`).

May import :mod:`solver.contact` and below; never :mod:`solver.integration`.
"""
