"""Issue #27: the examples grouped by source and kind, each with its description and what it
reproduces, in the Examples menu's submenus and on the start page shown at first launch."""
from __future__ import annotations

import doctest

import pytest
from PySide6.QtCore import Qt

from app.shell import example_groups, help, layout, simulation_ui, start_page
from app.shell.example_groups import GROUPS, grouped
from app.shell.start_page import StartPage, first_launch
from solver.model.io import list_examples


@pytest.mark.parametrize("module", [example_groups, help, layout, simulation_ui, start_page])
def test_docstring_examples(module):
    """Includes issue #27's small ones: "1 frame" (not "1 frames"), the frame kept inside a screen."""
    assert doctest.testmod(module).failed == 0


def test_every_example_is_in_one_group_with_what_it_reproduces():
    groups = grouped()
    names = [e.name for _group, members in groups for e in members]
    assert sorted(names) == sorted(n for n, _p, _d in list_examples())
    by_name = {e.name: e for _group, members in groups for e in members}
    assert by_name["slider_crank_block"].group == "Thesis ch. 5: impacts on flexible bodies"
    assert by_name["slider_crank_block"].label == "Slider-crank struck by a free block (§5.4)"
    assert by_name["rod_impact_rigid"].reproduces == "§6, Tables 1 and 2"
    assert by_name["spheres_hertz"].group == "Flores et al. 2006: contact force laws"
    assert by_name["slider_crank_clearance_hertz"].reproduces == "Fig. 11(a), Tables 1-2"
    assert by_name["robot_arm"].reproduces == "§2.7, Example 1"
    assert by_name["pendulum_impact"].group.startswith("Predebon")
    assert by_name["disc_rolling_beam"].group.startswith("Amirouche")
    order = [title for title, _p in GROUPS]
    assert [order.index(g) for g, _m in groups] == sorted(order.index(g) for g, _m in groups)
    assert all(e.description for e in by_name.values())


def test_the_examples_menu_has_a_submenu_per_group(window):
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Examples")
    subs = [a.menu() for a in menu.actions()]
    assert [s.title().replace("&&", "&") for s in subs] == [g for g, _m in grouped()]
    assert subs[-1].title() == "Amirouche && Xie: rolling, moving loads, gear tooth"  # shown with its "&"
    thesis5 = subs[1]
    action = window.example_actions["slider_crank_block"]
    assert action in thesis5.actions() and action.text() == "Slider-crank struck by a free block (§5.4)"
    assert action.toolTip().startswith("Thesis 5.4")
    action.trigger()
    assert window.document.model["name"] == "Slider-crank struck by a free block"


def test_the_start_page_opens_an_example(qtbot, window):
    page = window.show_start_page()
    qtbot.waitExposed(page)
    item = page.example_item("rod_impact_rigid")
    assert item.text(1) == "§6, Tables 1 and 2" and item.toolTip(0).startswith("LAJSS 2024")
    page.tree.scrollToItem(item)
    rect = page.tree.visualItemRect(item)
    qtbot.mouseClick(page.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert page.tree.currentItem() is item
    qtbot.mouseClick(page.buttons["Open Example"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not page.isVisible())
    assert window.document.model["name"] == "Rigid rod striking the ground with friction"


def test_flexmech_shows_the_start_page_at_the_first_launch_only_and_help_opens_it(qtbot, monkeypatch, settings):
    """Issue #27: "a start page shown on first launch": ``flexmech`` (the default example, no file
    named) shows it in front the first time, not the next; Help > Start Page opens it again."""
    from app.shell import cli, gui
    from app.shell.main_window import MainWindow

    windows = []
    monkeypatch.setattr(gui, "MainWindow", lambda: windows.append(MainWindow(settings)) or windows[-1])
    monkeypatch.setattr(gui.QApplication, "exec", lambda self=None: 0)
    assert first_launch(settings)
    assert cli.main([]) == 0
    qtbot.addWidget(windows[0])
    pages = [w for w in windows[0].findChildren(StartPage) if w.isVisible()]
    assert len(pages) == 1 and pages[0].windowTitle() == "Welcome to Flexmech"
    pages[0].reject()
    assert not first_launch(settings)
    assert cli.main([]) == 0                        # the second launch
    window = windows[1]
    qtbot.addWidget(window)
    assert not [w for w in window.findChildren(StartPage) if w.isVisible()]
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    assert window.start_page_action in help_menu.actions()
    window.start_page_action.trigger()
    qtbot.waitUntil(lambda: [w for w in window.findChildren(StartPage) if w.isVisible()] != [])
    page = next(w for w in window.findChildren(StartPage) if w.isVisible())
    qtbot.mouseClick(page.buttons["Getting Started"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not page.isVisible() and window.help.dock.isVisible())
