"""Security policy tables (data/policy/*.yaml): what may be recommended, with references.

Every verdict the site prints comes from these files, applied here once. A malformed file stops
the build with a DataError naming the file and the entry at fault.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .datafile import YamlFile
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
class Fact:
    """Something true of the software, with why and where it is written (e.g. which CCM tag lengths exist)."""

    value: Any
    reason: str
    references: tuple[Reference, ...]


UNLISTED = Verdict("not_recommended", ("Not in the policy table: never recommended by default.",), ())


class _Policy:
    """A policy file: its reference list, and entries that each carry a status, a reason and references."""

    def __init__(self, path: Path) -> None:
        self.file = YamlFile.load(path)
        self.references: dict[str, Reference] = {}
        for key, value in self.file.mapping(self.file.data, "references", "(top level)").items():
            entry = self.file.expect_mapping(value, f"references/{key}")
            where = f"references/{key}"
            self.references[key] = Reference(
                key, self.file.text(entry, "title", where), self.file.text(entry, "url", where)
            )

    def verdict(self, entry: Any, where: str, reason_key: str = "reason") -> Verdict:
        """An entry `{status, reason, references}` checked and turned into a Verdict."""
        entry = self.file.expect_mapping(entry, where)
        status = self.file.text(entry, "status", where)
        if status not in STATUSES:
            raise DataError(self.file.path, f"{where}: expected status in {STATUSES}, got {status!r}")
        keys = self.file.sequence(entry, "references", where) if "references" in entry else []
        for key in keys:
            if key not in self.references:
                raise DataError(self.file.path, f"{where}: reference {key!r} is not defined under references")
        return Verdict(status, (self.file.text(entry, reason_key, where),), tuple(self.references[k] for k in keys))

    def facts(self) -> dict[str, Fact]:
        """The optional `facts` section: `{value, reason, references}` per name."""
        found = {}
        if "facts" not in self.file.data:
            return found
        for name, value in self.file.mapping(self.file.data, "facts", "(top level)").items():
            where = f"facts/{name}"
            entry = self.file.expect_mapping(value, where)
            if "value" not in entry:
                raise DataError(self.file.path, f"{where}: expected a 'value' entry")
            keys = self.file.sequence(entry, "references", where)
            unknown = [key for key in keys if key not in self.references]
            if unknown:
                raise DataError(self.file.path, f"{where}: references {unknown} are not defined under references")
            references = tuple(self.references[k] for k in keys)
            found[name] = Fact(entry["value"], self.file.text(entry, "reason", where), references)
        return found


def load_verdicts(path: Path, section: str) -> dict[str, Verdict]:
    """A policy that is one table of `{status, reason, references}` entries under `section`."""
    policy = _Policy(path)
    entries = policy.file.mapping(policy.file.data, section, "(top level)")
    return {name: policy.verdict(entry, f"{section}/{name}") for name, entry in entries.items()}


@dataclass(frozen=True)
class AeadPolicy:
    verdicts: dict[str, Verdict]
    minimum_tag_bytes: int
    short_tag: Verdict
    facts: dict[str, Fact]

    def verdict(self, algorithm: str, tag_bytes: int) -> Verdict:
        base = self.verdicts.get(algorithm)
        if base is None:
            return UNLISTED
        if tag_bytes >= self.minimum_tag_bytes:
            return base
        status = "acceptable" if base.status == "recommended" else base.status
        references = tuple(dict.fromkeys((*base.references, *self.short_tag.references)))
        return Verdict(status, (*base.notes, *self.short_tag.notes), references)


def load_aead_policy(path: Path) -> AeadPolicy:
    policy = _Policy(path)
    data = policy.file.data
    algorithms = policy.file.mapping(data, "algorithms", "(top level)")
    short_tag_keys = policy.file.sequence(data, "short_tag_references", "(top level)")
    short_tag = policy.verdict(
        {
            "status": "acceptable",
            "note": policy.file.text(data, "short_tag_note", "(top level)"),
            "references": short_tag_keys,
        },
        "short_tag_note",
        reason_key="note",
    )
    return AeadPolicy(
        verdicts={name: policy.verdict(entry, f"algorithms/{name}", "note") for name, entry in algorithms.items()},
        minimum_tag_bytes=policy.file.integer(data, "minimum_recommended_tag_bytes", "(top level)"),
        short_tag=short_tag,
        facts=policy.facts(),
    )


@dataclass(frozen=True)
class SymmetricPolicy:
    """data/policy/symmetric.yaml: ordered rules matched against a cipher name; first match wins."""

    rules: tuple[tuple[re.Pattern[str], Verdict], ...]
    default: Verdict
    engines: dict[str, Verdict]
    tie_break: tuple[tuple[re.Pattern[str], str], ...] = ()

    def verdict(self, cipher: str) -> Verdict:
        for pattern, verdict in self.rules:
            if pattern.search(cipher.lower()):
                return verdict
        return self.default

    def preference(self, cipher: str) -> tuple[int, str]:
        """Where `cipher` stands among ciphers that tie on speed (lower first), and why."""
        for rank, (pattern, why) in enumerate(self.tie_break):
            if pattern.search(cipher.lower()):
                return rank, why
        return len(self.tie_break), "not in the policy's tie-break order"

    def engine(self, engine: str) -> Verdict | None:
        return self.engines.get(engine)


def _pattern(policy: _Policy, entry: Any, where: str) -> re.Pattern[str]:
    match = policy.file.text(policy.file.expect_mapping(entry, where), "match", where)
    try:
        return re.compile(match)
    except re.error as error:
        raise DataError(policy.file.path, f"{where}: {match!r} is not a valid pattern: {error}") from None


def load_symmetric_policy(path: Path) -> SymmetricPolicy:
    policy = _Policy(path)
    data = policy.file.data
    rules = []
    for index, rule in enumerate(policy.file.sequence(data, "rules", "(top level)")):
        pattern = _pattern(policy, rule, f"rules/{index}")
        rules.append((pattern, policy.verdict(rule, f"rules/{index} ({pattern.pattern})")))
    tie_break = []
    for index, entry in enumerate(
        policy.file.sequence(data, "tie_break", "(top level)") if "tie_break" in data else []
    ):
        where = f"tie_break/{index}"
        tie_break.append((_pattern(policy, entry, where), policy.file.text(entry, "why", where)))
    engines = policy.file.mapping(data, "engines", "(top level)")
    return SymmetricPolicy(
        rules=tuple(rules),
        default=policy.verdict(data.get("default"), "default"),
        engines={name: policy.verdict(entry, f"engines/{name}") for name, entry in engines.items()},
        tie_break=tuple(tie_break),
    )


@dataclass(frozen=True)
class KeySchemePolicy:
    """data/policy/keys.yaml, the one table of public-key verdicts: strength floor first, then the
    scheme's own entry, its family, the default."""

    minimum_security_bits: int
    below_minimum: Verdict
    schemes: dict[str, Verdict]
    families: dict[str, Verdict]
    default: Verdict

    def verdict(self, scheme: str, family: str, security_bits: int) -> Verdict:
        if security_bits < self.minimum_security_bits:
            return self.below_minimum
        return self.schemes.get(scheme) or self.families.get(family) or self.default

    def named(self, scheme: str) -> Verdict:
        """A key the table names (RSA-2048, prime256v1, Ed25519); any other is never recommended."""
        return self.schemes.get(scheme, self.default)


