"""Reference figures transcribed from the source articles (data/reference/*.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import DataError


def load_reference(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(path, "file missing") from None
    except yaml.YAMLError as error:
        raise DataError(path, f"not valid YAML: {error}") from None
    for required in ("source", "environment", "figures"):
        if required not in data:
            raise DataError(path, f"expected a top-level {required!r} entry")
    return dict(data)


def figure(reference: dict[str, Any], figure_id: str) -> dict[str, Any]:
    for entry in reference["figures"]:
        if entry["id"] == figure_id:
            return dict(entry)
    raise KeyError(figure_id)
