"""The journal orbit of a revolute clearance joint: the journal centre relative to the
bearing centre over a run, with the clearance circle it moves in.

The eccentricity vector ``e = r_J - r_B`` is read from the positions of the journal's node
``<joint>.journal`` and of the joint's node (the bearing's centre, :mod:`solver.system.clearance`);
with the radial clearance ``c = R_B - R_J`` the pair is in contact where the penetration
``delta = |e| - c`` (Flores et al. 2006, seed 001, eq. 18) is positive, so the orbit stays
within the circle of radius ``c`` plus the run's largest penetration.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ..model.io import model_with_defaults
from ..results.frames import Results, frame_times
from ..system.clearance import clearance_joints, journal_node
from .run_series import chosen, run_series, write_table_csv


@dataclass(frozen=True)
class JournalOrbit:
    """The path of the journal centre inside its bearing: ``ex``, ``ey`` (m) at ``time`` (s),
    with the pair's normal contact force ``force`` (N) and penetration (m) at each frame."""

    joint: str
    time: np.ndarray
    ex: np.ndarray
    ey: np.ndarray
    force: np.ndarray
    penetration: np.ndarray
    clearance: float  # radial clearance c = R_B - R_J, m

    @property
    def eccentricity(self) -> np.ndarray:
        """``|e|`` at each frame, m."""
        return np.hypot(self.ex, self.ey)

    @property
    def largest_penetration(self) -> float:
        """The run's largest penetration ``max(|e| - c, 0)``, m."""
        return float(np.max(self.penetration, initial=0.0))


def clearance_joint_ids(model: dict) -> list[str]:
    """The ids of the model's revolute clearance joints."""
    return [j["id"] for j in model.get("joints", []) if isinstance(j, dict) and j.get("kind") == "clearance"]


def journal_orbit(results: Results, joint: str | None = None) -> JournalOrbit:
    """The orbit of clearance joint ``joint`` (default: the model's first) over ``results``."""
    joints = {j["id"]: j for j in clearance_joints(model_with_defaults(results.model))}
    name, j = chosen(joints, joint, "--joint", "clearance joint",
                     "the run's model has no clearance joint (joints[].kind: clearance): no journal orbit")
    nodes = results.layout.nodes
    journal, bearing = nodes.index(journal_node(j)), nodes.index(j["node"])
    xy = results.stack("node_xy")
    e = xy[:, journal, :] - xy[:, bearing, :]
    _t, force, _s = run_series(results, f"contact/{name}/F_n")
    penetration = np.maximum(np.hypot(e[:, 0], e[:, 1]) - (j["bearing_radius"] - j["journal_radius"]), 0.0)
    return JournalOrbit(name, frame_times(results.frames), e[:, 0].astype(float), e[:, 1].astype(float),
                        force, penetration, float(j["bearing_radius"] - j["journal_radius"]))


def write_orbit_csv(orbit: JournalOrbit, path: str | os.PathLike) -> None:
    """One row per frame: time, ``ex``, ``ey``, ``|e|``, penetration and normal force."""
    write_table_csv(path, ["time_s", "ex_m", "ey_m", "eccentricity_m", "penetration_m", "F_n_N"],
                    [orbit.time, orbit.ex, orbit.ey, orbit.eccentricity, orbit.penetration, orbit.force])
