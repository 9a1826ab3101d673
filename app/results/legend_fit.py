"""A legend no wider than its plot: on a narrow plot its names are drawn smaller, down to
:data:`SMALLEST_PT`, then cut at their end with their unit kept (``striker-end n… (N)``), each whole in
its tooltip, and whole again when the plot widens; a legend wider than the view was cut at the
plot's edge and covered the curves it names (:func:`~app.results.legend_room.place_legend` clears
the curves of a legend that fits)."""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetricsF

#: pt: the size of the legend's names while they fit (pyqtgraph's), and the smallest they are drawn
NAME_PT, SMALLEST_PT = 9.0, 7.0
#: px: a legend this much narrower than the width it is given (its frame's anti-aliasing)
SLACK = 2.0
#: px: the narrowest a name is cut to (a few letters and the ellipsis)
NAME_MINIMUM = 30.0
#: the least of a name shown beside its unit: with less room the unit goes (at 1024 x 768 the two
#: forces read '(N)' and '(N)')
BODY_LEAST = "nor…"


def fit_legend(legend: pg.LegendItem, width: float) -> None:
    """Fit ``legend`` in ``width`` px: its names whole at :data:`NAME_PT` while they fit, else
    smaller, down to :data:`SMALLEST_PT`, then cut (:func:`cut_name`) as little as fits."""
    labels = [label for _, label in legend.items]
    for label in labels:
        if not hasattr(label, "full_name"):
            label.full_name = label.text
            label.setToolTip(label.full_name)
    fitted_for = (round(width), tuple(id(label) for label in labels))
    if getattr(legend, "fitted_for", None) == fitted_for:  # a run's new frames: the names fit as they are
        return
    legend.fitted_for = fitted_for
    for pt in (NAME_PT, 8.0, SMALLEST_PT):
        for label in labels:
            label.setText(label.full_name, size=f"{pt:g}pt")
        _settle(legend)
        if legend.boundingRect().width() <= width - SLACK:
            return
    budget = max((label.itemRect().width() for label in labels), default=0.0)
    for _ in range(3):  # the layout's overhead is measured, not assumed: what is left over is taken off again
        excess = legend.boundingRect().width() - (width - SLACK)
        if excess <= 0 or budget <= NAME_MINIMUM:
            return
        budget = max(budget - excess, NAME_MINIMUM)
        for label in labels:
            label.setText(_cut(label, budget, [other.full_name for other in labels if other is not label]))
        _settle(legend)


def cut_name(name: str, width: float, metrics: QFontMetricsF, others: list[str] = ()) -> str:
    """``name`` cut at its end to ``width`` px of ``metrics``, a trailing unit in parentheses kept
    while it leaves room for :data:`BODY_LEAST` of the name (the axis gives the unit too), and the
    words it begins with as one of ``others`` does (the legend's other names) left out first, so that
    names cut can still be told apart.

    >>> metrics = QFontMetricsF(QFont())
    >>> cut_name("striker vx (m/s)", metrics.horizontalAdvance("striker… (m/s)") + 1, metrics)
    'striker… (m/s)'
    >>> cut_name("striker-end normal force (N)", 1e3, metrics, ["striker-end tangential force (N)"])
    '…normal force (N)'
    >>> cut_name("striker vx (m/s)", metrics.horizontalAdvance("striker") + 1, metrics)  # no room for both: the name
    'strik…'
    """
    body, unit = (name[:name.rindex(" (")], name[name.rindex(" ("):]) if name.endswith(")") and " (" in name else (name, "")
    head = max((_shared_words(body, other) for other in others), default=0)
    body = "…" + body[head:] if head else body
    if width - metrics.horizontalAdvance(unit) < metrics.horizontalAdvance(BODY_LEAST):  # the axis gives the unit
        unit = ""
    return metrics.elidedText(body, Qt.TextElideMode.ElideRight, max(width - metrics.horizontalAdvance(unit), 0.0)) + unit


def _shared_words(name: str, other: str) -> int:
    """How many leading characters of ``name`` are whole words (ended by a space or a hyphen)
    ``other`` begins with too."""
    n = 0
    while n < min(len(name), len(other)) and name[n] == other[n]:
        n += 1
    return max((i + 1 for i in range(n) if name[i] in " -"), default=0) if n < len(name) else 0


def _cut(label: pg.LabelItem, budget: float, others: list[str]) -> str:
    """The full name of ``label`` cut to ``budget`` px of drawn label (the text item's margins
    included), the words it shares at its start with ``others`` (the legend's other names) left out."""
    font = QFont(label.item.font())
    font.setPointSizeF(SMALLEST_PT)
    metrics = QFontMetricsF(font)
    margins = label.itemRect().width() - metrics.horizontalAdvance(label.text)
    return cut_name(label.full_name, budget - margins, metrics, others)


def _settle(legend: pg.LegendItem) -> None:
    """Lay the legend's rows out anew and size its box to them (pyqtgraph sizes it on adding only,
    and its rows keep the width they had: shrunk to the least first)."""
    legend.setGeometry(0, 0, 0, 0)
    legend.layout.activate()
    legend.updateSize()
