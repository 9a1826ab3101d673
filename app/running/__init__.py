"""Running a simulation without freezing the window: the worker thread that drives
the solver's generator (:mod:`.worker`), the GUI side that starts, cancels and
collects a run (:mod:`.controller`) and the progress in the status bar
(:mod:`.status`).

May import :mod:`solver`; no other area of the app.
"""
