"""The layer contracts (pyproject.toml, import-linter) hold, and reading a run loads no
compiler. The contracts are checked on the real import graph of sim/, strategies/ and
analysis/; a deliberately wrong contract proves the check can fail."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _lint(config: Path) -> subprocess.CompletedProcess:
    lint = Path(sys.executable).with_name("lint-imports")
    return subprocess.run([str(lint), "--config", str(config)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_import_contracts_hold():
    result = _lint(ROOT / "pyproject.toml")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def test_a_broken_contract_is_reported(tmp_path):
    """The kernels do import numpy: a contract forbidding it must be reported as broken."""
    config = tmp_path / "contracts.toml"
    config.write_text(
        '[tool.importlinter]\nroot_packages = ["sim"]\ninclude_external_packages = true\n'
        '[[tool.importlinter.contracts]]\nname = "kernels without numpy"\n'
        'type = "forbidden"\nsource_modules = ["sim.engine"]\n'
        'forbidden_modules = ["numpy"]\n', encoding="utf-8")
    result = _lint(config)
    assert result.returncode != 0 and "BROKEN" in result.stdout


@pytest.mark.parametrize("module", ["sim.runs.storage", "sim.runs.aggregate", "sim.core.rules",
                                    "sim.core.records", "strategies.registry", "sim.cli.main"])
def test_reading_runs_and_rules_does_not_load_numba(module):
    code = (f"import sys; import {module}; "
            "sys.exit(1 if 'numba' in sys.modules else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


def test_playing_does_load_numba():
    """The check above can fail: importing the compiled loop does load numba."""
    code = "import sys; import sim.play.loop; sys.exit(1 if 'numba' in sys.modules else 0)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 1
