"""The one table of security verdicts: every primitive the site rates (a cipher and mode, an AEAD, a
curve, an RSA size, a JWS algorithm, a password hash) has exactly one verdict, reason and references.

The table is the union of the `verdicts`, `aliases` and `verdict_rules` sections of every file in
data/policy/, so an experiment adds its primitives in its own policy file; the loader refuses a
primitive or an alias that two entries declare, and a `recommended` entry that names no experiment
measuring it (`measured_by`). An entry cites references defined in its own file. A name is looked up
in this order: its alias, then its own entry, then the first rule of its kind that matches it.

A verdict names its use where it depends on one: an entry's `use` says what its status is for (ML-DSA-65:
signatures where both ends run OpenSSL 3.5+), and `uses` gives the primitive's verdict for each other use
(ML-DSA-65 for JWT: not recommended), so that one primitive has one label per use on every page. An
identifier a standard deprecates carries `deprecated: {by: <reference>, use: <its replacement>}` (RFC
9864's `EdDSA`, replaced by `Ed25519`), and its label says so wherever it is printed.
"""

from __future__ import annotations

import dataclasses
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phpcb.data.datafile import YamlFile
from phpcb.errors import DataError

# Best first: a join of two verdicts (a JWS algorithm and its key) takes the later of the two.
STATUSES = ("recommended", "acceptable", "not_evaluated", "not_recommended")
STATUS_TEXT = {
    "recommended": "recommended",
    "acceptable": "acceptable",
    "not_evaluated": "not evaluated here",
    "not_recommended": "not recommended",
}
# What kind of primitive an entry or rule rates: the pages look names up within one kind. Kinds in use:
# cipher, engine, key, key-family (a curve family's rule), jws, password-hash; an experiment may add its own.
KIND = re.compile(r"^[a-z][a-z0-9-]*$")


@dataclass(frozen=True)
class Reference:
    key: str
    title: str
    url: str


@dataclass(frozen=True)
class Verdict:
    """What the site says of one primitive: `primitive` is its canonical name (aliases resolved). `use`
    names what the status is for, where it depends on one ("" where it does not); `uses` are the same
    primitive's verdicts for its other uses; `deprecated` says which standard deprecates the identifier
    and what replaces it ("" where none does)."""

    primitive: str
    status: str
    notes: tuple[str, ...]
    references: tuple[Reference, ...]
    use: str = ""
    deprecated: str = ""
    uses: tuple[Verdict, ...] = ()

    @property
    def recommendable(self) -> bool:
        return self.status == "recommended"

    @property
    def text(self) -> str:
        """The label every page prints: the status, for the use it depends on, and a deprecated identifier."""
        label = STATUS_TEXT[self.status]
        if self.use:
            label += f" for {self.use}"
        if self.deprecated:
            label += f"; identifier {self.deprecated}"
        return label

    def named(self, primitive: str) -> Verdict:
        """The same verdict for a primitive derived from this one (a parameter set, an algorithm with its key)."""
        return dataclasses.replace(
            self, primitive=primitive, uses=tuple(dataclasses.replace(u, primitive=primitive) for u in self.uses)
        )


def stricter(a: str, b: str) -> str:
    return max(a, b, key=STATUSES.index)


@dataclass(frozen=True)
class Entry:
    """A primitive named in a policy file: its kind, verdict, the experiment that measures it, and
    whatever else the entry says (e.g. a JWS algorithm's `asymmetric`)."""

    kind: str
    verdict: Verdict
    measured_by: str | None
    source: Path
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Rule:
    """A family of names (`match`, a regular expression on the lower-case name) with one verdict."""

    kind: str
    pattern: re.Pattern[str]
    status: str
    notes: tuple[str, ...]
    references: tuple[Reference, ...]
    source: Path

    def verdict(self, primitive: str) -> Verdict:
        return Verdict(primitive, self.status, self.notes, self.references)


UNLISTED_REASON = "Not in the policy table: never recommended by default."


def read_references(file: YamlFile) -> dict[str, Reference]:
    """A policy file's `references` section: the sources its entries cite, by key."""
    found: dict[str, Reference] = {}
    if "references" not in file.data:
        return found
    for key, value in file.mapping(file.data, "references", "(top level)").items():
        where = f"references/{key}"
        entry = file.expect_mapping(value, where)
        found[str(key)] = Reference(str(key), file.text(entry, "title", where), file.text(entry, "url", where))
    return found


def cite(file: YamlFile, references: dict[str, Reference], entry: dict[str, Any], where: str) -> tuple[Reference, ...]:
    """The references an entry names, each defined in its file."""
    keys = file.sequence(entry, "references", where) if "references" in entry else []
    unknown = [key for key in keys if key not in references]
    if unknown:
        raise DataError(file.path, f"{where}: references {unknown} are not defined under references")
    return tuple(references[key] for key in keys)


