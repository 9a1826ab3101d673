"""A compliant pair under Coulomb's friction law cannot stick (Flores et al. 2006 eq. 13): a run
that fails where such a pair would stick says so, and names the laws that can, instead of
advising a smaller step that fails the same (:mod:`solver.contact.coulomb_hint`); one failing where a
pair under a continuous law slips near rest names it, with the advice that helps there."""
from __future__ import annotations

import copy
import json

from solver.api import simulate
from solver.model.io import examples_dir


def rolling_disc(friction_law: str, max_step_cuts: int = 8) -> dict:
    """A disc (1 kg, r = 10 mm) thrown at 0.3 m/s along a Hertz floor (c_f = 0.5), pushed back by
    gravity's 2 m/s^2 along it: it comes to roll at about 21 ms, and then its contact sticks."""
    contact = {"id": "disc-floor", "point": {"body": "disc"}, "target": {"kind": "ground_line", "y": 0.0},
               "mu_s": 0.5, "mu_d": 0.5, "e": 0.5,
               "model": {"kind": "compliant", "law": "hertz", "stiffness": 1e7, "exponent": 1.5,
                         "friction_law": friction_law}}
    return {"format": "flexmech", "version": 1, "nodes": [], "gravity": {"x": 2.0, "y": -9.81},
            "bodies": [{"id": "disc", "kind": "rigid", "x": 0.0, "y": 0.01, "mass": 1.0, "radius": 0.01}],
            "initial_velocities": [{"body": "disc", "vx": -0.3}], "contacts": [contact],
            "solver": {"end_time": 0.05, "step": 1e-3, "max_step_cuts": max_step_cuts}}


def test_a_run_failing_where_a_coulomb_pair_sticks_names_the_law_and_not_a_smaller_step():
    """With two step cuts Newton fails at 20.8 ms, the disc rolling (slip 46 um/s); with the
    default eight the run stalls at 22.5 ms instead (2000 steps of 0.33 us, 7 s: not run here).
    Before, both said 'try a smaller step', and half the step fails the same."""
    results = simulate(rolling_disc("coulomb", max_step_cuts=2))
    message = results.meta["message"]
    assert results.meta["status"] == "failed"
    assert 0.020 < results.time[-1] < 0.022, message
    assert "contact 'disc-floor'" in message and "coulomb friction law" in message, message
    assert "rooney_deravi" in message and "smaller step" not in message, message


def test_the_same_disc_under_a_law_with_a_stick_band_rolls_to_the_end():
    results = simulate(rolling_disc("rooney_deravi"))
    assert results.meta["status"] == "completed", results.meta["message"]
    assert "coulomb" not in results.meta["message"]


#: a generated model (the balance oracle at another seed, session 17): a disc (0.5 kg, r = 10 mm) thrown at a
#: rigid link turning at 10 rad/s, a Hertz pair (K = 1e7 N/m^1.5) under Ambrosio's friction law (c_f = 0.5),
#: and the chain's tip against a ground segment (Hooke, K = 1e5 N/m, c_f = 0.5)
PRESSED_DISC = {'format': 'flexmech',
                'version': 1,
                'nodes': [{'id': 'n0', 'x': 0.0, 'y': 0.0}, {'id': 'n1', 'x': 0.285229, 'y': 0.092977},
                          {'id': 'n2', 'x': 0.335811, 'y': 0.286475}, {'id': 'n3', 'x': 0.312054, 'y': 0.685769}],
                'links': [{'id': 'link0', 'nodes': ['n0', 'n1'], 'kind': 'rigid', 'mass': 1.0},
                          {'id': 'link1',
                           'nodes': ['n1', 'n2'],
                           'kind': 'flexible',
                           'section': {'kind': 'per_length', 'EA': 200000.0, 'EI': 200.0, 'rhoA': 2.0, 'c': 0.01},
                           'mesh': {'elements': 3}},
                          {'id': 'link2', 'nodes': ['n2', 'n3'], 'kind': 'rigid', 'mass': 1.0}],
                'joints': [{'id': 'pivot', 'kind': 'ground', 'node': 'n0'}],
                'bodies': [{'id': 'body',
                            'kind': 'rigid',
                            'x': 0.099350763,
                            'y': 0.017879505,
                            'mass': 0.5,
                            'inertia': 2.5e-05,
                            'radius': 0.01}],
                'contacts': [{'id': 'body-link',
                              'point': {'body': 'body'},
                              'target': {'kind': 'link', 'link': 'link0', 'side': 'right'},
                              'mu_s': 0.5,
                              'mu_d': 0.5,
                              'model': {'kind': 'compliant', 'law': 'hertz', 'stiffness': 10000000.0, 'exponent': 1.5},
                              'e': 0.8},
                             {'id': 'tip-ground',
                              'point': {'node': 'n3'},
                              'target': {'kind': 'ground_segment',
                                         'x1': 0.11205399999999999,
                                         'y1': 0.6835611234192269,
                                         'x2': 0.512054,
                                         'y2': 0.6835611234192269},
                              'mu_s': 0.5,
                              'mu_d': 0.5,
                              'model': {'kind': 'compliant', 'law': 'hooke', 'stiffness': 100000.0, 'exponent': 1.0},
                              'e': 0.8}],
                'initial_velocities': [{'body': 'body', 'vx': 0.004575, 'vy': 1.419226, 'omega': 0.0},
                                       {'link': 'link0', 'omega': -9.999983}],
                'gravity': {'y': -9.81},
                'solver': {'end_time': 0.02, 'step': 0.0005}}


