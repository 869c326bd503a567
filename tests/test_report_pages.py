"""The report pages are Jinja2 templates (analysis/reports/templates) and read verdict first:
every value is escaped, no module of analysis.reports writes HTML by hand, every kind has its
template and the templates ship with the package; in a 1280 x 800 browser window a guide-like
report shows its verdict on the first screen and no table is wider than the page; the strategy
card prints on one A4 or Letter page."""

from __future__ import annotations

import ast
import json
import os
import re
import sys
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest

from analysis.reports import kinds, templating
from analysis.reports.card import Card, CardLine, write_card
from analysis.reports.content import Content, Figure, Section
from analysis.reports.fmt import View, col, results_view
from analysis.reports.writer import staging_dir, write
from tests.pagecheck import HEIGHT, WIDTH, browser, layout, pdf_pages
from tests.runhelpers import cli

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "analysis" / "reports"

# --- No HTML built by hand ---------------------------------------------------------------------

_TAG = re.compile(r"<\s*/?\s*(!doctype|html|head|body|title|style|script|table|thead|tbody|tr|"
                  r"th|td|p|div|span|h[1-6]|img|a|ul|ol|li|figure|figcaption|pre|code|strong|"
                  r"em|details|summary|section|article|header|br|meta)(?=[\s>/])", re.I)


