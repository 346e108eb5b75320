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
    "puzzlefile": 5,  # the engine's file format: pieces, areas
    "catalogue": 5,  # what a client needs to draw an edition: pieces and their turns
    "puzzles": 5,
    "rules": 6,
    "server": 7,
    "cli": 8,
}


def _layer_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0].removesuffix(".py")


def _ubongo_imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "ubongo" and len(parts) > 1:
                found.append((node.lineno, parts[1]))
    return found


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