def test_a_run_failing_where_a_pair_slips_near_rest_under_ambrosio_names_it_and_halving_passes():
    """The disc is pressed 2.4 mm into the link (1190 N) and slips at the law's v0 = 1e-4 m/s, where the force
    turns by c_f F_n over 0.9 mm/s: Newton fails at 3.29 ms after 8 cuts.  The message names the pair, its law,
    slip and normal force, and advises halving the step (before: 'try a smaller step' naming no pair); at a
    quarter of the step the run completes."""
    results = simulate(copy.deepcopy(PRESSED_DISC))
    message = results.meta["message"]
    assert results.meta["status"] == "failed" and 0.0032 < results.time[-1] < 0.0034, message
    assert "compliant contact 'body-link' (ambrosio friction" in message and "halve solver.step" in message, message
    assert "tip-ground" not in message, message
    finer = copy.deepcopy(PRESSED_DISC)
    finer["solver"]["step"] /= 4
    assert simulate(finer).meta["status"] == "completed"


def test_a_clearance_joint_stalled_near_rest_is_told_to_widen_the_band_which_passes_where_halving_does_not():
    """The flexible slider-crank (a 4-element rod) run up to 5000 rpm in 5 ms, its clearance joint's journal 0.1 mm smaller than the
    bearing (Dubowsky-Freudenstein, c_f = 0.2 under Threlfall's law, v_r = 1e-4 m/s): at 4 kN and a slip of
    0.1 mm/s the law is a tangential damper of c_f F_n / v_r = 8e6 N s/m, and the run stalls at 5.40 ms (5.34 and
    5.61 ms at half and a quarter of the step: no step passes).  The message names the pair with its damper and
    advises the wider band first; with v_r ten times larger the run completes at its step."""
    doc = json.loads((examples_dir() / "slider_crank_clearance_flexible.json").read_text(encoding="utf-8"))
    joint = next(j for j in doc["joints"] if j["kind"] == "clearance")
    joint.update(law="dubowsky_freudenstein", journal_radius=joint["bearing_radius"] - 1e-4, friction=0.2,
                 friction_law="threlfall")
    doc["drivers"][0]["function"] = {"kind": "ramp", "t0": 0.0, "t1": 0.005, "v0": 0.0, "v1": 523.5987755982989}
    doc["solver"].update(end_time=0.008, step=1e-5)
    results = simulate(copy.deepcopy(doc))
    message = results.meta["message"]
    assert results.meta["status"] == "failed" and 0.0053 < results.time[-1] < 0.0055, message
    assert ("compliant contact 'B-clearance' (threlfall friction" in message and "a tangential damper of 8e+06 N s/m"
            in message and "widen the law's band (friction_velocity times 10" in message), message
    joint["friction_velocity"] = 1e-3
    assert simulate(doc).meta["status"] == "completed"
