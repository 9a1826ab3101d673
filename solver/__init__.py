"""Flexmech's solver: a model file in, results out, never Qt.

The packages are the stages a model goes through, each importing only the ones
below it (``pyproject.toml``'s import-linter contracts; ``docs/architecture.md``):
:mod:`.api` (the public calls) → :mod:`.sweeps` (many runs on dask) →
:mod:`.analysis` (static, modal, impact-type maps, wave theory) and
:mod:`.integration` (the time loop) → :mod:`.contact` (impact resolution) →
:mod:`.results` (frames and files) → :mod:`.system` (the compiled system) →
:mod:`.fem` (elements) → :mod:`.model` (the file format) → :mod:`.errors`.
"""
