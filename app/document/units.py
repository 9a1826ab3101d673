"""Reading quantities typed by the user: ``6 mm``, ``0.006``, ``71 GPa``, ``2.7 g/cm^3``, ``90 deg``.

Plain Python, no Qt.  Values are converted to the SI unit of the field (the unit the
schema gives, e.g. ``m`` or ``kg/m^3``); a bare number is taken as already SI.  A
unit is a product of factors like ``N``, ``mm^2`` or ``s^-1`` separated by spaces,
``*`` or ``/``; each factor is a unit with an optional SI prefix and exponent.  The
dimensions (m, kg, s) must match the field's, so ``6 kg`` is refused for a length.
An angle is a dimension of its own that a field may leave out (a radian is 1 in SI, so
``90 deg`` is 1.5708 as a pure number and ``10 1/s`` is 10 rad/s), but a frequency in
cycles (``Hz``, ``rpm``) is 2 pi rad per cycle: ``50 Hz`` of a speed driver is 314.16
rad/s and ``3000 rpm`` of a sine's frequency is 50 Hz; between cycles and a unit without
an angle (``1/s``) the value is refused, since it could be read either way.

>>> parse_quantity("6 mm", "m")
0.006
>>> parse_quantity("0.006", "m")
0.006
>>> parse_quantity("2.7 g/cm^3", "kg/m^3")
2700.0
>>> parse_quantity("71 GPa", "Pa")
71000000000.0

Values are shown the other way round by :func:`format_quantity`: ``0.0123 s`` as ``12.3 ms``.
"""
from __future__ import annotations

import math
import re

#: units known by symbol: (factor to SI, exponents of (m, kg, s, K, angle, cycle)); a unit counting
#: cycles (Hz, rpm) carries one radian-valued angle of 2 pi per cycle and a cycle mark, which
#: conversion leaves aside: it only tells an angle given in cycles from one left out
UNITS: dict[str, tuple[float, tuple[int, int, int, int, int, int]]] = {
    "m": (1.0, (1, 0, 0, 0, 0, 0)),
    "g": (1e-3, (0, 1, 0, 0, 0, 0)),
    "t": (1e3, (0, 1, 0, 0, 0, 0)),
    "s": (1.0, (0, 0, 1, 0, 0, 0)),
    "min": (60.0, (0, 0, 1, 0, 0, 0)),
    "h": (3600.0, (0, 0, 1, 0, 0, 0)),
    "Hz": (2.0 * math.pi, (0, 0, -1, 0, 1, 1)),
    "N": (1.0, (1, 1, -2, 0, 0, 0)),
    "Pa": (1.0, (-1, 1, -2, 0, 0, 0)),
    "J": (1.0, (2, 1, -2, 0, 0, 0)),
    "W": (1.0, (2, 1, -3, 0, 0, 0)),
    "rad": (1.0, (0, 0, 0, 0, 1, 0)),
    "deg": (math.pi / 180.0, (0, 0, 0, 0, 1, 0)),
    "°": (math.pi / 180.0, (0, 0, 0, 0, 1, 0)),
    "rpm": (2.0 * math.pi / 60.0, (0, 0, -1, 0, 1, 1)),
    "1": (1.0, (0, 0, 0, 0, 0, 0)),
    "-": (1.0, (0, 0, 0, 0, 0, 0)),
    "K": (1.0, (0, 0, 0, 1, 0, 0)),
}
#: the places of the angle and of the cycle mark in a unit's exponents
ANGLE, CYCLE = 4, 5

PREFIXES: dict[str, float] = {
    "G": 1e9, "M": 1e6, "k": 1e3, "h": 1e2, "d": 1e-1, "c": 1e-2, "m": 1e-3,
    "u": 1e-6, "µ": 1e-6, "μ": 1e-6, "n": 1e-9,
}

_NUMBER = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(.*?)\s*$")
_FACTOR = re.compile(r"^([^\^]+?)(?:\^([-+]?\d+))?$")


class UnitError(ValueError):
    """Text that is not a quantity in the wanted unit; the message says why."""


def _symbol(token: str) -> tuple[float, tuple[int, ...]]:
    if token in UNITS:
        return UNITS[token]
    if len(token) > 1 and token[0] in PREFIXES and token[1:] in UNITS:
        factor, dims = UNITS[token[1:]]
        return PREFIXES[token[0]] * factor, dims
    raise UnitError(f"unknown unit '{token}'")


