"""Report kinds are one table (analysis.reports.kinds) that the commands and ``handfoot report``
both read, adding a kind is one module plus one entry, and rebuilding a report from its runs
loads no compiled code: not numba, not the engine, not the game loop, not the runner."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from analysis.reports import kinds
from analysis.reports.build import build_and_write, load_manifest
from analysis.reports.content import ReportError
from sim.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
COMPILED = ("numba", "sim.engine", "sim.play", "sim.runs.runner")
LOADED = ("import sys\n"
          "bad = sorted(m for m in sys.modules if m in {compiled} or "
          "m.startswith(tuple(c + '.' for c in {compiled})))\n"
          "print('LOADED', bad)\n")


def _loaded(code: str) -> list[str]:
    """The compiled modules a fresh interpreter holds after running ``code``."""
    result = subprocess.run([sys.executable, "-c", code + LOADED.format(compiled=COMPILED)],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    line = [x for x in result.stdout.splitlines() if x.startswith("LOADED ")][-1]
    return ast.literal_eval(line.removeprefix("LOADED "))


def handfoot(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> Path:
    """Two small reports made by their commands (which play: the engine runs here): a
    comparison, and hold-wild, whose decision-by-decision section came from the engine."""
    root = tmp_path_factory.mktemp("registry")
    dirs = ["--runs-dir", str(root / "runs"), "--reports-dir", str(root / "reports"),
            "--jobs", "1", "--games", "8"]
    handfoot("compare", "tactician", "greedy", "--report", "cmp", *dirs)
    handfoot("ask", "hold-wild", "--rules", "standard", "--positions", "40", "--player",
             "tuned", "--player", "cautious", "--search-positions", "4",
             *dirs)  # the search's choices too, at a few positions
    assert (root / "reports" / "hold-wild" / "search_choices.csv").is_file()
    return root / "reports"


@pytest.mark.parametrize("name", ["cmp", "hold-wild"])
def test_rebuilding_a_report_loads_no_compiled_code(reports, name):
    before = (reports / name / "summary.md").read_text(encoding="utf-8")
    code = ("from sim.cli.main import main\n"
            f"main(['report', {name!r}, '--reports-dir', {str(reports)!r}])\n")
    assert _loaded(code) == []
    after = (reports / name / "summary.md").read_text(encoding="utf-8")
    strip = re.compile(r"^Report `.*$", re.MULTILINE)  # the line with the creation time
    assert strip.sub("", after) == strip.sub("", before)


def test_no_report_kind_module_loads_compiled_code():
    """Every kind in the table, imported as rebuilding imports it, with the machinery."""
    code = ("import importlib\n"
            "from analysis.reports import build, kinds, writer\n"
            "for k in kinds.KINDS.values():\n"
            "    importlib.import_module(k.module).build\n")
    assert _loaded(code) == []


def test_the_check_can_fail():
    """A module that drives the engine does load compiled code, and the check sees it."""
    assert "numba" in _loaded("import analysis.experiments.holding\n")


def test_every_kind_is_one_module_named_after_its_command():
    for name, kind in kinds.KINDS.items():
        assert kind.name == name
        assert kind.module == f"analysis.reports.{name.replace('-', '_')}"
        assert kind.command.startswith("handfoot ") and name in kind.command
        assert callable(kind.builder())


def test_every_builder_in_the_reports_is_in_the_table():
    """A module of analysis/reports with a report builder and no entry would be a kind that
    ``handfoot report`` cannot rebuild."""
    builders = {f"analysis.reports.{p.stem}" for p in (ROOT / "analysis" / "reports").glob("*.py")
                if re.search(r"^def build\(pairs", p.read_text(encoding="utf-8"), re.MULTILINE)}
    assert builders == {k.module for k in kinds.KINDS.values()}


def test_the_cli_and_rebuild_list_the_kinds_of_the_table(tmp_path):
    shown = " ".join(handfoot("report", "--help").split())
    missing = f"no report 'nothing' in {tmp_path}"
    with pytest.raises(ReportError, match=re.escape(missing)) as error:
        load_manifest(tmp_path, "nothing")
    for kind in kinds.KINDS.values():
        assert kind.command in shown
        assert kind.command in str(error.value)
    with pytest.raises(ReportError, match="unknown report kind 'nope'.*compare, sweep"):
        kinds.kind("nope")


TOY = '''
import polars as pl

from analysis.reports.content import Content, Section
from analysis.reports.fmt import View, col


def build(pairs, params, out):
    table = pl.DataFrame({"n": list(range(params["count"]))})
    return Content(title="Toy report", question="How many?", answer=[f"{table.height} rows."],
                   sections=[Section("Rows", View("toy.csv", (col("n", "int", "n"),)))],
                   tables={"toy.csv": table})
'''


def test_adding_a_kind_is_one_module_and_one_entry(tmp_path, monkeypatch):
    (tmp_path / "toy_kind.py").write_text(TOY, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(kinds.KINDS, "toy", kinds.Kind("toy", "toy_kind", "handfoot toy"))
    reports = tmp_path / "reports"
    content, path = build_and_write("toy", [], {"count": 3}, reports, "t")
    assert content.kind == "toy" and (path / "toy.csv").is_file()
    out = handfoot("report", "t", "--reports-dir", str(reports))
    assert "Toy report" in out and "3 rows." in out
    assert pl.read_csv(path / "toy.csv")["n"].to_list() == [0, 1, 2]
    with pytest.raises(ReportError, match="handfoot toy"):
        load_manifest(reports, "missing")
