"""Reports built end to end on small runs: every image the HTML references exists, every
number in summary.md is the number in its CSV table, the manifest names the runs used, and a
report rebuilds from its manifest alone."""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sim.cli.analysis import cli
from sim.runs.storage import Run
from tests.pagecheck import HEIGHT, WIDTH, browser, layout

GAMES = "24"
POSITIONS = 120  # branched positions per rule set and player in the hold-wild report
SEARCH_POSITIONS = 3  # of those, positions the search player is asked about, per rule set
PLAYERS = ("tuned", "cautious")  # fast ones: the default learned player is tested elsewhere
# The hold-wild report asks two of the six profiles (one of partners, one of individual play:
# its cost is the number of comparisons); that the default asks all six is tested below
# without playing them.
ASKED = ("standard", "simpson")


def _rules(profiles: tuple[str, ...]) -> list[str]:
    return [arg for profile in profiles for arg in ("--rules", profile)]


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
           "ask": handfoot("ask", "hold-wild", *_rules(ASKED), "--positions", str(POSITIONS),
                           "--player", *PLAYERS[:1], "--player", *PLAYERS[1:], "--search-positions",
                           str(SEARCH_POSITIONS), *dirs)}
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
                # a number too few positions (or games) give is shown as n/a
                missing = [v is None or math.isnan(float(v)) for v in values]
                assert cell.count("n/a") == sum(missing), (cell, column)
                values = [v for v, m in zip(values, missing, strict=True) if not m]
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


def _groups(profiles: tuple[str, ...] = ASKED) -> list[str]:
    """The report's groups, in its order: each profile asked, each player."""
    return [f"{profile}, {player}" for profile in profiles for player in PLAYERS]


def test_ask_hold_wild_prints_a_verdict_built_from_its_table(reports):
    out = reports["out"]["ask"]
    table = pl.read_csv(reports["hold-wild"] / "results.csv")
    groups = table["group"].unique(maintain_order=True).to_list()
    assert table.height == 3 * len(_groups()) and groups == _groups()
    assert table.filter(pl.col("group") == "simpson, tuned")["teams"].to_list() == [4, 4, 4]
    first = out.splitlines()[2]
    assert first.split(".")[0] in ("Yes", "No", "It depends on the rules", "Cannot tell yet",
                                   "Yes, in part")
    summary = (reports["hold-wild"] / "summary.md").read_text()
    assert f"**{first}**" in summary
    assert "How sure:" in out and "reports" in out and "hold-wild" in out
    assert (reports["hold-wild"] / "sweep.png").is_file()


def test_ask_hold_wild_asks_all_six_profiles_by_default(tmp_path, monkeypatch):
    """With no --rules the question is put to every profile, each with every player: the
    comparisons handed to play (stopped there: the fixture above plays two profiles)."""
    from analysis.experiments import playing
    from sim.core.profiles import PROFILES

    handed = []

    def stop(pairings, *args, **kwargs):
        handed.extend(pairings)
        raise KeyboardInterrupt

    monkeypatch.setattr(playing, "play_pairs", stop)
    result = CliRunner().invoke(cli, ["ask", "hold-wild", "--player", "tuned", "--player",
                                      "cautious", "--runs-dir", str(tmp_path)])
    assert result.exit_code != 0 and "Aborted" in result.output, result.output  # stopped
    groups = _groups(tuple(PROFILES))
    assert list(dict.fromkeys(p.group for p in handed)) == groups
    assert len(handed) == 3 * len(groups) and len(PROFILES) == 6


def test_ask_hold_wild_names_the_players_and_how_far_it_holds(reports):
    from analysis.reports.reach import DEPENDS, MIXED, kind_of

    out = reports["out"]["ask"]
    table = pl.read_csv(reports["hold-wild"] / "results.csv")
    for profile in ASKED:
        for player in PLAYERS:
            group = f"{profile}, {player}"
            assert f"Under {group}, against holding none" in out
            assert f"Decision by decision under {group}" in out
            rows = table.filter(pl.col("group") == group)
            assert set(rows["b"]) == {f"{player} hold 0"}
            assert set(rows["a"]) == {f"{player} hold {v}" for v in (1, 2, 3)}
    lines = out.splitlines()
    assert lines[3].startswith("How far it holds, whoever the strong player: ")
    labels = re.findall(r"wilds? back: (.+?) \((?:tuned|cautious) [+-]", lines[3])
    assert len(labels) == 3 * len(ASKED)
    assert all(kind_of(label) == MIXED for label in set(labels) - {
        "pays for every strong player measured", "costs for every strong player measured",
        "no measurable difference for any strong player measured", DEPENDS}), labels
    assert lines[4].startswith("The strong players asked: tuned (chosen with --player)")


