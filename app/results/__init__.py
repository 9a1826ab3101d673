"""Results views: plots with a shared time cursor (:mod:`.plots`) of the series a run
offers (:mod:`.series`), the impact events table with its Routh diagram
(:mod:`.events_view`, :mod:`.routh_diagram`), run comparison (:mod:`.compare`) and
export to CSV, PNG/SVG and GIF/MP4 (:mod:`.export`).

May import :mod:`solver`; no other area of the app.
"""
