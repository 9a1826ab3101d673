"""The Help menu: Getting Started and every page of ``docs/`` inside the app, and the
keyboard shortcuts as the window really has them.

:class:`HelpBrowser` is a panel with a :class:`~PySide6.QtWidgets.QTextBrowser` that
renders the repository's Markdown pages (pictures included, links between pages
followed, web links opened in the system browser), with Back, Forward and Getting
Started, and a box that searches every page (:func:`search_pages`).  :func:`shortcuts_html` lists the keys from the actions themselves: the
canvas tools, the menus and the playback bar, so the list cannot drift from the app.
:class:`HelpUi` adds them to the window's Help menu and shows them in a dock (``help_dock``)
at the left of the model tree, so that the page never covers the canvas the user draws on
while reading it; where the dock is, its width and whether it is open are kept with the
window's layout between launches.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from PySide6.QtCore import QObject, QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QAction, QDesktopServices, QKeySequence, QResizeEvent, QTextBlock, QTextCursor, QTextDocument,
)
from PySide6.QtWidgets import (
    QDockWidget, QHBoxLayout, QLineEdit, QMainWindow, QMenu, QPushButton, QTextBrowser, QToolButton, QVBoxLayout,
    QWidget,
)

from .window_parts import add_dock, make_action

#: the repository's documentation folder
DOCS_DIR = Path(__file__).resolve().parents[2] / "docs"
GETTING_STARTED = "getting-started.md"
#: the help dock's width when opened, px (a 1280 px window keeps some 500 px of canvas)
HELP_WIDTH = 300
#: page titles in the Help > Documentation menu, in this order (other pages follow by name)
PAGE_TITLES = {
    "getting-started.md": "Getting Started",
    "gui-editing.md": "Editing Models",
    "gui-simulation.md": "Running and Results",
    "analysis-plots.md": "Analysis Plots",
    "model-format.md": "Model File Format",
    "results-format.md": "Results Files",
    "cli.md": "Command Line",
    "solver.md": "Solver",
    "validation.md": "Validation Against Published Results",
    "performance.md": "Performance",
    "architecture.md": "Architecture",
    "README.md": "Documentation Index",
}
#: keys of the canvas that are no action: (keys, what they do)
CANVAS_KEYS = (
    ("Space + drag", "pan the canvas (or drag with the middle button)"),
    ("Wheel", "zoom about the cursor"),
    ("Shift + click", "add to the selection (Select tool)"),
    ("Esc", "drop what a tool was doing, back to Select; cancel a run"),
    ("F2, or typing", "edit the current property"),
)


def doc_pages(folder: Path = DOCS_DIR) -> list[tuple[str, Path]]:
    """``(title, path)`` of every Markdown page in ``folder``: the known ones first, in order."""
    found = {p.name: p for p in sorted(folder.glob("*.md"))}
    known = [(title, found.pop(name)) for name, title in PAGE_TITLES.items() if name in found]
    return known + [(p.stem.replace("-", " ").capitalize(), p) for p in found.values()]


@dataclass(frozen=True)
class SearchHit:
    """A page that has the words searched for: how often, and the first line they are on."""

    title: str
    path: Path
    count: int
    line: str


def search_pages(text: str, pages: Iterable[tuple[str, Path]]) -> list[SearchHit]:
    """The pages whose Markdown has every word of ``text`` (any case), most hits first.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.md").write_text("Contact pairs\\nA compliant contact law.\\n", encoding="utf-8")
    >>> [(h.title, h.count, h.line) for h in search_pages("Compliant contact", [("A", folder / "a.md")])]
    [('A', 1, 'A compliant contact law.')]
    """
    words = text.lower().split()
    hits = []
    for title, path in pages:
        lines = path.read_text(encoding="utf-8").splitlines()
        lower = [line.lower() for line in lines]
        if not words or not all(any(w in line for line in lower) for w in words):
            continue
        count = sum(line.count(words[0]) for line in lower)
        first = next(i for i, line in enumerate(lower) if all(w in line for w in words) or words[0] in line)
        hits.append(SearchHit(title, path, count, lines[first].strip()))
    return sorted(hits, key=lambda h: -h.count)


def search_html(text: str, hits: list[SearchHit]) -> str:
    """The search results as the help browser shows them: a link to each page and its line."""
    out = [f"<h1>Search: {html.escape(text)}</h1>"]
    if not hits:
        out.append("<p>No page has these words.</p>")
    for hit in hits:
        url = QUrl.fromLocalFile(str(hit.path)).toString()
        out.append(f"<p><a href='{url}'><b>{html.escape(hit.title)}</b></a> ({hit.count})<br>"
                   f"{html.escape(hit.line[:200])}</p>")
    return "\n".join(out)


def _fragments(block: QTextBlock):
    """The text fragments of ``block``."""
    it = block.begin()
    while not it.atEnd():
        fragment = it.fragment()
        if fragment.isValid():
            yield fragment
        it += 1


def _key_text(action: QAction) -> str:
    return action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)


def shortcut_rows(sections: Iterable[tuple[str, Iterable[QAction]]]) -> list[tuple[str, str, str]]:
    """``(section, keys, what)`` for every action with a shortcut, in the order given."""
    rows = []
    for section, actions in sections:
        for action in actions:
            key = _key_text(action)
            if key:
                what = action.toolTip() or action.text().replace("&", "")
                rows.append((section, key, what.removesuffix(f" ({key})")))
    return rows


def shortcuts_html(rows: list[tuple[str, str, str]]) -> str:
    """The shortcut table as the help browser shows it."""
    out = ["<h1>Keyboard shortcuts</h1>",
           "<p>The tool keys work while the canvas has the focus (click it first); "
           "the others work anywhere in the window.</p>"]
    section = None
    for name, key, what in [*rows, *(("Canvas", k, w) for k, w in CANVAS_KEYS)]:
        if name != section:
            if section is not None:
                out.append("</table>")
            out.append(f"<h2>{html.escape(name)}</h2><table cellpadding='3'>")
            section = name
        out.append(f"<tr><td><b>{html.escape(key)}</b></td><td>{html.escape(what)}</td></tr>")
    out.append("</table>")
    return "\n".join(out)


class HelpBrowser(QWidget):
    """A panel showing the documentation pages (Markdown) and the shortcut list; ``presented``
    when it shows a page, for its dock to come forward."""

    presented = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Flexmech Help")
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(False)
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self._follow)
        self.search_box = QLineEdit()
        self.search_box.setPlaceholderText("Search all pages")
        self.search_box.setMinimumWidth(60)  # the help beside the model at 1024 x 768 (tests/app/test_layout.py)
        self.search_box.setClearButtonEnabled(True)
        self.search_box.returnPressed.connect(lambda: self.search(self.search_box.text()))
        self._find: str | None = None
        back, forward, start = QToolButton(), QToolButton(), QPushButton("Getting Started")
        for button, arrow, tip in ((back, Qt.ArrowType.LeftArrow, "Back"),
                                   (forward, Qt.ArrowType.RightArrow, "Forward")):
            button.setArrowType(arrow)
            button.setToolTip(tip)
        back.clicked.connect(self.browser.backward)
        forward.clicked.connect(self.browser.forward)
        start.clicked.connect(lambda: self.show_page(DOCS_DIR / GETTING_STARTED))
        self.browser.backwardAvailable.connect(back.setEnabled)
        self.browser.forwardAvailable.connect(forward.setEnabled)
        back.setEnabled(False)
        forward.setEnabled(False)
        bar = QHBoxLayout()
        for button in (back, forward, start):
            bar.addWidget(button)
        bar.addStretch(1)
        bar.addWidget(self.search_box, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.browser, 1)
        self.browser.sourceChanged.connect(lambda _url: self._page_shown())

    def search(self, text: str) -> list[SearchHit]:
        """Every page with the words of ``text``, listed as links; the page opened from the
        list shows the first place they are, selected."""
        hits = search_pages(text, doc_pages())
        self._find = text.split()[0] if text.split() else None
        self.show_html(search_html(text, hits), f"Search: {text}")
        return hits

    def _page_shown(self) -> None:
        self.fit_images()
        if self._find:
            self.browser.find(self._find)

    def fit_images(self) -> None:
        """Scale every picture of the page down to the browser's width (screenshots are wider)."""
        document = self.browser.document()
        width = self.browser.viewport().width() - 2 * document.documentMargin() - 4
        cursor = QTextCursor(document)
        block = document.begin()
        while block.isValid():
            for fragment in _fragments(block):
                fmt = fragment.charFormat()
                if not fmt.isImageFormat():
                    continue
                image = fmt.toImageFormat()
                picture = document.resource(QTextDocument.ResourceType.ImageResource, QUrl(image.name()))
                natural = picture.width() if picture is not None and hasattr(picture, "width") else 0
                if natural > 0:
                    image.setWidth(min(natural, width))
                    image.setHeight(picture.height() * min(natural, width) / natural)
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor)
                    cursor.setCharFormat(image)
            block = block.next()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(HELP_WIDTH, super().sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        QTimer.singleShot(0, self.fit_images)  # once the browser has its new width

    def show_page(self, path: Path) -> None:
        """Show a Markdown page (a missing one says so)."""
        self._find = None
        if path.exists():
            self.browser.setSource(QUrl.fromLocalFile(str(path)))
        else:
            self.browser.setHtml(f"<h1>Not installed</h1><p>The page {html.escape(path.name)} is not installed "
                                 "with this copy of Flexmech; it is in the docs folder of the source repository.</p>")
        self._present()

    def show_html(self, text: str, title: str) -> None:
        self.browser.setHtml(text)
        self.setWindowTitle(f"Flexmech Help — {title}")
        self._present()

    def _present(self) -> None:
        if not self.browser.documentTitle():
            self.setWindowTitle("Flexmech Help")
        self.presented.emit()

    def _follow(self, url: QUrl) -> None:
        """Pages of the documentation in here; anything on the web in the system's browser."""
        if url.isRelative() or url.isLocalFile():
            target = self.browser.source().resolved(url)
            if target.toLocalFile().endswith(".md") or url.hasFragment():
                self.browser.setSource(target)
                return
        QDesktopServices.openUrl(url)


def menu_sections(window: QMainWindow, tools: Iterable[QAction]) -> list[tuple[str, list[QAction]]]:
    """``("Canvas tools", tools)`` and each menu of the window's menu bar with its actions
    (submenus' included), in the menu bar's order."""
    def walk(menu: QMenu) -> list[QAction]:
        found = []
        for action in menu.actions():
            found += walk(action.menu()) if action.menu() is not None else [action]
        return found

    sections = [("Canvas tools", list(tools))]
    for action in window.menuBar().actions():
        if action.menu() is not None:
            sections.append((action.text().replace("&", ""), walk(action.menu())))
    return sections


class HelpUi(QObject):
    """The Help menu's pages for ``window``: Getting Started (F1), Keyboard Shortcuts and
    Documentation (every page), inserted before ``before`` (About) in ``menu``; the pages
    are shown in :attr:`dock`, hidden until asked for."""

    def __init__(self, window: QMainWindow, menu: QMenu, before: QAction, tools: Iterable[QAction]):
        super().__init__(window)
        self.window = window
        self.tools = list(tools)
        self.browser = HelpBrowser()
        self.dock: QDockWidget = add_dock(window, "Help", "help_dock", self.browser)
        self.dock.hide()
        self.browser.windowTitleChanged.connect(self.dock.setWindowTitle)
        self.browser.presented.connect(self._bring_forward)
        self.getting_started_action = make_action(
            window, "&Getting Started", self.show_getting_started, "F1",
            "A short illustrated walk from an empty model to a played-back impact")
        self.shortcuts_action = make_action(window, "&Keyboard Shortcuts", self.show_shortcuts,
                                            tip="Every key of the tools, menus and playback")
        self.docs_menu = QMenu("&Documentation", menu)
        self.page_actions = [make_action(window, title, lambda p=path: self.browser.show_page(p), tip=str(path))
                             for title, path in doc_pages()]
        self.docs_menu.addActions(self.page_actions)
        menu.insertAction(before, self.getting_started_action)
        menu.insertAction(before, self.shortcuts_action)
        menu.insertMenu(before, self.docs_menu)
        menu.insertSeparator(before)

    def _bring_forward(self) -> None:
        self.dock.show()
        self.dock.raise_()

    def show_getting_started(self) -> None:
        self.browser.show_page(DOCS_DIR / GETTING_STARTED)

    def reopen(self) -> None:
        """A dock left open at the end of the last session opens on Getting Started."""
        if self.dock.isVisibleTo(self.window) and not self.browser.browser.source().isValid():
            self.show_getting_started()

    def show_shortcuts(self) -> None:
        rows = shortcut_rows(menu_sections(self.window, self.tools))
        self.browser.show_html(shortcuts_html(rows), "Keyboard shortcuts")
