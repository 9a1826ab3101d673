"""The model file: its fields (:mod:`.fields`, :mod:`.schema`, a link's in
:mod:`.link_fields`, a clearance joint's oil film and wear in :mod:`.joint_fields`, the time
function in :mod:`.time_fields`), validation with the path of every problem (:mod:`.validate`),
fields named by those paths (:mod:`.paths`), reading, writing and defaults (:mod:`.io`),
and the generated reference ``docs/model-format.md`` (:mod:`.docs`).

Imports nothing else of the solver: the GUI's property panel and the validator read
these descriptions without loading the numeric code.
"""