def _shared_table(path: Path) -> Path:
    """The key table an experiment's policy points to with `keys: FILE` (next to it)."""
    file = YamlFile.load(path)
    name = file.text(file.data, "keys", "(top level)")
    target = path.parent / name
    if Path(name).name != name or not target.is_file():
        raise DataError(path, f"keys: expected the name of a policy file next to this one, got {name!r}")
    return target


def load_key_scheme_policy(path: Path) -> KeySchemePolicy:
    """An experiment's policy that names the shared key table (`keys: keys.yaml`), or that table itself."""
    if "keys" in YamlFile.load(path).data:
        path = _shared_table(path)
    policy = _Policy(path)
    data = policy.file.data

    def section(name: str) -> dict[str, Verdict]:
        entries = policy.file.mapping(data, name, "(top level)")
        return {key: policy.verdict(entry, f"{name}/{key}") for key, entry in entries.items()}

    return KeySchemePolicy(
        minimum_security_bits=policy.file.integer(data, "minimum_security_bits", "(top level)"),
        below_minimum=policy.verdict(data.get("below_minimum"), "below_minimum"),
        schemes=section("schemes"),
        families=section("families"),
        default=policy.verdict(data.get("default"), "default"),
    )


@dataclass(frozen=True)
class JwtPolicy:
    """data/policy/jwt.yaml: one entry per JWS algorithm; unknown algorithms are never recommended."""

    verdicts: dict[str, Verdict]
    asymmetric_algorithms: frozenset[str]
    limits: dict[str, Fact]
    keys: KeySchemePolicy

    @property
    def limit_bytes(self) -> dict[str, int]:
        """The size limits a token is drawn against: {"cookie_bytes": 4096, "header_bytes": 8192}."""
        return {name: int(fact.value) for name, fact in self.limits.items()}

    def verdict(self, algorithm: str) -> Verdict:
        return self.verdicts.get(algorithm, UNLISTED)

    def asymmetric(self, algorithm: str) -> bool:
        return algorithm in self.asymmetric_algorithms

    def with_key(self, algorithm: str, key: str | None) -> Verdict:
        """The algorithm's verdict joined with its key's, from the shared key table (None: an HMAC
        secret, which that table does not judge): the stricter status, both reasons."""
        own = self.verdict(algorithm)
        if key is None:
            return own
        of_key = self.keys.named(key)
        status = max(own.status, of_key.status, key=STATUSES.index)
        # The key's reason verbatim (it names the key): the same words as on every page that names it.
        notes = own.notes + of_key.notes
        references = own.references + tuple(r for r in of_key.references if r not in own.references)
        return Verdict(status, notes, references)


