"""Shared helpers for the report page tests: headless Chromium (analysis.reports.render finds
it), or a skip where there is none; the layout of a page as a 1280 x 800 browser window lays
it out; the number of pages a page prints on."""

from __future__ import annotations

import json
import os
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

WIDTH, HEIGHT = 1280, 800

# Injected into a copy of a page: after load, it measures the page as laid out (every folded
# table opened first, so its box is laid out too) and writes the numbers into the DOM.
_MEASURE = """
<script>
window.addEventListener('load', function () {
  var folded = document.querySelectorAll('details').length;
  var openAtFirst = document.querySelectorAll('details[open]').length;
  var verdict = document.getElementById('verdict');
  var verdictTop = verdict ? verdict.getBoundingClientRect().top + window.scrollY : -1;
  document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  var tables = Array.from(document.querySelectorAll('table')).map(function (t) {
    var box = t.parentElement, style = getComputedStyle(box);
    var first = t.querySelector('tr > :first-child');
    return {right: box.getBoundingClientRect().right, overflow: style.overflowX,
            boxed: box.classList.contains('scroll'),
            sticky: first ? getComputedStyle(first).position : ''};
  });
  var html = document.documentElement;
  document.body.dataset.layout = JSON.stringify({
    verdictTop: verdictTop, scrollWidth: html.scrollWidth, clientWidth: html.clientWidth,
    tables: tables, folded: folded, openAtFirst: openAtFirst,
    images: document.querySelectorAll('img').length});
});
</script>
"""


def browser() -> str:
    """Chromium, or a skip; in CI (env CI set) a missing browser fails the test: .ci/run
    installs it from the distribution's packages."""
    from analysis.reports import render

    found = render.find_browser()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set and no Chromium is installed (tried "
                        f"{', '.join(render.BROWSERS)}); .ci/run installs it with apt-get")
        pytest.skip("no Chromium here (apt-get install chromium)")
    return found


class _Body(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.layout: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":
            self.layout = dict(attrs).get("data-layout")


def layout(index: Path, chromium: str, timeout: float = 120) -> dict:
    """What a 1280 x 800 window shows of ``index``: the top of the verdict box (#verdict,
    in page pixels), the page's scroll width, and for every table whether it sits in its own
    scrolling box, the right edge of that box and whether its first column is sticky. Measured
    on a copy beside ``index`` (so its figures load) with a measuring script added."""
    page = index.with_name(".layout-check.html")
    page.write_text(index.read_text(encoding="utf-8").replace("</body>", _MEASURE + "</body>"),
                    encoding="utf-8")
    try:
        done = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--allow-file-access-from-files", "--virtual-time-budget=5000",
             f"--window-size={WIDTH},{HEIGHT}", "--dump-dom", page.resolve().as_uri()],
            capture_output=True, text=True, timeout=timeout)
    finally:
        page.unlink()
    parser = _Body()
    parser.feed(done.stdout)
    assert done.returncode == 0 and parser.layout, (done.returncode, done.stderr[-2000:])
    return json.loads(parser.layout)


def pdf_pages(page: Path, chromium: str, paper: str, timeout: float = 120) -> int:
    """How many ``paper`` sheets (A4, letter) ``page`` prints on: headless Chromium's print to
    PDF (no header or footer) of a copy that asks for that paper, counting the PDF's page
    objects (``/Type /Page``, not ``/Pages``)."""
    copy = page.with_name(f".print-{paper}.html")
    pdf = copy.with_suffix(".pdf")
    copy.write_text(page.read_text(encoding="utf-8").replace(
        "</head>", f"<style>@page {{ size: {paper} }}</style></head>"), encoding="utf-8")
    done = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
         f"--print-to-pdf={pdf.resolve()}", copy.resolve().as_uri()],
        capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0 and pdf.is_file(), done.stderr[-2000:]
    return len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", pdf.read_bytes()))
