"""axe-core in the browser tests: the vendored `vendor/axe.min.js` (axe-core from npm, MPL-2.0,
unmodified, with its licence beside it) is injected from disk, so nothing is fetched while a
test runs. A page passes when it has one level-one heading, no serious or critical
violation, and headings that never skip a level (axe's moderate "heading-order")."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
BLOCKING = ("serious", "critical")
BLOCKING_RULES = ("heading-order",)  # moderate, but a page read by headings needs it

_RUN = """async () => {
  const out = await axe.run(document, { resultTypes: ['violations'] });
  return out.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 8), count: v.nodes.length,
  }));
}"""


def audit(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (each with its impact and nodes)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(_RUN)
    return found


def counts(violations: list[dict[str, Any]]) -> dict[str, int]:
    """Violating nodes per impact (minor, moderate, serious, critical) and of heading-order."""
    tally: Counter[str] = Counter()
    for v in violations:
        tally[str(v["impact"])] += int(v["count"])
        if v["id"] in BLOCKING_RULES:
            tally[str(v["id"])] += int(v["count"])
    names = ("minor", "moderate", "serious", "critical", *BLOCKING_RULES)
    return {name: tally.get(name, 0) for name in names}


def level_one_headings(page: Page) -> list[str]:
    """The visible text of every <h1> on the page (hidden ones included: axe counts them)."""
    found: list[str] = page.eval_on_selector_all("h1", "els => els.map(e => e.textContent.trim())")
    return found


def assert_accessible(page: Page, where: str) -> dict[str, int]:
    """One level-one heading, no serious or critical violation, no heading skipping a level;
    returns axe's counts."""
    heads = level_one_headings(page)
    assert len(heads) == 1, f"{where}: level-one headings {heads}"
    violations = audit(page)
    blocking = [v for v in violations if v["impact"] in BLOCKING or v["id"] in BLOCKING_RULES]
    assert not blocking, f"{where}: {blocking}"
    for v in violations:  # what remains, by rule, for whoever reads the run (`pytest -s`)
        print(f"axe {where}: {v['impact']} {v['id']} ×{v['count']}: {', '.join(v['nodes'])}")
    return counts(violations)


def record(screenshots: Path, page_name: str, counts: dict[str, int]) -> None:
    """Keep a page's counts in artifacts/a11y-counts.json (beside the screenshots), and
    print them (seen with `pytest -s`)."""
    print(f"axe {page_name}: {json.dumps(counts, sort_keys=True)}")
    out = screenshots.parent / "a11y-counts.json"
    known = json.loads(out.read_text()) if out.exists() else {}
    known[page_name] = counts
    out.write_text(json.dumps(known, indent=1, sort_keys=True))
