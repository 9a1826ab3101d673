"""Issue 29, point 6: ``summary.json`` holds the only copy of the event log, so it is covered
by the integrity check too (version 5: ``summary_sha256``, the SHA-256 of its own text):
a changed event or layout is refused, never loaded as another run's content."""
from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from solver.errors import ResultsFormatError
from solver.results.files import load_results, write_results
from solver.results.tables import SELF_HASH, VERSION
from tests.solver.test_results_io import assert_results_equal, make_results

V4 = Path(__file__).parent.parent / "data" / "results_v4"  # make_results() by the version-4 writer (76c5362)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("hashed") / "run"
    write_results(make_results(), path)
    return path


def test_the_summary_records_the_hash_of_its_own_text(folder):
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert summary["version"] == VERSION == 5 and list(summary)[-1] == SELF_HASH
    assert_results_equal(load_results(folder), make_results())


@pytest.mark.parametrize("change", [
    lambda s: s.replace('"I_n_N_s": 0.0123', '"I_n_N_s": 0.0124', 1),  # an impulse changed
    lambda s: s.replace('"nodes": ["root", "rod#1"', '"nodes": ["rod#1", "root"', 1),  # positions to the wrong nodes
])
def test_a_changed_event_or_layout_is_refused(tmp_path, folder, change):
    shutil.copytree(folder, tmp_path / "run")
    text = (tmp_path / "run" / "summary.json").read_text(encoding="utf-8")
    assert change(text) != text
    (tmp_path / "run" / "summary.json").write_text(change(text), encoding="utf-8")
    with pytest.raises(ResultsFormatError, match=f"summary.json: not the text its {SELF_HASH} records"):
        load_results(tmp_path / "run")


def test_300_single_bit_flips_are_refused_or_change_nothing(tmp_path, folder):
    """Before the hash, 132 of 300 flips loaded with changed content (events, layout)."""
    shutil.copytree(folder, tmp_path / "run")
    original = (folder / "summary.json").read_bytes()
    rng = random.Random(29)
    expected, changed, refused = make_results(), [], 0
    for _ in range(300):
        bit = rng.randrange(len(original) * 8)
        flipped = bytearray(original)
        flipped[bit // 8] ^= 1 << (bit % 8)
        (tmp_path / "run" / "summary.json").write_bytes(bytes(flipped))
        try:
            loaded = load_results(tmp_path / "run")
        except ResultsFormatError:
            refused += 1
            continue
        try:
            assert_results_equal(loaded, expected)
        except AssertionError:
            changed.append(bit)
    assert changed == [] and refused == 300


@pytest.mark.parametrize("lazy", [True, False])
def test_a_version_4_folder_without_the_hash_still_reads(lazy):
    assert json.loads((V4 / "summary.json").read_text(encoding="utf-8"))["version"] == 4
    assert_results_equal(load_results(V4, lazy=lazy), make_results())
