"""Building the system a model compiles to, once per run: degrees of freedom and
their numbering, beams, masses, loads and time functions (:mod:`.compile`, one compiler module
per kind of entity, ``compile_<kind>``, walked by phase through :mod:`.registry` on the shared
:mod:`.builder`;
:mod:`solver.model.timefn`), section properties along tapered links (:mod:`.sections`), the links' thermal
and creep strains at a time (:mod:`.free_strains`), modal links' modes, dofs and ties to their nodes
(:mod:`.modal_links`), joint and driver constraints (:mod:`.constraints`), the kinematics
of contact pairs — gap, contact frame and Jacobian (:mod:`.contact_pairs`) — and the time scales
of their impacts (:mod:`.impact_times`), the
assembled residual, mass and Newton matrices (:mod:`.assembly`) with the banded
solver (:mod:`.banded`), the band Cholesky of the constrained mass matrix for the impulses of
large models (:mod:`.mass_cholesky`) and the contact rows that border them (:mod:`.bordered`), the state vector (:mod:`.state`),
the time integrator's parameters (:mod:`.integrator`) and the consistent
initial state (:mod:`.initial`, with the links' rigid velocity fields of :mod:`.rigid_fields` and the
static equilibrium of :mod:`.equilibrium`).

May import :mod:`solver.fem`, :mod:`solver.model` and :mod:`solver.errors`.
"""
