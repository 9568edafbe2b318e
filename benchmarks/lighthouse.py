#!/usr/bin/env python3
"""Lighthouse on every chapter page of the built site, with nothing served but the site; a Markdown table.

Usage: python benchmarks/lighthouse.py [--write benchmarks/results/lighthouse.md]

Lighthouse's mobile defaults (tests/browser/harness.py serves the site and runs it) *simulate* a mid-range phone
on a slow 4G connection (150 ms round trips, 1.6 Mbit/s, a CPU four times slower than this machine's). Performance
is a weighted score of first contentful paint (FCP), largest contentful paint (LCP), total blocking time (TBT),
cumulative layout shift (CLS) and speed index (SI). The scores move a little from run to run; the table is one run
on the machine it names. The slow CPU is simulated by multiplying the time each task took here, so a busy machine
(see the load average in the table's heading) makes the scores worse than they are.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import harness  # noqa: E402 (the harness lives with the browser tests)

METRICS = (("first-contentful-paint", "FCP"), ("largest-contentful-paint", "LCP"), ("total-blocking-time", "TBT"),
           ("cumulative-layout-shift", "CLS"), ("speed-index", "SI"))


def measure(site: Path) -> list[dict]:
    """One row per chapter page: its four scores, its performance metrics and what cost it points."""
    rows = []
    with harness.SiteServer(site) as server:
        for page in (p for p in harness.site_pages(site) if p.startswith("chapters/")):
            report = harness.run_lighthouse(server.url(page))
            audits = report["audits"]
            rows.append({
                "page": page,
                "scores": harness.lighthouse_scores(report),
                "metrics": {name: audits[audit]["displayValue"] for audit, name in METRICS},
                "weight": audits["total-byte-weight"]["numericValue"],
                "failing": {c: harness.lighthouse_failures(report, c) for c in report["categories"]},
            })
            print(f"{page}: {rows[-1]['scores']} {rows[-1]['metrics']}", file=sys.stderr)
    return rows


def markdown(rows: list[dict]) -> str:
    """The table, with the machine, the date and the Lighthouse version."""
    version = json.loads((harness.LIGHTHOUSE.parents[1] / "package.json").read_text())["version"]
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    load = os.getloadavg()[0]
    lines = [
        f"Lighthouse {version}, mobile defaults (simulated slow 4G, 4x CPU slowdown), Debian chromium; "
        f"{platform.machine()}, {os.cpu_count()} cores, load average {load:.1f} at the end of the run, {when}; "
        "site served with gzip, every request outside it blocked.",
        "",
        "| chapter | performance | FCP | LCP | TBT | CLS | SI | transfer | accessibility | best practices | SEO |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        s, m = row["scores"], row["metrics"]
        lines.append(
            f"| {row['page'].removeprefix('chapters/').removesuffix('.html')} | {s['performance']} | {m['FCP']} "
            f"| {m['LCP']} | {m['TBT']} | {m['CLS']} | {m['SI']} | {row['weight'] / 1024:,.0f} KiB "
            f"| {s['accessibility']} | {s['best-practices']} | {s['seo']} |")
    costs = sorted({audit for row in rows for audits in row["failing"].values() for audit in audits})
    if costs:
        lines += ["", "Audits that cost points on some chapter: " + "; ".join(costs) + "."]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="write the Markdown table here (default: print it)")
    args, site = parser.parse_args(), ROOT / "_build" / "html"
    if not (site / "index.html").is_file():
        print(f"lighthouse: no built site at {site}: run `make book` first", file=sys.stderr)
        return 1
    table = markdown(measure(site))
    if args.write:
        args.write.write_text(table, encoding="utf-8")
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