def parse_unit(text: str) -> tuple[float, tuple[int, ...]]:
    """``(factor to SI, dimensions)`` of a unit expression such as ``kg m^2`` or ``N s/m``;
    the dimensions are the exponents of (m, kg, s, K, angle, cycle) (:data:`UNITS`).

    >>> parse_unit("mm^2"), parse_unit("1/K")
    ((1e-06, (2, 0, 0, 0, 0, 0)), (1.0, (0, 0, 0, -1, 0, 0)))
    """
    factor, dims = 1.0, [0, 0, 0, 0, 0, 0]
    text = text.replace("·", " ").replace("*", " ").replace("/", " / ").strip()
    sign = 1
    for token in text.split():
        if token == "/":
            sign = -1
            continue
        match = _FACTOR.match(token)
        if not match:
            raise UnitError(f"cannot read the unit '{token}'")
        f, d = _symbol(match.group(1))
        power = sign * int(match.group(2) or 1)
        factor *= f ** power
        dims = [a + power * b for a, b in zip(dims, d)]
    return factor, tuple(dims)


def parse_quantity(text: str, unit: str) -> float:
    """The value of ``text`` in the SI unit ``unit`` (``-`` for a pure number).

    Raises :class:`UnitError` for text that is no number or has the wrong dimension.
    Fields whose unit this module cannot read (``N/m^n``) accept bare numbers only.
    """
    match = _NUMBER.match(text)
    if not match:
        raise UnitError("must be a number")
    value, typed = float(match.group(1)), match.group(2)
    if not typed:
        return value
    try:
        want_factor, want_dims = parse_unit(unit or "-")
    except UnitError:
        raise UnitError(f"give a number in {unit}") from None
    if typed[0] == "," and typed[1:2].isdigit():
        raise UnitError(f"use a decimal point: {match.group(1)}.{typed[1:]}, not {text.strip()}")
    factor, dims = parse_unit(typed)
    if not _convertible(dims, want_dims):
        raise UnitError(f"'{typed}' is not a unit of {unit if unit not in ('', '-') else 'a pure number'}")
    result = value * factor / want_factor
    return float(f"{result:.15g}")  # 6 mm -> 0.006, not 0.006000000000000001


def _convertible(dims: tuple[int, ...], want: tuple[int, ...]) -> bool:
    """Whether a quantity of ``dims`` reads in a unit of ``want``: the same exponents, except
    an angle that one leaves out, unless either counts cycles (``10 1/s`` is no number of Hz).

    >>> _convertible(parse_unit("rpm")[1], parse_unit("Hz")[1]), _convertible(parse_unit("Hz")[1], parse_unit("rad/s")[1])
    (True, True)
    >>> _convertible(parse_unit("deg")[1], parse_unit("-")[1]), _convertible(parse_unit("1/s")[1], parse_unit("Hz")[1])
    (True, False)
    """
    if dims[:ANGLE] != want[:ANGLE]:
        return False
    return dims[ANGLE] == want[ANGLE] or not (dims[CYCLE] or want[CYCLE])


#: units shown with an SI prefix (``ms``, ``kN``, ``mm/s``); others keep theirs (``deg``, ``rad/s``)
PREFIXED_UNITS = ("s", "m", "m/s", "m/s^2", "N", "N m", "N s", "J", "Pa", "W", "Hz")
#: a strain (``ε``, m/m) is always shown in microstrain, as the playback's colour bar shows it
STRAIN, MICROSTRAIN = "ε", "µε"
#: exponent -> prefix of :func:`format_quantity`
_PREFIX_OF = {-9: "n", -6: "µ", -3: "m", 0: "", 3: "k", 6: "M", 9: "G"}


def si_prefixed(value: float, unit: str) -> tuple[float, str]:
    """``(scaled value, prefixed unit)`` putting ``value`` between 1 and 1000 where the unit takes a prefix.

    A strain is given in microstrain, whatever its size.

    >>> si_prefixed(0.0123, "s"), si_prefixed(2.5e-5, "s"), si_prefixed(1500.0, "N"), si_prefixed(0.5, "deg")
    ((12.3, 'ms'), (25.0, 'µs'), (1.5, 'kN'), (0.5, 'deg'))
    >>> si_prefixed(0.00125, "ε")
    (1250.0, 'µε')
    """
    if unit == STRAIN:
        return float(f"{value * 1e6:.12g}"), MICROSTRAIN
    if unit not in PREFIXED_UNITS or value == 0 or not math.isfinite(value):
        return value, unit
    exponent = min(max(3 * math.floor(math.log10(abs(value)) / 3), -9), 9)
    return float(f"{value / 10.0 ** exponent:.12g}"), _PREFIX_OF[exponent] + unit


def format_quantity(value: float, unit: str, digits: int = 4) -> str:
    """``value`` (SI, in ``unit``) as text with a readable SI prefix; a pure number without unit.

    >>> format_quantity(0.0837758041, "s"), format_quantity(4.1887902e-05, "s"), format_quantity(3.0, "-")
    ('83.78 ms', '41.89 µs', '3')
    """
    scaled, shown = si_prefixed(value, unit)
    text = f"{scaled:.{digits}g}"
    return text if shown in ("-", "") else f"{text} {shown}"
