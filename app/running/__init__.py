"""Running a simulation without freezing the window: the worker thread that drives
the solver's generator and writes the frames to a results folder as they come
(:mod:`.worker`), the run's scratch folder (:mod:`.scratch`), the window's bounded view of
the frames of a run going on (:mod:`.run_frames`), the GUI side that starts, cancels and
collects a run (:mod:`.controller`) and the progress in the status bar (:mod:`.status`).

May import :mod:`solver`; no other area of the app.
"""
