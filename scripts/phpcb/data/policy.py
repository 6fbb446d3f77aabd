"""Each experiment's security policy (data/policy/<experiment>.yaml): the one table of verdicts
(verdicts.py), read through what the experiment rates, plus its own facts and parameters.

Every verdict the site prints comes from that table, applied here once. A malformed file stops the
build with a DataError naming the file and the entry at fault.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phpcb.data.datafile import YamlFile
from phpcb.data.verdicts import STATUSES, Reference, Verdict, VerdictTable, cite, load_table, read_references, stricter
from phpcb.errors import DataError

__all__ = ["STATUSES", "Fact", "Reference", "Verdict", "VerdictTable"]


@dataclass(frozen=True)
class Fact:
    """Something true of the software, with why and where it is written (e.g. which CCM tag lengths exist)."""

    value: Any
    reason: str
    references: tuple[Reference, ...]


@dataclass(frozen=True)
class Caveat:
    """A line every pick of a page carries (not the verdict of one primitive), with its sources."""

    text: str
    references: tuple[Reference, ...]


class _PolicyFile:
    """An experiment's policy file, read against the table (its references are the table's)."""

    def __init__(self, path: Path, table: VerdictTable) -> None:
        self.file = YamlFile.load(path)
        self.table = table
        self.references = read_references(self.file)

    def cited(self, entry: dict[str, Any], where: str) -> tuple[Reference, ...]:
        return cite(self.file, self.references, entry, where)

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
            self.file.sequence(entry, "references", where)
            found[name] = Fact(entry["value"], self.file.text(entry, "reason", where), self.cited(entry, where))
        return found

    def caveats(self, section: str, key: str) -> tuple[Caveat, ...]:
        found = []
        for index, value in enumerate(self.file.sequence(self.file.data, section, "(top level)")):
            where = f"{section}/{index}"
            entry = self.file.expect_mapping(value, where)
            found.append(Caveat(self.file.text(entry, key, where), self.cited(entry, where)))
        return tuple(found)


def _table(path: Path) -> VerdictTable:
    return load_table(path.parent)


@dataclass(frozen=True)
class AeadPolicy:
    table: VerdictTable
    minimum_tag_bytes: int
    short_tag: Caveat
    facts: dict[str, Fact]

    def verdict(self, algorithm: str, tag_bytes: int) -> Verdict:
        """The cipher's verdict; a tag shorter than the minimum is a parameter set of its own, rated
        no better than acceptable."""
        base = self.table.lookup("cipher", algorithm)
        if tag_bytes >= self.minimum_tag_bytes:
            return base
        references = tuple(dict.fromkeys((*base.references, *self.short_tag.references)))
        return Verdict(
            f"{base.primitive} ({tag_bytes}-byte tag)",
            stricter(base.status, "acceptable"),
            (*base.notes, self.short_tag.text),
            references,
        )


def load_aead_policy(path: Path) -> AeadPolicy:
    policy = _PolicyFile(path, _table(path))
    data = policy.file.data
    short_tag = Caveat(
        policy.file.text(data, "short_tag_note", "(top level)"),
        policy.cited({"references": policy.file.sequence(data, "short_tag_references", "(top level)")}, "short_tag"),
    )
    return AeadPolicy(
        table=policy.table,
        minimum_tag_bytes=policy.file.integer(data, "minimum_recommended_tag_bytes", "(top level)"),
        short_tag=short_tag,
        facts=policy.facts(),
    )


@dataclass(frozen=True)
class SymmetricPolicy:
    """Cipher names as OpenSSL lists them, and the mcrypt engine: each one's entry in the table."""

    table: VerdictTable

    def verdict(self, cipher: str) -> Verdict:
        return self.table.lookup("cipher", cipher)

    def engine(self, engine: str) -> Verdict | None:
        return self.table.named("engine", engine)


def load_symmetric_policy(path: Path) -> SymmetricPolicy:
    YamlFile.load(path)  # the experiment's own file must exist and parse
    return SymmetricPolicy(_table(path))


