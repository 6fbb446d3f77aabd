"""Reference figures transcribed from the source articles (data/reference/*.yaml).

Pages and templates read a reference as a mapping (`reference.source.title`); code asks for a
figure or a section by name, and a missing one is a DataError naming the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from phpcb.data.datafile import YamlFile
from phpcb.errors import DataError

REQUIRED = ("source", "environment", "figures")


class ReferenceData(dict[str, Any]):
    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        super().__init__(data)
        self.path = path

    def section(self, key: str) -> Any:
        if key not in self:
            raise DataError(self.path, f"expected a top-level {key!r} entry")
        return self[key]

    def _entry(self, section: str, entry_id: str) -> dict[str, Any]:
        for entry in self.section(section):
            if isinstance(entry, dict) and entry.get("id") == entry_id:
                return entry
        raise DataError(self.path, f"{section}: expected an entry with id {entry_id!r}")

    def figure(self, figure_id: str) -> dict[str, Any]:
        return dict(self._entry("figures", figure_id))

    def rows(self, figure_id: str) -> list[dict[str, Any]]:
        figure = self.figure(figure_id)
        if not isinstance(figure.get("rows"), list):
            raise DataError(self.path, f"figures/{figure_id}: expected a 'rows' list")
        return list(figure["rows"])


def load_reference(path: Path, required: tuple[str, ...] = REQUIRED) -> ReferenceData:
    document = YamlFile.load(path)
    for key in required:
        if key not in document.data:
            raise DataError(path, f"expected a top-level {key!r} entry")
    return ReferenceData(path, document.data)
