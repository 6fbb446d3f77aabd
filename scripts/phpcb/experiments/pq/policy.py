"""data/policy/pq.yaml: ML-DSA's verdicts (the one table's `signature` entries, each for its use: signatures
where both ends run OpenSSL 3.5+, and JWT), the classical algorithms' verdicts read from the JWT policy it
names (`limits`: the JWS algorithm joined with its key from the key table, as the JWT page rates the same
pair, so RS256 with RSA-3072 has one label on both pages), the cookie and header limits from the same
policy (the JWT page's facts), its own facts (the JOSE draft, the transition dates) and what PHP cannot
do yet, each line tied to what the runner observed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from phpcb.data.datafile import YamlFile
from phpcb.data.policy import Caveat, Fact, JwtPolicy, KeySchemePolicy, load_jwt_policy, load_key_scheme_policy
from phpcb.data.verdicts import Reference, Verdict, VerdictTable, cite, load_table, read_references
from phpcb.errors import DataError

KIND = "signature"  # ML-DSA's entries in the one table of verdicts
# What the page needs among the facts.
FACTS = ("jose_draft", "transition")
# Not given: the line is a statement no run can check (e.g. that hybrid key exchange lives in TLS).
UNCHECKED = object()


@dataclass(frozen=True)
class Limitation:
    """Something PHP cannot do yet: the statement with its sources, and what the runner checks of it (the
    observed field's name and the value for which the statement holds), if anything."""

    text: str
    references: tuple[Reference, ...]
    observed: str | None = None
    holds_when: Any = UNCHECKED

    def holds(self, observed: dict[str, Any]) -> bool | None:
        """Whether the run saw what the statement says; None when the run recorded nothing of it."""
        if self.observed is None or self.observed not in observed:
            return None
        return bool(observed[self.observed] == self.holds_when)


@dataclass(frozen=True)
class PqPolicy:
    table: VerdictTable
    keys: KeySchemePolicy
    limits: dict[str, Fact]  # the JWT page's cookie_bytes and header_bytes, with their sources
    facts: dict[str, Fact]
    cannot: tuple[Limitation, ...]
    jws: JwtPolicy | None = None  # the JWT page's policy: a classical algorithm's JWS with its key

    @property
    def limit_bytes(self) -> dict[str, int]:
        return {name: int(fact.value) for name, fact in self.limits.items()}

    @property
    def horizon(self) -> Caveat:
        """What every quantum-vulnerable key shares (the key table's horizon), as the curves and JWT pages say it."""
        return self.keys.horizon

    def verdict(self, algorithm: str, post_quantum: bool, jose_alg: str = "") -> Verdict:
        """An ML-DSA parameter set's entry (with its verdict for each use), or a classical key's: the JWS
        algorithm its tokens carry (`jose_alg`) joined with the key, as the JWT page rates that pair; the
        key table's alone (P-256 is prime256v1 there) where no algorithm is named."""
        if post_quantum:
            return self.table.lookup(KIND, algorithm)
        if jose_alg and self.jws is not None:
            return self.jws.with_key(jose_alg, algorithm)
        return self.keys.named(algorithm)


def _pointer(file: YamlFile, key: str) -> Path:
    """The policy file next to this one that `key` names (`limits: jwt.yaml`)."""
    name = file.text(file.data, key, "(top level)")
    target = file.path.parent / name
    if Path(name).name != name or not target.is_file():
        raise DataError(file.path, f"{key}: expected the name of a policy file next to this one, got {name!r}")
    return target


def _facts(file: YamlFile, references: dict[str, Reference]) -> dict[str, Fact]:
    found = {}
    for name, value in file.mapping(file.data, "facts", "(top level)").items():
        where = f"facts/{name}"
        entry = file.expect_mapping(value, where)
        if "value" not in entry:
            raise DataError(file.path, f"{where}: expected a 'value' entry")
        found[str(name)] = Fact(entry["value"], file.text(entry, "reason", where), cite(file, references, entry, where))
    missing = [name for name in FACTS if name not in found]
    if missing:
        raise DataError(file.path, f"facts: expected {list(FACTS)}, missing {missing}")
    return found


def _cannot(file: YamlFile, references: dict[str, Reference]) -> tuple[Limitation, ...]:
    found = []
    for index, value in enumerate(file.sequence(file.data, "cannot", "(top level)")):
        where = f"cannot/{index}"
        entry = file.expect_mapping(value, where)
        observed = file.text(entry, "observed", where) if "observed" in entry else None
        if observed is not None and "holds_when" not in entry:
            raise DataError(file.path, f"{where}: expected 'holds_when', the observed value the line states")
        found.append(
            Limitation(
                text=file.text(entry, "text", where),
                references=cite(file, references, entry, where),
                observed=observed,
                holds_when=entry.get("holds_when", UNCHECKED),
            )
        )
    return tuple(found)


def load_pq_policy(path: Path) -> PqPolicy:
    file = YamlFile.load(path)
    references = read_references(file)
    table = load_table(path.parent)
    for name, entry in table.of_kind(KIND).items():
        if entry.source != path:
            raise DataError(entry.source, f"verdicts/{name}: the {KIND} verdicts are in {path.name}")
    jws = load_jwt_policy(_pointer(file, "limits"))
    return PqPolicy(
        table=table,
        keys=load_key_scheme_policy(path),
        limits=jws.limits,
        facts=_facts(file, references),
        cannot=_cannot(file, references),
        jws=jws,
    )
