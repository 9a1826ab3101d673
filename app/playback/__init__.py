"""Playback of a run's frames: the time cursor and its speed (:mod:`.controller`),
the playback bar (:mod:`.bar`) and the canvas layer drawing deformed links, strain
colours, contact states, force arrows and traces (:mod:`.layer`), a long link through
few points within half a pixel (:mod:`.decimation`).

May import :mod:`app.canvas` (its colours and symbols) and :mod:`solver.results`.
"""