def hand_built_tags(source: str) -> list[str]:
    """The HTML tags in the string literals of ``source`` (f-string parts too), leaving out
    documentation (a string that is a statement of its own: a docstring)."""
    tree = ast.parse(source)
    docs = {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    return [m.group(0) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docs for m in _TAG.finditer(node.value)]


# How the pages were written before the templates (analysis/reports/writer.py and fmt.py).
_OLD_WRITER = '''
def _html(content, name, manifest):
    """Docstrings may name an <img> or a <table>."""
    e = html.escape
    parts = [f"<h1>{e(content.title)}</h1>",
             f"<p><em>Question:</em> {e(content.question)}</p>",
             "<div class='answer'>" + "".join(f"<p>{e(p)}</p>" for p in content.answer)
             + "</div>"]
    head = "".join(f"<th>{e(h)}</th>" for h in headers)
    return f"<table><thead><tr>{head}</tr></thead></table>"
'''


def test_the_check_finds_html_built_by_hand():
    found = hand_built_tags(_OLD_WRITER)
    assert {"<h1", "<p", "<div", "<th", "<table", "<tr", "<em"} <= {t.lower() for t in found}
    assert hand_built_tags('"""A <table> in a docstring."""\nx = "<1e-300" if p else "a < b"\n'
                           ) == []


def test_no_report_module_builds_html_by_hand():
    found = {f"{path.relative_to(ROOT)}: {tag}"
             for path in REPORTS.rglob("*.py") if path.name != "templating.py"
             for tag in hand_built_tags(path.read_text(encoding="utf-8"))}
    assert not found, sorted(found)


# --- The templates ----------------------------------------------------------------------------

def test_every_kind_and_the_card_have_a_template_on_the_base_page():
    env = templating.environment()
    for name in [*kinds.KINDS, "card"]:
        assert templating.page_template(name) == f"{name}.html.j2", name
        source = (templating.TEMPLATES / f"{name}.html.j2").read_text(encoding="utf-8")
        assert '{% extends "base.html.j2" %}' in source, name
    assert templating.page_template("no-such-kind") == templating.FALLBACK
    for path in templating.TEMPLATES.glob("*.j2"):
        env.get_template(path.name)  # every template parses


def test_the_templates_ship_with_the_package():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["analysis.reports"]
    assert "jinja2>=3.1" in data["project"]["dependencies"]
    files = [p.relative_to(REPORTS).as_posix() for p in templating.TEMPLATES.iterdir()]
    assert files and all(any(fnmatch(f, pat) for pat in patterns) for f in files), files


# --- A guide-like report, built from constructed tables ----------------------------------------

ADVICE = ["leave natural books one short until the partner is on the Foot",
          "hold 1 wild back until on the Foot", "hold 2 wilds back until on the Foot",
          "discard black threes first, to block the pile",
          "go out as soon as you are allowed (rather than only when ahead on the game)",
          "keep natural pairs when discarding",
          "go out as soon as you are allowed (rather than only when ahead on the deal)",
          "discard safely: not a rank the next opponent took from the pile",
          "pick up any pile you can"]


def _result(i: int, label: str) -> dict:
    diff = 150.0 - 35 * i
    return {"value": label, "a": f"tuned with {label.split(' ')[0]}_knob={i % 3}",
            "b": "tuned (the tactician tuned for standard)", "games": 20_000,
            "win_rate": 0.5 + diff / 3000, "win_low": 0.49 + diff / 3000,
            "win_high": 0.51 + diff / 3000, "diff_deal": diff, "diff_deal_low": diff - 6.5,
            "diff_deal_high": diff + 6.5, "diff_game": 4 * diff, "diff_game_low": 4 * diff - 26,
            "diff_game_high": 4 * diff + 26, "p_value": 10.0 ** -(12 - i), "p_holm": 1e-3,
            "verdict": "pays" if diff > 0 else "costs",
            "instead": "the other way round, as the baseline plays it"}


def _guide_like(root: Path, title: str = "Strategy guide: standard", card: bool = False) -> Path:
    """A report of kind guide as the guide lays it out: a long verdict, the advice table (9
    rows), a wide 20-row table of every comparison, the lead figure; with ``card``, the
    strategy card beside it."""
    import matplotlib.pyplot as plt

    advice = pl.DataFrame([_result(i, a) for i, a in enumerate(ADVICE)])
    played = pl.DataFrame([_result(i, f"{ADVICE[i % 9]} (seating {i // 9})")
                           for i in range(20)])
    staging = staging_dir(root, "guide-like")
    fig, ax = plt.subplots(figsize=(10, 4.5))
    ax.errorbar(advice["diff_deal"], range(9), xerr=6.5, fmt="o")
    fig.savefig(staging / "guide.png", dpi=110)
    plt.close(fig)
    if card:
        write_card(_card(), staging)
    verdict = ("Under standard, measured against tuned (the tactician tuned for standard, the "
               "strongest heuristic for it): 5 of 9 pieces of advice pay, 3 cost and 1 makes no "
               "measurable difference. Worth following: " + "; ".join(ADVICE[:5]) + ". Better "
               "not: " + "; ".join(ADVICE[5:8]) + ". Too close to call: " + ADVICE[8] + ".")
    content = Content(
        title=title, question="Which pieces of tactics advice pay under standard?",
        answer=[verdict, *(f"{a.capitalize()} pays (+{150 - 35 * i:.1f} points per deal)."
                           for i, a in enumerate(ADVICE[:3])),
                "How sure: paired comparisons on the same shuffles; 95% intervals, Holm."],
        sections=[
            Section("The advice, largest effect first", View("guide.csv", (
                col("advice", "text", "value"), col("instead of", "text", "instead"),
                col("advice wins (95% CI)", "pct_ci", "win_rate", "win_low", "win_high"),
                col("points per deal (95% CI)", "pts_ci", "diff_deal", "diff_deal_low",
                    "diff_deal_high"),
                col("p (Holm)", "p", "p_holm"), col("verdict", "text", "verdict")))),
            Section("Each comparison as played", results_view(True, (
                col("advice", "text", "value"),)), in_summary=False)],
        tables={"guide.csv": advice, "results.csv": played},
        figures=[Figure("guide.png", "The advice", "Points per deal following each piece of "
                        "advice, with 95% intervals.")],
        method=["Each piece of advice: the baseline with one knob changed, against it."],
        kind="guide")
    return write(content, root, "guide-like", staging, command=["handfoot", "guide"])


def test_a_page_escapes_what_it_shows(tmp_path):
    folder = _guide_like(tmp_path, title="Guide <script>alert(1)</script> & co")
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page
    card = write_card(_card(title="Card <b>bold</b>"), tmp_path)
    assert "<b>" not in card.read_text() and "Card &lt;b&gt;bold&lt;/b&gt;" in card.read_text()


def test_a_page_reads_verdict_first(tmp_path):
    """The question, the verdict box, the lead figure, then the summary table; the other
    figures, the long tables (folded), the method and the runs below."""
    page = (_guide_like(tmp_path) / "index.html").read_text(encoding="utf-8")
    at = [page.index(s) for s in ("<em>Question:</em>", "<div class='answer' id='verdict'>",
                                  "<img src='guide.png'", "<h2>The advice, largest effect",
                                  "<h2>Each comparison as played</h2>", "<h2>Method</h2>",
                                  "<h2>Runs used</h2>")]
    assert at == sorted(at), at
    assert page.count("<details>") == 1 and "<details open>" not in page  # 20 rows: folded
    # a long verdict shows two paragraphs and folds the rest, above the lead figure
    assert page.index("<details class='more-verdict'>") < page.index("<img src='guide.png'")
    assert "<summary>20 rows</summary>" in page
    assert "href='card.html'" not in page  # a guide links to its card only where there is one
    with_card = (_guide_like(tmp_path, card=True) / "index.html").read_text(encoding="utf-8")
    assert with_card.index("id='verdict'") < with_card.index("<a href='card.html'>")
    assert page.count("<div class='scroll'>") == page.count("<table>") == 3


def test_a_guide_like_page_fits_a_1280_window(tmp_path):
    """In Chromium at 1280 x 800: the verdict box is on the first screen, the page is no
    wider than the window, every table sits in its own scrolling box inside the page, with
    its first column sticky."""
    chromium = browser()
    folder = _guide_like(tmp_path, card=True)
    seen = layout(folder / "index.html", chromium)
    assert 0 <= seen["verdictTop"] < HEIGHT, seen
    assert seen["scrollWidth"] <= min(WIDTH, seen["clientWidth"]), seen
    # folded: the 20-row table and the verdict's paragraphs after the first two
    assert len(seen["tables"]) == 3 and seen["folded"] == 2 and seen["openAtFirst"] == 0
    for table in seen["tables"]:
        assert table["boxed"] and table["overflow"] == "auto", table
        assert 0 < table["right"] <= WIDTH and table["sticky"] == "sticky", table


# --- The strategy card ----------------------------------------------------------------------------

def _card(title: str = "Strategy card: standard") -> Card:
    """A card with 12 lines, worded as the guide words its advice."""
    return Card(
        title=title, rules="standard", rules_id="fc5f850d308a", players=["learned", "tuned"],
        follow=[CardLine("Leave natural books one short until your partner is on the Foot",
                         "+150 points a deal", "learned +150, tuned +120"),
                CardLine("Discard black threes first, to block the pile", "+85 points a deal",
                         "learned +90, tuned +81"),
                CardLine("Go out as soon as you are allowed", "+71 points a deal"),
                CardLine("Keep natural pairs when discarding", "+41 points a deal",
                         "learned +38, tuned +44")],
        avoid=[CardLine("Hold 1 wild back until you are on your Foot", "-128 points a deal",
                        "learned -140, tuned -117"),
               CardLine("Hold 2 wilds back until you are on your Foot", "-103 points a deal"),
               CardLine("Pick up any pile you can, even a single card", "-9 points a deal")],
        depends=[CardLine("Discard safely: not a rank the next opponent took from the pile",
                          "-13 to +6 points a deal", "learned +6, tuned -13"),
                 CardLine("Go out only when ahead on the deal", "-14 to +3 points a deal",
                          "learned +3, tuned -14")],
        no_matter=["Which card of a pair you discard first", "Picking up a pile of exactly two"],
        footnote=("Each line: the player with one habit changed against the same player, on "
                  "20,000 shuffles played in both seatings; 95% intervals, Holm-corrected. "
                  "A line is Do or Avoid only where it holds for every player measured."),
        report_link="index.html",
        mixed=[CardLine("Meld a third wild into a dirty book", "+9 points a deal",
                        "learned +9, pays; tuned -4, no measurable difference")])


def test_the_card_has_every_line_and_no_image(tmp_path):
    card = _card()
    page = write_card(card, tmp_path / "guide").read_text(encoding="utf-8")
    for line in card.follow + card.avoid + card.depends + card.mixed:
        assert line.advice in page and line.number in page
    for advice in card.no_matter:
        assert advice in page
    assert "<img" not in page and "@page" in page and "href='index.html'" in page
    assert re.findall(r"<h2>([^<]+)</h2>", page) == [
        "Do", "Avoid", "Depends on the player", "For some players only", "Does not matter"]
    empty = Card("Strategy card: simpson", "simpson", "x", ["tuned"], [], [], [], [], "Note.")
    assert "<h2>" not in write_card(empty, tmp_path, "empty.html").read_text()


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_the_card_prints_on_one_page(tmp_path, paper):
    chromium = browser()
    page = write_card(_card(), tmp_path)
    assert pdf_pages(page, chromium, paper) == 1


# --- The value model's page (handfoot learn) ----------------------------------------------------

def _model_file(path: Path, r2: float = 0.4321, fit: dict | None = None) -> Path:
    """A model file as ``handfoot learn`` writes it, with only what its report reads."""
    import json

    bins = [{"rows": 10, "predicted": 10.0 * i, "realised": 11.0 * i} for i in range(10)]
    model = {"format": "handfoot-model/1", "profile": "standard", "rules_id": "fc5f850d308a",
             "kind": "mlp <x>", "metadata": {
                 "held_out": {"rows": 1234, "rmse": 321.5, "mae": 250.25, "r2": r2,
                              "calibration": bins,
                              "choices": [{"margin": 25.0, "decisions": 400,
                                           "left_base": 0.125, "gain_per_decision": 7.5}]},
                 "training": {"held_out_games": 60, "games": 600},
                 "learning_curve": [{"share": 0.5, "rows": 500, "rmse": 400.0},
                                    {"share": 1.0, "rows": 1000, "rmse": 330.0}],
                 "rounds": [{"round": 1, "player": "learned", "opponent": "tuned",
                             "win_rate": 0.6, "win_low": 0.55, "win_high": 0.65,
                             "per_deal": 50.0, "shuffles": 300, "seatings": 2, "even": 0.5}],
                 "fit": fit or {"hidden": 8}}}
    if fit and fit.get("loss") == "rank":  # as learn writes a rank fit: no curve, and why
        model["metadata"].update(learning_curve=[], learning_curve_skipped="not computed <r>")
    path.write_text(json.dumps(model, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def test_the_value_model_page_is_a_template(tmp_path):
    from analysis.reports.build import build_and_write
    from analysis.reports.learn import model_params

    params = model_params(_model_file(tmp_path / "model.json"))
    content, folder = build_and_write("learn", [], params, tmp_path / "reports", "vm")
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "Value model for standard (mlp &lt;x&gt;)" in page and "id='verdict'" in page
    assert "RMSE 321.5 points" in page and "R² 0.432" in page
    assert "60.0% (55.0% to 65.0%)" in page and "&#34;hidden&#34;: 8" in page
    images = re.findall(r"<img src='([^']+)'[^>]*onload=", page)
    assert images == ["calibration.png", "learning_curve.png"]
    assert all((folder / i).is_file() for i in images)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["kind"] == content.kind == "learn" and manifest["params"] == params
    assert manifest["params"]["model"] == str((tmp_path / "model.json").resolve())
    assert "<h2>Runs used</h2>" not in page  # a value model plays no runs of its own
    assert "## Runs used" not in (folder / "summary.md").read_text(encoding="utf-8")


def test_a_rank_fitted_model_s_page_leads_with_its_choices(tmp_path):
    from analysis.reports.build import build_and_write
    from analysis.reports.learn import model_params

    params = model_params(_model_file(tmp_path / "model.json",
                                      fit={"hidden": 8, "loss": "rank"}))
    _, folder = build_and_write("learn", [], params, tmp_path / "reports", "rk")
    summary = (folder / "summary.md").read_text(encoding="utf-8")
    assert "games): its choices gain +7.5 points a decision over the base policy's, " \
        "leaving it at 12.5% of 400 decisions" in summary
    assert summary.index("+7.5 points a decision") < summary.index("RMSE 321.5 points")
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "Learning curve: not computed &lt;r&gt;." in page
    assert not (folder / "learning_curve.csv").exists() and "learning_curve.png" not in page


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_learn_report_is_rebuilt_and_refused_once_its_model_changes(tmp_path, capsys,
                                                                      monkeypatch):
    """``handfoot learn`` (its fit replaced by writing a model file) writes a report of kind
    learn; ``handfoot report NAME`` writes the same page again from the model file; once the
    file changes, or is gone, the rebuild is refused in one line, exit 2, nothing written."""
    import analysis.experiments.learn as experiment

    out, reports = tmp_path / "standard.json", tmp_path / "reports"

    def fake_learn(settings, path, runs_dir, **kw):
        _model_file(path)
        meta = json.loads(path.read_text(encoding="utf-8"))["metadata"]
        meta["held_out"]["target"] = "advantage"
        meta["training"].update(rows=5000, player=settings.player)
        return SimpleNamespace(kind="mlp <x>", rules_id="fc5f850d308a", metadata=meta)

    monkeypatch.setattr(experiment, "learn", fake_learn)
    args = ["learn", "--rules", "standard", "--player", "cautious", "--out", str(out),
            "--report-dir", str(reports / "vm"), "--no-progress"]
    monkeypatch.setattr(sys, "argv", ["handfoot", *args])  # what the manifest records
    code, said, err = cli(capsys, *args)
    assert code == 0, err
    assert f"report: {reports / 'vm' / 'index.html'}" in said
    manifest = json.loads((reports / "vm" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["kind"] == "learn" and manifest["command"] == ["handfoot", *args]
    assert manifest["params"]["model"] == str(out.resolve())
    before = (reports / "vm" / "index.html").read_text(encoding="utf-8")
    stamp = re.compile(r"^<p class='small'>Report <code>.*$", re.MULTILINE)  # creation time

    code, said, err = cli(capsys, "report", "vm", "--reports-dir", str(reports))
    assert code == 0, err
    assert "Value model for standard (mlp <x>)" in said and "RMSE 321.5 points" in said
    after = (reports / "vm" / "index.html").read_text(encoding="utf-8")
    assert stamp.sub("", after) == stamp.sub("", before)
    assert "60.0% (55.0% to 65.0%)" in after

    written = _files(reports / "vm")
    _model_file(out, r2=0.5)  # the model file changes after its report was written
    for says in ("has changed since its report was written", "does not exist"):
        code, said, err = cli(capsys, "report", "vm", "--reports-dir", str(reports))
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and says in lines[0], (code, err)
        assert lines[0].startswith("handfoot: error: model file") and "Traceback" not in err
        assert _files(reports / "vm") == written and sorted(os.listdir(reports)) == ["vm"]
        out.unlink(missing_ok=True)


def test_learn_refuses_a_report_folder_of_something_else_before_it_plays(tmp_path, capsys,
                                                                          monkeypatch):
    """A ``--report-dir`` that holds files but no handfoot report is refused in one line, exit
    2, before any game is played: the fit is not lost at its last step, nothing is written."""
    import analysis.experiments.learn as experiment

    played = []
    monkeypatch.setattr(experiment, "learn", lambda *a, **kw: played.append(a))
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "mine.txt").write_text("keep me", encoding="utf-8")
    out = tmp_path / "standard.json"
    code, _, err = cli(capsys, "learn", "--rules", "standard", "--out", str(out),
                       "--report-dir", str(folder), "--no-progress")
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "is not a handfoot report" in lines[0], err
    assert played == [] and not out.exists() and os.listdir(folder) == ["mine.txt"]
