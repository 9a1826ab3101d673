"""The compiler's registry (issue 30 point 6): a kind of entity is a module of its own under
solver/system/, found and ordered by its phase; the functions of the system's core stay short."""
from __future__ import annotations

import ast
from pathlib import Path

from solver.system import compile as compile_module
from solver.system.registry import Phase, compile_steps

SYSTEM = Path(compile_module.__file__).parent


def test_every_entity_module_registers_steps_in_phase_order():
    steps = compile_steps()
    modules = {step.__module__.rsplit(".", 1)[-1] for step in steps}
    assert {p.stem for p in SYSTEM.glob("compile_*.py")} <= modules
    names = [step.__name__ for step in steps]
    # the numbering phases: the sketch's nodes first, the mesh, bodies, welds; then the arrays
    assert names.index("sketch_nodes") < names.index("flexible_links") < names.index("rigid_links")
    assert names.index("rigid_links") < names.index("bodies") < names.index("welds") < names.index("element_arrays")
    assert names.index("journal_nodes") == 0 and Phase.DOCUMENT < Phase.POINTS


def test_no_function_of_the_system_or_the_time_loop_is_longer_than_100_lines():
    """Issue 30: compile_model was 177 lines, the time loop's _run 182 (now a class of steps)."""
    long = []
    for path in sorted([*SYSTEM.glob("*.py"), *(SYSTEM.parent / "integration").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno >= 100:
                long.append(f"{path.name}:{node.name} ({node.end_lineno - node.lineno + 1} lines)")
    assert not long
