"""The selected entities, shared by the model tree, the canvas and the property view."""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from .entities import EntityRef


class Selection(QObject):
    """An ordered set of :class:`~app.document.entities.EntityRef`; ``changed`` carries the new tuple."""

    changed = Signal(tuple)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._refs: tuple[EntityRef, ...] = ()

    @property
    def refs(self) -> tuple[EntityRef, ...]:
        return self._refs

    @property
    def single(self) -> EntityRef | None:
        """The selected entity when exactly one is selected, else None."""
        return self._refs[0] if len(self._refs) == 1 else None

    def replace(self, refs: tuple[EntityRef, ...]) -> None:
        """Select ``refs`` instead of the current selection."""
        refs = tuple(dict.fromkeys(refs))
        if refs != self._refs:
            self._refs = refs
            self.changed.emit(refs)

    def clear(self) -> None:
        self.replace(())
