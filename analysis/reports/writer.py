"""A report folder: ``reports/NAME/`` with index.html (opens from disk), summary.md, PNG
figures, CSV data tables and manifest.json naming the runs used.

The manifest records the kind, its parameters and every pairing with its runs, so
``handfoot report NAME`` (analysis.reports.build.rebuild) can read the same runs again and
write the report anew (after a code change in the analysis, say) without playing a game. The
folder is written under a temporary name and swapped in whole, so a report is never half old
and half new.
"""

from __future__ import annotations

import html
import json
import shutil
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from analysis.experiments.pairings import seating_name
from analysis.reports import howplay
from analysis.reports.content import Content, ReportError, Section
from analysis.reports.describe import run_facts

FORMAT = "handfoot-report/1"
MANIFEST = "manifest.json"
_EXTRA_PACKAGES = ("scipy", "statsmodels", "matplotlib", "pandas")


def check_name(name: str) -> str:
    """``name`` if it is a plain folder name (a report is written as reports/NAME/)."""
    if not name or "/" in name or "\\" in name or name in (".", "..") or name.startswith("."):
        raise ReportError(f"a report name must be a plain folder name (got {name!r})")
    return name


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
    (staging / "index.html").write_text(_html(content, name, manifest), encoding="utf-8")
    final = reports_dir / name
    if final.exists():
        if final.is_dir() and (not any(final.iterdir()) or (final / MANIFEST).exists()):
            shutil.rmtree(final)
        else:
            raise ReportError(f"{final} exists and is not a handfoot report; not replacing it")
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
    out += ["", "## Runs used", "", *_runs_lines(manifest)]
    out += ["", f"Report `{name}` ({manifest['created']}); data tables: "
            + ", ".join(f"`{t}`" for t in manifest["tables"]) + "; manifest: `manifest.json`.",
            "Versions: " + ", ".join(f"{k} {v}" for k, v in manifest["versions"].items()), ""]
    return "\n".join(out)


_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:1180px;
margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:1.8em;
border-bottom:1px solid #ddd}
.answer{background:#f3f7fc;border-left:4px solid #2a6ebb;padding:.6em 1em;margin:1em 0}
.answer p:first-child{font-weight:600;font-size:1.05em}
.scroll{overflow-x:auto}table{border-collapse:collapse;font-size:.8em;margin:.6em 0}
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:right}td{white-space:nowrap}
th{background:#f0f0f0}td:first-child,th:first-child{text-align:left}
figure{margin:1.2em 0}figure img{max-width:100%;border:1px solid #eee}
figcaption{font-size:.9em;color:#444}.small{font-size:.85em;color:#555}
"""


# Each figure records whether it loaded (and its natural width) in data attributes, so a
# headless browser can check every figure of the page (analysis.reports.render.figure_states).
_IMG_STATE = ('onload="this.dataset.state=\'loaded\';this.dataset.width=this.naturalWidth" '
              'onerror="this.dataset.state=\'error\'"')


def _html(content: Content, name: str, manifest: dict) -> str:
    e = html.escape
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
             f"<title>{e(content.title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>{e(content.title)}</h1>",
             f"<p><em>Question:</em> {e(content.question)}</p>",
             "<div class='answer'>" + "".join(f"<p>{e(p)}</p>" for p in content.answer)
             + "</div>"]
    for section in content.sections:
        table = content.tables[section.view.csv]
        parts.append(f"<h2>{e(section.title)}</h2><div class='scroll'>"
                     f"{section.view.html(table)}</div>")
        note = f"{e(section.note)} " if section.note else ""
        parts.append(f"<p class='small'>{note}Data: <a href='{e(section.view.csv)}'>"
                     f"{e(section.view.csv)}</a></p>")
    parts.append("<h2>Figures</h2>")
    for f in content.figures:
        parts.append(f"<figure><img src='{e(f.file)}' alt='{e(f.title)}' {_IMG_STATE}>"
                     "<figcaption>"
                     f"<strong>{e(f.title)}.</strong> {e(f.caption)}</figcaption></figure>")
    parts.append("<h2>Method</h2><ul>" + "".join(f"<li>{e(m)}</li>" for m in content.method)
                 + "</ul>")
    rows = "".join(
        f"<tr><td>{e(r['name'])}</td><td>{e(r['a'])}{' vs ' if r['b'] else ''}"
        f"{e(r['b'])}</td><td>{_seating(r)}</td><td>{e(r['profile'])}</td>"
        f"<td>{e(r['rules_id'])}</td><td>{r['seed']}</td><td>{r['games']:,}</td>"
        f"<td>{r['deals']:,}</td><td>{e(r['status'])}</td></tr>" for r in manifest["runs"])
    parts.append("<h2>Runs used</h2><table><thead><tr><th>run folder</th><th>comparison</th>"
                 "<th>A's partnership</th><th>rules</th><th>rules id</th><th>seed</th>"
                 f"<th>games</th><th>deals</th><th>status</th></tr></thead><tbody>{rows}"
                 "</tbody></table>")
    files = ", ".join(f"<a href='{e(t)}'>{e(t)}</a>" for t in manifest["tables"])
    parts.append(f"<p class='small'>Report <code>{e(name)}</code>, {e(manifest['created'])}. "
                 f"Data tables: {files}. <a href='{MANIFEST}'>manifest.json</a> names every "
                 "run, rule set, strategy and seed. Versions: "
                 + e(", ".join(f"{k} {v}" for k, v in manifest["versions"].items()))
                 + ".</p></body></html>")
    return "\n".join(parts) + "\n"
