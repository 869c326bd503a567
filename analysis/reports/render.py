"""Render a report's index.html to a PNG with headless Chromium, to see it as a reader would.

``python -m analysis.reports.render NAME`` (``make render-report NAME=...``) writes
``reports/NAME/index.png``. Where no Chromium is installed it says so and exits 0, so the make
target never fails for want of a browser (Debian: ``apt-get install chromium``).
``figure_states`` opens a report the same way and reads back whether every figure loaded (the
report test does, and fails in CI where no browser is installed).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_browser() -> str | None:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def render(index: Path, png: Path, width: int = 1280, height: int = 4200,
           browser: str | None = None, timeout: float = 120) -> Path:
    """Screenshot ``index`` (opened from disk, as a reader would) into ``png``."""
    browser = browser or find_browser()
    if browser is None:
        raise FileNotFoundError("no Chromium found")
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           f"--screenshot={png.resolve()}", f"--window-size={width},{height}",
           index.resolve().as_uri()]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0 or not png.is_file():
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"Chromium failed ({done.returncode}): {tail[0]}")
    return png


class _Images(HTMLParser):
    """Every <img> of a dumped DOM with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.images.append(dict(attrs))


@dataclass(frozen=True)
class FigureState:
    """One <img> of a page as a browser left it: loaded, failed, or never reported."""

    src: str
    state: str  # "loaded", "error" or "pending"
    width: int  # its natural width in pixels (0 unless loaded)

    @property
    def ok(self) -> bool:
        return self.state == "loaded" and self.width > 0


def figure_states(index: Path, browser: str | None = None, wait_ms: int = 10_000,
                  timeout: float = 120) -> list[FigureState]:
    """Open ``index`` from disk in headless Chromium, give its images ``wait_ms`` of
    (virtual) time to load, and read back what each <img> reported: the report's pages mark
    every figure ``data-state`` loaded or error, with its natural width
    (analysis.reports.writer)."""
    browser = browser or find_browser()
    if browser is None:
        raise FileNotFoundError("no Chromium found")
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu",
           "--allow-file-access-from-files", f"--virtual-time-budget={wait_ms}",
           "--dump-dom", index.resolve().as_uri()]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0 or "<html" not in done.stdout:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"Chromium failed ({done.returncode}): {tail[0]}")
    parser = _Images()
    parser.feed(done.stdout)
    out = []
    for attrs in parser.images:
        width = attrs.get("data-width") or "0"
        out.append(FigureState(attrs.get("src") or "", attrs.get("data-state") or "pending",
                               int(width) if width.isdigit() else 0))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis.reports.render", description=__doc__)
    parser.add_argument("name", help="report name (reports/NAME/index.html)")
    parser.add_argument("--reports-dir", type=Path, default=Path("reports"))
    parser.add_argument("--height", type=int, default=4200, help="page height in pixels")
    args = parser.parse_args(argv)
    index = args.reports_dir / args.name / "index.html"
    if not index.is_file():
        print(f"render-report: error: {index} does not exist (build it first, e.g. "
              "`handfoot ask hold-wild`)", file=sys.stderr)
        return 2
    if find_browser() is None:
        print("render-report: skipped: no Chromium found (tried "
              f"{', '.join(BROWSERS)}); on Debian: apt-get install chromium")
        return 0
    try:
        png = render(index, index.with_name("index.png"), height=args.height)
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        print(f"render-report: error: {exc}", file=sys.stderr)
        return 1
    print(f"render-report: wrote {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
