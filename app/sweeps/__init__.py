"""Parameter sweeps in the window: the sweep dialog (:mod:`.dialog`), the sweep run in a
worker thread (:mod:`.worker`), its progress with cancel (:mod:`.progress`), and the
sweep's table with a scalar-against-parameter plot whose points open their run
(:mod:`.results_view`).

May import :mod:`solver`; no other area of the app.
"""
