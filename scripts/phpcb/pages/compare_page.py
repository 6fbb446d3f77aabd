"""The site's Comparison page (templates/compare.md.j2): runs beside their baselines, as the Markdown
exporter's views of each comparison."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jinja2
from markupsafe import Markup

from phpcb.compare.comparison import Comparison
from phpcb.compare.exporters.markdown import ADVICE_HEADING, NO_ADVICE_CHANGE, page_view
from phpcb.data.loader import MANIFEST
from phpcb.experiments.contexts import IN_SITE
from phpcb.presentation import render
from phpcb.presentation.downloads import RunFiles

PAGE = "compare.md"  # only when PHPCB_COMPARE names runs


def render_page(
    comparisons: Sequence[Comparison],
    templates: jinja2.Environment,
    page: str = PAGE,
    run_files: RunFiles = IN_SITE,
    **context: Any,
) -> str:
    """The site's comparison page (templates/compare.md.j2) for these comparisons. `templates` is
    render.environment(...); `page` is the page's path under docs/ and `run_files` where the runs'
    files are published (the links to their manifests start from both)."""

    def manifest_link(run_id: str) -> Markup:
        return run_files.link(page, run_id, MANIFEST, run_id)

    return (
        render.markdown_ready(templates)
        .get_template("compare.md.j2")
        .render(
            comparisons=[page_view(c) for c in comparisons],
            manifest_link=manifest_link,
            advice_heading=ADVICE_HEADING,
            no_advice_change=NO_ADVICE_CHANGE,
            **context,
        )
    )
