"""The document: the model being edited and everything that changes or checks it
without a widget — the :class:`~.model_document.ModelDocument` with its undo stack,
entity references (:mod:`.entities`), plain edits of the model (:mod:`.edits`) and
the undo commands made of them (:mod:`.commands`), new entities with defaults
(:mod:`.new_entities`), section presets, units, the selection, and the model checks
of the problems panel (:mod:`.checks`).

May import :mod:`solver.model`, QtCore and QtGui (signals, undo commands); never
QtWidgets, pyqtgraph or another area of the app.
"""
