"""Generated models that found a defect still open (issue 26), in ``open_defects.json`` with what
happens: the balance oracle draws others in their place, and ``test_found_defects.py`` checks
that each still fails (a strict expected failure: a fix shows, and its model leaves the file)."""
from __future__ import annotations

import json
from pathlib import Path

#: ``{"reason", "model"}`` of each open defect
OPEN_DEFECTS: list[dict] = json.loads(Path(__file__).with_name("open_defects.json").read_text(encoding="utf-8"))
