"""Security policy tables (data/policy/*.yaml): what may be recommended, with references."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .errors import DataError

STATUSES = ("recommended", "acceptable", "not_recommended")


@dataclass(frozen=True)
class Reference:
    key: str
    title: str
    url: str


@dataclass(frozen=True)
class Verdict:
    status: str
    notes: tuple[str, ...]
    references: tuple[Reference, ...]

    @property
    def recommendable(self) -> bool:
        return self.status == "recommended"


@dataclass(frozen=True)
class AeadPolicy:
    references: dict[str, Reference]
    entries: dict[str, dict[str, Any]]
    minimum_tag_bytes: int
    short_tag_note: str
    short_tag_references: tuple[str, ...]

    def verdict(self, algorithm: str, tag_bytes: int) -> Verdict:
        entry = self.entries.get(algorithm)
        if entry is None:
            return Verdict("not_recommended", ("Not in the policy table: never recommended by default.",), ())
        status = entry["status"]
        notes = [entry["note"]]
        refs = list(entry["references"])
        if tag_bytes < self.minimum_tag_bytes:
            status = "acceptable" if status == "recommended" else status
            notes.append(self.short_tag_note)
            refs.extend(self.short_tag_references)
        unique = tuple(dict.fromkeys(refs))
        return Verdict(status, tuple(notes), tuple(self.references[key] for key in unique))


def _read(path: Path) -> tuple[dict[str, Any], dict[str, Reference]]:
    """The YAML document and its reference list."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise DataError(path, f"not valid YAML: {error}") from None
    references = {
        key: Reference(key, str(value["title"]), str(value["url"])) for key, value in data["references"].items()
    }
    return data, references


def _check_entry(path: Path, name: str, entry: dict[str, Any], references: dict[str, Reference]) -> None:
    if entry.get("status") not in STATUSES:
        raise DataError(path, f"{name}: expected status in {STATUSES}, got {entry.get('status')!r}")
    for key in entry.get("references", []):
        if key not in references:
            raise DataError(path, f"{name}: reference {key!r} is not defined under references")


def load_aead_policy(path: Path) -> AeadPolicy:
    data, references = _read(path)
    for name, entry in data["algorithms"].items():
        _check_entry(path, name, entry, references)
    return AeadPolicy(
        references=references,
        entries=data["algorithms"],
        minimum_tag_bytes=int(data["minimum_recommended_tag_bytes"]),
        short_tag_note=str(data["short_tag_note"]),
        short_tag_references=tuple(data["short_tag_references"]),
    )


@dataclass(frozen=True)
class SymmetricPolicy:
    """data/policy/symmetric.yaml: ordered rules matched against a cipher name; first match wins."""

    references: dict[str, Reference]
    rules: tuple[dict[str, Any], ...]
    default: dict[str, Any]
    engines: dict[str, dict[str, Any]]

    def _verdict(self, entry: dict[str, Any]) -> Verdict:
        return Verdict(
            str(entry["status"]),
            (str(entry["reason"]),),
            tuple(self.references[key] for key in entry.get("references", [])),
        )

    def verdict(self, cipher: str) -> Verdict:
        for rule in self.rules:
            if re.search(rule["match"], cipher.lower()):
                return self._verdict(rule)
        return self._verdict(self.default)

    def engine(self, engine: str) -> Verdict | None:
        entry = self.engines.get(engine)
        return None if entry is None else self._verdict(entry)


def load_symmetric_policy(path: Path) -> SymmetricPolicy:
    data, references = _read(path)
    for rule in data["rules"]:
        _check_entry(path, f"rule {rule.get('match')!r}", rule, references)
    _check_entry(path, "default", data["default"], references)
    for name, entry in data["engines"].items():
        _check_entry(path, f"engine {name}", entry, references)
    for rule in data["rules"]:
        try:
            re.compile(rule["match"])
        except re.error as error:
            raise DataError(path, f"rule {rule['match']!r} is not a valid pattern: {error}") from None
    return SymmetricPolicy(references, tuple(data["rules"]), data["default"], data["engines"])


@dataclass(frozen=True)
class KeySchemePolicy:
    """data/policy/ec_keygen.yaml: strength floor first, then the scheme's own entry, its family, the default."""

    references: dict[str, Reference]
    minimum_security_bits: int
    below_minimum: dict[str, Any]
    schemes: dict[str, dict[str, Any]]
    families: dict[str, dict[str, Any]]
    default: dict[str, Any]

    def _verdict(self, entry: dict[str, Any]) -> Verdict:
        return Verdict(
            str(entry["status"]),
            (str(entry["reason"]),),
            tuple(self.references[key] for key in entry.get("references", [])),
        )

    def verdict(self, scheme: str, family: str, security_bits: int) -> Verdict:
        if security_bits < self.minimum_security_bits:
            return self._verdict(self.below_minimum)
        entry = self.schemes.get(scheme) or self.families.get(family) or self.default
        return self._verdict(entry)


def load_key_scheme_policy(path: Path) -> KeySchemePolicy:
    data, references = _read(path)
    _check_entry(path, "below_minimum", data["below_minimum"], references)
    _check_entry(path, "default", data["default"], references)
    for section in ("schemes", "families"):
        for name, entry in data[section].items():
            _check_entry(path, f"{section[:-1]} {name}", entry, references)
    return KeySchemePolicy(
        references=references,
        minimum_security_bits=int(data["minimum_security_bits"]),
        below_minimum=data["below_minimum"],
        schemes=data["schemes"],
        families=data["families"],
        default=data["default"],
    )


@dataclass(frozen=True)
class JwtPolicy:
    """data/policy/jwt.yaml: one entry per JWS algorithm; unknown algorithms are never recommended."""

    references: dict[str, Reference]
    entries: dict[str, dict[str, Any]]

    def verdict(self, algorithm: str) -> Verdict:
        entry = self.entries.get(algorithm)
        if entry is None:
            return Verdict("not_recommended", ("Not in the policy table: never recommended by default.",), ())
        return Verdict(
            str(entry["status"]),
            (str(entry["note"]),),
            tuple(self.references[key] for key in entry["references"]),
        )

    def asymmetric(self, algorithm: str) -> bool:
        return bool(self.entries.get(algorithm, {}).get("asymmetric", False))


def load_jwt_policy(path: Path) -> JwtPolicy:
    data, references = _read(path)
    for name, entry in data["algorithms"].items():
        _check_entry(path, name, entry, references)
    return JwtPolicy(references, data["algorithms"])
