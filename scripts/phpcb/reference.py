"""Reference figures transcribed from the source articles (data/reference/*.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import DataError


def load_reference(path: Path, required: tuple[str, ...] = ("source", "environment", "figures")) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(path, "file missing") from None
    except yaml.YAMLError as error:
        raise DataError(path, f"not valid YAML: {error}") from None
    for key in required:
        if key not in data:
            raise DataError(path, f"expected a top-level {key!r} entry")
    return dict(data)


def figure(reference: dict[str, Any], figure_id: str) -> dict[str, Any]:
    for entry in reference["figures"]:
        if entry["id"] == figure_id:
            return dict(entry)
    raise KeyError(figure_id)
