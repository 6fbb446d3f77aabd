"""Exporters of a comparison, one module per format (as hyperfine's exporters): each turns a
`comparison.Comparison` into the text of its format; the CLI picks one by name."""

from __future__ import annotations

from typing import Protocol

from phpcb.compare.comparison import Comparison, ComparisonError
from phpcb.compare.exporters.json_export import JsonExporter
from phpcb.compare.exporters.markdown import MarkdownExporter


class Exporter(Protocol):
    name: str

    def serialize(self, comparison: Comparison) -> str: ...


EXPORTERS: dict[str, Exporter] = {exporter.name: exporter for exporter in (MarkdownExporter(), JsonExporter())}
FORMATS = tuple(EXPORTERS)


def exporter(name: str) -> Exporter:
    try:
        return EXPORTERS[name]
    except KeyError:
        raise ComparisonError(f"unknown format {name!r}: expected one of {', '.join(FORMATS)}") from None