@dataclass(frozen=True)
class VerdictTable:
    entries: dict[str, Entry]
    aliases: dict[str, str]
    rules: tuple[Rule, ...]

    def canonical(self, name: str) -> str:
        return self.aliases.get(name, name)

    def entry(self, kind: str, name: str) -> Entry | None:
        found = self.entries.get(self.canonical(name))
        return found if found is not None and found.kind == kind else None

    def named(self, kind: str, name: str) -> Verdict | None:
        """The entry's verdict, when a policy file names the primitive (or an alias of it)."""
        found = self.entry(kind, name)
        return found.verdict if found is not None else None

    def by_rule(self, kind: str, subject: str, primitive: str) -> Verdict:
        """The first rule of `kind` matching `subject` (a name, or a curve's family), for `primitive`."""
        for rule in self.rules:
            if rule.kind == kind and rule.pattern.search(subject.lower()):
                return rule.verdict(primitive)
        return Verdict(primitive, "not_recommended", (UNLISTED_REASON,), ())

    def lookup(self, kind: str, name: str) -> Verdict:
        """The verdict of `name`: its entry (through an alias), else the first rule of its kind that matches."""
        canonical = self.canonical(name)
        return self.named(kind, canonical) or self.by_rule(kind, canonical, canonical)

    def of_kind(self, kind: str) -> dict[str, Entry]:
        return {name: entry for name, entry in self.entries.items() if entry.kind == kind}


