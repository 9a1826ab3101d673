"""A chain of strikes fed from outside is said (:mod:`solver.results.impulse_chains`): the
user-drawn struck slider-crank's block velocity moves by +-7 % with the step sequence and no
warning spoke of it; the free chains that converge under halving of the step stay quiet
(``docs/solver.md``, *Step-sequence sensitivity*)."""
from __future__ import annotations

import json

import pytest

from solver.api import load_model, simulate, write_results
from solver.model.io import examples_dir
from solver.results.impulse_chains import driven_chain_warning, impulse_chains

from .test_struck_links import struck_slider_crank


def struck_to_its_exit() -> dict:
    """:func:`~.test_struck_links.struck_slider_crank` to 32 ms: its chain of strikes at
    26.7-27.0 ms, the block gone."""
    model = struck_slider_crank()
    model["solver"]["end_time"] = 0.032  # s
    return model


def test_the_user_drawn_struck_slider_crank_says_its_block_hangs_on_the_step_sequence(tmp_path):
    """8 strikes of e = 1 in 0.29 ms while the crank's driver does 96.7 J of work hand 7.71 N s
    to the block; at half the step 7 strikes hand 7.45 N s (the block leaves at 31.21 and 29.63
    m/s).  The run says so, naming the pair and the times, with a spread (half the last strike,
    0.33 N s) that holds the half step's total; summary.json carries it.  It said nothing of it
    before (the module did not exist)."""
    results = simulate(struck_to_its_exit())
    warning = driven_chain_warning(results)
    assert warning and "contact 'contact1' struck 8 times in 0.294 ms (t = 0.0266664 to 0.0269603 s" in warning
    assert "its total impulse (7.71 N s)" in warning and "+-0.33 N s (+-4.3%, half its last strike)" in warning
    assert "halve the step" in warning
    write_results(results, tmp_path)
    assert warning in json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))["warnings"]
    chain = impulse_chains(results)[0]
    half = struck_to_its_exit()
    half["solver"]["step"] /= 2.0
    strikes = [e["I_n_N_s"] for e in simulate(half).events if e["kind"] == "impulse"]
    assert (len(chain.times), len(strikes)) == (8, 7)
    assert abs(sum(strikes) - chain.total) == pytest.approx(0.264, abs=0.002)  # N s
    assert abs(sum(strikes) - chain.total) < chain.spread


@pytest.mark.parametrize("name", ["bar_mass_impact", "rod_floor_flexible", "pendulum_flexible_modal5_energetic"])
def test_free_chains_that_converge_under_halving_are_not_warned_of(name):
    """The bar struck by a mass (5.1.1: 145 strikes at the step, 113 at half of it, the total
    impulse moved by 0.1 %), the rod on the floor (5.5: 225 and 229 strikes, 0.6 %), the flexible
    pendulum with 5 modes (13 and 12, 0.3 %): chains of e = 1 strikes a step or so apart, as the
    crank's, between bodies nothing does work on; quiet."""
    results = simulate(load_model(examples_dir() / f"{name}.json"))
    assert impulse_chains(results)  # chains there are
    assert driven_chain_warning(results) is None


def test_run_check_step_reruns_at_half_the_step_and_prints_what_moved(tmp_path, capsys):
    """``flexmech run --check-step`` on the struck slider-crank: after the run and its warnings, the
    run at half the step and each headline beside it: the block 31.21 against 29.63 m/s (5.06 %),
    the pair's total impulse 7.71 against 7.45 N s (3.42 %).  The option did not exist."""
    from app.shell.cli import main

    path = tmp_path / "struck.json"
    path.write_text(json.dumps(struck_to_its_exit()))
    assert main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet", "--check-step"]) == 0
    out = capsys.readouterr().out
    assert "check-step: the run again at half the step (2.0944e-05 s)" in out
    assert "check-step: body 'body1' final speed, m/s: 31.2088 at the step, 29.6294 at half of it (5.06%)" in out
    assert "check-step: contact 'contact1' total normal impulse, N s: 7.71175 at the step, 7.44817 at half" in out
