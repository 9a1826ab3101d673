"""The canvas' tool bar: one checkable action per tool (an exclusive group), with shortcuts.

Tool shortcuts are single keys that work while the canvas has the focus, so typing
in the property panel never switches tools; Esc on the canvas cancels what a tool
is doing and returns to Select.  Tools of one family (the moving support, mass and
force) share a button: its arrow opens a menu of them, and it shows the last one chosen.  The bar also turns grid snapping on and off and
adds a material (which has no place on the canvas).
"""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QToolBar, QToolButton, QWidget

from ...document.commands import AddEntity
from ...document.entities import EntityRef
from ...document.new_entities import new_material
from ..actions import with_key
from .base import Tool
from .constraints import ClearanceTool, DriverTool, GroundTool, PinTool, SliderTool, WeldTool
from .contacts import CircleTool, ContactTool, GroundLineTool, SegmentTool
from .controller import ToolController
from .forces import LoadTool, MassTool, VelocityTool
from .icons import tool_icon
from .moving import MovingForceTool, MovingMassTool, MovingSupportTool
from .select import DeleteTool, SelectTool
from .sketching import BodyTool, LinkTool, NodeTool

#: the tools in tool-bar order; the first (Select) is where Esc returns
TOOLS: list[type[Tool]] = [
    SelectTool, NodeTool, LinkTool, GroundTool, PinTool, WeldTool, ClearanceTool, SliderTool, MassTool, DriverTool,
    LoadTool, BodyTool, VelocityTool, MovingMassTool, MovingSupportTool, MovingForceTool, ContactTool, GroundLineTool,
    SegmentTool, CircleTool, DeleteTool,
]

#: icon size (px): 24 px icons made the bar too tall for a 1280 x 800 screen, Snap to grid and
#: Material went behind its overflow arrow
ICON_PX = 20


class ToolBar(QToolBar):
    """Checkable actions choosing the controller's tool; ``actions_by_name["link"]`` etc."""

    def __init__(self, controller: ToolController, parent: QWidget | None = None):
        super().__init__("Tools", parent)
        self.setObjectName("tool_bar")  # saveState/restoreState find it by name
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.setIconSize(QSize(ICON_PX, ICON_PX))
        self.controller = controller
        view = controller.context.view
        self.group = QActionGroup(self)
        self.group.setExclusive(True)
        self.actions_by_name: dict[str, QAction] = {}
        #: the shared button of each family of tools
        self.family_buttons: dict[str, QToolButton] = {}
        for name, tool in controller.tools.items():
            action = self._canvas_action(tool.text, tool.shortcut, tool.tip)
            action.setCheckable(True)
            action.setIcon(tool_icon(name))
            action.triggered.connect(lambda _checked=False, n=name: controller.set_tool(n))
            self.group.addAction(action)
            if tool.family:
                self._add_to_family(tool.family, action)
            else:
                self.addAction(action)
            self.actions_by_name[name] = action
        self.actions_by_name[next(iter(controller.tools))].setChecked(True)
        self.escape_action = self._canvas_action("Cancel", "Esc", "Cancel the tool's action and return to Select")
        self.escape_action.triggered.connect(lambda _checked=False: controller.escape())
        self.addSeparator()
        self.snap_action = QAction("Snap to grid", self)
        self.snap_action.setCheckable(True)
        self.snap_action.setChecked(controller.snap_to_grid)
        self.snap_action.setToolTip("New points snap to the grid (they always snap to nodes nearby)")
        self.snap_action.toggled.connect(lambda on: setattr(controller, "snap_to_grid", on))
        self.addAction(self.snap_action)
        # a verb: under Snap to grid, 'Material' read as the heading of something cut off below it
        self.material_action = QAction("Add material", self)
        self.material_action.setToolTip("Add a material (steel) to edit in the property panel")
        self.material_action.triggered.connect(lambda _checked=False: self.add_material())
        self.addAction(self.material_action)
        view.addActions(list(self.actions_by_name.values()) + [self.escape_action])
        controller.tool_changed.connect(lambda name: self.actions_by_name[name].setChecked(True))

    def _add_to_family(self, family: str, action: QAction) -> None:
        """Put ``action`` in the menu of its family's button (made with the family's first tool)."""
        button = self.family_buttons.get(family)
        if button is None:
            button = QToolButton(self)
            button.setObjectName(f"{family}_tools")
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            button.setMenu(QMenu(button))
            button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
            button.setDefaultAction(action)
            self.addWidget(button)
            self.family_buttons[family] = button
        button.menu().addAction(action)
        action.toggled.connect(lambda checked: checked and button.setDefaultAction(action))

    def _canvas_action(self, text: str, shortcut: str, tip: str) -> QAction:
        """A canvas action; its tooltip and status tip name its key: ``Draw a link ... (L)``."""
        action = QAction(text, self)
        action.setShortcut(QKeySequence(shortcut))
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.setToolTip(with_key(tip, action))
        action.setStatusTip(action.toolTip())
        return action

    def add_material(self) -> None:
        """Add a material as one undo command and select it."""
        context = self.controller.context
        if not context.model:
            return
        material = new_material(context.model)
        context.document.push(AddEntity(context.document, "materials", material))
        context.selection.replace((EntityRef("materials", material["id"]),))
