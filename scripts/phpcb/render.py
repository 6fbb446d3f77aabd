"""Jinja2 rendering of pages. Autoescaping is on: every value from data is HTML-escaped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from . import formatting, wording


def table_cell(value: object) -> Markup:
    """Escaped for HTML, and '|' too, which would end a Markdown table cell."""
    return Markup(str(escape(str(value))).replace("|", "&#124;"))


def environment(template_dir: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(template_dir),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(
        size=formatting.size,
        rate=formatting.rate,
        duration=formatting.duration,
        percent=formatting.percent,
        count=formatting.count,
        times=wording.times,
        cell=table_cell,
    )
    env.globals.update(
        speedup=wording.speedup, interval=wording.interval, margin=wording.margin, estimate=wording.estimate
    )
    return env


def render(env: jinja2.Environment, template: str, **context: Any) -> str:
    return env.get_template(template).render(**context)