@dataclass(frozen=True)
class KeySchemePolicy:
    """The public-key verdicts (data/policy/keys.yaml): strength floor first, then the scheme's own
    entry (its alias resolved), its family's rule, the default."""

    table: VerdictTable
    minimum_security_bits: int
    below_minimum: Verdict
    horizon: Caveat

    def verdict(self, scheme: str, family: str, security_bits: int) -> Verdict:
        canonical = self.table.canonical(scheme)
        if security_bits < self.minimum_security_bits:
            return self.below_minimum.named(canonical)
        return self.table.named("key", canonical) or self.table.by_rule("key-family", family, canonical)

    def named(self, scheme: str) -> Verdict:
        """A key the table names (RSA-2048, prime256v1, Ed25519); any other is never recommended."""
        canonical = self.table.canonical(scheme)
        return self.table.named("key", canonical) or self.table.by_rule("key", canonical, canonical)

    def entries(self) -> dict[str, Verdict]:
        return {name: entry.verdict for name, entry in self.table.of_kind("key").items()}


KEYS_FILE = "keys.yaml"


def _keys_file(path: Path) -> Path:
    """The key table an experiment's policy points to with `keys: FILE` (next to it), or the table itself."""
    file = YamlFile.load(path)
    if "keys" not in file.data:
        return path
    name = file.text(file.data, "keys", "(top level)")
    target = path.parent / name
    if Path(name).name != name or not target.is_file():
        raise DataError(path, f"keys: expected the name of a policy file next to this one, got {name!r}")
    return target


def load_key_scheme_policy(path: Path) -> KeySchemePolicy:
    """An experiment's policy that names the key table (`keys: keys.yaml`), or that table itself."""
    keys = _PolicyFile(_keys_file(path), _table(path))
    data = keys.file.data
    floor = keys.file.expect_mapping(data.get("below_minimum"), "below_minimum")
    status = keys.file.text(floor, "status", "below_minimum")
    if status not in STATUSES:
        raise DataError(keys.file.path, f"below_minimum: expected status in {STATUSES}, got {status!r}")
    horizon = keys.file.expect_mapping(data.get("horizon"), "horizon")
    return KeySchemePolicy(
        table=keys.table,
        minimum_security_bits=keys.file.integer(data, "minimum_security_bits", "(top level)"),
        below_minimum=Verdict(
            "", status, (keys.file.text(floor, "reason", "below_minimum"),), keys.cited(floor, "below_minimum")
        ),
        horizon=Caveat(keys.file.text(horizon, "reason", "horizon"), keys.cited(horizon, "horizon")),
    )


@dataclass(frozen=True)
class JwtPolicy:
    """JWS algorithms (the table's `jws` entries); unknown algorithms are never recommended."""

    table: VerdictTable
    limits: dict[str, Fact]
    keys: KeySchemePolicy
    verifier_checks: tuple[Caveat, ...]

    @property
    def limit_bytes(self) -> dict[str, int]:
        """The size limits a token is drawn against: {"cookie_bytes": 4096, "header_bytes": 8192}."""
        return {name: int(fact.value) for name, fact in self.limits.items()}

    def verdict(self, algorithm: str) -> Verdict:
        return self.table.lookup("jws", algorithm)

    def asymmetric(self, algorithm: str) -> bool:
        entry = self.table.entry("jws", algorithm)
        return bool(entry is not None and entry.extra.get("asymmetric") is True)

    def with_key(self, algorithm: str, key: str | None) -> Verdict:
        """The algorithm's verdict joined with its key's (None: an HMAC secret, which the key table
        does not judge): the stricter status, both reasons. The pair is a primitive of its own."""
        own = self.verdict(algorithm)
        if key is None:
            return own
        of_key = self.keys.named(key)
        references = own.references + tuple(r for r in of_key.references if r not in own.references)
        # The key's reason verbatim (it names the key): the same words as on every page that names it. A
        # deprecated identifier stays labelled so with any key.
        return Verdict(
            f"{own.primitive} ({of_key.primitive} key)",
            stricter(own.status, of_key.status),
            own.notes + of_key.notes,
            references,
            deprecated=own.deprecated,
        )