class _TableBuilder:
    def __init__(self) -> None:
        self.entries: dict[str, Entry] = {}
        self.aliases: dict[str, str] = {}
        self.rules: list[Rule] = []
        self.references: dict[str, Reference] = {}

    def cited(self, file: YamlFile, entry: dict[str, Any], where: str) -> tuple[Reference, ...]:
        return cite(file, self.references, entry, where)

    def status(self, file: YamlFile, entry: dict[str, Any], where: str) -> str:
        status = file.text(entry, "status", where)
        if status not in STATUSES:
            raise DataError(file.path, f"{where}: expected status in {STATUSES}, got {status!r}")
        return status

    def kind(self, file: YamlFile, entry: dict[str, Any], where: str) -> str:
        kind = file.text(entry, "kind", where)
        if not KIND.match(kind):
            raise DataError(file.path, f"{where}: expected a kind such as cipher, key or jws, got {kind!r}")
        return kind

    def deprecated(self, file: YamlFile, entry: dict[str, Any], name: str, where: str) -> str:
        """'deprecated by RFC 9864: use Ed25519', from `deprecated: {by: rfc9864, use: Ed25519}`; ''."""
        if "deprecated" not in entry:
            return ""
        found = file.expect_mapping(entry["deprecated"], f"{where}/deprecated")
        by, replacement = file.text(found, "by", f"{where}/deprecated"), file.text(found, "use", f"{where}/deprecated")
        if by not in self.references:
            raise DataError(file.path, f"{where}/deprecated: by {by!r} is not defined under references")
        if replacement == name:
            raise DataError(file.path, f"{where}/deprecated: {name!r} cannot replace itself")
        standard = self.references[by].title.split(":")[0]
        return f"{name} deprecated by {standard}: use {replacement}"

    def other_uses(self, file: YamlFile, entry: dict[str, Any], name: str, where: str) -> tuple[Verdict, ...]:
        """The verdicts of `uses: {<use>: {status, reason, references}}`, each for its use."""
        if "uses" not in entry:
            return ()
        if "use" not in entry:
            raise DataError(file.path, f"{where}: uses other than its own need 'use', what its status is for")
        found = []
        for use, value in file.mapping(entry, "uses", where).items():
            at = f"{where}/uses/{use}"
            other = file.expect_mapping(value, at)
            status = self.status(file, other, at)
            found.append(
                Verdict(str(name), status, (file.text(other, "reason", at),), self.cited(file, other, at), str(use))
            )
        return tuple(found)

    def add_entries(self, file: YamlFile) -> None:
        if "verdicts" not in file.data:
            return
        for name, value in file.mapping(file.data, "verdicts", "(top level)").items():
            where = f"verdicts/{name}"
            entry = file.expect_mapping(value, where)
            if name in self.entries:
                raise DataError(file.path, f"{where}: also named in {self.entries[name].source.name}: one verdict each")
            status = self.status(file, entry, where)
            measured_by = entry.get("measured_by")
            if measured_by is not None and not isinstance(measured_by, str):
                raise DataError(
                    file.path, f"{where}: expected measured_by to be an experiment's name, got {measured_by!r}"
                )
            uses = self.other_uses(file, entry, str(name), where)
            if measured_by is None and (status == "recommended" or any(u.recommendable for u in uses)):
                raise DataError(
                    file.path,
                    f"{where}: recommended, but no experiment measures it (measured_by): "
                    "what the project did not measure is never recommended",
                )
            known = {"kind", "status", "reason", "references", "measured_by", "use", "uses", "deprecated"}
            verdict = Verdict(
                str(name),
                status,
                (file.text(entry, "reason", where),),
                self.cited(file, entry, where),
                file.text(entry, "use", where) if "use" in entry else "",
                self.deprecated(file, entry, str(name), where),
                uses,
            )
            self.entries[str(name)] = Entry(
                self.kind(file, entry, where),
                verdict,
                measured_by,
                file.path,
                {key: value for key, value in entry.items() if key not in known},
            )

    def add_aliases(self, file: YamlFile) -> None:
        if "aliases" not in file.data:
            return
        for alias, name in file.mapping(file.data, "aliases", "(top level)").items():
            where = f"aliases/{alias}"
            if not isinstance(name, str):
                raise DataError(file.path, f"{where}: expected the name it stands for, got {name!r}")
            if alias in self.aliases and self.aliases[alias] != name:
                raise DataError(file.path, f"{where}: already stands for {self.aliases[alias]!r}")
            self.aliases[str(alias)] = name

    def add_rules(self, file: YamlFile) -> None:
        if "verdict_rules" not in file.data:
            return
        for index, value in enumerate(file.sequence(file.data, "verdict_rules", "(top level)")):
            where = f"verdict_rules/{index}"
            entry = file.expect_mapping(value, where)
            kind = self.kind(file, entry, where)
            owner = next((rule.source for rule in self.rules if rule.kind == kind and rule.source != file.path), None)
            if owner is not None:
                raise DataError(file.path, f"{where}: the {kind} rules are in {owner.name}: one ordered list per kind")
            match = file.text(entry, "match", where)
            try:
                pattern = re.compile(match)
            except re.error as error:
                raise DataError(file.path, f"{where}: {match!r} is not a valid pattern: {error}") from None
            status = self.status(file, entry, where)
            if status == "recommended":
                raise DataError(file.path, f"{where}: a rule names no primitive it measures, so it never recommends")
            notes = (file.text(entry, "reason", where),)
            self.rules.append(Rule(kind, pattern, status, notes, self.cited(file, entry, where), file.path))

    def check_aliases(self, source: Path) -> None:
        for alias, name in self.aliases.items():
            if alias in self.entries:
                raise DataError(source, f"aliases/{alias}: is also a primitive of its own: one name, one verdict")
            if name in self.aliases:
                raise DataError(source, f"aliases/{alias}: stands for {name!r}, itself an alias")

    def table(self) -> VerdictTable:
        return VerdictTable(dict(self.entries), dict(self.aliases), tuple(self.rules))


def policy_files(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.yaml"))


# Tables already built, by their directory and the name and text of each of its policy files (strs, which
# are immutable): every experiment's policy loads the whole table, so a build built it once per experiment.
# A VerdictTable is frozen and nothing changes its mappings once it is built; one that fails is never kept,
# nor one whose files changed while it was read.
_TABLES: OrderedDict[tuple[Path, tuple[tuple[str, str], ...]], VerdictTable] = OrderedDict()
TABLES_KEPT = 16


def _files_key(directory: Path) -> tuple[Path, tuple[tuple[str, str], ...]] | None:
    try:
        return directory, tuple((path.name, path.read_text(encoding="utf-8")) for path in policy_files(directory))
    except (OSError, UnicodeDecodeError):
        return None  # the files are loaded as they are, and the load names the problem


def load_table(directory: Path) -> VerdictTable:
    """Every verdict in data/policy/, checked as one table."""
    key = _files_key(directory)
    if key is not None and key in _TABLES:
        _TABLES.move_to_end(key)
        return _TABLES[key]
    table = _load_table(directory)
    if key is not None and _files_key(directory) == key:
        _TABLES[key] = table
        while len(_TABLES) > TABLES_KEPT:
            _TABLES.popitem(last=False)
    return table


def _load_table(directory: Path) -> VerdictTable:
    builder = _TableBuilder()
    for path in policy_files(directory):
        file = YamlFile.load(path)
        builder.references = read_references(file)
        builder.add_entries(file)
        builder.add_aliases(file)
        builder.add_rules(file)
    builder.check_aliases(directory)
    return builder.table()
