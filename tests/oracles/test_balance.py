"""Balance: no law creates energy it should not (issue 26 item 2, VALIDATION.md *Oracles*).

The energy balance ``T + U + V + V_c - W_loads - W_drivers - W_free + D`` (every impulse,
friction, damping and compliant-contact term booked, :data:`~solver.results.frames.ENERGY_BALANCE_SIGNS`)
is constant for an exact solution.  On every generated model (:mod:`.generated`) and every
shipped example (its first :data:`~.runs.EXAMPLE_STEPS` steps):

- the balance rises by at most :data:`RISE` of the energy in play (the largest kinetic and
  strain energy) -- a fall is numerical damping (``tau > 0.5``, a Lagrange pair's onset), never
  energy created -- or, beyond it, the rise is the step's: a quarter of the step brings it
  under half of :data:`RISE` (the trapezoidal rule's error, which the run's energy warning
  reports: :data:`RISE` is :data:`~solver.results.validity.DRIFT_WARNING`);
- friction, viscous damping and a compliant law's hysteresis only ever take energy: their
  dissipated terms never fall by more than :data:`TERM_FALL` of the energy in play (a frictional
  Lagrange pair too: its slip ends are located within the step, issue 26);
- so does restitution under the laws that cannot create energy: the energetic law, and any
  law without friction (thesis ch. 3; with friction Newton's law can, the paradox of the
  rigid rod, ``validation.md``).

Measured on the 200 generated models: the largest rise is given in ``docs/validation.md``
(*Oracles*).
"""
from __future__ import annotations

import copy

import numpy as np
from hypothesis import assume, given, settings

from solver.model.validate import validate
from solver.results.validity import DRIFT_WARNING, energy_warning

from .generated import user_models
from .found_defects import OPEN_DEFECTS
from .runs import ORACLE, balance_rise, describe, energy_in_play, example_run, example_window, run, term_history

#: the largest rise of the balance, of the energy in play, that is integration error (the
#: trapezoidal rule's, and a momentum-balance impulse landing within the contact tolerance): where
#: the run's energy warning starts, so that a rise beyond it is never silent
RISE = DRIFT_WARNING
#: the largest fall of a dissipated term, of the energy in play (see the module)
TERM_FALL = 1e-4
#: generated models the balance is checked on
MODELS = 200
#: generated models that found a defect still open (issue 26, ``found_defects.json``): drawn again in their place
OPEN_MODELS = [defect["model"] for defect in OPEN_DEFECTS]


def _creates_no_energy_by_law(pair: dict) -> bool:
    """Whether restitution of ``pair`` can only dissipate (see the module)."""
    kind = (pair.get("model") or {}).get("kind", "impulse")
    frictionless = not (pair.get("mu_s", 0.0) or pair.get("mu_d", 0.0))
    return kind != "impulse" or frictionless or pair.get("law", "energetic") == "energetic"


def check_balance(results, doc: dict) -> None:
    """The checks of the module on one completed run."""
    assert results.meta["status"] == "completed", f"{results.meta.get('message')}: {describe(doc)}"
    scale = energy_in_play(results)
    rise = balance_rise(results)
    if rise > RISE:
        finer = copy.deepcopy(doc)
        finer["solver"]["step"] = doc["solver"].get("step", 1e-3) / 4
        refined = balance_rise(run(finer))
        assert refined <= RISE / 2, (f"the balance rose by {rise:.3g} of the energy in play ({scale:.3g} J), "
                                     f"{refined:.3g} at a quarter of the step: {describe(doc)}")
    terms = ["dissipated_damping", "dissipated_friction", "dissipated_contact"]
    if all(_creates_no_energy_by_law(p) for p in doc.get("contacts", [])):
        terms.append("dissipated_restitution")
    for key in terms:
        history = term_history(results, key)
        fall = float(np.max(np.maximum.accumulate(history) - history, initial=0.0))
        assert fall <= TERM_FALL * scale, f"{key} fell by {fall:.3g} J: {describe(doc)}"


@settings(ORACLE, max_examples=MODELS)
@given(doc=user_models())
def test_no_law_creates_energy_on_generated_models(doc):
    assert validate(doc) == [], describe(doc)  # a generated model is one a user could save
    assume(doc not in OPEN_MODELS)  # each kept in open_defects.json, a strict expected failure there
    check_balance(run(doc), doc)


def test_no_law_creates_energy_on_examples(example):
    """... and none of them warns of energy created (their balances rise by at most 3.3e-4)."""
    results = example_run(example)
    check_balance(results, example_window(example))
    assert energy_warning(results) is None