def test_ask_hold_wild_has_the_decision_level_section(reports):
    folder = reports["hold-wild"]
    manifest = json.loads((folder / "manifest.json").read_text())
    table = pl.read_csv(folder / "holding.csv")
    overall = table.filter(pl.col("situation") == "all decisions")
    assert overall["group"].to_list() == _groups()
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


def test_ask_hold_wild_shows_the_search_choice_at_the_branched_positions(reports):
    folder = reports["hold-wild"]
    manifest = json.loads((folder / "manifest.json").read_text())
    assert len(manifest["params"]["search_choices"]) == len(ASKED)
    choices = pl.read_csv(folder / "search_choices.csv")
    overall = choices.filter(pl.col("case") == "all")
    # the search is asked at the first player's positions, each matched to a branched one
    assert overall["group"].to_list() == [f"{p}, {PLAYERS[0]}" for p in ASKED]
    assert (overall["positions"] <= SEARCH_POSITIONS).all() and \
        (overall["positions"] >= 1).all()
    assert ((overall["holds_low"] <= overall["search_holds"]) |
            overall["holds_low"].is_null()).all()
    assert (overall["search_holds_all"] <= overall["search_holds"]).all()
    out = reports["out"]["ask"]
    assert out.count("The search's own choice under ") == len(ASKED)
    assert "## Decision by decision: what the search would meld there" in \
        (folder / "summary.md").read_text()


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


_browser = browser  # Chromium, or a skip (a failure in CI): tests.pagecheck


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


@pytest.mark.parametrize("name", NAMES)
def test_every_report_reads_verdict_first(reports, name):
    """The question, the verdict box, the kind's lead figure, the summary tables; then the
    other figures, the method, the runs; a table longer than 12 rows folded (open in the
    summary)."""
    folder = reports[name]
    page = (folder / "index.html").read_text()
    manifest = json.loads((folder / "manifest.json").read_text())
    first = manifest["summary_tables"][0]["csv"]
    at = [page.index(s) for s in ("<em>Question:</em>", "<div class='answer' id='verdict'>",
                                  f"<img src='{manifest['figures'][0]}'",
                                  f"<a href='{first}'>", "<h2>Figures</h2>",
                                  f"<img src='{manifest['figures'][1]}'", "<h2>Method</h2>",
                                  "<h2>Runs used</h2>")]
    assert at == sorted(at), at
    sections = {chunk.split("Data: <a href='")[1].split("'")[0]: chunk
                for chunk in page.split("<h2>") if "Data: <a href='" in chunk}
    for view in manifest["summary_tables"]:
        rows = pl.read_csv(folder / view["csv"], infer_schema_length=None).height
        assert ("<details open>" in sections[view["csv"]]) == (rows > 12), view["csv"]


@pytest.mark.parametrize("name", NAMES)  # compare, sweep, rules-compare, hold-wild
def test_a_report_fits_a_1280_window(reports, name, tmp_path):
    """In Chromium at 1280 x 800: the verdict box is on the first screen, the page is no
    wider than the window, every table sits in its own scrolling box inside the page, with
    its first column sticky (folded tables opened to measure them)."""
    chromium = _browser()
    page = tmp_path / name
    shutil.copytree(reports[name], page)
    seen = layout(page / "index.html", chromium)
    assert 0 <= seen["verdictTop"] < HEIGHT, seen
    assert seen["scrollWidth"] <= min(WIDTH, seen["clientWidth"]), seen
    assert seen["tables"] and seen["images"] >= 4
    for table in seen["tables"]:
        assert table["boxed"] and table["overflow"] == "auto", table
        assert 0 < table["right"] <= WIDTH and table["sticky"] == "sticky", table


def test_ask_hold_wild_states_when_holding_pays_or_that_it_cannot(reports):
    folder = reports["hold-wild"]
    overall = pl.read_csv(folder / "holding.csv").filter(pl.col("situation") == "all decisions")
    out = reports["out"]["ask"]
    # one paragraph per rule set and player, from the held-out tree (analysis.reports.hold_rule)
    assert out.count("When does holding pay, under ") == len(overall)
    rules = folder / "hold_rule.csv"
    if rules.is_file():  # only where a half had positions enough to fit a leaf
        table = pl.read_csv(rules)
        assert set(table["verdict"]) <= {"pays", "costs", "no rule"}
        assert ((table["held_out_low"] <= table["held_out"]) &
                (table["held_out"] <= table["held_out_high"])).all()
    else:
        assert "Too few branched positions to fit and check a rule." in out
