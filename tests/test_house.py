"""The house's limits, over every module of ``ubongo`` (``src/ubongo``, migrations included).

* A module has at most :data:`MODULE_LINES` lines (as ``wc -l`` counts them): past that it
  holds more than one thing; split it by what its parts hold.
* A function or method has at most :data:`FUNCTION_LINES` lines, counted from its ``def`` line
  to its last line: the signature, docstring, comments and any nested function included,
  decorators not. Past that it does several things; split it into named steps. Only the
  solver's measured hot loops (:data:`HOT_LOOPS`) may be longer.
* No import cycle among ubongo's modules, counting every import: at the top of a module,
  inside a function, and under ``if TYPE_CHECKING:`` (two modules that need each other's
  names, if only for annotations, cannot be read or changed one without the other).
  ``tests/test_server_structure.py`` checks the server's run-time imports; this covers all.
"""

from __future__ import annotations

import ast
import itertools
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "ubongo"
MODULES = sorted(PACKAGE.rglob("*.py"))

MODULE_LINES = 650
FUNCTION_LINES = 60

#: the functions allowed over FUNCTION_LINES, by qualified name, each with why: the solver's
#: inner loops, kept in one function over local variables because a call per state or per
#: placement costs more than the work done there (docs/performance.md, "Solver")
HOT_LOOPS: dict[str, str] = {
    "ubongo.solver.ExactCover._count": "the depth-first count: its remembered search is "
    "inlined as the nested ways(), one call per state",
    "ubongo.solver.ExactCover._place_one_more": "one step of counting forward, run for "
    "millions of states (6x10 pentominoes: 2.3 million, 0.4 us per placement tried)",
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _shown(path: Path) -> str:
    return str(path.relative_to(SRC.parent))


# --- module length ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", MODULES, ids=_shown)
def test_a_module_has_at_most_650_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MODULE_LINES, (
        f"{_shown(path)} has {lines} lines, {lines - MODULE_LINES} over {MODULE_LINES}:"
        " split it into modules by what its parts hold"
    )


# --- function length -------------------------------------------------------------------------


@dataclass(frozen=True)
class Function:
    """A function or method: its qualified name, where it starts, and its length in lines."""

    name: str
    line: int
    lines: int


def _functions(path: Path) -> list[Function]:
    """Every function in ``path``, nested ones and methods included, named as Python would
    import them (``ubongo.solver.ExactCover._count``; a nested one after its parent's name)."""
    found: list[Function] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}.{child.name}"
                end = child.end_lineno or child.lineno
                found.append(Function(name, child.lineno, end - child.lineno + 1))
                visit(child, name)
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}.{child.name}")
            else:  # an if, try or with at the top of a module or a class
                visit(child, prefix)

    visit(ast.parse(path.read_text(encoding="utf-8")), _module_name(path))
    return found


@pytest.mark.parametrize("path", MODULES, ids=_shown)
def test_a_function_has_at_most_60_lines(path: Path) -> None:
    too_long = [
        f"{f.name} (line {f.line}): {f.lines} lines, {f.lines - FUNCTION_LINES} over"
        for f in _functions(path)
        if f.lines > FUNCTION_LINES and f.name not in HOT_LOOPS
    ]
    assert not too_long, (
        f"{_shown(path)}: functions over {FUNCTION_LINES} lines (split each into named steps):\n"
        + "\n".join(too_long)
    )


def test_the_hot_loops_allowed_are_still_long() -> None:
    """An entry of HOT_LOOPS whose function is gone or now short enough is removed, so that
    the allow-list never grows stale (and never hides a new function of the same name)."""
    lengths = {f.name: f.lines for path in MODULES for f in _functions(path)}
    stale = [
        f"{name}: {'no such function' if name not in lengths else f'{lengths[name]} lines'}"
        for name in HOT_LOOPS
        if lengths.get(name, 0) <= FUNCTION_LINES
    ]
    assert not stale, "remove from HOT_LOOPS: " + "; ".join(stale)


# --- import cycles ---------------------------------------------------------------------------

#: module -> {module it imports: the line of the first such import}
Graph = dict[str, dict[str, int]]


