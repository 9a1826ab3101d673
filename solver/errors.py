"""Errors the solver reports to its callers (messages are for users, not tracebacks)."""


class SolverError(Exception):
    """A run that cannot go on; the message names the time and the cause."""


class UnsupportedFeature(SolverError):
    """The model uses physics this version of the solver does not run yet."""


class ResultsFormatError(ValueError):
    """A folder that is not a complete, unmodified results folder this version reads."""


def unexpected_error(error: BaseException) -> str:
    """An error no message was written for (a bug) in a few words: its type and its text.

    >>> unexpected_error(KeyError("mesh"))
    "an unexpected error, KeyError: 'mesh'"
    """
    return f"an unexpected error, {type(error).__name__}: {error}" if str(error) else f"an unexpected {type(error).__name__}"
