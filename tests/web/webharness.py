"""The browser tests' harness: a real ``ubongo serve`` and where screenshots go.

No browser is downloaded: Playwright launches /usr/bin/chromium (installed by the project's
set-up from scripts/system-packages.txt). The web client must be built (``make web``, which
``make test`` runs first). Screenshots of every screen go to test-artifacts/web/.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "web" / "dist" / "index.html"
ARTIFACTS = ROOT / "test-artifacts" / "web"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``ubongo serve`` on a free port with its own SQLite file."""

    def __init__(self, workdir: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = workdir / "server.log"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from ubongo.cli import main; sys.exit(main())",
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                f"sqlite:///{workdir / 'ubongo.db'}",
                "--log-level",
                "warning",
            ],
            stdout=self.log.open("wb"),
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"ubongo serve exited: {self.log.read_text()[-2000:]}")
            try:
                self.get("/api/health")
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("ubongo serve did not answer in 30 s") from None
                time.sleep(0.1)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=5) as r:
            return json.load(r)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
