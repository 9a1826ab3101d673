"""Fields of the revolute clearance joint's options (issue 30): its oil film
(:mod:`solver.contact.lubricated`) and the wear of its bearing (:mod:`solver.contact.wear`),
kept out of :mod:`.schema` as the link fields are."""
from __future__ import annotations

from .fields import Arr, Num, Obj

#: the oil film of a lubricated clearance joint (``solver.contact.lubricated``)
LUBRICANT = Obj(
    {
        "viscosity": Num("dynamic viscosity mu of the oil (SAE 30 at 60 C: about 0.04)", "Pa s", gt=0),
        "length": Num("axial length L of the film (default: the joint's length)", "m", gt=0),
        "film_limit": Num("eccentricity ratio e/c from which the film fades into the dry law, reaching 0 "
                          "as the surfaces touch", default=0.95, gt=0, lt=1),
    },
    help="an oil film in the clearance: short journal bearing forces (Ocvirk, Pinkus and Sternlicht; "
         "Flores, Ambrosio and Claro 2004), the joint's compliant law once the surfaces touch",
    required=("viscosity",),
)

#: Archard wear of a clearance joint's bearing (``solver.contact.wear``)
BEARING_WEAR = Obj(
    {
        "coefficient": Num("Archard's wear coefficient k: worn volume k F s / H", gt=0),
        "hardness": Num("hardness H of the bearing's surface", "Pa", gt=0),
        "bins": Num("arcs the bearing's circumference is cut into for the worn depth", default=360, ge=4,
                    le=100000, integer=True),
        "worn_depth": Arr(Num("depth worn from an arc", "m", ge=0),
                          "the bearing's profile as an earlier run wore it (its wear.csv depth_m, one per arc, "
                          "from 0 deg in the bearing's frame): the gap sees the bore's radius plus the depth at "
                          "the contact's angle (linear between the arcs' middles)", min_items=4),
    },
    help="wear of the bearing by Archard's law, k F_n ds / H, its depth recorded against the angle "
         "around the bearing (results: summary.json compliant_contacts.<joint>.wear, wear.csv)",
    required=("coefficient", "hardness"),
)
