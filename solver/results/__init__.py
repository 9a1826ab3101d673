"""Results of a run: frames and their layout in memory (:mod:`.frames`; a run's frames kept as
columns: :mod:`.frame_columns`), built from
a solver state (:mod:`.outputs`; modal links' share: :mod:`.modal_outputs`; the frames of a run
of steps at once: :mod:`.frame_block`), the named
series they offer (:mod:`.series`), the results folder — its tables (:mod:`.table_names`) and
their CSV text (:mod:`.tables`), the same tables in Parquet (:mod:`.columnar`) and the small ones together
in ``tables.zip`` (:mod:`.bundle`), the scalar summary (:mod:`.summary`), writing, loading
and export (:mod:`.files`), a folder written while the run goes (:mod:`.streaming`, its row
groups on a writer thread: :mod:`.writer_thread`) and its
frames read on demand (:mod:`.lazy`), the checks a folder passes before it is loaded
(:mod:`.integrity`) — and the reference curves runs are compared with (:mod:`.references`).

May import :mod:`solver.system` and below.
"""
