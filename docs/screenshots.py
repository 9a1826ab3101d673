"""Render screenshots of the main window for the README and the docs.

    python docs/screenshots.py              # offscreen, every shot below
    xvfb-run -a python docs/screenshots.py  # the same under a real X server

Each shot opens a bundled example, selects one entity (so the canvas shows a
highlight and the property view has content) and saves ``window.grab()`` as PNG in
``docs/screenshots/``.  Settings go to a throw-away folder, so the user's saved
window layout does not leak into the pictures.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

if "DISPLAY" not in os.environ and "WAYLAND_DISPLAY" not in os.environ:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings  # noqa: E402 (after choosing the platform)
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.entities import EntityRef  # noqa: E402
from app.main_window import MainWindow  # noqa: E402

OUT_DIR = Path(__file__).resolve().parent / "screenshots"
SIZE = (1200, 750)
#: file name -> (example, entity selected in the shot)
SHOTS = {
    "main_window.png": ("slider_crank_flexible", EntityRef("links", "rod")),
    "four_bar.png": ("four_bar_flexible", EntityRef("links", "coupler")),
    "free_block.png": ("slider_crank_block", EntityRef("initial_velocities", "block")),
}


def render(example: str, selected: EntityRef, out: Path, settings: QSettings) -> None:
    """Save a screenshot of the main window showing ``example`` with ``selected`` selected
    (with a throw-away recovery folder, so no leftover autosave asks to be restored)."""
    with tempfile.TemporaryDirectory() as recovery:
        _render(example, selected, out, settings, Path(recovery))


def _render(example: str, selected: EntityRef, out: Path, settings: QSettings, recovery: Path) -> None:
    window = MainWindow(settings, recovery_dir=recovery)
    window.resize(*SIZE)
    window.show()
    window.open_example(example)
    window.selection.replace((selected,))
    for _ in range(5):
        QApplication.processEvents()
    window.grab().save(str(out))
    window.close()


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    OUT_DIR.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        for name, (example, selected) in SHOTS.items():
            render(example, selected, OUT_DIR / name, settings)
            print(OUT_DIR / name)
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
