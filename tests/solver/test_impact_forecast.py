"""The cut forecast of impact steps (``solver.impact_forecast``) and the Newton factors of nearby
steps: the two bars of thesis §5.1.2, whose e = 1 contact of two node points closes again within
almost every impact step (docs/performance.md, *Cost of contact*)."""
import pytest

from solver.api import load_model, simulate
from solver.model.io import examples_dir
from solver.system.compile import compile_model


def two_bars(forecast: bool):
    doc = load_model(examples_dir() / "two_bars_impact.json")
    doc["solver"]["impact_forecast"] = forecast
    return simulate(doc)


@pytest.fixture(scope="module")
def runs():
    return two_bars(False), two_bars(True)


def test_the_forecast_is_on_where_it_was_validated():
    """On for the two bars and the rod on the floor; off by default (the bar-mass)."""
    assert load_model(examples_dir() / "two_bars_impact.json")["solver"]["impact_forecast"] is True
    assert load_model(examples_dir() / "rod_floor_flexible.json")["solver"]["impact_forecast"] is True
    assert compile_model(load_model(examples_dir() / "bar_mass_impact.json")).settings["impact_forecast"] is False


def test_forecast_impact_steps_take_one_attempt(runs):
    """Taken and then cut, more than one impact step in two is taken again; forecast, under 5 % of
    them, and the Newton matrix of a step within 1 % of the last is kept: under one factorisation
    in ten steps instead of more than one per step."""
    cut, forecast = (r.meta for r in runs)
    assert cut["rejected_steps"] > 0.5 * cut["impact_steps"]
    assert cut["factorizations"] > cut["steps"]
    assert forecast["rejected_steps"] < 0.05 * forecast["impact_steps"]
    assert forecast["factorizations"] < 0.1 * forecast["steps"]


def test_forecast_impulses_carry_the_same_momentum(runs):
    """The impulses land at other instants, fewer and larger, but transfer the striker's momentum
    2 M v0 = 800 N s alike (0.07 % apart, within 0.3 % of wave theory) and end the contact at
    1.2 ms (thesis) within 2 %."""
    totals, ends = [], []
    for res in runs:
        totals.append(sum(e["I_n_N_s"] for e in res.events if e["kind"] == "impulse"))
        ends.append([e["time_s"] for e in res.events if e["kind"] == "separation"][-1])
    assert totals[1] == pytest.approx(totals[0], rel=2e-3)
    assert totals[1] == pytest.approx(800.0, rel=3e-3)
    assert ends[1] == pytest.approx(1.2e-3, rel=0.02)