def _imported(source: str, name: str, package: str, known: set[str]) -> dict[str, int]:
    """The modules of ``known`` that the module ``name`` (in ``package``) imports, wherever the
    import is (``TYPE_CHECKING`` blocks and functions included), with the line of the first
    import of each.

    Importing ``a.b.c`` also runs the packages ``a`` and ``a.b``; those are not counted, as a
    package whose ``__init__`` gathers its modules' names (``ubongo.rules``) would otherwise
    be in a cycle with each of them."""
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for target in _targets(node, package, known):
                if target in known and target != name:
                    found.setdefault(target, node.lineno)
    return found


def _targets(node: ast.Import | ast.ImportFrom, package: str, known: set[str]) -> list[str]:
    """The modules one import statement in ``package`` names: ``from p import x`` imports the
    module ``p.x`` when there is one, else ``p``; relative imports are made absolute."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    source = node.module or ""
    if node.level:  # relative: from the package, one level up per dot after the first
        parts = package.split(".")
        base = ".".join(parts[: len(parts) - node.level + 1])
        source = f"{base}.{node.module}" if node.module else base
    return [
        f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source
        for alias in node.names
    ]


def _import_graph() -> Graph:
    known = {_module_name(p) for p in MODULES}
    graph: Graph = {}
    for path in MODULES:
        name = _module_name(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name] = _imported(path.read_text(encoding="utf-8"), name, package, known)
    return graph


def _reachable(graph: Graph, start: str) -> set[str]:
    """The modules ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph[module])
    return seen


def _shortest_cycle(graph: Graph, start: str, within: set[str]) -> list[str]:
    """The shortest chain of imports from ``start`` back to it, among the modules ``within``."""
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        module = queue.popleft()
        for target in sorted(graph[module]):
            if target == start:
                chain = [module]
                while chain[-1] != start:
                    chain.append(came_from[chain[-1]])
                return [*reversed(chain), start]
            if target in within and target not in came_from:
                came_from[target] = module
                queue.append(target)
    raise AssertionError(f"{start} is in no cycle")


def _told(graph: Graph, cycle: list[str]) -> str:
    """Each module of ``cycle`` with the line where it imports the next."""
    steps = [f"{a} (line {graph[a][b]})" for a, b in itertools.pairwise(cycle)]
    return " -> ".join([*steps, cycle[-1]])


def test_every_kind_of_import_counts() -> None:
    source = """
from typing import TYPE_CHECKING
import ubongo.geometry
from ubongo import editions, pieces as shapes
from ubongo.board import check_cover
from . import engine
from .state import Game
from .. import solver
from ..puzzles import deck
from .errors import RuleError
from . import settings
if TYPE_CHECKING:
    from .policies import Deal
def later() -> None:
    from ubongo.catalogue import edition_catalogue
"""
    known = {_module_name(p) for p in MODULES}
    found = _imported(source, "ubongo.rules.bots", "ubongo.rules", known)
    assert found == {
        "ubongo.geometry": 3,
        "ubongo.editions": 4,
        "ubongo.pieces": 4,
        "ubongo.board": 5,
        "ubongo.rules.engine": 6,
        "ubongo.rules.state": 7,
        "ubongo.solver": 8,
        "ubongo.puzzles.deck": 9,
        "ubongo.rules.errors": 10,
        "ubongo.rules.settings": 11,
        "ubongo.rules.policies": 13,
        "ubongo.catalogue": 15,
    }
    # a package's __init__ reads its own modules one level down
    assert _imported("from . import engine", "ubongo.rules", "ubongo.rules", known) == {
        "ubongo.rules.engine": 1
    }
    assert "ubongo.server.app" in _import_graph()["ubongo.server"], "from .app import create_app"


def test_no_import_cycle_even_by_annotation() -> None:
    graph = _import_graph()
    reach = {module: _reachable(graph, module) for module in graph}
    circles = {
        frozenset({module} | {other for other in reach[module] if module in reach[other]})
        for module in graph
        if module in reach[module]
    }
    told = []
    for circle in sorted(circles, key=sorted):
        cycle = _shortest_cycle(graph, min(circle), set(circle))
        told.append(f"{', '.join(sorted(circle))}\n    e.g. {_told(graph, cycle)}")
    assert not told, "modules that import each other (move what they share, or invert one):\n" + (
        "\n".join(told)
    )
