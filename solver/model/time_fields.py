"""The time function of the model file (part of :mod:`.schema`): f(t) of loads, drivers and
the free strains of flexible links, evaluated by :mod:`solver.model.timefn`."""
from __future__ import annotations

from .fields import Arr, Num, Obj, Variant

#: the unit of f(t), which depends on where the function is used: rad for an angle
#: driver, rad/s for a speed driver, m for a displacement driver, a pure number for a load or a free strain
F = "[f]"

TIME_FUNCTION = Variant(
    help="a function of time f(t); loads and the free strains of flexible links multiply their values by it (f is "
         "a pure number), drivers use it "
         "as angle (f in rad), speed (rad/s) or displacement (m); the unit [f] of its values follows",
    default_kind="constant",
    kinds={
        "constant": Obj({"value": Num("f(t) = value", F, default=1.0)}),
        "ramp": Obj(
            {
                "t0": Num("start of the ramp", "s", default=0.0, ge=0),
                "t1": Num("end of the ramp; f is held at v1 afterwards", "s", gt=0),
                "v0": Num("value up to t0", F, default=0.0),
                "v1": Num("value from t1 on", F, default=1.0),
            },
            required=("t1",),
        ),
        "linear": Obj({"rate": Num("f(t) = rate * t", F + "/s")}, required=("rate",)),
        "window": Obj(
            {
                "t_on": Num("f switches on at t_on", "s", default=0.0, ge=0),
                "t_off": Num("f switches off at t_off", "s", gt=0),
                "value": Num("value while on", F, default=1.0),
            },
            required=("t_off",),
        ),
        "table": Obj(
            {
                "t": Arr(Num("time", "s"), "times, increasing", min_items=2),
                "v": Arr(Num("value", F), "values at those times (linear in between, held outside)", min_items=2),
            },
            required=("t", "v"),
        ),
        "sine": Obj(
            {
                "amplitude": Num("amplitude", F, default=1.0),
                "frequency": Num("frequency", "Hz", gt=0),
                "phase": Num("phase", "rad", default=0.0),
            },
            required=("frequency",),
        ),
    },
)

