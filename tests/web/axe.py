"""axe-core in the browser tests: the rules engine from the web client's npm devDependencies
(web/node_modules/axe-core/axe.min.js) is injected into the page and run there; a test asserts
that no serious or critical violation is left."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page
from webharness import ROOT

AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
SEVERE = ("serious", "critical")


def axe_violations(page: Page, impacts: tuple[str, ...] = SEVERE) -> list[dict[str, Any]]:
    """The violations axe finds on the page as it is now, of these impacts (WCAG A and AA and
    best practices), each with its rule id, impact, help text and the offending elements."""
    if not AXE.is_file():
        raise AssertionError("axe-core is not installed: run `make web` (npm ci in web/)")
    if not page.evaluate("typeof window.axe === 'object'"):
        # evaluated through the DevTools protocol: the page's Content-Security-Policy
        # (script-src 'self') refuses an injected <script> tag
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;void 0")
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
          // colours are read as painted: a dialog fading in is measured once it has arrived
          // (a repeating animation, e.g. the last seconds' pulse, is left running)
          await Promise.all(document.getAnimations()
            .filter(a => a.effect?.getTiming().iterations !== Infinity)
            .map(a => a.finished.catch(() => null)));
          const r = await axe.run(document, { resultTypes: ['violations'] });
          return r.violations.map(v => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => n.target.join(' ') + ' :: ' + n.failureSummary).slice(0, 6),
          }));
        }"""
    )
    return [v for v in found if v["impact"] in impacts]


def assert_accessible(page: Page, screen: str) -> None:
    """No serious or critical axe violation on ``screen`` (its name appears in the failure)."""
    found = axe_violations(page)
    lines = [
        f"{v['impact']} {v['id']}: {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in found
    ]
    assert not found, f"axe on the {screen} screen:\n" + "\n".join(lines)
