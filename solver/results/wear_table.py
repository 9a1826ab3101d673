"""``wear.csv`` of a results folder: the worn depth around the bearing of each clearance joint
with ``wear`` (Archard's law, :mod:`solver.contact.wear`), from the run's metadata
(``summary.json``: ``meta.compliant_contacts.<joint>.wear``).  Columns: ``joint``,
``angle_deg`` (the middle of each arc, in the bearing's frame), ``depth_m``."""
from __future__ import annotations

import csv
import io


#: the file's name in a results folder
WEAR_FILE = "wear.csv"
WEAR_COLUMNS = ("joint", "angle_deg", "depth_m")


def wear_csv(meta: dict) -> bytes | None:
    """The CSV bytes of the wear table of a run's ``meta`` (None: no joint books wear)."""
    worn = {joint: data["wear"] for joint, data in (meta.get("compliant_contacts") or {}).items() if "wear" in data}
    if not worn:
        return None
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(WEAR_COLUMNS)
    for joint, table in worn.items():
        writer.writerows((joint, repr(a), repr(d)) for a, d in zip(table["angle_deg"], table["depth_m"]))
    return out.getvalue().encode("utf-8")
