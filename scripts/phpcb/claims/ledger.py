"""data/reference/claims.yaml: every conclusion the source articles draw, as data.

Each claim names its article, a short quote, the experiment page it belongs to, the measure that
decides it (`<experiment>.<name>`, a function in scripts/phpcb/experiments/<experiment>/measures.py or
one of claims/measures.py) with its arguments, and the rule that turns the measurement into a verdict
(claims/rules.py), or why nothing here can test it (`not_testable`: a kind of vocabulary.UNTESTABLE_KINDS
and why). The file also holds what counts as a conclusion (`criterion`), what the ledger leaves out and
why (`left_out`), and the documented facts some claims are checked against (`facts`, with `references`).
The rules' defaults and tolerances are claims/vocabulary.py's, never restated here. A malformed entry
stops the build with one line naming the file and the entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from phpcb.claims.results import Fact, Reference
from phpcb.claims.rules import Rule
from phpcb.claims.vocabulary import (
    DEFAULT_CHANGED_AT,
    DEFAULT_REPRODUCED_AT,
    DEFAULT_SLACK,
    MISSING,
    NO_DIFFERENCE,
    RULES,
    TOLERANCES,
    UNTESTABLE_KINDS,
)
from phpcb.data.datafile import YamlFile
from phpcb.errors import DataError

MAX_QUOTE = 160  # a short quote, not the article's prose
ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True)
class Source:
    key: str
    title: str
    author: str
    published: str


@dataclass(frozen=True)
class NotTestable:
    """Why the ledger does not test a claim, whatever the run: its kind (vocabulary.UNTESTABLE_KINDS:
    an environment that cannot be re-run, a design preference, an unsourced attribution) and why."""

    kind: str
    why: str


@dataclass(frozen=True)
class Claim:
    id: str
    source: Source
    year: str
    quote: str
    page: str  # the experiment page it belongs to
    experiment: str  # whose run and analysis decide it
    measure: str | None  # None: nothing to measure (not_testable says why)
    args: dict[str, Any]
    rule: Rule
    note: str
    not_testable: NotTestable | None = None


@dataclass(frozen=True)
class LeftOut:
    """A statement of an article the ledger does not judge, and why."""

    source: Source
    quote: str
    why: str


@dataclass(frozen=True)
class Ledger:
    criterion: str
    claims: list[Claim]
    facts: dict[str, Fact]
    left_out: list[LeftOut]


class ClaimsFile:
    def __init__(self, path: Path) -> None:
        self.file = YamlFile.load(path)
        self.path = path

    def fail(self, where: str, message: str) -> DataError:
        return DataError(self.path, f"{where}: {message}")

    def sources(self) -> dict[str, Source]:
        found = {}
        for key, value in self.file.mapping(self.file.data, "sources", "(top level)").items():
            where = f"sources/{key}"
            entry = self.file.expect_mapping(value, where)
            found[key] = Source(
                key,
                self.file.text(entry, "title", where),
                self.file.text(entry, "author", where),
                str(self._scalar(entry, "published", where)),
            )
        return found

    def references(self) -> dict[str, Reference]:
        found = {}
        for key, value in self.file.mapping(self.file.data, "references", "(top level)").items():
            where = f"references/{key}"
            entry = self.file.expect_mapping(value, where)
            url = self.file.text(entry, "url", where)
            if not url.startswith("https://"):
                raise self.fail(where, f"expected an https:// url, got {url!r}")
            found[key] = Reference(self.file.text(entry, "title", where), url)
        return found

    def facts(self, references: dict[str, Reference]) -> dict[str, Fact]:
        found = {}
        for key, value in self.file.mapping(self.file.data, "facts", "(top level)").items():
            where = f"facts/{key}"
            entry = self.file.expect_mapping(value, where)
            if "value" not in entry:
                raise self.fail(where, "expected a 'value' entry")
            cited = self.file.sequence(entry, "references", where)
            unknown = [name for name in cited if name not in references]
            if not cited or unknown:
                raise self.fail(where, f"expected references defined under references, got {cited!r}")
            statement = self.file.text(entry, "statement", where)
            found[key] = Fact(key, entry["value"], statement, tuple(references[name] for name in cited))
        return found

    def _scalar(self, entry: dict[str, Any], key: str, where: str) -> str | int:
        value = entry.get(key)
        if not isinstance(value, str | int) or isinstance(value, bool):
            raise self.fail(where, f"expected {key!r} to be text or a year, got {value!r}")
        return value

    def _number(self, entry: dict[str, Any], key: str, where: str, default: float, minimum: float) -> float:
        value = entry.get(key, default)
        if not isinstance(value, int | float) or isinstance(value, bool) or value <= minimum:
            raise self.fail(where, f"expected {key!r} to be a number above {minimum}, got {value!r}")
        return float(value)

    def _flag(self, entry: dict[str, Any], key: str, where: str) -> bool:
        value = entry.get(key, False)
        if not isinstance(value, bool):
            raise self.fail(where, f"expected {key!r} to be true or false, got {value!r}")
        return value

    def _check_claimed(self, kind: str, entry: dict[str, Any], where: str) -> None:
        claimed = entry.get("claimed")
        pattern = entry.get("pattern")
        if kind == "factor":
            value = self._number(entry, "claimed", where, 0, 0)
            if 1 / NO_DIFFERENCE <= value <= NO_DIFFERENCE:
                # A factor this close to 1 claims no measurable difference: that is a `similar` claim.
                raise self.fail(where, f"a factor of {value:g} claims no difference: use rule similar")
        if kind == "equal" and "claimed" not in entry:
            raise self.fail(where, "expected a 'claimed' entry (the fact as the article states it)")
        if kind == "rank" and not (isinstance(claimed, list) and claimed and all(isinstance(c, str) for c in claimed)):
            raise self.fail(where, f"expected 'claimed' to be a list of names, got {claimed!r}")
        if kind == "top_set":
            if pattern is None and not (isinstance(claimed, list) and claimed):
                raise self.fail(where, "expected 'claimed' (a list of names) or 'pattern'")
            if pattern is not None:
                try:
                    re.compile(str(pattern))
                except re.error as error:
                    raise self.fail(where, f"pattern {pattern!r} is not valid: {error}") from None

    def rule(self, entry: dict[str, Any], where: str) -> Rule:
        kind = self.file.text(entry, "rule", where)
        if kind not in RULES:
            raise self.fail(where, f"expected rule in {RULES}, got {kind!r}")
        for key in ("band", "within"):
            if key in entry:
                # One measurement must not reproduce two figures: the tolerance is the kind's, stated once.
                kinds = ", ".join(f"{t.rule} ×/÷ {t.factor:g}" for t in TOLERANCES)
                raise self.fail(where, f"{key!r}: a claim has its kind's tolerance ({kinds}), not its own")
        self._check_claimed(kind, entry, where)
        reproduced_at = self._number(entry, "reproduced_at", where, DEFAULT_REPRODUCED_AT, 0)
        changed_at = self._number(entry, "changed_at", where, DEFAULT_CHANGED_AT, 0)
        if changed_at > reproduced_at:
            raise self.fail(where, f"changed_at {changed_at} is above reproduced_at {reproduced_at}")
        published = entry.get("published", "")
        if not isinstance(published, str):
            raise self.fail(where, f"expected 'published' to be the figure as printed, got {published!r}")
        pattern = entry.get("pattern")
        return Rule(
            kind=kind,
            claimed=entry.get("claimed"),
            slack=int(self._number(entry, "slack", where, DEFAULT_SLACK, -1)),
            reproduced_at=reproduced_at,
            changed_at=changed_at,
            pattern=None if pattern is None else str(pattern),
            slowest_first=self._flag(entry, "slowest_first", where),
            published=published,
            held_then=self._flag(entry, "held_then", where),
        )

    def _source(self, entry: dict[str, Any], where: str, sources: dict[str, Source]) -> Source:
        source = self.file.text(entry, "source", where)
        if source not in sources:
            raise self.fail(where, f"source {source!r} is not defined under sources")
        return sources[source]

    def _quote(self, entry: dict[str, Any], where: str) -> str:
        quote = self.file.text(entry, "quote", where)
        if len(quote) > MAX_QUOTE:
            raise self.fail(where, f"quote is {len(quote)} characters: keep it under {MAX_QUOTE}")
        return quote

    def not_testable(self, entry: dict[str, Any], where: str) -> NotTestable | None:
        if "not_testable" not in entry:
            return None
        found = self.file.mapping(entry, "not_testable", where)
        kind = self.file.text(found, "kind", f"{where}/not_testable")
        known = sorted(set(UNTESTABLE_KINDS) - {MISSING, "samples"})
        if kind not in known:
            # What a run lacks is the measure's to say; the ledger declares only what no run can decide.
            raise self.fail(where, f"expected not_testable.kind in {known}, got {kind!r}")
        return NotTestable(kind, self.file.text(found, "why", f"{where}/not_testable"))

    def claim(self, value: Any, index: int, sources: dict[str, Source]) -> Claim:
        entry = self.file.expect_mapping(value, f"claims/{index}")
        claim_id = entry.get("id")
        if not isinstance(claim_id, str) or not ID.match(claim_id):
            raise self.fail(
                f"claims/{index}", f"expected an 'id' of lower-case letters, digits and -, got {claim_id!r}"
            )
        where = f"claims/{claim_id}"
        page = self.file.text(entry, "page", where)
        not_testable = self.not_testable(entry, where)
        if "measure" in entry or not_testable is None:
            measure = self.file.text(entry, "measure", where)
            if measure.count(".") != 1:
                raise self.fail(where, f"expected measure as <experiment>.<name>, got {measure!r}")
            experiment, name = measure.split(".")
        else:
            # Nothing to measure: the claim is shown with why, from its page's experiment.
            experiment, name = page, None
        return Claim(
            id=claim_id,
            source=self._source(entry, where, sources),
            year=str(self._scalar(entry, "year", where)),
            quote=self._quote(entry, where),
            page=page,
            experiment=experiment,
            measure=name,
            args=self.file.mapping(entry, "args", where) if "args" in entry else {},
            # A claim with nothing to measure is judged by no rule; its verdict is "not testable here".
            rule=self.rule(entry, where) if "rule" in entry or name is not None else Rule("choice"),
            note=self.file.text(entry, "note", where) if "note" in entry else "",
            not_testable=not_testable,
        )

    def left_out(self, sources: dict[str, Source]) -> list[LeftOut]:
        found = []
        for index, value in enumerate(self.file.sequence(self.file.data, "left_out", "(top level)")):
            where = f"left_out/{index}"
            entry = self.file.expect_mapping(value, where)
            found.append(
                LeftOut(
                    self._source(entry, where, sources), self._quote(entry, where), self.file.text(entry, "why", where)
                )
            )
        return found


def load_ledger(path: Path) -> Ledger:
    """The whole file: claims in the file's order (ids unique), facts, and what is left out."""
    claims_file = ClaimsFile(path)
    sources = claims_file.sources()
    claims = [
        claims_file.claim(value, index, sources)
        for index, value in enumerate(claims_file.file.sequence(claims_file.file.data, "claims", "(top level)"))
    ]
    seen: set[str] = set()
    for claim in claims:
        if claim.id in seen:
            raise claims_file.fail(f"claims/{claim.id}", "id used twice")
        seen.add(claim.id)
    return Ledger(
        criterion=claims_file.file.text(claims_file.file.data, "criterion", "(top level)"),
        claims=claims,
        facts=claims_file.facts(claims_file.references()),
        left_out=claims_file.left_out(sources),
    )


def load_claims(path: Path) -> list[Claim]:
    """Every claim, in the file's order; ids are unique."""
    return load_ledger(path).claims
