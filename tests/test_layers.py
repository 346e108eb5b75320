"""The package's layers: data flows one way, and an inner layer never imports an outer one.

geometry -> editions -> pieces -> board -> solver -> puzzles -> rules -> server -> cli
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "ubongo"

# rank of each top-level module or subpackage of ubongo; a module may import equal or lower ranks
LAYERS: dict[str, int] = {
    "geometry": 0,
    "editions": 1,  # every edition's record: read by every layer above, imports geometry only
    "pieces": 2,
    "board": 3,
    "bitboard": 4,  # the solver's representation: cells as bits, where pieces fit
    "solver": 4,
    "_exact": 4,  # the solver's compiled core (C: imports nothing of ubongo)
    "puzzlefile": 5,  # the engine's file format: pieces, areas
    "catalogue": 5,  # what a client needs to draw an edition: pieces and their turns
    "puzzles": 5,
    "rules": 6,
    "arena": 6,  # an arena's scoring, standings and pairing: pure, beside the rules
    "server": 7,
    "cli": 8,
}


def _layer_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0].removesuffix(".py")


def _imports(path: Path) -> list[tuple[int, list[str]]]:
    """Every module ``path`` imports, as its dotted name split, with the import's line:
    relative imports resolved, lazy and annotation-only ones included."""
    package = path.parent.relative_to(PACKAGE.parent).parts
    found: list[tuple[int, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = list(package[: len(package) - node.level + 1])
            if node.module:
                names = [".".join([*base, node.module])]
            else:
                names = [".".join([*base, alias.name]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found.extend((node.lineno, name.split(".")) for name in names)
    return found


def _ubongo_imports(path: Path) -> list[tuple[int, str]]:
    """The top-level parts of ``ubongo`` that ``path`` imports."""
    return [
        (line, parts[1])
        for line, parts in _imports(path)
        if parts[0] == "ubongo" and len(parts) > 1
    ]


MODULES = sorted(p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py" or p.parent != PACKAGE)


def test_every_module_has_a_layer() -> None:
    unknown = {_layer_of(p) for p in MODULES} - LAYERS.keys()
    assert not unknown, f"add these to LAYERS: {sorted(unknown)}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_import_of_an_outer_layer(path: Path) -> None:
    layer = _layer_of(path)
    outward = [
        f"line {line}: ubongo.{target}"
        for line, target in _ubongo_imports(path)
        if target in LAYERS and LAYERS[target] > LAYERS[layer]
    ]
    assert not outward, f"{layer} (layer {LAYERS[layer]}) imports outer layers: {outward}"


# The server's sub-packages (and its two top modules), innermost first: each may import its
# own and lower ranks (src/ubongo/server/__init__.py says what each holds).
SERVER_LAYERS: dict[str, int] = {
    "protocol": 0,
    "config": 0,
    "ops": 1,
    "store": 2,
    "online": 3,
    "rooms": 4,
    "cluster": 5,
    "routes": 6,
    "app": 7,
    "webclient": 8,
}
SERVER = PACKAGE / "server"
SERVER_MODULES = sorted(p for p in SERVER.rglob("*.py") if p != SERVER / "__init__.py")


def _server_part(path: Path) -> str:
    return path.relative_to(SERVER).parts[0].removesuffix(".py")


def _server_imports(path: Path) -> list[tuple[int, str]]:
    """The server parts ``path`` imports."""
    return [
        (line, parts[2])
        for line, parts in _imports(path)
        if parts[:2] == ["ubongo", "server"] and len(parts) > 2
    ]


def test_every_server_module_has_a_part() -> None:
    unknown = {_server_part(p) for p in SERVER_MODULES} - SERVER_LAYERS.keys()
    assert not unknown, f"add these to SERVER_LAYERS: {sorted(unknown)}"


@pytest.mark.parametrize("path", SERVER_MODULES, ids=lambda p: str(p.relative_to(SERVER)))
def test_no_server_part_imports_an_outer_one(path: Path) -> None:
    part = _server_part(path)
    outward = [
        f"line {line}: server.{target}"
        for line, target in _server_imports(path)
        if target in SERVER_LAYERS and SERVER_LAYERS[target] > SERVER_LAYERS[part]
    ]
    assert not outward, f"server.{part} imports outer parts: {outward}"
