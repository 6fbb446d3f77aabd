"""Data files read with checks: JSON (manifests, schemas) and YAML (policy, reference). A file that
cannot be read, or a missing or mistyped entry, is a DataError naming the file and the entry, never
a KeyError from deep inside the build."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from phpcb.errors import DataError

# libyaml's loader where PyYAML was built with it (the wheels are): the same documents, ten times faster.
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# Documents already parsed, by their text: a build reads each policy and reference file several times,
# and a test process builds many sites from the same files. Each caller gets its own copy.
_PARSED: dict[str, Any] = {}


def _parse(text: str) -> Any:
    if text not in _PARSED:
        _PARSED[text] = yaml.load(text, Loader=SAFE_LOADER)
    return copy.deepcopy(_PARSED[text])


def read_bytes(path: Path, error: type[DataError] = DataError) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise error(path, "file missing") from None


def read_json(path: Path, error: type[DataError] = DataError) -> Any:
    return parse_json(path, read_bytes(path, error), error)


def parse_json(path: Path, data: bytes, error: type[DataError] = DataError) -> Any:
    """The JSON document in `data`, the bytes of the file at `path`, read as read_text reads a file
    (universal newlines), so that an error names the same line and column."""
    try:
        text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        return json.loads(text)
    except json.JSONDecodeError as problem:
        raise error(path, f"not valid JSON: {problem.msg} (line {problem.lineno}, column {problem.colno})") from None
    except UnicodeDecodeError:
        raise error(path, "not UTF-8") from None


@dataclass(frozen=True)
class YamlFile:
    path: Path
    data: dict[str, Any]

    @classmethod
    def load(cls, path: Path) -> YamlFile:
        try:
            data = _parse(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise DataError(path, "file missing") from None
        except UnicodeDecodeError:
            raise DataError(path, "not UTF-8") from None
        except yaml.YAMLError as error:
            raise DataError(path, f"not valid YAML: {error}") from None
        if not isinstance(data, dict):
            raise DataError(path, f"expected a mapping at the top level, got {type(data).__name__}")
        return cls(path, data)

    def _get(self, mapping: dict[str, Any], key: str, where: str, kind: type | tuple[type, ...], label: str) -> Any:
        if key not in mapping:
            raise DataError(self.path, f"{where}: expected a {key!r} entry")
        value = mapping[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise DataError(self.path, f"{where}: expected {key!r} to be {label}, got {value!r}")
        return value

    def expect_mapping(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise DataError(self.path, f"{where}: expected a mapping, got {value!r}")
        return value

    def mapping(self, mapping: dict[str, Any], key: str, where: str) -> dict[str, Any]:
        return dict(self._get(mapping, key, where, dict, "a mapping"))

    def sequence(self, mapping: dict[str, Any], key: str, where: str) -> list[Any]:
        return list(self._get(mapping, key, where, list, "a list"))

    def text(self, mapping: dict[str, Any], key: str, where: str) -> str:
        return str(self._get(mapping, key, where, str, "text"))

    def integer(self, mapping: dict[str, Any], key: str, where: str) -> int:
        return int(self._get(mapping, key, where, int, "an integer"))
