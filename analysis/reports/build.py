"""Building a report of any kind, and rebuilding one from its manifest.

``build`` asks the kind's builder (analysis.reports.kinds) for what the kind shows, then adds,
once for every kind, what every comparison report shows the same way: the results, sides and
deals tables, the "Each strategy" and "Deals" sections, the common figures and the paired
design's method (the how-they-play panel is added when the report is written,
analysis.reports.writer). ``rebuild`` reads the kind, parameters and pairings a report's
manifest names and builds it again from the same runs, without playing a game and without
loading the engine.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from analysis.experiments.pairings import Pairing, PairRuns
from analysis.reports import figures, kinds
from analysis.reports.content import PAIRED_METHOD, Content, ReportError, Section
from analysis.reports.fmt import deals_view, sides_view
from analysis.reports.writer import FORMAT, MANIFEST, check_name, staging_dir, write


def build(kind: str, pairs: list[PairRuns], params: dict, out: Path | None) -> Content:
    """The content of a report of ``kind`` from the runs of ``pairs``; figures are drawn in
    ``out`` (none without it: the terminal shows no figure)."""
    content = kinds.kind(kind).builder()(pairs, params, out)
    content.kind, content.params, content.pairs = kind, params, pairs
    complete(content, out)
    return content


def complete(content: Content, out: Path | None) -> None:
    """Add what every comparison report shows the same way, after the kind's own parts."""
    c = content.comparisons
    if c is None:
        return
    content.tables.setdefault("results.csv", c.results)
    content.tables.setdefault("sides.csv", c.sides)
    content.tables.setdefault("deals.csv", c.deals)
    content.sections += [Section("Each strategy", sides_view(), in_summary=False),
                         Section("Deals", deals_view(), in_summary=False)]
    content.figures += figures.common(c.items, c.results, out)
    content.method = content.method_before + PAIRED_METHOD + content.method


def build_and_write(kind: str, pairs: list[PairRuns], params: dict, reports_dir: Path,
                    name: str, command: list[str] | None = None) -> tuple[Content, Path]:
    """Build a report of ``kind`` and write it as ``reports_dir/name``; nothing is left
    behind when building fails."""
    staging = staging_dir(reports_dir, name)
    try:
        content = build(kind, pairs, params, staging)
        path = write(content, reports_dir, name, staging, command)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return content, path


def load_manifest(reports_dir: Path, name: str) -> dict:
    """The manifest of report ``name``; a ``ReportError`` saying how to make one if there is
    none."""
    file = reports_dir / check_name(name) / MANIFEST
    if not file.is_file():
        raise ReportError(f"no report '{name}' in {reports_dir} (reports are made by "
                          f"{kinds.commands()})")
    try:
        manifest = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReportError(f"{file} is not a readable report manifest ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ReportError(f"{file} is not a handfoot report manifest")
    return manifest


def rebuild(reports_dir: Path, name: str, command: list[str] | None = None
            ) -> tuple[Content, Path]:
    """Read the runs a report's manifest names and write the report again."""
    manifest = load_manifest(reports_dir, name)
    kind = manifest["kind"]
    if kind not in kinds.KINDS:
        raise ReportError(f"report '{name}' is of an unknown kind '{kind}' (known: "
                          f"{kinds.names()})")
    pairs = []
    for p in manifest["pairings"]:
        pairing = Pairing.from_dict({k: v for k, v in p.items() if k != "runs"})
        pairs.append(PairRuns(pairing, tuple(Path(v) for v in p["runs"].values())))
    return build_and_write(kind, pairs, manifest["params"], reports_dir, name, command)
