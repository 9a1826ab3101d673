"""Oracles that need no reference numbers (issue 26, ``../shared/guide/VALIDATION.md``).

A published case passing says the code is right where someone looked; these checks ask
questions whose answers are known without one.

- *Invariance*: a model moved, rotated or mirrored as a whole (every coordinate, angle,
  vector and sense of rotation with it) has the same energies, impulses, strains and contact
  forces, and positions that transform with it (:mod:`.transform` builds the moved models,
  :mod:`.equivalence` compares their results; ``test_invariance_examples`` runs it on every
  shipped example).  What is left over after such a move is either sensitivity -- the control
  is the same move perturbed by a 1e-9 rad turn -- or the axes leaking into the code, a defect.
- *Generated models* (:mod:`.generated`): user-like linkages with contacts, checked against
  themselves -- the contact models against each other (``test_models_agree``), the step halved
  and the mesh doubled (``test_refinement``), every impulse, friction and damping term booked
  in the energy balance (``test_balance``), and the step-sensitivity warnings (``test_trust``).
"""
