"""Reports built end to end on small runs: every image the HTML references exists, every
number in summary.md is the number in its CSV table, the manifest names the runs used, and a
report rebuilds from its manifest alone."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sim.cli.analysis import cli
from sim.runs.storage import Run

GAMES = "24"
POSITIONS = 120  # branched positions per rule set in the hold-wild report


def handfoot(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    """One report of each kind, small, built once for the module."""
    root = tmp_path_factory.mktemp("reports")
    dirs = ["--runs-dir", str(root / "runs"), "--reports-dir", str(root / "reports"),
            "--jobs", "1", "--games", GAMES]
    out = {"compare": handfoot("compare", "tactician", "greedy", "--report", "cmp", *dirs),
           "sweep": handfoot("sweep", "--strategy", "tactician", "--param", "hold_wilds=0,2",
                             "--against", "greedy", "--report", "swp", *dirs),
           "rules": handfoot("rules-compare", "standard", "eleven", "--report", "var", *dirs),
           "ask": handfoot("ask", "hold-wild", "--positions", str(POSITIONS), *dirs)}
    paths = {"cmp": root / "reports" / "cmp", "swp": root / "reports" / "swp",
             "var": root / "reports" / "var", "hold-wild": root / "reports" / "hold-wild"}
    return {"root": root, "out": out, **paths}


NAMES = ("cmp", "swp", "var", "hold-wild")
_NUMBER = re.compile(r"<?[-+]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?%?")


def _check_number(token: str, value: float) -> None:
    """``token`` as displayed must be ``value`` rounded as displayed."""
    if token.startswith("<"):
        assert value < float(token[1:].rstrip("%")), (token, value)
        return
    percent = token.endswith("%")
    text = token.rstrip("%").replace(",", "").lstrip("+")
    shown = float(text)
    if percent:
        shown /= 100
    if "e" in text:  # two significant digits
        assert shown == pytest.approx(value, rel=0.06), (token, value)
        return
    decimals = len(text.split(".")[1]) if "." in text else 0
    tolerance = 0.5 * 10.0 ** -decimals * (0.01 if percent else 1) + 1e-12
    assert abs(shown - value) <= tolerance, (token, value)


def _markdown_tables(text: str) -> dict[tuple[str, ...], list[list[str]]]:
    """Every Markdown table in ``text``, keyed by its header cells."""
    tables, lines, i = {}, text.splitlines(), 0
    while i < len(lines):
        if lines[i].startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("|--"):
            header = tuple(c.strip() for c in lines[i].strip("|").split(" | "))
            rows, i = [], i + 2
            while i < len(lines) and lines[i].startswith("| "):
                rows.append([c.strip() for c in lines[i].strip()[2:-2].split(" | ")])
                i += 1
            tables[header] = rows
        else:
            i += 1
    return tables


@pytest.mark.parametrize("name", NAMES)
def test_every_image_and_file_the_html_references_exists(reports, name):
    folder = reports[name]
    html = (folder / "index.html").read_text()
    images = re.findall(r"<img src='([^']+)'", html)
    assert len(images) >= 4
    for ref in images + re.findall(r"<a href='([^']+)'", html):
        assert (folder / ref).is_file(), ref
    manifest = json.loads((folder / "manifest.json").read_text())
    assert sorted(images) == sorted(manifest["figures"])
    for required in ("forest.png", "scores.png", "deal_length.png", "milestones.png"):
        assert required in images


@pytest.mark.parametrize("name", NAMES)
def test_summary_numbers_are_the_table_numbers(reports, name):
    folder = reports[name]
    manifest = json.loads((folder / "manifest.json").read_text())
    shown = _markdown_tables((folder / "summary.md").read_text())
    assert manifest["summary_tables"]
    for view in manifest["summary_tables"]:
        table = pl.read_csv(folder / view["csv"], infer_schema_length=None)
        headers = tuple(c["header"] for c in view["columns"])
        rows = shown[headers]
        assert len(rows) == table.height
        for cells, row in zip(rows, table.iter_rows(named=True), strict=True):
            for cell, column in zip(cells, view["columns"], strict=True):
                values = [row[s] for s in column["sources"]]
                if column["format"] == "text":
                    assert cell == str(values[0])
                    continue
                tokens = _NUMBER.findall(cell)
                assert len(tokens) == len(values), (cell, column)
                for token, value in zip(tokens, values, strict=True):
                    _check_number(token, float(value))


@pytest.mark.parametrize("name", NAMES)
def test_manifest_names_the_runs_used(reports, name):
    folder = reports[name]
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["format"] == "handfoot-report/1" and manifest["name"] == name
    assert {"polars", "scipy", "statsmodels", "matplotlib", "numba"} <= set(
        manifest["versions"])
    assert len(manifest["runs"]) == sum(len(p["runs"]) for p in manifest["pairings"])
    for entry in manifest["runs"]:
        path = Path(entry["path"])
        run = Run.open(path)
        spec = run.spec
        assert entry["name"] == path.name == run.manifest["name"]
        assert (entry["seed"], entry["games"], entry["rules_id"]) == \
            (spec.seed, spec.games, spec.rules.rules_id)
        assert entry["strategies"]["teams"] == list(spec.team_strategies)
        assert entry["status"] == "complete"
        assert path.parent == reports["root"] / "runs" / name
    summary = (folder / "summary.md").read_text()
    for entry in manifest["runs"]:
        assert f"`{entry['name']}`" in summary


def test_a_report_rebuilds_from_its_manifest(reports):
    before = pl.read_csv(reports["swp"] / "results.csv")
    result = CliRunner().invoke(cli, ["report", "swp", "--reports-dir",
                                      str(reports["root"] / "reports")])
    assert result.exit_code == 0, result.output
    assert "Best value of hold_wilds" in result.output
    assert pl.read_csv(reports["swp"] / "results.csv").equals(before)


def test_sweep_and_rules_compare_tables(reports):
    sweep = pl.read_csv(reports["swp"] / "results.csv")
    assert sweep["value"].to_list() == [0, 2] and "p_holm" in sweep.columns
    assert (sweep["p_holm"] >= sweep["p_value"]).all()
    variants = pl.read_csv(reports["var"] / "variants.csv")
    assert variants["group"].to_list() == ["standard", "eleven"]
    for column in ("turns_mean", "share_out", "share_stock", "score_deal", "books_clean",
                   "books_dirty", "books_wild", "margin", "win_rate"):
        assert (variants[f"{column}_low"] <= variants[column]).all()
        assert (variants[column] <= variants[f"{column}_high"]).all()
    assert (variants["share_out"] + variants["share_stock"] == 1).all()  # no truncated deal
    assert (reports["var"] / "variants.png").is_file()


def test_ask_hold_wild_prints_a_verdict_built_from_its_table(reports):
    from analysis.reports.hold_wild import PROFILES

    out = reports["out"]["ask"]
    table = pl.read_csv(reports["hold-wild"] / "results.csv")
    assert table.height == 18 and table["group"].unique(maintain_order=True).to_list() == \
        list(PROFILES)
    assert table.filter(pl.col("group") == "simpson")["teams"].to_list() == [4, 4, 4]
    first = out.splitlines()[2]
    assert first.split(".")[0] in ("Yes", "No", "It depends on the rules", "Cannot tell yet",
                                   "Yes, in part")
    summary = (reports["hold-wild"] / "summary.md").read_text()
    assert f"**{first}**" in summary
    assert "How sure:" in out and "reports" in out and "hold-wild" in out
    assert (reports["hold-wild"] / "sweep.png").is_file()


def test_ask_hold_wild_names_the_player_of_each_rule_set(reports):
    from analysis.reports.hold_wild import PROFILES, baseline
    from sim.core.profiles import load_rules

    out = reports["out"]["ask"]
    table = pl.read_csv(reports["hold-wild"] / "results.csv")
    for profile in PROFILES:
        player = baseline(load_rules(profile))
        assert f"Under {profile} ({player}), against holding none" in out
        assert f"Decision by decision under {profile} ({player})" in out
        rows = table.filter(pl.col("group") == profile)
        assert set(rows["b"]) == {f"{player} hold 0"}
        assert set(rows["a"]) == {f"{player} hold {v}" for v in (1, 2, 3)}
    assert out.splitlines()[3].startswith("The player asked about: ")


def test_ask_hold_wild_has_the_decision_level_section(reports):
    folder = reports["hold-wild"]
    manifest = json.loads((folder / "manifest.json").read_text())
    table = pl.read_csv(folder / "holding.csv")
    overall = table.filter(pl.col("situation") == "all decisions")
    assert overall["group"].to_list() == manifest["params"]["profiles"]
    assert (overall["positions"] >= POSITIONS).all()
    assert ((table["low"] <= table["mean"]) & (table["mean"] <= table["high"])).all()
    assert {"deal", "hand or Foot", "cards held", "wild books made", "partner on the Foot",
            "fewest cards of an opponent"} <= set(table["situation"])
    assert "holding.png" in manifest["figures"] and (folder / "holding.png").is_file()
    assert "## Decision by decision: the value of holding a wild" in \
        (folder / "summary.md").read_text()
    for path in manifest["params"]["holding"]:
        assert Path(path).is_file() and Path(path).parent == \
            reports["root"] / "runs" / "hold-wild" / "holding"
    out = reports["out"]["ask"]
    assert out.count("The curve under ") == len(overall)


@pytest.mark.parametrize("name", NAMES)
def test_every_report_has_the_how_they_play_panel(reports, name):
    folder = reports[name]
    manifest = json.loads((folder / "manifest.json").read_text())
    panel = pl.read_csv(folder / "howplay.csv")
    sides = {(p["group"], label) for p in manifest["pairings"]
             for label in (p["a"]["label"], p["b"]["label"])}
    assert set(zip(panel["group"], panel["strategy"], strict=True)) == sides
    assert "howplay.csv" in [v["csv"] for v in manifest["summary_tables"]]
    assert "<h2>How they play</h2>" in (folder / "index.html").read_text()


def test_compare_prints_wilson_paired_difference_and_p(reports):
    out = reports["out"]["compare"]
    assert "95% Wilson CI" in out and "points per game (SE" in out and "per deal (SE" in out
    assert "paired t-test" in out
    row = pl.read_csv(reports["cmp"] / "results.csv").row(0, named=True)
    assert row["games"] == int(GAMES)
    assert math.isclose(row["diff_deal"], row["diff_game"] / 4)


def test_render_skips_clearly_without_chromium(reports, monkeypatch, capsys):
    from analysis.reports import render

    monkeypatch.setattr(render, "find_browser", lambda: None)
    code = render.main(["cmp", "--reports-dir", str(reports["root"] / "reports")])
    assert code == 0
    assert "skipped: no Chromium found" in capsys.readouterr().out


def _browser() -> str:
    """Chromium, or a skip; in CI (env CI set) a missing browser fails the test: .ci/run
    installs it from the distribution's packages."""
    from analysis.reports import render

    browser = render.find_browser()
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set and no Chromium is installed (tried "
                        f"{', '.join(render.BROWSERS)}); .ci/run installs it with apt-get")
        pytest.skip("no Chromium here (apt-get install chromium)")
    return browser


def test_render_writes_a_screenshot_where_chromium_exists(reports):
    """In a real browser every figure of every report loads (the page marks each <img> loaded
    or failed, with its natural width), and the page renders to a screenshot."""
    from analysis.reports import render

    browser = _browser()
    for name in NAMES:
        states = render.figure_states(reports[name] / "index.html", browser=browser)
        manifest = json.loads((reports[name] / "manifest.json").read_text())
        assert [s.src for s in states] == manifest["figures"]
        assert all(s.ok for s in states), (name, [s for s in states if not s.ok])
    png = render.render(reports["cmp"] / "index.html", reports["cmp"] / "index.png",
                        height=900, browser=browser)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_browser_check_sees_a_figure_that_does_not_load(reports, tmp_path):
    from analysis.reports import render

    browser = _browser()
    page = tmp_path / "cmp"
    shutil.copytree(reports["cmp"], page)
    (page / "forest.png").unlink()
    (page / "scores.png").write_bytes(b"not a picture")
    states = {s.src: s for s in render.figure_states(page / "index.html", browser=browser)}
    assert states["forest.png"].state == states["scores.png"].state == "error"
    assert states["deal_length.png"].ok
