"""Errors the solver reports to its callers (messages are for users, not tracebacks)."""


class SolverError(Exception):
    """A run that cannot go on; the message names the time and the cause."""


class UnsupportedFeature(SolverError):
    """The model uses physics this version of the solver does not run yet."""


class ResultsFormatError(ValueError):
    """A folder that is not a complete, unmodified results folder this version reads."""
