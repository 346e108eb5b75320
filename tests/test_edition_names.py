"""Editions are data: outside the edition records and their loader, no code names an edition.

Python: string constants in ``src/ubongo`` other than docstrings (doctests in them may use an
edition as an example).  TypeScript: string literals in ``web/src``, comments aside.  The
allowed places are ``src/ubongo/data/editions/`` (the records) and ``src/ubongo/editions/``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "ubongo"
WEB = ROOT / "web" / "src"
LOADER = PACKAGE / "editions"
#: the shipped editions: one record file each
NAMES = frozenset(p.stem for p in (PACKAGE / "data" / "editions").glob("*.json"))


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the constant nodes that are docstrings."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def python_names(source: str) -> list[tuple[int, str]]:
    """(line, name) of every string constant in ``source`` that is an edition's name."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in NAMES
        and id(node) not in skip
    ]


_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_LITERAL = re.compile(r"""(["'`])((?:\\.|(?!\1).)*)\1""")


def typescript_names(source: str) -> list[tuple[int, str]]:
    """(line, name) of every TypeScript string literal in ``source`` that is an edition's name.

    Comments are blanked first (keeping line breaks), then quoted literals are read left to
    right, so a quote inside another literal does not start one."""
    text = _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), source)
    return [
        (text.count("\n", 0, m.start()) + 1, m.group(2))
        for m in _LITERAL.finditer(text)
        if m.group(2) in NAMES
    ]


PY_FILES = sorted(p for p in PACKAGE.rglob("*.py") if LOADER not in p.parents)
TS_FILES = sorted(WEB.rglob("*.ts"))


def test_the_shipped_editions_are_known() -> None:
    assert {"classic", "3d", "extreme", "trigo"} <= NAMES
    assert PY_FILES and TS_FILES


@pytest.mark.parametrize("path", PY_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_python_code_names_an_edition(path: Path) -> None:
    found = python_names(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)} names editions (read the record): {found}"


@pytest.mark.parametrize("path", TS_FILES, ids=lambda p: str(p.relative_to(WEB)))
def test_no_typescript_code_names_an_edition(path: Path) -> None:
    found = typescript_names(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)} names editions (read the records): {found}"


def test_the_checks_find_a_planted_name() -> None:
    source = '"""Docstring: edition("classic") is fine here."""\nif ed == "trigo":\n    pass\n'
    assert python_names(source) == [(2, "trigo")]
    ts = '// "3d" in a comment is fine\nconst a = "it\'s";\nif (e === \'extreme\') {}\nx(`3d`);\n'
    assert typescript_names(ts) == [(3, "extreme"), (4, "3d")]
    assert typescript_names('const s = "a 3d board";') == []
