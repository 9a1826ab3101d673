"""The open model: one plain-dict document that every view reads.

The document is the model file's content exactly as :func:`solver.model.io.load_model`
returns it; views observe :class:`ModelDocument` through its signals and never keep
model state of their own.  (Edits will arrive as undo commands that change the
document and emit signals; for now a document is only ever replaced whole.)
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal


class ModelDocument(QObject):
    """The model being viewed and the file it was last read from or saved to."""

    #: the whole model was replaced (a file or an example was opened)
    replaced = Signal()
    #: the document's file changed (opened, or saved under a new name)
    path_changed = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.model: dict = {}
        self.path: Path | None = None

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
        self.model = model
        self.path = path
        self.replaced.emit()
        self.path_changed.emit()

    def set_path(self, path: Path) -> None:
        """Record that the document now lives in ``path`` (after Save As)."""
        self.path = path
        self.path_changed.emit()
