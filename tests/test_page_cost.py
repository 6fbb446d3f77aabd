"""tests/page_cost.py (make page-cost): a site that is not built is refused in one line naming it, and the
table's last line sums each column of the pages above it. Opening the pages is the browser tests' code
(tests/browser_support.py), which they test."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import page_cost


def test_a_site_that_is_not_built_is_refused_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        page_cost.arguments([str(tmp_path)])
    assert stopped.value.code == 2
    assert f"{tmp_path}: no index.html; build the site first (make site)" in capsys.readouterr().err


def test_the_last_line_sums_each_column() -> None:
    rows = [("light", "runs/", [0.5, 0.25, 0.125, 0.0625]), ("phone-dark", "(home)", [1.0, 0.5, 0.25, 2.0])]
    lines = page_cost.table(rows).splitlines()
    assert lines[0].split("\t") == ["reading", "page", "main thread s", "script s", "layout s", "style s"]
    assert lines[1] == "light\truns/\t0.50\t0.25\t0.12\t0.06"
    assert lines[-1] == "all\tall\t1.50\t0.75\t0.38\t2.06"
