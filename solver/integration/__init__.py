"""Time integration and step control: Newmark and generalized-α steps with
Newton–Raphson (:mod:`.newmark`, thesis §2.5) and the time loop that drives them —
breakpoints, step cutting, contact events, output frames, progress and cancel
(:mod:`.time_loop`).

May import every stage below it: :mod:`solver.contact`, :mod:`solver.results`,
:mod:`solver.system`, :mod:`solver.fem`, :mod:`solver.model`.
"""
