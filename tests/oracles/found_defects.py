"""Generated models (and the trust hunt's hand-drawn ones) that found a defect (issue 26), in
``found_defects.json`` with what happened and, once fixed, how: ``test_found_defects.py`` keeps
each fixed one as a regression test and checks that each still open still fails (a strict
expected failure: a fix shows, and its model is marked fixed); the balance oracle draws others
in place of the open ones."""
from __future__ import annotations

import json
from pathlib import Path

#: ``{"reason", "open", "fix", "model"}`` of each defect found
FOUND_DEFECTS: list[dict] = json.loads(Path(__file__).with_name("found_defects.json").read_text(encoding="utf-8"))
#: the defects still open
OPEN_DEFECTS: list[dict] = [defect for defect in FOUND_DEFECTS if defect["open"]]
#: the fixed defects' models, in the file's order
FIXED_MODELS: list[dict] = [defect["model"] for defect in FOUND_DEFECTS if not defect["open"]]
