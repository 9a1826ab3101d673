"""The rules of a run started from the static shape (``solver.initial_shape = "static"``,
:mod:`solver.system.initial`) that the model alone decides, so that ``validate`` refuses what
the run could not start: the static solution holds no moving rows, so no moving support, and
no moving mass on its link at t = 0 (its position ``s(0)`` within the sketched link,
0 <= s <= L).  Whether a mechanism has a static equilibrium at all is found only by solving,
and the run says so at its start."""
from __future__ import annotations

import math
from typing import Callable

from .fields import with_defaults
from .moving_fields import MOVING

Bad = Callable[[list, str], None]

FIELD = "solver.initial_shape = static"


def static_start_problems(doc: dict, bad: Bad) -> None:
    """Each moving support, and each moving mass on its link at t = 0, of a static start."""
    if doc.get("solver", {}).get("initial_shape") != "static":
        return
    from .timefn import TimeFunction  # numpy: not loaded before the command line sets its threads

    xy = {n["id"]: (n["x"], n["y"]) for n in doc.get("nodes", [])}
    length = {l["id"]: math.dist(*(xy[n] for n in l["nodes"])) for l in doc.get("links", [])
              if len(l["nodes"]) == 2 and all(n in xy for n in l["nodes"])}
    for i, item in enumerate(doc.get("moving", [])):
        item = with_defaults(MOVING, item)
        if item.get("kind") == "support":
            bad(["moving", i], f"a moving support cannot start from the static shape ({FIELD}: the static "
                               "solution holds no moving supports); start from the sketched shape")
        elif item.get("kind") == "mass" and item["link"] in length:
            s0 = TimeFunction(item["position"]).value(0.0)
            if 0.0 <= s0 <= length[item["link"]]:
                bad(["moving", i, "position"], f"the mass is on its link at t = 0 (s = {s0:g} m), which a static "
                                               f"start cannot hold ({FIELD}); start it before the link (s < 0), "
                                               "or start from the sketched shape")
