"""The site's Comparison page (templates/compare.md.j2): runs beside their baselines, as the Markdown
exporter's views of each comparison."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jinja2

from phpcb.compare.comparison import Comparison
from phpcb.compare.exporters.markdown import ADVICE_HEADING, NO_ADVICE_CHANGE, page_view
from phpcb.presentation import render


def render_page(
    comparisons: Sequence[Comparison], templates: jinja2.Environment, page_depth: int = 0, **context: Any
) -> str:
    """The site's comparison page (templates/compare.md.j2) for these comparisons. `templates` is
    render.environment(...); `page_depth` is how deep the page sits under docs/ (links to the runs'
    files go up that many levels)."""
    return (
        render.markdown_ready(templates)
        .get_template("compare.md.j2")
        .render(
            comparisons=[page_view(c) for c in comparisons],
            runs_prefix="../" * page_depth + "runs/",
            advice_heading=ADVICE_HEADING,
            no_advice_change=NO_ADVICE_CHANGE,
            **context,
        )
    )
