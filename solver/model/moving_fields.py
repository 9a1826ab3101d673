"""Fields of the supports, masses and forces that travel along a flexible link (the moving
load and moving mass problems, :mod:`solver.system.moving`), kept out of :mod:`.schema` as the
link and joint fields are."""
from __future__ import annotations

from dataclasses import replace

from .fields import Num, Obj, Str, Variant
from .time_fields import F, TIME_FUNCTION

#: the arc length s(t) along a link of a moving support, mass or force: a time function, or
#: the free travel of a moving mass (s a degree of freedom)
_POSITION = replace(
    TIME_FUNCTION,
    help="arc length s(t) of the point from the link's first node, along the sketched link (e.g. linear: "
         "s = rate t, a constant speed); any function the drivers use, or (a mass only) free: s is a degree "
         "of freedom",
    kinds={
        **TIME_FUNCTION.kinds,
        "free": Obj(
            {"s0": Num("arc length at the start", "m", default=0.0),
             "speed0": Num("initial speed ds/dt along the link", "m/s", default=0.0)},
            help="a moving mass only: it slides without friction along the deforming link from s0 at speed0, "
                 "driven by gravity, its force and the link's slope; it leaves the link at an end and flies on "
                 "as a free point mass",
        ),
    },
)

#: the constant force a moving mass or force carries
_CARRIED = {"fx": Num("constant force along x", "N", default=0.0), "fy": Num("constant force along y", "N", default=0.0)}

MOVING = Variant(
    help="a support, mass or force travelling along a flexible link: its point is the link's material point at "
         "arc length s(t), placed by the element's shape functions (Amirouche & Xie, eqs. 13-16 and 26)",
    common={"id": Str("unique id of this moving support, mass or force", is_id=True), "link": Str("flexible link travelled", ref="links"),
            "position": _POSITION},
    common_required=("id", "link", "position"),
    kinds={
        "support": Obj({}, units={F: "m"},
                       help="a roller support sliding under the link: the link's point at s(t) stays on the link's "
                            "sketched line (a time-variant boundary condition; s is held within the link)"),
        "mass": Obj({"mass": Num("mass", "kg", gt=0), **_CARRIED}, required=("mass",), units={F: "m"},
                    help="a point mass carried along the link at s(t) (the moving-mass problem), with a constant "
                         "force on it; before and after the link it runs on a rigid track along the link's sketched "
                         "line"),
        "force": Obj(dict(_CARRIED), units={F: "m"},
                     help="a constant force carried along the link at s(t) (the moving-load problem); none while "
                          "s(t) is off the link"),
    },
)
