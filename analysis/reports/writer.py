"""A report folder: ``reports/NAME/`` with index.html (opens from disk; the kind's template in
analysis/reports/templates, read verdict first), summary.md, PNG figures, CSV data tables and
manifest.json naming the runs used.

The manifest records the kind, its parameters and every pairing with its runs, so
``handfoot report NAME`` (analysis.reports.build.rebuild) can read the same runs again and
write the report anew (after a code change in the analysis, say) without playing a game. The
folder is written under a temporary name and swapped in whole, so a report is never half old
and half new.
"""

from __future__ import annotations

import json
import shutil
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from analysis.experiments.pairings import seating_name
from analysis.reports import howplay, templating
from analysis.reports.content import Content, ReportError, Section
from analysis.reports.describe import run_facts
from analysis.reports.fmt import Table

FORMAT = "handfoot-report/1"
MANIFEST = "manifest.json"
_EXTRA_PACKAGES = ("scipy", "statsmodels", "matplotlib", "pandas")


def check_name(name: str) -> str:
    """``name`` if it is a plain folder name (a report is written as reports/NAME/)."""
    if not name or "/" in name or "\\" in name or name in (".", "..") or name.startswith("."):
        raise ReportError(f"a report name must be a plain folder name (got {name!r})")
    return name


def check_replaceable(final: Path) -> Path:
    """``final`` if a report may be written there: absent, an empty folder or a handfoot
    report. Called before a long command plays, too, so a folder of something else is refused
    before the work and not after it."""
    if final.exists() and not (final.is_dir()
                               and (not any(final.iterdir()) or (final / MANIFEST).exists())):
        raise ReportError(f"{final} exists and is not a handfoot report; not replacing it")
    return final


def versions() -> dict[str, str]:
    """The versions of the packages the numbers depend on, for the manifest."""
    from sim.runs.storage import package_versions

    out = package_versions()
    for name in _EXTRA_PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


# --- Writing ------------------------------------------------------------------------------------

def staging_dir(reports_dir: Path, name: str) -> Path:
    """An empty folder beside the report to build it in (figures are drawn straight there)."""
    path = reports_dir / f".{check_name(name)}.building"
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


def write(content: Content, reports_dir: Path, name: str, staging: Path,
          command: list[str] | None = None) -> Path:
    """Write the report built in ``staging`` (its figures already there) as reports/NAME."""
    add_panel(content)
    for file, table in content.tables.items():
        table.write_csv(staging / file)
    manifest = _manifest(content, name, command)
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    (staging / "summary.md").write_text(_markdown(content, name, manifest), encoding="utf-8")
    page = _html(content, name, manifest, staging)
    (staging / "index.html").write_text(page, encoding="utf-8")
    final = check_replaceable(reports_dir / name)
    if final.exists():
        shutil.rmtree(final)
    staging.rename(final)
    return final


def add_panel(content: Content) -> None:
    """Every report's how-they-play panel (analysis.reports.howplay), after its summary
    tables."""
    if howplay.CSV in content.tables or not (content.pairs or content.extra_runs):
        return
    content.tables[howplay.CSV] = howplay.panel(content)
    at = max((i + 1 for i, s in enumerate(content.sections) if s.in_summary), default=0)
    content.sections.insert(at, Section(howplay.TITLE, howplay.view(), note=howplay.NOTE))


def _manifest(content: Content, name: str, command: list[str] | None) -> dict:
    pairings = []
    runs = []
    for pair in content.pairs:
        n = pair.seatings
        facts = {seating_name(seat, n): run_facts(path) for seat, path in enumerate(pair.runs)}
        pairings.append({**pair.pairing.to_dict(), "runs": {k: v["path"]
                                                            for k, v in facts.items()}})
        for seat, (orient, f) in enumerate(facts.items()):
            runs.append({"pairing": pair.pairing.key, "orientation": orient, "seating": seat,
                         "a": pair.pairing.a.label, "b": pair.pairing.b.label, **f})
    for path in content.extra_runs:
        f = run_facts(path)
        runs.append({"pairing": "", "orientation": "", "seating": -1,
                     "a": "/".join(f["strategies"]["teams"]), "b": "", **f})
    return {
        "format": FORMAT, "name": name, "kind": content.kind, "title": content.title,
        "question": content.question,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": command if command is not None else ["handfoot", *sys.argv[1:]],
        "params": content.params, "pairings": pairings, "runs": runs,
        "figures": [f.file for f in content.figures],
        "tables": sorted(content.tables),
        "summary_tables": [s.view.to_dict() for s in content.sections if s.in_summary],
        "versions": versions(),
    }


