"""Choosers of the results docks that narrow with their dock: a combo box asks for room for
:data:`LEAST_CHARACTERS` characters, not for its longest entry nor 79 px while empty (the plots'
preset and the comparison's two choosers set the bottom row's least width: with the help open
beside the model the window was 1059 px wide, past a 1024 x 768 screen)."""
from __future__ import annotations

from PySide6.QtWidgets import QComboBox

#: characters a narrow combo box keeps room for (its entries elided beyond, whole in its list)
LEAST_CHARACTERS = 2


def narrow_combo() -> QComboBox:
    """A combo box whose least width is that of :data:`LEAST_CHARACTERS` characters."""
    combo = QComboBox()
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(LEAST_CHARACTERS)
    return combo
