"""Flexmech's desktop application (PySide6 + pyqtgraph) and the ``flexmech`` command.

One subpackage per area a user sees, each importing only those below it
(``pyproject.toml``'s import-linter contracts; ``docs/architecture.md``):
:mod:`.shell` (main window, command line) → :mod:`.running`, :mod:`.playback`,
:mod:`.results`, :mod:`.panels`, :mod:`.sweeps` (independent of each other) → :mod:`.canvas` →
:mod:`.document`.  Everything numeric comes from :mod:`solver`.
"""
