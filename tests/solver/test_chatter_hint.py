"""A run that stalls where a momentum-balance pair chatters says so and names the model that holds the contact
(:mod:`solver.contact.chatter_hint`), instead of advising a smaller step, which stalls the same."""
from __future__ import annotations

import copy

from solver.api import simulate

#: a model the wider balance hunt drew (session 17): a body (0.2 kg) beside a three-link rigid chain turning at
#: 15 rad/s about its pin, both pairs momentum-balance pairs at e = 0: the chain pushes the body along
PUSHED_BODY = {'format': 'flexmech',
               'version': 1,
               'nodes': [{'id': 'n0', 'x': 0.0, 'y': 0.0}, {'id': 'n1', 'x': 0.171096, 'y': -0.103567},
                         {'id': 'n2', 'x': 0.42774, 'y': -0.258918}, {'id': 'n3', 'x': 0.684385, 'y': -0.414266}],
               'links': [{'id': 'link0', 'nodes': ['n0', 'n1'], 'kind': 'rigid', 'mass': 1.0},
                         {'id': 'link1', 'nodes': ['n1', 'n2'], 'kind': 'rigid', 'mass': 0.5},
                         {'id': 'link2', 'nodes': ['n2', 'n3'], 'kind': 'rigid', 'mass': 0.5}],
               'joints': [{'id': 'pivot', 'kind': 'ground', 'node': 'n0'}],
               'bodies': [{'id': 'body',
                           'kind': 'rigid',
                           'x': 0.04045426,
                           'y': -0.049035188,
                           'mass': 0.2,
                           'inertia': 4e-05,
                           'radius': 0.02}],
               'contacts': [{'id': 'tip-ground',
                             'point': {'node': 'n3'},
                             'target': {'kind': 'ground_segment',
                                        'x1': 0.484385,
                                        'y1': -0.415266,
                                        'x2': 0.884385,
                                        'y2': -0.415266},
                             'mu_s': 0.0,
                             'mu_d': 0.0,
                             'model': {'kind': 'impulse'},
                             'e': 0.0,
                             'law': 'newton'},
                            {'id': 'body-link',
                             'point': {'body': 'body'},
                             'target': {'kind': 'link', 'link': 'link0', 'side': 'right'},
                             'mu_s': 0.0,
                             'mu_d': 0.0,
                             'model': {'kind': 'impulse'},
                             'e': 0.0,
                             'law': 'newton'}],
               'initial_velocities': [{'link': 'link0', 'omega': -15.000007},
                                      {'body': 'body', 'vx': 0.258918, 'vy': 0.42774, 'omega': 5.0}],
               'solver': {'end_time': 0.04, 'step': 0.0005}}


def test_a_run_stalled_by_a_chattering_momentum_balance_pair_names_it_and_the_lagrange_model():
    """The body pushed by the link is struck 2007 times and the run stalls at 3.77 ms (at half and a tenth of
    the step: 3.58 and 12.6 ms).  The message names the pair and its strikes and advises the Lagrange model,
    not a smaller step (before: 'try a smaller step, ... or the contact tolerance', naming no pair); with the
    pair a Lagrange pair the run completes."""
    results = simulate(copy.deepcopy(PUSHED_BODY))
    message = results.meta["message"]
    assert results.meta["status"] == "failed" and "would not end in a reasonable time" in message, message
    assert "momentum-balance contact 'body-link' (struck 2007 times" in message, message
    assert "lagrange model" in message and "smaller step" not in message and "tip-ground" not in message, message
    held = copy.deepcopy(PUSHED_BODY)
    held["contacts"][1]["model"] = {"kind": "lagrange"}
    assert simulate(held).meta["status"] == "completed"