def load_jwt_policy(path: Path) -> JwtPolicy:
    policy = _Policy(path)
    algorithms = policy.file.mapping(policy.file.data, "algorithms", "(top level)")
    asymmetric = set()
    for name, entry in algorithms.items():
        flag = policy.file.expect_mapping(entry, f"algorithms/{name}").get("asymmetric", False)
        if not isinstance(flag, bool):
            raise DataError(path, f"algorithms/{name}: expected asymmetric to be true or false, got {flag!r}")
        if flag:
            asymmetric.add(name)
    limits = policy.facts()
    for name in ("cookie_bytes", "header_bytes"):
        value = limits[name].value if name in limits else None
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise DataError(path, f"facts/{name}: expected a positive number of bytes, got {value!r}")
    return JwtPolicy(
        verdicts={name: policy.verdict(entry, f"algorithms/{name}", "note") for name, entry in algorithms.items()},
        asymmetric_algorithms=frozenset(asymmetric),
        keys=load_key_scheme_policy(_shared_table(path)),
        limits=limits,
    )


@dataclass(frozen=True)
class ParameterSet:
    """A published Argon2 recommendation, to look up in a run's grid."""

    name: str
    memory_mib: int
    time_cost: int
    threads: int
    references: tuple[Reference, ...]


@dataclass(frozen=True)
class Argon2Policy:
    """data/policy/argon2.yaml: a verdict per variant and the parameter sets readers compare against."""

    variants: dict[str, Verdict]
    parameter_sets: tuple[ParameterSet, ...]
    facts: dict[str, Fact] = field(default_factory=dict)

    def verdict(self, variant: str) -> Verdict:
        return self.variants.get(variant, UNLISTED)

    @property
    def recommended_variants(self) -> tuple[str, ...]:
        return tuple(name for name, verdict in self.variants.items() if verdict.recommendable)


def load_argon2_policy(path: Path) -> Argon2Policy:
    policy = _Policy(path)
    data = policy.file.data
    variants = policy.file.mapping(data, "variants", "(top level)")
    sets = []
    for index, entry in enumerate(policy.file.sequence(data, "parameter_sets", "(top level)")):
        where = f"parameter_sets/{index}"
        entry = policy.file.expect_mapping(entry, where)
        keys = policy.file.sequence(entry, "references", where)
        unknown = [key for key in keys if key not in policy.references]
        if unknown:
            raise DataError(path, f"{where}: references {unknown} are not defined under references")
        sets.append(
            ParameterSet(
                name=policy.file.text(entry, "name", where),
                memory_mib=policy.file.integer(entry, "memory_mib", where),
                time_cost=policy.file.integer(entry, "time_cost", where),
                threads=policy.file.integer(entry, "threads", where),
                references=tuple(policy.references[key] for key in keys),
            )
        )
    return Argon2Policy(
        variants={name: policy.verdict(entry, f"variants/{name}") for name, entry in variants.items()},
        parameter_sets=tuple(sets),
        facts=policy.facts(),
    )
