"""``docs/model-format.md`` is generated from the schema and must be up to date."""
from __future__ import annotations

from solver.model import docs
from solver.model.fields import Num, iter_fields
from solver.model.schema import MODEL
from solver.model.validate import validate


def test_committed_model_format_doc_is_up_to_date():
    committed = docs.DOC_PATH.read_text(encoding="utf-8")
    assert committed == docs.render(), "run: python -m solver.model.docs"


def test_doc_names_every_field_with_its_help():
    text = docs.render()
    for path, spec, _kind in iter_fields(MODEL):
        name = path.rsplit(".", 1)[-1].removesuffix("[]")
        if name:
            assert f"`{name}`" in text or f".{name}`" in text, path
        if getattr(spec, "help", "") and not path.endswith("[]"):
            assert spec.help.replace("|", "\\|") in text or spec.help[:1].upper() + spec.help[1:] in text, path


def test_doc_gives_units_of_numbers():
    text = docs.render()
    assert "| `E` | number | Pa | > 0 | *required* | Young's modulus |" in text
    assert "| `step` | number | s | > 0 | `0.001` | time step |" in text
    units = {spec.unit for _p, spec, _k in iter_fields(MODEL) if isinstance(spec, Num)}
    assert {"m", "kg", "s", "N", "rad"} <= units


def test_doc_example_is_a_valid_model():
    assert validate(docs.EXAMPLE) == []


def test_check_mode_reports_an_outdated_page(tmp_path, monkeypatch, capsys):
    assert docs.main(["--check"]) == 0
    stale = tmp_path / "model-format.md"
    stale.write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(docs, "DOC_PATH", stale)
    assert docs.main(["--check"]) == 1
    assert "out of date" in capsys.readouterr().err
