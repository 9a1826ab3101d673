"""The open model: one plain-dict document that every view reads.

The document is the model file's content exactly as :func:`solver.model.io.load_model`
returns it; views observe :class:`ModelDocument` through its signals and never keep
model state of their own.  Every edit is an undo command (:mod:`app.document.commands`) pushed
on the document's :class:`~PySide6.QtGui.QUndoStack` with :meth:`ModelDocument.push`;
the command changes the dict in place and the document emits ``changed``.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack


class ModelDocument(QObject):
    """The model being viewed and the file it was last read from or saved to."""

    #: the whole model was replaced (a file or an example was opened)
    replaced = Signal()
    #: the document's file changed (opened, or saved under a new name)
    path_changed = Signal()
    #: an undo command changed the model in place (done, undone or redone)
    changed = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.model: dict = {}
        self.path: Path | None = None
        self.undo_stack = QUndoStack(self)

    @property
    def is_modified(self) -> bool:
        """True when the model differs from what was last opened or saved."""
        return not self.undo_stack.isClean()

    def push(self, command: QUndoCommand) -> None:
        """Do ``command`` and put it on the undo stack."""
        self.undo_stack.push(command)

    def notify_changed(self) -> None:
        """Called by commands after they changed the model."""
        self.changed.emit()

    def mark_saved(self) -> None:
        """The model now equals its file (after Save)."""
        self.undo_stack.setClean()

    def mark_modified(self) -> None:
        """The model differs from its file although no command says so (a restored recovery)."""
        self.undo_stack.resetClean()

    @property
    def is_empty(self) -> bool:
        """True until a model has been opened."""
        return not self.model

    @property
    def title(self) -> str:
        """The model's name, else its file name, else "untitled"."""
        return self.model.get("name") or (self.path.stem if self.path else "untitled")

    def replace(self, model: dict, path: Path | None) -> None:
        """Show ``model``; ``path`` is its file, or None for a model without one (an example)."""
        self.undo_stack.clear()
        self.model = model
        self.path = path
        self.replaced.emit()
        self.path_changed.emit()

    def set_path(self, path: Path) -> None:
        """Record that the document now lives in ``path`` (after Save As)."""
        self.path = path
        self.path_changed.emit()
