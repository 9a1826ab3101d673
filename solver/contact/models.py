"""The contact models of a run behind one interface for the time loop.

Each pair is resolved by the model its file names: impulses (:mod:`.tracker`, thesis
ch. 3) or compliant force laws (:mod:`.compliant`, Flores et al. 2006).  The time loop
talks to :class:`ContactModels` only, in this order within a step:

1. :meth:`~ContactModels.step_size` -- the largest step the models allow now;
2. :meth:`~ContactModels.begin_step` before every attempt at a step, and the Newton
   iteration reads the compliant forces through :attr:`~ContactModels.forces`;
3. :meth:`~ContactModels.retry_time` after an attempt: a time to end the step at
   instead (a contact start stepped over, too large an error), or None to accept it;
4. :meth:`~ContactModels.after_step` on the accepted state: impulses, contact starts,
   separations, the energy ledger; it returns the state to go on from;
5. :meth:`~ContactModels.frame_data` and :meth:`~ContactModels.elastic_energy` at output
   times, :meth:`~ContactModels.summary` at the end.

Events of every model go to one list, :attr:`~ContactModels.events`.
"""
from __future__ import annotations

import numpy as np

from ..results.outputs import OutputBuilder
from ..system.assembly import Assembly
from ..system.initial import restart
from ..system.state import State
from .compliant import CompliantContacts
from .tracker import ContactTracker


class ContactModels:
    """The contact pairs of a run, each with its resolution model."""

    def __init__(self, asm: Assembly, settings: dict):
        self.pairs = asm.sys.contacts
        self.events: list[dict] = []
        kinds = [p.model_kind for p in self.pairs]
        self._index = {kind: np.array([i for i, k in enumerate(kinds) if k == kind], dtype=int)
                       for kind in ("impulse", "compliant")}
        impulse = [self.pairs[i] for i in self._index["impulse"]]
        compliant = [self.pairs[i] for i in self._index["compliant"]]
        self.impulse = ContactTracker(asm, settings, impulse, self.events) if impulse else None
        #: the compliant pairs, whose forces the Newton iteration evaluates (None: there are none)
        self.forces = CompliantContacts(asm, settings, compliant, self.events) if compliant else None
        if self.forces is not None:
            asm.contact_forces = self.forces.generalized_forces
        self.asm = asm

    @property
    def active(self) -> bool:
        return bool(self.pairs)

    @property
    def impulsive(self) -> bool:
        """Whether velocities may jump (impulses): the loop then watches for spurious roots."""
        return self.impulse is not None

    @property
    def in_contact(self) -> bool:
        """Whether any pair is closed."""
        return any(m is not None and bool(m.closed.any()) for m in (self.impulse, self.forces))

    def step_size(self, h: float) -> float:
        for model in (self.impulse, self.forces):
            if model is not None:
                h = model.step_size(h)
        return h

    def begin_step(self, s: State, h: float) -> None:
        if self.forces is not None:
            self.forces.begin_step(s, h)

    def retry_time(self, old: State, new: State) -> float | None:
        times = []
        if self.impulse is not None:
            times.append(self.impulse.passed_contact(old, new))
        if self.forces is not None:
            times.append(self.forces.retry_time(old, new))
        times = [t for t in times if t is not None]
        return min(times) if times else None

    def after_step(self, out: OutputBuilder, old: State | None, new: State) -> State:
        """Book the accepted state ``new`` (``old`` is None at the start of the run) and return
        the state to go on from: after impulses, accelerations and multipliers are restarted."""
        if self.forces is not None and old is not None:
            self.forces.accept(old, new, out.ledger)
        if self.impulse is None:
            return new
        after, impacts = self.impulse.resolve(new)
        if impacts:
            after = restart(self.asm, after)
            out.book_impulses(impacts, after)
        self.impulse.separations(after)
        return after

    def elastic_energy(self, s: State) -> float:
        """Energy stored in compliant contacts (J)."""
        return self.forces.elastic_energy(s) if self.forces is not None else 0.0

    def frame_data(self, s: State) -> dict[str, np.ndarray]:
        """Per pair of the run (in the system's order) what each model reports; a key one model
        lacks is 0 for its pairs (nan for lengths and velocities)."""
        count = len(self.pairs)
        out: dict[str, np.ndarray] = {}
        for kind, model in (("impulse", self.impulse), ("compliant", self.forces)):
            if model is None:
                continue
            for key, values in model.frame_data(s).items():
                if key not in out:
                    fill = 0 if key == "state" or key.endswith("_N") or key.endswith("_N_s") else np.nan
                    out[key] = np.full(count, fill, dtype=values.dtype)
                out[key][self._index[kind]] = values
        return out

    def summary(self) -> dict[str, dict]:
        """Per compliant pair: impacts, peaks and the validity counts of its laws."""
        return self.forces.summary() if self.forces is not None else {}
