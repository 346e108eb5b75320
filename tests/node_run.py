"""A TypeScript module of the web client run in Node for a test: bundled with the esbuild that
Vite brings (web/node_modules), then driven by short scripts (tests/test_table_logic.py,
tests/test_versus_logic.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
ESBUILD = ROOT / "web" / "node_modules" / ".bin" / "esbuild"

#: ``js(body, **data)``: runs ``body`` (a function body that returns a value) with the module
#: as ``L`` and ``data`` as ``D``; its result, through JSON
Runner = Callable[..., Any]


def node_runner(source: Path, folder: Path) -> Runner:
    """``source`` bundled into ``folder``, and a runner of scripts over it."""
    node = shutil.which("node")
    if node is None or not ESBUILD.exists():
        pytest.fail("node and web/node_modules are needed: run `make web`")
    out = folder / f"{source.stem}.mjs"
    bundle = [str(ESBUILD), str(source), "--bundle", "--format=esm", f"--outfile={out}"]
    subprocess.run([*bundle, "--log-level=warning"], check=True)

    def js(body: str, **data: Any) -> Any:
        script = (
            f"import * as L from {json.dumps(out.as_uri())};\n"
            f"const D = {json.dumps(data)};\n"
            f"const result = (() => {{ {body} }})();\n"
            "console.log(JSON.stringify(result));\n"
        )
        done = subprocess.run(
            [node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True
        )
        return json.loads(done.stdout)

    return js
