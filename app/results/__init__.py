"""Results views: plots with a shared time cursor (:mod:`.plots`, :mod:`.plots_dock`)
of the series a run offers (:mod:`.series`), with reference and CSV overlays
(:mod:`.overlays`; a plot's CSV menu, :mod:`.csv_menu`, draws a file against the abscissa
its header names, :mod:`.overlay_abscissa`), the impact events table with its Routh diagram
(:mod:`.events_view`, :mod:`.routh_diagram`; both plots' legends placed by :mod:`.legend_room`),
impact-type maps (:mod:`.map_view`,
drawn without Qt for the command line by :mod:`.map_image`), the objective of an optimum
search against its field drawn without Qt (:mod:`.optimum_image`; both on the axes of
:mod:`.png_axes`), run comparison
(:mod:`.compare`) and export to CSV, PNG/SVG and GIF/MP4 (:mod:`.export`).

May import :mod:`solver`; no other area of the app.
"""
