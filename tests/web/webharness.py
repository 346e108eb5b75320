"""The browser tests' harness: the browser, and where screenshots go (the server is
``server_harness.ServerProcess``, as for the server tests).

No browser is downloaded: Playwright launches /usr/bin/chromium (installed by the project's
set-up from scripts/system-packages.txt). The web client must be built (``make web``, which
``make test`` runs first). Screenshots of every screen go to test-artifacts/web/.
"""

from __future__ import annotations

import shutil
from pathlib import Path

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


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
