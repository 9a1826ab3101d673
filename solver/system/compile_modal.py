"""Modal links (:mod:`.modal_links`): their floating frame and modal coordinates, the nodes
tied to them, and the frames' final dofs once the welds are merged (:mod:`.registry`)."""
from __future__ import annotations

from .builder import Compilation
from .modal_links import build_modal_link, number_modal_link
from .registry import Phase, compiler
from .sections import section_properties


@compiler(Phase.FRAMES)
def modal_links(c: Compilation) -> None:
    materials = c.materials
    c.modal = [build_modal_link(l, section_properties(l["section"], materials), c.b.xy, c.doc)
               for l in c.doc["links"] if l["kind"] == "modal"]
    for lk in c.modal:
        number_modal_link(c.b, lk, c.doc)


@compiler(Phase.WELDS, 1)
def modal_frames(c: Compilation) -> None:
    for lk, (_name, frame) in zip(c.modal, c.b.modal_frames):
        lk.frame = frame
