"""Canvas tools: the modes of the sketch canvas that build and edit a model with the mouse.

:mod:`.base` has the tool classes' common parts, :mod:`.controller` routes the
canvas' events to the active tool, and each other module holds one family of tools
(:mod:`.select`, :mod:`.sketching`, :mod:`.constraints`, :mod:`.forces`,
:mod:`.contacts`, :mod:`.moving`).  Tools change the model only by pushing one named undo command
per finished action on the document.
"""
