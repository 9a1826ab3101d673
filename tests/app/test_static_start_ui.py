"""A run started from the static shape, chosen in the solver settings of the property panel
(``solver.initial_shape``): a cantilever bent by a tip torque EI kappa starts bent, its tip turned
by kappa L = 0.5 rad, at rest."""
from __future__ import annotations

import json

import numpy as np
import pytest

from app.document.entities import SOLVER_SETTINGS
from tests.app.canvas_user import CanvasUser
from tests.app.test_contact_models import choose
from tests.solver.test_static_start import KAPPA, L, cantilever

from .test_simulation_ui import run_with_f5


def test_the_static_shape_is_chosen_in_the_solver_panel_and_the_run_starts_bent(qtbot, window, tmp_path):
    doc = cantilever()
    del doc["solver"]["initial_shape"]  # sketched, the default
    path = tmp_path / "bent.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert window.open_path(path)
    user = CanvasUser(qtbot, window)
    user.click_tree(SOLVER_SETTINGS)
    choose(qtbot, window.properties, "initial_shape", "static")
    qtbot.waitUntil(lambda: window.document.model["solver"].get("initial_shape") == "static")

    run_with_f5(qtbot, window)
    results = window.results_ui.results
    first = results.frames[0]
    assert first.rot[results.layout.rotations.index(("B", "beam"))] == pytest.approx(KAPPA * L, abs=1e-12)
    assert max(np.abs(f.node_a).max() for f in results.frames) < 1e-5