def _seating(r: dict) -> str:
    """Which partnership A played in a run (older manifests: from its orientation)."""
    seat = r.get("seating", 0 if r["orientation"] == "ab" else 1)
    return "" if seat < 0 else str(seat)


def _runs_lines(manifest: dict) -> list[str]:
    out = []
    for r in manifest["runs"]:
        who = (f"{r['a']} vs {r['b']}, A as partnership {_seating(r)}" if _seating(r) else
               r["a"])
        out.append(f"- `{r['name']}` ({who}): rules {r['profile']} ({r['rules_id']}), "
                   f"seed {r['seed']}, {r['games']:,} games, {r['deals']:,} deals, "
                   f"{r['status']}")
    return out


def _markdown(content: Content, name: str, manifest: dict) -> str:
    out = [f"# {content.title}", "", f"*Question:* {content.question}", ""]
    for i, paragraph in enumerate(content.answer):
        out += [f"**{paragraph}**" if i == 0 else paragraph, ""]
    for section in content.sections:
        if section.in_summary:
            out += [f"## {section.title}", ""]
            out.append(section.view.markdown(content.tables[section.view.csv]))
            if section.note:
                out += ["", section.note]
            out.append("")
    out += ["## Figures", ""]
    for f in content.figures:
        out += [f"![{f.title}]({f.file})", "", f"*{f.title}.* {f.caption}", ""]
    out += ["", "## Method", "", *[f"- {m}" for m in content.method]]
    if manifest["runs"]:  # a value model's report (kind learn) reads a model file, no runs
        out += ["", "## Runs used", "", *_runs_lines(manifest)]
    out += ["", f"Report `{name}` ({manifest['created']}); data tables: "
            + ", ".join(f"`{t}`" for t in manifest["tables"]) + "; manifest: `manifest.json`.",
            "Versions: " + ", ".join(f"{k} {v}" for k, v in manifest["versions"].items()), ""]
    return "\n".join(out)


_RUNS_HEADERS = ["run folder", "comparison", "A's partnership", "rules", "rules id", "seed",
                 "games", "deals", "status"]
_RUNS_WORDS = [True, True, False, True, False, False, False, False, True]
PAGES = ("card.html",)  # pages a builder may write beside index.html, which it links to


def _runs_table(manifest: dict) -> Table:
    rows = [[r["name"], f"{r['a']} vs {r['b']}" if r["b"] else r["a"], _seating(r),
             r["profile"], r["rules_id"], str(r["seed"]), f"{r['games']:,}", f"{r['deals']:,}",
             r["status"]] for r in manifest["runs"]]
    return Table(_RUNS_HEADERS, rows, _RUNS_WORDS)


def _shown(content: Content, section: Section) -> dict:
    return {"title": section.title, "note": section.note, "csv": section.view.csv,
            "table": section.view.table(content.tables[section.view.csv])}


def _html(content: Content, name: str, manifest: dict, folder: Path) -> str:
    """index.html: the kind's template (analysis/reports/templates) filled in, verdict first:
    the question, the answer, the lead figure, the summary tables, then the rest."""
    lead, *figures = content.figures or [None]
    return templating.render(
        templating.page_template(content.kind), kind=content.kind, title=content.title,
        question=content.question, answer=content.answer, lead=lead, figures=figures,
        summary=[_shown(content, s) for s in content.sections if s.in_summary],
        details=[_shown(content, s) for s in content.sections if not s.in_summary],
        method=content.method, runs=_runs_table(manifest), name=name,
        created=manifest["created"], tables=manifest["tables"], manifest=MANIFEST,
        versions=", ".join(f"{k} {v}" for k, v in manifest["versions"].items()),
        pages=[p for p in PAGES if (folder / p).is_file()])