def load_jwt_policy(path: Path) -> JwtPolicy:
    policy = _PolicyFile(path, _table(path))
    for name, entry in policy.table.of_kind("jws").items():
        flag = entry.extra.get("asymmetric", False)
        if not isinstance(flag, bool):
            raise DataError(entry.source, f"verdicts/{name}: expected asymmetric to be true or false, got {flag!r}")
    limits = policy.facts()
    for name in ("cookie_bytes", "header_bytes"):
        value = limits[name].value if name in limits else None
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise DataError(path, f"facts/{name}: expected a positive number of bytes, got {value!r}")
    return JwtPolicy(
        table=policy.table,
        keys=load_key_scheme_policy(path),
        limits=limits,
        verifier_checks=policy.caveats("verifier_checks", "check"),
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
    """data/policy/argon2.yaml: a verdict per variant (the table's `password-hash` entries), the floor
    a parameter set must reach, the parameter sets readers compare against, and the caveats of a pick."""

    table: VerdictTable
    floor_pairs: tuple[tuple[int, int], ...]  # (memory KiB, passes) pairs, any one of which is enough
    below_floor: Caveat
    parameter_sets: tuple[ParameterSet, ...]
    caveats: tuple[Caveat, ...] = ()
    facts: dict[str, Fact] = field(default_factory=dict)

    def verdict(self, variant: str) -> Verdict:
        return self.table.lookup("password-hash", variant)

    @property
    def recommended_variants(self) -> tuple[str, ...]:
        return tuple(name for name, entry in self.table.of_kind("password-hash").items() if entry.verdict.recommendable)

    def meets_floor(self, memory_kib: int, time_cost: int) -> bool:
        return any(memory_kib >= memory and time_cost >= passes for memory, passes in self.floor_pairs)

    def parameters(self, variant: str, memory_kib: int, time_cost: int, threads: int) -> Verdict:
        """A parameter set's verdict: its variant's, or not recommended under the floor."""
        primitive = f"{variant} m={memory_kib} KiB, t={time_cost}, p={threads}"
        if self.meets_floor(memory_kib, time_cost):
            return self.verdict(variant).named(primitive)
        return Verdict(primitive, "not_recommended", (self.below_floor.text,), self.below_floor.references)


def load_argon2_policy(path: Path) -> Argon2Policy:
    policy = _PolicyFile(path, _table(path))
    data = policy.file.data
    floor = policy.file.mapping(data, "floor", "(top level)")
    pairs = []
    for index, value in enumerate(policy.file.sequence(floor, "pairs", "floor")):
        where = f"floor/pairs/{index}"
        entry = policy.file.expect_mapping(value, where)
        pairs.append((policy.file.integer(entry, "memory_kib", where), policy.file.integer(entry, "time_cost", where)))
    sets = []
    for index, entry in enumerate(policy.file.sequence(data, "parameter_sets", "(top level)")):
        where = f"parameter_sets/{index}"
        entry = policy.file.expect_mapping(entry, where)
        policy.file.sequence(entry, "references", where)
        sets.append(
            ParameterSet(
                name=policy.file.text(entry, "name", where),
                memory_mib=policy.file.integer(entry, "memory_mib", where),
                time_cost=policy.file.integer(entry, "time_cost", where),
                threads=policy.file.integer(entry, "threads", where),
                references=policy.cited(entry, where),
            )
        )
    return Argon2Policy(
        table=policy.table,
        floor_pairs=tuple(pairs),
        below_floor=Caveat(policy.file.text(floor, "below", "floor"), policy.cited(floor, "floor")),
        parameter_sets=tuple(sets),
        caveats=policy.caveats("caveats", "text"),
        facts=policy.facts(),
    )
