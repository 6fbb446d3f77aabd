"""CI runs the README's two commands, in the README's order, in one checkout (issue 48): a user's own run under
data/runs/ (what `make report` leaves) must not fail `make test`."""

from __future__ import annotations

import re

from .conftest import ROOT


def readme_commands() -> list[str]:
    block = re.search(r"## The two commands\n.*?```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert block is not None, "the README has a 'The two commands' section with a sh block"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_the_readme_names_report_then_test():
    assert readme_commands() == ["make report", "make test"]


def test_ci_runs_the_readmes_commands_in_its_order():
    steps = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    commands = [line for line in steps if line.startswith("make ")]
    assert commands == readme_commands()
    assert "set -euo pipefail" in steps, "a failing step fails CI"
