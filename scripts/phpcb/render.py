"""Jinja2 rendering of Markdown pages. Every value from data is escaped twice over: for HTML (Jinja's
autoescaping) and for Markdown (`finalize`), so text such as `[x](javascript:…)`, `*a*{ onclick=… }`
or a line break followed by `# heading` reaches the reader as the characters it holds."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from . import formatting, wording

# Characters that give text a meaning in Markdown (as configured in mkdocs.yml: emphasis, code,
# links and images, attribute lists, table cells, escapes) or start a new block (a line break).
# As numeric character references they are plain text to Markdown and the same characters in HTML.
MARKDOWN_SPECIAL = {char: f"&#{ord(char)};" for char in "\\`*[]{}|\n\r"}
_MARKDOWN_SPECIAL = str.maketrans(MARKDOWN_SPECIAL)
# An underscore opens or closes emphasis only at a word's edge (`__DIR__` showed as a bold DIR); inside
# a word (`openssl_pkey_new`) Markdown leaves it alone, and so does this.
_EDGE_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")


def markdown_text(value: object) -> Markup:
    """Text from data, escaped for HTML and for Markdown: it shows as the characters it holds."""
    escaped = str(escape(str(value))).translate(_MARKDOWN_SPECIAL)
    return Markup(_EDGE_UNDERSCORE.sub("&#95;", escaped))


def table_cell(value: object) -> Markup:
    """Escaped for HTML, and '|' too, which would end a Markdown table cell: for text that is
    already Markdown (the comparison exporters')."""
    return Markup(str(escape(str(value))).replace("|", "&#124;"))


def code(value: object) -> Markup:
    """Text from data as inline code: `<code>` rather than backticks, in which the escapes would show."""
    return Markup("<code>{}</code>").format(markdown_text(value))


def finalize(value: Any) -> Any:
    """Every `{{ value }}`: text that is not already Markup is escaped for Markdown too."""
    if isinstance(value, Markup) or value is None or isinstance(value, int | float):
        return value
    return markdown_text(value)


def markdown_ready(env: jinja2.Environment) -> jinja2.Environment:
    """`env` for a page whose context is already Markdown-escaped (the Comparison page): HTML
    escaping only, so its Markdown keeps its meaning."""
    ready = env.overlay(finalize=None, cache_size=0)
    ready.filters = {**env.filters, "cell": table_cell}
    return ready


def environment(template_dir: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(template_dir),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=finalize,
    )
    env.filters.update(
        size=formatting.size,
        spread=formatting.spread,
        time_spread=formatting.time_spread,
        time_ci=formatting.time_ci,
        duration_interval=formatting.duration_interval,
        rate=formatting.rate,
        duration=formatting.duration,
        signed_duration=formatting.signed_duration,
        percent=formatting.percent,
        plus_minus=formatting.plus_minus,
        count=formatting.count,
        times=wording.times,
        cell=markdown_text,
        code=code,
    )
    env.globals.update(
        rate_spread=formatting.rate_spread,
        rate_ci=formatting.rate_ci,
        value_ci=formatting.value_ci,
        speedup=wording.speedup,
        interval=wording.interval,
        margin=wording.margin,
        estimate=wording.estimate,
        share=wording.share,
        overhead=wording.overhead,
    )
    return env


def render(env: jinja2.Environment, template: str, **context: Any) -> str:
    return env.get_template(template).render(**context)
