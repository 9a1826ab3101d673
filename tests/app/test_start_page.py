"""Issue #27: the examples grouped by source and kind, each with its description and what it
reproduces, in the Examples menu's submenus and on the start page shown at first launch."""
from __future__ import annotations

import doctest

import pytest
from PySide6.QtCore import Qt

from app.shell import example_groups, help, layout, simulation_ui, start_page
from app.shell.example_groups import GROUPS, grouped
from app.shell.start_page import SHOW_KEY, StartPage, shows_at_start
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


def test_the_start_page_opens_an_example_and_remembers_not_to_show(qtbot, window, settings):
    assert shows_at_start(settings)
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
    again = window.show_start_page()
    qtbot.mouseClick(again.show_box, Qt.MouseButton.LeftButton, pos=again.show_box.rect().center())
    assert settings.value(SHOW_KEY, type=bool) is False and not shows_at_start(settings)
    again.reject()


def test_flexmech_without_a_file_opens_with_the_start_page(qtbot, monkeypatch, settings):
    """``flexmech`` (the default example, no file named) shows the start page in front, once."""
    from app.shell import cli, gui
    from app.shell.main_window import MainWindow

    windows = []
    monkeypatch.setattr(gui, "MainWindow", lambda: windows.append(MainWindow(settings)) or windows[-1])
    monkeypatch.setattr(gui.QApplication, "exec", lambda self=None: 0)
    assert cli.main([]) == 0
    window = windows[0]
    qtbot.addWidget(window)
    pages = [w for w in window.findChildren(StartPage) if w.isVisible()]
    assert len(pages) == 1 and pages[0].windowTitle() == "Welcome to Flexmech"
    pages[0].show_box.setChecked(False)
    pages[0].reject()
    assert cli.main([]) == 0
    qtbot.addWidget(windows[1])
    assert not [w for w in windows[1].findChildren(StartPage) if w.isVisible()]
