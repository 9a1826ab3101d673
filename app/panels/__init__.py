"""The side panels: the model tree, the property panel generated from the schema
(:mod:`.properties` for its rows, :mod:`.field_edit` for parsing and checking an
entry, :mod:`.property_view` for the widget) and the problems panel.

May import :mod:`app.document` and :mod:`solver.model`.
"""
