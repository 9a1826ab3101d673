"""The tables of a results folder by name, and the columns of each (no numpy: the command
line offers them before anything numerical is loaded -- ``flexmech run`` limits OpenBLAS to
one thread before numpy loads it).  Their CSV text and values: :mod:`.tables`.
"""
from __future__ import annotations

#: what is said of a table written with its header alone (the run has nothing in it: the contacts of a
#: model without pairs, the modes of one without modal links)
HEADER_ONLY = "its header only: the run has nothing in this table"

#: frame tables: name -> (label columns, ((Frame field, its value columns), ...)); rows
#: are frame-major, then in layout order (elements.csv: element-major, then station)
FRAME_TABLES = {
    "nodes": (
        ("node",),
        (
            ("node_xy", ("x_m", "y_m")),
            ("node_v", ("vx_m_s", "vy_m_s")),
            ("node_a", ("ax_m_s2", "ay_m_s2")),
        ),
    ),
    "rotations": (
        ("node", "link"),
        (("rot", ("theta_rad",)), ("rot_v", ("omega_rad_s",)), ("rot_a", ("alpha_rad_s2",))),
    ),
    "elements": (
        ("link", "element", "station", "s_m"),
        (
            ("axial_force", ("axial_force_N",)),
            ("axial_strain", ("axial_strain",)),
            ("bending_strain", ("bending_strain",)),
            ("bending_moment", ("bending_moment_N_m",)),
        ),
    ),
    "links": (("link",), (("midspan", ("midspan_deflection_rel",)),)),
    "drivers": (
        ("driver",),
        (("driver_angle", ("value",)), ("driver_speed", ("rate",)), ("driver_reaction", ("reaction",))),
    ),
    "modes": (
        ("link", "mode"),
        (
            ("modal_q", ("q_m",)),
            ("modal_qd", ("qdot_m_s",)),
            ("modal_qdd", ("qddot_m_s2",)),
            ("modal_strain_energy", ("strain_energy_J",)),
            ("modal_kinetic_energy", ("kinetic_energy_J",)),
        ),
    ),
    "moving": (
        ("moving",),
        (("moving_s", ("s_m",)), ("moving_speed", ("speed_m_s",)), ("moving_force", ("F_n_N", "F_t_N"))),
    ),
}
STEP_COLUMNS = ("time_s", "step_s", "newton_iterations")

#: every table of a results folder, by name: the frame tables, then the others (``events``: a
#: table of folders of versions 1 to 3, and of ``flexmech export --csv``; written in version 4
#: as ``summary.json``'s ``events`` only)
TABLES = (*FRAME_TABLES, "energy", "contacts", "steps", "events")
