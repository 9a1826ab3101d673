"""The shell: the main window that owns the document and puts the areas together
(:mod:`.main_window`, with its simulation, results and sweeps parts :mod:`.simulation_ui`,
:mod:`.results_ui` and :mod:`.sweeps_ui`, which know it only through :mod:`.window_parts`),
the GUI entry point and Qt check (:mod:`.gui`, :mod:`.qt_check`), autosave recovery and
recent files, the ``flexmech`` command (:mod:`.cli`, with ``sweep`` and ``map`` in
:mod:`.cli_sweep`), and what belongs to the whole window: the exception hook and its log
(:mod:`.exception_hook`, :mod:`.error_log`), the dock layout (:mod:`.layout`) and the Help
menu (:mod:`.help`).

May import every area of the app.
"""
