"""The canvas and the tree on a model with every kind of entity."""
from __future__ import annotations

import pytest

from app.document.entities import GROUPS, EntityRef, entity_refs
from app.canvas.items import Z_HALO


def test_every_entity_is_listed_and_can_be_selected(window, all_kinds_model):
    window.document.replace(all_kinds_model, None)
    for _title, collection in GROUPS:
        assert window.tree.group(collection).childCount() == len(all_kinds_model.get(collection, []))
    for _title, collection in GROUPS:
        for ref in entity_refs(all_kinds_model, collection):
            window.selection.replace((ref,))
            assert window.tree.item_for(ref).isSelected()
            assert window.properties.table.rowCount() > 1
            halos = [i for i in window.sketch.getPlotItem().items if i.zValue() == Z_HALO]
            assert halos, f"no highlight for {ref}"
    window.grab()  # paints every symbol once


def test_several_entities_highlight_together(window, all_kinds_model):
    window.document.replace(all_kinds_model, None)
    refs = (EntityRef("nodes", "A"), EntityRef("links", "beam"))
    window.selection.replace(refs)
    assert {window.tree.item_for(r).isSelected() for r in refs} == {True}
    assert window.properties.table.rowCount() == 0  # the panel shows one entity at a time
    assert len([i for i in window.sketch.getPlotItem().items if i.zValue() == Z_HALO]) == 2


@pytest.mark.parametrize("name", ["floor", "wall", "ring"])
def test_fixed_contact_targets_are_drawn_and_labelled(window, all_kinds_model, name):
    window.document.replace(all_kinds_model, None)
    labels = [i.text() for i in window.sketch.getPlotItem().items if hasattr(i, "text") and callable(i.text)]
    assert name in labels
