"""The sketch canvas and its tools: the view with pan, zoom, grid and snapping
(:mod:`.sketch_view`), the drawn items (:mod:`.items`, :mod:`.symbols`), model
geometry and hit tests (:mod:`.geometry`, :mod:`.picking`), and the tools that
build and edit the model with the mouse (:mod:`.tools`); the axis labels of every pyqtgraph
plot of the app, with engineering prefixes (:mod:`.axes`).

May import :mod:`app.document` and :mod:`solver.model`.
"""
