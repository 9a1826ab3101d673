"""Help: Getting Started rendered from the repository's Markdown inside the app, every
doc page, the keyboard shortcuts as the window has them, and keys in the tooltips."""
from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt, QUrl
from PySide6.QtGui import QTextDocument

from app.shell import layout
from app.shell.help import DOCS_DIR, doc_pages
from app.shell.main_window import MainWindow


def test_getting_started_opens_inside_the_app_with_its_pictures(qtbot, window):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    browser = window.help.browser
    qtbot.waitUntil(browser.isVisible)
    assert browser.browser.source().toLocalFile() == str(DOCS_DIR / "getting-started.md")
    text = browser.browser.toPlainText()
    assert text.startswith("Getting started") and "Draw the rod and make it flexible" in text
    document = browser.browser.document()
    pictures = ["screenshots/impact_run.png"]
    for name in pictures:
        assert (DOCS_DIR / name).exists()
        image = document.resource(QTextDocument.ResourceType.ImageResource, QUrl(name))
        assert image is not None and not image.isNull(), name  # the picture was loaded, not a broken icon


def test_every_doc_page_is_in_the_help_menu_and_links_between_pages_are_followed(qtbot, window):
    titles = [action.text() for action in window.help.page_actions]
    assert len(titles) == len(list(DOCS_DIR.glob("*.md"))) == len(doc_pages())
    assert titles[:2] == ["Getting Started", "Editing Models"]
    window.help.page_actions[titles.index("Command Line")].trigger()
    browser = window.help.browser.browser
    assert browser.source().fileName() == "cli.md"
    browser.anchorClicked.emit(QUrl("results-format.md"))
    assert browser.source().fileName() == "results-format.md"
    assert "results" in browser.toPlainText().lower()


def test_the_shortcut_list_comes_from_the_actions(qtbot, window):
    window.help.shortcuts_action.trigger()
    text = window.help.browser.browser.toPlainText()
    for key, what in (("F5", "Simulate the model"), ("L", "Link"), ("Home", "Go to start"),
                      ("Ctrl+Space", "Play / pause"), ("F1", "A short illustrated walk"), ("Space + drag", "pan")):
        assert key in text and what in text, (key, what)


def test_tooltips_name_the_keys(window):
    assert window.simulation.run_action.toolTip() == "Simulate the model (in the background) (F5)"
    assert window.tool_bar.actions_by_name["link"].toolTip().endswith("(L)")
    assert window.tool_bar.escape_action.toolTip().endswith("(Esc)")
    assert window.simulation.bar.start_action.toolTip() == "Go to start (Home)"
    assert window.zoom_fit_action.toolTip().endswith("(Ctrl+0)")


def test_the_search_box_finds_a_word_on_every_page_and_opens_one_at_it(qtbot, window):
    """Issue #27: Help searches all pages; a result opens its page with the word selected."""
    window.help.show_getting_started()
    help_window = window.help.browser
    box = help_window.search_box
    box.setFocus()
    qtbot.keyClicks(box, "Lankarani")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    browser = help_window.browser
    text = browser.toPlainText()
    assert text.startswith("Search: Lankarani")
    assert "Solver" in text and "Editing Models" in text
    assert "Getting Started" not in text.split("\n", 1)[1]  # the page does not name the law
    link = QUrl.fromLocalFile(str(DOCS_DIR / "solver.md"))
    browser.anchorClicked.emit(link)
    assert browser.source().fileName() == "solver.md"
    assert browser.textCursor().selectedText().lower() == "lankarani"


def global_rect(widget) -> QRect:
    """``widget``'s rectangle on the screen, px."""
    return QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())


def test_getting_started_opens_beside_the_canvas_and_is_there_at_the_next_launch(qtbot, window, settings):
    """Issue #27: the page tells the user what to draw, so it never covers the canvas: it opens in
    a dock at the window's left, and where it is and that it is open are kept between launches."""
    window.resize(1280, 800)                        # the screen Getting Started is written for
    qtbot.waitUntil(lambda: window.width() == 1280)
    window.reset_layout_action.trigger()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    page = window.help.browser
    qtbot.waitUntil(page.isVisible)
    qtbot.waitUntil(lambda: not global_rect(page).intersects(global_rect(window.sketch.viewport())), timeout=5000)
    assert page.window() is window and not window.help.dock.isFloating() and window.width() == 1280
    qtbot.waitUntil(lambda: window.tree_dock.width() >= layout.LEFT_WIDTH - 10, timeout=5000)  # rows still read
    assert window.sketch.viewport().width() >= 500   # px: room left to draw the page's model
    window.close()                                  # the layout is saved
    again = MainWindow(settings)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    qtbot.waitUntil(again.help.dock.isVisible)
    assert again.help.browser.browser.source().fileName() == "getting-started.md"
    assert not global_rect(again.help.dock).intersects(global_rect(again.sketch.viewport()))
